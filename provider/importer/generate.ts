/**
 * Turns an OrgSnapshot into a Pulumi program that adopts every object as it is: pure, no request,
 * the same text for the same snapshot.
 *
 * Every object becomes a declaration (kind, Pulumi name, arguments) holding each setting it has now
 * and its `adoptId`: adoption reads the object and sends only what differs from the declaration, so
 * the first `up` writes nothing. References between objects are expressions (`siteId: acmeDocs.id`,
 * `spaceId: guidesSpace.id`), never literal IDs, wherever both ends are in the program.
 *
 * Each setting is checked against the resource's own schema before it is written: a value the
 * resource would refuse (GitBook allowing more than the resource does) is left out with a comment
 * saying why, rather than written into a program that fails its first preview.
 *
 * A site's navigation keeps its order: a SiteStructureOrder (or the order of a DocsSite's entries)
 * lists every item as the site's structure has it, so adopting it sends no sort request.
 *
 * What each kind's declaration says is written (which inputs, which of them name another object) comes
 * from its fields' rules (FieldRule.import, see argsOf), and the kinds from the registry
 * (resources/index.ts): adding a setting to a kind touches its module only. A kind found under a site
 * that declares `import.declare` (a site space's branding overrides) is declared as it is beside its
 * site (declaredBeside), with no code here. The navigation's kinds declare `import.navigation` (how an
 * item is named, its DocsSite entry, what it holds): their names, declaration order, DocsSite entries
 * and the order's groups are derived from it, so an item kind of its own needs no code here. What is
 * still this file's: what a section is made from (its first space, its site spaces), and the site's
 * other parts (visitor schema, branding, share links, redirects), which the DocsSite component wires
 * by name.
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import type { NavigationSpec, Resource } from "../framework/define";
import { ruleOf } from "../framework/fields";
import { resources } from "../resources";
import { recordsOf, type ImportRecord } from "../framework/discover";
import { processingFailed } from "../resources/openApiSpec";
import { PATH_SCOPES } from "../resources/urlPaths";
import { definition as siteAdaptiveSchema } from "../resources/siteAdaptiveSchema";
import { definition as siteCustomization } from "../resources/siteCustomization";
import { validateTopology } from "../components/topology";
import equal from "fast-deep-equal";
import { propertyPath } from "../framework/check";
import { declaredPart } from "../framework/settings";
import { programPackageJson, TSCONFIG_JSON } from "../programFiles";
import { comment, literal, yamlString } from "./emit";
import { Identifiers, Namer, PreviousProgram, slug } from "./names";
import type { CollectionSnapshot, OrgSnapshot, SectionSnapshot, SiteSnapshot, SiteSpaceSnapshot } from "./snapshot";

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
  /** The program an earlier import wrote where this one writes: its names are kept. */
  previous?: PreviousProgram;
}

export interface Generated {
  /** Relative path -> content. */
  files: Record<string, string>;
  /** What the user must know or do before `pulumi up`, one sentence each. */
  notes: string[];
}

// ---- Kinds ---------------------------------------------------------------------------------------

/** Every kind by its name, as the registry declares it. */
const KINDS = new Map(resources.map((r) => [r.kind, r]));

type Kind = string;

function kindOf(kind: Kind): Resource {
  const def = KINDS.get(kind);
  if (!def) throw new Error(`no resource kind ${kind}`);
  return def;
}

/** The kinds of a site's navigation (ImportSpec.navigation), in the registry's order: named alike (a DocsSite keys them all in one space). */
const NAVIGATION: Kind[] = resources.filter((r) => r.import?.navigation).map((r) => r.kind);

/** The navigation's kinds in the order they are declared: each after those its fields refer to (a section after the groups). */
const NAVIGATION_DECLARED: Kind[] = afterReferences(NAVIGATION);

/**
 * The navigation's kind made from a space: its record's first site space (or the one an earlier import
 * chose) is its `spaceId`, and the others are SiteSpaces declared with it (siteDecls).
 */
const SECTION: Kind = "SiteSection";

/** `kinds`, each after the ones among them that its fields refer to (FieldRule.import.ref), else in their order. */
function afterReferences(kinds: readonly Kind[]): Kind[] {
  const out: Kind[] = [];
  const visit = (kind: Kind, path: readonly Kind[]) => {
    if (out.includes(kind) || path.includes(kind)) return;
    for (const schema of Object.values(kindOf(kind).schema.shape as Record<string, z.ZodType>)) {
      const ref = refOf(schema);
      if (ref !== undefined && kinds.includes(ref)) visit(ref, [...path, kind]);
    }
    out.push(kind);
  };
  for (const kind of kinds) visit(kind, []);
  return out;
}

/** The kind whose ID a field holds, as it declares (FieldRule.import.ref). */
function refOf(schema: z.ZodType | undefined): Kind | undefined {
  const rule = schema && ruleOf(schema).import;
  return rule ? rule.ref : undefined;
}

/** How a navigation kind is written (its ImportSpec.navigation). */
function navigationOf(kind: Kind): NavigationSpec {
  return kindOf(kind).import!.navigation!;
}

// ---- Values and declarations ------------------------------------------------------------------------

/** A TypeScript expression written as is (a reference), as opposed to a literal value. */
class Code {
  constructor(readonly text: string) {}
}

/** How a declaration writes the ID of an object of `kind` it refers to: an expression, or the ID. */
type Ref = (kind: Kind, id: string) => Code | string;

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
  /** Resource options, as written. */
  opts?: Code;
}

/** Everything the declarations of one program share: names handed out so far, notes for the user. */
class Program {
  readonly identifiers = new Identifiers();
  readonly notes: string[] = [];
  private readonly namers = new Map<string, Namer>();
  /** Objects read but not declared, and why: were an earlier program declaring one, the next up would delete it. */
  readonly leftOut = new Map<string, string>();
  /** The sites written as a DocsSite: the component has no `id` output of its site. */
  readonly docsSites = new Set<string>();
  /** Every declaration by kind and the ID of the object it adopts: what a reference to that object is written as. */
  private readonly adopted = new Map<string, Decl>();
  /** The declaration holding each path segment, by kind, container and path (see pathOnce). */
  private readonly paths = new Map<string, string>();

  constructor(readonly previous: PreviousProgram | undefined) {}

  /**
   * A name unique among the objects of `kind` under `scope` (the organization, a site or a section):
   * the one the earlier import gave the object `id` when there was one, else one from `base`.
   * A site's sections, groups and links share one namer: a DocsSite keys them all alike.
   */
  name(kind: Kind, scope: string, base: string, id: string): string {
    const kinds: Kind[] = NAVIGATION.includes(kind) ? NAVIGATION : [kind];
    const key = `${kinds.join(",")}\u0000${scope}`;
    const prefix = scope ? `${scope}/` : "";
    // The last part of a name under this scope, or undefined.
    const part = (name: string) => (name.startsWith(prefix) && !name.slice(prefix.length).includes("/") ? name.slice(prefix.length) : undefined);
    let namer = this.namers.get(key);
    if (!namer) this.namers.set(key, (namer = new Namer((this.previous?.namesOf(kinds) ?? []).flatMap((n) => optional(part(n))))));
    const before = this.previous?.name(kind, id);
    const kept = before === undefined ? undefined : part(before);
    return kept !== undefined && namer.claim(kept) ? kept : namer.take(base);
  }

  /**
   * The declaration of an object from its settings (keyed like the kind's inputs, with `adoptId`), as
   * argsOf writes them; `ref`, how it names the objects it refers to, where not as the program does.
   */
  decl(kind: Kind, name: string, key: string, settings: Record<string, unknown>, comments: string[] = [], ref: Ref = (k, id) => this.ref(k, id)): Decl {
    const def = kindOf(kind);
    const variable = this.identifiers.take(name + (def.import?.variableSuffix ?? ""));
    const checked = checkArgs(def, argsOf(def, settings, ref));
    this.pathOnce(kind, name, settings, checked);
    for (const c of checked.comments) this.notes.push(`${kind} ${literal(name)}: ${c}`);
    const decl: Decl = { kind, name, key, variable, args: checked.args, comments: [...comments, ...checked.comments], id: new Code(`${variable}.id`) };
    if (typeof settings.adoptId === "string") {
      // Two resources adopting one object would fight over it from the first up on.
      const other = this.adopted.get(`${kind}\u0000${settings.adoptId}`);
      if (other) throw new Error(`importer: ${kind} ${literal(settings.adoptId)} would be adopted twice, as ${literal(other.name)} and ${literal(name)}`);
      this.adopted.set(`${kind}\u0000${settings.adoptId}`, decl);
    }
    return decl;
  }

  /**
   * A path segment a sibling declared earlier has too (two sections of a site at one path: GitBook
   * takes it, urlPaths.ts refuses it at preview) is left out of `checked`, with a comment: the object
   * keeps it, and the program passes its preview. `settings` name the container by its ID.
   */
  private pathOnce(kind: Kind, name: string, settings: Record<string, unknown>, checked: { args: Record<string, unknown>; comments: string[] }): void {
    const scope = PATH_SCOPES[kind];
    const path = scope && checked.args[scope.field];
    if (typeof path !== "string") return;
    const key = `${kind}\u0000${String(settings[scope.parent.field] ?? "")}\u0000${path}`;
    const first = this.paths.get(key);
    if (first === undefined) {
      this.paths.set(key, name);
      return;
    }
    delete checked.args[scope.field];
    checked.comments.push(`${scope.field} is ${quote(path)} in GitBook, as for ${kind} ${literal(first)} in ${scope.within}, which a program refuses (two at one URL): left out, so it stays as it is.`);
  }

  leaveOut(kind: Kind, id: string, why: string): void {
    this.leftOut.set(`${kind}\u0000${id}`, why);
  }

  /** How the program names the ID of an object of `kind`: its resource's `id` output where the program declares it (earlier), else the ID. */
  ref(kind: Kind, id: string): Code | string {
    return this.adopted.get(`${kind}\u0000${id}`)?.id ?? id;
  }
}

/**
 * A kind's arguments from an object's settings (keyed like its inputs), as its fields declare
 * (FieldRule.import): in the input schema's order, every input the settings hold but engine, local and
 * display fields and those the importer never writes; a value the object has when the field is not
 * declared is left out; the ID of an object of another kind is written as `ref` says. `adoptId` last.
 * Values are data: render() writes each through `literal` (emit.ts), never as code.
 */
function argsOf(def: Resource, settings: Record<string, unknown>, ref: Ref): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(def.schema.shape as Record<string, z.ZodType>)) {
    const rule = ruleOf(schema);
    const v = settings[name];
    // A secret never reaches the program (none is an input today; this keeps it so).
    if (v === undefined || rule.engine !== undefined || rule.local || rule.display || rule.secret || rule.import === false) continue;
    if (rule.import && "omit" in rule.import && isDeepStrictEqual(v, rule.import.omit)) continue;
    // An empty authoritative list would claim the set empty (FieldRule.authoritative): left unmanaged instead.
    if (rule.authoritative && Array.isArray(v) && v.length === 0) continue;
    out[name] = rule.import?.ref !== undefined && typeof v === "string" ? ref(rule.import.ref, v) : v;
  }
  if (settings.adoptId !== undefined) out.adoptId = settings.adoptId;
  return out;
}

/**
 * The arguments the resource accepts. An optional setting it would refuse is left out (it then stays
 * as it is in GitBook); a required one is kept, with a comment, for the user to fix.
 */
function checkArgs(def: Resource, args: Record<string, unknown>): { args: Record<string, unknown>; comments: string[] } {
  const schema: z.ZodObject = def.schema;
  const out: Record<string, unknown> = {};
  const comments: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    const field = schema.shape[k] as z.ZodType | undefined;
    // A reference stands in as its text: the ID it will be is a string too.
    const problem = field && !(v instanceof Code) ? field.safeParse(asText(v)).error?.issues[0]?.message : undefined;
    if (!problem) {
      out[k] = v;
    } else if (field!.isOptional()) {
      comments.push(`${k} is ${quote(v)} in GitBook, which ${def.kind} refuses (${k} ${problem}): left out, so it stays as it is.`);
    } else {
      out[k] = v;
      comments.push(`FIXME: ${k} is ${quote(v)} in GitBook, which ${def.kind} refuses (${k} ${problem}): preview fails until it is changed.`);
    }
  }
  return { args: out, comments };
}

/** The value with each reference replaced by its text. */
function asText(v: unknown): unknown {
  if (v instanceof Code) return v.text;
  if (Array.isArray(v)) return v.map(asText);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asText(x)]));
  return v;
}

// ---- The program ---------------------------------------------------------------------------------

export function generateProgram(snapshot: OrgSnapshot, opts: GenerateOptions): Generated {
  const program = new Program(opts.previous);
  // Teams are named first: the SAML providers refer to them.
  const teams = teamDecls(program, snapshot);
  const spaces = spaceDecls(program, snapshot);
  // Sites after spaces: their sections and site spaces refer to the Space resources.
  const sites = byCreation(snapshot.sites).flatMap((site) => siteCode(program, site, opts.style));
  const saml = samlDecls(program, snapshot);
  const specs = specDecls(program, snapshot);
  const body = [
    ...spacesPart(spaces),
    ...sites,
    ...part("Teams", [...teams.values()]),
    ...part("Custom hostnames", hostnameDecls(program, snapshot)),
    ...part("Access", accessDecls(program, snapshot)),
    ...part("Single sign-on", saml),
    ...part("OpenAPI specs", specs.decls),
  ];
  const names = programFiles(opts.stack);
  const text = programText(snapshot, opts, body);
  if (opts.previous) refuseToDrop(program, snapshot, opts.previous, PreviousProgram.parse(text));
  return {
    files: {
      [names.program]: text,
      [names.project]: projectFile(snapshot, opts),
      [names.stack]: stackFile(snapshot),
      [names.npm]: programPackageJson(opts.project, opts.packageSpec),
      [names.tsconfig]: TSCONFIG_JSON,
      [names.gitignore]: "node_modules/\nbin/\n",
      ...specs.files,
    },
    notes: program.notes,
  };
}

/**
 * Fails when the earlier program declares an object this one does not, though it is still in GitBook
 * (left out: it can no longer be declared) or may be (not read, with --site): the next up would delete
 * it, or what it manages (an AccessList's grants). An object gone from GitBook may go.
 */
function refuseToDrop(program: Program, snapshot: OrgSnapshot, previous: PreviousProgram, now: PreviousProgram): void {
  const declared = new Set(now.entries().map((e) => `${e.kind}\u0000${e.id}`));
  const read = new Set(snapshot.sites.map((s) => s.id));
  // What an AccessList may grant access to, and was read with its grants (an object with none has no AccessList).
  const granted = new Set([...snapshot.sites, ...snapshot.spaces, ...snapshot.collections].map((x) => x.id));
  const previousSites = new Set(previous.entries().flatMap((e) => (e.kind === "Site" ? [e.id] : [])));
  const underRead = snapshot.sites.flatMap((s) => optional(now.name("Site", s.id))).map((n) => `${n}/`);
  const problems = previous.entries().flatMap(({ kind, id, name }) => {
    const key = `${kind}\u0000${id}`;
    if (declared.has(key)) return [];
    const why = program.leftOut.get(key);
    if (why !== undefined) return [`${kind} ${literal(name)} (${why})`];
    // A whole import reads every site: one it did not read is gone, and its AccessList with it.
    const goneSite = snapshot.scope === "organization" && previousSites.has(id);
    if (kind === "AccessList" && !granted.has(id) && !goneSite) {
      return [`${kind} ${literal(name)} (what it grants access to is not read by this import: a space or collection no site shows any more, or a site --site leaves out)`];
    }
    if (snapshot.scope !== "sites") return [];
    // Spaces and collections are declared retainOnDelete: dropped, they are only forgotten.
    if (kind === "Space" || kind === "Collection") return [];
    if (kind === "Site") return read.has(id) ? [] : [`${kind} ${literal(name)} (not among the sites asked for with --site)`];
    return underRead.some((p) => name.startsWith(p)) ? [] : [`${kind} ${literal(name)} (not read with --site)`];
  });
  if (problems.length === 0) return;
  throw new Error(
    `The program here declares what this import would not, though it is still in GitBook: ${problems.join("; ")}. ` +
      "Without it, the first `pulumi up` would delete each one in GitBook (an AccessList: the grants it lists). Nothing was written. " +
      "Forget those the stack should let go first (`pulumi state delete` of each, which leaves GitBook as it is), or import into another folder (--out)" +
      (snapshot.scope === "sites" ? ", or import without --site." : "."),
  );
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

/**
 * Each site's visitor authentication (when anything about it is set), and one AccessList per object
 * with grants, adopting them as they are. An object with a guest grant gets none: GitBook's null role
 * cannot be declared, and an AccessList would remove it.
 */
/** A site's ID as the program writes it: a site written as a DocsSite has no Site variable of its own, so its ID is written as is. */
function siteRefIn(program: Program): (id: string) => unknown {
  return (id) => (program.docsSites.has(id) ? id : program.ref("Site", id));
}

/**
 * Each site's custom hostname that GitBook shows pointing to it: a SiteCustomHostname, whose create
 * only reads it. One that cannot be declared (see SiteSnapshot.customHostname) is a note instead.
 */
function hostnameDecls(program: Program, snapshot: OrgSnapshot): Decl[] {
  const out: Decl[] = [];
  const siteRef = siteRefIn(program);
  for (const s of byCreation(snapshot.sites)) {
    const h = s.customHostname;
    if (!h) continue;
    if (h.unavailable !== undefined) {
      program.notes.push(`Site ${literal(s.title)}: its custom hostname ${h.hostname} is not imported: ${h.unavailable}.`);
      continue;
    }
    const name = program.name("SiteCustomHostname", "", slug(s.title, "site"), s.id);
    out.push(program.decl("SiteCustomHostname", name, name, { siteId: siteRef(s.id), hostname: h.hostname }));
  }
  return out;
}

function accessDecls(program: Program, snapshot: OrgSnapshot): Decl[] {
  const out: Decl[] = [];
  const siteRef = siteRefIn(program);
  for (const s of byCreation(snapshot.sites)) {
    if (!s.visitorAuth) continue;
    const name = program.name("SiteVisitorAuth", "", slug(s.title, "site"), s.id);
    out.push(program.decl("SiteVisitorAuth", name, name, { siteId: siteRef(s.id), ...s.visitorAuth }));
  }
  for (const a of snapshot.access ?? []) {
    // Nothing to declare: no list claims a set it found empty (FieldRule.authoritative).
    if (a.teams.length === 0 && a.users.length === 0) continue;
    const guests = [...a.teams.map((t) => `team ${t.teamId}`), ...a.users.map((u) => `user ${u.userId}`)].filter((_, i) => [...a.teams, ...a.users][i]!.role === null);
    if (guests.length > 0) {
      program.leaveOut("AccessList", a.id, `${a.on} ${literal(a.title)}: ${guests.join(", ")} ${guests.length === 1 ? "is a guest" : "are guests"}, which an AccessList cannot declare`);
      program.notes.push(`${a.on} ${literal(a.title)}: its access is not imported: ${guests.join(", ")} ${guests.length === 1 ? "is a guest" : "are guests"}, which an AccessList cannot declare (it would remove them).`);
      continue;
    }
    const name = program.name("AccessList", "", slug(a.title, a.on), a.id);
    const byId = <T extends { teamId?: string; userId?: string }>(list: T[]) => [...list].sort((x, y) => compareText(x.teamId ?? x.userId!, y.teamId ?? y.userId!));
    const args = {
      [`${a.on}Id`]: a.on === "site" ? siteRef(a.id) : program.ref(a.on === "space" ? "Space" : "Collection", a.id),
      teams: byId(a.teams).map((t) => ({ teamId: program.ref("Team", t.teamId), role: t.role })),
      users: byId(a.users).map((u) => ({ userId: u.userId, role: u.role })),
      adoptId: a.id,
    };
    out.push(program.decl("AccessList", name, name, args));
  }
  return out;
}

/** By team ID. */
function teamDecls(program: Program, snapshot: OrgSnapshot): Map<string, Decl> {
  const out = new Map<string, Decl>();
  for (const t of byCreation(snapshot.teams)) {
    const name = program.name("Team", "", slug(t.title, "team"), t.id);
    // The resource compares members in this order too: e-mails case-insensitively, then exactly.
    const members = [...t.members].sort((a, b) => compareText(a.user.toLowerCase(), b.user.toLowerCase()) || compareText(a.user, b.user));
    out.set(t.id, program.decl("Team", name, name, { ...t, members, adoptId: t.id }));
  }
  return out;
}

function samlDecls(program: Program, snapshot: OrgSnapshot): Decl[] {
  return byCreation(snapshot.samlProviders).map((s) => {
    const name = program.name("SamlProvider", "", slug(s.label, "saml"), s.id);
    // Copied rather than left to stack config: see the comment it gets.
    const comments = s.certificate
      ? [
          "The certificate is the identity provider's signing certificate, public by design: the IdP publishes it in",
          "its SAML metadata for anyone to verify its signatures with, and it holds no private key. Copied as it is.",
        ]
      : [];
    // defaultRole null is a value here (new SSO users join as guests), so it is written as null.
    return program.decl("SamlProvider", name, name, { ...s, defaultTeam: s.defaultTeamId, adoptId: s.id }, comments);
  });
}

/**
 * A spec uploaded as text becomes a file source: the API never gives the text back, so a text source
 * would be sent again on adoption, while a file source's hash is taken as what GitBook has.
 */
function specDecls(program: Program, snapshot: OrgSnapshot): { decls: Decl[]; files: Record<string, string> } {
  const files: Record<string, string> = {};
  const decls = byCreation(snapshot.openApiSpecs).map((s) => {
    // The name is also the document's file name: a slug, whatever the API answered, so it stays under openapi/.
    const name = program.name("OpenApiSpec", "", slug(s.slug, "spec"), s.id);
    const comments: string[] = [];
    let source: { url: string } | { file: string };
    if ("url" in s.source) {
      source = { url: s.source.url };
    } else {
      const document = s.source.text.document;
      const file = `openapi/${name}.${document?.format === "json" ? "json" : "yaml"}`;
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
        program.notes.push(`OpenAPI spec ${literal(s.slug)}: put its document at ${file} before \`pulumi up\` (${why}).`);
      }
    }
    // The OpenApiSpec resource sends the source of a spec whose processing failed again, adopted or not.
    if (processingFailed(s)) {
      comments.push(`Its last processing failed (${literal(s.lastProcessErrorCode ?? "")}): adopting it sends the source again.`);
      program.notes.push(`OpenAPI spec ${literal(s.slug)}: its last processing failed, so the first \`pulumi up\` sends its source again.`);
    }
    return program.decl("OpenApiSpec", name, name, { ...s, source, adoptId: s.id }, comments);
  });
  return { decls, files };
}

// ---- Spaces and collections ----------------------------------------------------------------------

interface SpaceDecls {
  /** Collections, each after the one holding it, then spaces. */
  decls: Decl[];
}

/** Spaces and collections hold content no program declares: letting go of one must never delete it. */
const RETAIN = new Code("{ retainOnDelete: true }");

/**
 * The spaces the sites show become Space resources, and the collections holding them Collection
 * resources, rather than IDs in a map: sections and site spaces then refer to them (`guidesSpace.id`),
 * the program says what each site is built from, and a space renamed or moved in the app shows as
 * drift. Adopting costs nothing more: the site spaces embed their whole space. Only spaces a site
 * shows: the others are content, not the structure of a site.
 */
function spaceDecls(program: Program, snapshot: OrgSnapshot): SpaceDecls {
  const held = new Map(snapshot.collections.map((c) => [c.id, c]));
  const collections = new Map<string, Decl>();
  const declare = (c: CollectionSnapshot) => {
    if (collections.has(c.id)) return;
    // The collection holding it comes first: this declaration refers to it.
    const parent = c.parent === undefined ? undefined : held.get(c.parent);
    if (parent) declare(parent);
    const name = program.name("Collection", "", slug(c.title, "collection"), c.id);
    collections.set(c.id, { ...program.decl("Collection", name, name, { ...c, adoptId: c.id }), opts: RETAIN });
  };
  byCreation(snapshot.collections).forEach(declare);
  const spaces = new Map<string, Decl>();
  for (const s of byCreation(snapshot.spaces)) {
    const name = program.name("Space", "", slug(s.title, "space"), s.id);
    // A space shows an emoji or an icon, and Space refuses both: beside an icon, the emoji is left as it is.
    const args = { ...s, emoji: s.icon === undefined ? s.emoji : undefined, adoptId: s.id };
    spaces.set(s.id, { ...program.decl("Space", name, name, args), opts: RETAIN });
  }
  return { decls: [...collections.values(), ...spaces.values()] };
}

function spacesPart(spaces: SpaceDecls): string[] {
  if (spaces.decls.length === 0) return [];
  const why = [
    "// Declared with retainOnDelete: they hold the content (pages, files, revisions) that no program declares,",
    "// so removing one from this program, or `pulumi destroy`, leaves it in GitBook. Remove the option to let",
    "// Pulumi delete it (a deleted space waits in GitBook's trash for 7 days).",
  ].join("\n");
  return [heading("Spaces the sites show, and their collections"), why, ...spaces.decls.map(declaration)];
}

function spaceTitle(ss: SiteSpaceSnapshot): string {
  return ss.space.title === undefined ? `space ${literal(ss.space.id)}` : `space ${literal(ss.space.title)}`;
}

// ---- Sites ---------------------------------------------------------------------------------------

interface SiteDecls {
  snap: SiteSnapshot;
  site: Decl;
  /** The navigation's items in the order they are declared (NAVIGATION_DECLARED, each kind in navigation order), a section with its site spaces. */
  navigation: { id: string; decl: Decl; siteSpaces: Decl[] }[];
  sections: { id: string; decl: Decl; siteSpaces: Decl[] }[];
  /** Every declared item of the navigation (section, group, link), by its ID. */
  byId: Map<string, Decl>;
  /** Every item's record, by its ID. */
  records: Map<string, ImportRecord>;
  schema?: Decl;
  /** The site's SiteCustomization, when it was customized. */
  branding?: Decl;
  shareLinks: Decl[];
  redirects?: Decl;
  /** The site's Git Sync installation: the structure is then the repository's, and no navigation is declared. */
  gitSync?: Decl;
  comments: string[];
  /** Where a DocsSite declares the share links, when the earlier program decides it (see siteCode). */
  shareLinksInside?: boolean;
}

function siteCode(program: Program, snap: SiteSnapshot, requested: Style): string[] {
  const d = siteDecls(program, snap);
  const out = [heading(`Site ${literal(snap.title)}`), ...d.comments.map(comment)];
  // A site keeps the form the earlier program gave it: a DocsSite's children have it as their parent,
  // so declared the other way its objects would get new URNs, and the first up would adopt each one
  // under its new URN and delete it under the old one.
  const before = program.previous?.siteForm(snap.id);
  const considered = before === "docs-site" || requested === "docs-site";
  if (considered) keepShareLinksWhereTheyWere(program, d);
  const problems = considered ? docsSiteProblems(d) : [];
  // The form --style gives it, and the one it gets: the earlier program's, where there was one.
  const asked: Style = requested === "docs-site" && problems.length === 0 ? "docs-site" : "resources";
  const style = before ?? asked;
  if (before === "docs-site" && problems.length) {
    throw new Error(
      `Site ${literal(snap.title)}: the program here declares it as a DocsSite, which it can no longer be (${problems.join("; ")}). ` +
        "Declared resource by resource, its objects would get new URNs, and the first `pulumi up` would adopt each one anew and delete it under its old URN. " +
        "Nothing was written: change that in the GitBook app and import again, or import into another folder (--out) and move the stack's resources over with aliases.",
    );
  }
  if (before !== undefined && before !== asked) {
    const form = before === "docs-site" ? "as a DocsSite" : "resource by resource";
    program.notes.push(`Site ${literal(snap.title)}: declared ${form}, as the program here declares it, not as --style ${requested} says: declared the other way, its objects would get new URNs, and the first \`pulumi up\` would delete them.`);
  }
  if (style === "docs-site" && problems.length === 0) {
    program.docsSites.add(snap.id);
    out.push(docsSite(d, declaredBeside(program, d, true)));
    return out;
  }
  if (problems.length) out.push(comment(`Declared resource by resource: as a DocsSite, ${problems.join("; ")}.`));
  const order = orderDecl(program, d);
  out.push(declaration(d.site), ...optional(d.schema).map(declaration));
  for (const n of d.navigation) out.push(declaration(n.decl), ...n.siteSpaces.map(declaration));
  out.push(...optional(d.gitSync).map(declaration), ...d.shareLinks.map(declaration), ...optional(order).map(declaration), ...optional(d.branding).map(declaration), ...optional(d.redirects).map(declaration));
  out.push(...declaredBeside(program, d, false).map(declaration));
  return out;
}

/**
 * A DocsSite's share links stay where the earlier program declared them: inside the component (its
 * children) or beside it. Moved, a link would get another URN, and the first up would adopt it anew and
 * delete it (its URL with it) under the old one. Beside is always possible; inside only for a
 * `share-link` site, so links inside a site that is no longer one are refused.
 */
function keepShareLinksWhereTheyWere(program: Program, d: SiteDecls): void {
  const places = d.shareLinks.flatMap((l) => optional(program.previous?.shareLinkPlace(String(l.args.adoptId))));
  if (places.includes("beside")) {
    d.shareLinksInside = false;
  } else if (places.includes("inside")) {
    if (d.site.args.visibility !== "share-link") {
      throw new Error(
        `Site ${literal(d.snap.title)}: the program here declares its share links inside its DocsSite, which takes them only for a \`share-link\` site, and it is now ${literal(String(d.site.args.visibility))}. ` +
          "Declared beside it, each link would get a new URN, and the first `pulumi up` would adopt it anew and delete it under its old URN. " +
          "Nothing was written: set the site's visibility back in the GitBook app and import again, or import into another folder (--out).",
      );
    }
    d.shareLinksInside = true;
  }
}

/**
 * The site's objects of the kinds that declare themselves (ImportSpec.declare, e.g. a site space's
 * overrides of the branding), each with its settings as they are, in the registry's order, keyed
 * within the site. Inside a DocsSite (`inComponent`) the objects the component holds have no variable:
 * the site is the component's `siteId`, any other object its ID.
 */
function declaredBeside(program: Program, d: SiteDecls, inComponent: boolean): Decl[] {
  const siteId = new Code(`${d.site.variable}.siteId`);
  const ref: Ref | undefined = inComponent ? (kind, id) => (kind === "Site" ? siteId : id) : undefined;
  return resources.flatMap((def) => {
    const declare = def.import?.declare;
    if (!declare) return [];
    return recordsOf(resources, {}, def.kind, { kind: "Site", record: d.snap }).map(({ record, parents }) => {
      const key = program.name(def.kind, d.site.name, slug(declare.key(record, parents), slug(def.noun, "object")), String(record.id));
      return program.decl(def.kind, `${d.site.name}/${key}`, key, record, [], ref);
    });
  });
}

function siteDecls(program: Program, snap: SiteSnapshot): SiteDecls {
  const siteName = program.name("Site", "", slug(snap.title, "site"), snap.id);
  const site = program.decl("Site", siteName, siteName, { ...snap, adoptId: snap.id });
  const comments: string[] = [];
  const notImported = (comment: string, note: string) => {
    comments.push(comment);
    program.notes.push(`Site ${literal(snap.title)}: ${note}`);
  };
  // Keys are handed out sections first (their paths, which they had before groups and links were
  // read), then groups and links, each by ID: where an item sits never decides its name, so a reorder
  // in the app renames nothing. Declarations follow in the order references need.
  // Each navigation kind's records, where its `import.read` put them in the site's record.
  const itemsOf = (kind: Kind) => snap[kindOf(kind).import!.read!.into] as (ImportRecord & { id: string })[];
  const records = new Map(NAVIGATION.flatMap((kind) => itemsOf(kind).map((r) => [r.id, r] as const)));
  const keys = new Map(
    NAVIGATION.flatMap((kind) => {
      const nav = navigationOf(kind);
      return byIdOrder(itemsOf(kind)).map((r) => [r.id, program.name(kind, siteName, slug(nav.name(r), nav.fallback), r.id)] as const);
    }),
  );
  const byId = new Map<string, Decl>();
  const navDecl = (kind: Kind, id: string, settings: Record<string, unknown>, comments: string[]) => {
    const k = keys.get(id)!;
    const decl = program.decl(kind, `${siteName}/${k}`, k, { ...settings, siteId: snap.id, adoptId: id }, comments);
    byId.set(id, decl);
    return decl;
  };

  const navigation: SiteDecls["navigation"] = [];
  const sections: SiteDecls["sections"] = [];
  // A site Git Sync owns: its structure is gitbook-docs.yaml's, so none of it is declared (the
  // structure kinds would refuse the site), only the installation and what the file does not cover.
  const synced = snap.gitSync as (ImportRecord & { id: string }) | undefined;
  const gitSync = synced && program.decl("GitSyncInstallation", `${siteName}/${program.name("GitSyncInstallation", siteName, "git-sync", synced.id)}`, "git-sync", { ...synced, siteId: snap.id, adoptId: synced.id });
  if (gitSync) {
    const repo = synced.repositoryId === undefined ? "no repository yet" : `repository ${String(synced.repositoryId)}${synced.branch === undefined ? "" : `, ${String(synced.branch)}`}`;
    comments.push(`Its structure (sections, site spaces, groups, links, order) is synced by Git Sync installation ${literal(synced.id)} (${synced.provider}, ${repo}) from gitbook-docs.yaml: declared as that installation, never as sections here.`);
    program.notes.push(`Site ${literal(snap.title)}: its structure is synced from its Git repository (Git Sync installation ${literal(synced.id)}): imported as a GitSyncInstallation, not as sections, site spaces, groups or links.`);
  }
  for (const kind of gitSync ? [] : NAVIGATION_DECLARED) {
    for (const item of itemsOf(kind)) {
      if (kind !== SECTION) {
        navigation.push({ id: item.id, decl: navDecl(kind, item.id, item, navigationOf(kind).comments?.(item, literal) ?? []), siteSpaces: [] });
        continue;
      }
      const s = item as SectionSnapshot;
      const [own, ...others] = ownFirst(s, program.previous);
      if (!own) {
        program.leaveOut(SECTION, s.id, `section ${literal(s.title)} shows no space, and a SiteSection is made from one`);
        notImported(`Section ${literal(s.id)} (${literal(s.title)}) shows no space, and a SiteSection is made from one: not imported.`, `section ${literal(s.title)} shows no space and was not imported.`);
        continue;
      }
      const decl = navDecl(SECTION, s.id, { ...s, spaceId: own.space.id }, sectionComments(s, own));
      // Named by ID, as the navigation is; declared in the section's order.
      const ssKeys = new Map(byIdOrder(others).map((ss) => [ss.id, program.name("SiteSpace", decl.name, slug(ss.path, "space"), ss.id)]));
      const siteSpaces = others.map((ss) => {
        const k = ssKeys.get(ss.id)!;
        return program.decl("SiteSpace", `${decl.name}/${k}`, k, { ...ss, siteId: snap.id, sectionId: s.id, spaceId: ss.space.id, adoptId: ss.id });
      });
      sections.push({ id: s.id, decl, siteSpaces });
      navigation.push({ id: s.id, decl, siteSpaces });
    }
  }
  for (const item of gitSync ? [] : snap.unknownItems) {
    notImported(
      `The navigation holds ${literal(item.id)}, a ${literal(item.object)} pulumi-gitbook has no resource for: not imported, it stays where it is.`,
      `${literal(item.object)} ${literal(item.id)} in its navigation has no resource and was not imported.`,
    );
  }
  for (const ss of gitSync ? [] : snap.rootSiteSpaces) {
    notImported(
      `Site space ${literal(ss.id)} (${spaceTitle(ss)} at ${literal(ss.path)}) sits outside any section, where no resource can hold it: not imported.`,
      `site space ${literal(ss.id)} is outside any section and was not imported.`,
    );
  }
  const shareLinks: Decl[] = [];
  for (const l of byCreation(snap.shareLinks)) {
    if (l.name === undefined) {
      program.leaveOut("ShareLink", l.id, `share link ${literal(l.id)} has no name, which a ShareLink requires`);
      notImported(`Share link ${literal(l.id)} has no name, which a ShareLink requires (adopting it with one would rename it): not imported.`, `share link ${literal(l.id)} has no name and was not imported.`);
      continue;
    }
    const k = program.name("ShareLink", siteName, slug(l.name, "link"), l.id);
    shareLinks.push(program.decl("ShareLink", `${siteName}/${k}`, k, { ...l, siteId: snap.id, adoptId: l.id }));
  }
  let schema: Decl | undefined;
  if (snap.adaptiveSchema) {
    // A schema the resource refuses would fail every preview: it is left as it is instead.
    const issue = siteAdaptiveSchema.schema.shape.jsonSchema.safeParse(snap.adaptiveSchema).error?.issues[0];
    if (issue) {
      const why = `${propertyPath(["jsonSchema", ...issue.path])} ${issue.message}`;
      program.leaveOut("SiteAdaptiveSchema", snap.id, `its visitor schema is one SiteAdaptiveSchema refuses (${why})`);
      notImported(`Its visitor schema is one SiteAdaptiveSchema refuses (${why}): not imported, so it stays as it is.`, `its visitor schema was not imported (${why}).`);
    } else {
      schema = program.decl("SiteAdaptiveSchema", `${siteName}/visitor-schema`, "visitor-schema", { siteId: snap.id, jsonSchema: snap.adaptiveSchema, adoptId: snap.id });
    }
  }
  const branding = snap.customization && brandingDecl(program, siteName, site, snap.customization, notImported);
  if (snap.customization && !branding) program.leaveOut("SiteCustomization", snap.id, "its branding holds no setting SiteCustomization can declare as it is");
  // The rules exactly as they are, adopted: the first up reads them and writes nothing (a create without
  // adoptId refuses any rule it finds, see SiteRedirects' create). None for a site without rules: an empty
  // list would claim it has none, and delete the first one made in the app (FieldRule.authoritative).
  const redirects = snap.redirects?.length
    ? program.decl("SiteRedirects", `${siteName}/${program.name("SiteRedirects", siteName, "redirects", snap.id)}`, "redirects", { siteId: site.id, rules: snap.redirects, adoptId: snap.id })
    : undefined;
  return { snap, site, navigation, sections, byId, records, schema, branding, shareLinks, ...(redirects ? { redirects } : {}), ...(gitSync ? { gitSync } : {}), comments };
}

/**
 * A customized site's SiteCustomization, declaring every setting it has as GitBook has it, so that
 * adopting it sends nothing. A setting the resource cannot declare exactly (a value it refuses, or one
 * holding fields it does not know, which a declaration would drop) is left out and stays as it is.
 */
function brandingDecl(program: Program, siteName: string, site: Decl, settings: Record<string, unknown>, notImported: (comment: string, note: string) => void): Decl | undefined {
  const shape = siteCustomization.schema.shape as Record<string, z.ZodType>;
  const args: Record<string, unknown> = { siteId: site.id };
  for (const [k, raw] of Object.entries(settings)) {
    if (k === "organizationId" || k === "siteId" || k === "adoptId" || !(k in shape)) continue;
    const parsed = shape[k]!.safeParse(raw);
    if (parsed.success && equal(declaredPart(shape[k], raw, parsed.data), parsed.data)) args[k] = parsed.data;
    else notImported(`Its branding setting ${literal(k)} is one SiteCustomization cannot declare as it is: not imported, so it stays as it is.`, `its branding setting ${literal(k)} was not imported.`);
  }
  return Object.keys(args).length > 1 ? program.decl("SiteCustomization", `${siteName}/branding`, "branding", args) : undefined;
}

/**
 * A section's site spaces, the one its SiteSection is made from first: the one the earlier import
 * declared it with, while the section still shows that space (a SiteSection's space cannot change
 * without replacing it), else the first, the one GitBook made the section with unless it was moved.
 */
function ownFirst(s: SectionSnapshot, previous: PreviousProgram | undefined): SiteSpaceSnapshot[] {
  const space = previous?.ownSpace(s.id);
  const i = space === undefined ? -1 : s.siteSpaces.findIndex((ss) => ss.space.id === space);
  return i <= 0 ? s.siteSpaces : [s.siteSpaces[i]!, ...s.siteSpaces.slice(0, i), ...s.siteSpaces.slice(i + 1)];
}

/** What a section has that SiteSection cannot declare, and so leaves as it is. */
function sectionComments(s: SectionSnapshot, own: SiteSpaceSnapshot): string[] {
  // The site space a section is made from belongs to the SiteSection, which has no input for its own
  // path or condition: they stay as they are. A condition there is worth knowing about.
  return [
    ...(own.condition
      ? [`Its site space of ${spaceTitle(own)} (the one it was made from) shows only when ${literal(own.condition)}; SiteSection has no input for that, so it stays as it is.`]
      : []),
  ];
}

/** The declared items that hold others (a group), in declaration order, with the IDs they hold in order. */
function heldBy(d: SiteDecls): { decl: Decl; record: ImportRecord; held: string[] }[] {
  return d.navigation.flatMap(({ id, decl }) => {
    const holds = navigationOf(decl.kind).docsSite.holds;
    const record = d.records.get(id)!;
    return holds === undefined ? [] : [{ decl, record, held: record[holds] as string[] }];
  });
}

/**
 * The site's navigation order as it is now, for a SiteStructureOrder: adopting it sends no sort
 * request. Undefined when the site has no declared item to order.
 */
function orderDecl(program: Program, d: SiteDecls): Decl | undefined {
  const ids = (list: readonly string[]) => list.flatMap((id) => optional(d.byId.get(id)).map((decl) => decl.id));
  const items = ids(d.snap.topLevel);
  if (items.length === 0) return undefined;
  // Each item holding others (a group), with what it holds, as its kind declares (ImportSpec.navigation.docsSite.holds).
  const groups = heldBy(d).flatMap(({ decl, held }) => {
    const inside = ids(held);
    return inside.length ? [{ groupId: decl.id, items: inside }] : [];
  });
  // A section's own site space is its SiteSection's `siteSpaceId`, an output that may be absent (a
  // SiteStructureOrder takes IDs that are there): only the further site spaces are listed, in order.
  const sections = d.sections.filter((s) => s.siteSpaces.length > 1).map((s) => ({ sectionId: s.decl.id, siteSpaces: s.siteSpaces.map((ss) => ss.id) }));
  return program.decl("SiteStructureOrder", `${d.site.name}/order`, "order", {
    siteId: d.snap.id,
    items,
    groups: groups.length ? groups : undefined,
    sections: sections.length ? sections : undefined,
  });
}

// ---- DocsSite ------------------------------------------------------------------------------------

/** Why the site cannot be one DocsSite (empty when it can), as DocsSite's own check says. */
function docsSiteProblems(d: SiteDecls): string[] {
  if (d.sections.length === 0 && !d.gitSync) return ["a site needs at least one section"];
  const nested = heldBy(d).filter(({ record }) => record.groupId !== undefined);
  if (nested.length) return nested.map(({ decl, record }) => `${kindOf(decl.kind).noun} ${literal(navigationOf(decl.kind).name(record))} is nested in another group, which a DocsSite cannot hold`);
  // References (`guidesSpace.id`) stand in as their text: two site spaces of one space then compare
  // equal, as they would at run time.
  return validateTopology(asText(topology(d))).map((p) => p.message);
}

/**
 * The site as a DocsSite topology: its navigation in order (groups holding their sections and links),
 * share links when the component takes them (a `share-link` site), the visitor schema, adoptIds.
 */
function topology(d: SiteDecls): Record<string, unknown> {
  const sectionsById = new Map(d.sections.map((s) => [s.id, s]));
  // An entry as its kind declares it (ImportSpec.navigation.docsSite): its type, then what it holds, in order.
  const entry = (id: string): Record<string, unknown>[] => {
    const decl = d.byId.get(id);
    if (!decl) return [];
    const { type, holds } = navigationOf(decl.kind).docsSite;
    const inside = holds === undefined ? {} : { sections: (d.records.get(id)![holds] as string[]).flatMap(entry) };
    const siteSpaces = (sectionsById.get(id)?.siteSpaces ?? []).map((ss) => ({ key: ss.key, ...withoutRefs(ss) }));
    return [{ ...(type === undefined ? {} : { type }), key: decl.key, ...withoutRefs(decl), ...inside, ...(siteSpaces.length ? { siteSpaces } : {}) }];
  };
  const t: Record<string, unknown> = { site: withoutRefs(d.site), sections: d.snap.topLevel.flatMap(entry) };
  if (shareLinksInside(d) && d.shareLinks.length) t.shareLinks = d.shareLinks.map((l) => ({ key: l.key, ...withoutRefs(l) }));
  if (d.schema) Object.assign(t, { visitorSchema: d.schema.args.jsonSchema, visitorSchemaAdoptId: d.schema.args.adoptId });
  if (d.redirects) Object.assign(t, { redirects: d.redirects.args.rules, redirectsAdoptId: d.redirects.args.adoptId });
  if (d.gitSync) t.gitSync = withoutRefs(d.gitSync);
  return t;
}

/** The component takes share links of a `share-link` site only; others are declared beside it. */
const shareLinksInside = (d: SiteDecls) => d.shareLinksInside ?? d.site.args.visibility === "share-link";

/**
 * The arguments a DocsSite child does not take: those naming its site or the navigation item it sits
 * in (a section, a group), which the component supplies.
 */
function withoutRefs(decl: Decl): Record<string, unknown> {
  const shape = kindOf(decl.kind).schema.shape as Record<string, z.ZodType>;
  const supplied = (ref: Kind | undefined) => ref === "Site" || (ref !== undefined && NAVIGATION.includes(ref));
  return Object.fromEntries(Object.entries(decl.args).filter(([k]) => !supplied(refOf(shape[k]))));
}

function docsSite(d: SiteDecls, extra: Decl[]): string {
  const t = topology(d);
  const children: [string, Decl][] = [
    ...d.navigation.flatMap((n) => [n.decl, ...n.siteSpaces].map((x) => [n.decl.key, x] as [string, Decl])),
    ...(shareLinksInside(d) ? d.shareLinks.map((l) => [l.key, l] as [string, Decl]) : []),
  ];
  const lines = [
    ...d.site.comments.map(comment),
    ...children.flatMap(([key, decl]) => decl.comments.map((c) => comment(`${key}: ${c}`))),
    `const ${d.site.variable} = new gitbook.DocsSite(${literal(d.site.name)}, ${render(t, "", true)});`,
  ];
  // Share links of a site that is not `share-link` stay beside it, on the component's site.
  const siteId = new Code(`${d.site.variable}.siteId`);
  const beside = [...(shareLinksInside(d) ? [] : d.shareLinks), ...optional(d.branding)].map((l) => ({ ...l, args: { ...l.args, siteId } }));
  return [lines.join("\n"), ...beside.map(declaration), ...extra.map(declaration)].join("\n\n");
}

// ---- Files ---------------------------------------------------------------------------------------

function programText(snapshot: OrgSnapshot, opts: GenerateOptions, body: string[]): string {
  const scope =
    snapshot.scope === "sites"
      ? [
          "Only the sites asked for (--site), with their navigation in order (sections, site spaces, section groups,",
          "external links), visitor schemas and share links, and the spaces they show and their collections;",
          "teams, single sign-on and OpenAPI specs were left out.",
        ]
      : [
          "Sites with their navigation in order (sections, site spaces, section groups, external links), visitor",
          "schemas and share links; the spaces they show and their collections; teams; single sign-on; OpenAPI specs.",
        ];
  const head = [
    comment(`Generated by \`pulumi-gitbook import\` from the GitBook organization ${literal(snapshot.organizationId)}.`),
    ...scope.map(comment),
    "//",
    "// Each object is declared with every setting it has now, and adopted through its `adoptId`. The first",
    "// `pulumi preview` shows every one as a create (`+ N to create`), since an adoption reads its object only",
    "// at `up`; that first `pulumi up` reads each object and, each being declared as it is, writes nothing.",
    "// From then on this program is the source of truth (adoptId no longer matters once an object is in the",
    "// stack's state). To let go of an object without deleting it in GitBook, give it",
    "// `{ retainOnDelete: true }` and run `pulumi up` (which changes nothing in GitBook) before removing its",
    "// declaration or running `pulumi destroy`.",
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
  parts.push(...body);
  return `${parts.join("\n\n")}\n`;
}

function projectFile(snapshot: OrgSnapshot, opts: GenerateOptions): string {
  return [
    `# Written by \`pulumi-gitbook import\`: the GitBook organization ${yamlString(snapshot.organizationId)} as a Pulumi program (index.ts).`,
    `name: ${opts.project}`,
    "runtime: nodejs",
    `description: ${yamlString(`The GitBook organization ${snapshot.organizationId}, imported with pulumi-gitbook.`)}`,
    "",
  ].join("\n");
}

function stackFile(snapshot: OrgSnapshot): string {
  return [
    "# The stack's settings. The API token is not written here: give it with",
    "#   pulumi config set --secret gitbook:token <token>",
    "# or in the GITBOOK_TOKEN environment variable.",
    "config:",
    `  gitbook:organizationId: ${yamlString(snapshot.organizationId)}`,
    ...(snapshot.apiUrl ? [`  gitbook:apiUrl: ${yamlString(snapshot.apiUrl)}`] : []),
    "",
  ].join("\n");
}

// ---- Rendering -----------------------------------------------------------------------------------

function declaration(d: Decl): string {
  const args = [literal(d.name), render(d.args, "", true), ...optional(d.opts).map((o) => o.text)];
  return [...d.comments.map(comment), `const ${d.variable} = new gitbook.${d.kind}(${args.join(", ")});`].join("\n");
}

const WIDTH = 100;

/**
 * A value as TypeScript: every string, number and key through `literal`, references (identifiers the
 * generator made) as written, short objects and lists on one line.
 */
function render(v: unknown, indent: string, multiline = false): string {
  if (v instanceof Code) return v.text;
  if (v === null || typeof v !== "object") return literal(v as string | number | boolean | null);
  const inner = `${indent}  `;
  const items = Array.isArray(v)
    ? v.map((x) => render(x, inner))
    : Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => `${propertyName(k)}: ${render(x, inner)}`);
  const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
  if (items.length === 0) return `${open}${close}`;
  const one = Array.isArray(v) ? `[${items.join(", ")}]` : `{ ${items.join(", ")} }`;
  if (!multiline && !one.includes("\n") && indent.length + one.length <= WIDTH) return one;
  return `${open}\n${items.map((i) => `${inner}${i},`).join("\n")}\n${indent}${close}`;
}

/**
 * An object key as written: an identifier as is, anything else as a literal. `__proto__`, in either
 * form, would set the object's prototype rather than make a key: it is written computed.
 */
function propertyName(k: string): string {
  if (k === "__proto__") return `[${literal(k)}]`;
  return /^[A-Za-z_$][\w$]*$/.test(k) ? k : literal(k);
}

/** A value quoted in a comment: one line, exactly as the program would write it. */
function quote(v: unknown): string {
  return render(v, "").replace(/\n\s*/g, " ");
}

function heading(title: string): string {
  return comment(`---- ${title} `).padEnd(WIDTH, "-");
}

// ---- Order ---------------------------------------------------------------------------------------

/** Oldest first, then by ID: the order names are handed out in, so an older object keeps its name. */
function byCreation<T extends { id: string; createdAt?: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => compareText(a.createdAt ?? "", b.createdAt ?? "") || compareText(a.id, b.id));
}

/** By ID: the order names are handed out in where objects have no creation time. */
function byIdOrder<T extends { id: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => compareText(a.id, b.id));
}

/** Code-unit order, the same on every machine (localeCompare is not). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** None or one. */
function optional<T>(x: T | undefined): T[] {
  return x === undefined ? [] : [x];
}
