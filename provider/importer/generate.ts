/**
 * Turns an OrgSnapshot into a Pulumi program that adopts every object as it is: pure, no request,
 * the same text for the same snapshot.
 *
 * Every object becomes a declaration (kind, Pulumi name, arguments) holding each setting it has now
 * and its `adoptId`: adoption reads the object and sends only what differs from the declaration, so
 * the first `up` writes nothing. References between objects are expressions (`siteId: acmeDocs.id`),
 * never literal IDs, wherever both ends are in the program; the spaces the sites show, which no
 * resource manages, are named once in a `spaces` map.
 *
 * Each setting is checked against the resource's own schema before it is written: a value the
 * resource would refuse (GitBook allowing more than the resource does) is left out with a comment
 * saying why, rather than written into a program that fails its first preview.
 *
 * Kinds live in one table (KINDS). A kind the package has no resource for yet (section groups) is
 * written as a comment showing the declaration it will be: giving it its class in the table turns
 * those comments into code.
 */
import type { z } from "zod";
import { definition as openApiSpec, processingFailed } from "../resources/openApiSpec";
import { definition as samlProvider } from "../resources/samlProvider";
import { definition as shareLink } from "../resources/shareLink";
import { definition as site } from "../resources/site";
import { definition as siteSection } from "../resources/siteSection";
import { definition as siteSpace } from "../resources/siteSpace";
import { definition as team } from "../resources/team";
import { validateTopology } from "../components/topology";
import { Identifiers, Namer, slug } from "./names";
import type { OrgSnapshot, SectionSnapshot, SiteSnapshot, SiteSpaceSnapshot } from "./snapshot";

export type Style = "resources" | "docs-site";

export interface GenerateOptions {
  /** `docs-site`: one DocsSite component per site (where its topology allows); `resources`: one resource per object. */
  style: Style;
  project: string;
  stack: string;
  /** Every resource gets `retainOnDelete: true`: destroy then only forgets objects. */
  retainOnDelete: boolean;
  /** The `pulumi-gitbook` dependency in package.json (a version range, a tarball or a folder). */
  packageSpec: string;
  /** The `@pulumi/pulumi` dependency in package.json. */
  sdkSpec: string;
}

export interface Generated {
  /** Relative path -> content. */
  files: Record<string, string>;
  /** What the user must know or do before `pulumi up`, one sentence each. */
  notes: string[];
}

// ---- Kinds ---------------------------------------------------------------------------------------

interface KindSpec {
  /** The pulumi-gitbook class; undefined while the package has none (the declaration is written as a comment). */
  className: string | undefined;
  /** The resource's input schema, which every written setting must pass. */
  schema?: z.ZodObject;
  /** Appended to the Pulumi name to make the variable name, where the name alone would not say what it is. */
  variableSuffix: string;
}

const KINDS = {
  Site: { className: "Site", schema: site.schema, variableSuffix: "" },
  SiteSection: { className: "SiteSection", schema: siteSection.schema, variableSuffix: "" },
  SiteSpace: { className: "SiteSpace", schema: siteSpace.schema, variableSuffix: "" },
  ShareLink: { className: "ShareLink", schema: shareLink.schema, variableSuffix: "-link" },
  Team: { className: "Team", schema: team.schema, variableSuffix: "-team" },
  SamlProvider: { className: "SamlProvider", schema: samlProvider.schema, variableSuffix: "-saml" },
  OpenApiSpec: { className: "OpenApiSpec", schema: openApiSpec.schema, variableSuffix: "-spec" },
  // No resource yet (another change adds it): written as a comment.
  SectionGroup: { className: undefined, variableSuffix: "-group" },
} satisfies Record<string, KindSpec>;

type Kind = keyof typeof KINDS;

// ---- Values and declarations ------------------------------------------------------------------------

/** A TypeScript expression written as is (a reference), as opposed to a literal value. */
class Code {
  constructor(readonly text: string) {}
}

interface Decl {
  kind: Kind;
  /** The Pulumi resource name. */
  name: string;
  /** Within a site: the name's last part (a DocsSite key). */
  key: string;
  variable: string;
  args: Record<string, unknown>;
  /** Lines written above the declaration. */
  comments: string[];
  /** How the program refers to the object's ID. */
  id: Code;
}

/** Everything the declarations of one program share: names handed out so far, notes for the user. */
class Program {
  readonly identifiers = new Identifiers();
  readonly notes: string[] = [];
  private readonly namers = new Map<string, Namer>();

  /** A name unique among the objects of `kind` under `scope` (the organization, a site or a section). */
  name(kind: Kind, scope: string, base: string): string {
    const key = `${kind}\u0000${scope}`;
    let namer = this.namers.get(key);
    if (!namer) this.namers.set(key, (namer = new Namer()));
    return namer.take(base);
  }

  decl(kind: Kind, name: string, key: string, args: Record<string, unknown>, comments: string[] = []): Decl {
    const variable = this.identifiers.take(name + KINDS[kind].variableSuffix);
    const checked = checkArgs(kind, args);
    for (const c of checked.comments) this.notes.push(`${KINDS[kind].className ?? kind} ${JSON.stringify(name)}: ${c}`);
    return { kind, name, key, variable, args: checked.args, comments: [...comments, ...checked.comments], id: new Code(`${variable}.id`) };
  }
}

/**
 * The arguments the resource accepts. An optional setting it would refuse is left out (it then stays
 * as it is in GitBook); a required one is kept, with a comment, for the user to fix.
 */
function checkArgs(kind: Kind, args: Record<string, unknown>): { args: Record<string, unknown>; comments: string[] } {
  const schema: z.ZodObject | undefined = (KINDS[kind] as KindSpec).schema;
  const out: Record<string, unknown> = {};
  const comments: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    const field = schema?.shape[k] as z.ZodType | undefined;
    const problem = field && !(v instanceof Code) ? field.safeParse(v).error?.issues[0]?.message : undefined;
    if (!problem) {
      out[k] = v;
    } else if (field!.isOptional()) {
      comments.push(`${k} is ${JSON.stringify(v)} in GitBook, which ${KINDS[kind].className} refuses (${k} ${problem}): left out, so it stays as it is.`);
    } else {
      out[k] = v;
      comments.push(`FIXME: ${k} is ${JSON.stringify(v)} in GitBook, which ${KINDS[kind].className} refuses (${k} ${problem}): preview fails until it is changed.`);
    }
  }
  return { args: out, comments };
}

// ---- The program ---------------------------------------------------------------------------------

export function generateProgram(snapshot: OrgSnapshot, opts: GenerateOptions): Generated {
  const program = new Program();
  const spaces = spaceKeys(snapshot);
  // Teams are named first: the SAML providers refer to them.
  const teams = teamDecls(program, snapshot);
  const sites = byCreation(snapshot.sites).flatMap((site) => siteCode(program, site, spaces, opts.style));
  const saml = samlDecls(program, snapshot, teams);
  const specs = specDecls(program, snapshot);
  const body = [...sites, ...part("Teams", [...teams.values()]), ...part("Single sign-on", saml), ...part("OpenAPI specs", specs.decls)];
  const names = programFiles(opts.stack);
  return {
    files: {
      [names.program]: programText(snapshot, opts, spaces, body),
      [names.project]: projectFile(snapshot, opts),
      [names.stack]: stackFile(snapshot),
      [names.npm]: packageJson(opts),
      [names.tsconfig]: TSCONFIG,
      [names.gitignore]: "node_modules/\nbin/\n",
      ...specs.files,
    },
    notes: program.notes,
  };
}

/** The files every program has (OpenAPI documents come on top), so a caller can look for them before reading anything. */
export function programFiles(stack: string) {
  return {
    program: "index.ts",
    project: "Pulumi.yaml",
    stack: `Pulumi.${stack}.yaml`,
    npm: "package.json",
    tsconfig: "tsconfig.json",
    gitignore: ".gitignore",
  } as const;
}

/** A heading and the declarations under it; nothing when there are none. */
function part(title: string, decls: Decl[]): string[] {
  return decls.length ? [heading(title), ...decls.map(declaration)] : [];
}

// ---- Organization-wide objects -------------------------------------------------------------------

/** By team ID. */
function teamDecls(program: Program, snapshot: OrgSnapshot): Map<string, Decl> {
  const out = new Map<string, Decl>();
  for (const t of byCreation(snapshot.teams)) {
    const name = program.name("Team", "", slug(t.title, "team"));
    // The resource compares members in this order too: e-mails case-insensitively, then exactly.
    const members = [...t.members].sort((a, b) => compareText(a.user.toLowerCase(), b.user.toLowerCase()) || compareText(a.user, b.user));
    out.set(t.id, program.decl("Team", name, name, { title: t.title, members, adoptId: t.id }));
  }
  return out;
}

function samlDecls(program: Program, snapshot: OrgSnapshot, teams: Map<string, Decl>): Decl[] {
  return byCreation(snapshot.samlProviders).map((s) => {
    const name = program.name("SamlProvider", "", slug(s.label, "saml"));
    // Copied rather than left to stack config: see the comment it gets.
    const comments = s.certificate
      ? [
          "The certificate is the identity provider's signing certificate, public by design: the IdP publishes it in",
          "its SAML metadata for anyone to verify its signatures with, and it holds no private key. Copied as it is.",
        ]
      : [];
    const defaultTeam = s.defaultTeamId === undefined ? undefined : (teams.get(s.defaultTeamId)?.id ?? s.defaultTeamId);
    // null is a value here (new SSO users join as guests), so it is written as null.
    const args = { label: s.label, entityID: s.entityID, ssoURL: s.ssoURL, certificate: s.certificate, defaultTeam, defaultRole: s.defaultRole, adoptId: s.id };
    return program.decl("SamlProvider", name, name, args, comments);
  });
}

/**
 * A spec uploaded as text becomes a file source: the API never gives the text back, so a text source
 * would be sent again on adoption, while a file source's hash is taken as what GitBook has.
 */
function specDecls(program: Program, snapshot: OrgSnapshot): { decls: Decl[]; files: Record<string, string> } {
  const files: Record<string, string> = {};
  const decls = byCreation(snapshot.openApiSpecs).map((s) => {
    const name = program.name("OpenApiSpec", "", s.slug);
    const comments: string[] = [];
    let source: { url: string } | { file: string };
    if ("url" in s.source) {
      source = { url: s.source.url };
    } else {
      const document = s.source.text.document;
      const file = `openapi/${s.slug}.${document?.format ?? "yaml"}`;
      source = { file };
      comments.push(
        "Uploaded as text, which the API never gives back. A file source adopts without sending anything (the",
        `provider reads ${file} and keeps its hash); what the file holds is what a later change sends.`,
      );
      if (document) {
        files[file] = document.content;
        comments.push(`${file} is the last version GitBook processed, downloaded at import.`);
      } else {
        const why = s.source.text.unavailable ?? "it could not be downloaded";
        comments.push(`TODO: put the document at ${file}: ${why}.`);
        program.notes.push(`OpenAPI spec "${s.slug}": put its document at ${file} before \`pulumi up\` (${why}).`);
      }
    }
    // The OpenApiSpec resource sends the source of a spec whose processing failed again, adopted or not.
    if (processingFailed(s)) {
      comments.push(`Its last processing failed (${s.lastProcessErrorCode}): adopting it sends the source again.`);
      program.notes.push(`OpenAPI spec "${s.slug}": its last processing failed, so the first \`pulumi up\` sends its source again.`);
    }
    return program.decl("OpenApiSpec", name, name, { slug: s.slug, source, visibility: s.visibility, adoptId: s.id }, comments);
  });
  return { decls, files };
}

// ---- Sites ---------------------------------------------------------------------------------------

interface SiteDecls {
  site: Decl;
  sections: { decl: Decl; siteSpaces: Decl[] }[];
  shareLinks: Decl[];
  groups: Decl[];
  comments: string[];
}

function siteCode(program: Program, snap: SiteSnapshot, spaces: SpaceKeys, style: Style): string[] {
  const d = siteDecls(program, snap, spaces);
  const out = [heading(`Site ${JSON.stringify(snap.title)}`), ...d.comments.map((c) => `// ${c}`)];
  const problems = style === "docs-site" ? docsSiteProblems(d) : [];
  if (style === "docs-site" && problems.length === 0) {
    out.push(docsSite(d));
    return out;
  }
  if (problems.length) out.push(...comment(`Declared resource by resource: as a DocsSite, ${problems.join("; ")}.`));
  out.push(declaration(d.site));
  for (const s of d.sections) out.push(declaration(s.decl), ...s.siteSpaces.map(declaration));
  out.push(...d.shareLinks.map(declaration), ...d.groups.map(declaration));
  return out;
}

function siteDecls(program: Program, snap: SiteSnapshot, spaces: SpaceKeys): SiteDecls {
  const siteName = program.name("Site", "", slug(snap.title, "site"));
  const site = program.decl("Site", siteName, siteName, {
    title: snap.title,
    type: snap.type,
    visibility: snap.visibility,
    basename: snap.basename,
    agentsContext: snap.agentsContext,
    proxy: snap.proxy,
    adaptiveContent: snap.adaptiveContent,
    adoptId: snap.id,
  });
  const comments: string[] = [];
  const sections: SiteDecls["sections"] = [];
  const sectionIds = new Map<string, Code>();
  for (const s of snap.sections) {
    const [own, ...others] = s.siteSpaces;
    if (!own) {
      comments.push(`Section ${s.id} (${JSON.stringify(s.title)}) shows no space, and a SiteSection is made from one: not imported.`);
      program.notes.push(`Site ${JSON.stringify(snap.title)}: section ${JSON.stringify(s.title)} shows no space and was not imported.`);
      continue;
    }
    const decl = sectionDecl(program, site, s, own, spaces);
    sectionIds.set(s.id, decl.id);
    const siteSpaces = others.map((ss) => {
      const key = program.name("SiteSpace", decl.name, slug(ss.path, "space"));
      return program.decl("SiteSpace", `${decl.name}/${key}`, key, {
        siteId: site.id,
        sectionId: decl.id,
        spaceId: spaces.ref(ss.space),
        path: ss.path,
        condition: ss.condition,
        default: ss.default ? true : undefined,
        adoptId: ss.id,
      });
    });
    sections.push({ decl, siteSpaces });
  }
  for (const ss of snap.rootSiteSpaces) {
    comments.push(`Site space ${ss.id} (${spaceTitle(ss)} at ${JSON.stringify(ss.path)}) sits outside any section, where no resource can hold it: not imported.`);
    program.notes.push(`Site ${JSON.stringify(snap.title)}: site space ${ss.id} is outside any section and was not imported.`);
  }
  const shareLinks: Decl[] = [];
  for (const l of byCreation(snap.shareLinks)) {
    if (l.name === undefined) {
      comments.push(`Share link ${l.id} has no name, which a ShareLink requires (adopting it with one would rename it): not imported.`);
      program.notes.push(`Site ${JSON.stringify(snap.title)}: share link ${l.id} has no name and was not imported.`);
      continue;
    }
    const key = program.name("ShareLink", siteName, slug(l.name, "link"));
    shareLinks.push(program.decl("ShareLink", `${siteName}/${key}`, key, { siteId: site.id, name: l.name, active: l.active, adoptId: l.id }));
  }
  const groups = snap.sectionGroups.map((g) => {
    const key = program.name("SectionGroup", siteName, slug(g.title, "group"));
    const members = g.sectionIds.map((id) => sectionIds.get(id) ?? id);
    return program.decl("SectionGroup", `${siteName}/${key}`, key, { siteId: site.id, title: g.title, icon: g.icon, sections: members, adoptId: g.id });
  });
  return { site, sections, shareLinks, groups, comments };
}

function sectionDecl(program: Program, site: Decl, s: SectionSnapshot, own: SiteSpaceSnapshot, spaces: SpaceKeys): Decl {
  const key = program.name("SiteSection", site.name, slug(s.path, "section"));
  // The site space a section is made from belongs to the SiteSection, which has no input for its own
  // path or condition: they stay as they are. A condition there is worth knowing about.
  const comments = own.condition
    ? [`Its site space of ${spaceTitle(own)} (the one it was made from) shows only when ${own.condition}; SiteSection has no input for that, so it stays as it is.`]
    : [];
  return program.decl(
    "SiteSection",
    `${site.name}/${key}`,
    key,
    {
      siteId: site.id,
      spaceId: spaces.ref(own.space),
      title: s.title,
      path: s.path,
      icon: s.icon,
      description: s.description,
      condition: s.condition,
      default: s.default ? true : undefined,
      adoptId: s.id,
    },
    comments,
  );
}

/** Why the site cannot be one DocsSite (empty when it can), as DocsSite's own check says. */
function docsSiteProblems(d: SiteDecls): string[] {
  if (d.sections.length === 0) return ["a site needs at least one section"];
  // References (`spaces.guides`) stand in as their text: two site spaces of one space then compare
  // equal, as they would at run time. Share links are left out: those the component would refuse (a
  // site that is not `share-link`) are declared beside it instead.
  const plain = (decl: Decl) => Object.fromEntries(Object.entries(withoutRefs(decl.args)).map(([k, v]) => [k, v instanceof Code ? v.text : v]));
  const topology = {
    site: withoutRefs(d.site.args),
    sections: d.sections.map((s) => ({ key: s.decl.key, ...plain(s.decl), siteSpaces: s.siteSpaces.map((ss) => ({ key: ss.key, ...plain(ss) })) })),
  };
  return validateTopology(topology).map((p) => p.message);
}

/** The arguments a DocsSite child does not take: the component supplies its site and section. */
function withoutRefs(args: Record<string, unknown>): Record<string, unknown> {
  const { siteId: _site, sectionId: _section, ...rest } = args;
  return rest;
}

function docsSite(d: SiteDecls): string {
  const v = d.site.variable;
  const linksInside = d.site.args.visibility === "share-link";
  // Inside the component, the children's IDs are the component's outputs.
  d.site.id = new Code(`${v}.siteId`);
  for (const s of d.sections) {
    s.decl.id = new Code(`${v}.sections[${JSON.stringify(s.decl.key)}].id`);
    for (const ss of s.siteSpaces) ss.id = new Code(`${v}.siteSpaces[${JSON.stringify(`${s.decl.key}/${ss.key}`)}].id`);
  }
  if (linksInside) for (const l of d.shareLinks) l.id = new Code(`${v}.shareLinks[${JSON.stringify(l.key)}].id`);
  const resolve = (args: Record<string, unknown>) => resolveIds(withoutRefs(args), d);
  const topology: Record<string, unknown> = {
    site: resolve(d.site.args),
    sections: d.sections.map((s) => ({
      key: s.decl.key,
      ...resolve(s.decl.args),
      ...(s.siteSpaces.length ? { siteSpaces: s.siteSpaces.map((ss) => ({ key: ss.key, ...resolve(ss.args) })) } : {}),
    })),
  };
  if (linksInside && d.shareLinks.length) topology.shareLinks = d.shareLinks.map((l) => ({ key: l.key, ...resolve(l.args) }));
  const lines = [
    ...d.site.comments.map((c) => `// ${c}`),
    ...d.sections.flatMap((s) => [...s.decl.comments, ...s.siteSpaces.flatMap((ss) => ss.comments)].map((c) => `// ${s.decl.key}: ${c}`)),
    `const ${v} = new gitbook.DocsSite(${JSON.stringify(d.site.name)}, ${render(topology, "", true)});`,
  ];
  // Share links of a site that is not `share-link` (the component refuses them) stay beside it.
  const rest = [...(linksInside ? [] : d.shareLinks.map((l) => ({ ...l, args: { ...l.args, siteId: d.site.id } }))), ...d.groups.map((g) => ({ ...g, args: resolveIds(g.args, d) }))];
  return [lines.join("\n"), ...rest.map(declaration)].join("\n\n");
}

/** Re-points references to the site's children at the component's outputs. */
function resolveIds(args: Record<string, unknown>, d: SiteDecls): Record<string, unknown> {
  const byText = new Map<string, Code>();
  const old = (decl: Decl) => `${decl.variable}.id`;
  byText.set(old(d.site), d.site.id);
  for (const s of d.sections) {
    byText.set(old(s.decl), s.decl.id);
    for (const ss of s.siteSpaces) byText.set(old(ss), ss.id);
  }
  for (const l of d.shareLinks) byText.set(old(l), l.id);
  const fix = (v: unknown): unknown => (v instanceof Code ? (byText.get(v.text) ?? v) : Array.isArray(v) ? v.map(fix) : v);
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, fix(v)]));
}

// ---- Spaces --------------------------------------------------------------------------------------

interface SpaceKeys {
  /** `spaces.<key>` for a space. */
  ref(space: { id: string }): Code;
  /** [key, id, title] in the order they are written. */
  entries: [string, string, string | undefined][];
}

/** One key per space the sites show, from its title; ordered by title, then ID. */
function spaceKeys(snapshot: OrgSnapshot): SpaceKeys {
  const byId = new Map<string, string | undefined>();
  for (const site of snapshot.sites) {
    for (const ss of [...site.sections.flatMap((s) => s.siteSpaces), ...site.rootSiteSpaces]) {
      if (!byId.has(ss.space.id) || byId.get(ss.space.id) === undefined) byId.set(ss.space.id, ss.space.title);
    }
  }
  const ordered = [...byId.entries()].sort(([ia, ta], [ib, tb]) => compareText(ta ?? "", tb ?? "") || compareText(ia, ib));
  const ids = new Identifiers();
  const keys = new Map<string, string>();
  const entries: SpaceKeys["entries"] = ordered.map(([id, title]) => {
    const key = ids.take(title ?? id);
    keys.set(id, key);
    return [key, id, title];
  });
  return { ref: (space) => new Code(`spaces.${keys.get(space.id)!}`), entries };
}

function spaceTitle(ss: SiteSpaceSnapshot): string {
  return ss.space.title === undefined ? `space ${ss.space.id}` : `space ${JSON.stringify(ss.space.title)}`;
}

// ---- Files ---------------------------------------------------------------------------------------

function programText(snapshot: OrgSnapshot, opts: GenerateOptions, spaces: SpaceKeys, body: string[]): string {
  const scope =
    snapshot.scope === "sites"
      ? "Only the sites asked for (--site); teams, single sign-on and OpenAPI specs were left out."
      : "Sites with their sections, site spaces and share links; teams; single sign-on; OpenAPI specs.";
  const head = [
    `// Generated by \`pulumi-gitbook import\` from the GitBook organization ${snapshot.organizationId}.`,
    `// ${scope}`,
    "//",
    "// Each object is declared with every setting it has now, and adopted through its `adoptId`: the first",
    "// `pulumi up` reads it and changes nothing. From then on this program is the source of truth (adoptId no",
    "// longer matters once an object is in the stack's state). To let go of an object without deleting it in",
    "// GitBook, give it `{ retainOnDelete: true }` and run `pulumi up` (which changes nothing in GitBook)",
    "// before removing its declaration or running `pulumi destroy`.",
    ...(opts.retainOnDelete ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as gitbook from "pulumi-gitbook";',
  ];
  const parts = [head.join("\n")];
  if (opts.retainOnDelete) {
    parts.push(
      [
        "// Imported with --retain-on-delete: Pulumi never deletes these GitBook objects. `pulumi destroy`, or removing",
        "// a declaration, only takes the object out of the stack; it stays in GitBook as it is. Remove this transform",
        "// to let Pulumi delete what it manages.",
        "pulumi.runtime.registerResourceTransform((args) => ({ props: args.props, opts: { ...args.opts, retainOnDelete: true } }));",
      ].join("\n"),
    );
  }
  if (spaces.entries.length) {
    const lines = spaces.entries.map(([key, id, title]) => `  ${key}: ${JSON.stringify(id)},${title === undefined ? "" : ` // ${oneLine(title)}`}`);
    parts.push(["// The spaces the sites show, by ID. Spaces themselves are not managed by this program.", "const spaces = {", ...lines, "};"].join("\n"));
  }
  parts.push(...body);
  return `${parts.join("\n\n")}\n`;
}

function projectFile(snapshot: OrgSnapshot, opts: GenerateOptions): string {
  return [
    `# Written by \`pulumi-gitbook import\`: the GitBook organization ${snapshot.organizationId} as a Pulumi program (index.ts).`,
    `name: ${opts.project}`,
    "runtime: nodejs",
    `description: ${JSON.stringify(`The GitBook organization ${snapshot.organizationId}, imported with pulumi-gitbook.`)}`,
    "",
  ].join("\n");
}

function stackFile(snapshot: OrgSnapshot): string {
  return [
    "# The stack's settings. The API token is not written here: give it with",
    "#   pulumi config set --secret gitbook:token <token>",
    "# or in the GITBOOK_TOKEN environment variable.",
    "config:",
    `  gitbook:organizationId: ${JSON.stringify(snapshot.organizationId)}`,
    ...(snapshot.apiUrl ? [`  gitbook:apiUrl: ${JSON.stringify(snapshot.apiUrl)}`] : []),
    "",
  ].join("\n");
}

function packageJson(opts: GenerateOptions): string {
  const pkg = {
    name: opts.project,
    private: true,
    main: "index.ts",
    scripts: { build: "tsc" },
    dependencies: { "@pulumi/pulumi": opts.sdkSpec, "pulumi-gitbook": opts.packageSpec },
    devDependencies: { "@types/node": "^20.19.0", typescript: "^5.9.3" },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "commonjs",
      moduleResolution: "node",
      esModuleInterop: true,
      skipLibCheck: true,
      sourceMap: true,
      outDir: "bin",
      types: ["node"],
    },
    files: ["index.ts"],
  },
  null,
  2,
)}\n`;

// ---- Rendering -----------------------------------------------------------------------------------

function declaration(d: Decl): string {
  const lines = d.comments.map((c) => `// ${c}`);
  const spec: KindSpec = KINDS[d.kind];
  const text = `new gitbook.${spec.className ?? d.kind}(${JSON.stringify(d.name)}, ${render(d.args, "", true)});`;
  if (spec.className) return [...lines, `const ${d.variable} = ${text}`].join("\n");
  // Written the way it will be declared once the package has the resource.
  return [...lines, `// TODO: pulumi-gitbook has no ${d.kind} resource yet; once it has, this is its declaration:`, ...text.split("\n").map((l) => `//   ${l}`)].join("\n");
}

const WIDTH = 100;

/** A value as TypeScript: literals as JSON, references as written, short objects and lists on one line. */
function render(v: unknown, indent: string, multiline = false): string {
  if (v instanceof Code) return v.text;
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  const inner = `${indent}  `;
  const items = Array.isArray(v)
    ? v.map((x) => render(x, inner))
    : Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${render(x, inner)}`);
  const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
  if (items.length === 0) return `${open}${close}`;
  const one = Array.isArray(v) ? `[${items.join(", ")}]` : `{ ${items.join(", ")} }`;
  if (!multiline && !one.includes("\n") && indent.length + one.length <= WIDTH) return one;
  return `${open}\n${items.map((i) => `${inner}${i},`).join("\n")}\n${indent}${close}`;
}

function heading(title: string): string {
  return `// ---- ${oneLine(title)} `.padEnd(WIDTH, "-");
}

function comment(text: string): string[] {
  return [`// ${oneLine(text)}`];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ");
}

// ---- Order ---------------------------------------------------------------------------------------

/** Oldest first, then by ID: the order names are handed out in, so an older object keeps its name. */
function byCreation<T extends { id: string; createdAt?: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => compareText(a.createdAt ?? "", b.createdAt ?? "") || compareText(a.id, b.id));
}

/** Code-unit order, the same on every machine (localeCompare is not). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
