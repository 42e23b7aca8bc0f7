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

/**
 * The `__provider` text of a kind: exactly what the SDK's serializeFunction makes of `() => provider`
 * (pulumi.dynamic.Resource stores that), written here without calling it. The SDK parses every function
 * it serializes with TypeScript: about half a second of each program's CPU for ten kinds, before the
 * first resource is registered. Our functions capture only `kind` (a string) and use only `require`, so
 * their closure is the SDK's fixed frame around each method's own source; define.test.ts holds the text
 * equal to the SDK's for every kind.
 */
const serialized = new Map<string, string>();
export function serializedShim(kind: string): string {
  let text = serialized.get(kind);
  if (text === undefined) serialized.set(kind, (text = serialize(kind)));
  return text;
}

function serialize(kind: string): string {
  const methods = Object.entries(providerFor(kind)) as [string, Function][];
  const fn = (name: string, params: number, capture: string, body: string) =>
    `function ${name}(${Array.from({ length: params }, (_, i) => `__${i}`).join(", ")}) {\n` +
    `  return (function() {\n    with({ ${capture}, this: undefined, arguments: undefined }) {\n\nreturn ${body};\n\n    }\n` +
    `  }).apply(undefined, undefined).apply(this, arguments);\n}\n`;
  // A method's source starts `async name(`: the SDK writes it as a function expression, naming the
  // method in a comment. Any other start (another compiler's output) would make text the provider host
  // cannot run: refuse it here, in the program, rather than store it in state.
  const expression = (name: string, f: Function) => {
    const source = f.toString();
    if (!source.startsWith(`async ${name}(`)) throw new Error(`${kind}: the provider shim's ${name} method compiled to an unexpected form (${source.slice(0, 40)}); provider/shim.ts must hold plain async methods`);
    return `async function /*${name}*/(${source.slice(`async ${name}(`.length)}`;
  };
  return (
    `exports.handler = __f0;\n\nvar __provider = {${methods.map(([name], i) => `${name}: __f${i + 1}`).join(", ")}};\n\n` +
    methods.map(([name, f], i) => fn(`__f${i + 1}`, f.length, `kind: ${JSON.stringify(kind)}`, expression(name, f))).join("\n") +
    "\n" +
    fn("__f0", 0, "provider: __provider", "() => provider")
  );
}
