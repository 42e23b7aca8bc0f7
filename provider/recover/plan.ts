/**
 * Resolving what an interrupted `pulumi up` left in the checkpoint (`pulumi stack export`), and creates
 * whose outcome a run could not learn (state.ts, UNCONFIRMED_KEY).
 *
 * A run killed while a create was in flight (SIGKILL, a cancelled CI job) leaves that resource as a
 * pending `creating` operation with its inputs, and GitBook may or may not hold the object. The next
 * `up` would create it again: a duplicate whenever the first request went through. Nothing GitBook
 * says proves who made an object: another stack, a person in the app or the run itself make the same
 * namesakes, and creation times are read on clocks that disagree. So recover decides nothing by itself:
 * for each open operation it lists what could be its object (the kind's `lookalikes`, held by no
 * resource in state and, for an unconfirmed create, absent from the listing taken just before it) and
 * proposes only what needs no proof of authorship: a drop when GitBook holds nothing that could be it,
 * a clear of a pending update or delete. The user's word (`--adopt URN=ID`, `--drop URN`, `--accept`
 * of the proposals, or the program's `adoptId`) is what changes state.
 */
import { GitbookError, NotFoundError } from "../client";
import { NAME_KEY, type Ctx, type Props } from "../framework/resource";
import { UNCONFIRMED_KEY, cleanOutputs, unconfirmedIn, withDeclaredLive, type UnconfirmedCreate } from "../framework/state";
import type { OpenWrite, Resource } from "../framework/define";
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
  delete?: boolean;
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

/** An object that could be what an open operation made: what a person needs to find it in GitBook. */
export interface Candidate {
  id: string;
  /** Its title, name, label or slug (a rule: its source and destination). */
  name?: string;
  /** When GitBook says it made it (its clock): for the person deciding, never a proof. */
  createdAt?: string;
  /** What else is known, e.g. that the listing taken just before the create lacked it. */
  note?: string;
}

/** Who decided: you (--adopt, --drop), the program (its adoptId), or recover's proposal, applied with --accept. */
export type By = "you" | "program" | "proposal";

type Base = { urn: string; kind: string; op: string };

/** What recovery does with one open operation. */
export type Resolution = Base &
  (
    | /** Written into state as this object (for an open write: recorded as the resource's). */ { action: "adopt"; id: string; by: By; why: string; write?: OpenWrite }
    | /** Nothing in GitBook is taken as its: the next `up` creates it. */ { action: "drop"; by: By; why: string; write?: OpenWrite }
    | /** Dropped: the resource stays as state has it; refresh or the next `up` converges it. */ { action: "clear"; by: By; why: string }
    | /** Another provider's pending create: the CLI's to decide (the command then imports nothing). */ { action: "keep"; why: string }
    | /** The user must decide (`--adopt` or `--drop`); nothing is imported until then. */ { action: "undecided"; candidates: Candidate[]; why: string; write?: OpenWrite }
  );

export interface Decisions {
  /** URN -> the IDs the user says its open operations made. */
  adopt: ReadonlyMap<string, readonly string[]>;
  /** URNs the user says made nothing (the next up creates them). */
  drop: ReadonlySet<string>;
}

/** The Resolution `op` of a resource in state whose create is unconfirmed (rather than a pending operation's type). */
export const UNCONFIRMED = "unconfirmed";
/** The Resolution `op` of an object a resource in state wants but has no record of (OpenWrite), outside a pending update. */
export const UNRECORDED = "unrecorded";

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

/** The gitbook resources in state whose create is unconfirmed. */
export function unconfirmedResources(state: readonly StateResource[]): StateResource[] {
  return state.filter((r) => !r.delete && unconfirmedIn(r.outputs) && kindOf(r) !== undefined);
}

/** The resource in state a pending operation of `urn` stands for (not one marked for deletion). */
const live = (state: readonly StateResource[], urn: string) => state.find((r) => r.urn === urn && !r.delete);

/** Whether a resource's recorded outputs hold a write whose create was unconfirmed (an old-path rule's record). */
const hasUnconfirmedWrite = (r: StateResource) => definitions.get(kindOf(r) ?? "")?.openWrites?.unconfirmed(r.outputs ?? {}) === true;

/**
 * What `recover --check` counts, from the checkpoint alone: the pending operations of gitbook
 * resources, the unconfirmed creates, and the resources holding a write whose create was unconfirmed.
 */
export function openOperations(exported: Exported): string[] {
  const state = exported.deployment.resources ?? [];
  return [
    ...(exported.deployment.pending_operations ?? []).filter((p) => kindOf(p.resource)).map((p) => `${p.type} ${p.resource.urn}`),
    ...unconfirmedResources(state).map((r) => `${UNCONFIRMED} ${r.urn}`),
    ...state.filter((r) => !r.delete && hasUnconfirmedWrite(r)).map((r) => `${UNRECORDED} ${r.urn}`),
  ];
}

/** Decides every open operation as far as the user's word and GitBook allow; reads GitBook, writes nothing. */
export async function planRecovery(ctx: Ctx, exported: Exported, decisions: Decisions): Promise<Resolution[]> {
  const state = exported.deployment.resources ?? [];
  const held = heldIds(state);
  const out: Resolution[] = [];
  const add = (res: Resolution) => {
    if (res.action === "adopt") held.add(res.id);
    out.push(res);
  };
  const seen = new Set<string>();
  for (const pending of exported.deployment.pending_operations ?? []) {
    const r = pending.resource;
    const base = { urn: r.urn, op: pending.type };
    const kind = kindOf(r);
    if (!kind) {
      // Another provider's: its create is not this command's to decide; an update or delete is cleared as
      // ours are (and as `pulumi stack import` clears every pending operation).
      if (pending.type === "creating" && decisions.drop.has(r.urn)) add({ ...base, kind: r.type, action: "drop", by: "you", why: "another provider's, --drop: the next `pulumi up` creates it" });
      else if (pending.type === "creating") add({ ...base, kind: r.type, action: "keep", why: "not a pulumi-gitbook resource: whether its create made anything is for you to check (--drop it if not, or to bring it in with `pulumi import`)" });
      else add({ ...base, kind: r.type, action: "clear", by: "proposal", why: `not a pulumi-gitbook resource; it stays as state records it (the ${verb(pending.type)} may or may not have happened): \`pulumi refresh\` converges it` });
      continue;
    }
    if (pending.type === "creating") {
      add(await lookedFor({ ...base, kind }, () => resolveCreate(ctx, { ...base, kind }, r, held, decisions, state)));
      continue;
    }
    const recorded = live(state, r.urn);
    const def = definitions.get(kind);
    if (pending.type === "updating" && def?.openWrites && recorded) {
      seen.add(r.urn);
      // No open write: an update like any other, cleared below.
      const resolved = [await lookedFor({ ...base, kind }, async () => writes({ ...base, kind }, await def.openWrites!.find(ctx, recorded.outputs ?? {}, callInputs(r.inputs), held), decisions))].flat();
      resolved.forEach(add);
      if (resolved.length > 0) continue;
    }
    add({ ...base, kind, action: "clear", by: "proposal", why: `the resource stays as state records it (the ${verb(pending.type)} may or may not have happened): \`pulumi refresh\` or the next \`pulumi up\` converges it` });
  }
  for (const r of unconfirmedResources(state)) {
    const base = { urn: r.urn, kind: kindOf(r)!, op: UNCONFIRMED };
    add(await lookedFor(base, () => resolveCreate(ctx, base, r, held, decisions, state, unconfirmedIn(r.outputs))));
  }
  // Writes a resource in state wants but has no record of: one whose create was unconfirmed, or one the
  // user names (the refusal of an update names the command: its interrupted run's pending update gone).
  for (const r of state) {
    const def = definitions.get(kindOf(r) ?? "");
    if (r.delete || seen.has(r.urn) || !def?.openWrites || unconfirmedIn(r.outputs)) continue;
    if (!hasUnconfirmedWrite(r) && !decisions.adopt.has(r.urn) && !decisions.drop.has(r.urn)) continue;
    const base = { urn: r.urn, kind: def.kind, op: UNRECORDED };
    for (const res of [await lookedFor(base, async () => writes(base, await def.openWrites!.find(ctx, r.outputs ?? {}, undefined, held), decisions))].flat()) add(res);
  }
  return out;
}

const verb = (op: string) => op.replace(/ing$/, "e");

/**
 * `decide`, with a read that fails named for its resource rather than ending recover: the other
 * resources are still decided. A 404 says what the create was made in (a site, a section) is gone, or
 * out of the token's sight: the message gives the fix for each.
 */
async function lookedFor<R extends Resolution | Resolution[]>(base: Base, decide: () => Promise<R>): Promise<R | Resolution> {
  try {
    return await decide();
  } catch (e) {
    if (!(e instanceof GitbookError)) throw e;
    const fix =
      e instanceof NotFoundError
        ? "What it was made in was not found: if it was deleted, so was anything made in it, and --drop it (the next `pulumi up` creates it as the program says, or fails naming what is missing); if it is there, check that gitbook:token can see it"
        : "Run recover again once GitBook answers, or decide it with --adopt <URN>=<ID> or --drop <URN>";
    return { ...base, action: "undecided", candidates: [], why: `what it may have made could not be looked for (${e.message}). ${fix}` };
  }
}

/** Each open write of a resource, decided by the user's word, or proposed dropped when nothing could be it. */
function writes(base: Base, open: OpenWrite[], decisions: Decisions): Resolution[] {
  return open.map((write) => {
    const given = decisions.adopt.get(base.urn)?.find((id) => write.candidates.some((c) => c.id === id));
    if (given) return { ...base, action: "adopt", id: given, by: "you", why: `${write.what}: named by --adopt`, write };
    if (decisions.drop.has(base.urn)) return { ...base, action: "drop", by: "you", why: `${write.what}: --drop, the next \`pulumi up\` makes it`, write };
    if (write.candidates.length === 0) return { ...base, action: "drop", by: "proposal", why: `${write.what}: GitBook holds none that could be it, so the next \`pulumi up\` makes it`, write };
    return { ...base, action: "undecided", candidates: write.candidates, why: `${write.what}: ${UNPROVABLE}`, write };
  });
}

const UNPROVABLE = "nothing proves which of these (if any) it made: another stack, a person in the app or the run itself make the same, at any time";

async function resolveCreate(
  ctx: Ctx,
  base: Base,
  r: StateResource,
  held: Set<string>,
  decisions: Decisions,
  state: readonly StateResource[],
  unconfirmed?: UnconfirmedCreate,
): Promise<Resolution> {
  const def = definitions.get(base.kind);
  if (!def) return { ...base, action: "undecided", candidates: [], why: `unknown kind ${base.kind} (state written by a newer pulumi-gitbook?): upgrade the package` };
  const inputs = callInputs(r.inputs);
  // A kind holding entries of another object shares its ID with that object's resource: only another
  // resource of the same kind holds what it would.
  const holds = (id: string) => (def.pending ? state.some((x) => x.id === id && !x.delete && kindOf(x) === base.kind) : held.has(id));
  const named = decisions.adopt.get(r.urn)?.[0];
  const given = named ?? (typeof inputs.adoptId === "string" && inputs.adoptId ? inputs.adoptId : undefined);
  if (given !== undefined) {
    if (holds(given)) return { ...base, action: "undecided", candidates: [], why: `${given} is already held by a resource in state: adopt another object, or --drop this one` };
    return { ...base, action: "adopt", id: given, by: named ? "you" : "program", why: named ? "named by --adopt" : "the program's adoptId" };
  }
  if (decisions.drop.has(r.urn)) return { ...base, action: "drop", by: "you", why: "--drop: the next `pulumi up` creates it" };
  if (def.pending) {
    const found = await def.pending(ctx, inputs as never);
    if (!found || found.entries.length === 0) return { ...base, action: "drop", by: "proposal", why: `GitBook holds no ${found?.what ?? "object for it"}: the next \`pulumi up\` creates it` };
    const entries = found.entries.map((e) => (e.createdAt ? `${e.id} (created ${e.createdAt})` : e.id)).join("; ");
    return {
      ...base,
      action: "undecided",
      candidates: [{ id: found.id, note: `${found.entries.length} ${found.what}${found.exact ? ", exactly the declared ones" : ", not exactly the declared ones"}: ${entries}` }],
      why: `${UNPROVABLE}. --adopt takes them over as the program lists them; --drop leaves them, and the next \`pulumi up\` refuses to create over them`,
    };
  }
  if (!def.lookalikes) return { ...base, action: "drop", by: "proposal", why: "its create sets the object with a request that may be sent again: the next `pulumi up` sends it" };
  const look = def.lookalikes(ctx, inputs as never);
  const before = new Set(unconfirmed?.before ?? []);
  const free = (await look.candidates()).filter((c) => !held.has(c.id) && !before.has(c.id));
  if (free.length === 0) return { ...base, action: "drop", by: "proposal", why: `GitBook holds no ${look.what} that no resource in state holds: the next \`pulumi up\` creates it` };
  const candidates = free.map((c): Candidate => {
    const o = c as Record<string, unknown>;
    const name = [o.title, o.label, o.name, o.slug].find((v) => typeof v === "string") as string | undefined;
    const at = look.createdAt?.(c);
    return {
      id: c.id,
      ...(name !== undefined ? { name } : {}),
      ...(at ? { createdAt: String(at) } : {}),
      ...(unconfirmed?.before ? { note: `absent from the listing taken just before the create was sent (${unconfirmed.sentAt})` } : {}),
    };
  });
  return { ...base, action: "undecided", candidates, why: `${free.length === 1 ? "one" : free.length} ${look.what} that no resource in state holds: ${UNPROVABLE}` };
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
 * The checkpoint to import, once every open operation is decided: each pending create adopted written
 * as its resource (adopted), every pending operation removed but another provider's kept create, an
 * unconfirmed create made the object it made or removed, an open write recorded or dropped in its
 * resource's outputs.
 */
export async function recoveredCheckpoint(ctx: Ctx, exported: Exported, plan: readonly Resolution[]): Promise<Exported> {
  const state = exported.deployment.resources ?? [];
  const kept = (exported.deployment.pending_operations ?? []).filter((pending) => plan.some((p) => p.action === "keep" && p.urn === pending.resource.urn && p.op === pending.type));
  const added: StateResource[] = [];
  for (const p of plan) {
    const pending = exported.deployment.pending_operations?.find((o) => o.type === "creating" && o.resource.urn === p.urn);
    if (p.op === "creating" && p.action === "adopt" && pending) added.push(await adopted(ctx, p, pending.resource));
  }
  // A pending create of a URN state already has is a replacement's: as the engine does once a
  // replacement exists, the old object is marked for the deletion the replacement planned.
  const replaced = new Set(added.map((r) => r.urn));
  const unconfirmed = new Map(plan.filter((p) => p.op === UNCONFIRMED).map((p) => [p.urn, p]));
  // An unconfirmed create that was a replacement's: the engine marked the object it replaces for
  // deletion as if the replacement existed, and the next up would delete it first, before anything
  // else (and even if the program no longer asks for the replacement). Dropped, it made nothing: the
  // replaced object is the resource again, and the next up plans the replacement anew, or nothing.
  // Only when the mark is unambiguous: with several (an older pending delete as well), which one the
  // replacement was to take is not known, and the engine's marks stand.
  const restored = new Set<StateResource>();
  for (const p of unconfirmed.values()) {
    const marked = state.filter((r) => r.urn === p.urn && r.delete);
    if (p.action === "drop" && marked.length === 1) restored.add(marked[0]!);
  }
  const writes = plan.filter((p): p is Extract<Resolution, { action: "adopt" | "drop" }> => (p.action === "adopt" || p.action === "drop") && p.write !== undefined);
  const resources: StateResource[] = [];
  for (const r of state) {
    if (restored.has(r)) {
      const { delete: _marked, ...rest } = r;
      resources.push(rest);
      continue;
    }
    const p = r.delete || !unconfirmedIn(r.outputs) ? undefined : unconfirmed.get(r.urn);
    if (p?.action === "drop") continue;
    if (p?.action === "adopt") {
      const { initErrors: _errors, ...rest } = await adopted(ctx, p, r);
      resources.push(rest);
      continue;
    }
    if (r.delete) {
      resources.push(r);
      continue;
    }
    let outputs = r.outputs ?? {};
    for (const w of writes.filter((w) => w.urn === r.urn)) outputs = w.action === "adopt" ? w.write!.adopt(outputs, w.id) : w.write!.drop(outputs);
    resources.push(replaced.has(r.urn) ? { ...r, outputs, delete: true } : { ...r, outputs });
  }
  const { pending_operations: _all, ...rest } = exported.deployment;
  return {
    ...exported,
    deployment: { ...rest, resources: [...resources, ...added], ...(kept.length > 0 ? { pending_operations: kept } : {}) },
  };
}
