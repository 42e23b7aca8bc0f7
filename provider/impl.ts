/**
 * The implementation entry point that serialized providers load at call time
 * (`require("pulumi-gitbook/impl")`). Its `dispatch` signature is a contract with every shim ever
 * written into a user's state: extend it, never change it.
 */
import { ProviderRuntime, type RuntimeOptions } from "./config";
import * as engine from "./framework/engine";
import type { Resource } from "./framework/define";
import { resources } from "./resources";
import { SHIM_PROTOCOL } from "./shim";

const registry = new Map<string, Resource>(resources.map((r) => [r.kind, r]));

export function definitionOf(kind: string): Resource {
  const def = registry.get(kind);
  if (!def) throw new Error(`pulumi-gitbook: unknown resource kind "${kind}" (state written by a newer version of the package?)`);
  return def;
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
    const def = definitionOf(kind);
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
