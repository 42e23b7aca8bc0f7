/**
 * The serialized half of every resource. Pulumi stores each resource's provider in state as source code
 * (`__provider`) and keeps using the stored copy for later refreshes and deletes, so this part must be
 * tiny and must never change its one call: the provider it makes captures only the resource kind and
 * loads the implementation from the installed package at call time. Upgrading the package therefore
 * upgrades resources already in state, and nothing (no token, client, schema or class) is baked into
 * state.
 *
 * The host evaluates this code with require-from-string, so `require` resolves from the program's
 * working directory, where the user's node_modules holds this package.
 */
/** Bump only with a matching branch in impl.dispatch that still accepts older shims. */
export const SHIM_PROTOCOL = 1;

/** The methods of a dynamic provider the host calls (pulumi.dynamic.ResourceProvider). */
const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;

/**
 * The `__provider` text of a kind: what the provider host evaluates (require-from-string, then
 * `handler()`) to get the kind's provider. Written here rather than by the SDK's serializeFunction,
 * which parses every function with TypeScript (about half a second of each program's CPU for ten
 * kinds) and wraps each method in a closure frame: 2.7 kB per resource, where this is about 340 bytes.
 * The engine carries the text in every resource's inputs and outputs, so its size was paid in every
 * gRPC message, in the checkpoint and in the program's memory: at 2004 resources, 11 MB of state, a
 * refresh 1.67 times the null provider's instead of 1.30, and the program's peak memory 1.14 to 1.18
 * times its instead of 1.03 to 1.07 (bench/README.md).
 *
 * Its one call is `dispatch(SHIM_PROTOCOL, kind, method, args)`, the contract the SDK-serialized shims
 * that earlier versions wrote into state call too: state holding either runs the installed package,
 * and an upgrade from the old text is no change (the diff never compares `__provider`).
 */
const serialized = new Map<string, string>();
export function serializedShim(kind: string): string {
  let text = serialized.get(kind);
  if (text === undefined) serialized.set(kind, (text = serialize(kind)));
  return text;
}

function serialize(kind: string): string {
  return (
    `exports.handler = () => {\n  const kind = ${JSON.stringify(kind)};\n` +
    `  const call = (method) => (...args) => require("pulumi-gitbook/impl").dispatch(${SHIM_PROTOCOL}, kind, method, args);\n` +
    `  return { ${METHODS.map((m) => `${m}: call("${m}")`).join(", ")} };\n};\n`
  );
}
