/**
 * What every resource module provides, and the shared pieces of its lifecycle: output cleaning,
 * partial failures, adoption and creation that never duplicates.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { AmbiguousRequestError, DEFAULT_RETRY, type GitbookClient, NotFoundError, ServerError } from "../client";
import type { ProviderConfig } from "../config";
import type { DiffRules } from "./diff";

/** Where a resource's inputs carry the program's name for it (see resourceProps). */
export const NAME_KEY = "__gitbookName";

export interface Ctx {
  client: GitbookClient;
  config: ProviderConfig;
}

export type Props = Record<string, unknown>;

export interface ResourceDef<I extends Props = Props, O extends Props = Props> {
  /** Type name, e.g. "Site"; the Pulumi type token is `pulumi-nodejs:dynamic/gitbook:<kind>`. */
  kind: string;
  /** Input schema: validates at check, and its `.describe()` texts are the documentation. */
  schema: z.ZodObject;
  diff: DiffRules;
  /** Fields not scoped to the organization (none today) set this false. */
  organizationScoped?: boolean;
  /**
   * Runs at check on inputs the schema accepted: completes them from outside the program (an
   * OpenAPI spec's file is hashed), or fails naming the property.
   */
  prepare?(inputs: Props): { inputs: Props } | { failures: { property: string; reason: string }[] };
  create(ctx: Ctx, inputs: I): Promise<{ id: string; outs: O }>;
  /**
   * Live outputs for the object, with every input field present in `props` refreshed from the API;
   * undefined when the object is gone.
   */
  read(ctx: Ctx, id: string, props: O): Promise<O | undefined>;
  /** Converges the object from `olds` (outputs) to `news` (inputs), sending only what changed. */
  update(ctx: Ctx, id: string, olds: O, news: I): Promise<O>;
  /** Idempotent. */
  delete(ctx: Ctx, id: string, props: O): Promise<void>;
  /** The inputs that reproduce `outs` (what refresh records as the program's inputs). Default: the schema's fields present in outs. */
  toInputs?(outs: O): Props;
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

/** Removes `undefined` (the host cannot encode it) and anything not plain JSON. */
export function cleanOutputs<T extends Props>(outs: T): T {
  return JSON.parse(JSON.stringify(outs)) as T;
}

/** The schema's fields that are present in `props`. */
export function pickInputs(fields: readonly string[], props: Props): Props {
  const out: Props = {};
  for (const f of fields) if (props[f] !== undefined && props[f] !== null) out[f] = props[f];
  return out;
}

/** Copies the declared (non-undefined) inputs, dropping engine bookkeeping. */
export function declared<T extends Props>(inputs: T): Partial<T> {
  const out: Props = {};
  for (const [k, v] of Object.entries(inputs)) if (k !== "__provider" && v !== undefined) out[k] = v;
  return out as Partial<T>;
}

/**
 * Sends a creating request at most once per outcome: when the answer is lost (connection dropped,
 * 5xx from a gateway) the object may exist, so `find` looks for it first and adopts it; only when it
 * is certainly absent is the request sent again.
 *
 * A request that was given up on (timed out) may still be running on the server, so its object can
 * appear after a first look finds nothing: `find` then looks again, at doubling intervals, for as
 * long as the client says the request may take to settle, before anything is resent. (Without this,
 * an answer slower than gitbook:requestTimeoutSeconds left one duplicate per create.)
 */
// As many tries as the client gives any other request: with 4, a run through 30% 503s lost a create about one time in ten.
export async function createOnce<T>(
  send: () => Promise<T>,
  find: (sentAt: number) => Promise<T | undefined>,
  attempts = DEFAULT_RETRY.maxAttempts,
): Promise<T> {
  const sentAt = Date.now();
  for (let i = 1; ; i++) {
    try {
      return await send();
    } catch (e) {
      const ambiguous = e instanceof AmbiguousRequestError || (e instanceof ServerError && e.method === "POST");
      if (!ambiguous) throw e;
      // Looked for after the last attempt too: giving up must not leave behind what that attempt made.
      const existing = await find(sentAt);
      if (existing !== undefined) return existing;
      const settleMs = e instanceof AmbiguousRequestError ? e.settleMs : 0;
      for (let waited = 0, step = Math.max(50, settleMs / 16); waited < settleMs; waited += step, step *= 2) {
        await sleep(Math.min(step, settleMs - waited));
        const late = await find(sentAt);
        if (late !== undefined) return late;
      }
      if (i >= attempts) throw e;
    }
  }
}

/** How far the API's clock may trail ours when telling an object a lost create made from an older namesake. */
export const CLOCK_SKEW_MS = 120_000;

/** Whether an object was created no earlier than `sentAt` (our clock), allowing for the API's clock skew. */
export function createdSince(createdAt: string | null | undefined, sentAt: number): boolean {
  return createdAt != null && Date.parse(createdAt) >= sentAt - CLOCK_SKEW_MS;
}

/**
 * Names need not be unique, so among same-named objects only one created since the lost request was
 * sent can be ours: the newest.
 */
export function newestCreatedSince<T extends { createdAt?: string | null }>(candidates: readonly T[], sentAt: number): T | undefined {
  return candidates.filter((c) => createdSince(c.createdAt, sentAt)).sort((a, b) => Date.parse(b.createdAt!) - Date.parse(a.createdAt!))[0];
}

/** The object exists but a follow-up write failed: keep it in state with what it really has. */
export function settingsFailed(what: string, id: string, outs: Props, cause: unknown): PartialFailure {
  return new PartialFailure(id, outs, [`${what} ${id} was created but its settings could not be applied: ${(cause as Error).message}`], { cause });
}

/** GET that answers undefined for 404 instead of throwing. */
export async function getOrUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof NotFoundError) return undefined;
    throw e;
  }
}

/** Error for an `adoptId` naming nothing. */
export function adoptTargetMissing(kind: string, id: string): Error {
  return new Error(`${kind}: adoptId "${id}" names no existing object in this organization; remove adoptId to create a new one.`);
}

/**
 * Refreshes the declared inputs in `props` from the object's live view. `live` holds a key for every
 * field the API reports (undefined when the API shows it unset); fields the API cannot report
 * (organizationId, adoptId) keep their recorded value. Fields the user never set stay absent, so a
 * later diff does not mistake them for removals.
 */
export function refreshDeclared(fields: readonly string[], props: Props, live: Props): Props {
  const out: Props = {};
  for (const f of fields) {
    if (props[f] === undefined) continue;
    out[f] = f in live ? live[f] : props[f];
  }
  return out;
}

export interface PatchRules {
  /** Fields the PATCH endpoint accepts under the same name. */
  patchable: readonly string[];
  /** Fields the API clears with an explicit null when the user removes them. */
  nullable?: readonly string[];
  /** Values to send when the user removes a field that has an API default. */
  onRemove?: Props;
}

/** The PATCH body for the changed fields: new values, null to clear, or the API default. */
export function patchBody(changed: readonly string[], news: Props, rules: PatchRules): Props {
  const body: Props = {};
  for (const f of changed) {
    if (!rules.patchable.includes(f)) continue;
    const v = news[f];
    if (v !== undefined && v !== null) body[f] = v;
    else if (rules.nullable?.includes(f)) body[f] = null;
    else if (rules.onRemove && f in rules.onRemove) body[f] = rules.onRemove[f];
  }
  return body;
}

/**
 * The property bag a Resource class registers: a key for every input of the schema (so each becomes
 * an Output on the resource even when the program leaves it unset), the program's args, and the
 * computed outputs, unset until the provider fills them in.
 */
export function resourceProps(name: string, schema: z.ZodObject, args: object, outputs: readonly string[]): Record<string, unknown> {
  const unset = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, undefined]));
  // The program's name for the resource travels with its inputs (dynamic providers are never told
  // it), so an error can say which resource failed. Never compared by diff, never sent to GitBook.
  return { ...unset(Object.keys(schema.shape)), ...args, ...unset(outputs), [NAME_KEY]: name };
}
