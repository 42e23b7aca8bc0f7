/**
 * Names in the generated program: Pulumi resource names (`acme-docs/guides`) and TypeScript variable
 * names (`acmeDocsGuides`), both derived from titles, paths and slugs so a reader recognises the
 * object, and both unique.
 *
 * Stability: a name depends only on the object's own title (or path) and on the objects that would
 * get the same name and come before it in the order the generator hands them over: sites, teams and
 * the like by creation time, then ID; the items of a site's navigation and a section's site spaces by
 * ID, never by where they sit, so a reorder in the app renames nothing. Importing the same
 * organization twice therefore gives the same names, and a new site, space or team never renames an
 * older one that shares its title: the newcomer gets the `-2` (a navigation item has no creation
 * time: the lower ID gets the plain name). Re-importing into an earlier import's program
 * (PreviousProgram) keeps every name it gave, whatever changed since, newcomers included.
 */
import type { z } from "zod";
import { isReference } from "../framework/fields";
import { resources } from "../resources";
import { slugOf } from "../slug";

/** Longest name part kept; DocsSite keys allow 64 characters. */
const MAX_PART = 64;

/**
 * A name part from free text: lower-case ASCII letters, digits and hyphens, starting with a letter or
 * digit (a DocsSite key). `fallback` when nothing is left (a title of only emoji or punctuation).
 */
export function slug(text: string, fallback: string): string {
  return slugOf(text, MAX_PART) || fallback;
}

/**
 * Hands out unique names: the first request for a base gets it as is, later ones `-2`, `-3`, ...
 * Reserved names (those of an earlier import) go only to their own object, through `claim`.
 */
export class Namer {
  private readonly taken = new Set<string>();
  private readonly handedOut = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const r of reserved) this.taken.add(r);
  }

  take(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name); n++) {
      const suffix = `-${n}`;
      name = base.slice(0, MAX_PART - suffix.length) + suffix;
    }
    this.taken.add(name);
    this.handedOut.add(name);
    return name;
  }

  /** Hands out exactly `name` (reserved or not), unless it was handed out already. */
  claim(name: string): boolean {
    if (this.handedOut.has(name)) return false;
    this.taken.add(name);
    this.handedOut.add(name);
    return true;
  }
}

/** Words a variable may not be called, and the names the generated program itself uses. */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await arguments eval undefined NaN Infinity gitbook pulumi spaces " +
    // A CommonJS module's own names: TypeScript refuses a top-level declaration of them.
    "require module exports __dirname __filename"
  ).split(" "),
);

/** Hands out unique TypeScript identifiers: `acme-docs/guides` becomes `acmeDocsGuides`. */
export class Identifiers {
  private readonly taken = new Set<string>(RESERVED);

  take(name: string): string {
    const words = name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean);
    // An all-capitals word reads as a word: "API reference" becomes apiReference, not aPIReference.
    const word = (w: string) => (w === w.toUpperCase() ? w.charAt(0) + w.slice(1).toLowerCase() : w);
    let base = words.map((w, i) => (i === 0 ? word(w).charAt(0).toLowerCase() + word(w).slice(1) : word(w).charAt(0).toUpperCase() + word(w).slice(1))).join("");
    if (!base) base = "resource";
    if (/^[0-9]/.test(base)) base = `_${base}`;
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}${n}`;
    this.taken.add(id);
    return id;
  }
}

// ---- Names of a program imported before ------------------------------------------------------------

/**
 * What a program written by an earlier import calls each object, so a re-import into it (`--force`
 * over its index.ts) keeps every name, and so every resource of the stack, whatever moved in the app
 * since. Keyed by kind and adoptId (a site and its visitor schema share the site's ID).
 */
export class PreviousProgram {
  private readonly names = new Map<string, string>();
  private readonly ownSpaces = new Map<string, string>();
  private readonly forms = new Map<string, "docs-site" | "resources">();
  private readonly shareLinks = new Map<string, "inside" | "beside">();
  /** The organization the earlier import read, as its first line says. */
  organizationId?: string;

  /** The Pulumi name the earlier program gave the object of `kind` adopted by `id`. */
  name(kind: string, id: string): string | undefined {
    return this.names.get(`${kind}\u0000${id}`);
  }

  /** The space ID a SiteSection was declared with (`spaceId`), by the section's ID. */
  ownSpace(sectionId: string): string | undefined {
    return this.ownSpaces.get(sectionId);
  }

  /** How the earlier program declared the site `id`: as a DocsSite, or resource by resource (a Site). */
  siteForm(id: string): "docs-site" | "resources" | undefined {
    return this.forms.get(id);
  }

  /** Where the earlier program declared the share link `id`: inside a DocsSite (its child), or beside it, on its own. */
  shareLinkPlace(id: string): "inside" | "beside" | undefined {
    return this.shareLinks.get(id);
  }

  /** Every object the program declares: its kind, the ID it is known by, and its name. */
  entries(): { kind: string; id: string; name: string }[] {
    return [...this.names].map(([k, name]) => ({ kind: k.slice(0, k.indexOf("\u0000")), id: k.slice(k.indexOf("\u0000") + 1), name }));
  }

  /** The names of the objects of these kinds, to keep them from objects the earlier program did not have. */
  namesOf(kinds: readonly string[]): string[] {
    return [...this.names].filter(([k]) => kinds.includes(k.slice(0, k.indexOf("\u0000")))).map(([, name]) => name);
  }

  /**
   * Reads the declarations of a generated index.ts (`const x = new gitbook.Kind("name", {...})`):
   * every adoptId with its name, and each section's space. A statement it cannot read (the user's own
   * code) is skipped: its objects get fresh names. Reads only; nothing in the file is run.
   */
  static parse(text: string): PreviousProgram {
    const out = new PreviousProgram();
    // The header generateProgram writes: `// Generated by ... from the GitBook organization "<id>".`
    const header = /^\/\/ Generated by `pulumi-gitbook import` from the GitBook organization ("(?:[^"\\]|\\.)*")\.$/m.exec(text);
    const org = header ? decode(header[1]!) : undefined;
    if (org !== undefined) out.organizationId = org;
    const tokens = tokenize(text);
    const decls = new Map<string, { kind: string; name: string; args: { [k: string]: Value } }>();
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens.slice(i, i + 8).map((x) => x.text);
      if (!(t[0] === "const" && t[2] === "=" && t[3] === "new" && t[4] === "gitbook" && t[5] === "." && t[7] === "(")) continue;
      try {
        const p = new Parser(tokens, i + 8);
        const name = p.value();
        p.expect(",");
        const args = p.value();
        if (typeof name === "string" && isObject(args)) decls.set(tokens[i + 1]!.text, { kind: tokens[i + 6]!.text, name, args });
      } catch {
        // Not a declaration this import wrote: skipped.
      }
    }
    const spaceOf = (v: Value | undefined): string | undefined => {
      if (typeof v === "string") return v;
      const ref = v instanceof Ref ? /^([A-Za-z_$][\w$]*)\.id$/.exec(v.text) : null;
      const target = ref ? decls.get(ref[1]!) : undefined;
      return target?.kind === "Space" && typeof target.args.adoptId === "string" ? target.args.adoptId : undefined;
    };
    const add = (kind: string, id: Value | undefined, name: string) => {
      if (typeof id === "string") out.names.set(`${kind}\u0000${id}`, name);
    };
    // An ID as a declaration writes it: as is, or a reference to a declaration adopting it
    // (`guides.id`, or `docs.siteId` for a DocsSite's site).
    const idOf = (v: Value | undefined): string | undefined => {
      if (typeof v === "string") return v;
      const ref = v instanceof Ref ? /^([A-Za-z_$][\w$]*)\.(id|siteId)$/.exec(v.text) : null;
      const target = ref ? decls.get(ref[1]!) : undefined;
      if (!target) return undefined;
      const adopts = target.kind === "DocsSite" ? (isObject(target.args.site) ? target.args.site.adoptId : undefined) : target.args.adoptId;
      return ref![2] === (target.kind === "DocsSite" ? "siteId" : "id") && typeof adopts === "string" ? adopts : undefined;
    };
    // A kind with no adoptId (a custom hostname, a site's visitor authentication, a site space's
    // overrides) adopts what belongs to the objects it refers to, and the generator names it by them
    // (a site's ID, a site space's): each such ID names the one declaration of the kind that refers to
    // it. An ID two of them refer to (the site of two site spaces' overrides) names neither.
    const byRef = new Map<string, string | null>();
    for (const d of decls.values()) {
      const shape = KIND_SHAPES.get(d.kind);
      if (!shape || typeof d.args.adoptId === "string") continue;
      for (const [field, v] of Object.entries(d.args)) {
        const id = shape[field] && isReference(shape[field]) ? idOf(v) : undefined;
        if (id === undefined) continue;
        const k = `${d.kind}\u0000${id}`;
        byRef.set(k, byRef.has(k) && byRef.get(k) !== d.name ? null : d.name);
      }
    }
    for (const [k, name] of byRef) if (name !== null) out.names.set(k, name);
    for (const d of decls.values()) {
      if (d.kind !== "DocsSite") {
        add(d.kind, d.args.adoptId, d.name);
        if (d.kind === "Site" && typeof d.args.adoptId === "string") out.forms.set(d.args.adoptId, "resources");
        if (d.kind === "ShareLink" && typeof d.args.adoptId === "string") out.shareLinks.set(d.args.adoptId, "beside");
        if (d.kind === "SiteSection" && typeof d.args.adoptId === "string") setIf(out.ownSpaces, d.args.adoptId, spaceOf(d.args.spaceId));
        continue;
      }
      // A DocsSite names its children `<name>/<key>`, a section's site spaces `<name>/<section key>/<key>`.
      if (isObject(d.args.site)) add("Site", d.args.site.adoptId, d.name);
      if (isObject(d.args.site) && typeof d.args.site.adoptId === "string") out.forms.set(d.args.site.adoptId, "docs-site");
      const entries = (list: Value | undefined) => (Array.isArray(list) ? list.filter(isObject) : []);
      const walk = (list: Value | undefined) => {
        for (const e of entries(list)) {
          if (typeof e.key !== "string") continue;
          const name = `${d.name}/${e.key}`;
          if (e.type === "group") {
            add("SiteSectionGroup", e.adoptId, name);
            walk(e.sections);
          } else if (e.type === "link") {
            add("SiteExternalLink", e.adoptId, name);
          } else {
            add("SiteSection", e.adoptId, name);
            if (typeof e.adoptId === "string") setIf(out.ownSpaces, e.adoptId, spaceOf(e.spaceId));
            for (const ss of entries(e.siteSpaces)) if (typeof ss.key === "string") add("SiteSpace", ss.adoptId, `${name}/${ss.key}`);
          }
        }
      };
      walk(d.args.sections);
      // The component names these two `<name>/visitor-schema` and `<name>/redirects`, each adopted by the site's ID.
      add("SiteAdaptiveSchema", d.args.visitorSchemaAdoptId, `${d.name}/visitor-schema`);
      add("SiteRedirects", d.args.redirectsAdoptId, `${d.name}/redirects`);
      for (const l of entries(d.args.shareLinks)) {
        if (typeof l.key === "string") add("ShareLink", l.adoptId, `${d.name}/${l.key}`);
        if (typeof l.adoptId === "string") out.shareLinks.set(l.adoptId, "inside");
      }
    }
    return out;
  }
}

/** Each kind's input fields, to tell which of a declaration's arguments name another object. */
const KIND_SHAPES = new Map(resources.map((r) => [r.kind, r.schema.shape as Record<string, z.ZodType>]));

function setIf(map: Map<string, string>, key: string, value: string | undefined): void {
  if (value !== undefined) map.set(key, value);
}

/** A reference (`guidesSpace.id`) in a parsed program. */
class Ref {
  constructor(readonly text: string) {}
}

/** A value the user wrote as an expression this reader does not evaluate (`\`Docs ${stage}\``, `a ?? b`). */
class Opaque {}
const OPAQUE = new Opaque();

type Value = string | number | boolean | null | Ref | Opaque | Value[] | { [k: string]: Value };

const isObject = (v: Value | undefined): v is { [k: string]: Value } =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Ref) && !(v instanceof Opaque);

interface Token {
  text: string;
  /** The decoded value of a string literal. */
  string?: string;
}

/** Tokens of the TypeScript subset an import writes; comments skipped, strings decoded. */
function tokenize(text: string): Token[] {
  const out: Token[] = [];
  // A template literal is one token (its `${}` holding no braces), so what it holds is never read as code.
  const re = /\s+|\/\/[^\n\r\u2028\u2029]*|\/\*[\s\S]*?(?:\*\/|$)|"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*'|`(?:[^`\\$]|\\[\s\S]|\$(?!\{)|\$\{[^{}`]*\})*`|[A-Za-z_$][\w$]*|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[\s\S]/gy;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const t = m[0];
    if (/^\s/.test(t) || t.startsWith("//") || t.startsWith("/*")) continue;
    if (t.startsWith('"')) out.push({ text: t, string: decode(t) });
    else if (t.startsWith("'")) out.push({ text: t, string: decode(`"${t.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) });
    else out.push({ text: t });
  }
  return out;
}

function decode(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

/**
 * Literals, objects, lists and references (`a.b`); anything else throws. Inside an object or a list, a
 * value the user made an expression is skipped as Opaque, so the rest of the declaration (its adoptId)
 * is still read.
 */
class Parser {
  constructor(
    private readonly tokens: Token[],
    private i: number,
  ) {}

  private next(): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new Error("end of program");
    return t;
  }

  private peek(): string | undefined {
    return this.tokens[this.i]?.text;
  }

  expect(text: string): void {
    if (this.next().text !== text) throw new Error(`expected ${text}`);
  }

  value(): Value {
    const t = this.next();
    if (t.string !== undefined) return t.string;
    if (t.text === "{") return this.object();
    if (t.text === "[") return this.list();
    if (t.text === "true" || t.text === "false") return t.text === "true";
    if (t.text === "null") return null;
    if (/^-?\d/.test(t.text)) return Number(t.text);
    if (/^[A-Za-z_$]/.test(t.text)) {
      let text = t.text;
      while (this.peek() === ".") {
        this.next();
        text += `.${this.next().text}`;
      }
      return new Ref(text);
    }
    throw new Error(`unexpected ${t.text}`);
  }

  private object(): { [k: string]: Value } {
    // Null prototype: a key `__proto__` is a key like any other.
    const out: { [k: string]: Value } = Object.create(null);
    while (this.peek() !== "}") {
      const k = this.next();
      let key: string | undefined;
      if (k.text === "[") {
        key = this.next().string;
        this.expect("]");
      } else {
        key = k.string ?? (/^[A-Za-z_$]/.test(k.text) ? k.text : undefined);
      }
      if (key === undefined) throw new Error("unexpected key");
      this.expect(":");
      out[key] = this.member("}");
      if (this.peek() === ",") this.next();
      else if (this.peek() !== "}") throw new Error("expected , or }");
    }
    this.next();
    return out;
  }

  /** A value of an object or a list: as value() reads it, or Opaque when an expression, skipped up to its `,` or `close`. */
  private member(close: string): Value {
    const start = this.i;
    try {
      const v = this.value();
      if (this.peek() === "," || this.peek() === close) return v;
    } catch {
      // Not a value this reader knows: skipped below.
    }
    this.i = start;
    for (let depth = 0; ; ) {
      const t = this.peek();
      if (t === undefined) throw new Error("end of program");
      if (depth === 0 && (t === "," || t === close)) return OPAQUE;
      if (t === "(" || t === "[" || t === "{") depth++;
      else if (t === ")" || t === "]" || t === "}") {
        if (depth === 0) throw new Error(`unexpected ${t}`);
        depth--;
      }
      this.i++;
    }
  }

  private list(): Value[] {
    const out: Value[] = [];
    while (this.peek() !== "]") {
      out.push(this.member("]"));
      if (this.peek() === ",") this.next();
      else if (this.peek() !== "]") throw new Error("expected , or ]");
    }
    this.next();
    return out;
  }
}
