/**
 * Every kind's lifecycle (test/support/scenarios.ts) through the real Pulumi CLI, all kinds in one
 * stack so that each step is one `pulumi` run: preview, create, update, replace, refresh with drift,
 * its converging up and a no-op, refresh after an out-of-band delete, adoption of the dropped objects'
 * replacements, destroy. Each scenario's resources are named "<kind>-<name>", so the programs stay
 * apart in one. The same scenarios run one kind at a time in process (test/unit/lifecycle.test.ts),
 * where a failure names its kind faster and a dropped object is also recreated; this suite proves the
 * engine, the SDK's serialization and the dynamic-provider host agree with them.
 *
 * Other cases only the engine shows ride along in the same runs, each on resources of its own (issue 40:
 * engine runs are the suite's cost), each checking its own resources:
 * - convergence (issue 20, items 3 and 6): right after the create, a `refresh` finds nothing to change,
 *   neither in what it reports nor in the checkpoint (`pulumi stack export`, since refresh may rewrite
 *   outputs while reporting `same`), over every kind declared minimally and every DocsSite option the
 *   reference documents, right after the update; the next up's plan (the replacement) changes only the
 *   one field of theirs the program changed (not before the update: a refreshed text source's inputs are
 *   its hash, which the update's step would list as changed);
 * - a replacement the user forces (`up --replace`) of kinds whose old and new objects are one deletes
 *   the old first, so the new settings are what GitBook keeps (the replace step's run);
 * - a site's address and its visitor authentication's key (the create and the update);
 * - values not known until apply (issue 11, item 7), through the dynamic-provider host: when an input
 *   of an existing resource becomes an output of a resource that does not exist yet, a preview between
 *   the create and the update shows an update of that resource, never a replacement (nor, through an
 *   unknown ID, replacements of its children), unless the unknown input is itself replace-only; the
 *   update's up then applies it with one PATCH;
 * - how the CLI shows an app edit's diff: the drift's converging `up --diff` (every app edit's refresh
 *   and restore, row by row, in process: test/unit/appEdits.test.ts);
 * - what the CLI writes to state (test/lifecycle/state.test.ts keeps the one preview of a file that
 *   cannot be read): no token, no absolute path, a small shim, each resource's source position, secrets
 *   encrypted, and an OpenAPI document only where the program put it (a text source's inputs), never
 *   from a file; and the shim in state loads whatever the package now is: the program runs from a
 *   private copy of the built package, which the test upgrades in place, with every `__provider` in
 *   state rewritten as 0.1.0 wrote it, before the refresh that drops objects, the adoption and the destroy.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { describeDeployments, diffBlocks, filesUnder, PROGRAM, ROOT, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { legacyShim } from "../support/legacyShim";
import { everyOption, minimal, plain } from "../support/converging";
import { scenarios, type Deployed } from "../support/scenarios";
import { differencesFromGitBook } from "../support/stateIsGitBook";
import { ORG_QUESTION } from "../support/provider";

const kinds = Object.values(scenarios);
const named = (kind: string, name: string) => `${kind}-${name}`;
const subject = (kind: string) => named(kind, "subject");

/** A scenario's declarations renamed into its own namespace, `$ref`s and `dependsOn` included. */
function renamed(kind: string, decls: Decl[]): Decl[] {
  const refs = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(refs);
    if (v && typeof v === "object") {
      const ref = (v as { $ref?: unknown }).$ref;
      if (typeof ref === "string") return { $ref: named(kind, ref) };
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, refs(x)]));
    }
    return v;
  };
  return decls.map((d) => ({
    ...d,
    name: named(kind, d.name),
    args: refs(d.args) as Record<string, unknown>,
    ...(d.dependsOn ? { dependsOn: d.dependsOn.map((n) => named(kind, n)) } : {}),
  }));
}

const all = (emu: Emulator, variant: "base" | "update" | "replace", skip: (kind: string) => boolean = () => false) =>
  kinds.filter((sc) => !skip(sc.kind)).flatMap((sc) => renamed(sc.kind, sc.program(emu, variant)));

const ref = (s: string) => ({ $ref: s });
const T = "urn:pulumi:test::lifecycle::pulumi-nodejs:dynamic/gitbook:";

/** Convergence's cases: every kind declared minimally, every DocsSite option, a plain DocsSite, and a Site whose checkpoint 0.1.0 left. */
const converging = (emu: Emulator, renamed = false): Decl[] => [
  ...minimal(emu).map((x) => (renamed && x.name === "site" ? { ...x, args: { ...x.args, title: "Minimal Docs 2" } } : x)),
  everyOption(emu),
  plain(emu),
  { kind: "Site", name: "legacy", args: { title: "Legacy Docs" } },
];
/** A DocsSite's resources are the component and its children, named `<component>/<key>`. */
const of = (component: string) => (name: string) => name === component || name.startsWith(`${component}/`);
const CONVERGING = new Set(["site", "section", "siteSpace", "group", "link", "order", "schema", "publication", "shared", "shareLink", "space", "collection", "team", "saml", "spec", "legacy"]);
const inMinimal = (name: string) => CONVERGING.has(name) && name !== "legacy";
const converges = (name: string) => CONVERGING.has(name) || of("docs")(name) || of("plain")(name);

/** Kinds whose replacement the user forces (`up --replace`): the old and new objects are one. */
const forcedReplace = (emu: Emulator): Decl[] => [
  { kind: "Site", name: "branded", args: { title: "Branded Docs" } },
  { kind: "SiteSection", name: "guides", args: { siteId: ref("branded.id"), spaceId: emu.seeded.spaceIds[0], title: "Guides" } },
  { kind: "SiteCustomization", name: "branding", args: { siteId: ref("branded.id"), footer: { copyright: "© Acme Inc." } } },
  { kind: "SiteSpaceCustomization", name: "guides-branding", args: { siteId: ref("branded.id"), siteSpaceId: ref("guides.siteSpaceId"), title: "Guides FR" } },
  // One per site: its replacement must not be refused as a second one.
  { kind: "SitePublication", name: "live", args: { siteId: ref("branded.id"), published: true } },
];
const FORCED = ["branded", "guides", "branding", "guides-branding", "live"];

/** A site's address and a visitor authentication's key. */
const addressed = (basename: string, regenerate: string): Decl[] => [
  { kind: "Site", name: "addressed", args: { title: "Addressed Docs", visibility: "share-link", basename } },
  { kind: "ShareLink", name: "addressed-link", args: { siteId: ref("addressed.id"), name: "Reviewers" } },
  { kind: "SitePublication", name: "addressed-live", args: { siteId: ref("addressed.id"), published: true } },
  { kind: "Site", name: "private", args: { title: "Private Docs" } },
  { kind: "SiteVisitorAuth", name: "auth", args: { siteId: ref("private.id"), backend: "custom", fallbackURL: "https://login.acme.test/", regenerate } },
];

/**
 * Unknowns' resources: a site, a section of it, a second section (`moved`) and an OpenAPI spec, created
 * with the rest; at the preview (`ahead`), the site's agentsContext, the moved section's siteId and the
 * spec's source.url become outputs of new sites; at the update, the site's visibility becomes the
 * visibility of a new site declared without one (known only once it exists).
 */
const U = (name: string) => `unknown-${name}`;
const unknowns = (emu: Emulator, step: "base" | "ahead" | "applied"): Decl[] => {
  const site = (args: Record<string, unknown>): Decl => ({ kind: "Site", name: U("site"), args: { title: "Unknown Docs", ...args } });
  const section: Decl = { kind: "SiteSection", name: U("section"), args: { siteId: ref(`${U("site")}.id`), spaceId: emu.seeded.spaceIds[0], title: "Guides" } };
  const moved = (siteId: unknown): Decl => ({ kind: "SiteSection", name: U("moved"), args: { siteId, spaceId: emu.seeded.spaceIds[1], title: "Moved" } });
  const spec = (url: unknown): Decl => ({ kind: "OpenApiSpec", name: U("spec"), args: { slug: "unknowns", source: { url } } });
  const other: Decl = { kind: "Site", name: U("other"), args: { title: "Other Docs" } };
  const url = "https://api.acme.test/openapi.json";
  if (step === "base") return [site({ visibility: "unlisted" }), section, moved(ref(`${U("site")}.id`)), spec(url)];
  if (step === "ahead")
    return [
      other,
      { kind: "Site", name: U("typed"), args: { title: "Typed Docs" } },
      site({ visibility: "unlisted", agentsContext: ref(`${U("other")}.createdAt`) }),
      section,
      moved(ref(`${U("typed")}.id`)),
      spec(ref(`${U("other")}.urls.published`)),
    ];
  return [other, site({ visibility: ref(`${U("other")}.visibility`) }), section, moved(ref(`${U("site")}.id`)), spec(url)];
};
const isUnknowns = (name: string) => name.startsWith("unknown-");

/** State's OpenAPI documents: one from a file (`file`, relative to the program's folder), and from the update on, one as text. */
const doc = (v: string) => `openapi: 3.1.0\ninfo:\n  title: State Test API ${v}\n  version: 1.0.0\npaths: {}\n`;
const documents = (file: string, variant: "base" | "update" | "replace"): Decl[] => [
  { kind: "OpenApiSpec", name: "state-spec", args: { slug: "state-api", source: { file } } },
  ...(variant === "base" ? [] : [{ kind: "OpenApiSpec", name: "state-spec-text", args: { slug: "state-api-text", source: { text: doc("as text") } } }]),
];
/** The file's path from the program's folder, where the program runs and the provider host starts: set once the folder is. */
let relative = "";

/** Every case's program at a step: the kinds' variant, convergence's (its site renamed at the replacement), the forced replacements', the address's, the unknowns'. */
const program = (emu: Emulator, variant: "base" | "update" | "replace", kindsVariant = variant, unknownsStep: "base" | "ahead" | "applied" = variant === "base" ? "base" : "applied") => [
  ...all(emu, kindsVariant),
  ...converging(emu, variant === "replace"),
  ...forcedReplace(emu),
  ...(variant === "base" ? addressed("addressed-1", "v1") : addressed("addressed-2", "v2")),
  ...unknowns(emu, unknownsStep),
  ...documents(relative, variant),
];

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
/** A secret is encrypted afresh at every write (a new nonce): compared as "a secret", not by its ciphertext. */
function sealed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sealed);
  if (v && typeof v === "object") {
    if ((v as Record<string, unknown>)[SECRET_SIG] !== undefined) return "[secret]";
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sealed(x)]));
  }
  return v;
}
/** The checkpoint's resources as `pulumi stack export` holds them, by URN. */
const checkpoint = (d: Deployment): Record<string, unknown> => Object.fromEntries(d.state().resources.map((r) => [r.urn, sealed({ id: r.id, inputs: r.inputs, outputs: r.outputs })]));

describeDeployments("every kind through the Pulumi CLI", () => {
  let d: Deployment;
  const ids: Record<string, string> = {};
  const stepOf = (r: { steps: Array<{ name: string }> }, kind: string) => r.steps.find((s) => s.name === subject(kind)) as any;
  type Report = Awaited<ReturnType<Deployment["run"]>>;
  /** Convergence: the update, the refresh after it and the checkpoint around it, and the replacement (the next plan). */
  const c = {} as { up: Report; before: Record<string, unknown>; refresh: Report; after: Record<string, unknown>; plan: Report };
  /** Every key the private site has had must be nowhere but encrypted in state. */
  const keys: string[] = [];
  const key = () => d.emu.store.publishingAuths.get(d.resource("private").id!)!.privateKey;
  const expectKeysNowhere = (stdout: string) => {
    for (const k of keys) {
      expect(stdout).not.toContain(k);
      expect(JSON.stringify(d.state())).not.toContain(k);
      expect(fs.readFileSync(d.hostLog, "utf8")).not.toContain(k);
      // The harness runs the CLI with debug logging, in which the Node SDK prints each RegisterResource
      // answer, secrets included (as it does for every secret output): a user who turns debug logging on
      // gets them. Every other line of every file must not hold the key.
      for (const [file, text] of filesUnder(d.dir)) {
        const lines = text.split("\n").filter((l) => !l.includes('"prefix":"debug: "') && !/^\S*\s*debug:|RegisterResource RPC finished/.test(l));
        expect(lines.join("\n"), file).not.toContain(k);
      }
    }
  };
  /** The private copies of the built package and of the program every run uses, and the OpenAPI file. */
  let pkg: string;
  let programDir: string;
  let file: string;
  const run = (op: "preview" | "up" | "refresh" | "destroy", resources?: Decl[], opts: { flags?: string[] } = {}) => d.run(op, resources, { programDir, packageRoot: pkg, ...opts });
  beforeAll(async () => {
    d = await startDeployment();
    // A private copy of the built package, so the test can change its implementation.
    pkg = path.join(d.dir, "pkg");
    fs.mkdirSync(path.join(pkg, "dist"), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(pkg, "package.json"));
    fs.cpSync(path.join(ROOT, "dist/provider"), path.join(pkg, "dist/provider"), { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(pkg, "node_modules"), "dir");
    programDir = path.join(d.dir, "program");
    fs.cpSync(PROGRAM, programDir, { recursive: true, filter: (src) => !/node_modules/.test(src) });
    fs.mkdirSync(path.join(programDir, "node_modules"));
    fs.symlinkSync(path.join(ROOT, "node_modules/@pulumi"), path.join(programDir, "node_modules/@pulumi"), "dir");
    file = path.join(d.dir, "openapi.yaml");
    fs.writeFileSync(file, doc("v1"));
    relative = path.relative(programDir, file);
  });
  afterAll(async () => d?.close());
  /** After every successful up, each resource's state is what GitBook holds (issue 42): what a refresh would record. */
  const expectStateIsGitBook = async () => expect(await differencesFromGitBook(d.emu, d.state().resources)).toEqual([]);

  it("previews the creates sending nothing but the one question whether the token sees the organization", async () => {
    const r = await run("preview", program(d.emu, "base"));
    expect(r.error).toBeUndefined();
    for (const sc of kinds) expect(steps(r)).toContain(`create ${subject(sc.kind)}`);
    expect(d.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
  });

  it("creates", async () => {
    const r = await run("up", program(d.emu, "base"));
    expect(r.error).toBeUndefined();
    for (const sc of kinds) {
      expect(steps(r)).toContain(`create ${subject(sc.kind)}`);
      ids[sc.kind] = d.resource(subject(sc.kind)).id!;
      expect(sc.live(d.emu, ids[sc.kind]!), sc.kind).toBeDefined();
    }
    await expectStateIsGitBook();
    // The private key GitBook returned: a secret in state, and nowhere else.
    keys.push(key());
    expect(d.resource("auth").outputs.privateKey).toMatchObject({ ciphertext: expect.stringMatching(/^v1:/) });
    expectKeysNowhere(r.stdout);
  });

  describe("state as the CLI writes it", () => {
    it("holds neither the token nor an absolute path, and __provider is a small stable shim", () => {
      const raw = fs.readFileSync(d.statePath, "utf8") as string;
      expect(raw).not.toContain(d.emu.token);
      const provider = d.resource("addressed").inputs.__provider as string;
      expect(provider).toContain('require("pulumi-gitbook/impl")');
      expect(provider).not.toMatch(/\/(work|home|tmp|usr)\//);
      expect(provider.length).toBeLessThan(512);
      // The same shim text for every resource of a kind: nothing instance-specific is captured.
      expect(d.resource("private").inputs.__provider).toBe(provider);
      console.log(`serialized __provider: ${provider.length} bytes`);
    });

    it("records as each resource's source position the program's line that constructed it", () => {
      // Pulumi keeps it in the checkpoint and shows it to users.
      const cli = d.cli()!;
      const line = fs.readFileSync(path.join(programDir, "index.js"), "utf8").split("\n").findIndex((l) => l.includes("new gitbook[d.kind]")) + 1;
      expect(line).toBeGreaterThan(0);
      const resources = (cli.exported().deployment.resources ?? []) as Array<{ urn: string; sourcePosition?: string }>;
      for (const name of ["addressed", "addressed-link"]) {
        // Before: project:///../../../provider/framework/define.ts#… (the class, through its source map).
        expect(resources.find((r) => r.urn.endsWith(`::${name}`))?.sourcePosition, name).toMatch(new RegExp(`^project:///index\\.js#${line},\\d+$`));
      }
    });

    it("stores a share link's URL as a secret, never in plain text", () => {
      const state = JSON.stringify(d.state());
      expect(d.emu.store.shareLinks.size).toBeGreaterThan(0);
      for (const link of d.emu.store.shareLinks.values()) expect(state).not.toContain(link.key);
      expect(d.resource("addressed-link").outputs.url).toMatchObject({ ciphertext: expect.stringMatching(/^v1:/) });
    });

    it("an OpenAPI document from a file: state holds the path and the hash, never the text; the path is relative to the program's folder", () => {
      const sha = crypto.createHash("sha256").update(doc("v1")).digest("hex");
      expect(relative).not.toMatch(/^\//);
      expect(d.resource("state-spec").inputs.source).toEqual({ file: relative, sha256: sha });
      expect(d.resource("state-spec").outputs.source).toEqual({ file: relative, sha256: sha });
      expect(fs.readFileSync(d.statePath, "utf8")).not.toContain("State Test API");
      expect([...d.emu.store.openApiSpecs.values()].find((x) => x.slug === "state-api")!.source).toEqual({ text: doc("v1") });
    });
  });

  describe("an input that becomes an unknown output of a new resource: one preview", () => {
    let preview: Report;
    beforeAll(async () => {
      d.emu.log.reset();
      preview = await run("preview", program(d.emu, "base", "base", "ahead"));
    }, 300_000);

    it("shows an update of the site (not a replacement), and its section unchanged", () => {
      expect(preview.error).toBeUndefined();
      expect(steps(preview).filter((x) => isUnknowns(x.split(" ")[1]!)).sort()).toEqual(
        ["create other", "create typed", "replace moved", "same section", "update site", "update spec"].map((x) => x.replace(" ", ` ${U("")}`)),
      );
      expect(preview.steps.find((s) => s.name === U("site"))!.replaces ?? []).toEqual([]);
      // Every other resource's plan unchanged too: the preview asks nothing but whether the token sees the organization.
      expect(d.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
    });

    it("shows an update of an OpenAPI spec whose source.url is unknown", () => {
      expect(preview.steps.find((s) => s.name === U("spec"))).toMatchObject({ op: "update" });
      expect(preview.steps.find((s) => s.name === U("spec"))!.replaces ?? []).toEqual([]);
    });

    it("still shows a replacement when the unknown input is replace-only", () => {
      expect(preview.steps.find((s) => s.name === U("moved"))).toMatchObject({ op: "replace", replaces: ["siteId"] });
    });
  });

  it("updates each kind in place when its update field changes; a new basename updates the share link and the publication too (address), their URLs GitBook's; a new key nowhere either", async () => {
    const site = d.resource("addressed").id!;
    const unknownSite = d.resource(U("site")).id!;
    // State's OpenAPI file edited: a change, sent by this up.
    fs.writeFileSync(file, doc("v2"));
    d.emu.log.reset();
    // The up's own steps say what it planned (a preview first would be another run of the program).
    const r = await run("up", program(d.emu, "update"));
    c.up = r;
    const log = [...d.emu.log.entries];
    expect(r.error).toBeUndefined();
    for (const sc of kinds) {
      expect(stepOf(r, sc.kind), sc.kind).toMatchObject({ op: "update", changed: [sc.updateField] });
      expect(d.resource(subject(sc.kind)).id, sc.kind).toBe(ids[sc.kind]);
      expect(d.resource(subject(sc.kind)).inputs[sc.updateField], sc.kind).toEqual(sc.program(d.emu, "update").at(-1)!.args[sc.updateField]);
    }
    await expectStateIsGitBook();
    // The site's address: applied after the Site's, so that their URLs in state are GitBook's when the up ends.
    const named = (name: string) => r.steps.find((x) => x.name === name);
    expect(named("addressed")).toMatchObject({ op: "update", changed: ["basename"] });
    expect(named("addressed-link")).toMatchObject({ op: "update", changed: ["address"] });
    expect(named("addressed-live")).toMatchObject({ op: "update", changed: ["address"] });
    // One site PATCH, and the share link and the publication read again after it, nothing sent for them.
    const mine: Record<string, number> = {};
    for (const e of d.emu.log.entries) if (e.path.split("/").includes(site)) mine[`${e.method} ${e.route}`] = (mine[`${e.method} ${e.route}`] ?? 0) + 1;
    expect(mine).toEqual({ "PATCH /v1/orgs/:org/sites/:site": 1, "GET /v1/orgs/:org/sites/:site/share-links": 1, "GET /v1/orgs/:org/sites/:site": 1 });
    expect(d.resource("addressed-live").outputs.publishedUrl).toMatch(/\/addressed-2$/);
    // The visitor authentication's `regenerate` trigger made a new key.
    expect(key()).not.toBe(keys[0]);
    keys.push(key());
    expectKeysNowhere(r.stdout);
    // Unknowns: the site's visibility, an output of the new site, applied with one PATCH of the site,
    // the new site's one POST beside it; nothing else sent for their objects.
    expect(d.resource(U("site")).id).toBe(unknownSite);
    expect(r.steps.filter((x) => isUnknowns(x.name) && x.op !== "same").map((x) => `${x.op} ${x.name}`).sort()).toEqual([`create ${U("other")}`, `update ${U("site")}`]);
    const theirs = (e: { path: string }) => [unknownSite, d.resource(U("section")).id, d.resource(U("moved")).id, d.resource(U("other")).id, "/openapi/unknowns"].some((x) => e.path.includes(x!));
    const writes = log.filter((e) => e.method !== "GET" && theirs(e)).map((e) => `${e.method} ${e.route}`);
    expect(writes).toEqual(["PATCH /v1/orgs/:org/sites/:site"]);
    expect(log.filter((e) => e.method === "POST" && e.route === "/v1/orgs/:org/sites")).toHaveLength(r.steps.filter((x) => x.op === "create" && x.type.endsWith(":Site")).length);
    expect(d.emu.store.sites.get(unknownSite)!.visibility).toBe("public");
    // State: the edited file's spec updated; a text source: the whole text in the inputs in state (as the reference says), only its hash in the outputs.
    expect(r.steps.filter((x) => x.name.startsWith("state-spec")).map((x) => `${x.op} ${x.name}`).sort()).toEqual(["create state-spec-text", "update state-spec"]);
    expect([...d.emu.store.openApiSpecs.values()].find((x) => x.slug === "state-api")!.source).toEqual({ text: doc("v2") });
    expect(d.resource("state-spec-text").inputs.source).toEqual({ text: doc("as text") });
    expect(JSON.stringify(d.resource("state-spec-text").outputs)).not.toContain("State Test API");
  });

  describe("convergence: a refresh right after the update finds nothing to change; the next plan changes only what the program changed", () => {
    beforeAll(async () => {
      // The checkpoint as 0.1.0 left it after a refresh: no list of declared live fields, and the
      // site's live settings recorded as if the program declared them.
      await d.editState((resources) => {
        for (const r of resources.filter((x) => x.name === "legacy")) {
          delete r.outputs.__gitbookDeclared;
          Object.assign(r.inputs, { type: r.outputs.type, visibility: r.outputs.visibility, published: true });
        }
      });
      c.before = checkpoint(d);
      c.refresh = await run("refresh");
      c.after = checkpoint(d);
    }, 300_000);

    /** The refresh changed nothing in state, and the next plan (the update's steps) nothing but `planned`, for the resources `mine` names. */
    const expectConverged = (mine: (name: string) => boolean, planned: string[] = []) => {
      expect(c.up.error).toBeUndefined();
      expect(c.refresh.error).toBeUndefined();
      const changes = (r: Report) => r.steps.filter((x) => x.op !== "same" && mine(x.name)).map((x) => `${x.op} ${x.name} [${(x.changed ?? []).join(", ")}]`);
      expect(changes(c.refresh)).toEqual([]);
      // Field by field, so a difference names its resource and field.
      const ours = (cp: Record<string, unknown>) => Object.keys(cp).filter((urn) => mine(urn.split("::").pop()!));
      for (const urn of ours(c.before)) expect(c.after[urn], urn).toEqual(c.before[urn]);
      expect(ours(c.after).sort()).toEqual(ours(c.before).sort());
      expect(ours(c.before).length).toBeGreaterThan(0);
      expect(changes(c.plan)).toEqual(planned);
      expect(c.plan.error).toBeUndefined();
    };

    // The replacement's up runs after the refresh: its steps are the next plan.
    describe("then the replacement", () => {
      it("replaces each kind when its replace field changes; a replacement the user forces of kinds whose old and new objects are one deletes the old first", async () => {
        const r = await run("up", program(d.emu, "replace"), {
          flags: ["--replace", `${T}SiteCustomization::branding`, "--replace", `${T}SiteSpaceCustomization::guides-branding`, "--replace", `${T}SitePublication::live`],
        });
        c.plan = r;
        expect(r.error, r.stdout).toBeUndefined();
        // The engine never asks the provider's diff about a replacement the user forces: the resource option
        // deleteBeforeReplace, set by the resource class for such kinds, is what it reads (every kind's forced
        // replacement in process: test/unit/lifecycle.test.ts). Created first, the old one's delete cleared
        // the overrides the new one had just set.
        expect(r.stdout).toMatch(/SiteSpaceCustomization guides-branding deleting original[\s\S]*SiteSpaceCustomization guides-branding creating replacement/);
        expect(steps(r)).toEqual(expect.arrayContaining(["replace branding", "replace guides-branding", "replace live"]));
        for (const sc of kinds) {
          expect(stepOf(r, sc.kind), sc.kind).toMatchObject({ op: "replace", replaces: [sc.replaceField] });
          const newId = d.resource(subject(sc.kind)).id!;
          expect(newId, sc.kind).not.toBe(ids[sc.kind]);
          expect(sc.live(d.emu, ids[sc.kind]!), sc.kind).toBeUndefined();
          expect(sc.live(d.emu, newId), sc.kind).toBeDefined();
          ids[sc.kind] = newId;
        }
        await expectStateIsGitBook();
      });

      it("every kind, declared minimally: converges, and a change to one field plans that field alone", () => {
        expectConverged(inMinimal, ["update site [title]"]);
        const kinds = new Set(d.state().resources.filter((r) => r.custom && inMinimal(r.name)).map((r) => r.type.split(":").pop()));
        expect(kinds.size).toBe(14);
      });

      it("DocsSite: converges a published share-link site with groups, links, created spaces, site spaces, share links, a visitor schema and the declared order", () => {
        expectConverged(of("docs"));
        const site = [...d.emu.store.sites.values()].find((x) => x.title === "Everything Docs")!;
        expect(site.published).toBe(true);
        // The publication's fact is recorded by the resource that made it.
        expect(d.resource("docs/publication").outputs.publishedUrl).toEqual(expect.stringMatching(/^https:\/\//));
      });

      it("DocsSite: converges an unpublished public site whose order is left to the app", () => {
        expectConverged(of("plain"));
      });

      it("a site whose checkpoint an earlier version's refresh left with undeclared fields as inputs: the next refresh clears them", () => {
        expect(c.before[d.resource("legacy").urn]).toMatchObject({ inputs: { published: true, visibility: "public" } });
        const site = d.resource("legacy");
        expect(Object.keys(site.inputs).filter((k) => !k.startsWith("__")).sort()).toEqual(["organizationId", "title"]);
        // The site's settings are still its outputs, as GitBook reports them.
        expect(site.outputs).toMatchObject({ type: expect.any(String), visibility: "public" });
        expect(converges("legacy")).toBe(true);
      });
    });
  });

  it("shows drift made outside Pulumi at refresh, converges it on the next up, then re-runs as a no-op with zero requests", async () => {
    const fields = Object.fromEntries(kinds.map((sc) => [sc.kind, sc.drift(d.emu, ids[sc.kind]!)]));
    const r = await run("refresh");
    expect(r.error).toBeUndefined();
    // The forced replacements left GitBook as state says, the site still published.
    expect(r.steps.filter((x) => FORCED.includes(x.name) && x.op !== "same").map((x) => `${x.op} ${x.name}`)).toEqual([]);
    expect([...d.emu.store.sites.values()].find((x) => x.title === "Branded Docs")?.published).toBe(true);
    for (const sc of kinds) {
      const drifted = stepOf(r, sc.kind);
      expect(drifted?.op, sc.kind).toBe("refresh");
      expect(drifted.changed, sc.kind).toContain(fields[sc.kind]);
      const res = d.resource(subject(sc.kind));
      expect(res.inputs[fields[sc.kind]!], sc.kind).toEqual(res.outputs[fields[sc.kind]!]);
    }
    // --diff: how the CLI shows each app edit it restores.
    const back = await run("up", undefined, { flags: ["--diff"] });
    expect(back.error).toBeUndefined();
    const blocks = diffBlocks(back.stdout);
    for (const sc of kinds) {
      expect(stepOf(back, sc.kind)?.op, sc.kind).toBe("update");
      expect(stepOf(back, sc.kind).changed, sc.kind).toContain(fields[sc.kind]);
      expect(blocks.get(subject(sc.kind)) ?? "", `${sc.kind}'s diff`).toMatch(new RegExp(`[~+-] ${fields[sc.kind]}\\b`));
    }
    await expectStateIsGitBook();
    d.emu.log.reset();
    const again = await run("up");
    expect(again.error).toBeUndefined();
    expect(steps(again).every((s) => s.startsWith("same"))).toBe(true);
    expect(d.emu.log.count()).toBe(0);
  });

  // Recreating a dropped object on up is the in-process suite's (test/unit/lifecycle.test.ts): here the
  // objects dropped are the ones the adoption replaces, which saves the up that removed them.
  it("drops objects deleted outside Pulumi at refresh, with the package's current implementation from the shim an earlier version wrote", async () => {
    // State as version 0.1.0 wrote it: every __provider the SDK's serialization of the shim (2.7 kB).
    await d.editState((resources) => {
      for (const r of resources as Array<(typeof resources)[number] & { type: string }>) {
        if (!r.type.startsWith("pulumi-nodejs:dynamic/gitbook:")) continue;
        r.inputs.__provider = r.outputs.__provider = legacyShim(r.type.split(":").pop()!);
      }
    });
    expect(d.resource("addressed").outputs.__provider).toBe(legacyShim("Site"));
    // Upgrade the package in place: every read now stamps its outputs.
    fs.appendFileSync(
      path.join(pkg, "dist/provider/impl.js"),
      `\nconst v1 = exports.dispatch;\nexports.dispatch = async (...a) => { const r = await v1(...a); if (a[2] === "read" && r && r.props) r.props.implementation = "v2"; return r; };\n`,
    );
    for (const sc of kinds) sc.remove(d.emu, ids[sc.kind]!);
    const r = await run("refresh");
    expect(r.error).toBeUndefined();
    // The refresh ran the new implementation through the stored shim, which it kept.
    expect(d.resource("addressed").outputs.implementation).toBe("v2");
    expect(d.resource("addressed").outputs.__provider).toBe(legacyShim("Site"));
    for (const sc of kinds) {
      expect(stepOf(r, sc.kind)?.op, sc.kind).toBe("read-gone");
      expect(d.state().resources.some((x) => x.name === subject(sc.kind)), sc.kind).toBe(false);
    }
  });

  it("adopts existing objects instead of creating others", async () => {
    // The subjects are out of state (the refresh dropped them) and gone from GitBook.
    // Each kind's base program, as it was first adopted; the other cases' as they stand.
    const decls = program(d.emu, "replace", "base");
    const before: Record<string, number> = {};
    for (const sc of kinds) {
      expect(sc.live(d.emu, ids[sc.kind]!), sc.kind).toBeUndefined();
      const deployed: Deployed = { resource: (name) => d.resource(named(sc.kind, name)) };
      const existing = await sc.existing(d.emu, deployed);
      decls.find((x) => x.name === subject(sc.kind))!.args.adoptId = existing;
      ids[sc.kind] = existing;
      before[sc.kind] = sc.count(d.emu);
    }
    d.emu.log.reset();
    // A subject's remove took some dependencies along (a site's redirects go with their site, an
    // access list with its collection): the refresh dropped them too, and this up creates them again,
    // one POST each; everything else it sends adopts.
    const dropped = decls.filter((x) => !x.name.endsWith("-subject") && !d.state().resources.some((y) => y.name === x.name));
    const r = await run("up", decls);
    expect(r.error).toBeUndefined();
    // The program's shim differs from the stored one (0.1.0's): no change for it, the edited file's spec
    // among them, over the resources the kinds' scenarios (declared at their base here) leave out; nothing
    // but the creates is a step that writes.
    const scenario = (name: string) => kinds.some((sc) => name.startsWith(`${sc.kind}-`));
    expect(r.steps.filter((x) => x.type !== "pulumi:pulumi:Stack" && !scenario(x.name) && x.op !== "same" && x.op !== "create").map((x) => `${x.op} ${x.name}`)).toEqual([]);
    expect(d.resource("addressed").outputs.__provider).toBe(legacyShim("Site"));
    expect(steps(r).filter((x) => x.startsWith("create")).sort()).toEqual([...kinds.map((sc) => subject(sc.kind)), ...dropped.map((x) => x.name)].map((n) => `create ${n}`).sort());
    for (const sc of kinds) {
      expect(d.resource(subject(sc.kind)).id, sc.kind).toBe(ids[sc.kind]);
      expect(sc.count(d.emu), sc.kind).toBe(before[sc.kind]! + dropped.filter((x) => x.kind === sc.kind).length);
    }
    expect(d.emu.log.count({ method: "POST" })).toBe(dropped.length);
    // The upgrade's stamp aside, which no read of GitBook's gives.
    expect((await differencesFromGitBook(d.emu, d.state().resources)).filter((x) => !/\.implementation: state "v2", GitBook absent$/.test(x))).toEqual([]);
  });

  it("destroys everything it made, leaving nothing behind, the resources 0.1.0's shim is stored for with the package's current implementation", async () => {
    expect(d.resource("addressed").outputs.__provider).toBe(legacyShim("Site"));
    const r = await run("destroy");
    expect(r.error).toBeUndefined();
    expect(d.state().resources).toEqual([]);
    for (const sc of kinds) expect(sc.count(d.emu), sc.kind).toBe(0);
    expect(d.emu.store.sites.size).toBe(0);
    expect(d.emu.store.openApiSpecs.size).toBe(0);
  });

  it("never prints the token: not in the host's output, the plans, the reports, the copied package or program", () => {
    expect(fs.readFileSync(d.hostLog, "utf8")).not.toContain(d.emu.token);
    for (const [file, text] of filesUnder(d.dir)) expect(text, file).not.toContain(d.emu.token);
  });
});
