/**
 * The building blocks of a resource's input schema: field constructors with limits that name
 * themselves in error messages, the fields every resource shares, and the registry in which a field
 * declares how it behaves across updates (`.register(field, {...})`). A resource's zod schema is thus
 * the single source of its input type, its documentation and its diff and PATCH rules.
 */
import { z } from "zod";

/** How an input field behaves when the program changes or removes it. */
export interface FieldRule {
  /**
   * What a change does. `update` (the default): sent in the resource's PATCH under its own name.
   * `replace`: the API cannot change it in place, so the object is replaced. `custom`: changed in
   * place by the resource's own update code (e.g. a team's members, a section's `default`).
   */
  change?: "update" | "replace" | "custom";
  /**
   * What removing it from the program does. `keep` (the default): nothing is sent and the object
   * keeps its current value. `clear`: the PATCH sends null. `{ reset }`: the PATCH sends that value
   * (the API's default).
   */
  remove?: "keep" | "clear" | { reset: unknown };
  /**
   * The output always holds the object's live value, and the input is managed only while declared:
   * absent means "leave it as it is" (on adoption, and after removal), never "reset it".
   */
  live?: true;
  /** null is a value of its own (e.g. "guests"), compared, sent and recorded as such, never read as "unset". */
  nullIsValue?: true;
  /** Outputs only: the value is a secret (encrypted in state, masked in previews). */
  secret?: true;
  /**
   * Provider-local: a setting of this provider, not of the GitBook object. Never sent to GitBook and
   * never read from it (so never drift); recorded in state like any input, and a change to it alone is
   * an update that sends no request, so that a later call reading the old outputs (a delete) sees it.
   */
  local?: true;
  /**
   * Filled in by the program process from what the program declares of other resources (see
   * ResourceSpec.fromProgram), never set by the program: never sent to GitBook nor read from it, but
   * compared, so that a change there is an update of this resource, after theirs (a share link's
   * `address`, when its Site's basename changes).
   */
  fromProgram?: true;
  /**
   * Shown in plans only, so that a reviewer reads names beside IDs: never compared (a change to it
   * alone is no change, so a rename elsewhere never makes the resource flap), never sent to GitBook;
   * recorded in state, and kept by refresh as the resource's `live` rewrites it.
   */
  display?: true;
  /**
   * A reference (a field declared with `id()`) that a display field of the kind names already (a
   * SiteStructureOrder's lists, in its `navigation`): the generic `names` leaves it out (see shown.ts).
   */
  shownBy?: string;
  /**
   * Steers this provider, not the object: never compared, sent to GitBook or read from it.
   * `recorded`: refresh keeps the value state recorded (adoptId). `run`: it means something only to the
   * run that declares it, and refresh does not keep it (allowReplacement).
   */
  engine?: "recorded" | "run";
  /** The field's name in GitBook's request bodies, where it is not the input's (a link's `groupId` is sent as `parent`). */
  wire?: string;
  /**
   * How a create sends a declared value: `post`, in the creating request's body (postBody); `patch`,
   * in the one PATCH that follows it (patchAfterCreate), because the POST cannot carry it. Unset: the
   * framework does not send it at creation (a path parameter, or a field the kind's create sends itself).
   */
  create?: "post" | "patch";
  /**
   * How `pulumi-gitbook import` writes the field (importer/generate.ts writes every input the
   * object has except engine, local and display fields). `false`: never (the stack's config supplies
   * it). `ref`: the ID of an object of that kind, written as its resource's `id` output where the
   * program declares that object, else as the ID. `omit`: a value left out, being what the object has
   * when the field is not declared.
   */
  import?: false | { ref?: string; omit?: unknown };
  /**
   * A list that is the whole set of its entries (an object's grants, a team's members, a site's redirect
   * rules, a group's sections): an entry not listed is removed at the next `up`, including one added in
   * the app. So `pulumi-gitbook import` writes it only when it found entries: an empty one would declare
   * the set empty, and take away what a teammate adds next; left out, the set is not managed.
   */
  authoritative?: true;
}

/** Where fields declare their FieldRule: `z.string().describe("…").register(field, { change: "replace" })`. */
export const field = z.registry<FieldRule>();

/** The rule of a schema field (looking through `.optional()`), or the default rule. */
export function ruleOf(schema: z.ZodType): FieldRule {
  const own = field.get(schema);
  if (own) return own;
  if (schema instanceof z.ZodOptional) return ruleOf(schema.unwrap() as z.ZodType);
  return {};
}

/** A string with a length window and an optional pattern, failing with a message naming both. */
export function text(opts: { min?: number; max: number; pattern?: RegExp; patternHint?: string }) {
  const { min = 0, max } = opts;
  const window = min > 0 ? `${min} to ${max} characters` : `at most ${max} characters`;
  let s = z.string({ error: "must be a string" }).min(min, `must be ${window} (got fewer)`).max(max, `must be ${window} (got more)`);
  if (opts.pattern) s = s.regex(opts.pattern, `must match ${opts.patternHint ?? opts.pattern.source}`);
  return s;
}

/** An absolute http(s) URL up to `max` characters. */
export function httpUrl(max: number) {
  return text({ max }).refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "https:" || u.protocol === "http:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL");
}

/** The spec's `format: uri` where it gives no length limit: a scheme, then what the URL parser accepts. */
export function uri() {
  return z.string({ error: "must be a string" }).refine((v) => {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(v) || /\s/.test(v)) return false;
    return URL.canParse(v);
  }, "must be an absolute URI (e.g. https://login.example.com/gitbook)");
}

/** An opaque, non-empty ID. */
function opaqueId() {
  return z.string({ error: "must be a string" }).min(1, "must not be empty");
}

/**
 * Where `id()` marks a field as naming another object, so that plans name it (framework/shown.ts). A
 * registry, not the FieldRule: zod hands a registry's entry down to the copies `.describe()` makes, so
 * the mark survives whatever rule the field registers.
 */
const references = z.registry<{ reference: true }>();

/** The ID of another GitBook object (opaque, non-empty): a reference, which plans name beside the ID. */
export function id() {
  return opaqueId().register(references, { reference: true });
}

/** Whether a field holds the ID of another object, or a list of them (looking through `.optional()` and the like). */
export function isReference(schema: z.ZodType): boolean {
  if (references.get(schema)) return true;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault || schema instanceof z.ZodCatch) {
    return isReference(schema.unwrap() as z.ZodType);
  }
  return schema instanceof z.ZodArray && isReference(schema.element as z.ZodType);
}

/** The organization every resource lives in; `gitbook:organizationId` supplies a default. */
// No reference: no resource of a program is an organization.
export const organizationIdField = opaqueId()
  .describe(
    "ID of the GitBook organization. Defaults to the `gitbook:organizationId` stack config (or GITBOOK_ORGANIZATION_ID). Changing it replaces the resource.",
  )
  .register(field, { change: "replace", import: false });

/**
 * The opt-in a content-bearing resource (a Space, a Collection) needs before any plan replaces it: a
 * replacement deletes the object, and what it holds goes with it, so a diff that would replace one
 * fails (see engine.diff) unless the program says, here, that it means it.
 */
export const allowReplacementField = z
  .boolean({ error: "must be a boolean" })
  .optional()
  .describe(
    "Allow a plan to replace this object. A change that GitBook cannot make in place (only `organizationId`) replaces the object, which deletes it with what it holds; without this field such a plan fails at preview, naming the object and the field, and nothing is sent. Set it to `true` only for the run that is meant to replace it. Never compared or sent: adding or removing it changes nothing by itself.",
  )
  .register(field, { engine: "run" });

const ADOPT_ID_DESCRIPTION =
  "ID of an existing object to bring under management instead of creating a new one (dynamic providers cannot use `pulumi import`). Used only when the resource is not yet in state: the object is read, and only the inputs the program declares are updated. Once the resource is in state the field is ignored, so a change to it does nothing; but a change that replaces the resource fails at preview while adoptId is still set (in a replacement it would name the object being replaced): remove it, and the replacement creates a new object.";

/**
 * `adoptId`, which defineResource adds to every kind that declares `adoptable` (engine.create adopts
 * with it): `description` is the kind's own wording, where adopting means more than the default says.
 */
export function adoptIdField(description = ADOPT_ID_DESCRIPTION) {
  return opaqueId().optional().describe(description).register(field, { engine: "recorded" });
}

/**
 * `forceDestroy`, for a kind whose delete GitBook carries out on other objects too (see
 * framework/cascade.ts). `takesAlong` says what GitBook deletes with it, e.g. "every site space in it".
 */
export function forceDestroyField(noun: string, takesAlong: string) {
  return z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      `When true, the ${noun} is deleted even when it still holds objects this stack does not delete first, and GitBook deletes with it ${takesAlong}. ` +
        `Without it (the default), deleting the ${noun} (removing it from the program, a replacement, or \`pulumi destroy\`) first reads what it holds and, when anything is there (objects made in the app or by another stack, or resources of this program that name it by a fixed ID rather than its \`id\` output), fails before deleting anything, listing each by kind, title and ID. ` +
        `The delete reads this setting from state, so set it with a \`pulumi up\` before the run that deletes. Resources of this program taken along this way stay in state until \`pulumi refresh\`. ` +
        "Never sent to GitBook: changing it sends no request.",
    )
    .register(field, { local: true });
}

/** `draft`, for an item of a site's navigation (a section, a group, a link): GitBook's POST takes it, and removing it makes the item live. */
export function draftField(noun: string) {
  return z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(`Whether the ${noun} is a draft, hidden from the published site. A ${noun} created without it is live; removing it makes the ${noun} live.`)
    .register(field, { remove: { reset: false }, create: "post", import: { omit: false } });
}

/**
 * A trigger: any non-empty text whose change asks for a one-off action (a new key, a DNS check), done by
 * the kind's update. Never a setting of the object, so never sent as one nor read from GitBook;
 * `description` says what it triggers. Whether a run fires it is `triggerFired`.
 */
export function triggerField(description: string) {
  return z.string({ error: "must be a string" }).min(1, "must not be empty").optional().describe(description).register(field, { change: "custom" });
}

/** Whether an update fires the trigger `name`: a new value (added or changed), never a removal, and never at creation (which has no olds). */
export function triggerFired(name: string, olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  return news[name] !== undefined && news[name] !== olds[name];
}

/**
 * How GitBook answers with a field the program declares: the input's JSON type without its limits
 * (an answer is never refused for a rule of ours, an enum GitBook widens included), absent or null
 * when unset. Types GitBook may answer in another shape than the input's (a union, a record) are
 * taken as they come: a kind that reads such a field states its wire form itself (see wireShape).
 */
export type WireOf<S> =
  S extends z.ZodOptional<infer I>
    ? WireOf<I>
    : S extends z.ZodNullable<infer I>
      ? WireOf<I>
      : S extends z.ZodDefault<infer I>
        ? WireOf<I>
        : S extends z.ZodString | z.ZodEnum
          ? z.ZodString
          : S extends z.ZodBoolean
            ? z.ZodBoolean
            : S extends z.ZodNumber
              ? z.ZodNumber
              : S extends z.ZodArray<infer E>
                ? z.ZodArray<WireOf<E>>
                : S extends z.ZodObject<infer Sh>
                  ? z.ZodObject<WireShape<Sh>, z.core.$loose>
                  : z.ZodUnknown;

/** Each field of a shape as GitBook answers with it (WireOf), optional and nullable. */
export type WireShape<Sh> = { -readonly [K in keyof Sh]: z.ZodOptional<z.ZodNullable<WireOf<Sh[K]>>> };

function wireOf(s: z.ZodType): z.ZodType {
  if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) return wireOf(s.unwrap() as z.ZodType);
  if (s instanceof z.ZodDefault) return wireOf(s.removeDefault() as z.ZodType);
  if (s instanceof z.ZodString || s instanceof z.ZodEnum) return z.string();
  if (s instanceof z.ZodBoolean) return z.boolean();
  if (s instanceof z.ZodNumber) return z.number();
  if (s instanceof z.ZodArray) return z.array(wireOf(s.element as z.ZodType));
  if (s instanceof z.ZodObject) return z.looseObject(wireShape(s));
  return z.unknown();
}

/**
 * The part of a kind's API object (client/schemas.ts apiObject) that its input schema already states:
 * every input, under its own name, as GitBook answers with it (WireOf). So a field is declared once,
 * in the kind's inputs, and the answer's check follows it. A kind states beside it (after it, so that
 * it wins) what GitBook answers in another shape or always (`path: z.string()`), and what it reads
 * that is no input (`section`, `space`). An input GitBook never sends (a path parameter, a local
 * setting) is simply absent from every answer.
 */
export function wireShape<Sh extends z.core.$ZodLooseShape>(inputs: z.ZodObject<Sh>): WireShape<Sh> {
  return Object.fromEntries(Object.entries(inputs.shape).map(([k, s]) => [k, wireOf(s as z.ZodType).nullable().optional()])) as WireShape<Sh>;
}

/** The spec's `TranslationLanguage`. */
export const TRANSLATION_LANGUAGES = [
  "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no",
  "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
] as const;

/** The spec's LocalizedString<max>: text by TranslationLanguage (a section's or a site's title in other languages). */
export const localized = (max: number, what: string) =>
  z
    .partialRecord(z.enum(TRANSLATION_LANGUAGES, { error: `must be one of ${TRANSLATION_LANGUAGES.map((l) => JSON.stringify(l)).join(", ")}` }), text({ max }).describe(`The ${what} in that language, at most ${max} characters.`))
    .describe(`The ${what} by language code (\`fr\`, \`de\`, \`pt-br\`...: GitBook's TranslationLanguage), each at most ${max} characters. Compared and written whole.`);
