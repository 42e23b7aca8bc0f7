/**
 * The message a failed provider call ends with. Pulumi shows it under the resource, and the program
 * repeats it inside whatever used the resource's outputs (`error serializing property "siteId": ...`),
 * so its first line must stand alone: which resource, which of its inputs, and what is wrong with it.
 *
 *     Team docs-writers: members: unknown user "nobody@acme.test" (not a member of this organization)
 *     team team_x3 was created but its membership could not be applied; it is kept in state, and the next `up` continues from there
 *     (GitBook API 400 on PUT /v1/orgs/org_1/teams/team_x3/members)
 *
 * The lines after the first say what became of the object and which request failed.
 */
import { GitbookError } from "../client";
import { ConfigError } from "../config";
import type { Resource } from "./define";
import { NAME_KEY, type Props } from "./resource";

/** `Team docs-writers`, or `Team team_x3` where the program's name is not known (refresh, destroy), or `Team`. */
export function resourceLabel(kind: string, props: Props | undefined, id?: string): string {
  const name = props?.[NAME_KEY];
  if (typeof name === "string" && name) return `${kind} ${name}`;
  return id ? `${kind} ${id}` : kind;
}

/** The API error at the bottom of a failure, if there is one. */
function apiError(e: unknown): GitbookError | undefined {
  for (let cur = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (cur instanceof GitbookError) return cur;
  }
  return undefined;
}

/**
 * Which input of the resource an API message is about: the API names a body field first
 * (`spaceId: no space "spc_x" in this organization`), which is the input of the same name.
 */
function fieldOf(def: Resource, api: GitbookError, tagged?: { field: string; apiFields: readonly string[] }): { field: string; cause: string } | undefined {
  const m = /^([A-Za-z][\w]*)((?:\.[\w]+|\[\d+\])*): (.+)$/s.exec(api.apiMessage);
  if (!m) return undefined;
  // A body field of a request made for one input (a team's `add` list is its `members`).
  if (tagged?.apiFields.includes(m[1]!)) return { field: tagged.field, cause: m[3]! };
  // An input sent under another name (FieldRule.wire: a section's `groupId` is `siteSectionGroupId`).
  const input = Object.entries(def.patch?.wire ?? {}).find(([, wire]) => wire === m[1])?.[0] ?? m[1]!;
  if (!(input in def.schema.shape)) return undefined;
  return { field: input + m[2]!, cause: m[3]! };
}

/**
 * Rewrites the failure's message (and a partial failure's reasons, which the engine shows instead)
 * so the first line is `<Kind> <name>: <input>: <cause>`, or `<Kind> <name>: <cause>` when no single
 * input is to blame. Returns a partial failure itself (its id and properties are what the engine
 * needs), and any other error as a copy of the same class: one error object can reach several
 * resources' calls (a shared listing rejects every caller with it), and each names its own resource.
 */
export function explainFailure(def: Resource, props: Props | undefined, id: string | undefined, thrown: unknown): unknown {
  // A malformed setting is about no resource: every call fails with the same words, naming the setting.
  if (!(thrown instanceof Error) || thrown instanceof ConfigError || (thrown as { explained?: boolean }).explained) return thrown;
  const e = thrown instanceof PartialFailure ? thrown : copyOf(thrown);
  const partial = e instanceof PartialFailure ? e : undefined;
  const label = resourceLabel(def.kind, props, id ?? partial?.id);
  const cause = partial?.cause instanceof Error ? partial.cause : partial ? undefined : e;
  const api = apiError(cause);
  const parsed = api ? fieldOf(def, api, partial?.field ? { field: partial.field, apiFields: partial.apiFields } : undefined) : undefined;
  const field = partial?.field ?? parsed?.field;

  const lines: string[] = [];
  if (api && field) {
    // The input and the API's own words first; the request that failed goes below.
    lines.push(`${label}: ${field}: ${parsed && parsed.field === field ? parsed.cause : api.apiMessage}`);
  } else if (cause) {
    lines.push(`${label}: ${field ? `${field}: ` : ""}${stripKind(def.kind, cause.message)}`);
  } else {
    lines.push(`${label}: ${field ? `${field}: ` : ""}${stripKind(def.kind, e.message)}`);
  }
  if (partial && cause) {
    // What became of the object: the reason, without the cause it quotes at its end.
    const reason = partial.reasons.join("; ");
    const situation = reason.endsWith(`: ${cause.message}`) ? reason.slice(0, -cause.message.length - 2) : reason;
    lines.push(`${situation}; it is kept in state, and the next \`up\` continues from there`);
  }
  if (api && field) lines.push(`(${api.status ? `GitBook API ${api.status} on` : "GitBook API"} ${api.method} ${api.path})`);
  const message = lines.join("\n");
  e.message = message;
  if (partial) partial.reasons = [message];
  (e as { explained?: boolean }).explained = true;
  return e;
}

/** The error with its class and own properties (status, cause, stack), to be rewritten without touching `e`. */
function copyOf(e: Error): Error {
  return Object.defineProperties(Object.create(Object.getPrototypeOf(e) as object) as Error, Object.getOwnPropertyDescriptors(e));
}

/** Messages written as `Team: ...` already name the kind: the label replaces that prefix. */
function stripKind(kind: string, message: string): string {
  return message.startsWith(`${kind}: `) ? message.slice(kind.length + 2) : message;
}

/**
 * Thrown when the object exists but could not be fully converged: the engine keeps it in state with
 * these outputs and reasons, and the next run picks up from there.
 */
export class PartialFailure extends Error {
  readonly id: string;
  properties: Props;
  /** What the engine shows; rewritten, like the message, so the first line names resource, input and cause. */
  reasons: string[];
  /** The input the failure is about, when the failed request served one input (e.g. `members`). */
  readonly field?: string;
  /** Body fields of that request which the API may name for it (a team's `add`, `remove`, `memberships`). */
  readonly apiFields: readonly string[];
  /**
   * @param opts.cause the error that stopped the step, when there is one: the message the user sees
   *   leads with it (see failure.ts).
   */
  constructor(id: string, properties: Props, reasons: string[], opts: { cause?: unknown; field?: string; apiFields?: readonly string[] } = {}) {
    super(reasons.join("; "), opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = "PartialFailure";
    this.id = id;
    this.properties = properties;
    this.reasons = reasons;
    if (opts.field) this.field = opts.field;
    this.apiFields = opts.apiFields ?? [];
  }
}


/** The object exists but a follow-up write failed: keep it in state with what it really has. */
export function settingsFailed(what: string, id: string, outs: Props, cause: unknown): PartialFailure {
  return new PartialFailure(id, outs, [`${what} ${id} was created but its settings could not be applied: ${(cause as Error).message}`], { cause });
}

