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
import { isReference, ruleOf } from "./fields";
import { nearestName } from "./nearest";
import { NAME_KEY } from "./resource";

/** The engine's placeholder for a value not known until apply. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Why an absent ID failed check (see checkInputs). */
export const REQUIRED_ID = "is required (another object's ID: when the program passes a resource's `id` output, that resource was not created in this run; see its error)";

/** Why a reference the program gave another resource's output failed check when that output had no value (see checkInputs). */
export const NO_VALUE = "has no value: the program gives it another resource's output, and that resource was not created in this run (see its error)";

export interface CheckFailure {
  property: string;
  reason: string;
}

export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN;
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
 * (transforms applied) or the failures. `__provider` is carried by the host. `kind` names the resource
 * in the message about a property it does not have.
 *
 * A property the schema does not know, at any depth, fails, naming the nearest known one: zod would drop
 * it, and a misspelt `icnon` (passed through `as any`, or from JSON config) would leave the plan silent
 * and the icon unset.
 *
 * `unresolved` are the references (shown.ts unresolvedReferences) the program gave another resource's
 * output that has no value: each fails once, with NO_VALUE, required or not. An optional one would
 * otherwise pass as absent, and the object be made without the team or section the program names.
 *
 * When the only problems are values not known yet, the inputs are normalized field by field: each
 * field that validates on its own is normalized as usual, and a field holding an unknown is passed
 * as given (the diff then sees that field, and only that field, as possibly changed).
 */
export function checkInputs<S extends z.ZodType>(
  schema: S,
  news: Record<string, unknown>,
  config: { organizationId?: string },
  kind = "this resource",
  unresolved: readonly string[] = [],
): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const given: Record<string, unknown> = { ...news };
  delete given.__provider;
  if (given.organizationId === undefined) {
    if (config.organizationId) given.organizationId = config.organizationId;
  }
  const unknown = [...strays(schema, given, kind), ...unresolved.map((property) => ({ property, reason: `${property} ${NO_VALUE}` }))];
  const result = schema.safeParse(given);
  if (result.success) return unknown.length ? { inputs: given, failures: unknown } : { inputs: result.data as Record<string, unknown>, failures: [] };
  // Named beside the other failures: a misspelt required field fails as missing too.
  const failures: CheckFailure[] = [...unknown];
  for (const issue of result.error.issues) {
    if (valueAt(given, issue.path).some(isUnknown)) continue;
    const property = propertyPath(issue.path) || "(inputs)";
    if (unresolved.includes(property)) continue;
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

/**
 * The properties of `given`, at any depth, that the schema does not have, where it would drop them (an
 * object that is neither strict, which zod refuses on its own, nor loose): all but the resource's name,
 * which the class registers beside the inputs. Read against the schema, not the parse's output, so they
 * are named whether or not the rest parses.
 */
function strays(schema: z.ZodType, given: Record<string, unknown>, kind: string): CheckFailure[] {
  const out: CheckFailure[] = [];
  const walk = (schemas: z.ZodType[], v: unknown, path: PropertyKey[]) => {
    if (Array.isArray(v)) {
      const element = schemas.flatMap(elementsOf);
      if (element.length) v.forEach((x, i) => walk(element, x, [...path, i]));
      return;
    }
    const objects = schemas.flatMap(objectsOf);
    if (!isPlainObject(v) || objects.length === 0 || objects.some((o) => o.def.catchall !== undefined)) return;
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined || (path.length === 0 && k === NAME_KEY)) continue;
      const fields = objects.flatMap((o) => optionalArray((o.shape as Record<string, z.ZodType>)[k]));
      if (fields.length === 0) out.push(stray(objects, [...path, k], kind));
      // What plans only show is filled in by the class, and never fails a check (see shown.ts).
      else if (!fields.some((f) => ruleOf(f).display)) walk(fields, x, [...path, k]);
    }
  };
  walk([schema], given, []);
  return out;
}

/** A property `objects` (the object schema, or every form of a union) do not have: named, with the nearest they have. */
function stray(objects: z.ZodObject[], path: PropertyKey[], kind: string): CheckFailure {
  const property = propertyPath(path);
  // Fields only plans show are not offered.
  const known = [...new Set(objects.flatMap((o) => Object.entries(o.shape as Record<string, z.ZodType>).filter(([, f]) => ruleOf(f).display !== true).map(([n]) => n)))];
  const near = nearestName(String(path.at(-1)), known);
  const where = path.length === 1 ? `an input of ${kind}` : `a field of ${propertyPath(path.slice(0, -1))}`;
  const hint = near ? ` (did you mean ${near}?)` : ` (it takes ${known.join(", ")})`;
  return { property, reason: `${property} is not ${where}${hint}: correct its name or remove it. Nothing is sent for a property the resource does not have, so as written it would change nothing.` };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The object schemas a value must match (every form of a union's); none where it is no object. */
function objectsOf(s: z.ZodType): z.ZodObject[] {
  const x = inner(s);
  if (x instanceof z.ZodObject) return [x];
  return x instanceof z.ZodUnion ? (x.options as z.ZodType[]).flatMap(objectsOf) : [];
}

/** The schema of a list's elements; none where it is no list. */
function elementsOf(s: z.ZodType): z.ZodType[] {
  const x = inner(s);
  return x instanceof z.ZodArray ? [x.element as z.ZodType] : [];
}

/** The schema through what keeps a value's shape: optional, nullable, a default, a catch, a preprocess, a lazy reference. */
function inner(s: z.ZodType): z.ZodType {
  if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodCatch || s instanceof z.ZodLazy) return inner(s.unwrap() as z.ZodType);
  return s instanceof z.ZodPipe ? inner(s.out as z.ZodType) : s;
}

function optionalArray<T>(x: T | undefined): T[] {
  return x === undefined ? [] : [x];
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
