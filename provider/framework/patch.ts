/** The body of an update's PATCH, from what changed and the fields' rules (see FieldRule). */
import type { Props } from "./resource";

export interface PatchRules {
  /** Fields the PATCH endpoint accepts under the same name. */
  patchable: readonly string[];
  /** Fields the API clears with an explicit null when the user removes them. */
  nullable?: readonly string[];
  /** Values to send when the user removes a field that has an API default. */
  onRemove?: Props;
  /** Fields for which null is a value of its own, sent as null. */
  nullValues?: readonly string[];
  /** Body names of the fields GitBook names otherwise (FieldRule.wire). */
  wire?: Readonly<Record<string, string>>;
}

/** The PATCH body for the changed fields: new values, null to clear, or the API default. */
export function patchBody(changed: readonly string[], news: Props, rules: PatchRules): Props {
  const body: Props = {};
  for (const f of changed) {
    if (!rules.patchable.includes(f)) continue;
    const v = news[f];
    const name = rules.wire?.[f] ?? f;
    if (v !== undefined && (v !== null || rules.nullValues?.includes(f))) body[name] = v;
    else if (rules.nullable?.includes(f)) body[name] = null;
    else if (rules.onRemove && f in rules.onRemove) body[name] = rules.onRemove[f];
  }
  return body;
}

