/**
 * A small deployment engine for running a real Pulumi program without the Pulumi CLI.
 *
 * Kept only for the benchmark (`npm run bench -- --engine harness`), for the two things the CLI
 * cannot do there: run where no CLI is built (no Go toolchain), and report the provider host's own
 * CPU exactly (HARNESS_HOST_USAGE, host.ts), which a sample of the CLI's process tree misses at its
 * last interval. It is not the reference and no test runs on it: every suite that deploys a program
 * goes through the real CLI (dev/pulumiCli.ts), and the shapes it reports are dev/report.ts.
 *
 * The program runs on the real SDK under `pulumi.runtime.setMocks`; every resource registration is
 * forwarded to the SDK's dynamic-provider host (see host.ts), in the order the engine uses: Check,
 * then Diff against saved state, then Create, Update or replace (honouring deleteBeforeReplace);
 * afterwards resources the program no longer declares are deleted in reverse order. Preview runs only
 * Check and Diff. Refresh calls Read for each resource; destroy deletes everything.
 *
 * State is a JSON file shaped like Pulumi's checkpoint: inputs and outputs per URN, secret outputs
 * encrypted (never plain text), the serialized `__provider` kept as it was written.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Op, ResourceState, RunReport, StateFile, Step, StepKind } from "../report";
import { InitFailure, ProviderHost, type Props } from "./host";

export type { Op, ResourceState, RunReport, StateFile, Step, StepKind };

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";
const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";

export interface RunOptions {
  op: Op;
  /** Folder of the program (Pulumi.yaml, node_modules holding pulumi-gitbook). The host runs here. */
  programDir: string;
  /** Compiled entry point of the program. */
  main: string;
  project: string;
  stack: string;
  statePath: string;
  /** Stack config with namespaced keys (`gitbook:token`), plain text. */
  config: Record<string, string>;
  secretKeys?: string[];
  /** Passphrase for encrypting secret outputs in the state file. */
  passphrase?: string;
  /** Where the host's stdout and stderr go. */
  hostLog: string;
  /** Concurrent provider operations, as `pulumi up --parallel`. */
  parallel?: number;
}

// ---- state -----------------------------------------------------------------------------------------

function key(passphrase: string): Buffer {
  return crypto.scryptSync(passphrase, "pulumi-gitbook-harness", 32);
}

function encryptSecret(value: unknown, passphrase: string): Props {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv("aes-256-gcm", key(passphrase), iv);
  const body = Buffer.concat([c.update(JSON.stringify(value), "utf8"), c.final()]);
  const ciphertext = `v1:${Buffer.concat([iv, c.getAuthTag(), body]).toString("base64")}`;
  return { [SECRET_SIG]: SECRET_VALUE, ciphertext };
}

function decryptSecret(v: Props, passphrase: string): unknown {
  const raw = Buffer.from(String(v.ciphertext).slice(3), "base64");
  const d = crypto.createDecipheriv("aes-256-gcm", key(passphrase), raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString("utf8"));
}

const isSecret = (v: unknown): v is Props => !!v && typeof v === "object" && (v as Props)[SECRET_SIG] === SECRET_VALUE;

function sealOutputs(outputs: Props, secretKeys: string[] | undefined, passphrase: string): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(outputs)) out[k] = secretKeys?.includes(k) && v !== undefined ? encryptSecret(v, passphrase) : v;
  return out;
}

function openOutputs(outputs: Props, passphrase: string): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(outputs)) out[k] = isSecret(v) ? decryptSecret(v, passphrase) : v;
  return out;
}

function loadState(file: string): StateFile {
  if (!fs.existsSync(file)) return { version: 1, resources: [] };
  return JSON.parse(fs.readFileSync(file, "utf8")) as StateFile;
}

function saveState(file: string, state: StateFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state, null, 2));
  fs.renameSync(tmp, file);
}

// ---- helpers -----------------------------------------------------------------------------------------

function changedKeys(olds: Props, news: Props): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  // What the SDK and the resource classes add for themselves (__provider, __gitbookName) is no input the user changes.
  return [...keys].filter((k) => !k.startsWith("__") && JSON.stringify(olds[k]) !== JSON.stringify(news[k])).sort();
}

function limiter(n: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

/** Removes secret wrappers the SDK puts around secret inputs; the engine hands the provider plain values. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object") {
    if (isSecret(v)) return plain((v as Props).value);
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

// ---- the run -----------------------------------------------------------------------------------------

export async function run(opts: RunOptions): Promise<RunReport> {
  const passphrase = opts.passphrase ?? "harness";
  const prior = loadState(opts.statePath);
  const priorByUrn = new Map(prior.resources.map((r) => [r.urn, r]));
  const report: RunReport = { op: opts.op, steps: [] };
  // The engine runs the program, and starts the provider plugins, in the folder of `main` (or of
  // Pulumi.yaml when there is no `main`): relative paths mean the same in both.
  const pwd = path.dirname(path.resolve(opts.main));
  const host = await ProviderHost.start(opts.programDir, opts.project, opts.hostLog, {}, pwd);
  const limit = limiter(opts.parallel ?? 16);
  // As the engine does once a step fails: nothing new starts, and the run ends only after what was in
  // flight has finished and been recorded. (Stopping the host mid-create left objects the API had
  // made but state never heard of.)
  let stepFailed = false;
  /** The first provider call that failed, reported against its resource as the engine does. */
  const fail = (r: { urn: string; type: string; name: string }, e: unknown) => {
    if (report.failed) return;
    report.failed = { urn: r.urn, type: r.type, name: r.name };
    report.error = (e as Error).message;
  };
  const inflight = new Set<Promise<unknown>>();
  const operate = <T>(r: { urn: string; type: string; name: string }, fn: () => Promise<T>): Promise<T> => {
    const p = limit(async () => {
      if (stepFailed && opts.op !== "preview") throw new Error("not started: an earlier step failed");
      try {
        return await fn();
      } catch (e) {
        stepFailed = true;
        fail(r, e);
        throw e;
      }
    });
    inflight.add(p);
    void p.then(
      () => inflight.delete(p),
      () => inflight.delete(p),
    );
    return p;
  };
  // What exists now, starting from the prior state and updated after every provider call, then
  // written out (even when the run fails), so nothing the provider did is unknown to the next run.
  const current = new Map(prior.resources.map((r) => [r.urn, r]));
  const registered: string[] = [];
  let stackOutputs = prior.outputs;
  // HARNESS_CHECKPOINT_MS=<ms> coalesces these rewrites of the whole state to at most one per interval
  // (the last state is always written, in `finally`), as `pulumi up --skip-checkpoints` trades crash
  // safety for speed: one rewrite per provider call is O(resources²) bytes per run, most of the wall
  // time of a 1000-section converge. The benchmark sets it; tests keep a write per call.
  const checkpointMs = Number(process.env.HARNESS_CHECKPOINT_MS) || 0;
  let checkpoint: NodeJS.Timeout | undefined;
  const persist = () => {
    if (opts.op === "preview") return;
    if (checkpointMs > 0) {
      checkpoint ??= setTimeout(() => {
        checkpoint = undefined;
        writeState();
      }, checkpointMs);
      return;
    }
    writeState();
  };
  const writeState = () => {
    const ordered = [...registered.filter((u) => current.has(u)), ...[...current.keys()].filter((u) => !registered.includes(u))];
    saveState(opts.statePath, { version: 1, resources: ordered.map((u) => current.get(u)!), ...(stackOutputs ? { outputs: stackOutputs } : {}) });
  };
  const remove = async (r: ResourceState) => {
    if (r.custom && r.id) await host.delete(r.urn, r.id, openOutputs(r.outputs, passphrase));
  };
  try {
    await host.configure(opts.config);
    if (opts.op === "refresh") {
      await Promise.all(
        prior.resources
          .filter((r) => r.custom && r.id)
          .map((r) =>
            limit(() =>
              refreshOne(host, r, report, current, passphrase).catch((e) => {
                fail(r, e);
                throw e;
              }),
            ),
          ),
      );
      persist();
      return report;
    }
    if (opts.op === "destroy") {
      for (const r of [...prior.resources].reverse()) {
        await remove(r).catch((e) => {
          fail(r, e);
          throw e;
        });
        current.delete(r.urn);
        report.steps.push({ urn: r.urn, type: r.type, name: r.name, op: "delete" });
        persist();
      }
      return report;
    }
    const replaced: ResourceState[] = [];
    const { outputs, wire } = await runProgram(opts, async (reg) => {
      registered.push(reg.urn);
      const old = priorByUrn.get(reg.urn);
      const step: Step = { urn: reg.urn, type: reg.type, name: reg.name, op: "same" };
      report.steps.push(step);
      const inputs = plain(reg.inputs) as Props;
      if (!reg.custom) {
        step.op = old ? "same" : "create";
        current.set(reg.urn, { urn: reg.urn, type: reg.type, name: reg.name, custom: false, ...(reg.parent ? { parent: reg.parent } : {}), inputs: {}, outputs: {} });
        return { state: {} };
      }
      if (!reg.type.startsWith(DYNAMIC_PREFIX)) throw new Error(`the harness only runs dynamic resources, not ${reg.type}`);
      return operate(reg, async () => {
        const oldOutputs = old ? openOutputs(old.outputs, passphrase) : {};
        const checked = await host.check(reg.urn, old?.inputs ?? {}, inputs);
        if (checked.failures.length) {
          report.checkFailures = [...(report.checkFailures ?? []), ...checked.failures.map((f) => ({ ...f, urn: reg.urn }))];
          throw new Error(`${reg.name}: ${checked.failures.map((f) => f.reason).join("; ")}`);
        }
        const news = checked.inputs;
        const record = (id: string, outs: Props): { id: string; state: Props } => {
          current.set(reg.urn, {
            urn: reg.urn,
            type: reg.type,
            name: reg.name,
            custom: true,
            ...(reg.parent ? { parent: reg.parent } : {}),
            id,
            inputs: news,
            outputs: sealOutputs(outs, reg.additionalSecretOutputs, passphrase),
            ...(reg.additionalSecretOutputs.length ? { additionalSecretOutputs: reg.additionalSecretOutputs } : {}),
          });
          persist();
          return { id, state: outs };
        };
        const guarded = async (id: string | undefined, fn: () => Promise<{ id: string; state: Props }>) => {
          try {
            return await fn();
          } catch (e) {
            // The object exists but is not fully converged: keep it, with what the provider reported.
            if (e instanceof InitFailure) record(e.id || id!, e.properties);
            throw e;
          }
        };
        const create = () => guarded(undefined, async () => {
          const r = await host.create(reg.urn, news);
          return record(r.id, r.properties);
        });
        if (!old || !old.id) {
          step.op = "create";
          return opts.op === "preview" ? { state: news } : create();
        }
        const d = await host.diff(reg.urn, old.id, oldOutputs, news, old.inputs);
        const changed = changedKeys(old.inputs, news);
        if (d.replaces.length) {
          Object.assign(step, { op: "replace", changed, replaces: d.replaces });
          if (opts.op === "preview") return { state: news };
          if (d.deleteBeforeReplace) {
            await remove(old);
            current.delete(reg.urn);
            persist();
          } else {
            replaced.push(old);
          }
          return create();
        }
        if (d.changes !== false) {
          Object.assign(step, { op: "update", changed });
          if (opts.op === "preview") return { id: old.id, state: { ...oldOutputs, ...news } };
          return guarded(old.id, async () => record(old.id!, await host.update(reg.urn, old.id!, oldOutputs, news, old.inputs)));
        }
        // As the engine does for an unchanged resource: new inputs (and so the current __provider), old outputs.
        current.set(reg.urn, { ...old, inputs: news });
        return { id: old.id, state: oldOutputs };
      });
    });
    // A failed step fails the run even when the program finished (nothing used the failed resource's
    // outputs): the engine then deletes nothing and records no stack outputs.
    await Promise.allSettled([...inflight]);
    if (report.failed && opts.op !== "preview") {
      persist();
      return report;
    }
    const dropped = prior.resources.filter((r) => !registered.includes(r.urn));
    for (const r of dropped) report.steps.push({ urn: r.urn, type: r.type, name: r.name, op: "delete" });
    if (opts.op === "preview") return report;
    // State keeps stack outputs as the engine does: what the program marked secret, encrypted.
    stackOutputs = (wire ? sealSecrets(wire, passphrase) : outputs) as Props;
    report.outputs = outputs;
    // Replaced objects and resources the program dropped go last, dependents first.
    for (const r of replaced.reverse()) await remove(r);
    for (const r of dropped.reverse()) {
      await remove(r);
      current.delete(r.urn);
      persist();
    }
    persist();
    return report;
  } catch (e) {
    await Promise.allSettled([...inflight]);
    // A provider call's failure, when there was one, is the cause; the program's error only follows from it.
    if (!report.failed) report.error = (e as Error).message;
    persist();
    return report;
  } finally {
    if (checkpoint) {
      clearTimeout(checkpoint);
      writeState();
    }
    await host.stop();
  }
}

async function refreshOne(host: ProviderHost, r: ResourceState, report: RunReport, current: Map<string, ResourceState>, passphrase: string) {
  const outs = openOutputs(r.outputs, passphrase);
  const res = await host.read(r.urn, r.id!, outs, r.inputs);
  if (!res.id) {
    current.delete(r.urn);
    report.steps.push({ urn: r.urn, type: r.type, name: r.name, op: "read-gone" });
    return;
  }
  const inputs = res.inputs ?? r.inputs;
  // Like `pulumi refresh`, report drift on outputs: inputs may legitimately change shape on read (an
  // OpenAPI text source comes back as its hash) without anything having drifted.
  const changed = changedKeys(outs, res.properties);
  current.set(r.urn, { ...r, id: res.id, inputs, outputs: sealOutputs(res.properties, r.additionalSecretOutputs, passphrase) });
  report.steps.push({ urn: r.urn, type: r.type, name: r.name, op: changed.length ? "refresh" : "same", ...(changed.length ? { changed } : {}) });
}

interface Registration {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  parent?: string;
  inputs: Props;
  additionalSecretOutputs: string[];
}

/** Encrypts every value the SDK wrapped as a secret on the wire. */
function sealSecrets(v: unknown, passphrase: string): unknown {
  if (isSecret(v)) return encryptSecret(plain(v), passphrase);
  if (Array.isArray(v)) return v.map((x) => sealSecrets(x, passphrase));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sealSecrets(x, passphrase)]));
  return v;
}

/**
 * Runs the program on the real SDK with a mock monitor whose registerResource hands each resource to
 * `onResource`. Returns the stack outputs, plain and (`wire`) as the SDK registered them, secrets wrapped.
 */
async function runProgram(
  opts: RunOptions,
  onResource: (r: Registration) => Promise<{ id?: string; state: Props }>,
): Promise<{ outputs: Props; wire?: Props }> {
  let wire: Props | undefined;
  const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [opts.programDir] }));
  const pulumi = require(sdkDir) as typeof import("@pulumi/pulumi");
  const mocks = require(path.join(sdkDir, "runtime/mocks"));
  const rpc = require(path.join(sdkDir, "runtime/rpc"));
  const structproto = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [sdkDir] }));
  const resproto = require(path.join(sdkDir, "proto/resource_pb"));

  process.env.PULUMI_CONFIG = JSON.stringify(opts.config);
  process.env.PULUMI_CONFIG_SECRET_KEYS = JSON.stringify(opts.secretKeys ?? []);
  const preview = opts.op === "preview";

  class Monitor extends mocks.MockMonitor {
    constructor() {
      super({ newResource: () => ({}), call: () => ({}) });
    }
    async registerResource(req: any, callback: (e: unknown, r?: unknown) => void) {
      try {
        const type = req.getType();
        const name = req.getName();
        const urn = this.newUrn(req.getParent(), type, name);
        const reg: Registration = {
          urn,
          type,
          name,
          custom: req.getCustom(),
          // Raw wire values: unknowns stay the engine's sentinel string, secrets their wrapper, as the engine sees them.
          inputs: req.getObject().toJavaScript(),
          additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
          ...(req.getParent() ? { parent: req.getParent() } : {}),
        };
        const result = await onResource(reg);
        const state: Props = {};
        for (const [k, v] of Object.entries(result.state)) {
          state[k] = reg.additionalSecretOutputs.includes(k) ? pulumi.secret(v) : v;
        }
        const serialized = await rpc.serializeProperties("", state);
        this.resources.set(urn, { urn, id: result.id ?? null, state: serialized });
        const response = new resproto.RegisterResourceResponse();
        response.setUrn(urn);
        response.setId(result.id ?? "");
        response.setObject(structproto.Struct.fromJavaScript(serialized));
        callback(null, response);
      } catch (err) {
        callback(err);
      }
    }
    registerResourceOutputs(req: any, callback: (e: unknown, r?: unknown) => void) {
      if (req.getUrn().split("::")[2] === "pulumi:pulumi:Stack") wire = req.getOutputs()?.toJavaScript();
      return super.registerResourceOutputs(req, callback);
    }
  }

  pulumi.runtime.setMockOptions(new Monitor(), opts.project, opts.stack, preview);
  const store = (require(path.join(sdkDir, "runtime/state")) as any).getStore();
  store.supportsSecrets = true;
  store.supportsResourceReferences = true;
  store.supportsOutputValues = false;
  const entry = path.resolve(opts.main);
  // As the language host does: the program runs in the folder of `main`. One run per process.
  process.chdir(path.dirname(entry));
  // A program that throws also rejects promises the SDK never awaits, some only after the run has
  // failed. The language host reports the error instead of crashing, and so must we: the first such
  // rejection fails the run, later ones (the same error again) are ignored. One run per process, so
  // the listener stays.
  let programFailed!: (e: unknown) => void;
  const failed = new Promise<never>((_, reject) => (programFailed = reject));
  failed.catch(() => undefined);
  process.on("unhandledRejection", (e) => programFailed(e));
  const outputs = await Promise.race([
    (pulumi.runtime as any).runInPulumiStack(async () => {
      const mod = require(entry);
      const fn = typeof mod === "function" ? mod : typeof mod?.default === "function" ? mod.default : undefined;
      return fn ? await fn() : mod;
    }),
    failed,
  ]);
  await (pulumi.runtime as any).waitForRPCs?.();
  return { outputs: (outputs ?? {}) as Props, ...(wire ? { wire } : {}) };
}
