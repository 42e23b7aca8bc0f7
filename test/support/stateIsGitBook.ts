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
import { startProviderEnv } from "./provider";

/** What the comparison needs of a resource in state: the checkpoint's fields, or the in-process program's. */
export interface Recorded {
  name: string;
  /** The kind, or the Pulumi type token (`pulumi-nodejs:dynamic/gitbook:<kind>`). */
  type: string;
  id?: string;
  outputs: Props;
  /** The inputs the checkpoint records: compared with those the read hands back when asked (`asRefresh`). */
  inputs?: Props;
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
      const kind = r.type.startsWith(TYPE) ? r.type.slice(TYPE.length) : r.type.includes(":") ? undefined : r.type;
      if (!kind || !r.id) continue;
      const secrets = r.additionalSecretOutputs ?? [];
      // A secret's ciphertext means nothing to a read: left out, as a read of it would not use it.
      const given = Object.fromEntries(Object.entries(r.outputs).filter(([k, v]) => !secrets.includes(k) && sealed(v) !== "[secret]"));
      const read = await env.refresh(kind, { id: r.id, outs: given });
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
