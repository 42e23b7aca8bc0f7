/**
 * A site's settings, in process against the emulator (what each case proves is the provider's: what
 * create, diff, update, read and delete send and record; the engine adds nothing to it), one program for
 * all (each case its own site, side by side, so that each step is one run for every case; each case reads
 * its own steps and the requests whose path names its own objects, and every request of a step must
 * belong to one case):
 * - `published`: created unpublished, published by declaring it (exactly the publish call), unpublished
 *   in the app and shown as drift, converged, left alone once no longer declared, and a checkout GitBook
 *   asks for reported as such.
 * - branding: a site branded in the app gets the program's three settings and keeps every other, a site
 *   space's overrides are set and cleared one by one, refresh shows app edits of declared settings, and
 *   removing them leaves the site's settings as they are. (A second customization of one site is refused
 *   by the program's own check: provider/resources/overlaps.test.ts.)
 * - visitor authentication: the `regenerate` trigger sends exactly one regenerate call when its value
 *   changes; app edits show at refresh; removing it sends nothing and leaves the settings. (Its private
 *   key a secret in state and in no file, log or plan: test/lifecycle/everyKind.test.ts through the CLI,
 *   test/unit/visitorAuthSecrets.test.ts for every error.)
 * - a custom hostname: declaring one set up in the app writes nothing (one GET, even with a `revalidate`
 *   trigger); a new trigger value sends one revalidation and records the status GitBook then reports; a
 *   hostname re-pointed in the app shows at refresh, and the next `up` fails naming the hostname, both
 *   sites and the fix, and writes nothing.
 * - `redirectOldPath`: what the plan shows when the program changes a section's path (the path change
 *   and the redirect it adds, as an `oldPathRedirects` entry), the one rule the up makes, and a rule
 *   deleted in the app seen by refresh and put back by the next up.
 * (The site's address, issue 42, is filled in the program process, so it stays with the CLI:
 * test/lifecycle/everyKind.test.ts (a site's address and its key).)
 * The runs that fail on purpose (the re-pointed hostname, the checkout) continue on error, as
 * `--continue-on-error` does, so that every other case's steps are carried out whatever the failing one does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultCustomization } from "../../emulator/resources/customization";
import type { Decl } from "../support/lifecycle";
import { inProcessProgram, RunFailed, stepNames, type InProcessProgram, type ProgramStep } from "../support/program";
import { differencesFromGitBook } from "../support/stateIsGitBook";
import { isOrgQuestion, GIT_SYNC_QUESTION, ORG_QUESTION, startProviderEnv, type ProviderEnv } from "../support/provider";

const ref = (s: string) => ({ $ref: s });
type Json = Record<string, any>;
type Report = { steps: ProgramStep[]; error?: string };
type Deployment = ProviderEnv;
const steps = (r: Report) => stepNames(r.steps);

const PUBLISH = "POST /v1/orgs/:org/sites/:site/publish";
const CUSTOM = "/v1/orgs/:org/sites/:site/customization";
const OVERRIDE = "/v1/orgs/:org/sites/:site/site-spaces/:siteSpace/customization";
const AUTH = "/v1/orgs/:org/sites/:site/publishing/auth";
const HOSTNAME = "/v1/custom-hostnames/:hostname";
const HOST = "docs.acme.test";

/** What the program declares, step by step: each case's part. */
interface Step {
  /** The Site `published`'s `published` (undefined: not declared). */
  published?: boolean;
  /** The checkout case's site's `published`. */
  checkout: boolean;
  branding: boolean;
  /** SiteVisitorAuth's `regenerate` trigger; undefined: no SiteVisitorAuth. */
  regenerate?: string;
  /** SiteCustomHostname's `revalidate` trigger and the site it names; undefined: no hostname. */
  hostname?: { revalidate: string; site: "docs" | "other" };
  path: string;
}

function program(d: Deployment, s: Step): Decl[] {
  const spaces = d.emu.seeded.spaceIds;
  const decls: Decl[] = [
    { kind: "Site", name: "published", args: { title: "Published Docs", ...(s.published === undefined ? {} : { published: s.published }) } },
    { kind: "Site", name: "checkout", args: { title: "Checkout Docs", published: s.checkout } },
    { kind: "Site", name: "branded", args: { title: "Branded Docs" } },
    { kind: "SiteSection", name: "guides", args: { siteId: ref("branded.id"), spaceId: spaces[0] } },
    { kind: "Site", name: "private", args: { title: "Private Docs" } },
    { kind: "Site", name: "docs", args: { title: "Product Docs" } },
    { kind: "Site", name: "other", args: { title: "Other Docs" } },
    { kind: "Site", name: "moving", args: { title: "Moving Docs", published: true } },
    { kind: "SiteSection", name: "moving-guides", args: { siteId: ref("moving.id"), spaceId: spaces[1], path: s.path, redirectOldPath: true } },
  ];
  if (s.branding) decls.push(branding(), overrides());
  if (s.regenerate) {
    decls.push({ kind: "SiteVisitorAuth", name: "auth", args: { siteId: ref("private.id"), backend: "custom", fallbackURL: "https://login.acme.test/", regenerate: s.regenerate } });
  }
  if (s.hostname) {
    decls.push({
      kind: "SiteCustomHostname",
      name: "hostname",
      args: { siteId: ref(`${s.hostname.site}.id`), hostname: HOST, revalidate: s.hostname.revalidate, removeOnDestroy: true },
    });
  }
  return decls;
}

const branding = (args: Json = {}): Decl => ({
  kind: "SiteCustomization",
  name: "branding",
  args: { siteId: ref("branded.id"), styling: { primaryColor: { light: "#346ddb", dark: "#8fb3ff" } }, footer: { copyright: "© Acme Inc." }, themes: { default: "dark" }, ...args },
});
const overrides = (): Decl => ({ kind: "SiteSpaceCustomization", name: "guides-branding", args: { siteId: ref("branded.id"), siteSpaceId: ref("guides.siteSpaceId"), title: "Guides FR" } });

const BASE: Step = { checkout: false, branding: false, regenerate: "v1", path: "guides-v1" };
/** Every case's change at once: published, branded, a new regenerate trigger, a hostname adopted, a path moved. */
const CHANGED: Step = { published: true, checkout: false, branding: true, regenerate: "v2", hostname: { revalidate: "v1", site: "docs" }, path: "guides-v2" };
const REVALIDATED: Step = { ...CHANGED, hostname: { revalidate: "v2", site: "docs" } };
/** The program stops declaring `published`, the branding and the visitor authentication; the checkout site asks to be published; the hostname is followed to the site it now points to. */
const LAST: Step = { checkout: true, branding: false, hostname: { revalidate: "v2", site: "other" }, path: "guides-v2" };


describe("a site's settings, each case on its own site in one program", () => {
  let d: Deployment;
  let p: InProcessProgram;
  const ids = {} as Record<"published" | "checkout" | "branded" | "private" | "docs" | "other" | "moving", string>;
  let siteSpaceId: string;
  let movingUrl: string;
  /** The site branded in the app before the program declares its branding. */
  let before: Json;
  /** Every key the private site has had. */
  const keys: string[] = [];
  /** The last run's requests, keyed "METHOD route", whose path names `id` (an object of one case). */
  const requestsOf = (id: string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const e of d.emu.log.entries) if (e.path.split("/").includes(id)) out[`${e.method} ${e.route}`] = (out[`${e.method} ${e.route}`] ?? 0) + 1;
    return out;
  };
  /**
   * Runs `op`, resetting the request log first; every request of the run must belong to one case, or it
   * would escape every case's count: all but the question whether the token sees the organization,
   * which a process sends once before its first change.
   */
  let last: Decl[] = [];
  const run = async (op: "preview" | "up" | "refresh", decls?: Decl[], opts: { continueOnError?: boolean } = {}): Promise<Report> => {
    d.emu.log.reset();
    // As the CLI suites' runs: a run given no program runs the last one given, a preview's too.
    if (decls) last = decls;
    let r: Report;
    try {
      r = { steps: await (op === "refresh" ? p.refresh() : op === "up" ? p.up(last, opts) : p.preview(last)) };
    } catch (e) {
      r = e instanceof RunFailed ? { steps: e.steps, error: e.message } : { steps: [], error: (e as Error).message };
    }
    const mine = [...Object.values(ids), HOST];
    expect(d.emu.log.entries.filter((e) => !isOrgQuestion(e) && !e.path.split("/").some((p) => mine.includes(p))).map((e) => `${e.method} ${e.path}`)).toEqual([]);
    return r;
  };
  const stepOf = (r: Report, name: string) => r.steps.find((s) => s.name === name);
  const resource = (name: string) => p.resource(name);
  const state = () => p.names().map((name) => ({ name, ...p.resource(name), type: "" }));
  const site = (name: "published" | "checkout") => d.emu.store.sites.get(ids[name])!;
  const settings = () => d.emu.store.siteCustomizations.get(ids.branded)!.settings as Json;
  const stored = () => d.emu.store.siteSpaceCustomizations.get(siteSpaceId)?.overrides;
  const auth = () => d.emu.store.publishingAuths.get(ids.private)!;
  const hostname = () => d.emu.store.customHostnames.get(HOST)!;
  const rules = () => [...d.emu.store.siteRedirects.values()].filter((r) => r.siteId === ids.moving).map((r) => [r.source, (r.destination as { url?: string }).url]);

  beforeAll(async () => {
    d = await startProviderEnv();
    p = inProcessProgram(d);
  });
  afterAll(async () => d?.close());

  it("creates: a site unpublished when the program does not say; visitor authentication applied", async () => {
    await p.up((last = program(d, BASE)));
    for (const name of Object.keys({ published: 0, checkout: 0, branded: 0, private: 0, docs: 0, other: 0, moving: 0 }) as Array<keyof typeof ids>) ids[name] = resource(name).id;
    expect(await differencesFromGitBook(d.emu, state())).toEqual([]);
    siteSpaceId = resource("guides").outputs.siteSpaceId as string;
    movingUrl = String((resource("moving").outputs.urls as { published: string }).published).replace(/\/$/, "");

    // published: undeclared, the publication is not the Site's output (a SitePublication may own it).
    expect(site("published").published).toBe(false);
    expect(resource("published").outputs).not.toHaveProperty("published");
    expect(site("checkout").published).toBe(false);

    // Visitor authentication.
    expect(resource("auth").id).toBe(ids.private);
    expect(auth()).toMatchObject({ backend: "custom", fallbackURL: "https://login.acme.test/" });
    keys.push(auth().privateKey);

    // Branded in the app: every group differs from GitBook's defaults.
    const def = defaultCustomization() as Json;
    before = {
      ...def,
      title: "Acme",
      styling: { ...def.styling, theme: "bold", corners: "straight", font: "Lato" },
      header: { ...def.header, links: [{ title: "Home", to: { kind: "url", url: "https://acme.test" }, links: [] }] },
      favicon: { emoji: "🚀" },
      feedback: { enabled: true },
    };
    d.emu.store.siteCustomizations.set(ids.branded, { id: ids.branded, seq: 0, createdAt: "", siteId: ids.branded, settings: structuredClone(before), updatedAt: new Date().toISOString() });
    // A custom hostname set up in the app: GitBook's API cannot.
    const { seq, createdAt } = d.emu.store.newId("host");
    d.emu.store.customHostnames.set(HOST, { id: HOST, seq, createdAt, targetType: "site", targetId: ids.docs, isActive: true, status: "dns_wrong_cname" });
    d.emu.store.sites.get(ids.docs)!.hostname = HOST;
  });

  it("previews every case's change with nothing sent but the question about the organization: the publication, the branding, the path change and the redirect it adds", async () => {
    const r = await run("preview", program(d, CHANGED));
    expect(r.error).toBeUndefined();
    // And, for the moved section's site, whether Git Sync owns its structure.
    expect(d.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [GIT_SYNC_QUESTION]: 1 });
    expect(stepOf(r, "published")).toMatchObject({ op: "update", changed: ["published"] });
    expect(steps(r)).toEqual(expect.arrayContaining(["create branding", "create guides-branding"]));
    // The plan: the path change, and beside it the redirect from the old path.
    expect(stepOf(r, "moving-guides")).toMatchObject({ op: "update", changed: expect.arrayContaining(["path", "oldPathRedirects"]) });
  });

  it("applies them, each case with exactly its own requests", async () => {
    const r = await run("up");
    expect(r.error).toBeUndefined();

    // published: exactly the publish call.
    expect(requestsOf(ids.published)).toEqual({ [PUBLISH]: 1 });
    expect(site("published").published).toBe(true);
    expect(resource("published").outputs).toMatchObject({ published: true, urls: { published: expect.stringMatching(/^https:\/\//) } });

    // Branding: one GET and one PUT, keeping every other setting; the override set.
    expect(requestsOf(ids.branded)).toEqual({ [`GET ${CUSTOM}`]: 1, [`PUT ${CUSTOM}`]: 1, [`GET ${OVERRIDE}`]: 1, [`PATCH ${OVERRIDE}`]: 1 });
    expect(settings()).toEqual({
      ...before,
      styling: { ...before.styling, primaryColor: { light: "#346ddb", dark: "#8fb3ff" } },
      footer: { ...before.footer, copyright: "© Acme Inc." },
      themes: { ...before.themes, default: "dark" },
    });
    expect(stored()).toEqual({ title: "Guides FR" });

    // Visitor authentication: the key regenerated with one call (after reading the key), when the trigger changes.
    expect(stepOf(r, "auth")).toMatchObject({ op: "update", changed: ["regenerate"] });
    expect(requestsOf(ids.private)).toEqual({ [`GET ${AUTH}`]: 1, [`POST ${AUTH}/regenerate`]: 1 });
    expect(auth().privateKey).not.toBe(keys[0]);
    keys.push(auth().privateKey);

    // The hostname set up in the app adopted with one GET and no write, even with a revalidate trigger.
    expect(requestsOf(HOST)).toEqual({ [`GET ${HOSTNAME}`]: 1 });
    expect(resource("hostname")).toMatchObject({ id: HOST, outputs: { isActive: true, status: "dns_wrong_cname", target: { type: "site", id: ids.docs } } });

    // The path change makes its redirect once.
    expect(rules()).toEqual([["/guides-v1/*", `${movingUrl}/guides-v2`]]);
    expect(d.emu.log.count({ method: "POST", route: /\/redirects$/ })).toBe(1);
    expect(resource("moving-guides").inputs.oldPathRedirects).toEqual([{ path: "guides-v1" }]);

    // Every case's state is what GitBook holds.
    expect(await differencesFromGitBook(d.emu, state())).toEqual([]);
  });

  it("re-runs with nothing sent for any case, but the hostname's new trigger: one revalidation, and the status GitBook then reports", async () => {
    const r = await run("up", program(d, REVALIDATED));
    expect(r.error).toBeUndefined();
    expect(steps(r).filter((s) => !s.startsWith("same"))).toEqual(["update hostname"]);
    expect(stepOf(r, "hostname")).toMatchObject({ op: "update", changed: ["revalidate"] });
    // And the question whether the token sees the organization, once (the harness's up skips the preview, whose process would ask once more).
    expect(d.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [`GET ${HOSTNAME}`]: 2, [`PATCH ${HOSTNAME}`]: 1 });
    expect(resource("hostname").outputs).toMatchObject({ status: "ssl_pending", revalidate: "v2" });
  });

  it("shows each case's app edit as drift at refresh, and none of settings the program does not declare", async () => {
    site("published").published = false;
    settings().themes.default = "light"; // declared
    settings().styling.theme = "muted"; // not declared
    stored()!.title = "Edited in the app"; // a declared override
    auth().fallbackURL = "https://elsewhere.acme.test/";
    for (const [id, rule] of d.emu.store.siteRedirects) if (rule.siteId === ids.moving) d.emu.store.siteRedirects.delete(id);
    d.emu.edit("customHostname", HOST, { targetId: ids.other });

    const r = await run("refresh");
    expect(r.error).toBeUndefined();
    expect(stepOf(r, "published")!.changed).toContain("published");
    expect(resource("published").inputs.published).toBe(false);
    expect(stepOf(r, "branding")).toMatchObject({ op: "refresh", changed: ["themes"] });
    expect(stepOf(r, "guides-branding")).toMatchObject({ op: "refresh", changed: ["title"] });
    expect(stepOf(r, "auth")?.changed).toContain("fallbackURL");
    expect(resource("moving-guides").outputs.oldPathRedirects).toEqual([{ path: "guides-v1", status: "deleted in GitBook" }]);
    // The refresh records what GitBook shows; the hostname stays in state for the program to follow or fix.
    expect(resource("hostname").outputs).toMatchObject({ siteId: ids.other, target: { type: "site", id: ids.other } });
    expect(d.emu.log.writes()).toBe(0);
  });

  it("converges each declared setting with its one write; the re-pointed hostname fails with the way to fix it, writing nothing", async () => {
    const r = await run("up", program(d, REVALIDATED), { continueOnError: true });
    expect(r.error).toBeDefined();

    // The hostname.
    expect(r.error).toContain(
      `SiteCustomHostname hostname: siteId: custom hostname ${HOST} points to site ${ids.other}, not to site ${ids.docs}. GitBook's API cannot set up or re-point a custom hostname: do it in the GitBook app`,
    );
    expect(Object.keys(requestsOf(HOST)).filter((k) => !k.startsWith("GET "))).toEqual([]);
    expect(hostname()).toMatchObject({ targetId: ids.other, isActive: true });

    // published: one call.
    const published = stepOf(r, "published")!;
    expect(published.op).toBe("update");
    expect(published.changed).toContain("published");
    expect(requestsOf(ids.published)).toEqual({ [PUBLISH]: 1 });
    expect(site("published").published).toBe(true);

    // Branding: the declared settings alone.
    expect(settings().themes.default).toBe("dark");
    expect(settings().styling.theme).toBe("muted");
    expect(stored()).toEqual({ title: "Guides FR" });

    // Visitor authentication: one PATCH.
    expect(requestsOf(ids.private)).toEqual({ [`GET ${AUTH}`]: 1, [`PATCH ${AUTH}`]: 1 });
    expect(auth().fallbackURL).toBe("https://login.acme.test/");

    // The redirect made again: one rule, never two.
    expect(steps(r)).toContain("update moving-guides");
    expect(rules()).toEqual([["/guides-v1/*", `${movingUrl}/guides-v2`]]);
    expect(resource("moving-guides").outputs.oldPathRedirects).toEqual([{ path: "guides-v1" }]);
  });

  it("leaves what the program stops declaring as it is (publication, branding, visitor authentication); fails a publish that needs a checkout", async () => {
    stored()!.footer = { copyright: "made in the app" };
    const current = structuredClone(settings());
    d.emu.store.orgs.get(d.emu.seeded.organizationId)!.publishNeedsCheckout = true;
    const r = await run("up", program(d, LAST), { continueOnError: true });
    expect(r.error).toBeDefined();

    // published: no longer declared, left as it is.
    expect(requestsOf(ids.published)).toEqual({});
    expect(site("published").published).toBe(true);
    // The checkout GitBook asks for, reported as such; the site left unpublished.
    expect(r.error).toMatch(/Site checkout: published: GitBook did not publish site \S+: the organization's plan needs an upgrade first \(GitBook answered with Stripe checkout session cs_\w+ instead\)/);
    expect(site("checkout").published).toBe(false);

    // Branding: the site's settings as they are; only the declared overrides cleared.
    expect(steps(r)).toEqual(expect.arrayContaining(["delete branding", "delete guides-branding"]));
    expect(requestsOf(ids.branded)).toEqual({ [`PATCH ${OVERRIDE}`]: 1 });
    expect(settings()).toEqual(current);
    expect(stored()).toEqual({ footer: { copyright: "made in the app" } });

    // Visitor authentication: no request; the site keeps the settings.
    expect(steps(r)).toContain("delete auth");
    expect(requestsOf(ids.private)).toEqual({});
    expect(auth()).toMatchObject({ fallbackURL: "https://login.acme.test/", privateKey: keys[1] });

    // The hostname, once the program names the site it points to, needs nothing.
    expect(stepOf(r, "hostname")?.op).toBe("same");
    expect(Object.keys(requestsOf(HOST)).filter((k) => !k.startsWith("GET "))).toEqual([]);
  });
});
