/**
 * The serialized half of every resource. Pulumi stores the provider object in state as source code
 * (`__provider`) and keeps using the stored copy for later refreshes and deletes, so this part must be
 * tiny and must never change shape: each method captures only the resource kind and loads the
 * implementation from the installed package at call time. Upgrading the package therefore upgrades
 * resources already in state, and nothing (no token, client, schema or class) is baked into state.
 *
 * The host evaluates this code with require-from-string, so `require` resolves from the program's
 * working directory, where the user's node_modules holds this package.
 *
 * Keep every method a plain function referencing only `kind` and `require`: anything else it mentions
 * would be serialized with it.
 */
import type * as pulumi from "@pulumi/pulumi";

/** Bump only with a matching branch in impl.dispatch that still accepts older shims. */
export const SHIM_PROTOCOL = 1;

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/**
 * One provider object per kind for the life of the program: the SDK caches a provider's serialized
 * text by object identity, so a fresh object per resource re-serializes the closure every time
 * (tens of milliseconds of the program's CPU per resource, most of a no-op `up` at 1000 resources).
 */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) shims.set(kind, (shim = shimFor(kind)));
  return shim;
}

function shimFor(kind: string): pulumi.dynamic.ResourceProvider {
  return {
    async configure(req) {
      return require("pulumi-gitbook/impl").dispatch(1, kind, "configure", [req]);
    },
    async check(olds, news) {
      return require("pulumi-gitbook/impl").dispatch(1, kind, "check", [olds, news]);
    },
    async diff(id, olds, news) {
      return require("pulumi-gitbook/impl").dispatch(1, kind, "diff", [id, olds, news]);
    },
    async create(inputs) {
      return require("pulumi-gitbook/impl").dispatch(1, kind, "create", [inputs]);
    },
    async read(id, props) {
      return require("pulumi-gitbook/impl").dispatch(1, kind, "read", [id, props]);
    },
    async update(id, olds, news) {
      return require("pulumi-gitbook/impl").dispatch(1, kind, "update", [id, olds, news]);
    },
    async delete(id, props) {
      return require("pulumi-gitbook/impl").dispatch(1, kind, "delete", [id, props]);
    },
  };
}
