// What a user does to a running emulator outside GitBook's API: edit an object "in the app",
// delete one, export the whole state and import it again. Served under /__emulator/ (never a GitBook
// path: the contract check, faults and the request log leave these routes alone) and used by the
// `pulumi-gitbook emulator edit|delete|export|import` commands.
//
//   GET  /__emulator/state               the whole state (EmulatorState JSON)
//   PUT  /__emulator/state               replaces the whole state with an exported one
//   POST /__emulator/edit                {kind, id, set: {field: value}}: the record as it now is
//   POST /__emulator/delete              {kind, id}: deletes with what goes with it, as the app does
//
// Same bearer token as the API. Errors are GitBook's {"error": {code, message}}.
import { z } from "zod";

import { fail } from "./http";
import { parseOrProblems, type Seeded } from "./seed";
import { TABLES, type Base, type Store, type StoreSnapshot, type TableName } from "./store";

export const ADMIN_PREFIX = "/__emulator/";

/** Everything an emulator holds, as JSON: what `export` writes and `import` reads. */
export interface EmulatorState {
  format: typeof STATE_FORMAT;
  seeded: Seeded;
  store: StoreSnapshot;
}

export const STATE_FORMAT = "pulumi-gitbook-emulator-state/1";

const record = z.looseObject({ id: z.string().min(1), seq: z.number().int(), createdAt: z.string() });
const stateSchema = z.strictObject({
  format: z.literal(STATE_FORMAT),
  seeded: z.strictObject({
    organizationId: z.string(),
    spaceIds: z.array(z.string()),
    members: z.array(z.strictObject({ id: z.string(), email: z.string(), displayName: z.string() })),
    ids: z.record(z.string(), z.string()),
  }),
  store: z.strictObject({
    seq: z.number().int().nonnegative(),
    prng: z.number().int().nonnegative(),
    openApiProcessingReads: z.number().int().nonnegative().nullable(),
    positions: z.record(z.string(), z.number()),
    tables: z.strictObject(Object.fromEntries(TABLES.map((t) => [t, z.array(record)])) as Record<TableName, z.ZodArray<typeof record>>),
  }),
});

/** Checks an exported state before anything is replaced; the error names the path into it. */
export function checkState(raw: unknown): EmulatorState {
  const r = parseOrProblems(stateSchema, raw);
  if ("problems" in r) fail(400, `not an exported emulator state: ${r.problems[0]}${r.problems.length > 1 ? ` (and ${r.problems.length - 1} more)` : ""}`);
  return r.data as EmulatorState;
}

// ---------------------------------------------------------------- edits in the app

type RecordOf<K extends TableName> = Store[K] extends Map<string, infer R> ? R : never;
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** The fields a record may lack (which an edit may therefore add, and `null` removes). Type-checked against store.ts. */
const OPTIONAL: { [K in TableName]: readonly OptionalKeys<RecordOf<K>>[] } = {
  orgs: ["type", "publishNeedsCheckout", "gitProviders"],
  members: [],
  spaces: ["icon", "parentId", "language", "editMode", "defaultLevel", "deletedAt", "pages"],
  collections: ["parentId"],
  sites: ["hostname", "proxy", "defaultSectionId", "defaultSiteSpaceId"],
  sections: ["description", "condition", "icon", "defaultSiteSpaceId"],
  sectionGroups: ["icon", "parentId"],
  siteSpaces: ["sectionId", "condition"],
  externalLinks: ["description", "icon", "groupId", "condition"],
  shareLinks: [],
  siteRedirects: ["updatedAt"],
  adaptiveSchemas: [],
  siteCustomizations: [],
  siteSpaceCustomizations: [],
  teams: [],
  teamMembers: [],
  samlProviders: ["entityID", "certificate", "ssoURL", "defaultTeamId"],
  openApiSpecs: ["frozen", "lastVersionId", "lastProcessedAt", "lastProcessErrorCode", "lastProcessedErrors"],
  openApiVersions: ["text"],
  permissions: [],
  publishingAuths: ["fallbackURL", "logoutURL", "integration"],
  customHostnames: ["status"],
  gitRepositories: [],
  gitInstallations: ["repositoryId", "branch", "projectDirectory", "commitMessageTemplate", "previewExternalBranches", "priority"],
};

/** The table a kind names: its name in the store (`sites`) or the singular (`site`), any case. */
export function tableOf(kind: string): TableName {
  const k = kind.toLowerCase();
  const name = TABLES.find((t) => t.toLowerCase() === k || t.toLowerCase() === `${k}s`);
  return name ?? fail(400, `kind: unknown kind "${kind}" (one of ${TABLES.map((t) => t.replace(/s$/, "")).join(", ")})`);
}

function find(store: Store, kind: string, id: string): { table: TableName; rec: Base } {
  const table = tableOf(kind);
  const rec = store.table(table).get(id);
  return rec ? { table, rec } : fail(404, `${table.replace(/s$/, "")} "${id}" not found`);
}

/**
 * The value an edit sets. Values come from a command line as text, so text is read as the field's
 * type: JSON for a field holding a boolean, number, object or array (`published=true`), the text
 * itself for a text field. `null` removes a field the record may lack, and sets null elsewhere.
 */
function valueFor(field: string, current: unknown, value: unknown): unknown {
  if (value === "null" || value === null) return null;
  const fits = (v: unknown) => current === undefined || current === null || (typeof v === typeof current && Array.isArray(v) === Array.isArray(current));
  if (typeof value === "string" && typeof current !== "string") {
    try {
      const parsed = JSON.parse(value) as unknown;
      if (fits(parsed)) return parsed;
    } catch {
      if (current === undefined || current === null) return value;
    }
  } else if (fits(value)) {
    // Text for a text field, or a value given as JSON (emu.edit, the edit route): held to the field's
    // type all the same, since a record the app could not hold makes later reads answer 500.
    return value;
  }
  const type = Array.isArray(current) ? "an array (JSON)" : typeof current === "object" ? "an object (JSON)" : typeof current === "string" ? "a string" : `a ${typeof current} (JSON)`;
  return fail(400, `set.${field}: must be ${type}, as it is now: ${JSON.stringify(current)}`);
}

/**
 * Changes fields of a record the way an edit in GitBook's app would: out of band, so the next read
 * through the API shows it (and `pulumi refresh` the drift). Answers the record as it now is.
 */
export function editRecord(store: Store, kind: string, id: string, set: Record<string, unknown>): Base {
  const { table, rec } = find(store, kind, id);
  const target = rec as unknown as Record<string, unknown>;
  const optional = OPTIONAL[table] as readonly string[];
  const entries = Object.entries(set);
  if (entries.length === 0) fail(400, "set: name at least one field=value");
  const changes: [string, unknown][] = entries.map(([field, raw]) => {
    if (field === "id" || field === "seq") fail(400, `set.${field}: an object's ${field} cannot change`);
    if (!(field in target) && !optional.includes(field)) {
      const fields = [...new Set([...Object.keys(target), ...optional])].filter((f) => f !== "id" && f !== "seq");
      fail(400, `set.${field}: a ${table.replace(/s$/, "")} has no field "${field}" (fields: ${fields.join(", ")})`);
    }
    return [field, valueFor(field, target[field], raw)];
  });
  // Checked whole before any change: a refused edit changes nothing.
  for (const [field, value] of changes) {
    if (value === null && optional.includes(field)) delete target[field];
    else target[field] = value;
  }
  if ("updatedAt" in target && !("updatedAt" in set)) target.updatedAt = new Date().toISOString();
  return rec;
}

/** Deletes a record as the app does, with what goes with it (see Store.remove). */
export function deleteRecord(store: Store, kind: string, id: string): void {
  const { table } = find(store, kind, id);
  store.remove(table, id);
}

const editBody = z.strictObject({ kind: z.string().min(1), id: z.string().min(1), set: z.record(z.string(), z.unknown()).optional() });

/** The body of an edit or delete, or 400 naming what is wrong. */
export function parseEdit(body: unknown): z.infer<typeof editBody> {
  const r = parseOrProblems(editBody, body);
  if ("problems" in r) fail(400, r.problems.join("; "));
  return r.data;
}
