/**
 * The implementation entry point that serialized providers load at call time
 * (`require("pulumi-gitbook/impl")`). Its `dispatch` signature is a contract with every shim ever
 * written into a user's state: extend it, never change it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ProviderRuntime, type RuntimeOptions } from "./config";
import * as engine from "./framework/engine";
import type { Resource } from "./framework/define";
import { SHIM_PROTOCOL } from "./shim";

const registry = new Map<string, Promise<Resource>>();

/**
 * A kind's definition, its module loaded at the kind's first call rather than the whole registry
 * (resources/index.ts) with this module: a provider process serves the kinds of one program, often a
 * few of the registry's, and loading every kind's module and schemas was most of loading this package
 * (the bench's four kinds: 16 ms of CPU; the whole registry: 65 ms). A kind lives in
 * resources/<its name with a lower-case first letter>, exporting `definition`; a test holds every
 * kind of the registry to that, and loads each one first in a fresh module cache.
 */
export function definitionOf(kind: string): Promise<Resource> {
  let def = registry.get(kind);
  if (!def) registry.set(kind, (def = load(kind)));
  return def;
}

async function load(kind: string): Promise<Resource> {
  const unknown = () => new Error(`pulumi-gitbook: unknown resource kind "${kind}" (state written by a newer version of the package?)`);
  const name = /^[A-Z][A-Za-z]*$/.test(kind) ? `${kind[0]!.toLowerCase()}${kind.slice(1)}` : undefined;
  // Built (.js) or run from source (.ts, the in-process tests).
  if (!name || ![".js", ".ts"].some((ext) => fs.existsSync(path.join(__dirname, "resources", `${name}${ext}`)))) throw unknown();
  const mod = (await import(`./resources/${name}`)) as { definition?: Resource };
  if (mod.definition?.kind !== kind) throw unknown();
  return mod.definition;
}

type Method = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

export type Dispatch = (protocol: number, kind: string, method: Method, args: unknown[]) => Promise<unknown>;

/**
 * A provider with its own configuration and clients. The host process has one (`dispatch` below);
 * tests make their own, with options (fast retries) instead of hooks into module state.
 */
export function createProvider(options: RuntimeOptions = {}): { runtime: ProviderRuntime; dispatch: Dispatch } {
  const rt = new ProviderRuntime(options);
  const dispatch: Dispatch = async (protocol, kind, method, args) => {
    if (protocol !== SHIM_PROTOCOL) throw new Error(`pulumi-gitbook: unsupported provider protocol ${protocol}; upgrade the pulumi-gitbook package`);
    if (method === "configure") return engine.configure(rt, args[0] as never);
    const def = await definitionOf(kind);
    const a = args as never[];
    switch (method) {
      case "check":
        return engine.check(rt, def, a[0], a[1]);
      case "diff":
        return engine.diff(rt, def, a[0], a[1], a[2]);
      case "create":
        return engine.create(rt, def, a[0]);
      case "read":
        return engine.read(rt, def, a[0], a[1]);
      case "update":
        return engine.update(rt, def, a[0], a[1], a[2]);
      case "delete":
        return engine.remove(rt, def, a[0], a[1]);
      default:
        throw new Error(`pulumi-gitbook: unknown provider method "${String(method)}"`);
    }
  };
  return { runtime: rt, dispatch };
}

/** The provider of this process: every shim in the program's state calls it. */
export const dispatch: Dispatch = createProvider().dispatch;
