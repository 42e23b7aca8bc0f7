/**
 * Settings objects a program declares in part: GitBook keeps one big object of settings (a site's
 * customization), and a program declares only some of them, nested as deep as it likes. The resource
 * manages what is declared and nothing else: reads compare the declared settings alone, a write sends
 * the declared settings over what GitBook has, and removing a setting from the program leaves it as it
 * is (or, for overrides, clears the override).
 *
 * What "a setting" is comes from the schema: an object declared with `settingsGroup` is a group, whose
 * fields are settings of their own (a program declaring `styling.primaryColor` leaves `styling.theme`
 * alone). Anything else is one value, read and written whole: a colour's `{ light, dark }`, a list of
 * header links, a map of localized titles, a favicon that is an icon or an emoji.
 */
import equal from "fast-deep-equal";
import { z } from "zod";
import type { Props } from "./resource";

/** The groups of settings: objects whose fields are managed one by one. */
const groups = z.registry<{ group: true }>();

/** An object of settings, each optional: a program declares the ones it manages. */
export function settingsGroup<S extends z.ZodRawShape>(shape: S, description: string) {
  // Registered last: describe() makes a new schema, and the registry knows schemas by identity.
  return z.object(shape).partial().describe(description).register(groups, { group: true });
}

function isPlain(v: unknown): v is Props {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The fields of a group (through `.optional()`), or undefined for a value. */
function groupFields(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
  return s && groups.has(s) && s instanceof z.ZodObject ? (s.shape as Record<string, z.ZodType>) : undefined;
}

/**
 * The live settings as far as `declared` declares them, for refresh to compare: in a group, the
 * declared fields only (a field GitBook does not have is left out, so the diff shows it as drift);
 * anything else, the live value whole.
 */
export function declaredPart(schema: z.ZodType | undefined, live: unknown, declared: unknown): unknown {
  const fields = groupFields(schema);
  if (!fields || !isPlain(declared)) return live;
  const from = isPlain(live) ? live : {};
  const out: Props = {};
  for (const [k, v] of Object.entries(declared)) {
    if (v === undefined) continue;
    const part = declaredPart(fields[k], from[k], v);
    if (part !== undefined) out[k] = part;
  }
  return out;
}

/** `current` with the `declared` settings put in: what a whole-object write sends, every undeclared setting as GitBook has it. */
export function mergeDeclared(schema: z.ZodType | undefined, current: unknown, declared: unknown): unknown {
  const fields = groupFields(schema);
  if (!fields || !isPlain(declared)) return declared;
  const out: Props = isPlain(current) ? { ...current } : {};
  for (const [k, v] of Object.entries(declared)) if (v !== undefined) out[k] = mergeDeclared(fields[k], out[k], v);
  return out;
}

/**
 * The PATCH taking overrides from `olds` to `news` (both as declared): the settings that changed,
 * and null for each setting no longer declared (which clears that override); undefined when nothing
 * changed. A group is descended into, so a PATCH names only the settings that changed in it.
 */
export function overridesPatch(schema: z.ZodType | undefined, olds: unknown, news: unknown): unknown {
  const fields = groupFields(schema);
  if (fields && (isPlain(olds) || olds === undefined) && (isPlain(news) || news === undefined)) {
    const out: Props = {};
    const o = olds ?? {};
    const n = news ?? {};
    for (const k of new Set([...Object.keys(o), ...Object.keys(n)])) {
      const part = overridesPatch(fields[k], o[k], n[k]);
      if (part !== undefined) out[k] = part;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  if (news === undefined) return olds === undefined ? undefined : null;
  return equal(news, olds) ? undefined : news;
}

/**
 * `shown` (what an object with overrides shows, as far as it is declared) without the settings it
 * shows as `base` (what the overrides are over) does: such a value may be inherited rather than an
 * override, so it counts as not set, and a write that must make it an override sends it.
 */
export function withoutInherited(schema: z.ZodType | undefined, shown: unknown, base: unknown): unknown {
  const fields = groupFields(schema);
  if (fields && isPlain(shown)) {
    const from = isPlain(base) ? base : {};
    const out: Props = {};
    for (const [k, v] of Object.entries(shown)) {
      const part = withoutInherited(fields[k], v, from[k]);
      if (part !== undefined) out[k] = part;
    }
    return out;
  }
  return equal(shown, base) ? undefined : shown;
}

/** The settings of `schema` that `props` declares (a resource's inputs or outputs hold other fields too). */
export function declaredSettings(schema: z.ZodObject, props: Props): Props {
  return Object.fromEntries(Object.keys(schema.shape).filter((k) => props[k] !== undefined).map((k) => [k, props[k]]));
}

/** A settings kind's `live`: each setting of `schema` as GitBook has it, as far as `props` declares it. */
export function liveSettings(schema: z.ZodObject, obj: Props, props: Props): Props {
  const shape = schema.shape as Record<string, z.ZodType>;
  return Object.fromEntries(Object.keys(shape).map((k) => [k, declaredPart(shape[k], obj[k], props[k])]));
}
