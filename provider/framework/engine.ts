/**
 * Runs one provider call for one resource kind: the bridge between the host's dynamic-provider
 * protocol and a Resource. Everything resource-independent about Pulumi's contract lives here:
 * `{}` from read when the object is gone, inputs returned from read so refresh shows drift, outputs
 * free of undefined, `__provider` kept on partial failures, the token checked before any request.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ConfigSource, ProviderRuntime } from "../config";
import { checkInputs, isUnknown } from "./check";
import { claimsOf, partsOf } from "./claims";
import { changedFields, diffProps, releasedFields } from "./diff";
import { refuseCascade, refuseReplacedPages } from "./cascade";
import type { Resource } from "./define";
import { explainFailure, PartialFailure, resourceLabel } from "./failure";
import { NAME_KEY, type Ctx, type Props } from "./resource";
import { unresolvedReferences } from "./shown";
import { ADOPT_KEY, DECLARED_KEY, UNCONFIRMED_ID_PREFIX, UNCONFIRMED_KEY, WROTE_KEY, asDeclared, cleanOutputs, declaredLive, pickInputs, unconfirmedIn, withDeclaredLive } from "./state";
import { UNCONFIRMED_FIX, UnconfirmedCreateError } from "./createOnce";
import { OrganizationError } from "../client";
import { describeInstallation, siteConfigPath, siteInstallation, structureRefusal } from "./gitSync";

function ctx(rt: ProviderRuntime): Ctx {
  return { client: rt.client(), config: rt.config() };
}

function schemaFields(def: Resource): string[] {
  return Object.keys(def.schema.shape);
}

function withProvider(def: Resource, e: unknown, from: Props, before?: Props): unknown {
  if (e instanceof PartialFailure) {
    e.properties = cleanOutputs({ ...e.properties, ...wroteBy(def, from, before), ...shownIn(def, from), ...nameOf(from), __provider: from.__provider });
  }
  return e;
}

/**
 * The record of the entries a kind with lists wrote (see WROTE_KEY): after a create or an update, the
 * ones the program lists; after one that failed part way (`before`: the outputs it started from), those
 * and the ones written before, some of which may still be there.
 */
function wroteBy(def: Resource, given: Props, before?: Props): Props {
  if (!def.listed) return {};
  const prior = before === undefined ? [] : Array.isArray(before[WROTE_KEY]) ? (before[WROTE_KEY] as string[]) : def.listed(before);
  return { [WROTE_KEY]: [...new Set([...prior, ...def.listed(given)])] };
}

/**
 * What plans only show (FieldRule `display`, e.g. `names`): a create or update never sees it, so no
 * kind can send it; the engine puts it back into the outputs, so state records it and refresh keeps it.
 */
function shownIn(def: Resource, p: Props): Props {
  const out: Props = {};
  for (const f of def.display) if (p[f] !== undefined) out[f] = p[f];
  return out;
}

/** The inputs a resource's create or update is given: without bookkeeping and what plans only show. */
function forResource(def: Resource, p: Props): Props {
  const out = stripProvider(p);
  for (const f of def.display) delete out[f];
  return out;
}

/**
 * The program's name for the resource, kept in its outputs too: read sees only the outputs, and hands
 * the name back with the inputs, so a refresh leaves the recorded inputs as they were (and an error
 * in refresh or destroy names the resource as the program does).
 */
function nameOf(p: Props): Props {
  return typeof p[NAME_KEY] === "string" ? { [NAME_KEY]: p[NAME_KEY] } : {};
}

/** Fails at configure when a setting is malformed, naming it; every later call fails the same way (see config.ts). */
export async function configure(rt: ProviderRuntime, req: { config?: ConfigSource } | undefined): Promise<void> {
  rt.configure(req?.config);
  rt.config();
}

/**
 * `olds` are the inputs state recorded for the resource: empty when it is not in state yet. Only then
 * does `adoptId` mean anything; once the resource exists it moves out of the inputs (under ADOPT_KEY,
 * which nothing compares or sends), so changing it later changes nothing, and a replacement the engine
 * forces (`--replace`), which keeps these inputs, creates a new object. A replacement diff plans is
 * checked again by the engine without the old inputs, so its create would see `adoptId` and could
 * adopt the very object it replaces: diff refuses such a replacement while `adoptId` is set, reading
 * ADOPT_KEY, so no create ever has to know whether it is a replacement.
 */
export async function check(rt: ProviderRuntime, def: Resource, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const checked = checkInputs(def.schema, news, rt.config(), def.kind, unresolvedReferences(news));
  if (checked.failures.length) return { inputs: news, failures: checked.failures };
  const prepared = def.prepare ? def.prepare(checked.inputs, inState(olds) ? olds : undefined) : { inputs: checked.inputs };
  if ("failures" in prepared) return { inputs: news, failures: prepared.failures };
  const inputs = prepared.inputs;
  const wrongOrganization = await organizationProblem(rt, def, olds, inputs);
  if (wrongOrganization) return { inputs: news, failures: [{ property: "organizationId", reason: wrongOrganization }] };
  const synced = await syncedStructure(rt, def, olds, inputs);
  if (synced) return { inputs: news, failures: [{ property: "siteId", reason: synced }] };
  if (inState(olds) && inputs.adoptId !== undefined) {
    inputs[ADOPT_KEY] = inputs.adoptId;
    delete inputs.adoptId;
  }
  // The resource's name, for messages: kept beside the inputs, never compared or sent.
  if (typeof news[NAME_KEY] === "string") inputs[NAME_KEY] = news[NAME_KEY];
  // The host encodes no `undefined` (Struct.fromJavaScript throws "Unexpected struct type."), which a
  // field's parse may give (a display field's value it cannot read is dropped as undefined).
  return { inputs: cleanOutputs(inputs) };
}

/**
 * Why the organization the resource names cannot be used, at the first check of this process that will
 * send something under it: a resource not in state yet (a create or an adoption), or one whose update
 * sends something (not only provider-local settings or released live fields). GitBook is asked once per
 * process and organization (GitbookClient.checkOrganization), and the host serves every call of one
 * engine operation from one process, so a wrong `gitbook:organizationId` (or a token of another
 * organization) fails the preview once, at its first resource, where `up` reported it once per
 * resource; so does a question that fails otherwise, which every request would meet too. It costs one
 * GET per process that changes something (a preview, an up's preview and its update: two), and a run
 * that changes nothing (a no-op `up`, a refresh, a destroy) asks nothing. Undefined without a token (a
 * preview then compares with state only).
 */
async function organizationProblem(rt: ProviderRuntime, def: Resource, olds: Props, inputs: Props): Promise<string | undefined> {
  const org = inputs.organizationId;
  if (typeof org !== "string" || isUnknown(org)) return undefined;
  if (inState(olds) && !sendsAnything(def, changedFields(def.diff, olds, inputs), inputs)) return undefined;
  const problem = await knownCtx(rt)?.client.checkOrganization(org);
  if (problem === undefined) return undefined;
  if (problem instanceof OrganizationError) return problem.message;
  // Every request under it would meet this too (no connection, a revoked token, a wrong gitbook:apiUrl):
  // said once here, where the run would have said it once per resource.
  return `GitBook could not be asked whether this token sees organization ${JSON.stringify(org)}, so nothing else is sent: ${problem instanceof Error ? problem.message : String(problem)}`;
}

/**
 * Why a structure resource may not write to its site: a Git Sync installation owns the site's
 * structure (gitSync.ts). Asked when the resource would send something, as the organization is.
 */
async function syncedStructure(rt: ProviderRuntime, def: Resource, olds: Props, inputs: Props): Promise<string | undefined> {
  const { organizationId: org, siteId: site } = inputs;
  if (!def.structure || typeof org !== "string" || typeof site !== "string" || isUnknown(site)) return undefined;
  if (inState(olds) && !sendsAnything(def, changedFields(def.diff, olds, inputs), inputs)) return undefined;
  const c = knownCtx(rt);
  return c && structureRefusal(c, def.kind, org, site);
}

/** Whether an update of these changed fields sends anything: not when each is a provider-local setting or a live field the program released (diff.ts). */
function sendsAnything(def: Resource, changed: readonly string[], news: Props): boolean {
  const released = releasedFields(def.diff, changed, news);
  return changed.some((f) => !released.includes(f) && !(def.diff.localFields ?? []).includes(f));
}

/** Whether check's `olds` are a resource's recorded inputs (anything but engine bookkeeping). */
function inState(olds: Props | undefined): boolean {
  return !!olds && Object.keys(olds).some((k) => k !== "__provider");
}

/** The run's context when a token is configured; a preview without one still diffs, and needs none. */
function knownCtx(rt: ProviderRuntime): Ctx | undefined {
  return rt.config().token ? ctx(rt) : undefined;
}

/**
 * Records that a resource of this deployment holds the object (see claims.ts); `declaring`, the
 * props of a resource of the program that declares it, which name it and tell the parts it manages.
 */
function hold(rt: ProviderRuntime, def: Resource, id: string, props: Props, declaredInProgram: boolean, declaring?: Props): void {
  const c = knownCtx(rt);
  if (c) claimsOf(c.client).hold(def.kind, id, stripProvider(props), declaredInProgram, declaring && declarer(def, declaring));
}

/** The program's name of the resource with these props, and the parts of its object it manages (ResourceSpec.parts). */
function declarer(def: Resource, props: Props): { name: string; parts: readonly string[] } | undefined {
  const name = props[NAME_KEY];
  return typeof name === "string" && name ? { name, parts: partsOf(def, props) } : undefined;
}

/** Another resource of the program declaring, in this run, a part of the object the resource with these props manages. */
function sharing(def: Resource, c: Ctx, id: string, props: Props): string | undefined {
  const mine = partsOf(def, props);
  for (const [other, parts] of claimsOf(c.client).declaredByOthers(def.kind, id, props[NAME_KEY])) if (parts.some((p) => mine.includes(p))) return other;
  return undefined;
}

/**
 * Two resources of the program over one object (two with the same adoptId, or one adopting what
 * another holds in state) would overwrite each other's settings on every run, and deleting either
 * would delete it for both: refused, whichever of the two this process sees second (for a kind whose
 * resources share IDs, when they declare a part of the object in common: ResourceSpec.parts). It rests
 * on what this process saw of the run (claims.ts): it only ever refuses, never permits.
 */
function refuseSharedObject(def: Resource, c: Ctx, id: string, props: Props, adopting: boolean): void {
  if (!("adoptId" in def.schema.shape)) return;
  const other = sharing(def, c, id, props);
  if (other === undefined) return;
  const what = adopting
    ? `adoptId: "${id}" names the object ${def.kind} ${other} of this stack manages`
    : `${def.kind} ${other} of this stack also manages ${id}, this resource's object (it took it over with adoptId in this run)`;
  // Which one to let go of, and how: the adopting one refused here never was in state; one that
  // adopted before this one's diff came may be in state beside it now (an order the program's check,
  // singleton.ts adoptsOnce, rules out when both name the object by adoptId).
  const fix = adopting
    ? `Keep one of them: remove this resource (or its adoptId); to move the object to it, set retainOnDelete: true on ${def.kind} ${other} and run up, then remove ${other} from the program (or rename the resource with aliases).`
    : `State may now hold both: keep one of them, and before removing ${other} (or this resource) from the program, set retainOnDelete: true on it and run up, or its delete would delete the object for both.`;
  throw new Error(`${def.kind}: ${what}: two resources of one object would overwrite each other's settings on every run, and deleting either would delete it for both. ${fix} Nothing was changed.`);
}

export async function diff(rt: ProviderRuntime, def: Resource, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  // (A refresh diffs too, after its read, which refuses first: see read.)
  refuseUnconfirmed(rt, def, id, olds, news);
  const d = diffProps(def.diff, olds, news);
  if (d.replaces.length > 0 && typeof news[ADOPT_KEY] === "string") {
    throw explainFailure(
      def,
      news,
      id,
      new Error(
        `${def.kind}: adoptId: ${d.replaces.join(", ")} changed, which replaces the resource (a new object is created and ${id} deleted), and adoptId is still set ("${news[ADOPT_KEY]}"). ` +
          "Remove adoptId from the program (it is used only when the resource is first created; in a replacement it would name the object being replaced) and run again. Nothing was changed.",
      ),
    );
  }
  const c = knownCtx(rt);
  // Pages first (a preview without a token reads nothing): their refusal names every fix, allowReplacement's too.
  try {
    if (c) await refuseReplacedPages(def, c, id, olds, d.replaces);
  } catch (e) {
    throw explainFailure(def, news, id, e);
  }
  const refused = refusedReplacement(def, id, d.replaces, news);
  if (refused) throw explainFailure(def, news, id, new Error(refused));
  if (c) {
    try {
      refuseSharedObject(def, c, id, news, false);
    } catch (e) {
      throw explainFailure(def, news, id, e);
    }
    claimsOf(c.client).hold(def.kind, id, stripProvider(olds), true, declarer(def, news));
  }
  return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
}

/**
 * Why a plan may not replace this object, or undefined when it may. Replacing an object that holds
 * content deletes it with that content (a space's pages go to GitBook's trash), so it is never a
 * line among others in a preview: the diff fails, before any request, until the program opts in.
 */
function refusedReplacement(def: Resource, id: string, replaces: readonly string[], news: Props): string | undefined {
  if (!def.holds || replaces.length === 0 || news.allowReplacement === true) return undefined;
  const fields = replaces.join(", ");
  return (
    `${fields}: this change replaces the ${def.kind}: GitBook cannot make it in place, so the plan would delete ${def.kind} ${id} ` +
    `(${def.holds} going with it to GitBook's trash) and create an empty one. Nothing was changed. Put ${fields} back to keep it; ` +
    `to replace it all the same, set allowReplacement: true on this resource for that run.`
  );
}

export async function create(rt: ProviderRuntime, def: Resource, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  try {
    const name = inputs[NAME_KEY];
    const c: Ctx = { ...ctx(rt), ...(typeof name === "string" && name ? { name } : {}) };
    const adoptId = inputs.adoptId;
    // Never a replacement's: diff refuses a replacement while adoptId is set (see check).
    if (typeof adoptId === "string" && adoptId) {
      refuseSharedObject(def, c, adoptId, inputs, true);
      const live = await def.read(c, adoptId, withDeclaredLive(def.diff.liveFields ?? [], stripProvider(inputs)));
      if (!live) throw adoptTargetMissing(def.kind, adoptId);
      // What would force a replacement cannot be converged by an update: adopting would record a lie.
      const changed = changedFields(def.diff, live, inputs);
      const fixed = changed.filter((f) => def.diff.replaceOn.includes(f));
      if (fixed.length > 0) {
        const has = fixed.map((f) => `${f}=${JSON.stringify(live[f] ?? null)}`).join(", ");
        throw new Error(
          `${def.kind}: adoptId "${adoptId}" names an object with ${has}, which cannot change in place, so it cannot be adopted as the program declares it. ` +
            `Adopt one that matches the program's ${fixed.join(", ")}, or remove adoptId to create a new object. Nothing was changed.`,
        );
      }
      // Again, now that the read is back: another resource of the run may have claimed the object
      // while it was out (its diff, under load). The check and the hold below run with no await
      // between them, as the diff's do, so of two resources over one object one is always refused.
      refuseSharedObject(def, c, adoptId, inputs, true);
      hold(rt, def, adoptId, live, true, inputs);
      const outs = await def.update(c, adoptId, live, forResource(def, inputs), changed);
      hold(rt, def, adoptId, outs, true, inputs);
      return { id: adoptId, outs: cleanOutputs({ ...outs, ...wroteBy(def, inputs), ...shownIn(def, inputs), ...nameOf(inputs) }) };
    }
    const { id, outs } = await def.create(c, forResource(def, inputs));
    hold(rt, def, id, outs, true, inputs);
    return { id, outs: cleanOutputs({ ...outs, ...wroteBy(def, inputs), ...shownIn(def, inputs), ...nameOf(inputs) }) };
  } catch (e) {
    const failed = e instanceof UnconfirmedCreateError ? unconfirmed(e) : e;
    if (failed instanceof PartialFailure) hold(rt, def, failed.id, failed.properties, true, inputs);
    throw explainFailure(def, inputs, undefined, withProvider(def, failed, inputs));
  }
}

/**
 * A create that may have made an object no one can find yet, as a partial failure: the engine keeps
 * the resource in state under a placeholder ID with the record recover needs (state.ts, UNCONFIRMED_KEY).
 */
function unconfirmed(e: UnconfirmedCreateError): PartialFailure {
  const id = `${UNCONFIRMED_ID_PREFIX}${Date.parse(e.sentAt)}-${Math.random().toString(36).slice(2, 8)}`;
  return new PartialFailure(id, { [UNCONFIRMED_KEY]: { sentAt: e.sentAt, before: e.before } }, [`${e.message} ${UNCONFIRMED_FIX}`]);
}

/**
 * Every call on a resource whose create is unconfirmed refuses, sending nothing, until recover resolves
 * it (see UNCONFIRMED_KEY). The placeholder is held under the resource's name first, so that a delete
 * of the object it may replace is refused in this run too (see unconfirmedReplacement).
 */
function refuseUnconfirmed(rt: ProviderRuntime, def: Resource, id: string, recorded: Props, props: Props): void {
  const u = unconfirmedIn(recorded);
  if (!u) return;
  hold(rt, def, id, recorded, true, props);
  const why = `${def.kind}: its create, sent ${u.sentAt}, got no answer, and what it may have made could not be looked for, so GitBook may hold an object of this resource that state does not name.`;
  throw explainFailure(def, props, id, new Error(`${why} Nothing was sent. ${UNCONFIRMED_FIX}`));
}

export async function read(rt: ProviderRuntime, def: Resource, id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  // No object to read yet. Refused, which keeps the resource as state has it for recover (an empty
  // answer would drop it from state, and the next up would create a second object).
  refuseUnconfirmed(rt, def, id, props, props);
  let live: Props | undefined;
  try {
    live = await def.read(ctx(rt), id, stripProvider(props));
  } catch (e) {
    throw explainFailure(def, props, id, e);
  }
  if (def.structure && (!live || changedFields(def.diff, props, live).length > 0)) await explainSyncedDrift(rt, def, id, props);
  // An empty result is how a dynamic provider tells the engine the object is gone.
  if (!live) return {};
  hold(rt, def, id, live, false);
  // What the resource wrote is its own record, not the object's: kept as state has it.
  const outs = cleanOutputs({ ...live, ...(props[WROTE_KEY] !== undefined ? { [WROTE_KEY]: props[WROTE_KEY] } : {}), ...nameOf(props) });
  // Only what the program declares: an undeclared live field's output is not an input (see DECLARED_KEY).
  const inputs = pickInputs(schemaFields(def), asDeclared(def.diff.liveFields ?? [], outs), def.diff.nullValues);
  // Picked from the outputs, already plain JSON: no second cleanOutputs.
  return { id, props: outs, inputs: { ...inputs, ...nameOf(props) } } as pulumi.dynamic.ReadResult;
}

export async function update(rt: ProviderRuntime, def: Resource, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  refuseUnconfirmed(rt, def, id, olds, news);
  const local = def.diff.localFields ?? [];
  const live = def.diff.liveFields ?? [];
  const all = changedFields(def.diff, olds, news);
  // A live field the program no longer declares (diff.ts): nothing is sent for it, and the outputs stop
  // listing it as declared, so that refresh leaves it out of the inputs (see DECLARED_KEY).
  const released = releasedFields(def.diff, all, news);
  const changed = all.filter((f) => !released.includes(f));
  if (all.length > 0 && !sendsAnything(def, all, news)) {
    // Only provider-local settings changed, or live fields were released: nothing to send; state records them for later calls.
    const outs: Props = { ...forResource(def, olds), ...shownIn(def, news), ...nameOf(news) };
    for (const f of local) {
      if (news[f] === undefined) delete outs[f];
      else outs[f] = news[f];
    }
    if (released.length > 0) outs[DECLARED_KEY] = declaredLive(live, olds).filter((f) => !released.includes(f));
    return { outs: cleanOutputs(outs) };
  }
  try {
    // adoptId, kept aside once the resource is in state (see check), goes to the kind's update while the
    // program still sets it: what a field the resource starts to declare takes over (an AccessList's
    // added list) is taken only with it, as at create. Nothing else reads it there.
    const given = forResource(def, news);
    if (typeof news[ADOPT_KEY] === "string") given.adoptId = news[ADOPT_KEY];
    const outs = await def.update(ctx(rt), id, stripProvider(olds), given, changed);
    hold(rt, def, id, outs, true, news);
    return { outs: cleanOutputs({ ...forResource(def, outs), ...wroteBy(def, news), ...shownIn(def, news), ...nameOf(news) }) };
  } catch (e) {
    if (e instanceof PartialFailure) hold(rt, def, id, e.properties, true, news);
    throw explainFailure(def, news, id, withProvider(def, e, news, olds));
  }
}

export async function remove(rt: ProviderRuntime, def: Resource, id: string, props: Props): Promise<void> {
  refuseUnconfirmed(rt, def, id, props, props);
  const c = ctx(rt);
  // The program took the object over under another name in this run (a resource renamed, the new one
  // given adoptId; a singleton declared anew): the engine deletes the old resource after creating the
  // new one, and its delete would remove (or clear) what the new one just recorded. When other
  // resources manage every part this one did, it leaves the object to them. This rests on this
  // process's memory of the run: a delete served by another provider process goes ahead, which is why
  // the README and the refusal below tell users to set retainOnDelete on the old resource first.
  unconfirmedReplacement(def, c, id, props);
  const heirs = takenOver(def, c, id, props);
  if (heirs) {
    // Shown with the run's output (the engine relays the provider host's stderr): the plan said "delete".
    process.stderr.write(`pulumi-gitbook: ${resourceLabel(def.kind, props, id)}: ${id} is left in GitBook, not deleted: ${heirs.map((n) => `${def.kind} ${n}`).join(", ")} of this stack manages it now.\n`);
    return;
  }
  try {
    await refuseCascade(def, c, id, props);
    await def.delete(c, id, stripProvider(props));
  } catch (e) {
    throw explainFailure(def, props, id, e);
  }
  claimsOf(c.client).release(def.kind, id);
}

/**
 * The engine deletes the object a replacement replaces once the replacement's create has ended, and it
 * takes an unconfirmed create (a partial failure, under a placeholder ID) as ended: under
 * `--continue-on-error` it deletes the old object in the same run, or in the next run that reaches the
 * placeholder. Refused while this process knows the same resource (the program's name and kind) holds
 * an unconfirmed placeholder: its create in this run, or a call this run refused on it. The engine serves
 * one operation from one process, and the placeholder's create or check comes before the deletes. A
 * delete served by another process goes ahead, so recover's drop, which takes the engine's mark back,
 * remains the way that keeps the old object.
 */
function unconfirmedReplacement(def: Resource, c: Ctx, id: string, props: Props): void {
  const name = props[NAME_KEY];
  if (typeof name !== "string" || !name || id.startsWith(UNCONFIRMED_ID_PREFIX)) return;
  const placeholder = claimsOf(c.client).declaredBy(def.kind, name).find((x) => x.startsWith(UNCONFIRMED_ID_PREFIX));
  if (!placeholder) return;
  throw explainFailure(
    def,
    props,
    id,
    new Error(
      `${def.kind}: ${id} is not deleted: the resource's replacement was created in this run, but its create is unconfirmed (kept in state as ${placeholder}), so GitBook may hold no replacement. Nothing was sent. ${UNCONFIRMED_FIX} Once recover has adopted the replacement, the next up deletes this object; once it has dropped it, the object stays.`,
    ),
  );
}

/**
 * A structure resource that refresh found changed, on a site a Git Sync installation owns: the change
 * is the sync's (gitbook-docs.yaml), and the next `up` is refused; said with the run's output (the
 * engine relays the provider host's stderr). A failed read says nothing: refresh goes on.
 */
async function explainSyncedDrift(rt: ProviderRuntime, def: Resource, id: string, props: Props): Promise<void> {
  const { organizationId: org, siteId: site } = props;
  if (typeof org !== "string" || typeof site !== "string") return;
  const g = await siteInstallation(ctx(rt), org, site).catch(() => undefined);
  if (!g) return;
  process.stderr.write(
    `pulumi-gitbook: ${resourceLabel(def.kind, props, id)}: changed or removed in GitBook because site ${site}'s structure is synced from ${siteConfigPath(g.projectDirectory)} by ${describeInstallation(g)}; the next up refuses to write it back. Manage it in that file (and take the resource out of the program), or remove the installation.\n`,
  );
}

/** The other resources of the program that declare, in this run, every part of the object this resource (leaving it) manages; undefined when they do not. */
function takenOver(def: Resource, c: Ctx, id: string, props: Props): string[] | undefined {
  const others = claimsOf(c.client).declaredByOthers(def.kind, id, props[NAME_KEY]);
  const covered = others.size > 0 && partsOf(def, props).every((p) => [...others.values()].some((parts) => parts.includes(p)));
  return covered ? [...others.keys()] : undefined;
}

/** The inputs or outputs without what the engine and the resource class add for themselves. */
function stripProvider(p: Props): Props {
  const { __provider: _provider, [NAME_KEY]: _name, [ADOPT_KEY]: _adopt, ...rest } = p;
  return rest;
}

/** Error for an `adoptId` naming nothing. */
function adoptTargetMissing(kind: string, id: string): Error {
  return new Error(`${kind}: adoptId "${id}" names no existing object in this organization; remove adoptId to create a new one.`);
}
