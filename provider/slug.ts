/**
 * The slug of a title: lower-case ASCII letters, digits and single hyphens, accents folded, at most
 * `max` characters, no hyphen at either end; "" when nothing is left (a title of only emoji or
 * punctuation). One rule for the emulator (the slugs it gives new objects, as GitBook does) and the
 * importer (the names it gives what it reads), so a name the importer derives from a title is the
 * slug the emulator would give it.
 */
export function slugOf(text: string, max: number): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/g, "");
}
