/**
 * The steps every resource's CRUD is made of, written once: the creating request's body, finishing a
 * create with the writes its POST cannot carry, refreshing recorded outputs from an object, the PATCH
 * body of an update and the update itself, and the error for an object gone from under its state.
 */
import type { z } from "zod";
import type { Inputs, Outputs, Resource } from "./define";
import { PartialFailure, settingsFailed } from "./failure";
import { patchBody, type PatchRules } from "./patch";
import { isUnknown } from "./check";
import type { Props } from "./resource";
import { asDeclared, declared, refreshDeclared } from "./state";

/**
 * After the create request: the follow-up writes (the one PATCH for what POST cannot carry, a
 * default to set), each reporting the object as it now is through `advance`. When one fails, the
 * object exists all the same: the resource is kept in state (a partial failure) with what the object
 * really has, and the next `up` converges the rest.
 */
export async function finishCreate<S extends z.ZodObject, OS extends z.ZodObject, T extends { id: string }>(
  def: Resource<S, OS, T>,
  inputs: Inputs<S>,
  created: T,
  followUp?: (obj: T, advance: (next: T) => void) => Promise<void>,
): Promise<{ id: string; outs: Outputs<S, OS> }> {
  let latest = created;
  const given = declared(inputs as Props);
  try {
    await followUp?.(created, (next) => {
      latest = next;
    });
  } catch (e) {
    if (e instanceof PartialFailure) throw e;
    const live = refreshDeclared(def.diff.fields, given, def.live(latest, given));
    throw settingsFailed(def.noun, latest.id, def.outputsOf({ ...given, ...live }, latest, given), e);
  }
  return { id: latest.id, outs: def.outputsOf(given, latest) };
}

/**
 * The creating request's body: each declared field the POST carries (FieldRule.create "post"), under
 * its wire name. Only what the program declares: GitBook's defaults apply to the rest.
 */
export function postBody(def: { patch: PatchRules & { post: readonly string[] } }, given: Props): Props {
  const body: Props = {};
  for (const f of def.patch.post) if (given[f] !== undefined) body[def.patch.wire?.[f] ?? f] = given[f];
  return body;
}

/**
 * finishCreate's follow-up for a kind whose POST cannot carry every field: one PATCH (`patch`) of the
 * declared `create: "patch"` fields, when any is declared (nothing is cleared on a new object), then
 * `then`, a write of its own (making it the default), on the object as the PATCH left it: it answers
 * the object as it leaves it, or undefined when it wrote nothing.
 */
export function patchAfterCreate<S extends z.ZodObject, OS extends z.ZodObject, T extends { id: string }>(
  def: Resource<S, OS, T>,
  given: Inputs<S>,
  patch: (id: string, body: Props) => Promise<T>,
  then?: (latest: T) => Promise<T | undefined>,
): (created: T, advance: (next: T) => void) => Promise<void> {
  return async (created, advance) => {
    const { patchable, nullValues, wire } = def.patch;
    const body = patchBody(def.patch.afterCreate, given as Props, { patchable, nullValues, wire });
    let latest = created;
    if (Object.keys(body).length > 0) advance((latest = await patch(created.id, body)));
    const next = await then?.(latest);
    if (next !== undefined) advance(next);
  };
}

/** The recorded outputs with every declared input refreshed from the object (what read returns). */
export function refreshed<S extends z.ZodObject, OS extends z.ZodObject, T>(def: Resource<S, OS, T>, props: Props, obj: T): Outputs<S, OS> {
  const own = asDeclared(def.diff.liveFields ?? [], props);
  const live = def.live(obj, own);
  // Provider-local settings are never GitBook's: what state recorded stands.
  for (const f of def.diff.localFields ?? []) delete live[f];
  const inputs = refreshDeclared([...def.diff.fields, ...def.display, ...def.recordedEngineFields], own, live);
  return def.outputsOf(inputs, obj, { ...own, ...inputs });
}

/** The PATCH body that converges what changed: new values, null to clear, or the API's default. Empty when nothing PATCHable changed. */
export function changedBody(def: { patch: PatchRules }, changed: readonly string[], news: Props): Props {
  return patchBody(changed, news, def.patch);
}

/**
 * The update of a kind that GitBook changes with one PATCH: the PATCH of what changed (none when
 * nothing PATCHable did), then `then`, the steps a PATCH cannot take (a group's sections), given the
 * object the PATCH answered (undefined when none was sent) and answering the object as they leave it
 * (undefined when they do not know it); failing that, the object as `find` reads it. The outputs are
 * the declared inputs over that object.
 */
export async function patchChanged<S extends z.ZodObject, OS extends z.ZodObject, T>(
  def: Resource<S, OS, T>,
  changed: readonly string[],
  news: Inputs<S>,
  io: { id: string; patch(body: Props): Promise<T>; find(): Promise<T | undefined>; where?: string; then?(patched: T | undefined): Promise<T | undefined> },
): Promise<Outputs<S, OS>> {
  const body = changedBody(def, changed, news as Props);
  let obj = Object.keys(body).length > 0 ? await io.patch(body) : undefined;
  if (io.then) obj = await io.then(obj);
  obj ??= await io.find();
  if (obj === undefined) throw goneFromState(def, io.id, io.where);
  return def.outputsOf(declared(news as Props), obj);
}

/** An update found the object gone from under its state. */
export function goneFromState(def: { kind: string; noun: string }, id: string, where = ""): Error {
  return new Error(`${def.kind}: ${def.noun} ${id} no longer exists${where}; run \`pulumi refresh\` to drop it from state.`);
}

/**
 * `prepare` for an adoptable kind whose ID is its parent's (a site's visitor schema, a site's redirect
 * rules: `field` names the parent): an adoptId naming another object would adopt what the program
 * does not declare, so it fails at preview, naming it. `why` ends the message ("a site's schema has no
 * ID of its own"). A value not known yet is left to the create, whose read of the adopted object
 * reports its parent (the kind's `live`), which then differs.
 */
export function adoptIdIsParent(field: string, noun: string, why: string): (given: Props) => { inputs: Props } | { failures: { property: string; reason: string }[] } {
  return (given) => {
    const { adoptId, [field]: parent } = given;
    if (typeof adoptId === "string" && typeof parent === "string" && !isUnknown(adoptId) && !isUnknown(parent) && adoptId !== parent) {
      return { failures: [{ property: "adoptId", reason: `adoptId must be the ${noun}'s ID, ${JSON.stringify(parent)} (${why}), not ${JSON.stringify(adoptId)}` }] };
    }
    return { inputs: given };
  };
}
