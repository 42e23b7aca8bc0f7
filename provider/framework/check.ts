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
import { currentConfig } from "../config";

/** The engine's placeholder for a value not known until apply. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface CheckFailure {
  property: string;
  reason: string;
}

export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN;
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
  return text({ max })
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === "https:" || u.protocol === "http:";
      } catch {
        return false;
      }
    }, "must be an absolute http(s) URL");
}

/** The organization every resource lives in; `gitbook:organizationId` supplies a default. */
export const organizationIdField = z
  .string()
  .min(1, "must not be empty")
  .describe(
    "ID of the GitBook organization. Defaults to the `gitbook:organizationId` stack config (or GITBOOK_ORGANIZATION_ID). Changing it replaces the resource.",
  );

export const adoptIdField = z
  .string()
  .min(1, "must not be empty")
  .optional()
  .describe(
    "ID of an existing object to bring under management instead of creating a new one (dynamic providers cannot use `pulumi import`). Used only when the resource is not yet in state: the object is read, and only the inputs the program declares are updated. Once the resource is in state the field is ignored, so a change to it does nothing and a replacement creates a new object.",
  );

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

function propertyPath(path: PropertyKey[]): string {
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
): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const given: Record<string, unknown> = { ...news };
  delete given.__provider;
  if (given.organizationId === undefined) {
    const org = currentConfig().organizationId;
    if (org) given.organizationId = org;
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
      reason = "is required";
    }
    failures.push({ property, reason: `${property} ${reason}` });
  }
  return { inputs: failures.length ? given : fieldByField(schema, given), failures };
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
