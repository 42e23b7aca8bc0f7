/**
 * Runs a program of several resources (the `Decl`s test/lifecycle/program declares through the CLI)
 * in process, on the provider of test/support/provider.ts: `up` walks the declarations in order as
 * the engine would for a program whose resources depend on the ones before them, resolving `$ref`s
 * from state, then deletes what the program no longer declares, newest first. Steps are reported as
 * the CLI driver reports them ("op name", changed input keys), so the same scenario reads the same
 * on both. Each run starts from empty client caches, as a new provider process would.
 *
 * It is no engine: no parallelism, no partial failures kept in state, no secrets, no plugin host.
 * What only the engine shows stays with the CLI suites (test/lifecycle, test/faults).
 */
import type { Props } from "../../provider/framework/resource";
import { NAME_KEY } from "../../provider/framework/resource";
import { UNKNOWN } from "../../provider/framework/check";
import type { Decl } from "./lifecycle";
import { afterAll, beforeAll } from "vitest";
import { startProviderEnv, type ProviderEnv, type State } from "./provider";

export interface ProgramStep {
  name: string;
  op: "create" | "update" | "replace" | "same" | "delete" | "refresh" | "read-gone";
  changed?: string[];
  replaces?: string[];
}

export interface Entry {
  kind: string;
  name: string;
  state: State;
  inputs: Props;
}

export interface InProcessProgram {
  /** check and diff of every declaration, nothing created (resources not in state yet are unknown to the others). */
  preview(decls?: Decl[]): Promise<ProgramStep[]>;
  /**
   * `continueOnError`, as `pulumi up --continue-on-error`: a resource that fails (its delete too) keeps
   * its state, the resources that refer to it are skipped, the others go on, and the run then throws RunFailed.
   */
  up(decls?: Decl[], opts?: { continueOnError?: boolean }): Promise<ProgramStep[]>;
  /** `pulumi up --replace` of one resource of the last program. */
  replace(name: string): Promise<void>;
  refresh(): Promise<ProgramStep[]>;
  destroy(): Promise<ProgramStep[]>;
  resource(name: string): { id: string; inputs: Props; outputs: Props };
  names(): string[];
}

const changedKeys = (a: Props, b: Props) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !k.startsWith("__") && JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();

/**
 * `from`: the state to start from, a checkpoint's resources (a CLI run's, see plannedSteps in
 * stateIsGitBook.ts) rather than an empty stack.
 */
export function inProcessProgram(env: ProviderEnv, from: readonly Entry[] = []): InProcessProgram {
  let entries: Entry[] = [...from];
  let last: Decl[] = [];
  const find = (name: string) => entries.find((e) => e.name === name);

  /** The declaration's args with every `$ref` resolved from state; UNKNOWN where `unknown` says so. */
  const resolve = (v: unknown, unknown: (name: string) => boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => resolve(x, unknown));
    if (v && typeof v === "object") {
      const ref = (v as { $ref?: unknown }).$ref;
      if (typeof ref === "string") {
        const [name, output, ...path] = ref.split(".");
        const e = find(name!);
        if (!e || unknown(name!)) return UNKNOWN;
        const out = output === "id" ? e.state.id : e.state.outs[output!];
        return path.reduce<any>((o, k) => (o == null ? o : o[k]), out);
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x, unknown)]));
    }
    return v;
  };
  const argsOf = (d: Decl, unknown: (name: string) => boolean = () => false) => ({ ...(resolve(d.args, unknown) as Props), [NAME_KEY]: d.name });

  const program: InProcessProgram = {
    async preview(decls = last) {
      env.outOfBand();
      const steps: ProgramStep[] = [];
      const changing = new Set<string>();
      for (const d of decls) {
        const e = find(d.name);
        const checked = await env.check(d.kind, argsOf(d, (n) => changing.has(n)), e?.state.outs);
        if (checked.failures?.length) throw new Error(`${d.kind} ${d.name}: ${checked.failures.map((f) => f.reason).join("; ")}`);
        if (!e) {
          changing.add(d.name);
          steps.push({ name: d.name, op: "create" });
          continue;
        }
        const diff = await env.diff(d.kind, e.state, checked.inputs!);
        const changed = changedKeys(e.inputs, checked.inputs!);
        if (diff.replaces?.length) changing.add(d.name);
        steps.push({ name: d.name, op: diff.replaces?.length ? "replace" : diff.changes ? "update" : "same", ...(changed.length ? { changed } : {}), ...(diff.replaces?.length ? { replaces: diff.replaces } : {}) });
      }
      return steps;
    },
    async replace(name) {
      env.outOfBand();
      const d = last.find((x) => x.name === name)!;
      const r = await env.replace(d.kind, argsOf(d), find(name)!.state);
      entries = entries.map((e) => (e.name === name ? { ...e, state: r.state, inputs: r.inputs } : e));
    },
    async up(decls = last, opts = {}) {
      last = decls;
      env.outOfBand();
      const steps: ProgramStep[] = [];
      const next: Entry[] = [];
      const failed = new Map<string, string>();
      for (const d of decls) {
        const e = find(d.name);
        let r: Awaited<ReturnType<ProviderEnv["up"]>>;
        try {
          if (opts.continueOnError && refersTo(d, failed)) throw new Error("skipped: it refers to a resource that failed");
          r = await env.up(d.kind, argsOf(d), e?.state);
        } catch (err) {
          if (!opts.continueOnError) throw err;
          failed.set(d.name, (err as Error).message);
          if (e) next.push(e);
          continue;
        }
        const changed = e ? changedKeys(e.inputs, r.inputs) : [];
        const entry = { kind: d.kind, name: d.name, state: r.state, inputs: r.inputs };
        entries = [...entries.filter((x) => x.name !== d.name), entry];
        next.push(entry);
        steps.push({ name: d.name, op: r.step, ...(r.step !== "create" && changed.length ? { changed } : {}), ...(r.diff?.replaces?.length ? { replaces: r.diff.replaces } : {}) });
      }
      for (const e of [...entries].reverse().filter((x) => !next.includes(x))) {
        try {
          await env.destroy(e.kind, e.state);
        } catch (err) {
          if (!opts.continueOnError) throw err;
          // A refused delete keeps the resource in state, as the engine does.
          failed.set(e.name, (err as Error).message);
          next.push(e);
          continue;
        }
        steps.push({ name: e.name, op: "delete" });
      }
      entries = next;
      if (failed.size) throw new RunFailed(failed, steps);
      return steps;
    },
    async refresh() {
      env.outOfBand();
      const steps: ProgramStep[] = [];
      for (const e of [...entries]) {
        const r = await env.refresh(e.kind, e.state);
        if (!r) {
          entries = entries.filter((x) => x !== e);
          steps.push({ name: e.name, op: "read-gone" });
          continue;
        }
        const changed = changedKeys(e.state.outs, r.state.outs);
        Object.assign(e, { state: r.state, inputs: r.inputs });
        steps.push({ name: e.name, op: changed.length ? "refresh" : "same", ...(changed.length ? { changed } : {}) });
      }
      return steps;
    },
    async destroy() {
      env.outOfBand();
      const steps: ProgramStep[] = [];
      for (const e of [...entries].reverse()) {
        await env.destroy(e.kind, e.state);
        steps.push({ name: e.name, op: "delete" });
      }
      entries = [];
      last = [];
      return steps;
    },
    resource(name) {
      const e = find(name);
      if (!e) throw new Error(`no resource ${name} in state`);
      return { id: e.state.id, inputs: e.inputs, outputs: e.state.outs };
    },
    names: () => entries.map((e) => e.name),
  };
  return program;
}

/** A run with `continueOnError` in which resources failed: their errors by name (one per line in the message), and the steps the others took. */
export class RunFailed extends Error {
  constructor(
    readonly errors: Map<string, string>,
    readonly steps: ProgramStep[],
  ) {
    super([...errors].map(([name, e]) => `${name}: ${e}`).join("\n"));
  }
}

/** Whether `d` names one of `names` by a `$ref` or in its dependsOn. */
function refersTo(d: Decl, names: Map<string, string>): boolean {
  const walk = (v: unknown): boolean =>
    Array.isArray(v) ? v.some(walk) : v && typeof v === "object" ? (typeof (v as { $ref?: unknown }).$ref === "string" ? names.has(String((v as { $ref: string }).$ref).split(".")[0]!) : Object.values(v).some(walk)) : false;
  return walk(d.args) || (d.dependsOn ?? []).some((n) => names.has(n));
}

/** Steps as "op name" strings, as test/support/lifecycle.ts's `steps` gives them for the CLI. */
export const stepNames = (steps: ProgramStep[]): string[] => steps.map((s) => `${s.op} ${s.name}`);

/**
 * A describe block's emulator, provider and in-process program, started before its tests and closed
 * after them: `const s = programSuite();` then `s.env`, `s.p` inside the tests.
 */
export function programSuite(): { env: ProviderEnv; p: InProcessProgram } {
  const s = {} as { env: ProviderEnv; p: InProcessProgram };
  beforeAll(async () => {
    s.env = await startProviderEnv();
    s.p = inProcessProgram(s.env);
  });
  afterAll(async () => s.env?.close());
  return s;
}
