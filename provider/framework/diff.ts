/**
 * The one diff helper. It compares only the inputs a resource declares (never `__provider`, never
 * computed outputs), makes no request, and says which changes force a replacement.
 *
 * Old values come from the resource's outputs: every resource stores each input the user set under
 * the same name in its outputs, and nothing else under those names, so "set before, absent now" means
 * the user removed the field. The exception is `liveFields`: settings every object has (a site's type
 * and visibility, a share link's `active`), whose outputs always hold the live value and which are
 * managed only while declared, so an absent input is never a change to the object. One the program
 * stops declaring is released: a change of state alone (no request, never a replacement), which
 * rewrites the outputs' record of the declared live fields so that refresh leaves it out.
 */
import equal from "fast-deep-equal";
import { UNKNOWN } from "./check";
import { declaredLive } from "./state";

export interface DiffRules {
  /** Input fields compared, in order. */
  fields: readonly string[];
  /** Fields the API cannot change in place. */
  replaceOn: readonly string[];
  /**
   * Fields whose outputs always hold the object's live value, managed only while the program declares
   * them: absent means "leave it as it is" (on adoption, and after removal), never "reset it".
   */
  liveFields?: readonly string[];
  /** Fields for which null is a value of its own (not "unset"), e.g. a SAML provider's `defaultRole` (guests). */
  nullValues?: readonly string[];
  /**
   * Whether the old object must go before its replacement is made: when the two would collide, or
   * when they are one object (an ID derived from what the resource declares, such as a site's
   * settings), whose later delete would undo what the replacement's create just set. A list names the
   * fields that tell the object apart (an OpenAPI spec's slug): the old one goes first unless one of
   * them changes.
   */
  deleteBeforeReplace?: boolean | readonly string[];
  /**
   * Provider-local fields (e.g. `forceDestroy`): compared like any input, so a change is an update and
   * state records it, but never sent to GitBook nor read from it (the engine's update sends nothing
   * when only these changed).
   */
  localFields?: readonly string[];
  /** Maps a property bag to its comparable view (e.g. a document to its hash). */
  view?: (props: Record<string, unknown>) => Record<string, unknown>;
}

export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** The fields that differ; what an update must send. */
  changed: string[];
}

function hasUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (v && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/** Treats an explicit null like an absent value: both mean "not set". */
function norm(v: unknown): unknown {
  return v === null ? undefined : v;
}

export function changedFields(rules: DiffRules, olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  const o = rules.view ? rules.view(olds) : olds;
  const n = rules.view ? rules.view(news) : news;
  return rules.fields.filter((f) => {
    const value = rules.nullValues?.includes(f) ? (v: unknown) => v : norm;
    // A live field left out is never a change to the object; but one the old outputs say the program
    // declared is released, a change of state alone (the engine sends nothing for it, see state.ts).
    if (rules.liveFields?.includes(f) && value(n[f]) === undefined) return declaredLive(rules.liveFields, o).includes(f);
    return hasUnknown(n[f]) || !equal(value(o[f]), value(n[f]));
  });
}

/** The changed fields that are live fields the program no longer declares: released, never replaced for nor sent. */
export function releasedFields(rules: DiffRules, changed: readonly string[], news: Record<string, unknown>): string[] {
  return changed.filter((f) => rules.liveFields?.includes(f) && norm(news[f]) === undefined);
}

export function diffProps(rules: DiffRules, olds: Record<string, unknown>, news: Record<string, unknown>): DiffOutcome {
  const changed = changedFields(rules, olds, news);
  const released = releasedFields(rules, changed, news);
  const replaces = changed.filter((f) => rules.replaceOn.includes(f) && !released.includes(f));
  const dbr = rules.deleteBeforeReplace;
  return {
    changes: changed.length > 0,
    replaces,
    // Whatever this diff finds: a replacement the user forces (`up --replace`) takes its order from it too.
    deleteBeforeReplace: typeof dbr === "object" ? !replaces.some((f) => dbr.includes(f)) : dbr === true,
    changed,
  };
}
