/**
 * Drives whole Pulumi programs, a process per run as `pulumi up` is, against an emulator living in the
 * test process, through the real Pulumi CLI (dev/pulumiCli.ts). Without a built CLI these suites skip,
 * saying why (in CI, CI=true, they fail instead). The program is test/lifecycle/program, which declares
 * whatever resources a step lists. (test/support/program.ts runs the same declarations in process.)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Emulator, type EmulatorOptions } from "../../emulator";
import type { RunReport, StateFile } from "../../dev/report";
import { describe } from "vitest";
import { cliMissing, createCliStack, testEngine, type CliStack, type Engine, type OnSpawn } from "../../dev/pulumiCli";

export const ROOT = path.resolve(__dirname, "../..");
export const PROGRAM = path.join(ROOT, "test/lifecycle/program");

export interface Decl {
  kind: string;
  name: string;
  args: Record<string, unknown>;
  dependsOn?: string[];
  /** The `retainOnDelete` resource option: leaving the program, the resource is dropped from state, not deleted. */
  retainOnDelete?: boolean;
}

export interface Deployment {
  emu: Emulator;
  /** The engine running the programs: the real Pulumi CLI. */
  engine: Engine;
  dir: string;
  statePath: string;
  hostLog: string;
  /** `config` is merged over the run's own config (e.g. another program's settings, or a deliberate mistake). */
  run(
    op: "preview" | "up" | "refresh" | "destroy",
    resources?: Decl[],
    /** `flags` go to the CLI's command line, `onSpawn` gets the CLI's process id. */
    opts?: { programDir?: string; packageRoot?: string; config?: Record<string, string>; flags?: string[]; onSpawn?: OnSpawn },
  ): Promise<RunReport & { stdout: string; code: number }>;
  /** A preview of `resources` that leaves the program of later runs as it was; several may run at once. */
  preview(resources: Decl[], opts?: { config?: Record<string, string> }): Promise<RunReport & { stdout: string }>;
  state(): StateFile;
  /** Rewrites resources in state (to stand for state an earlier version wrote), as `pulumi stack import` would. */
  editState(edit: (resources: Array<{ name: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }>) => void): Promise<void>;
  /** The resource of that name in state. */
  resource(name: string): StateFile["resources"][number];
  /** The CLI stack the last run used: its environment runs other `pulumi` commands on it. */
  cli(): CliStack | undefined;
  /** The program's CLI stack, made now if no run has made it yet (for a test that writes its checkpoints itself). */
  stack(): Promise<CliStack>;
  close(): Promise<void>;
}

const ENGINE = testEngine();
if (!ENGINE) console.warn(`Suites that deploy programs are skipped: ${cliMissing()}.`);

/** `describe` for suites that deploy programs: skipped when no engine is available (see testEngine). */
export const describeDeployments: typeof describe.skip = describe.skipIf(!ENGINE);

/**
 * A program folder with its own CLI stack and state, on a new emulator, or with `emulator` on one another
 * deployment started (another stack over the same organization; closing this one leaves it running).
 */
export async function startDeployment(opts: EmulatorOptions & { stack?: string; engine?: Engine; emulator?: Emulator } = {}): Promise<Deployment> {
  const engine = opts.engine ?? ENGINE;
  if (!engine) throw new Error(`no engine to deploy with: ${cliMissing()}`);
  const emu = opts.emulator ?? (await Emulator.start(opts));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-lifecycle-"));
  const statePath = path.join(dir, "state.json");
  const hostLog = path.join(dir, "host.log");
  const stack = opts.stack ?? "test";
  let last: Decl[] = [];
  const configFor = (runOpts: { config?: Record<string, string> }, resources = last) => ({
    "gitbook:token": emu.token,
    "gitbook:apiUrl": emu.url,
    "gitbook:organizationId": emu.seeded.organizationId,
    "gitbook:openApiWaitSeconds": "10",
    "lifecycle:resources": JSON.stringify(resources),
    ...runOpts.config,
  });
  const close = async () => {
    if (!opts.emulator) await emu.close();
  };
  const resource = (d: Deployment) => (name: string) => {
    const r = d.state().resources.find((x) => x.name === name);
    if (!r) throw new Error(`no resource ${name} in state`);
    return r;
  };

  // The CLI keeps one stack per program folder; programs given per run share it, as a user's would.
  const stacks = new Map<string, Promise<CliStack>>();
  let current: CliStack | undefined;
  const stackFor = (programDir: string, packageRoot?: string) => {
    const key = `${programDir}\0${packageRoot ?? ""}`;
    if (!stacks.has(key)) {
      const sub = path.join(dir, `cli-${stacks.size}`);
      fs.mkdirSync(sub);
      stacks.set(key, createCliStack(sub, programDir, stack, { packageRoot }));
    }
    return stacks.get(key)!;
  };
  const d: Deployment = {
    emu,
    dir,
    engine,
    get statePath() {
      return current?.statePath ?? statePath;
    },
    hostLog,
    async run(op, resources, runOpts = {}) {
      if (resources) last = resources;
      current = await stackFor(runOpts.programDir ?? PROGRAM, runOpts.packageRoot);
      const report = await current.run(op, configFor(runOpts), { flags: runOpts.flags, onSpawn: runOpts.onSpawn });
      fs.appendFileSync(hostLog, report.stdout);
      return report;
    },
    async preview(resources, runOpts = {}) {
      const report = await (current ?? (current = await stackFor(PROGRAM))).run("preview", configFor(runOpts, resources));
      fs.appendFileSync(hostLog, report.stdout);
      return report;
    },
    state: () => current?.state() ?? { version: 1, resources: [] },
    async editState(edit) {
      if (!current) throw new Error("no stack yet: run the program first");
      const exported = structuredClone(current.exported());
      const resources = (exported.deployment.resources ?? []).map((r) => Object.assign(r, { name: String(r.urn).split("::").pop()!, inputs: r.inputs ?? {}, outputs: r.outputs ?? {} }));
      edit(resources);
      for (const r of resources) delete (r as { name?: string }).name;
      await current.importState(exported);
    },
    resource: (name) => resource(d)(name),
    cli: () => current,
    stack: async () => (current ??= await stackFor(PROGRAM)),
    close,
  };
  return d;
}

/** Every file under `dir` (the deployment's state, logs, event logs, config and backend), with its text. */
export function filesUnder(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push([p, fs.readFileSync(p, "utf8")]);
  }
  return out;
}

/** Steps of a report other than the root stack, as "op name" strings. */
export function steps(r: RunReport): string[] {
  return r.steps.filter((s) => s.type !== "pulumi:pulumi:Stack").map((s) => `${s.op} ${s.name}`);
}

/** `--diff` output cut into one block per resource, by program name. */
export function diffBlocks(stdout: string): Map<string, string> {
  const blocks = new Map<string, string>();
  let name: string | undefined;
  for (const line of stdout.split("\n")) {
    const urn = /\[urn=[^\]]*::([^\]:]+)\]/.exec(line);
    if (urn) {
      name = urn[1]!;
      blocks.set(name, "");
      continue;
    }
    if (/^\s*[~+-]?\s*pulumi(-nodejs)?:/.test(line) || /^Resources:/.test(line)) name = undefined;
    if (name !== undefined) blocks.set(name, blocks.get(name)! + line + "\n");
  }
  return blocks;
}
