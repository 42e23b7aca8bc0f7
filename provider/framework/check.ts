/**
 * The one check helper: validates inputs with a resource's zod schema before anything is sent, and
 * reports each failure against its property with a message naming the limit. Values the engine does
 * not know yet (preview) are skipped rather than failed, and the other fields are still normalized,
 * so an unknown value never makes the inputs look different in some other field.
 *
 * Schemas carry no defaults: an input the program leaves out is absent from the checked inputs, so
 * adoption and updates never touch it (what GitBook does on creation is the resource's business).
 */
import { z } from "zod";
import { isReference } from "./fields";

/** The engine's placeholder for a value not known until apply. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Why an absent ID failed check (see checkInputs). */
export const REQUIRED_ID = "is required (another object's ID: when the program passes a resource's `id` output, that resource was not created in this run; see its error)";

export interface CheckFailure {
  property: string;
  reason: string;
}

export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN;
}

/**
 * A ResourceSpec.prepare for a kind whose object has no ID of its own, only its parent's (`field`, e.g.
 * a site's redirect rules): `adoptId` must be that parent's ID. Another one would be read as the object
 * adopted, and the resource would record that parent's ID beside its own `field`, while it writes
 * through `field`: state would describe an object the declared parent does not have.
 */
export function adoptIdIsParent(field: string, noun: string, why: string): (given: Record<string, unknown>) => { inputs: Record<string, unknown> } | { failures: { property: string; reason: string }[] } {
  return (given) => {
    const adoptId = given.adoptId;
    const parent = given[field];
    if (typeof adoptId === "string" && typeof parent === "string" && !isUnknown(adoptId) && !isUnknown(parent) && adoptId !== parent) {
      return { failures: [{ property: "adoptId", reason: `adoptId must be the ${noun}'s ID, ${JSON.stringify(parent)} (${why}), not ${JSON.stringify(adoptId)}` }] };
    }
    return { inputs: given };
  };
}

function valueAt(obj: unknown, path: PropertyKey[]): unknown[] {
  // Every value along the path, so an unknown parent (a whole list not known yet) also counts.
  const seen: unknown[] = [obj];
  let cur = obj;
  for (const k of path) {
    if (cur === null || typeof cur !== "object") break;
    cur = (cur as Record<PropertyKey, unknown>)[k];
    seen.push(cur);
  }
  return seen;
}

/** How a failure names a property: `groups[0].items[1]`. */
export function propertyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, k) => (typeof k === "number" ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), "");
}

/**
 * Validates `news`, filling `organizationId` from config when absent. Returns the normalized inputs
 * (transforms applied, unknown keys dropped) or the failures. `__provider` is carried by the host.
 *
 * When the only problems are values not known yet, the inputs are normalized field by field: each
 * field that validates on its own is normalized as usual, and a field holding an unknown is passed
 * as given (the diff then sees that field, and only that field, as possibly changed).
 */
export function checkInputs<S extends z.ZodType>(
  schema: S,
  news: Record<string, unknown>,
  config: { organizationId?: string },
): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const given: Record<string, unknown> = { ...news };
  delete given.__provider;
  if (given.organizationId === undefined) {
    if (config.organizationId) given.organizationId = config.organizationId;
  }
  const result = schema.safeParse(given);
  if (result.success) return { inputs: result.data as Record<string, unknown>, failures: [] };
  const failures: CheckFailure[] = [];
  for (const issue of result.error.issues) {
    if (valueAt(given, issue.path).some(isUnknown)) continue;
    const property = propertyPath(issue.path) || "(inputs)";
    let reason = issue.message;
    if (property === "organizationId" && given.organizationId === undefined) {
      reason = "is required: set it on the resource or with `pulumi config set gitbook:organizationId <id>`";
    } else if (issue.code === "invalid_type" && valueAt(given, issue.path).at(-1) === undefined) {
      // An ID the program gave as another resource's output arrives absent when that resource's create
      // failed earlier in the run (`up --continue-on-error` goes on to its dependents): say so, since
      // "required" alone sends the reader to a field the program does set.
      reason = referenceAt(schema, issue.path) ? REQUIRED_ID : "is required";
    }
    failures.push({ property, reason: `${property} ${reason}` });
  }
  return { inputs: failures.length ? given : fieldByField(schema, given), failures };
}

/** Whether the top-level field at `path` holds another object's ID. */
function referenceAt(schema: z.ZodType, path: readonly PropertyKey[]): boolean {
  const field = path.length === 1 && schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>)[String(path[0])] : undefined;
  return field !== undefined && isReference(field);
}

function fieldByField(schema: z.ZodType, given: Record<string, unknown>): Record<string, unknown> {
  if (!(schema instanceof z.ZodObject)) return given;
  const shape = schema.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = {};
  for (const [k, field] of Object.entries(shape)) {
    if (!(k in given)) continue;
    const r = field.safeParse(given[k]);
    const v = r.success ? r.data : given[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
