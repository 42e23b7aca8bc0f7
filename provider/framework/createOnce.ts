/**
 * Creation that never duplicates: a create whose answer is lost looks for what it made before it
 * sends again, and adopts only what it can prove it made (see createOnce).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { AmbiguousRequestError, DEFAULT_RETRY, GitbookError, ServerError } from "../client";
import { claimsOf } from "./claims";
import type { Ctx } from "./resource";

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
 * A create got no answer, and listing what it may have made failed: nothing is resent. The engine
 * keeps the resource in state as unconfirmed (state.ts, UNCONFIRMED_KEY), with when the create was
 * sent and what existed before it, for `pulumi-gitbook recover` to show and the user to decide: left
 * out of state, a re-run would list the object this create made among those that were there before,
 * and make a second.
 */
export class UnconfirmedCreateError extends Error {
  /** When the create was sent (ISO, this machine's clock): for the person deciding, never a proof. */
  readonly sentAt: string;
  /** The candidates listed just before the create: never its own. Null when they could not be listed. */
  readonly before: string[] | null;
  constructor(message: string, sentAt: number, before: ReadonlySet<string> | undefined, cause: unknown) {
    super(message, { cause });
    this.name = "UnconfirmedCreateError";
    this.sentAt = new Date(sentAt).toISOString();
    this.before = before ? [...before] : null;
  }
}

/**
 * A lost create answer left objects recovery cannot prove the request made: the resource stops
 * rather than guess. Nothing was resent. Unconfirmed too: one of them is likely this create's, and a
 * re-run would list it among those that were there before and make another.
 */
export class AmbiguousCreateError extends UnconfirmedCreateError {
  /** IDs of the objects that could be the one the lost request made. */
  readonly candidates: string[];
  constructor(message: string, candidates: string[], sentAt: number, before: ReadonlySet<string> | undefined) {
    super(message, sentAt, before, undefined);
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
 * naming them, and nothing is resent; the engine keeps the resource as unconfirmed for recover.
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
    // What the lost request made is in a listing taken now: not an earlier one, and not one still in
    // flight either (sent before the failure, it may have been answered before the lost POST took
    // effect and miss its object: resending would then make a duplicate), even inside a guard.
    const listed = await ctx.client.fresh(spec.candidates);
    // An object another create of this key is about to receive must not look unclaimed.
    await claims.settled(spec.kind, spec.key);
    const lead = ctx.client.clockLead();
    const madeBefore = (c: T) => {
      const at = spec.createdAt?.(c);
      return at != null && lead !== undefined && Date.parse(at) < sentAt + lead;
    };
    const fresh = listed.filter((c) => !claims.holds(spec.kind, c.id) && !before?.has(c.id) && !madeBefore(c));
    if (fresh.length > 0 && before === undefined) {
      throw ambiguousCreate(spec, fresh, "could not list what existed before it was sent, so it cannot tell whether these were there already", sentAt, before);
    }
    if (fresh.length > 1) {
      throw ambiguousCreate(spec, fresh, `found ${fresh.length} objects made since it was sent, none held by another resource of this deployment`, sentAt, before);
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
      // When looking fails, what the request made (if anything) is unknown and unheld: the next run
      // would take it for a namesake that was there before, and make a second.
      const look = () => find().catch((lookErr: unknown) => {
        throw lookErr instanceof AmbiguousCreateError ? lookErr : lookFailed(spec, e, lookErr, sentAt, before);
      });
      const existing = await look();
      if (existing !== undefined) return existing;
      const settleMs = e instanceof AmbiguousRequestError ? e.settleMs : 0;
      for (let waited = 0, step = Math.max(50, settleMs / 16); waited < settleMs; waited += step, step *= 2) {
        await sleep(Math.min(step, settleMs - waited));
        const late = await look();
        if (late !== undefined) return late;
      }
      if (i >= attempts) throw nothingMade(spec, e, i);
      // GitBook said when to try again (a 503's Retry-After): resent sooner, it would be refused again.
      const told = e instanceof AmbiguousRequestError ? e.waitMs : undefined;
      if (told !== undefined) {
        if (told > DEFAULT_RETRY.deadlineMs) throw nothingMade(spec, e, i);
        await ctx.client.pause(told);
      }
    }
  }
}

function lookFailed<T extends { id: string }>(spec: CreateSpec<T>, e: GitbookError, lookErr: unknown, sentAt: number, before: ReadonlySet<string> | undefined): Error {
  return new UnconfirmedCreateError(
    `${spec.kind}: the create of ${spec.what} got no answer, so it may or may not have happened, and what it may have made could not be looked for (${(lookErr as Error).message}). ` +
      `Nothing was sent again; what it may have made dates from ${new Date(sentAt).toISOString()} on.`,
    sentAt,
    before,
    e,
  );
}

/** What to do about a resource kept as unconfirmed (the engine says it when it keeps one, and every call that refuses one). */
export const UNCONFIRMED_FIX =
  "The resource is kept in state as unconfirmed, and every preview, up, refresh and destroy that reaches it fails, sending nothing, until it is decided: run `npx pulumi-gitbook recover --stack <stack>` in the project's folder, which lists what GitBook holds that this create may have made and the command for each choice (adopt the one it made, or drop the resource so that the next `up` creates it).";

/**
 * Every attempt failed, and recovery looked after each and found nothing it could have made: the
 * last error said the outcome was unknown, which the looking has since settled.
 */
function nothingMade<T extends { id: string }>(spec: CreateSpec<T>, e: GitbookError, sent: number): Error {
  const last = e instanceof AmbiguousRequestError ? e.cause : e;
  return new Error(
    `${spec.kind}: the create of ${spec.what} was sent ${sent} time${sent === 1 ? "" : "s"} and failed each time, and no object it could have made appeared after any of them, so nothing was created ` +
      `(last: ${last.message}). Run \`pulumi up\` again once GitBook answers.`,
    { cause: e },
  );
}

/**
 * The IDs of the candidates now, taken just before the create. Undefined when the listing is refused
 * (e.g. 404: the site the object goes in does not exist): the create is sent anyway, so that its own
 * answer says what is wrong, and should that answer be lost, no candidate can be proved ours.
 *
 * The listing may be one of the same path still in flight or answered at most
 * gitbook:listingMaxAgeSeconds ago (another create's "before", a read): the proof needs only a
 * listing whose answer arrived before this create's POST was sent, which cannot show what that POST
 * makes. An object someone else made after that listing was answered is "new" to a later recovery,
 * which the claims and the "more than one" refusal deal with; the age bounds that window. Without
 * reuse, N concurrent creates in one container each fetched the whole container: N listings of up to
 * N items.
 */
async function listBefore<T extends { id: string }>(ctx: Ctx, spec: CreateSpec<T>): Promise<Set<string> | undefined> {
  try {
    return new Set((await ctx.client.guard("anything", spec.candidates)).map((c) => c.id));
  } catch (e) {
    if (e instanceof GitbookError && e.status >= 400 && e.status < 500 && e.status !== 429) return undefined;
    throw e;
  }
}

function ambiguousCreate<T extends { id: string }>(spec: CreateSpec<T>, found: readonly T[], why: string, sentAt: number, before: ReadonlySet<string> | undefined): AmbiguousCreateError {
  const ids = found.map((c) => c.id);
  const list = found.map((c) => describeCandidate(spec, c)).join("; ");
  return new AmbiguousCreateError(
    `${spec.kind}: the create of ${spec.what} got no answer, so it may or may not have happened, and this resource ${why}: ${list}. ` +
      `Nothing was sent again, and none of them was taken.`,
    ids,
    sentAt,
    before,
  );
}

/** `Collection "Guides" col_1 (created 2026-…)`: what a person needs to find the object in GitBook. */
function describeCandidate<T extends { id: string }>(spec: CreateSpec<T>, c: T): string {
  const o = c as Record<string, unknown>;
  const name = [o.title, o.label, o.name, o.slug].find((v) => typeof v === "string");
  const at = spec.createdAt?.(c);
  return `${spec.kind}${name !== undefined ? ` ${JSON.stringify(name)}` : ""} ${c.id}${at ? ` (created ${at})` : ""}`;
}

