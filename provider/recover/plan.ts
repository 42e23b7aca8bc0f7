/**
 * Resolving what an interrupted `pulumi up` left in the checkpoint (`pulumi stack export`).
 *
 * A run killed while a create was in flight (SIGKILL, a cancelled CI job) leaves that resource as a
 * pending `creating` operation with its inputs, and GitBook may or may not hold the object. The next
 * `up` would create it again: a duplicate whenever the first request went through. Each pending create
 * of a gitbook resource is resolved here to the object GitBook holds for it, but only one this stack
 * can prove the interrupted run made: same kind and distinguishing fields as the pending inputs (the
 * kind's `lookalikes`, the very rule createOnce recovers a lost answer with), held by no resource in
 * state, and created after the run began and before it could no longer create anything (for the objects
 * of a site, which GitBook gives no creation time: in a site so created). An object made later, in the
 * app or by another stack, is never the run's, however long after recover runs. Other kinds without a creation time are never adopted
 * by guess: their candidates are listed and the user names the one (`--adopt URN=ID`) or none (`--drop URN`).
 */
import { ApiSite, GitbookError, NotFoundError } from "../client";
import { sitePaths } from "../resources/sitePaths";
import { getOrUndefined } from "../framework/lists";
import { NAME_KEY, type Ctx, type Props } from "../framework/resource";
import { UNCONFIRMED_KEY, cleanOutputs, unconfirmedIn, withDeclaredLive, type UnconfirmedCreate } from "../framework/state";

import type { Lookalikes, Resource } from "../framework/define";
import { againstWindow } from "../framework/createOnce";
import { changedFields } from "../framework/diff";
import { resources } from "../resources";

/** A resource as `pulumi stack export` writes it (only the fields read here are named). */
export interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  inputs?: Props;
  outputs?: Props;
  additionalSecretOutputs?: string[];
  [field: string]: unknown;
}

export interface PendingOperation {
  resource: StateResource;
  /** creating, updating, deleting, reading, importing */
  type: string;
  [field: string]: unknown;
}

export interface Exported {
  version: number;
  deployment: {
    manifest?: { time?: string };
    resources?: StateResource[];
    pending_operations?: PendingOperation[];
    [field: string]: unknown;
  };
}

export interface Candidate {
  id: string;
  createdAt?: string;
}

/** What recovery does with one pending operation. */
export type Resolution =
  /** Written into state as this object. */
  | { urn: string; kind: string; op: string; action: "adopt"; id: string; why: string }
  /** Dropped: nothing in GitBook is this resource's, so the next `up` creates it. */
  | { urn: string; kind: string; op: string; action: "drop"; why: string }
  /** Dropped: the resource stays as state has it; refresh or the next `up` converges it. */
  | { urn: string; kind: string; op: string; action: "clear"; why: string }
  /** Another provider's pending create: the CLI's to decide (the command then imports nothing). */
  | { urn: string; kind: string; op: string; action: "keep"; why: string }
  /** No proof either way: the user must decide (`--adopt` or `--drop`); nothing is imported. */
  | { urn: string; kind: string; op: string; action: "undecided"; candidates: Candidate[]; why: string };

export interface Decisions {
  /** What `runStart` is, for messages: "the run began" unless said (an unconfirmed create's: "the create was sent"). */
  began?: string;
  /** When the interrupted run began (ms since the epoch), if known: objects created since may be its own. */
  runStart?: number;
  /**
   * The last moment the interrupted run could still create anything (ms since the epoch), if known: its
   * checkpoint's last save plus the longest a create takes (longestCreateMs), or --until. An object
   * created after it is not the run's. Unknown: nothing is adopted by its date.
   */
  runEnd?: number;
  /** URN -> ID the user says the pending create made. */
  adopt: ReadonlyMap<string, string>;
  /** URNs the user says made nothing (the next up creates them). */
  drop: ReadonlySet<string>;
}

const definitions = new Map<string, Resource>(resources.map((r) => [r.kind, r]));

/**
 * The gitbook kind of a resource in state, or undefined for any other provider's. Resource classes
 * register as `pulumi-nodejs:dynamic/gitbook:<Kind>`; the serialized shim (provider/shim.ts) names
 * the kind too, which is what a generic `pulumi-nodejs:dynamic:Resource` would carry.
 */
export function kindOf(r: StateResource): string | undefined {
  const provider = r.inputs?.__provider;
  if (typeof provider !== "string" || !provider.includes('require("pulumi-gitbook/impl")')) return undefined;
  const typed = /^pulumi-nodejs:dynamic\/gitbook:(\w+)$/.exec(r.type)?.[1];
  // The shim names its kind as `const kind = "Site"`; those of earlier versions (the SDK's serialization) as `with({ kind: "Site"`.
  const named = /const kind = "(\w+)"|with\(\{ kind: "(\w+)"/.exec(provider);
  return typed ?? named?.[1] ?? named?.[2];
}

/** The inputs a provider call gets: without what the engine and the resource class keep beside them. */
function callInputs(inputs: Props | undefined): Props {
  const { __provider: _p, [NAME_KEY]: _n, ...rest } = inputs ?? {};
  return rest;
}

/**
 * Every ID a resource in state may hold an object by: its ID and every string among its outputs (but
 * an unconfirmed create's record, whose IDs are of objects that existed before it, held or not).
 */
function heldIds(state: readonly StateResource[]): Set<string> {
  const held = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") held.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  for (const r of state) {
    if (r.id && !unconfirmedIn(r.outputs)) held.add(r.id);
    const { [UNCONFIRMED_KEY]: _record, ...outputs } = r.outputs ?? {};
    walk(outputs);
  }
  return held;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Decides every pending operation; reads GitBook, writes nothing. */
export async function planRecovery(ctx: Ctx, exported: Exported, decisions: Decisions): Promise<Resolution[]> {
  const state = exported.deployment.resources ?? [];
  const held = heldIds(state);
  const out: Resolution[] = [];
  for (const pending of exported.deployment.pending_operations ?? []) {
    const r = pending.resource;
    const base = { urn: r.urn, op: pending.type };
    const kind = kindOf(r);
    if (!kind) {
      // Another provider's: its create is not this command's to decide; an update or delete is cleared as
      // ours are (and as \`pulumi stack import\` clears every pending operation).
      if (pending.type === "creating" && decisions.drop.has(r.urn)) out.push({ ...base, kind: r.type, action: "drop", why: "another provider's, --drop: the next `pulumi up` creates it" });
      else if (pending.type === "creating") out.push({ ...base, kind: r.type, action: "keep", why: "not a pulumi-gitbook resource: whether its create made anything is for you to check (--drop it if not, or to bring it in with `pulumi import`)" });
      else out.push({ ...base, kind: r.type, action: "clear", why: `not a pulumi-gitbook resource; it stays as state records it (the ${pending.type.replace(/ing$/, "e")} may or may not have happened): \`pulumi refresh\` converges it` });
      continue;
    }
    const res = await lookedFor(pending, kind, () => resolve(ctx, pending, kind, held, decisions, state));
    if (res.action === "adopt") held.add(res.id);
    out.push(res);
  }
  // Creates that ended with their outcome unknown (state.ts, UNCONFIRMED_KEY): resolved as a pending
  // create is, the run's start being when that create was sent, and what existed just before it never
  // taken, whatever its date.
  for (const r of unconfirmedResources(state)) {
    const record = unconfirmedIn(r.outputs)!;
    const pending: PendingOperation = { type: "creating", resource: r };
    const res = await lookedFor(pending, kindOf(r)!, () =>
      resolve(ctx, pending, kindOf(r)!, held, { ...decisions, runStart: Date.parse(record.sentAt), began: "the create was sent" }, state, record),
    );
    if (res.action === "adopt") held.add(res.id);
    out.push({ ...res, op: UNCONFIRMED });
  }
  return out;
}

/** The Resolution `op` of a resource in state whose create is unconfirmed (rather than a pending operation's type). */
export const UNCONFIRMED = "unconfirmed";

/** The gitbook resources in state whose create is unconfirmed. */
export function unconfirmedResources(state: readonly StateResource[]): StateResource[] {
  return state.filter((r) => !r.delete && unconfirmedIn(r.outputs) && kindOf(r) !== undefined);
}

/**
 * `decide`, with a read that fails named for its resource rather than ending recover: the other
 * resources are still decided. A 404 says what the create was made in (a site, a section) is gone, or
 * out of the token's sight: the message gives the fix for each.
 */
async function lookedFor(pending: PendingOperation, kind: string, decide: () => Promise<Resolution>): Promise<Resolution> {
  try {
    return await decide();
  } catch (e) {
    if (!(e instanceof GitbookError)) throw e;
    const fix =
      e instanceof NotFoundError
        ? "What it was created in was not found: if it was deleted, so was anything the create made in it, and --drop it (the next `pulumi up` creates it as the program says, or fails naming what is missing); if it is there, check that gitbook:token can see it"
        : "Run recover again once GitBook answers, or decide it with --adopt <URN>=<ID> or --drop <URN>";
    return { urn: pending.resource.urn, kind, op: pending.type, action: "undecided", candidates: [], why: `what it may have made could not be looked for (${e.message}). ${fix}` };
  }
}

async function resolve(
  ctx: Ctx,
  pending: PendingOperation,
  kind: string,
  held: Set<string>,
  decisions: Decisions,
  state: readonly StateResource[],
  /** An unconfirmed create's record (state.ts): decided by unconfirmedOutcome rather than as a killed run's create. */
  unconfirmed?: UnconfirmedCreate,
): Promise<Resolution> {
  const r = pending.resource;
  const base = { urn: r.urn, kind, op: pending.type };
  if (pending.type !== "creating") {
    return {
      ...base,
      action: "clear",
      why: `the resource stays as state records it (the ${pending.type.replace(/ing$/, "e")} may or may not have happened): \`pulumi refresh\` or the next \`pulumi up\` converges it`,
    };
  }
  const def = definitions.get(kind);
  if (!def) return { ...base, action: "undecided", candidates: [], why: `unknown kind ${kind} (state written by a newer pulumi-gitbook?): upgrade the package` };
  const inputs = callInputs(r.inputs);
  const given = decisions.adopt.get(r.urn) ?? (typeof inputs.adoptId === "string" && inputs.adoptId ? inputs.adoptId : undefined);
  // A kind holding entries of another object shares its ID with that object's resource: only another
  // resource of the same kind holds what it would.
  const holds = (id: string) => (def.pending ? sameKindHolds(state, kind, id) : held.has(id));
  if (given !== undefined) {
    if (holds(given)) return { ...base, action: "undecided", candidates: [], why: `${given} is already held by a resource in state: adopt another object, or --drop this one` };
    const how = decisions.adopt.has(r.urn) ? "named by --adopt" : "the program's adoptId";
    return { ...base, action: "adopt", id: given, why: how };
  }
  if (decisions.drop.has(r.urn)) return { ...base, action: "drop", why: "--drop: the next `pulumi up` creates it" };
  if (def.pending) return resolveEntries(ctx, base, def, inputs, decisions, holds);
  if (!def.lookalikes) return { ...base, action: "drop", why: "its create sets the object with a request that may be sent again: the next `pulumi up` sends it" };
  const look = def.lookalikes(ctx, inputs as never);
  const existedBefore = new Set(unconfirmed?.before ?? []);
  const free = (await look.candidates()).filter((c) => !held.has(c.id) && !existedBefore.has(c.id));
  if (free.length === 0) return { ...base, action: "drop", why: `GitBook holds no ${look.what} that no resource in state holds: the next \`pulumi up\` creates it` };
  const shown: Candidate[] = free.map((c) => ({ id: c.id, ...(look.createdAt?.(c) ? { createdAt: String(look.createdAt(c)) } : {}) }));
  if (unconfirmed) return unconfirmedOutcome(base, def.noun, look, free, shown, unconfirmed);
  const site = look.createdAt ? undefined : await newSite(ctx, inputs, decisions.runStart, decisions.runEnd);
  const at = look.createdAt ?? (site ? () => site.createdAt : undefined);
  if (!at) {
    const unbounded = decisions.runStart !== undefined && decisions.runEnd === undefined;
    return {
      ...base,
      action: "undecided",
      candidates: shown,
      why: `${def.noun}s carry no creation time, so nothing proves which of these (if any) the interrupted run made${unbounded ? " (in a site the run made, they would count as its own were it known when the run stopped: give that with --until)" : ""}`,
    };
  }
  if (decisions.runStart === undefined) {
    return { ...base, action: "undecided", candidates: shown, why: "when the interrupted run began is not known (no lock of it left in the backend): give it with --since, or decide per resource" };
  }
  const start = decisions.runStart;
  const end = decisions.runEnd;
  const began = decisions.began ?? "the run began";
  const window = end === undefined ? `since ${began} (${iso(start)})` : `after ${began} (${iso(start)}) and before it could create no more (${iso(end)})`;
  const recent = free.filter((c) => againstWindow(at(c), start, end) === "within");
  const near = free.filter((c) => againstWindow(at(c), start, end) === "unsure");
  if (recent.length === 1 && near.length === 0) {
    const when = site ? `in site ${site.id}, itself created ${site.createdAt}` : `created ${at(recent[0]!)}`;
    return { ...base, action: "adopt", id: recent[0]!.id, why: `${when}, ${window}` };
  }
  if (recent.length > 1) {
    return { ...base, action: "undecided", candidates: shown.filter((c) => recent.some((x) => x.id === c.id)), why: `${recent.length} objects created ${window} could be it` };
  }
  if (near.length > 0) {
    const why =
      end === undefined
        ? `when the interrupted run stopped is not known (its checkpoint says not when it was saved): give it with --until, or decide per resource`
        : `created close to when ${began} (${iso(start)}) or it could create no more (${iso(end)}): its own only if GitBook's clock differs from this machine's that much`;
    return { ...base, action: "undecided", candidates: shown, why };
  }
  return { ...base, action: "drop", why: `every ${look.what} not held by state was created before ${began} (${iso(start)})${end === undefined ? "" : ` or after it could create no more (${iso(end)})`}: not its own; the next \`pulumi up\` creates it` };
}

/**
 * An unconfirmed create is decided by dates alone: its object was created after the create was sent
 * and before the create could no longer take effect (the record's sentAt and settledBy), on GitBook's
 * clock, give or take CLOCK_SKEW_MS (inside that margin it is named, not taken). The listing before it
 * proves less here than in createOnce: createOnce looks seconds after the lost answer, but recover may
 * run days later, when a namesake made in the app since would be just as new. So a kind GitBook gives
 * no creation time (a section, a site space, a group, a link), or a record without settledBy, is never
 * taken by proof: its candidates are named for --adopt or --drop.
 */
function unconfirmedOutcome<T extends { id: string }>(
  base: { urn: string; kind: string; op: string },
  noun: string,
  look: Lookalikes<T>,
  free: readonly T[],
  shown: Candidate[],
  record: UnconfirmedCreate,
): Resolution {
  const start = Date.parse(record.sentAt);
  const sent = `the create was sent (${iso(start)})`;
  const named = (why: string): Resolution => ({ ...base, action: "undecided", candidates: shown, why });
  const at = look.createdAt;
  if (!at) {
    return named(`${noun}s carry no creation time, so nothing tells the one the create made (if any) from one made in the app or by another program since ${sent}`);
  }
  if (record.settledBy === undefined) return named(`its record does not say when the create could last take effect, so nothing proves which of these (if any) it made`);
  const end = Date.parse(record.settledBy);
  const within = free.filter((c) => againstWindow(at(c), start, end) === "within");
  const unsure = free.filter((c) => againstWindow(at(c), start, end) === "unsure");
  const settled = `it could no longer take effect (${iso(end)})`;
  if (within.length === 1 && unsure.length === 0) {
    return { ...base, action: "adopt", id: within[0]!.id, why: `created ${at(within[0]!)}, after ${sent} and before ${settled}` };
  }
  if (within.length + unsure.length === 0) {
    return { ...base, action: "drop", why: `every ${look.what} not held by state was created before ${sent} or after ${settled}: not its own; the next \`pulumi up\` creates it` };
  }
  if (within.length > 1) return named(`${within.length} objects created after ${sent} and before ${settled} could be it`);
  return named(`created close to when ${sent} or ${settled}: its own only if GitBook's clock differs from this machine's, so nothing proves it`);
}

/** Whether a resource of this kind in state (not pending) has this ID. */
function sameKindHolds(state: readonly StateResource[], kind: string, id: string): boolean {
  return state.some((r) => r.id === id && !r.delete && kindOf(r) === kind);
}

/**
 * A pending create of a kind that writes entries of an existing object (SiteRedirects' rules,
 * AccessList's grants), whose next create refuses any entry there. Adopted only with proof the run
 * made them: exactly the declared entries, each created since the run began (or, for entries GitBook
 * gives no creation time, in a site created since). Entries there otherwise are named for the user.
 */
async function resolveEntries(
  ctx: Ctx,
  base: { urn: string; kind: string; op: string },
  def: Resource,
  inputs: Props,
  decisions: Decisions,
  holds: (id: string) => boolean,
): Promise<Resolution> {
  const found = await def.pending!(ctx, inputs as never);
  if (!found || found.entries.length === 0) return { ...base, action: "drop", why: `GitBook holds no ${found?.what ?? "object for it"}: the next \`pulumi up\` creates it` };
  const named = (why: string): Resolution => ({
    ...base,
    action: "undecided",
    candidates: [{ id: found.id }],
    why: `${why}; ${found.entries.length} ${found.what} there (${found.entries.map((e) => (e.createdAt ? `${e.id}, created ${e.createdAt}` : e.id)).join("; ")}): --adopt takes them over as the program lists them, --drop leaves them and the next \`pulumi up\` refuses to create over them`,
  });
  if (holds(found.id)) return named(`${found.id} is already held by another ${base.kind} in state`);
  if (!found.exact) return named("they are not exactly what the program declares, so nothing proves the interrupted run made them");
  const start = decisions.runStart;
  const began = decisions.began ?? "the run began";
  if (start === undefined) return named("when the interrupted run began is not known (no lock of it left in the backend; give it with --since)");
  const end = decisions.runEnd;
  if (end === undefined) return named("when the interrupted run stopped is not known (its checkpoint says not when it was saved; give it with --until)");
  if (found.entries.every((e) => e.createdAt !== undefined)) {
    if (found.entries.every((e) => againstWindow(e.createdAt, start, end) === "within")) {
      return { ...base, action: "adopt", id: found.id, why: `the ${found.what} are exactly the declared ones, each created after ${began} (${iso(start)}) and before it could create no more (${iso(end)})` };
    }
    return named(`some were created before ${began} (${iso(start)}) or after it could create no more (${iso(end)})`);
  }
  const site = await newSite(ctx, inputs, start, end);
  if (site) return { ...base, action: "adopt", id: found.id, why: `the ${found.what} are exactly the declared ones, in site ${site.id}, itself created ${site.createdAt}, after ${began} (${iso(start)})` };
  return named(`the ${found.what} carry no creation time and the site is not newer than the run, so nothing proves the interrupted run made them`);
}

/**
 * For an object inside a site (section, site space, group, link: kinds GitBook gives no creation time),
 * its site when the site was made while the run could create (againstWindow): nothing in it is older
 * than the site, so each object in it was made since the run began. That bounds the object from below
 * only: one made in that site by the app after the run stopped would look the same, a risk taken
 * because nobody else knows of a site the run made minutes before. Undefined otherwise (an older site
 * says nothing about when what is in it was made).
 */
async function newSite(ctx: Ctx, inputs: Props, runStart: number | undefined, runEnd: number | undefined): Promise<ApiSite | undefined> {
  const { organizationId: org, siteId } = inputs;
  if (runStart === undefined || runEnd === undefined || typeof org !== "string" || typeof siteId !== "string") return undefined;
  const site = await getOrUndefined(ctx.client.get(sitePaths.site(org, siteId), { schema: ApiSite }));
  return site && againstWindow(site.createdAt, runStart, runEnd) === "within" ? site : undefined;
}

/**
 * The resource `r` as the object `p` adopts: its inputs, parent, dependencies and provider reference
 * kept, the object's outputs as the definition reads them, the serialized provider copied as the
 * resource recorded it. Secret outputs are written as plaintext secrets, which `pulumi stack import` encrypts.
 */
async function adopted(ctx: Ctx, p: Extract<Resolution, { action: "adopt" }>, r: StateResource): Promise<StateResource> {
  const def = definitions.get(p.kind)!;
  // Read as the program declared it, live fields included (see DECLARED_KEY), as adoption reads.
  const live = await def.read(ctx, p.id, withDeclaredLive(def.diff.liveFields ?? [], callInputs(r.inputs)) as never);
  if (!live) throw new Error(`${p.kind} ${p.id} (for ${r.urn}) is not in GitBook; adopt an object that exists, or --drop it`);
  // What would force a replacement cannot be converged: the next up would delete the object it adopted.
  const fixed = changedFields(def.diff, live as Props, callInputs(r.inputs)).filter((f) => def.diff.replaceOn.includes(f));
  if (fixed.length > 0) {
    throw new Error(`${p.kind} ${p.id} (for ${r.urn}) has ${fixed.map((f) => `${f}=${JSON.stringify((live as Props)[f] ?? null)}`).join(", ")}, which cannot change in place: adopt one that matches the program, or --drop it`);
  }
  const secret = new Set([...(r.additionalSecretOutputs ?? []), ...def.secretOutputs]);
  const outputs: Props = { ...cleanOutputs(live as Props), __provider: r.inputs?.__provider };
  for (const k of Object.keys(outputs)) if (secret.has(k)) outputs[k] = { ...SECRET_SIG, plaintext: JSON.stringify(outputs[k]) };
  return { ...r, id: p.id, outputs };
}

/** Pulumi's marker for a secret value in a checkpoint. */
const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

/**
 * The checkpoint to import: each adopted object written as its resource (the pending entry's inputs,
 * parent, dependencies and provider reference, the object's outputs as the definition reads them, the
 * serialized provider copied as the resource recorded it), resolved pending operations removed.
 * Secret outputs are written as plaintext secrets, which `pulumi stack import` encrypts.
 */
export async function recoveredCheckpoint(ctx: Ctx, exported: Exported, plan: readonly Resolution[]): Promise<Exported> {
  const resolved = new Map(plan.filter((p) => p.action !== "keep" && p.action !== "undecided").map((p) => [`${p.op}\u0000${p.urn}`, p]));
  const kept: PendingOperation[] = [];
  const added: StateResource[] = [];
  for (const pending of exported.deployment.pending_operations ?? []) {
    const p = resolved.get(`${pending.type}\u0000${pending.resource.urn}`);
    if (!p) {
      kept.push(pending);
      continue;
    }
    if (p.action !== "adopt") continue;
    added.push(await adopted(ctx, p, pending.resource));
  }
  // A pending create of a URN state already has is a replacement's: as the engine does once a
  // replacement exists, the old object is marked for the deletion the replacement planned.
  const replaced = new Set(added.map((r) => r.urn));
  // An unconfirmed create resolved: the resource becomes the object it made, or leaves state.
  const unconfirmed = new Map(plan.filter((p) => p.op === UNCONFIRMED && (p.action === "adopt" || p.action === "drop")).map((p) => [p.urn, p]));
  // An unconfirmed create that was a replacement's: the engine marked the object it replaces for
  // deletion as if the replacement existed, and the next up would delete it first, before anything
  // else (and even if the program no longer asks for the replacement). Dropped, it made nothing: the
  // replaced object is the resource again, and the next up plans the replacement anew, or nothing.
  const restored = new Set<StateResource>();
  for (const p of unconfirmed.values()) {
    if (p.action !== "drop") continue;
    // Only when the mark is unambiguous: with several (an older pending delete as well), which one the
    // replacement was to take is not known, and the engine's marks stand.
    const marked = (exported.deployment.resources ?? []).filter((r) => r.urn === p.urn && r.delete);
    if (marked.length === 1) restored.add(marked[0]!);
  }
  const resources: StateResource[] = [];
  for (const r of exported.deployment.resources ?? []) {
    if (restored.has(r)) {
      const { delete: _marked, ...live } = r;
      resources.push(live);
      continue;
    }
    const p = r.delete || !unconfirmedIn(r.outputs) ? undefined : unconfirmed.get(r.urn);
    if (p?.action === "drop") continue;
    if (p?.action === "adopt") {
      const { initErrors: _errors, ...rest } = await adopted(ctx, p, r);
      resources.push(rest);
      continue;
    }
    resources.push(replaced.has(r.urn) && !r.delete ? { ...r, delete: true } : r);
  }
  const { pending_operations: _all, ...rest } = exported.deployment;
  return {
    ...exported,
    deployment: { ...rest, resources: [...resources, ...added], ...(kept.length > 0 ? { pending_operations: kept } : {}) },
  };
}
