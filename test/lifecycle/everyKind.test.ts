/**
 * Every kind's lifecycle (test/support/scenarios.ts) through the real Pulumi CLI, all kinds in one
 * stack so that each step is one `pulumi` run: create, update, replace, one refresh that finds each
 * subject's drift and, for a second instance of each kind's program (the drop's, "<kind>-drop-<name>",
 * created by the replacement's up), an out-of-band delete, one up that converges the drift and adopts
 * existing objects for the dropped ones, destroy (7 runs with the unknowns' preview). The creates'
 * preview is planned in this process (plannedSteps: no request but, at most, the one question whether
 * the token sees the organization; a CLI preview's host asking it once: the unknowns' preview; the
 * engine's create steps: the up's). That the converging up leaves a no-op is its next plan, made in this process
 * from the checkpoint (plannedSteps, which fails on any request: a no-op's "same" steps sending nothing
 * through the CLI is test/examples/docsSite.test.ts's second up, which counts every request). Each scenario's resources are named "<kind>-<name>", so the programs stay
 * apart in one. The same scenarios run one kind at a time in process (test/unit/lifecycle.test.ts),
 * where a failure names its kind faster and a dropped object is also recreated; this suite proves the
 * engine, the SDK's serialization and the dynamic-provider host agree with them.
 *
 * Other cases only the engine shows ride along in the same runs, each on resources of its own (issue 40:
 * engine runs are the suite's cost), each checking its own resources:
 * - convergence (issue 20, items 3 and 6): right after the update, a refresh would find nothing to
 *   change, neither outputs nor inputs, over every kind declared minimally and every DocsSite option
 *   the reference documents: each kind's read run in this process on `pulumi stack export`'s checkpoint
 *   (differencesFromGitBook with asRefresh; the engine's refresh, storing what the read hands back, is
 *   the drift's and the drop's); the next up's plan (the replacement) changes only the one field of
 *   theirs the program changed (not before the update: a refreshed text source's inputs are its hash,
 *   which the update's step would list as changed);
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
 * - plans a reviewer can read (once test/cli/plans.test.ts's three runs): the unknowns' preview, with
 *   `--diff`, names each navigation item by its title path beside its ID in the site's order, and each
 *   reference in `names` beside its ID (at a create, at a change of reference, for a DocsSite's child);
 *   the drift's refresh, after renames and a reorder in the app, shows the reorder by name and no change
 *   to what names the renamed, and its converging up, whose program follows the renames and renames a
 *   section, updates that section alone (its requests counted in process: test/unit/plansRefresh.test.ts);
 * - what the CLI writes to state (test/lifecycle/state.test.ts keeps the one preview of a file that
 *   cannot be read): no token, no absolute path, a small shim, each resource's source position, secrets
 *   encrypted, and an OpenAPI document only where the program put it (a text source's inputs), never
 *   from a file; and the shim in state loads whatever the package now is: the program runs from a
 *   private copy of the built package, which the test upgrades in place, with every `__provider` in
 *   state rewritten as 0.1.0 wrote it, before the refresh (drift and drop), the up and the destroy.
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
import { differencesFromGitBook, plannedSteps } from "../support/stateIsGitBook";
import { GIT_SYNC_QUESTION, ORG_QUESTION } from "../support/provider";
import { planSite } from "../support/scenarios";

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
/**
 * The drop's namespace, "<kind>-drop-<name>": each kind's program again (tagged, so that what GitBook
 * keeps unique in an organization stays apart), created by the replacement's up at its replaced
 * variant, so that one refresh shows the subject's drift and this subject's drop, and one up converges
 * the one and adopts an object for the other, declared at its base, where the subject was first adopted
 * (a subject's remove takes its replaced parent along: a site's redirects go with their site).
 */
const DROP = (kind: string) => `${kind}-drop`;
const TAG = "-drop";
const dropped = (kind: string) => subject(DROP(kind));
const allDropped = (emu: Emulator, variant: "base" | "replace") => kinds.flatMap((sc) => renamed(DROP(sc.kind), sc.program(emu, variant, TAG)));
const isDrop = (name: string) => kinds.some((sc) => name.startsWith(`${DROP(sc.kind)}-`));

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

/**
 * Plans' resources (once test/cli/plans.test.ts's own stack), named "plans-<name>": a navigation, a
 * second navigation reordered in the app, references between resources, a DocsSite. `plan`: the
 * program the unknowns' preview shows with `--diff` (a reorder with a new item, a change of reference,
 * references not created yet, a DocsSite's new child); `renamed`: the drift's converging up's, which
 * renames a section and follows the app's renames.
 */
type PlansStep = "base" | "plan" | "renamed";
const NAV = ["site", "guides", "api", "changelog", "sdk", "tools", "status", "order"];
const ORDER = ["guides", "api", "changelog", "tools", "status"];
const APP = ["appSite", "appOneSpace", "appTwoSpace", "appThreeSpace", "appOne", "appTwo", "appThree", "appGroup", "appOrder"];
const REFS = ["namedSite", "namedGuidesSpace", "namedApiSpace", "namedExtraSpace", "namedGuides", "namedApi", "namedV2"];
const NEW_REFS = REFS.map((n) => n.replace(/^named/, "new"));
const plans = (emu: Emulator, step: PlansStep): Decl[] => {
  const spaces = emu.seeded.spaceIds;
  const nav = (order: string[], titles: Record<string, string> = {}, extra: Decl[] = []): Decl[] => {
    const { section, decls } = planSite(spaces, titles);
    return [
      ...decls,
      section("sdk", "SDK", 4),
      ...extra,
      { kind: "SiteSectionGroup", name: "tools", args: { siteId: ref("site.id"), title: "Tools", sections: [ref("sdk.id")] } },
      { kind: "SiteExternalLink", name: "status", args: { siteId: ref("site.id"), title: "Status", url: "https://status.acme.test" }, dependsOn: ["guides"] },
      { kind: "SiteStructureOrder", name: "order", args: { siteId: ref("site.id"), items: order.map((n) => ref(`${n}.id`)), groups: [{ groupId: ref("tools.id"), items: [ref("sdk.id")] }] } },
    ];
  };
  const app: Decl[] = [
    { kind: "Site", name: "appSite", args: { title: "App Docs" } },
    ...["One", "Two", "Three"].flatMap((t): Decl[] => [
      { kind: "Space", name: `app${t}Space`, args: { title: `${t} content` } },
      { kind: "SiteSection", name: `app${t}`, args: { siteId: ref("appSite.id"), spaceId: ref(`app${t}Space.id`), title: t } },
    ]),
    { kind: "SiteSectionGroup", name: "appGroup", args: { siteId: ref("appSite.id"), title: "Group", sections: [ref("appThree.id")] } },
    {
      kind: "SiteStructureOrder",
      name: "appOrder",
      args: { siteId: ref("appSite.id"), items: [ref("appOne.id"), ref("appTwo.id"), ref("appGroup.id")], groups: [{ groupId: ref("appGroup.id"), items: [ref("appThree.id")] }] },
    },
  ];
  /** A site with two sections on spaces of this program, and a further site space of a section; `p` prefixes the names: `named` is deployed, `new` only previewed. */
  const refs = (p: string, siteSpace: { sectionId: string; spaceId: unknown }): Decl[] => [
    { kind: "Site", name: `${p}Site`, args: { title: "Named Docs" } },
    { kind: "Space", name: `${p}GuidesSpace`, args: { title: "Guides content" } },
    { kind: "Space", name: `${p}ApiSpace`, args: { title: "API content" } },
    { kind: "Space", name: `${p}ExtraSpace`, args: { title: "Extra content" } },
    { kind: "SiteSection", name: `${p}Guides`, args: { siteId: ref(`${p}Site.id`), spaceId: ref(`${p}GuidesSpace.id`), title: "Guides" } },
    { kind: "SiteSection", name: `${p}Api`, args: { siteId: ref(`${p}Site.id`), spaceId: ref(`${p}ApiSpace.id`), title: "API" } },
    { kind: "SiteSpace", name: `${p}V2`, args: { siteId: ref(`${p}Site.id`), sectionId: ref(`${p}${siteSpace.sectionId}.id`), spaceId: siteSpace.spaceId, path: "v2" } },
  ];
  const docs = (siteSpaces: { key: string; space: { title: string } }[]): Decl[] => [
    { kind: "DocsSite", name: "docs", args: { site: { title: "Component Docs" }, sections: [{ key: "guides", title: "Guides", space: { title: "Guides content" }, siteSpaces }] } },
  ];
  const faq: Decl = { kind: "SiteSection", name: "faq", args: { siteId: ref("site.id"), spaceId: spaces[2], title: "FAQ" } };
  const decls =
    step === "plan"
      ? [
          ...nav(["changelog", "guides", "api", "tools", "status", "faq"], {}, [faq]),
          ...refs("named", { sectionId: "Api", spaceId: ref("namedExtraSpace.id") }),
          ...refs("new", { sectionId: "Guides", spaceId: spaces[0] }),
          ...docs([{ key: "v2", space: { title: "Guides v2" } }]),
          ...app,
        ]
      : [
          ...nav(ORDER, step === "renamed" ? { changelog: "Release notes", api: "API reference" } : {}),
          ...refs("named", { sectionId: "Guides", spaceId: spaces[0] }),
          ...docs([]),
          ...app,
        ];
  return renamed("plans", decls);
};
const P = (name: string) => named("plans", name);

/** Every case's program at a step: the kinds' variant, convergence's (its site renamed at the replacement), the forced replacements', the address's, the unknowns', the plans'. */
const program = (
  emu: Emulator,
  variant: "base" | "update" | "replace",
  kindsVariant = variant,
  unknownsStep: "base" | "ahead" | "applied" = variant === "base" ? "base" : "applied",
  plansStep: PlansStep = "base",
) => [
  ...all(emu, kindsVariant),
  ...converging(emu, variant === "replace"),
  ...forcedReplace(emu),
  ...(variant === "base" ? addressed("addressed-1", "v1") : addressed("addressed-2", "v2")),
  ...unknowns(emu, unknownsStep),
  ...documents(relative, variant),
  ...plans(emu, plansStep),
  ...(variant === "replace" ? allDropped(emu, "replace") : []),
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
  /** Plans' resources: their IDs, the site their DocsSite made, and the steps of a run other than `same` among `names`. */
  const idOf = (name: string) => d.resource(P(name)).id!;
  const docsSiteId = () => d.state().resources.find((x) => x.name === P("docs/site") || (x.type.endsWith("gitbook:Site") && x.urn.includes(`::${P("docs")}`)))?.id;
  const changes = (r: Report, names: string[]) => steps(r).filter((x) => !x.startsWith("same") && names.map(P).includes(x.slice(x.indexOf(" ") + 1)));
  /**
   * Convergence: the update, its checkpoint, what a refresh right after it would change (read in
   * process: differencesFromGitBook with asRefresh), and the replacement (the next plan).
   */
  const c = {} as { up: Report; before: Record<string, unknown>; found: string[]; plan: Report };
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

  // The creates' preview, planned in this process (each declaration's check, on a provider of its own, in
  // the program's folder). A CLI preview's host asking that question once, and nothing else: the
  // unknowns' preview below; the engine's create steps: the up's.
  it("previews the creates sending nothing but the one question whether the token sees the organization", async () => {
    // The question, once: in this process as in a new one (plannedSteps fails on any other request).
    const planned = await plannedSteps(d.emu, program(d.emu, "base"), [], { cwd: programDir, requests: [ORG_QUESTION] });
    for (const sc of kinds) expect(planned.map((s) => `${s.op} ${s.name}`)).toContain(`create ${subject(sc.kind)}`);
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

  /** The preview between the create and the update (`--diff`): the unknowns' and the plans'. */
  let preview: Report;
  describe("an input that becomes an unknown output of a new resource: one preview", () => {
    beforeAll(async () => {
      d.emu.log.reset();
      preview = await run("preview", program(d.emu, "base", "base", "ahead", "plan"), { flags: ["--diff"] });
    }, 300_000);

    it("shows an update of the site (not a replacement), and its section unchanged", () => {
      expect(preview.error).toBeUndefined();
      expect(steps(preview).filter((x) => isUnknowns(x.split(" ")[1]!)).sort()).toEqual(
        ["create other", "create typed", "replace moved", "same section", "update site", "update spec"].map((x) => x.replace(" ", ` ${U("")}`)),
      );
      expect(preview.steps.find((s) => s.name === U("site"))!.replaces ?? []).toEqual([]);
      // Every other resource's plan unchanged too: the preview asks nothing but whether the token sees
      // the organization, and, once for each site of the plans' whose structure it changes (the
      // navigation's, the named site's, the DocsSite's), whether Git Sync owns it.
      expect(d.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [GIT_SYNC_QUESTION]: 3 });
      const plansSites = [P("site"), P("namedSite")].map((n) => d.resource(n).id).concat(docsSiteId());
      const asked = d.emu.log.entries.filter((e) => `${e.method} ${e.route}` === GIT_SYNC_QUESTION).map((e) => plansSites.find((id) => e.path.split("/").includes(id!)));
      expect(asked.sort()).toEqual([...plansSites].sort());
    });

    it("shows an update of an OpenAPI spec whose source.url is unknown", () => {
      expect(preview.steps.find((s) => s.name === U("spec"))).toMatchObject({ op: "update" });
      expect(preview.steps.find((s) => s.name === U("spec"))!.replaces ?? []).toEqual([]);
    });

    it("still shows a replacement when the unknown input is replace-only", () => {
      expect(preview.steps.find((s) => s.name === U("moved"))).toMatchObject({ op: "replace", replaces: ["siteId"] });
    });
  });

  /**
   * Plans a reviewer can read: the same preview's `--diff` names every listed item of a change to a
   * site's navigation by its title path beside its ID, in the order the site will show them, and every
   * reference input (a site, space, section or group ID) the program passes as a resource's `id` in
   * `names` beside its ID: at a create, at a change of reference, for a DocsSite's children alike. That
   * they never flap when a title changes (in the program or in the app) is the drift's refresh below.
   */
  describe("plans a reviewer can read, in the same preview's --diff", () => {
    it("previews a reorder with each item's title beside its ID, in the site's order, an item not created yet by its title", () => {
      expect(changes(preview, NAV)).toEqual([`update ${P("order")}`]);
      const part = partOf(preview.stdout, P("order"));
      const [guides, api, changelog] = ["guides", "api", "changelog"].map(idOf);
      expect(part).toContain(`~ [0]: "Guides (${guides})" => "Changelog (${changelog})"`);
      expect(part).toContain(`~ [1]: "API (${api})" => "Guides (${guides})"`);
      expect(part).toContain(`~ [2]: "Changelog (${changelog})" => "API (${api})"`);
      // A group's items follow it, named by their path.
      expect(part).toContain(`[3]: "Tools (${idOf("tools")})"`);
      expect(part).toContain(`[4]: "Tools / SDK (${idOf("sdk")})"`);
      expect(part).toContain(`+ [6]: "FAQ (new)"`);
      expect(changes(preview, APP)).toEqual([]);
    });

    it("names a new resource's references at a create, (new) standing for IDs not known yet, and leaves a literal ID alone", () => {
      const part = partOf(preview.stdout, P("newV2"));
      expect(part).toMatch(/names\s*: \{\s*sectionId: "Guides \(new\)"\s*siteId\s*: "Named Docs \(new\)"\s*\}/);
      expect(part).toMatch(new RegExp(`spaceId\\s*: "${d.emu.seeded.spaceIds[0]}"`));
      expect(partOf(preview.stdout, P("newGuides"))).toMatch(/siteId\s*: "Named Docs \(new\)"\s*spaceId: "Guides content \(new\)"/);
      // Costs no request (counted with the unknowns', in the same preview).
      expect(changes(preview, NEW_REFS).map((s) => s.split(" ")[0])).toEqual(NEW_REFS.map(() => "create"));
      // Deployed, the names carry the IDs.
      expect(d.resource(P("namedV2")).inputs.names).toEqual({ sectionId: `Guides (${idOf("namedGuides")})`, siteId: `Named Docs (${idOf("namedSite")})` });
      expect(d.resource(P("namedV2")).outputs.names).toEqual(d.resource(P("namedV2")).inputs.names);
    });

    it("names both sides of a change of reference: a site space moved to another section and to another space", () => {
      const part = partOf(preview.stdout, P("namedV2"));
      expect(part).toContain(`~ sectionId: "Guides (${idOf("namedGuides")})" => "API (${idOf("namedApi")})"`);
      expect(part).toContain(`+ spaceId  : "Extra content (${idOf("namedExtraSpace")})"`);
    });

    it("shows a DocsSite's new site space with the section's, site's and space's titles", () => {
      const part = partOf(preview.stdout, P("docs/guides/v2"));
      expect(part).toContain(`sectionId: "Guides (${idOf("docs/guides")})"`);
      expect(part).toContain(`siteId   : "Component Docs (${docsSiteId()})"`);
      expect(part).toContain(`spaceId  : "Guides v2 (new)"`);
      // The order lists the new site space under its section, by the section's title and the child's name until GitBook titles it.
      expect(partOf(preview.stdout, P("docs/order"))).toContain(`+ [2]: "Guides / ${P("docs/guides/v2")} (new)"`);
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
      // What a `refresh` would find, each kind's read run here on the checkpoint (issue 40: the CLI's
      // refresh, the engine storing what the read hands back, is the drift's and the drop's below):
      // every output and every input it would record, compared field by field with the checkpoint's,
      // so that a difference names its resource and field; and any write a read sent.
      c.found = await differencesFromGitBook(d.emu, d.state().resources, { asRefresh: true });
    }, 300_000);

    /** Lines of `c.found` about the resources `mine` names. */
    const foundFor = (mine: (name: string) => boolean) => c.found.filter((l) => mine(/^(.*?)(\.|: in state)/.exec(l)?.[1] ?? ""));
    /** A refresh would change nothing in state, and the next plan (the update's steps) nothing but `planned`, for the resources `mine` names. */
    const expectConverged = (mine: (name: string) => boolean, planned: string[] = []) => {
      expect(c.up.error).toBeUndefined();
      expect(c.found.filter((l) => l.startsWith("a read sent"))).toEqual([]);
      expect(foundFor(mine)).toEqual([]);
      expect(Object.keys(c.before).filter((urn) => mine(urn.split("::").pop()!)).length).toBeGreaterThan(0);
      const changes = (r: Report) => r.steps.filter((x) => x.op !== "same" && mine(x.name)).map((x) => `${x.op} ${x.name} [${(x.changed ?? []).join(", ")}]`);
      expect(changes(c.plan)).toEqual(planned);
      expect(c.plan.error).toBeUndefined();
    };

    // The replacement's up: its steps are the next plan (the same after a refresh, which would change nothing of theirs).
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
        // But the site whose checkpoint 0.1.0 left: declared as before, its step is "same", for which the
        // engine keeps the outputs it had, without the list of declared live fields until the next
        // refresh records it (the drift's below).
        expect((await differencesFromGitBook(d.emu, d.state().resources)).filter((x) => x !== "legacy.__gitbookDeclared: state absent, GitBook []")).toEqual([]);
        // The drop's namespace, created for the refresh below to drop.
        for (const sc of kinds) {
          expect(steps(r), sc.kind).toContain(`create ${dropped(sc.kind)}`);
          dropIds[sc.kind] = d.resource(dropped(sc.kind)).id!;
          expect(sc.live(d.emu, dropIds[sc.kind]!), sc.kind).toBeDefined();
        }
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
        // The read hands back the inputs without them (the engine stores what it hands back: the
        // drift's refresh below); the site's settings stay its outputs, as GitBook reports them.
        expect(foundFor((n) => n === "legacy").filter((l) => l.includes(".inputs."))).toEqual(
          ["published", "type", "visibility"].map((k) => expect.stringMatching(new RegExp(`^legacy\\.inputs\\.${k}: state .*, GitBook absent$`))),
        );
        expect(foundFor((n) => n === "legacy").filter((l) => !l.includes(".inputs."))).toEqual([expect.stringMatching(/^legacy\.__gitbookDeclared: state absent/)]);
        expect(converges("legacy")).toBe(true);
      });
    });
  });

  /**
   * One refresh after the app's edits (each kind's subject drifted; the plans' renames and reorder) and
   * the out-of-band deletes (each kind's drop subject removed), with state as 0.1.0 wrote it and the
   * package upgraded in place; then one up (`--diff`), whose program converges the drift and adopts an
   * existing object for each dropped subject. Each test below reads its own resources' part of the two.
   */
  const one = {} as {
    fields: Record<string, string>;
    /** The addressed site's `__provider` once state is rewritten as 0.1.0 wrote it. */
    shimWritten: unknown;
    refresh: Report;
    /** State as the refresh left it, before the up. */
    refreshed: ReturnType<Deployment["state"]>["resources"];
    /** The plans' named section's `names` before the refresh, the second site's navigation the refresh recorded. */
    namesBefore: unknown;
    appNavigation: unknown;
    /** The up's program, its requests, each kind's count of objects before it, and what the refresh dropped beside the drop subjects. */
    decls: Decl[];
    up: Report;
    log: Emulator["log"]["entries"];
    before: Record<string, number>;
    along: Decl[];
    found: string[];
  };
  /** Each kind's drop subject: the object the refresh dropped, then the one the up adopted. */
  const dropIds: Record<string, string> = {};
  const adoptIds: Record<string, string> = {};
  const refreshed = (name: string) => one.refreshed.find((x) => x.name === name);
  /** What a step of the refresh changed, the upgrade's stamp aside (every read of the upgraded package adds it). */
  const edited = (s?: { changed?: string[] }) => (s?.changed ?? []).filter((f) => f !== "implementation");
  describe("one refresh after drift and out-of-band deletes, one up that converges the drift and adopts existing objects", () => {
    beforeAll(async () => {
      one.fields = Object.fromEntries(kinds.map((sc) => [sc.kind, sc.drift(d.emu, ids[sc.kind]!)]));
      // The plans' edits in the app: renames on the navigation's site and the references' site, a
      // reorder on the second site.
      d.emu.store.sections.get(idOf("changelog"))!.title = "Release notes";
      d.emu.store.sections.get(idOf("namedGuides"))!.title = "Guides (renamed in the app)";
      d.emu.store.setOrder(["appGroup", "appTwo", "appOne"].map(idOf));
      one.namesBefore = d.resource(P("namedV2")).inputs.names;
      // State as version 0.1.0 wrote it: every __provider the SDK's serialization of the shim (2.7 kB).
      await d.editState((resources) => {
        for (const r of resources as Array<(typeof resources)[number] & { type: string }>) {
          if (!r.type.startsWith("pulumi-nodejs:dynamic/gitbook:")) continue;
          r.inputs.__provider = r.outputs.__provider = legacyShim(r.type.split(":").pop()!);
        }
      });
      one.shimWritten = d.resource("addressed").outputs.__provider;
      // Upgrade the package in place: every read now stamps its outputs.
      fs.appendFileSync(
        path.join(pkg, "dist/provider/impl.js"),
        `\nconst v1 = exports.dispatch;\nexports.dispatch = async (...a) => { const r = await v1(...a); if (a[2] === "read" && r && r.props) r.props.implementation = "v2"; return r; };\n`,
      );
      for (const sc of kinds) sc.remove(d.emu, dropIds[sc.kind]!);
      one.refresh = await run("refresh");
      one.refreshed = d.state().resources;
      one.appNavigation = d.resource(P("appOrder")).inputs.navigation;
      // The drift's program (the plans' follows the app's renames and renames a section); each drop
      // subject declared at its base, as it was first adopted, adopting an object made outside Pulumi.
      one.decls = [...program(d.emu, "replace", "replace", "applied", "renamed").filter((x) => !isDrop(x.name)), ...allDropped(d.emu, "base")];
      one.before = {};
      for (const sc of kinds) {
        const deployed: Deployed = { resource: (name) => d.resource(named(DROP(sc.kind), name)) };
        adoptIds[sc.kind] = await sc.existing(d.emu, deployed, TAG);
        one.decls.find((x) => x.name === dropped(sc.kind))!.args.adoptId = adoptIds[sc.kind];
        one.before[sc.kind] = sc.count(d.emu);
      }
      // A drop subject's remove took some dependencies along (a site's redirects go with their site,
      // an access list with its collection): the refresh dropped them too, and the up creates them again.
      one.along = one.decls.filter((x) => !x.name.endsWith("-subject") && !one.refreshed.some((y) => y.name === x.name));
      d.emu.log.reset();
      one.up = await run("up", one.decls, { flags: ["--diff"] });
      one.log = [...d.emu.log.entries];
      // The upgrade's stamp aside, which no read of GitBook's gives.
      one.found = (await differencesFromGitBook(d.emu, d.state().resources)).filter((x) => !/\.implementation: state "v2", GitBook absent$/.test(x));
    }, 600_000);

    it("shows drift made outside Pulumi at refresh, converges it on the next up, after which the next plan is a no-op sending no request", async () => {
      const r = one.refresh;
      expect(r.error).toBeUndefined();
      // The forced replacements left GitBook as state says, the site still published.
      expect(r.steps.filter((x) => FORCED.includes(x.name) && x.op !== "same" && (x.op !== "refresh" || edited(x).length)).map((x) => `${x.op} ${x.name}`)).toEqual([]);
      expect([...d.emu.store.sites.values()].find((x) => x.title === "Branded Docs")?.published).toBe(true);
      for (const sc of kinds) {
        const drifted = stepOf(r, sc.kind);
        expect(drifted?.op, sc.kind).toBe("refresh");
        expect(drifted.changed, sc.kind).toContain(one.fields[sc.kind]);
        const res = refreshed(subject(sc.kind))!;
        expect(res.inputs[one.fields[sc.kind]!], sc.kind).toEqual(res.outputs[one.fields[sc.kind]!]);
      }
      // --diff: how the CLI shows each app edit it restores.
      const back = one.up;
      expect(back.error).toBeUndefined();
      const blocks = diffBlocks(back.stdout);
      for (const sc of kinds) {
        expect(stepOf(back, sc.kind)?.op, sc.kind).toBe("update");
        expect(stepOf(back, sc.kind).changed, sc.kind).toContain(one.fields[sc.kind]);
        expect(blocks.get(subject(sc.kind)) ?? "", `${sc.kind}'s diff`).toMatch(new RegExp(`[~+-] ${one.fields[sc.kind]}\\b`));
      }
      expect(one.found).toEqual([]);
      // The next run, planned in this process from the checkpoint the up left, in the program's folder
      // (the provider's check and diff of each declaration, on a provider of its own, so that nothing this
      // process remembers spares a request; the engine adds nothing to a plan but its order): every step
      // "same", and not one request, a read included (plannedSteps fails on one). A no-op's "same" steps
      // sending nothing through the CLI: test/examples/docsSite.test.ts's second up, which counts every request.
      const next = await plannedSteps(d.emu, one.decls, d.state().resources, { cwd: programDir, requests: [] });
      expect(next.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`)).toEqual([]);
      expect(next.length).toBeGreaterThan(kinds.length);
    });

    describe("plans that never flap: the drift's refresh and its converging up", () => {
      it("does not flap when a title changes, in the program or in the app", () => {
        const refreshedOrder = one.refresh.steps.find((s) => s.name === P("order"));
        expect(refreshedOrder, "the order refreshed").toBeDefined();
        expect(edited(refreshedOrder)).toEqual([]);
        expect(changes(one.up, NAV)).toEqual([`update ${P("api")}`]);
      });

      it("shows a reorder made in the app by name at refresh", () => {
        expect(one.refresh.steps.find((s) => s.name === P("appOrder"))?.changed).toContain("navigation");
        expect(one.appNavigation).toEqual([`Group (${idOf("appGroup")})`, `Group / Three (${idOf("appThree")})`, `Two (${idOf("appTwo")})`, `One (${idOf("appOne")})`]);
      });

      it("keeps the names at refresh after a rename in the app, so no plan flaps", () => {
        expect(edited(one.refresh.steps.find((s) => s.name === P("namedV2")))).toEqual([]);
        // The next up put the title back, and changed nothing that names the section.
        expect(changes(one.up, REFS)).toEqual([`update ${P("namedGuides")}`]);
        expect(d.resource(P("namedV2")).inputs.names).toEqual(one.namesBefore);
        expect(d.resource(P("namedV2")).outputs.names).toEqual(one.namesBefore);
      });
    });

    // Recreating a dropped object on up is the in-process suite's (test/unit/lifecycle.test.ts): here the
    // objects dropped are the ones the adoption replaces, which saves the up that removed them.
    it("drops objects deleted outside Pulumi at refresh, with the package's current implementation from the shim an earlier version wrote", () => {
      expect(one.shimWritten).toBe(legacyShim("Site"));
      expect(one.refresh.error).toBeUndefined();
      // The refresh ran the new implementation through the stored shim, which it kept.
      expect(refreshed("addressed")!.outputs.implementation).toBe("v2");
      expect(refreshed("addressed")!.outputs.__provider).toBe(legacyShim("Site"));
      for (const sc of kinds) {
        expect(one.refresh.steps.find((s) => s.name === dropped(sc.kind))?.op, sc.kind).toBe("read-gone");
        expect(refreshed(dropped(sc.kind)), sc.kind).toBeUndefined();
      }
    });

    it("adopts existing objects instead of creating others", () => {
      const r = one.up;
      expect(r.error).toBeUndefined();
      // The program's shim differs from the stored one (0.1.0's): no change for it, the edited file's spec
      // among them, over the resources the kinds' scenarios leave out, the plans' aside (the drift's
      // converging writes, above); nothing but the creates is a step that writes.
      const scenario = (name: string) => kinds.some((sc) => name.startsWith(`${sc.kind}-`));
      const plansOwn = (name: string) => name.startsWith(P(""));
      expect(r.steps.filter((x) => x.type !== "pulumi:pulumi:Stack" && !scenario(x.name) && !plansOwn(x.name) && x.op !== "same" && x.op !== "create").map((x) => `${x.op} ${x.name}`)).toEqual([]);
      expect(d.resource("addressed").outputs.__provider).toBe(legacyShim("Site"));
      expect(steps(r).filter((x) => x.startsWith("create")).sort()).toEqual([...kinds.map((sc) => dropped(sc.kind)), ...one.along.map((x) => x.name)].map((n) => `create ${n}`).sort());
      for (const sc of kinds) {
        // The dropped object gone from GitBook; the existing one adopted, nothing else made.
        expect(sc.live(d.emu, dropIds[sc.kind]!), sc.kind).toBeUndefined();
        expect(d.resource(dropped(sc.kind)).id, sc.kind).toBe(adoptIds[sc.kind]);
        expect(sc.count(d.emu), sc.kind).toBe(one.before[sc.kind]! + one.along.filter((x) => x.kind === sc.kind).length);
      }
      expect(one.log.filter((e) => e.method === "POST").map((e) => e.route)).toHaveLength(one.along.length);
      expect(one.found).toEqual([]);
    });
  });

  it("destroys everything it made, leaving nothing behind, the resources 0.1.0's shim is stored for with the package's current implementation", async () => {
    expect(d.resource("addressed").outputs.__provider).toBe(legacyShim("Site"));
    const r = await run("destroy");
    expect(r.error).toBeUndefined();
    expect(d.state().resources).toEqual([]);
    for (const sc of kinds) expect(sc.count(d.emu), sc.kind).toBe(0);
    expect(d.emu.store.openApiSpecs.size).toBe(0);
  });

  it("never prints the token: not in the host's output, the plans, the reports, the copied package or program", () => {
    expect(fs.readFileSync(d.hostLog, "utf8")).not.toContain(d.emu.token);
    for (const [file, text] of filesUnder(d.dir)) expect(text, file).not.toContain(d.emu.token);
  });
});

/** A resource's part of a `--diff` plan: its lines, from the one before its URN to the next resource's. */
function partOf(stdout: string, name: string): string {
  const lines = stdout.split("\n");
  const at = lines.findIndex((l) => l.trim().startsWith("[urn=") && l.trim().endsWith(`::${name}]`));
  if (at < 0) return "";
  const end = lines.findIndex((l, i) => i > at && l.trim().startsWith("[urn="));
  return lines.slice(at - 1, end < 0 ? undefined : end - 1).join("\n");
}
