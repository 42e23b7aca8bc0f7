/**
 * `redirectOldPath` on SiteSection and SiteSpace, in process against the emulator: what a path change
 * adds (one rule, one POST; nothing at all with the option off), chains rewritten, a move back, a rule
 * made elsewhere never taken, refresh seeing an app edit and up restoring it, a lost POST answer, the
 * option turned off and the resource deleted.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UNKNOWN } from "../framework/check";
import { PartialFailure } from "../framework/failure";
import { GIT_SYNC_QUESTION, ORG_QUESTION, startProviderEnv, type ProviderEnv, type State } from "../../test/support/provider";
import { GitbookClient } from "../client";
import { resolveConfig } from "../config";
import { planRecovery, recoveredCheckpoint } from "../recover/plan";
import { serializedShim } from "../shim";

let env: ProviderEnv;
let spaces: string[];
beforeAll(async () => {
  env = await startProviderEnv();
  spaces = env.emu.seeded.spaceIds;
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());

const REDIRECTS = /\/redirects(\/:redirect)?$/;
const rulesOf = (site: string) =>
  [...env.emu.store.siteRedirects.values()].filter((r) => r.siteId === site).map((r) => [r.source, (r.destination as { url?: string }).url]);
const redirectRequests = () => env.emu.log.count({ route: REDIRECTS });
const ownedId = (s: State, path: string) => (s.outs.oldPathRedirectRules as Record<string, { id: string }>)[path]!.id;

/**
 * A section of a new published site moved from `${p}1` to `${p}2` with redirectOldPath, the rule's POST
 * lost as `drop` says and every looking after it failing: the partial failure that records the rule as
 * "not confirmed".
 */
async function notConfirmedMove(title: string, p: string, drop: "dropBeforeProcess" | "dropAfterProcess") {
  const site = await publishedSite(title);
  const given = { siteId: site.id, spaceId: spaces[0], path: `${p}1`, redirectOldPath: true };
  const before = (await env.up("SiteSection", given)).state;
  const post = { method: "POST", route: /\/redirects$/ };
  env.emu.faults.add(drop === "dropBeforeProcess" ? { match: post, dropBeforeProcess: true, times: 1 } : { match: post, dropAfterProcess: true, times: 1 });
  env.emu.faults.add({ match: { method: "GET", route: /\/redirects$/ }, errorRate: 1, status: 500, after: 1 });
  const e = (await env.up("SiteSection", { ...given, path: `${p}2` }, before).then(() => undefined, (x: Error) => x)) as PartialFailure;
  env.emu.faults.clear();
  return { site, given, before, e };
}

/** The outputs as `pulumi-gitbook recover --adopt <URN>=<rule>` leaves them: the rule recorded as the section's (recover/plan.ts). */
async function recorded(outs: Record<string, unknown>, rule: string): Promise<Record<string, unknown>> {
  const urn = "urn:pulumi:dev::docs::pulumi-nodejs:dynamic/gitbook:SiteSection::s";
  const r = { urn, type: "pulumi-nodejs:dynamic/gitbook:SiteSection", id: "s", inputs: { __provider: serializedShim("SiteSection") }, outputs: outs };
  const exported = { version: 3, deployment: { resources: [r] } };
  const client = new GitbookClient({ token: env.emu.token, apiUrl: env.emu.url });
  try {
    const ctx = { client, config: resolveConfig({ token: env.emu.token, apiUrl: env.emu.url }, {}) };
    const plan = await planRecovery(ctx, exported, { adopt: new Map([[urn, [rule]]]), drop: new Set() });
    expect(plan).toMatchObject([{ action: "adopt", id: rule }]);
    return (await recoveredCheckpoint(ctx, exported, plan)).deployment.resources![0]!.outputs!;
  } finally {
    await client.close();
  }
}

async function publishedSite(title: string): Promise<{ id: string; url: string }> {
  const s = (await env.up("Site", { title, published: true })).state;
  return { id: s.id, url: (s.outs.urls as { published: string }).published.replace(/\/$/, "") };
}

describe("check: the redirect a plan shows", () => {
  const base = { siteId: "site_x", spaceId: "spc_x", redirectOldPath: true };
  const olds = { organizationId: "org_x", ...base, path: "a", oldPathRedirects: [{ path: "z", status: "deleted in GitBook" }] };
  const planned = async (news: Record<string, unknown>, recorded: Record<string, unknown> = olds) => (await env.check("SiteSection", news, recorded)).inputs?.oldPathRedirects;

  it("adds the old path on a move, drops the new one on a move back, asks again for a rule refresh saw deleted, and sends nothing but the question about the organization", async () => {
    env.emu.log.reset();
    expect(await planned({ ...base, path: "b" })).toEqual([{ path: "z" }, { path: "a" }]);
    expect(await planned({ ...base, path: "z" })).toEqual([{ path: "a" }]);
    expect(await planned({ ...base, path: "a" })).toEqual([{ path: "z" }]);
    // Not in state yet, the option off, or a path removed or unknown at preview: no move to redirect.
    expect(await planned({ ...base, path: "b" }, {})).toBeUndefined();
    expect(await planned({ siteId: "site_x", spaceId: "spc_x", path: "b" })).toBeUndefined();
    expect(await planned({ ...base })).toEqual([{ path: "z" }]);
    expect(await planned({ ...base, path: UNKNOWN })).toEqual([{ path: "z" }]);
    // The program never sets it: a declared value is replaced.
    expect(await planned({ ...base, path: "a", oldPathRedirects: [{ path: "mine" }] }, {})).toBeUndefined();
    // And, once for the site, whether Git Sync owns its structure.
    expect(env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [GIT_SYNC_QUESTION]: 1 });
  });
});

describe("SiteSection redirectOldPath", () => {
  it("with the option off, a path change sends no redirect request", async () => {
    const site = await publishedSite("Off Docs");
    const given = { siteId: site.id, spaceId: spaces[0], path: "a" };
    let s = (await env.up("SiteSection", given)).state;
    env.emu.log.reset();
    s = (await env.up("SiteSection", { ...given, path: "b" }, s)).state;
    expect(env.emu.log.count()).toBe(1); // the section's PATCH
    expect(redirectRequests()).toBe(0);
    expect(rulesOf(site.id)).toEqual([]);
    expect(s.outs).not.toHaveProperty("oldPathRedirects");
  });

  it("adds one rule from the old path, rewrites it on the next move (no chain), and deletes it on a move back (no loop)", async () => {
    const site = await publishedSite("Moving Docs");
    const given = { siteId: site.id, spaceId: spaces[0], path: "a", redirectOldPath: true };
    let s = (await env.up("SiteSection", given)).state;
    // Turning the option on alone sends nothing.
    env.emu.log.reset();
    expect((await env.up("SiteSection", given, s)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);

    env.emu.log.reset();
    const moved = await env.up("SiteSection", { ...given, path: "b" }, s);
    s = moved.state;
    // What the plan shows: the entry beside the path change.
    expect(moved.inputs.oldPathRedirects).toEqual([{ path: "a" }]);
    expect(rulesOf(site.id)).toEqual([["/a/*", `${site.url}/b`]]);
    expect(env.emu.log.count({ method: "POST", route: REDIRECTS })).toBe(1);
    expect(env.emu.log.writes()).toBe(2); // the section's PATCH and the rule's POST
    expect(s.outs.oldPathRedirectRules).toEqual({ a: { id: expect.any(String), source: "/a/*" } });

    // a → b, then b → c: the owned a → b becomes a → c, and b → c is added.
    s = (await env.up("SiteSection", { ...given, path: "c" }, s)).state;
    expect(rulesOf(site.id).sort()).toEqual([
      ["/a/*", `${site.url}/c`],
      ["/b/*", `${site.url}/c`],
    ]);
    expect(s.outs.oldPathRedirects).toEqual([{ path: "a" }, { path: "b" }]);

    // Back to a: its rule would send visitors away from the section's own path, so it goes.
    const back = await env.up("SiteSection", { ...given, path: "a" }, s);
    s = back.state;
    expect(back.inputs.oldPathRedirects).toEqual([{ path: "b" }, { path: "c" }]);
    expect(rulesOf(site.id).sort()).toEqual([
      ["/b/*", `${site.url}/a`],
      ["/c/*", `${site.url}/a`],
    ]);

    // Turning the option off deletes the rules the section made; deleting it would too.
    env.emu.log.reset();
    const { redirectOldPath: _, ...off } = given;
    s = (await env.up("SiteSection", { ...off, path: "a" }, s)).state;
    expect(rulesOf(site.id)).toEqual([]);
    expect(env.emu.log.count({ method: "DELETE", route: REDIRECTS })).toBe(2);
    expect(s.outs).not.toHaveProperty("oldPathRedirectRules");
  });

  it("never takes over a rule for the old path made elsewhere: the move is recorded, the failure names the rule, and the next up adds it once the rule is gone", async () => {
    const site = await publishedSite("Held Docs");
    const given = { siteId: site.id, spaceId: spaces[0], path: "x", redirectOldPath: true };
    let s = (await env.up("SiteSection", given)).state;
    const mine = await env.up("SiteRedirect", { siteId: site.id, source: "/x/*", destination: { url: "https://elsewhere.test" } });
    const err = (await env.up("SiteSection", { ...given, path: "y" }, s).then(
      () => undefined,
      (e: unknown) => e,
    )) as { message: string; properties: Record<string, unknown> };
    expect(err.message).toMatch(new RegExp(`redirectOldPath: the site already has rule ${mine.state.id} \\(/x/\\*\\), which this resource has no record of making`));
    // Blaming nobody: it says what could have made it, and the command for each case.
    expect(err.message).toContain(`run \`npx pulumi-gitbook recover --stack <stack> --adopt <this resource's URN>=${mine.state.id}\``);
    expect(err.message).toMatch(/was updated but its old-path redirects could not be made; it is kept in state/);
    const partial = err.properties;
    expect(partial.path).toBe("y");
    expect(partial.oldPathRedirects).toEqual([{ path: "x", status: "not created" }]);
    expect(rulesOf(site.id)).toEqual([["/x/*", "https://elsewhere.test"]]);

    // Once the other rule is gone, the next up adds the redirect.
    await env.destroy("SiteRedirect", mine.state);
    env.outOfBand();
    const { __provider: _p, ...outs } = partial;
    s = (await env.up("SiteSection", { ...given, path: "y" }, { id: s.id, outs })).state;
    expect(rulesOf(site.id)).toEqual([["/x/*", `${site.url}/y`]]);
    expect(s.outs.oldPathRedirects).toEqual([{ path: "x" }]);
  });

  it("refresh shows a rule deleted or changed in the app, and up puts it back", async () => {
    const site = await publishedSite("Edited Docs");
    const given = { siteId: site.id, spaceId: spaces[0], path: "p1", redirectOldPath: true };
    let s = (await env.up("SiteSection", given)).state;
    s = (await env.up("SiteSection", { ...given, path: "p2" }, s)).state;
    const id = ownedId(s, "p1");

    env.emu.store.siteRedirects.delete(id);
    env.outOfBand();
    const refreshed = (await env.refresh("SiteSection", s))!;
    expect(refreshed.inputs.oldPathRedirects).toEqual([{ path: "p1", status: "deleted in GitBook" }]);
    env.emu.log.reset();
    const restored = await env.up("SiteSection", { ...given, path: "p2" }, refreshed.state);
    expect(restored.step).toBe("update");
    expect(env.emu.log.count({ method: "POST", route: REDIRECTS })).toBe(1);
    expect(rulesOf(site.id)).toEqual([["/p1/*", `${site.url}/p2`]]);
    s = restored.state;

    const newId = ownedId(s, "p1");
    env.emu.store.siteRedirects.get(newId)!.destination = { kind: "external", url: "https://app.test" };
    env.outOfBand();
    const changed = (await env.refresh("SiteSection", s))!;
    expect(changed.inputs.oldPathRedirects).toEqual([{ path: "p1", status: "changed in GitBook" }]);
    env.emu.log.reset();
    s = (await env.up("SiteSection", { ...given, path: "p2" }, changed.state)).state;
    expect(env.emu.log.count({ method: "PATCH", route: REDIRECTS })).toBe(1);
    expect(rulesOf(site.id)).toEqual([["/p1/*", `${site.url}/p2`]]);

    // Unchanged: a refresh and an up send no write.
    env.emu.log.reset();
    const again = (await env.refresh("SiteSection", s))!;
    expect(again.inputs.oldPathRedirects).toEqual([{ path: "p1" }]);
    expect((await env.up("SiteSection", { ...given, path: "p2" }, again.state)).step).toBe("same");
    expect(env.emu.log.writes()).toBe(0);

    // Deleting the section deletes its rules: they point at a path no longer there.
    await env.destroy("SiteSection", again.state);
    expect(rulesOf(site.id)).toEqual([]);
  });

  it("survives a lost answer to the rule's POST without making it twice", async () => {
    const site = await publishedSite("Lossy Docs");
    const given = { siteId: site.id, spaceId: spaces[0], path: "l1", redirectOldPath: true };
    let s = (await env.up("SiteSection", given)).state;
    env.emu.faults.add({ match: { method: "POST", route: /\/redirects$/ }, dropAfterProcess: true, times: 1 });
    s = (await env.up("SiteSection", { ...given, path: "l2" }, s)).state;
    expect(rulesOf(site.id)).toEqual([["/l1/*", `${site.url}/l2`]]);
    expect(ownedId(s, "l1")).toBe([...env.emu.store.siteRedirects.values()].find((r) => r.siteId === site.id)!.id);
  });

  it("a lost answer to the rule's POST whose looking fails too: the up fails saying so (the section is no unconfirmed create); the next names the rule for recover, sending nothing, and after --adopt converges with no second rule", async () => {
    const { site, given, before, e } = await notConfirmedMove("Unlooked Docs", "u", "dropAfterProcess");
    expect(e?.message).toMatch(/could not be looked for .* Nothing was sent again; what it may have made dates from [0-9T:.-]+Z on\. The next up looks for it first/);
    expect(e?.message).not.toMatch(/unconfirmed|pulumi-gitbook recover/);
    expect(rulesOf(site.id)).toEqual([["/u1/*", `${site.url}/u2`]]);
    // The section is kept with the rule as not confirmed: a refresh says so.
    const kept = e.properties;
    expect(kept.oldPathRedirects).toEqual([{ path: "u1", status: "not confirmed" }]);
    const state = { id: before.id, outs: kept };
    expect((await env.refresh("SiteSection", state))!.inputs.oldPathRedirects).toEqual([{ path: "u1", status: "not confirmed" }]);
    // The rule the lost POST made is there, but nothing proves it is this resource's: named, nothing sent.
    env.emu.log.reset();
    const again = await env.up("SiteSection", { ...given, path: "u2" }, state).then(() => undefined, (x: Error) => x);
    const [rule] = [...env.emu.store.siteRedirects.values()].filter((r) => r.siteId === site.id);
    expect(again?.message).toMatch(new RegExp(`the site now has rule ${rule!.id} from that source, which it may have made or someone else may have: nothing proves which\\. Nothing was sent\\. Run \`npx pulumi-gitbook recover --stack <stack>\``));
    expect(env.emu.log.writes()).toBe(0);
    // The user's --adopt records it; the next up sends nothing for it, and the section's delete takes it.
    const outs = await recorded(state.outs, rule!.id);
    const next = (await env.up("SiteSection", { ...given, path: "u2" }, { id: before.id, outs })).state;
    expect(env.emu.log.writes()).toBe(0);
    expect(ownedId(next, "u1")).toBe(rule!.id);
    await env.destroy("SiteSection", next);
    expect(rulesOf(site.id)).toEqual([]);
  });

  it("a rule not confirmed is never found in one made later by someone else: the next up names it for the user, and the section's delete leaves it", async () => {
    // The rule's POST never reaches GitBook, and the looking after it fails: the rule is "not confirmed".
    const { site, given, before, e } = await notConfirmedMove("Borrowed Docs", "b", "dropBeforeProcess");
    expect(rulesOf(site.id)).toEqual([]);
    expect(e.properties.oldPathRedirects).toEqual([{ path: "b1", status: "not confirmed" }]);
    // A teammate makes a rule from the same source in the app, shaped as ours would be.
    const theirs = (await env.up("SiteRedirect", { siteId: site.id, source: "/b1/*", destination: { url: "https://example.com/x" }, permanent: true })).state;
    env.emu.store.siteRedirects.get(theirs.id)!.captureWildcard = true;
    env.outOfBand();
    env.emu.log.reset();
    const kept = { id: before.id, outs: e.properties };
    const again = await env.up("SiteSection", { ...given, path: "b2" }, kept).then(() => undefined, (x: Error) => x);
    expect(again?.message).toMatch(new RegExp(`the site now has rule ${theirs.id} from that source, which it may have made or someone else may have`));
    expect(env.emu.log.writes()).toBe(0);
    expect(rulesOf(site.id)).toEqual([["/b1/*", "https://example.com/x"]]);
    // Deleting the section takes only what it recorded making: the teammate's rule stays.
    await env.destroy("SiteSection", kept);
    expect(rulesOf(site.id)).toEqual([["/b1/*", "https://example.com/x"]]);
  });

  it("a run killed after the rule's POST (state keeps the old outputs): the next up names the rule with the recover command, and after --adopt converges sending nothing", async () => {
    const site = await publishedSite("Killed After Docs");
    const given = { siteId: site.id, spaceId: spaces[0], path: "ka1", redirectOldPath: true };
    const before = (await env.up("SiteSection", given)).state;
    // The killed run's writes went through (PATCH and POST); its state write never happened.
    await env.up("SiteSection", { ...given, path: "ka2" }, before);
    const [rule] = [...env.emu.store.siteRedirects.values()].filter((r) => r.siteId === site.id);
    env.outOfBand();
    env.emu.log.reset();
    const blocked = await env.up("SiteSection", { ...given, path: "ka2" }, before).then(() => undefined, (x: Error) => x);
    expect(blocked?.message).toMatch(new RegExp(`has no record of making.*--adopt <this resource's URN>=${rule!.id}`));
    expect(blocked?.message).not.toMatch(/did not create|someone else/);
    const partial = (blocked as PartialFailure).properties;
    env.emu.log.reset();
    const s = (await env.up("SiteSection", { ...given, path: "ka2" }, { id: before.id, outs: await recorded(partial, rule!.id) })).state;
    expect(env.emu.log.writes()).toBe(0);
    expect(ownedId(s, "ka1")).toBe(rule!.id);
    expect(rulesOf(site.id)).toEqual([["/ka1/*", `${site.url}/ka2`]]);
  });

  it("a run killed between the PATCH and the rule's POST converges on the next up", async () => {
    const site = await publishedSite("Killed Docs");
    const given = { siteId: site.id, spaceId: spaces[0], path: "k1", redirectOldPath: true };
    const before = (await env.up("SiteSection", given)).state;
    // The run dies once the PATCH is through: every redirect request fails, and state keeps the old outputs.
    env.emu.faults.add({ match: { route: /\/redirects/ }, errorRate: 1, status: 500 });
    await expect(env.up("SiteSection", { ...given, path: "k2" }, before)).rejects.toThrow();
    env.emu.faults.clear();
    expect(rulesOf(site.id)).toEqual([]);
    const s = (await env.up("SiteSection", { ...given, path: "k2" }, before)).state;
    expect(rulesOf(site.id)).toEqual([["/k1/*", `${site.url}/k2`]]);
    expect(s.outs.path).toBe("k2");
  });
});

describe("SiteSpace redirectOldPath", () => {
  it("redirects the site space's old path under its section to the new one", async () => {
    const site = await publishedSite("Versioned Docs");
    const sec = (await env.up("SiteSection", { siteId: site.id, spaceId: spaces[0], path: "guides" })).state;
    const given = { siteId: site.id, sectionId: sec.id, spaceId: spaces[1], path: "v1", redirectOldPath: true };
    let s: State = (await env.up("SiteSpace", given)).state;
    env.emu.log.reset();
    s = (await env.up("SiteSpace", { ...given, path: "v2" }, s)).state;
    expect(rulesOf(site.id)).toEqual([["/guides/v1/*", `${site.url}/guides/v2`]]);
    expect(env.emu.log.count({ method: "POST", route: REDIRECTS })).toBe(1);

    // The section moves: the rule keeps the address published links use, and follows the site space's new URL.
    await env.up("SiteSection", { siteId: site.id, spaceId: spaces[0], path: "manuals" }, sec);
    env.outOfBand();
    const refreshed = (await env.refresh("SiteSpace", s))!;
    expect(refreshed.inputs.oldPathRedirects).toEqual([{ path: "v1", status: "changed in GitBook" }]);
    s = (await env.up("SiteSpace", { ...given, path: "v2" }, refreshed.state)).state;
    expect(rulesOf(site.id)).toEqual([["/guides/v1/*", `${site.url}/manuals/v2`]]);
    // A later move of its own redirects from where it was then, under the section's new path.
    s = (await env.up("SiteSpace", { ...given, path: "v3" }, s)).state;
    expect(rulesOf(site.id).sort()).toEqual([
      ["/guides/v1/*", `${site.url}/manuals/v3`],
      ["/manuals/v2/*", `${site.url}/manuals/v3`],
    ]);
    await env.destroy("SiteSpace", s);
    expect(rulesOf(site.id)).toEqual([]);
  });
});

describe("the update sections and site spaces share: made the default by a write on their container", () => {
  const SITE = /\/sites\/:site$/;
  const SECTION = /\/sections\/:section$/;
  // Each kind's second item (the first is its container's default already) and the route of the write that makes it the default.
  const cases = [
    {
      kind: "SiteSection",
      container: SITE,
      next: ["GET /v1/orgs/:org/sites/:site/sections", "PATCH /v1/orgs/:org/sites/:site"],
      message: /^SiteSection \S+: default: .*500\nsite section \S+ was updated but could not be made the site's default; it is kept in state/,
      item: async (site: string) => {
        await env.up("SiteSection", { siteId: site, spaceId: spaces[0] });
        return { siteId: site, spaceId: spaces[1] };
      },
      isDefault: (site: string, id: string) => env.emu.store.defaultSection(env.emu.store.sites.get(site)!)?.id === id,
    },
    {
      kind: "SiteSpace",
      container: SECTION,
      next: ["GET /v1/orgs/:org/sites/:site/site-spaces", "PATCH /v1/orgs/:org/sites/:site/sections/:section"],
      message: /^SiteSpace \S+: default: .*500\nsite space \S+ was updated but could not be made its section's default; it is kept in state/,
      item: async (site: string) => {
        const sec = (await env.up("SiteSection", { siteId: site, spaceId: spaces[0] })).state;
        return { siteId: site, sectionId: sec.id, spaceId: spaces[1] };
      },
      isDefault: (site: string, id: string) => {
        const ss = env.emu.store.siteSpaces.get(id)!;
        return env.emu.store.defaultSiteSpaceIn(env.emu.store.sites.get(site)!, ss.sectionId!)?.id === id;
      },
    },
  ];

  for (const c of cases) {
    it(`${c.kind}: the item's PATCH is recorded when its container refuses the default, and the next up makes it the default, writing nothing else`, async () => {
      const site = await publishedSite(`${c.kind} Defaults`);
      const given = await c.item(site.id);
      const s = (await env.up(c.kind, { ...given, path: "before", redirectOldPath: true })).state;
      expect(c.isDefault(site.id, s.id)).toBe(false);
      env.emu.faults.add({ match: { method: "PATCH", route: c.container }, errorRate: 1, status: 500 });
      const err = (await env.up(c.kind, { ...given, path: "after", redirectOldPath: true, default: true }, s).then(
        () => undefined,
        (e: unknown) => e,
      )) as { message: string; properties: Record<string, unknown> };
      expect(err.message).toMatch(c.message);
      // What the item's own PATCH changed is in state; `default` is as it was, so the next plan still makes it.
      expect(err.properties).toMatchObject({ path: "after" });
      // The move's redirect was made before the container refused, and is recorded: recorded without
      // it, the next up (its path already "after") would never make it.
      expect(err.properties.oldPathRedirects).toEqual([{ path: "before" }]);
      expect(rulesOf(site.id)).toHaveLength(1);
      expect(err.properties.default).toBeUndefined();
      expect(c.isDefault(site.id, s.id)).toBe(false);

      env.emu.faults.clear();
      env.emu.log.reset();
      const { __provider: _p, ...outs } = err.properties;
      const next = await env.up(c.kind, { ...given, path: "after", redirectOldPath: true, default: true }, { id: s.id, outs });
      expect(next.diff?.changes).toBe(true);
      // Nothing of the item's own is sent again: it is read (there is no GET for one), then the container written.
      expect(env.emu.log.entries.map((e) => `${e.method} ${e.route}`)).toEqual(c.next);
      expect(c.isDefault(site.id, s.id)).toBe(true);
      expect(rulesOf(site.id)).toHaveLength(1);
      expect((await env.up(c.kind, { ...given, path: "after", redirectOldPath: true, default: true }, next.state)).diff?.changes).toBe(false);
    });
  }
});
