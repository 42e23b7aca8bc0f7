/**
 * `npm run bench -- [--sizes 10,100,1000] [--latency 20] [--parallel 16] [--site-spaces 1] [--share-links 3] [--out bench/results] [--checkpoint-every-call] [--profile-host DIR] [--phases converge,refresh,destroy]`
 *
 * Runs the benchmark program (bench/program) through the real `pulumi` CLI (.pulumi-cli, built by
 * `npm run pulumi-cli`), a process per run, against
 * an in-process emulator that delays every answer by `--latency` ms. For each topology size it runs
 * the phases a user does: converge from empty, a no-op up, a preview of a one-field change, refresh,
 * that change, destroy. Each phase runs twice, on two stacks of the same program: once with this
 * package's resources and once with the same resources on a dynamic provider that does nothing, so
 * the table separates what the engine costs from what the provider adds. Per phase it prints the
 * requests the emulator saw by method, the minimum the API needs (bench/model.ts), wall time against
 * the request-bound lower limit, and CPU time and memory of the engine's processes. Results also go
 * to `<out>/<timestamp>.json`.
 *
 * This is a measurement script: it asserts nothing except that each run succeeded and that destroy
 * left the emulator empty, since figures measured on a loaded machine are not test material.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { Emulator } from "../emulator";
import { CLI_BIN, cliMissing, createCliStack, type CliStack } from "../dev/pulumiCli";
import { criticalPathMs, model, resourceCount, total, type MethodCounts, type Phase, type Topology } from "./model";
import { childrenCpuMs, sampleTree, type TreeUsage } from "./proctree";

const ROOT = path.resolve(__dirname, "../..");
const PROGRAM = path.join(ROOT, "bench/program");
const SPACE_PREFIX = "spc_bench_";

interface Flags {
  sizes: number[];
  latencyMs: number;
  parallel: number;
  siteSpacesPerSection: number;
  shareLinks: number;
  out: string;
  /** Write the whole state after every provider call, as `pulumi` does by default, instead of once at the end (PULUMI_SKIP_CHECKPOINTS). */
  checkpointEveryCall: boolean;
  /** Where the provider host's CPU profiles go (bench/hostProfile.ts). */
  profileHost?: string;
  /** The phases to run, in their usual order; converge always runs (every other phase needs the stack). */
  phases: Phase[];
}

const USAGE =
  "usage: npm run bench -- [--sizes 10,100,1000] [--latency 20] [--parallel 16] [--site-spaces 1] [--share-links 3] [--out bench/results] [--checkpoint-every-call] [--profile-host DIR] [--phases converge,refresh,destroy]";

function parseFlags(argv: string[]): Flags {
  const get = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
  };
  const int = (name: string, fallback: number) => {
    const v = Number(get(name, String(fallback)));
    if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a non-negative integer`);
    return v;
  };
  if (argv.includes("--help")) {
    console.log(USAGE);
    process.exit(0);
  }
  const sizes = get("sizes", "10,100,1000").split(",").map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error("--sizes must be a comma-separated list of positive integers");
  const parallel = int("parallel", 16);
  if (parallel < 1) throw new Error("--parallel must be at least 1");
  const missing = cliMissing();
  if (missing) throw new Error(missing);
  const phases = get("phases", PHASES.join(",")).split(",").map((s) => s.trim()) as Phase[];
  const unknown = phases.filter((p) => !PHASES.includes(p));
  if (unknown.length > 0) throw new Error(`--phases: unknown phase ${unknown.join(", ")} (the phases: ${PHASES.join(", ")})`);
  return {
    phases: PHASES.filter((p) => p === "converge" || phases.includes(p)),
    sizes,
    latencyMs: int("latency", 20),
    parallel,
    siteSpacesPerSection: int("site-spaces", 1),
    shareLinks: int("share-links", 3),
    out: path.resolve(ROOT, get("out", "bench/results")),
    checkpointEveryCall: argv.includes("--checkpoint-every-call"),
    ...(argv.includes("--profile-host") ? { profileHost: path.resolve(ROOT, get("profile-host", "bench/profiles")) } : {}),
  };
}

/** What one engine run cost, however the engine is driven. */
interface Measured {
  wallMs: number;
  /** CPU of the whole process tree the engine started, from the kernel's children accounting. */
  totalCpuMs: number | null;
  /** The SDK's dynamic-provider host: the process running the provider's code. */
  hostCpuMs: number | null;
  hostPeakRssKb: number | null;
  /** The `node` running the Pulumi program. */
  programCpuMs: number | null;
  /** The largest sum of resident memory over the tree's processes at one time. */
  treePeakRssKb: number | null;
  /** CPU of this process meanwhile: the emulator answering, and the /proc sampling. */
  benchCpuMs: number;
  /** The sampled split by process role (CPU, peak RSS, process count), for the JSON. */
  roles: TreeUsage["byRole"];
}

type Op = "up" | "preview" | "refresh" | "destroy";

/** One stack of the benchmark program; the config says which provider it declares. */
interface Stack {
  run(op: Op, config: Record<string, string>): Promise<Measured>;
}

/** Starts measuring the process tree rooted at `pid`; the returned function ends it, once the root has exited. */
function measureTree(pid: number, classify: (argv: string[], isRoot: boolean) => string): () => { usage: TreeUsage; childrenCpuMs: number | null; benchCpuMs: number } {
  const children0 = childrenCpuMs();
  const self0 = process.cpuUsage();
  const sampler = sampleTree(pid, classify);
  return () => {
    const usage = sampler.stop();
    const children1 = childrenCpuMs();
    const self = process.cpuUsage(self0);
    return { usage, childrenCpuMs: children0 === null || children1 === null ? null : children1 - children0, benchCpuMs: (self.user + self.system) / 1000 };
  };
}

const isScript = (argv: string[], tail: string) => argv.length > 1 && argv[1]!.startsWith("/") && argv[1]!.includes(tail);

/**
 * The processes of a `pulumi` run: the CLI itself (the engine), our language host, the `node`
 * running the program (@pulumi/pulumi/cmd/run), and the SDK's provider host
 * (@pulumi/pulumi/cmd/dynamic-provider, under a shell script). `node -e` lookups of those paths, the
 * shell and the language host are "other".
 */
function cliRole(argv: string[], isRoot: boolean): string {
  if (isRoot) return "engine";
  if (isScript(argv, "cmd/dynamic-provider")) return "host";
  if (isScript(argv, "cmd/run")) return "program";
  return "other";
}

async function cliStack(dir: string, f: Flags): Promise<Stack> {
  fs.mkdirSync(dir, { recursive: true });
  // The file backend rewrites the whole state, and a .bak copy of it, after every step: 10 MB twice
  // per step at 2000 resources, so a 1000-section converge spent 6 minutes of the CLI's CPU on the
  // null provider alone, and figures dominated by that say nothing about the provider.
  // PULUMI_SKIP_CHECKPOINTS writes it once at the end; --checkpoint-every-call measures the per-step writes.
  const env: Record<string, string> = f.checkpointEveryCall ? {} : { PULUMI_SKIP_CHECKPOINTS: "true" };
  if (f.profileHost) {
    // pulumi hands its environment to the plugins it starts: every node under it loads the preload,
    // which profiles only the provider host.
    fs.mkdirSync(f.profileHost, { recursive: true });
    const preload = path.join(ROOT, "dist/bench/hostProfile.js");
    Object.assign(env, { BENCH_PROFILE_DIR: f.profileHost, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${JSON.stringify(preload)}`.trim() });
  }
  const cli: CliStack = await createCliStack(dir, PROGRAM, "bench", { env });
  return {
    async run(op, config) {
      let m: ReturnType<ReturnType<typeof measureTree>> | undefined;
      const report = await cli.run(op, config, {
        outputs: false,
        flags: ["--parallel", String(f.parallel)],
        onSpawn: (pid) => {
          const end = measureTree(pid, cliRole);
          return () => void (m = end());
        },
      });
      if (report.code !== 0 || report.error) throw new Error(`pulumi ${op}: ${report.error ?? `exit ${report.code}`}\n${report.stdout.slice(-4000)}`);
      const role = m!.usage.byRole;
      return {
        wallMs: report.wallMs,
        totalCpuMs: m!.childrenCpuMs,
        hostCpuMs: role.host?.cpuMs ?? 0,
        hostPeakRssKb: role.host?.peakRssKb ?? null,
        programCpuMs: role.program?.cpuMs ?? 0,
        treePeakRssKb: m!.usage.peakTreeRssKb,
        benchCpuMs: m!.benchCpuMs,
        roles: role,
      };
    },
  };
}

interface PhaseResult {
  phase: Phase;
  requests: MethodCounts;
  requestsTotal: number;
  minimum: MethodCounts;
  minimumTotal: number;
  /** writes / the minimum's writes; null when that is zero (then the target is no write). */
  ratio: number | null;
  /** GETs / the minimum's GETs (the safety listings count); null when that is zero. */
  getRatio: number | null;
  boundMs: number;
  wallToBound: number | null;
  /** This package's resources. */
  gitbook: Measured;
  /** The same program shape on a provider that does nothing. */
  null: Measured;
  /** (host CPU - the null provider's host CPU) / resources: what this package's code costs per resource. */
  hostCpuPerResourceMs: number | null;
  model: string;
}

function byMethod(emu: Emulator): MethodCounts {
  const out: MethodCounts = {};
  for (const e of emu.log.entries) out[e.method] = (out[e.method] ?? 0) + 1;
  return out;
}

/** Spaces with the IDs the program derives from indexes (the seeded six are too few, and one space per site space is realistic). */
function seedSpaces(emu: Emulator, t: Topology): void {
  const org = emu.seeded.organizationId;
  for (let i = 0; i < t.sections; i++) {
    for (let j = 0; j <= t.siteSpacesPerSection; j++) {
      const base = emu.store.newId("spc");
      const id = `${SPACE_PREFIX}${i}-${j}`;
      emu.store.spaces.set(id, { ...base, id, orgId: org, title: `Product ${i} v${j + 1}`, emoji: "📘", visibility: "in-collection", updatedAt: base.createdAt, revision: `rev_${i}_${j}` });
    }
  }
}

interface SizeResult {
  topology: Topology;
  resources: number;
  phases: PhaseResult[];
}

/** Every phase, in the order they run: the operation, and whether the program declares the one-field change. */
const PLAN: [Phase, Op, boolean][] = [
  ["converge", "up", false],
  ["noop", "up", false],
  ["preview", "preview", true],
  ["refresh", "refresh", false],
  ["change", "up", true],
  ["destroy", "destroy", true],
];
const PHASES = PLAN.map(([phase]) => phase);

async function runSize(sections: number, f: Flags): Promise<SizeResult> {
  const t: Topology = { sections, siteSpacesPerSection: f.siteSpacesPerSection, shareLinks: f.shareLinks };
  // The contract check (every exchange validated against GitBook's spec with ajv) belongs to the test
  // suites, which turn it on (test/support/contract.setup.ts); here it would be the emulator's cost
  // counted in every phase, so it is off whatever the environment says.
  const emu = await Emulator.start({ seed: 7, contract: false });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gitbook-bench-${sections}-`));
  try {
    seedSpaces(emu, t);
    emu.faults.add({ latencyMs: f.latencyMs });
    const gitbook = await cliStack(path.join(dir, "gitbook"), f);
    const nul = await cliStack(path.join(dir, "null"), f);
    const config = (change: boolean, nullProvider: boolean) => ({
      "gitbook:token": emu.token,
      "gitbook:apiUrl": emu.url,
      "gitbook:organizationId": emu.seeded.organizationId,
      "bench:topology": JSON.stringify({ ...t, spacePrefix: SPACE_PREFIX, change, nullProvider }),
    });
    const plan = PLAN.filter(([phase]) => f.phases.includes(phase));
    const phases: PhaseResult[] = [];
    const resources = resourceCount(t);
    for (const [phase, op, change] of plan) {
      emu.log.reset();
      const ours = await gitbook.run(op, config(change, false)).catch((e: Error) => Promise.reject(new Error(`${sections} sections, ${phase}: ${e.message}`)));
      const requests = byMethod(emu);
      // Right after ours, so both see much the same load on a shared machine.
      const baseline = await nul.run(op, config(change, true)).catch((e: Error) => Promise.reject(new Error(`${sections} sections, ${phase} (null provider): ${e.message}`)));
      if (emu.log.entries.length !== total(requests)) throw new Error(`${sections} sections, ${phase}: the null provider sent requests`);
      const m = model(t, phase, f.parallel);
      const minimumTotal = total(m.min);
      const boundMs = criticalPathMs(m, f.latencyMs);
      phases.push({
        phase,
        requests,
        requestsTotal: total(requests),
        minimum: m.min,
        minimumTotal,
        ratio: writes(m.min) > 0 ? writes(requests) / writes(m.min) : null,
        getRatio: (m.min.GET ?? 0) > 0 ? (requests.GET ?? 0) / m.min.GET! : null,
        boundMs,
        wallToBound: boundMs > 0 ? ours.wallMs / boundMs : null,
        gitbook: ours,
        null: baseline,
        hostCpuPerResourceMs: ours.hostCpuMs === null || baseline.hostCpuMs === null ? null : (ours.hostCpuMs - baseline.hostCpuMs) / resources,
        model: m.why,
      });
    }
    // Without a destroy phase (--phases) the objects stay: the emulator goes with them below.
    const left = emu.store.sites.size + emu.store.sections.size + emu.store.siteSpaces.size + emu.store.shareLinks.size;
    if (f.phases.includes("destroy") && left !== 0) throw new Error(`${sections} sections: destroy left ${left} objects on the emulator`);
    return { topology: t, resources, phases };
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const writes = (c: MethodCounts) => total(c) - (c.GET ?? 0);
const fmtCounts = (c: MethodCounts) =>
  Object.keys(c).length === 0
    ? "0"
    : ["GET", "POST", "PUT", "PATCH", "DELETE"]
        .filter((k) => c[k])
        .map((k) => `${k} ${c[k]}`)
        .join(", ");
const fix = (n: number | null, d = 2) => (n === null ? "-" : n.toFixed(d));
const sec = (ms: number | null) => fix(ms === null ? null : ms / 1000);
const mb = (kb: number | null) => fix(kb === null ? null : kb / 1024, 0);
/** CPU of the tree outside the provider host (and, for the CLI, outside the program's node). */
const engineCpuMs = (m: Measured) => (m.totalCpuMs === null || m.hostCpuMs === null ? null : m.totalCpuMs - m.hostCpuMs - (m.programCpuMs ?? 0));

/** "ours (null provider)" in one cell. */
const pair = (ours: string, nul: string) => `${ours} (${nul})`;

function print(size: SizeResult, f: Flags): void {
  const t = size.topology;
  const engine = `pulumi CLI (${f.checkpointEveryCall ? "state written after every step" : "PULUMI_SKIP_CHECKPOINTS"})`;
  console.log(
    `\n${engine}: ${t.sections} sections x ${t.siteSpacesPerSection} extra site space(s), ${t.shareLinks} share links = ${size.resources} resources; latency ${f.latencyMs} ms, --parallel ${f.parallel}; (in brackets: the same on the null provider)`,
  );
  const head = [
    "phase", "requests", "minimum", "writes/min", "GETs/min", "bound s", "wall s", "wall/bound",
    "total CPU s", "engine CPU s", "program CPU s", "host CPU s", "+host CPU/res ms",
    "host RSS MB", "tree RSS MB", "emulator CPU s",
  ];
  const rows = size.phases.map((p) => [
    p.phase,
    fmtCounts(p.requests),
    fmtCounts(p.minimum),
    p.ratio === null ? (writes(p.requests) === 0 ? "0 = 0" : "MISSED") : fix(p.ratio),
    p.getRatio === null ? ((p.requests.GET ?? 0) === 0 ? "0 = 0" : "MISSED") : fix(p.getRatio),
    sec(p.boundMs),
    pair(sec(p.gitbook.wallMs), sec(p.null.wallMs)),
    fix(p.wallToBound, 1),
    pair(sec(p.gitbook.totalCpuMs), sec(p.null.totalCpuMs)),
    pair(sec(engineCpuMs(p.gitbook)), sec(engineCpuMs(p.null))),
    pair(sec(p.gitbook.programCpuMs), sec(p.null.programCpuMs)),
    pair(sec(p.gitbook.hostCpuMs), sec(p.null.hostCpuMs)),
    fix(p.hostCpuPerResourceMs),
    pair(mb(p.gitbook.hostPeakRssKb), mb(p.null.hostPeakRssKb)),
    pair(mb(p.gitbook.treePeakRssKb), mb(p.null.treePeakRssKb)),
    sec(p.gitbook.benchCpuMs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

/** The issue's goals (#38): per phase, the wall time this package may take against what bounds it. */
function goalOf(p: PhaseResult): { against: number; limit: number; basis: string } {
  if (p.phase === "refresh" || p.phase === "destroy") {
    const against = Math.max(p.null.wallMs, p.boundMs);
    return { against, limit: 1.2, basis: against === p.null.wallMs ? "null" : "floor" };
  }
  return { against: p.null.wallMs, limit: 1.1, basis: "null" };
}

/** The peak RSS of the `node` running the program. */
const programRssKb = (m: Measured) => m.roles.program?.peakRssKb ?? null;

/** The phase summary: wall time beside the null provider's and the request floor, with the goals' ratios. */
interface SummaryRow {
  phase: Phase;
  oursS: number;
  nullS: number;
  floorS: number;
  /** ours / what the goal compares with (the null provider; for refresh and destroy the larger of it and the floor). */
  wallRatio: number;
  wallGoal: number;
  /** Peak RSS of the program's process; null in phases that do not run the program (refresh, destroy under the CLI). */
  programRssMb: number | null;
  nullProgramRssMb: number | null;
  rssRatio: number | null;
  /** writes / the minimum's (1 when both are zero); GETs / the minimum's, the safety listings counted. */
  requestRatio: number | null;
  getRatio: number | null;
  /** The provider host's CPU per resource, beside the null provider's. */
  hostCpuPerResourceMs: number | null;
}

function summary(size: SizeResult): SummaryRow[] {
  return size.phases.map((p) => {
    const g = goalOf(p);
    const ours = programRssKb(p.gitbook);
    const nul = programRssKb(p.null);
    const ran = ours !== null && nul !== null && (p.gitbook.programCpuMs ?? 0) > 0;
    return {
      phase: p.phase,
      oursS: p.gitbook.wallMs / 1000,
      nullS: p.null.wallMs / 1000,
      floorS: p.boundMs / 1000,
      wallRatio: p.gitbook.wallMs / g.against,
      wallGoal: g.limit,
      programRssMb: ran ? ours / 1024 : null,
      nullProgramRssMb: ran ? nul / 1024 : null,
      rssRatio: ran ? ours / nul : null,
      requestRatio: p.ratio ?? (writes(p.requests) === 0 ? 1 : null),
      getRatio: p.getRatio ?? ((p.requests.GET ?? 0) === 0 ? 1 : null),
      hostCpuPerResourceMs: p.hostCpuPerResourceMs,
    };
  });
}

function printSummary(size: SizeResult): void {
  console.log(`\nsummary (${size.topology.sections} sections, ${size.resources} resources): wall ratio = this package / null provider (refresh, destroy: / max(null, floor)); goals 1.1 (1.2), program RSS 1.1, writes 1.00; GETs against one safety listing per container`);
  const head = ["phase", "this package s", "null provider s", "request floor s", "wall ratio", "goal", "program RSS MB", "null RSS MB", "RSS ratio", "writes/min", "GETs/min", "+host CPU/res ms"];
  const rows = summary(size).map((r) => [
    r.phase,
    fix(r.oursS),
    fix(r.nullS),
    r.floorS > 0 ? fix(r.floorS) : "-",
    fix(r.wallRatio),
    `${r.wallRatio <= r.wallGoal ? "met" : "missed"} (${r.wallGoal})`,
    fix(r.programRssMb, 0),
    fix(r.nullProgramRssMb, 0),
    r.rssRatio === null ? "-" : `${fix(r.rssRatio)} ${r.rssRatio <= 1.1 ? "met" : "missed"}`,
    r.requestRatio === null ? "MISSED" : fix(r.requestRatio),
    r.getRatio === null ? "MISSED" : fix(r.getRatio),
    fix(r.hostCpuPerResourceMs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

/** Whether each phase's wall ratio at each size is within 10 % of its ratio at the size before (#38: 2000 sections against 1000). */
function scaling(results: SizeResult[]): void {
  for (let i = 1; i < results.length; i++) {
    const [a, b] = [summary(results[i - 1]!), summary(results[i]!)];
    const cells = b.map((r) => {
      const before = a.find((x) => x.phase === r.phase);
      if (!before) return `${r.phase} -`;
      const drift = r.wallRatio / before.wallRatio - 1;
      return `${r.phase} ${drift >= 0 ? "+" : ""}${(drift * 100).toFixed(0)} % ${Math.abs(drift) <= 0.1 ? "met" : "missed"}`;
    });
    console.log(`\nwall ratio at ${results[i]!.topology.sections} sections against ${results[i - 1]!.topology.sections} (goal: within 10 %): ${cells.join(", ")}`);
  }
}

/** The facts a figure needs beside it: the machine, its load, and the versions measured. */
function machineFacts(f: Flags): Record<string, unknown> {
  let cliVersion: string | null = null;
  try {
    cliVersion = execFileSync(path.join(CLI_BIN, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  } catch {
    cliVersion = null;
  }
  const cpus = os.cpus();
  return { node: process.version, cpus: cpus.length, cpuModel: cpus[0]?.model, platform: `${os.platform()} ${os.release()}`, cliVersion, loadAverage: os.loadavg() };
}

async function main(): Promise<void> {
  const f = parseFlags(process.argv.slice(2));
  const started = new Date();
  const machine = machineFacts(f);
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(" / ");
  console.log(
    `machine: ${machine.cpus as number} cores (${machine.cpuModel as string}), Node ${machine.node as string}, Pulumi CLI ${(machine.cliVersion as string | null) ?? "-"}, ${machine.platform as string}; load average (1 / 5 / 15 min) ${load(machine.loadAverage as number[])}`,
  );
  const results: SizeResult[] = [];
  fs.mkdirSync(f.out, { recursive: true });
  const file = path.join(f.out, `${started.toISOString().replace(/[:.]/g, "-")}.json`);
  // Rewritten after every size, so that a long run stopped at its largest size keeps the others.
  const write = (done: boolean) => {
    const loadNow = os.loadavg();
    const summaries = results.map((r) => ({ sections: r.topology.sections, resources: r.resources, rows: summary(r) }));
    const machineNow = { ...machine, [done ? "loadAverageAtEnd" : "loadAverageSoFar"]: loadNow };
    fs.writeFileSync(file, JSON.stringify({ startedAt: started.toISOString(), flags: f, machine: machineNow, summaries, results }, null, 2));
    return loadNow;
  };
  for (const n of f.sizes) {
    const r = await runSize(n, f);
    print(r, f);
    printSummary(r);
    results.push(r);
    write(false);
    console.log(`(so far: ${path.relative(process.cwd(), file)}, load average ${load(os.loadavg())})`);
  }
  scaling(results);
  const loadAtEnd = write(true);
  console.log(`\nload average at the end: ${load(loadAtEnd)}`);
  console.log(`\nresults: ${path.relative(process.cwd(), file)}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
