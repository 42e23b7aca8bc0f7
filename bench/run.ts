/**
 * `npm run bench -- [--sizes 10,100,1000] [--latency 20] [--parallel 16] [--site-spaces 1] [--share-links 3] [--out bench/results] [--checkpoint-every-call]`
 *
 * Runs the benchmark program (bench/program) through the harness CLI, the way `pulumi` runs a
 * program (a process per run, the SDK's dynamic-provider host over gRPC), against an in-process
 * emulator that delays every answer by `--latency` ms. For each topology size it runs the phases a
 * user does: converge from empty, a no-op up, a preview of a one-field change, refresh, that change,
 * destroy. Per phase it prints the requests the emulator saw by method, the minimum the API needs
 * (bench/model.ts), wall time against the request-bound lower limit, and the provider host's CPU time
 * and peak RSS. Results also go to `<out>/<timestamp>.json`.
 *
 * This is a measurement script: it asserts nothing except that each run succeeded and that destroy
 * left the emulator empty, since figures measured on a loaded machine are not test material.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { Emulator } from "../test/emulator/emulator";
import type { RunReport } from "../test/harness/engine";
import { criticalPathMs, model, resourceCount, total, type MethodCounts, type Phase, type Topology } from "./model";

const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "dist/test/harness/cli.js");
const PROGRAM = path.join(ROOT, "bench/program");
const SPACE_PREFIX = "spc_bench_";

interface Flags {
  sizes: number[];
  latencyMs: number;
  parallel: number;
  siteSpacesPerSection: number;
  shareLinks: number;
  out: string;
  /** Rewrite harness state after every provider call (the harness's default) instead of coalescing. */
  checkpointEveryCall: boolean;
}

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
    console.log("usage: npm run bench -- [--sizes 10,100,1000] [--latency 20] [--parallel 16] [--site-spaces 1] [--share-links 3] [--out bench/results] [--checkpoint-every-call]");
    process.exit(0);
  }
  const sizes = get("sizes", "10,100,1000").split(",").map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error("--sizes must be a comma-separated list of positive integers");
  const parallel = int("parallel", 16);
  if (parallel < 1) throw new Error("--parallel must be at least 1");
  return {
    sizes,
    latencyMs: int("latency", 20),
    parallel,
    siteSpacesPerSection: int("site-spaces", 1),
    shareLinks: int("share-links", 3),
    out: path.resolve(ROOT, get("out", "bench/results")),
    checkpointEveryCall: argv.includes("--checkpoint-every-call"),
  };
}

interface PhaseResult {
  phase: Phase;
  requests: MethodCounts;
  requestsTotal: number;
  minimum: MethodCounts;
  minimumTotal: number;
  /** requests / minimum; null when the minimum is zero (then the target is zero requests). */
  ratio: number | null;
  wallMs: number;
  boundMs: number;
  wallToBound: number | null;
  hostCpuMs: number | null;
  /** (host CPU - the host's CPU for an empty program) / resources: the provider's marginal cost per resource. */
  hostCpuPerResourceMs: number | null;
  hostPeakRssMb: number | null;
  /** CPU of the harness process (the program on the SDK and the engine: what `pulumi` itself would spend). */
  harnessCpuMs: number | null;
  /** CPU of this process: the emulator answering (and this script, which does nothing meanwhile). */
  emulatorCpuMs: number;
  model: string;
}

interface HostUsage {
  cpuUserMs: number;
  cpuSystemMs: number;
  peakRssKb?: number;
}

/**
 * CPU of this process's reaped children (and theirs), from /proc/self/stat: the harness CLI and the
 * provider host it waits for. Linux only; null elsewhere.
 */
function childrenCpuMs(): number | null {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime + cstime, in 10 ms ticks
  } catch {
    return null;
  }
}

function byMethod(emu: Emulator): MethodCounts {
  const out: MethodCounts = {};
  for (const e of emu.log.entries) out[e.method] = (out[e.method] ?? 0) + 1;
  return out;
}

function harness(
  op: "preview" | "up" | "refresh" | "destroy",
  dir: string,
  config: Record<string, string>,
  f: Flags,
): Promise<{ report: RunReport; usage: HostUsage | undefined }> {
  const reportPath = path.join(dir, `report-${op}.json`);
  const usagePath = path.join(dir, "host-usage.jsonl");
  fs.rmSync(reportPath, { force: true });
  fs.rmSync(usagePath, { force: true });
  const args = [CLI, op, "--program", PROGRAM, "--stack", "bench", "--state", path.join(dir, "state.json"), "--report", reportPath];
  args.push("--host-log", path.join(dir, "host.log"), "--parallel", String(f.parallel), "--quiet");
  // The harness rewrites its whole state file after every provider call by default: at 2000
  // resources that is ~2000 rewrites of ~13 MB, which would be most of what this measures, and is
  // no cost of the provider's. Coalescing to one rewrite per 250 ms keeps the figures about the provider.
  const checkpoint = f.checkpointEveryCall ? {} : { HARNESS_CHECKPOINT_MS: "250" };
  return new Promise((resolve, reject) => {
    // Async on purpose: the emulator answers from this process's event loop.
    execFile(
      process.execPath,
      args,
      { env: { ...process.env, ...checkpoint, HARNESS_CONFIG: JSON.stringify(config), HARNESS_HOST_USAGE: usagePath, GITBOOK_TOKEN: "" }, maxBuffer: 64 * 1024 * 1024 },
      (err, _out, errOut) => {
        if (!fs.existsSync(reportPath)) return reject(new Error(`harness ${op} failed: ${errOut || err?.message}`));
        const report = JSON.parse(fs.readFileSync(reportPath, "utf8")) as RunReport;
        const line = fs.existsSync(usagePath) ? fs.readFileSync(usagePath, "utf8").trim().split("\n").at(-1) : undefined;
        resolve({ report, usage: line ? (JSON.parse(line) as HostUsage) : undefined });
      },
    );
  });
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

/** Host CPU of a run that declares nothing: process start, SDK load, configure. Subtracted per resource. */
async function hostBaselineMs(f: Flags): Promise<number | null> {
  const emu = await Emulator.start({ seed: 7 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-bench-baseline-"));
  try {
    const config = { "gitbook:token": emu.token, "gitbook:apiUrl": emu.url, "gitbook:organizationId": emu.seeded.organizationId, "bench:topology": JSON.stringify({ empty: true }) };
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { usage } = await harness("up", dir, config, f);
      if (!usage) return null;
      samples.push(usage.cpuUserMs + usage.cpuSystemMs);
    }
    return samples.sort((a, b) => a - b)[1]!;
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function runSize(sections: number, f: Flags, baselineMs: number | null): Promise<{ topology: Topology; resources: number; phases: PhaseResult[] }> {
  const t: Topology = { sections, siteSpacesPerSection: f.siteSpacesPerSection, shareLinks: f.shareLinks };
  const emu = await Emulator.start({ seed: 7 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gitbook-bench-${sections}-`));
  try {
    seedSpaces(emu, t);
    emu.faults.add({ latencyMs: f.latencyMs });
    const config = (change: boolean) => ({
      "gitbook:token": emu.token,
      "gitbook:apiUrl": emu.url,
      "gitbook:organizationId": emu.seeded.organizationId,
      "bench:topology": JSON.stringify({ ...t, spacePrefix: SPACE_PREFIX, change }),
    });
    const plan: [Phase, "preview" | "up" | "refresh" | "destroy", boolean][] = [
      ["converge", "up", false],
      ["noop", "up", false],
      ["preview", "preview", true],
      ["refresh", "refresh", false],
      ["change", "up", true],
      ["destroy", "destroy", true],
    ];
    const phases: PhaseResult[] = [];
    const resources = resourceCount(t);
    for (const [phase, op, change] of plan) {
      emu.log.reset();
      const children0 = childrenCpuMs();
      const self0 = process.cpuUsage();
      const t0 = performance.now();
      const { report, usage } = await harness(op, dir, config(change), f);
      const wallMs = performance.now() - t0;
      const self = process.cpuUsage(self0);
      const children1 = childrenCpuMs();
      if (report.error) throw new Error(`${sections} sections, ${phase}: ${report.error} (host log: ${path.join(dir, "host.log")})`);
      const requests = byMethod(emu);
      const m = model(t, phase, f.parallel);
      const minimumTotal = total(m.min);
      const boundMs = criticalPathMs(m, f.latencyMs);
      const cpu = usage ? usage.cpuUserMs + usage.cpuSystemMs : null;
      phases.push({
        phase,
        requests,
        requestsTotal: total(requests),
        minimum: m.min,
        minimumTotal,
        ratio: minimumTotal > 0 ? total(requests) / minimumTotal : null,
        wallMs,
        boundMs,
        wallToBound: boundMs > 0 ? wallMs / boundMs : null,
        hostCpuMs: cpu,
        hostCpuPerResourceMs: cpu === null || baselineMs === null ? null : Math.max(0, cpu - baselineMs) / resources,
        hostPeakRssMb: usage?.peakRssKb !== undefined ? usage.peakRssKb / 1024 : null,
        harnessCpuMs: children0 === null || children1 === null || cpu === null ? null : children1 - children0 - cpu,
        emulatorCpuMs: (self.user + self.system) / 1000,
        model: m.why,
      });
    }
    const left = emu.store.sites.size + emu.store.sections.size + emu.store.siteSpaces.size + emu.store.shareLinks.size;
    if (left !== 0) throw new Error(`${sections} sections: destroy left ${left} objects on the emulator`);
    return { topology: t, resources, phases };
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const fmtCounts = (c: MethodCounts) =>
  Object.keys(c).length === 0
    ? "0"
    : ["GET", "POST", "PUT", "PATCH", "DELETE"]
        .filter((k) => c[k])
        .map((k) => `${k} ${c[k]}`)
        .join(", ");
const fix = (n: number | null, d = 2) => (n === null ? "-" : n.toFixed(d));

function print(size: { topology: Topology; resources: number; phases: PhaseResult[] }, f: Flags): void {
  const t = size.topology;
  console.log(
    `\n${t.sections} sections x ${t.siteSpacesPerSection} extra site space(s), ${t.shareLinks} share links = ${size.resources} resources; latency ${f.latencyMs} ms, --parallel ${f.parallel}`,
  );
  const head = ["phase", "requests", "minimum", "ratio", "wall s", "bound s", "wall/bound", "host CPU s", "CPU/res ms", "peak RSS MB", "harness CPU s", "emulator CPU s"];
  const rows = size.phases.map((p) => [
    p.phase,
    fmtCounts(p.requests),
    fmtCounts(p.minimum),
    p.ratio === null ? (p.requestsTotal === 0 ? "0 = 0" : "MISSED") : fix(p.ratio),
    fix(p.wallMs / 1000),
    fix(p.boundMs / 1000),
    fix(p.wallToBound, 1),
    fix(p.hostCpuMs === null ? null : p.hostCpuMs / 1000),
    fix(p.hostCpuPerResourceMs),
    fix(p.hostPeakRssMb, 0),
    fix(p.harnessCpuMs === null ? null : p.harnessCpuMs / 1000),
    fix(p.emulatorCpuMs / 1000),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

async function main(): Promise<void> {
  const f = parseFlags(process.argv.slice(2));
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm run bench does)`);
  const started = new Date();
  const baselineMs = await hostBaselineMs(f);
  console.log(`provider host CPU for a run that declares nothing (start, SDK load, configure): ${baselineMs === null ? "unavailable" : `${(baselineMs / 1000).toFixed(2)} s`}`);
  const results = [];
  for (const n of f.sizes) {
    const r = await runSize(n, f, baselineMs);
    print(r, f);
    results.push(r);
  }
  fs.mkdirSync(f.out, { recursive: true });
  const file = path.join(f.out, `${started.toISOString().replace(/[:.]/g, "-")}.json`);
  const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, platform: `${os.platform()} ${os.release()}` };
  fs.writeFileSync(file, JSON.stringify({ startedAt: started.toISOString(), flags: f, machine, hostBaselineCpuMs: baselineMs, results }, null, 2));
  console.log(`\nresults: ${path.relative(process.cwd(), file)}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
