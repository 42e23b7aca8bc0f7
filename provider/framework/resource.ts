/**
 * What every resource module provides, and the shared pieces of its lifecycle: output cleaning,
 * partial failures, adoption and creation that never duplicates.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { AmbiguousRequestError, DEFAULT_RETRY, type GitbookClient, GitbookError, NotFoundError, ServerError } from "../client";
import type { ProviderConfig } from "../config";
import { claimsOf } from "./claims";
import type { Cascade } from "./cascade";
import type { DiffRules } from "./diff";

/** Where a resource's inputs carry the program's name for it (see resourceProps). */
export const NAME_KEY = "__gitbookName";

/** Where check keeps the program's `adoptId` once the resource is in state: read by diff only (see engine.check). */
export const ADOPT_KEY = "__gitbookAdoptId";

/**
 * Where a resource's outputs list the live fields (DiffRules.liveFields) the program declared. A live
 * field's output holds the object's value whether or not the program declares it, so the outputs
 * alone cannot say which inputs refresh should hand back: without this list, a refresh recorded
 * undeclared live values (a site's `type`) as inputs, and the next plan showed them as removals.
 * Outputs written before the list existed count as declaring none.
 */
export const DECLARED_KEY = "__gitbookDeclared";

/** The live fields the recorded outputs say the program declared. */
export function declaredLive(liveFields: readonly string[], outs: Props): string[] {
  const listed = outs[DECLARED_KEY];
  return Array.isArray(listed) ? liveFields.filter((f) => listed.includes(f)) : [];
}

/** Inputs in the shape of recorded outputs: each live field they hold is declared (for a read of inputs, as adoption does). */
export function withDeclaredLive(liveFields: readonly string[], inputs: Props): Props {
  return { ...inputs, [DECLARED_KEY]: liveFields.filter((f) => inputs[f] !== undefined) };
}

/** The recorded outputs as the program declared them: without the live fields it did not declare. */
export function asDeclared(liveFields: readonly string[], outs: Props): Props {
  const keep = declaredLive(liveFields, outs);
  const out: Props = { ...outs };
  for (const f of liveFields) if (!keep.includes(f)) delete out[f];
  return out;
}

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
  /** What deleting the object takes with it, for kinds holding content: their replacement needs `allowReplacement` (see engine.diff). */
  holds?: string;
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
  /** GitBook deletes other objects with this one (see cascade.ts): the engine checks before it deletes. */
  cascade?: Cascade;
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

/** The schema's fields that are present in `props` (null counts as present only where it is a value). */
export function pickInputs(fields: readonly string[], props: Props, nullValues: readonly string[] = []): Props {
  const out: Props = {};
  for (const f of fields) if (props[f] !== undefined && (props[f] !== null || nullValues.includes(f))) out[f] = props[f];
  return out;
}

/** Copies the declared (non-undefined) inputs, dropping engine bookkeeping. */
export function declared<T extends Props>(inputs: T): Partial<T> {
  const out: Props = {};
  for (const [k, v] of Object.entries(inputs)) if (k !== "__provider" && v !== undefined) out[k] = v;
  return out as Partial<T>;
}

/** What createOnce needs to send a create and, when its answer is lost, to recognise what it made. */
export interface CreateSpec<T extends { id: string }> {
  /** The resource kind ("ShareLink"): claims are per kind, and errors name it. */
  kind: string;
  /**
   * Every create that could make a candidate of this one shares its key (e.g. organization, site and
   * name): a lost create waits for the others of its key still in flight before deciding.
   */
  key: string;
  /** Names the object for errors, e.g. `share link "Partner" in site site_1`. */
  what: string;
  send(): Promise<T>;
  /** Every object the lost request could have made: same kind and distinguishing fields, held or not. */
  candidates(): Promise<T[]>;
  /**
   * The proof of which candidate the attempt made: the candidates as they were just before the first
   * request. "list": createOnce lists them itself (one listing, i.e. one GET per 1000 objects of the
   * listing, before the create). An array: the listing the resource made itself just before (a guard
   * that lists anyway), so that it is not made twice.
   */
  before: "list" | readonly T[];
  /**
   * The object's creation time, for kinds that report one: a candidate GitBook says it created
   * before the attempt began (by a bound of its clock, see GitbookClient.clockLead) is never taken,
   * even if the listing before missed it. It is a filter, not a proof: the Date header GitBook's
   * clock is bounded by counts whole seconds, too coarse to tell an object made a few ms after the
   * request was sent from one made a few ms before.
   */
  createdAt?(candidate: T): string | null | undefined;
}

/**
 * A lost create answer left objects recovery cannot prove the request made: the resource stops
 * rather than guess. Nothing was resent.
 */
export class AmbiguousCreateError extends Error {
  /** IDs of the objects that could be the one the lost request made. */
  readonly candidates: string[];
  constructor(message: string, candidates: string[]) {
    super(message);
    this.name = "AmbiguousCreateError";
    this.candidates = candidates;
  }
}

/**
 * Sends a creating request at most once per outcome: when the answer is lost (connection dropped,
 * 5xx from a gateway) the object may exist, so the candidates are looked at first; only when the
 * object is certainly absent is the request sent again.
 *
 * Names need not be unique, and people make objects in the app: recovery adopts only an object it
 * can prove this attempt made, i.e. one that was not among the candidates listed just before the
 * first request (`before`). A namesake that existed then is never taken, whoever made it; when only
 * such namesakes are found the request did not create anything and is sent again. Among the new
 * objects it also skips every object a resource of this deployment holds (see claims.ts: objects
 * another create of this run made meanwhile), once the other creates of the same key in flight in
 * this process have settled; that in-process memory only ever removes candidates, it never proves
 * one. Exactly one new object left: adopted. More than one (another program or person made a
 * namesake meanwhile), or a candidate when no listing before could be made: AmbiguousCreateError
 * naming them and how to adopt one (`adoptId`), and nothing is resent.
 *
 * A request that was given up on (timed out) may still be running on the server, so its object can
 * appear after a first look finds nothing: the candidates are looked at again, at doubling intervals,
 * for as long as the client says the request may take to settle, before anything is resent. (Without
 * this, an answer slower than gitbook:requestTimeoutSeconds left one duplicate per create.)
 */
// As many tries as the client gives any other request: with 4, a run through 30% 503s lost a create about one time in ten.
export async function createOnce<T extends { id: string }>(ctx: Ctx, spec: CreateSpec<T>, attempts = DEFAULT_RETRY.maxAttempts): Promise<T> {
  const claims = claimsOf(ctx.client);
  const before = spec.before === "list" ? await listBefore(ctx, spec) : new Set(spec.before.map((c) => c.id));
  const sentAt = Date.now();
  const find = async (): Promise<T | undefined> => {
    // What the lost request made is in a listing taken now, not in one cached before it.
    ctx.client.dropCachedLists();
    const listed = await spec.candidates();
    // An object another create of this key is about to receive must not look unclaimed.
    await claims.settled(spec.kind, spec.key);
    const lead = ctx.client.clockLead();
    const madeBefore = (c: T) => {
      const at = spec.createdAt?.(c);
      return at != null && lead !== undefined && Date.parse(at) < sentAt + lead;
    };
    const fresh = listed.filter((c) => !claims.holds(spec.kind, c.id) && !before?.has(c.id) && !madeBefore(c));
    if (fresh.length > 0 && before === undefined) {
      throw ambiguousCreate(spec, fresh, "could not list what existed before it was sent, so it cannot tell whether these were there already");
    }
    if (fresh.length > 1) {
      throw ambiguousCreate(spec, fresh, `found ${fresh.length} objects made since it was sent, none held by another resource of this deployment`);
    }
    const [mine] = fresh;
    if (mine) claims.hold(spec.kind, mine.id);
    return mine;
  };
  for (let i = 1; ; i++) {
    try {
      return await claims.sendAs(spec.kind, spec.key, spec.send);
    } catch (e) {
      const ambiguous = e instanceof AmbiguousRequestError || (e instanceof ServerError && e.method === "POST");
      if (!ambiguous) throw e;
      // Looked for after the last attempt too: giving up must not leave behind what that attempt made.
      const existing = await find();
      if (existing !== undefined) return existing;
      const settleMs = e instanceof AmbiguousRequestError ? e.settleMs : 0;
      for (let waited = 0, step = Math.max(50, settleMs / 16); waited < settleMs; waited += step, step *= 2) {
        await sleep(Math.min(step, settleMs - waited));
        const late = await find();
        if (late !== undefined) return late;
      }
      if (i >= attempts) throw e;
    }
  }
}

/**
 * The IDs of the candidates now, taken fresh just before the create. Undefined when the listing is
 * refused (e.g. 404: the site the object goes in does not exist): the create is sent anyway, so that
 * its own answer says what is wrong, and should that answer be lost, no candidate can be proved ours.
 */
async function listBefore<T extends { id: string }>(ctx: Ctx, spec: CreateSpec<T>): Promise<Set<string> | undefined> {
  ctx.client.dropCachedLists();
  try {
    return new Set((await spec.candidates()).map((c) => c.id));
  } catch (e) {
    if (e instanceof GitbookError && e.status >= 400 && e.status < 500 && e.status !== 429) return undefined;
    throw e;
  }
}

function ambiguousCreate<T extends { id: string }>(spec: CreateSpec<T>, found: readonly T[], why: string): AmbiguousCreateError {
  const ids = found.map((c) => c.id);
  const list = found.map((c) => describeCandidate(spec, c)).join("; ");
  return new AmbiguousCreateError(
    `${spec.kind}: the create of ${spec.what} got no answer, so it may or may not have happened, and this resource ${why}: ${list}. ` +
      `Nothing was sent again, and none of them was taken. Look at them in GitBook: to manage one with this resource, set adoptId to its ID (e.g. adoptId: "${ids[0]}") and delete any other you do not want; ` +
      `if none is this resource's, run up again to create it.`,
    ids,
  );
}

/** `Collection "Guides" col_1 (created 2026-…)`: what a person needs to find the object in GitBook. */
function describeCandidate<T extends { id: string }>(spec: CreateSpec<T>, c: T): string {
  const o = c as Record<string, unknown>;
  const name = [o.title, o.label, o.name, o.slug].find((v) => typeof v === "string");
  const at = spec.createdAt?.(c);
  return `${spec.kind}${name !== undefined ? ` ${JSON.stringify(name)}` : ""} ${c.id}${at ? ` (created ${at})` : ""}`;
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
  /** Fields for which null is a value of its own, sent as null. */
  nullValues?: readonly string[];
}

/** The PATCH body for the changed fields: new values, null to clear, or the API default. */
export function patchBody(changed: readonly string[], news: Props, rules: PatchRules): Props {
  const body: Props = {};
  for (const f of changed) {
    if (!rules.patchable.includes(f)) continue;
    const v = news[f];
    if (v !== undefined && (v !== null || rules.nullValues?.includes(f))) body[f] = v;
    else if (rules.nullable?.includes(f)) body[f] = null;
    else if (rules.onRemove && f in rules.onRemove) body[f] = rules.onRemove[f];
  }
  return body;
}

/**
 * The property bag a Resource class registers: the program's args, the keys that always hold a value
 * (the outputs schema's and what check fills in), unset until the provider reports them, and the
 * program's name. Inputs the program leaves out are not registered (see resourceClass).
 */
export function resourceProps(name: string, args: object, always: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const k of always) props[k] = undefined;
  // The program's name for the resource travels with its inputs (dynamic providers are never told
  // it), so an error can say which resource failed. Never compared by diff, never sent to GitBook.
  return Object.assign(props, args, { [NAME_KEY]: name });
}
