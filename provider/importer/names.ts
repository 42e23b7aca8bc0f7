/**
 * Names in the generated program: Pulumi resource names (`acme-docs/guides`) and TypeScript variable
 * names (`acmeDocsGuides`), both derived from titles, paths and slugs so a reader recognises the
 * object, and both unique.
 *
 * Stability: a name depends only on the object's own title (or path) and on the objects that would
 * get the same name and come before it in the order the generator hands them over (sites, teams and
 * the like by creation time, then ID; sections and site spaces in the site's order). Importing the
 * same organization twice therefore gives the same names, and a new object never renames an older
 * one that shares its title: the newcomer gets the `-2`.
 */

/** Longest name part kept; DocsSite keys allow 64 characters. */
const MAX_PART = 64;

/**
 * A name part from free text: lower-case ASCII letters, digits and hyphens, starting with a letter or
 * digit (a DocsSite key). `fallback` when nothing is left (a title of only emoji or punctuation).
 */
export function slug(text: string, fallback: string): string {
  const s = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_PART)
    .replace(/-+$/g, "");
  return s || fallback;
}

/** Hands out unique names: the first request for a base gets it as is, later ones `-2`, `-3`, ... */
export class Namer {
  private readonly taken = new Set<string>();

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
    return name;
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
