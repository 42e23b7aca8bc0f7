/**
 * The steps every resource's CRUD is made of, written once: finishing a create with the writes its
 * POST cannot carry, refreshing recorded outputs from an object,
 * the PATCH body of an update, and the error for an object gone from under its state.
 */
import type { z } from "zod";
import { changedFields, type DiffRules } from "./diff";
import type { Inputs, Outputs, Resource } from "./define";
import { PartialFailure, settingsFailed } from "./failure";
import { patchBody, type PatchRules } from "./patch";
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

/** The recorded outputs with every declared input refreshed from the object (what read returns). */
export function refreshed<S extends z.ZodObject, OS extends z.ZodObject, T>(def: Resource<S, OS, T>, props: Props, obj: T): Outputs<S, OS> {
  const own = asDeclared(def.diff.liveFields ?? [], props);
  const live = def.live(obj, own);
  // Provider-local settings are never GitBook's: what state recorded stands.
  for (const f of def.diff.localFields ?? []) delete live[f];
  const inputs = refreshDeclared([...def.diff.fields, ...def.recordedEngineFields], own, live);
  return def.outputsOf(inputs, obj, { ...own, ...inputs });
}

/** The PATCH body that converges what changed: new values, null to clear, or the API's default. Empty when nothing PATCHable changed. */
export function changedBody(def: { diff: DiffRules; patch: PatchRules }, olds: Props, news: Props): Props {
  return patchBody(changedFields(def.diff, olds, news), news, def.patch);
}

/** An update found the object gone from under its state. */
export function goneFromState(def: { kind: string; noun: string }, id: string, where = ""): Error {
  return new Error(`${def.kind}: ${def.noun} ${id} no longer exists${where}; run \`pulumi refresh\` to drop it from state.`);
}
