/**
 * `npm run bench -- [--engine harness|cli|both] [--sizes 10,100,1000] [--latency 20] [--parallel 16] [--site-spaces 1] [--share-links 3] [--out bench/results] [--checkpoint-every-call] [--profile-host DIR] [--phases converge,refresh,destroy]`
 *
 * Runs the benchmark program (bench/program) through the real `pulumi` CLI (.pulumi-cli, built by
 * `npm run pulumi-cli`) or through the lifecycle harness (dev/harness), a process per run, against
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
import type { RunReport } from "../dev/harness/engine";
import { CLI_BIN, cliMissing, createCliStack, type CliStack } from "../dev/pulumiCli";
import { criticalPathMs, model, resourceCount, total, type EngineName, type MethodCounts, type Phase, type Topology } from "./model";
import { childrenCpuMs, sampleTree, type TreeUsage } from "./proctree";

const ROOT = path.resolve(__dirname, "../..");
const HARNESS = path.join(ROOT, "dist/dev/harness/cli.js");
const PROGRAM = path.join(ROOT, "bench/program");
const SPACE_PREFIX = "spc_bench_";

interface Flags {
  engines: EngineName[];
  /** Why the engine was chosen for the user, when they did not choose. */
  engineNote?: string;
  sizes: number[];
  latencyMs: number;
  parallel: number;
  siteSpacesPerSection: number;
  shareLinks: number;
  out: string;
  /**
   * Write the whole state after every provider call, as both engines do by default (the harness to
   * its file, `pulumi` to its file backend), instead of coalescing (harness) or writing it once at
   * the end (`pulumi` with PULUMI_SKIP_CHECKPOINTS).
   */
  checkpointEveryCall: boolean;
  /** Where the provider host's CPU profiles go (bench/hostProfile.ts); CLI engine only. */
  profileHost?: string;
  /** The phases to run, in their usual order; converge always runs (every other phase needs the stack). */
  phases: Phase[];
}

const USAGE =
  "usage: npm run bench -- [--engine harness|cli|both] [--sizes 10,100,1000] [--latency 20] [--parallel 16] [--site-spaces 1] [--share-links 3] [--out bench/results] [--checkpoint-every-call] [--profile-host DIR] [--phases converge,refresh,destroy]";

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
  const asked = get("engine", "");
  let engines: EngineName[];
  let engineNote: string | undefined;
  if (asked === "harness" || asked === "cli") engines = [asked];
  else if (asked === "both") engines = ["harness", "cli"];
  else if (asked === "") {
    engines = missing ? ["harness"] : ["cli"];
    if (missing) engineNote = `measuring through the lifecycle harness: ${missing}`;
  } else throw new Error(`--engine must be harness, cli or both (got "${asked}")`);
  if (engines.includes("cli") && missing) throw new Error(missing);
  const phases = get("phases", PHASES.join(",")).split(",").map((s) => s.trim()) as Phase[];
  const unknown = phases.filter((p) => !PHASES.includes(p));
  if (unknown.length > 0) throw new Error(`--phases: unknown phase ${unknown.join(", ")} (the phases: ${PHASES.join(", ")})`);
  return {
    phases: PHASES.filter((p) => p === "converge" || phases.includes(p)),
    engines,
    engineNote,
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
  /** The `node` running the Pulumi program (the CLI's; in the harness it shares the harness process). */
  programCpuMs: number | null;
  /** The largest sum of resident memory over the tree's processes at one time. */
  treePeakRssKb: number | null;
  /** CPU of this process meanwhile: the emulator answering, and the /proc sampling. */
  benchCpuMs: number;
  /** The sampled split by process role (CPU, peak RSS, process count), for the JSON. */
  roles: TreeUsage["byRole"];
}

type Op = RunReport["op"];

/** One stack of the benchmark program on one engine; the config says which provider it declares. */
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

function harnessStack(dir: string, f: Flags): Stack {
  fs.mkdirSync(dir, { recursive: true });
  return {
    run(op, config) {
      const reportPath = path.join(dir, `report-${op}.json`);
      const usagePath = path.join(dir, "host-usage.jsonl");
      fs.rmSync(reportPath, { force: true });
      fs.rmSync(usagePath, { force: true });
      const args = [HARNESS, op, "--program", PROGRAM, "--stack", "bench", "--state", path.join(dir, "state.json"), "--report", reportPath];
      args.push("--host-log", path.join(dir, "host.log"), "--parallel", String(f.parallel), "--quiet");
      // The harness rewrites its whole state file after every provider call by default: at 2000
      // resources that is ~2000 rewrites of ~13 MB, which would be most of what this measures, and is
      // no cost of the provider's. Coalescing to one rewrite per 250 ms keeps the figures about the provider.
      const checkpoint = f.checkpointEveryCall ? {} : { HARNESS_CHECKPOINT_MS: "250" };
      return new Promise((resolve, reject) => {
        const t0 = performance.now();
        let end: ReturnType<typeof measureTree> | undefined;
        // Async on purpose: the emulator answers from this process's event loop.
        const child = execFile(
          process.execPath,
          args,
          { env: { ...process.env, ...checkpoint, HARNESS_CONFIG: JSON.stringify(config), HARNESS_HOST_USAGE: usagePath, GITBOOK_TOKEN: "" }, maxBuffer: 64 * 1024 * 1024 },
          (err, _out, errOut) => {
            const wallMs = performance.now() - t0;
            const m = end!();
            if (!fs.existsSync(reportPath)) return reject(new Error(`harness ${op} failed: ${errOut || err?.message}`));
            const report = JSON.parse(fs.readFileSync(reportPath, "utf8")) as RunReport;
            if (report.error) return reject(new Error(`harness ${op}: ${report.error} (host log: ${path.join(dir, "host.log")})`));
            // The host reports its own usage just before the harness stops it (HARNESS_HOST_USAGE in
            // dev/harness/host.ts): exact, where a sample would miss its last interval.
            const line = fs.existsSync(usagePath) ? fs.readFileSync(usagePath, "utf8").trim().split("\n").at(-1) : undefined;
            const host = line ? (JSON.parse(line) as { cpuUserMs: number; cpuSystemMs: number; peakRssKb?: number }) : undefined;
            resolve({
              wallMs,
              totalCpuMs: m.childrenCpuMs,
              hostCpuMs: host ? host.cpuUserMs + host.cpuSystemMs : null,
              hostPeakRssKb: host?.peakRssKb ?? null,
              programCpuMs: null,
              treePeakRssKb: m.usage.peakTreeRssKb,
              benchCpuMs: m.benchCpuMs,
              roles: m.usage.byRole,
            });
          },
        );
        end = measureTree(child.pid!, (argv, isRoot) => (isRoot ? "harness" : cliRole(argv, false)));
      });
    },
  };
}

/**
 * The processes of a `pulumi` run: the CLI itself (the engine), our language host, the `node`
 * running the program (@pulumi/pulumi/cmd/run), and the SDK's provider host
 * (@pulumi/pulumi/cmd/dynamic-provider, under a shell script). `node -e` lookups of those paths, the
 * shell and the language host are "other". The harness's child is the same provider host.
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
  /** Methods whose minimum is an upper bound (shared listings): see PhaseModel.atMost. */
  minimumAtMost: string[];
  minimumTotal: number;
  /** requests / minimum; null when the minimum is zero (then the target is zero requests). */
  ratio: number | null;
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
  engine: EngineName;
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

async function runSize(engine: EngineName, sections: number, f: Flags): Promise<SizeResult> {
  const t: Topology = { sections, siteSpacesPerSection: f.siteSpacesPerSection, shareLinks: f.shareLinks };
  // The contract check (every exchange validated against GitBook's spec with ajv) belongs to the test
  // suites, which turn it on (test/support/contract.setup.ts); here it would be the emulator's cost
  // counted in every phase, so it is off whatever the environment says.
  const emu = await Emulator.start({ seed: 7, contract: false });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gitbook-bench-${engine}-${sections}-`));
  try {
    seedSpaces(emu, t);
    emu.faults.add({ latencyMs: f.latencyMs });
    const stackIn = (sub: string) => (engine === "cli" ? cliStack(path.join(dir, sub), f) : Promise.resolve(harnessStack(path.join(dir, sub), f)));
    const gitbook = await stackIn("gitbook");
    const nul = await stackIn("null");
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
      const ours = await gitbook.run(op, config(change, false)).catch((e: Error) => Promise.reject(new Error(`${engine}, ${sections} sections, ${phase}: ${e.message}`)));
      const requests = byMethod(emu);
      // Right after ours, so both see much the same load on a shared machine.
      const baseline = await nul.run(op, config(change, true)).catch((e: Error) => Promise.reject(new Error(`${engine}, ${sections} sections, ${phase} (null provider): ${e.message}`)));
      if (emu.log.entries.length !== total(requests)) throw new Error(`${engine}, ${sections} sections, ${phase}: the null provider sent requests`);
      const m = model(t, phase, f.parallel, engine);
      const minimumTotal = total(m.min);
      const boundMs = criticalPathMs(m, f.latencyMs);
      phases.push({
        phase,
        requests,
        requestsTotal: total(requests),
        minimum: m.min,
        minimumAtMost: m.atMost ?? [],
        minimumTotal,
        ratio: minimumTotal > 0 ? total(requests) / minimumTotal : null,
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
    if (f.phases.includes("destroy") && left !== 0) throw new Error(`${engine}, ${sections} sections: destroy left ${left} objects on the emulator`);
    return { engine, topology: t, resources, phases };
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `atMost`: methods whose count is an upper bound (see PhaseModel.atMost), shown as "GET <=2004". */
const fmtCounts = (c: MethodCounts, atMost: readonly string[] = []) =>
  Object.keys(c).length === 0
    ? "0"
    : ["GET", "POST", "PUT", "PATCH", "DELETE"]
        .filter((k) => c[k])
        .map((k) => `${k} ${atMost.includes(k) ? "<=" : ""}${c[k]}`)
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
  const cli = size.engine === "cli";
  const writes = f.checkpointEveryCall ? "state written after every step" : cli ? "PULUMI_SKIP_CHECKPOINTS" : "state written at most every 250 ms";
  const engine = `${cli ? "pulumi CLI" : "lifecycle harness"} (${writes})`;
  console.log(
    `\n${engine}: ${t.sections} sections x ${t.siteSpacesPerSection} extra site space(s), ${t.shareLinks} share links = ${size.resources} resources; latency ${f.latencyMs} ms, --parallel ${f.parallel}; (in brackets: the same on the null provider)`,
  );
  const head = [
    "phase", "requests", "minimum", "ratio", "bound s", "wall s", "wall/bound",
    "total CPU s", cli ? "engine CPU s" : "harness CPU s", ...(cli ? ["program CPU s"] : []), "host CPU s", "+host CPU/res ms",
    "host RSS MB", "tree RSS MB", "emulator CPU s",
  ];
  const rows = size.phases.map((p) => [
    p.phase,
    fmtCounts(p.requests),
    fmtCounts(p.minimum, p.minimumAtMost),
    p.ratio === null ? (p.requestsTotal === 0 ? "0 = 0" : "MISSED") : fix(p.ratio),
    sec(p.boundMs),
    pair(sec(p.gitbook.wallMs), sec(p.null.wallMs)),
    fix(p.wallToBound, 1),
    pair(sec(p.gitbook.totalCpuMs), sec(p.null.totalCpuMs)),
    pair(sec(engineCpuMs(p.gitbook)), sec(engineCpuMs(p.null))),
    ...(cli ? [pair(sec(p.gitbook.programCpuMs), sec(p.null.programCpuMs))] : []),
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

/** The issue's goals (#22): per phase, the wall time this package may take against what bounds it. */
function goalOf(p: PhaseResult): { against: number; limit: number; basis: string } {
  if (p.phase === "refresh" || p.phase === "destroy") {
    const against = Math.max(p.null.wallMs, p.boundMs);
    return { against, limit: 1.2, basis: against === p.null.wallMs ? "null" : "floor" };
  }
  return { against: p.null.wallMs, limit: 1.05, basis: "null" };
}

/** The peak RSS of the process running the program: its own `node` under the CLI, the harness itself. */
const programRssKb = (m: Measured, engine: EngineName) => (engine === "cli" ? m.roles.program?.peakRssKb : m.roles.harness?.peakRssKb) ?? null;

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
  requestRatio: number | null;
}

function summary(size: SizeResult): SummaryRow[] {
  return size.phases.map((p) => {
    const g = goalOf(p);
    const ours = programRssKb(p.gitbook, size.engine);
    const nul = programRssKb(p.null, size.engine);
    const ran = ours !== null && nul !== null && (size.engine === "harness" || (p.gitbook.programCpuMs ?? 0) > 0);
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
      requestRatio: p.ratio ?? (p.requestsTotal === 0 ? 1 : null),
    };
  });
}

function printSummary(size: SizeResult): void {
  console.log(`\nsummary (${size.engine}, ${size.topology.sections} sections, ${size.resources} resources): wall ratio = this package / null provider (refresh, destroy: / max(null, floor)); goals 1.05 (1.2), program RSS 1.1, requests 1.00 (at most 1.00 where the model's GETs are "<=": shared listings)`);
  const head = ["phase", "this package s", "null provider s", "request floor s", "wall ratio", "goal", "program RSS MB", "null RSS MB", "RSS ratio", "requests/min"];
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
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

/** The facts a figure needs beside it: the machine, its load, and the versions measured. */
function machineFacts(f: Flags): Record<string, unknown> {
  let cliVersion: string | null = null;
  if (f.engines.includes("cli")) {
    try {
      cliVersion = execFileSync(path.join(CLI_BIN, "pulumi"), ["version"], { encoding: "utf8" }).trim();
    } catch {
      cliVersion = null;
    }
  }
  const cpus = os.cpus();
  return { node: process.version, cpus: cpus.length, cpuModel: cpus[0]?.model, platform: `${os.platform()} ${os.release()}`, cliVersion, loadAverage: os.loadavg() };
}

async function main(): Promise<void> {
  const f = parseFlags(process.argv.slice(2));
  if (f.engines.includes("harness") && !fs.existsSync(HARNESS)) throw new Error(`${HARNESS} is missing: run \`npm run build\` first (npm run bench does)`);
  if (f.engineNote) console.log(f.engineNote);
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
    const summaries = results.map((r) => ({ engine: r.engine, sections: r.topology.sections, resources: r.resources, rows: summary(r) }));
    const machineNow = { ...machine, [done ? "loadAverageAtEnd" : "loadAverageSoFar"]: loadNow };
    fs.writeFileSync(file, JSON.stringify({ startedAt: started.toISOString(), flags: f, machine: machineNow, summaries, results }, null, 2));
    return loadNow;
  };
  for (const n of f.sizes) {
    for (const engine of f.engines) {
      const r = await runSize(engine, n, f);
      print(r, f);
      printSummary(r);
      results.push(r);
      write(false);
      console.log(`(so far: ${path.relative(process.cwd(), file)}, load average ${load(os.loadavg())})`);
    }
  }
  const loadAtEnd = write(true);
  console.log(`\nload average at the end: ${load(loadAtEnd)}`);
  console.log(`\nresults: ${path.relative(process.cwd(), file)}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
