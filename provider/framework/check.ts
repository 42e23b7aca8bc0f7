/**
 * The one check helper: validates inputs with a resource's zod schema before anything is sent, and
 * reports each failure against its property with a message naming the limit. Values the engine does
 * not know yet (preview) are skipped rather than failed.
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
    "ID of an existing object to bring under management instead of creating a new one (dynamic providers cannot use `pulumi import`). On create the object is read and updated to the declared inputs; later changes to this field are ignored.",
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
 * (defaults applied, unknown keys dropped) or the failures. `__provider` is carried by the host.
 */
export function checkInputs<S extends z.ZodType>(
  schema: S,
  news: Record<string, unknown>,
  opts: { organizationScoped?: boolean } = { organizationScoped: true },
): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const given: Record<string, unknown> = { ...news };
  delete given.__provider;
  if (opts.organizationScoped !== false && given.organizationId === undefined) {
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
  return { inputs: given, failures };
}
