/**
 * State equals GitBook after every success (issue 42): each resource of a checkpoint read back from
 * GitBook by its own kind's `read`, in this process (no engine run), and compared with what the
 * checkpoint records. A difference is what a `pulumi refresh` right after would rewrite, though it may
 * report the resource as "same" (/work/shared/pulumi-facts.md): an output that a later step of the run
 * changed behind the resource (another resource's write to its object), or an input GitBook does not
 * hold. The CLI suites call it on `pulumi stack export`'s resources; in process, on the program's.
 */
import type { z } from "zod";
import type { Emulator } from "../../emulator";
import { ruleOf } from "../../provider/framework/fields";
import type { Props } from "../../provider/framework/resource";
import { definitionOf } from "../../provider/impl";
import { resources as providerKinds } from "../../provider/resources";
import type { Decl } from "./lifecycle";
import { inProcessProgram, type ProgramStep } from "./program";
import { startProviderEnv } from "./provider";

/** What the comparison needs of a resource in state: the checkpoint's fields, or the in-process program's. */
export interface Recorded {
  name: string;
  urn?: string;
  /** The kind, or the Pulumi type token (`pulumi-nodejs:dynamic/gitbook:<kind>`). */
  type: string;
  id?: string;
  outputs: Props;
  /** The inputs the checkpoint records: compared with those the read hands back when asked (`asRefresh`). */
  inputs?: Props;
  /** The URN of the resource's parent (a component's child), when the checkpoint has one. */
  parent?: string;
  /** Outputs the checkpoint holds encrypted: compared as "a secret". */
  additionalSecretOutputs?: string[];
}

const TYPE = "pulumi-nodejs:dynamic/gitbook:";
/** Pulumi's marker of a secret value in a checkpoint. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/**
 * A secret is encrypted afresh at every write: "a secret", whatever its ciphertext. Keys sorted: the
 * engine writes a checkpoint's objects with sorted keys, the provider in the order it builds them.
 */
function sealed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sealed);
  if (v && typeof v === "object") {
    if ((v as Props)[SECRET_SIG] !== undefined) return "[secret]";
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sealed((v as Props)[k])]));
  }
  return v;
}

/**
 * The resource's outputs without what only the engine keeps and what means something only to the run
 * that declared it (`allowReplacement`: refresh drops it, by design), its secret outputs sealed.
 */
function comparable(outs: Props, secrets: readonly string[], runOnly: readonly string[]): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(outs)) if (k !== "__provider" && !runOnly.includes(k)) out[k] = secrets.includes(k) ? "[secret]" : sealed(v);
  return out;
}

/** The kind of a checkpoint's resource (`pulumi-nodejs:dynamic/gitbook:<kind>`, or the kind itself); undefined for other providers' resources. */
const kindOf = (type: string) => (type.startsWith(TYPE) ? type.slice(TYPE.length) : type.includes(":") ? undefined : type);

/** The outputs a provider call is given: a secret's ciphertext means nothing to it, and is left out, as the engine would send the plain value. */
const unsealed = (r: Recorded) => Object.fromEntries(Object.entries(r.outputs).filter(([k, v]) => !(r.additionalSecretOutputs ?? []).includes(k) && sealed(v) !== "[secret]"));

/**
 * What `pulumi preview` of `decls` would plan against `resources` (a checkpoint's, e.g. `pulumi stack
 * export`'s after an up), in this process: each declaration checked against the state it has there
 * and diffed, every resource of the checkpoint that `decls` leaves out a delete. The steps a CLI
 * preview's `--expect-no-changes` asks all to be "same", for a program that is `decls` (the runs
 * through the CLI that declare their resources as Decl); a plan is the provider's check and diff, the
 * engine adding nothing to it but the order. The program process, which this one does not run, adds
 * to what a declaration says (a site's address) and builds components (DocsSite): those inputs, and
 * a component's children, are declared as the checkpoint records them, what the program process
 * registered for the same declarations in the run before.
 */
export async function plannedSteps(
  emu: Emulator,
  decls: readonly Decl[],
  resources: readonly Recorded[],
  /**
   * `cwd`: the program's folder, where the provider resolves a file source's relative path (the CLI's
   * provider host runs there). `requests`: fail unless the plan sends exactly these ("METHOD route",
   * reads too: `[]` is what a no-op `up` sends); without it, fail on any write. The plan's requests
   * leave the log afterwards, so a caller's own count of them would always be zero.
   */
  opts: { cwd?: string; requests?: readonly string[] } = {},
): Promise<ProgramStep[]> {
  const env = await startProviderEnv({ emulator: emu });
  const logged = emu.log.entries.length;
  const cwd = process.cwd();
  if (opts.cwd) process.chdir(opts.cwd);
  try {
    const from = resources.flatMap((r) => {
      const kind = kindOf(r.type);
      return kind && r.id ? [{ kind, name: r.name, state: { id: r.id, outs: unsealed(r) }, inputs: r.inputs ?? {} }] : [];
    });
    const kinds = new Set(providerKinds.map((r) => r.kind));
    const components = decls.filter((d) => !kinds.has(d.kind)).map((d) => d.name);
    const ofComponent = (r: Recorded): boolean => {
      const parent = r.parent && resources.find((x) => x.urn === r.parent);
      return !!parent && (components.includes(parent.name) || ofComponent(parent));
    };
    const children: Decl[] = resources.flatMap((r) => {
      const kind = kindOf(r.type);
      return kind && ofComponent(r) ? [{ kind, name: r.name, args: Object.fromEntries(Object.entries(r.inputs ?? {}).filter(([k]) => k !== "__provider")) }] : [];
    });
    // What the program process adds to a declaration's inputs (a site's address: siteAddress.ts), the
    // in-process program does not: those inputs are taken as the run before recorded them.
    const added = (d: Decl): Decl => {
      const r = resources.find((x) => x.name === d.name && kindOf(x.type) === d.kind);
      const recorded = Object.entries(r?.inputs ?? {}).filter(([k]) => !k.startsWith("__") && !(k in d.args));
      return recorded.length ? { ...d, args: { ...Object.fromEntries(recorded), ...d.args } } : d;
    };
    const declared = [...decls.filter((d) => kinds.has(d.kind)).map(added), ...children];
    const steps = await inProcessProgram(env, from).preview(declared);
    const sent = emu.log.entries.slice(logged).map((e) => `${e.method} ${e.route}`);
    const wrong = opts.requests ? [...sent].sort().join(", ") !== [...opts.requests].sort().join(", ") : sent.some((e) => !e.startsWith("GET "));
    if (wrong) throw new Error(`the plan sent ${sent.join(", ") || "nothing"}${opts.requests ? `, not ${opts.requests.join(", ") || "nothing"}` : ""}`);
    return [...steps, ...from.filter((e) => !declared.some((d) => d.name === e.name)).map((e) => ({ name: e.name, op: "delete" as const }))];
  } finally {
    process.chdir(cwd);
    emu.log.entries.splice(logged);
    await env.close();
  }
}

/**
 * Every difference between what `resources` record and what their kinds read from GitBook now, one
 * line each (`<name>.<output>: state <value>, GitBook <value>`); empty when state equals GitBook.
 * Resources of other providers (the stack, components) are skipped.
 *
 * `asRefresh`: also everything else a `pulumi refresh` right after would change or report: the inputs
 * the read hands back against those recorded (`<name>.inputs.<key>: ...`; the engine stores them, and
 * a refresh that rewrote one would show it in the next plan), and any write a read sent.
 */
export async function differencesFromGitBook(emu: Emulator, resources: readonly Recorded[], opts: { asRefresh?: boolean } = {}): Promise<string[]> {
  const env = await startProviderEnv({ emulator: emu });
  const out: string[] = [];
  // The comparison's own GETs leave the request log: a suite's counts stay its runs'.
  const logged = emu.log.entries.length;
  try {
    for (const r of resources) {
      const kind = kindOf(r.type);
      if (!kind || !r.id) continue;
      const secrets = r.additionalSecretOutputs ?? [];
      const read = await env.refresh(kind, { id: r.id, outs: unsealed(r) });
      if (!read) {
        out.push(`${r.name}: in state, gone from GitBook`);
        continue;
      }
      const shape = (await definitionOf(kind)).schema.shape as Record<string, z.ZodType>;
      const runOnly = Object.keys(shape).filter((k) => ruleOf(shape[k]!).engine === "run");
      const compare = (prefix: string, recorded: Props, live: Props) => {
        for (const k of [...new Set([...Object.keys(recorded), ...Object.keys(live)])].sort()) {
          const [a, b] = [JSON.stringify(recorded[k]), JSON.stringify(live[k])];
          if (a !== b) out.push(`${r.name}.${prefix}${k}: state ${a ?? "absent"}, GitBook ${b ?? "absent"}`);
        }
      };
      compare("", comparable(r.outputs, secrets, runOnly), comparable(read.state.outs, secrets, runOnly));
      if (opts.asRefresh) {
        const ins = r.inputs ?? {};
        // An input the checkpoint holds encrypted stays "a secret" whatever the read hands back in the clear.
        const secretIns = Object.keys(ins).filter((k) => sealed(ins[k]) === "[secret]");
        compare("inputs.", comparable(ins, secretIns, runOnly), comparable(read.inputs, secretIns, runOnly));
      }
    }
    if (opts.asRefresh) for (const e of emu.log.entries.slice(logged).filter((x) => x.method !== "GET")) out.push(`a read sent ${e.method} ${e.route}`);
  } finally {
    emu.log.entries.splice(logged);
    await env.close();
  }
  return out;
}
