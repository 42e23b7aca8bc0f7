/**
 * What plans show beside IDs, so that a reviewer reads names, not only opaque IDs: written once here
 * for every kind. A field declared as another object's ID (fields.ts `id()`) is a reference; the
 * resource class, in the program's process, finds the resource behind each reference the program
 * passes as a resource's `id` output, and records its title (or the program's name for it) in one
 * display field, `names` (FieldRule `display`: never compared, never sent, kept by refresh). Check
 * turns each recorded entry into its text, `Guides (space_…)`, or `Guides (new)` while the ID is not
 * known. A literal ID, or a value computed from one, has no resource behind it: the plan shows the ID
 * alone, in the field itself.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isUnknown } from "./check";
import { field, isReference, ruleOf } from "./fields";
import type { Props } from "./resource";

/** The display field that names a kind's references. */
export const NAMES = "names";

/**
 * A named value as the class records it: the ID (unknown at preview until created) and its path, the
 * containers' and its own title, each with the program's name for its resource, shown when the title
 * is not known.
 */
export const shownEntry = z.object({
  id: z.string().describe("The object's ID."),
  path: z
    .array(
      z.object({
        title: z.string().nullish().describe("The container's or the object's title, when known."),
        name: z.string().describe("The program's name for its resource, shown while the title is not known."),
      }),
    )
    .describe("The titles from the outermost container down to the object."),
});
export type ShownEntry = z.output<typeof shownEntry>;

/** The resources an input value was computed from (an Output carries them; a plain value none). */
export function resourcesOf(v: unknown): object[] {
  if (!pulumi.Output.isInstance(v)) return [];
  const rs = (v as unknown as { resources?: () => Set<object> }).resources?.();
  return rs instanceof Set ? [...rs] : [];
}

/**
 * The one resource of `kind` an input was computed from (`site.id`, or a value computed from it alone),
 * told by its class's name (the kind's, see resourceClass); undefined when there is none or several.
 */
export function resourceOf(v: unknown, kind: string): object | undefined {
  const of = resourcesOf(v).filter((r) => (r as { constructor?: { name?: string } }).constructor?.name === kind);
  return of.length === 1 ? of[0] : undefined;
}

/** What names a value in plans: a title, and the program's name to show while the title is not known. */
export interface Naming {
  title?: pulumi.Output<string | undefined>;
  name: pulumi.Input<string>;
}

const namings = new WeakMap<object, Naming>();

/**
 * Names, for plans, a value that is no resource's `id` output (a SiteSection's `siteSpaceId`, which a
 * DocsSite lists among the section's site spaces) by the naming given: e.g. the space it shows.
 */
export function nameAs<T>(v: pulumi.Output<T>, naming: Naming): pulumi.Output<T> {
  namings.set(v, naming);
  return v;
}

/**
 * What names a value, when it is a resource's `id` output (or was named with nameAs): the resource's title, and its name in the
 * program. Two Outputs, not one: a title not known yet (at preview, one the program does not declare)
 * must leave the name known.
 */
export function nameOf(v: unknown): Naming | undefined {
  const named = pulumi.Output.isInstance(v) ? namings.get(v) : undefined;
  if (named) return named;
  const [r, ...more] = resourcesOf(v) as pulumi.Resource[];
  if (!r || more.length > 0 || (r as pulumi.CustomResource).id !== v) return undefined;
  const { title, __name: given } = r as unknown as Record<string, unknown>;
  // The SDK keeps the name on the resource (as placement.ts reads `resources()`, an SDK internal);
  // the URN, should that ever go, says it too, at the cost of an Output per entry.
  const name = typeof given === "string" ? given : r.urn.apply((urn) => urn.split("::").pop()!);
  return { ...(pulumi.Output.isInstance(title) ? { title: title as pulumi.Output<string | undefined> } : {}), name };
}

/**
 * How plans show an entry: `Guides / v1 (sitesp_…)`, `(new)` standing for an ID not known yet, the
 * program's name for a title not known yet; an entry without a resource, its ID alone.
 */
export function entryText(e: string | ShownEntry): string {
  if (typeof e === "string") return e;
  const id = isUnknown(e.id) ? "new" : e.id;
  if (e.path.length === 0) return isUnknown(e.id) ? "(new)" : e.id;
  return `${e.path.map((p) => (typeof p.title !== "string" || isUnknown(p.title) ? p.name : p.title)).join(" / ")} (${id})`;
}

/**
 * The fields of an input shape that `names` covers: references (declared with `id()`, alone or in a
 * list) that steer GitBook, not this provider (an engine field such as adoptId is no reference to
 * show), and that no display field of the kind shows already (FieldRule `shownBy`).
 */
export function referenceFields(shape: Record<string, z.ZodType>): string[] {
  return Object.entries(shape)
    .filter(([, s]) => {
      const r = ruleOf(s);
      return isReference(s) && r.engine === undefined && r.display === undefined && r.shownBy === undefined;
    })
    .map(([n]) => n);
}

/**
 * The `names` input of a kind with references (defineResource adds it, as it adds adoptId). The class
 * records entries; check turns each into the text plans show, so state holds only text.
 */
export function namesField(refs: readonly string[]) {
  const listed = refs.map((f) => `\`${f}\``).join(", ");
  return (
    z
      .preprocess(namesAsText, z.record(z.string(), z.union([z.string(), z.array(z.string())]).describe("Under the reference's field name: its title and ID as the plan shows them (one per ID for a list of IDs).")))
      .optional()
      // What a plan shows must never fail one: a value it cannot read is dropped, not refused.
      .catch(undefined)
      .describe(
        `Filled in by the class; shown in plans only, so that a reviewer reads names beside IDs: for each of ${listed} the program passes as a resource's \`id\` output, that resource's title and the ID, e.g. \`Guides (space_…)\`, or \`Guides (new)\` while the object is not created yet; the resource's name in the program while its title is not known. ` +
          "A literal ID, or a value computed from one, is not named here (the plan shows the ID alone). Never compared or sent, and it costs no request: a title changed anywhere changes nothing by itself, and refresh keeps what was recorded.",
      )
      .register(field, { display: true })
  );
}

/** The entry the class records for a value: a resource's `id` output, else undefined. */
function entryOf(v: unknown): { id: unknown; path: unknown[] } | undefined {
  const own = nameOf(v);
  return own && { id: v, path: [own] };
}

/**
 * In the program's process: `names` for the references among `args`, or nothing when none is a
 * resource's `id` output (so a program of literal IDs registers no extra property).
 */
export function shownNames(refs: readonly string[], args: Props): Props {
  if (args[NAMES] !== undefined) return {};
  const names: Props = {};
  for (const f of refs) {
    const v = args[f];
    if (Array.isArray(v)) {
      const entries = v.map((e) => entryOf(e) ?? e);
      if (entries.some((e, i) => e !== v[i])) names[f] = entries;
    } else {
      const e = entryOf(v);
      if (e) names[f] = e;
    }
  }
  return Object.keys(names).length > 0 ? { [NAMES]: names } : {};
}

/**
 * At check: the references (`defaultTeam`, `sections[1]`) the program gave a resource's output that
 * arrived without a value, because that resource was not created in this run (`up --continue-on-error`
 * goes on to its dependents). The engine sends such a value as nothing: left out of the inputs, null in
 * a list, just as it does the entry's `id`. The entry, recorded by the class, is what tells it from a
 * field the program leaves out.
 */
export function unresolvedReferences(news: Props): string[] {
  const names = news[NAMES];
  if (!names || typeof names !== "object" || Array.isArray(names)) return [];
  const unresolved = (e: unknown, v: unknown) => v == null && !!e && typeof e === "object" && (e as Props).id == null && Array.isArray((e as Props).path);
  return Object.entries(names).flatMap(([f, e]) => {
    if (!Array.isArray(e)) return unresolved(e, news[f]) ? [f] : [];
    const given = news[f];
    return e.flatMap((x, i) => (unresolved(x, Array.isArray(given) ? given[i] : undefined) ? [`${f}[${i}]`] : []));
  });
}

/** At check: each entry of `names` as the plan shows it (what is not an entry is left for the schema to judge). */
export function namesAsText(names: unknown): unknown {
  if (!names || typeof names !== "object" || Array.isArray(names)) return names;
  const text = (e: unknown) => {
    const entry = shownEntry.safeParse(e);
    return entry.success ? entryText(entry.data) : e;
  };
  return Object.fromEntries(Object.entries(names).map(([f, v]) => [f, Array.isArray(v) ? v.map(text) : text(v)]));
}
