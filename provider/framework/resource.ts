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
  /** The program's name of the resource a create is for, when known: singleton.claimOnly tells its own claim from another resource's by it. */
  name?: string;
}

export type Props = Record<string, unknown>;

/**
 * The property bag a Resource class registers: the program's args, the keys that always hold a value
 * (the outputs schema's and what check fills in), unset until the provider reports them, and the
 * program's name. Inputs the program leaves out are not registered (see resourceClass).
 */
export function resourceProps(name: string, args: object, always: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const k of always) props[k] = undefined;
  // The program's name for the resource travels with its inputs (dynamic providers are never told
  // it), so an error can say which resource failed. Never compared by diff, never sent to GitBook.
  return Object.assign(props, args, { [NAME_KEY]: name });
}
