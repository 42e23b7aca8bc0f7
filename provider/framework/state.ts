/**
 * What the provider records in state beside the program's inputs, and how a resource's inputs and
 * outputs turn into each other: a kept `adoptId`, which live fields the program
 * declared, outputs fit for the host, the inputs refresh hands back.
 */
import type { Props } from "./resource";

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

/**
 * Where the outputs of a kind that writes entries of another object (an AccessList's grants, a
 * SiteRedirects' rules: ResourceSpec.listed) record the entries the resource wrote, by key. A refresh
 * puts the object's other entries (made in the app) into the resource's lists too, as drift the next
 * `up` converges; a delete takes only what the resource wrote, so it reads this, never the lists alone
 * (which would make `pulumi destroy --refresh` take the app's entries). The engine writes it after each
 * create and update, and refresh keeps it. Outputs without it (written before it existed, or by
 * `pulumi-gitbook recover`) count every listed entry as written.
 */
export const WROTE_KEY = "__gitbookWrote";

/**
 * Where a resource's outputs record a create whose answer was lost and whose looking failed too
 * (createOnce): `{ sentAt, before }`, when it was sent (ISO, for the person deciding) and the IDs of
 * the objects that existed just before (or null when they could not be listed), never its own. GitBook
 * may hold an object it made, unknown to state. Rather than leave nothing in state (a blind re-run would then make a second object), the
 * engine keeps the resource under a placeholder ID (UNCONFIRMED_ID_PREFIX) with this record; every
 * call on it (check aside) refuses, sending nothing, until the user decides it with `pulumi-gitbook
 * recover` (recover/plan.ts): the object it made taken into state, or the resource removed so that the
 * next `up` creates it.
 */
export const UNCONFIRMED_KEY = "__gitbookUnconfirmedCreate";
export const UNCONFIRMED_ID_PREFIX = "unconfirmed-create-";

export interface UnconfirmedCreate {
  sentAt: string;
  before: string[] | null;
}

/** The unconfirmed create recorded in these outputs, if any (see UNCONFIRMED_KEY). */
export function unconfirmedIn(props: Props | undefined): UnconfirmedCreate | undefined {
  const u = props?.[UNCONFIRMED_KEY] as Partial<UnconfirmedCreate> | undefined;
  if (!u || typeof u.sentAt !== "string") return undefined;
  return { sentAt: u.sentAt, before: Array.isArray(u.before) ? u.before.map(String) : null };
}

/** Whether a delete may take the entry `key`: the resource wrote it (or, in outputs without the record, lists it). */
export function wrote(props: Props, key: string): boolean {
  const record = props[WROTE_KEY];
  return Array.isArray(record) ? record.includes(key) : true;
}

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

