/**
 * The vocabulary every resource module speaks: the context of a provider call, a property bag, and
 * the property bag a program's resource class registers.
 */
import type { z } from "zod";
import type { GitbookClient } from "../client";
import type { ProviderConfig } from "../config";

/** Where a resource's inputs carry the program's name for it (see resourceProps). */
export const NAME_KEY = "__gitbookName";

export interface Ctx {
  client: GitbookClient;
  config: ProviderConfig;
}

export type Props = Record<string, unknown>;

/**
 * The property bag a Resource class registers: a key for every input of the schema (so each becomes
 * an Output on the resource even when the program leaves it unset), the program's args, and the
 * computed outputs, unset until the provider fills them in.
 */
export function resourceProps(name: string, schema: z.ZodObject, args: object, outputs: readonly string[]): Record<string, unknown> {
  const unset = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, undefined]));
  // The program's name for the resource travels with its inputs (dynamic providers are never told
  // it), so an error can say which resource failed. Never compared by diff, never sent to GitBook.
  return { ...unset(Object.keys(schema.shape)), ...args, ...unset(outputs), [NAME_KEY]: name };
}
