/**
 * Drives whole Pulumi programs through the harness CLI (a child process per run, as `pulumi up` is a
 * process per run) against an emulator living in the test process. The program is
 * test/lifecycle/program, which declares whatever resources a step lists.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Emulator, type EmulatorOptions } from "../emulator/emulator";
import type { RunReport, StateFile } from "../harness/engine";

export const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "dist/test/harness/cli.js");
export const PROGRAM = path.join(ROOT, "test/lifecycle/program");

export interface Decl {
  kind: string;
  name: string;
  args: Record<string, unknown>;
  dependsOn?: string[];
}

export interface Deployment {
  emu: Emulator;
  dir: string;
  statePath: string;
  hostLog: string;
  /** `config` is merged over the run's own config (e.g. another program's settings, or a deliberate mistake). */
  run(
    op: "preview" | "up" | "refresh" | "destroy",
    resources?: Decl[],
    opts?: { programDir?: string; packageRoot?: string; config?: Record<string, string> },
  ): Promise<RunReport & { stdout: string }>;
  state(): StateFile;
  /** The resource of that name in state. */
  resource(name: string): StateFile["resources"][number];
  close(): Promise<void>;
}

export async function startDeployment(opts: EmulatorOptions & { stack?: string } = {}): Promise<Deployment> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  const emu = await Emulator.start(opts);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-lifecycle-"));
  const statePath = path.join(dir, "state.json");
  const hostLog = path.join(dir, "host.log");
  const stack = opts.stack ?? "test";
  let last: Decl[] = [];
  const d: Deployment = {
    emu,
    dir,
    statePath,
    hostLog,
    async run(op, resources, runOpts = {}) {
      if (resources) last = resources;
      const reportPath = path.join(dir, `report-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
      const config = {
        "gitbook:token": emu.token,
        "gitbook:apiUrl": emu.url,
        "gitbook:organizationId": emu.seeded.organizationId,
        "gitbook:openApiWaitSeconds": "10",
        "lifecycle:resources": JSON.stringify(last),
        ...runOpts.config,
      };
      const programDir = runOpts.programDir ?? PROGRAM;
      const stdout = await new Promise<string>((resolve, reject) => {
        // Async on purpose: the emulator answers from this process's event loop.
        execFile(
          process.execPath,
          [
            CLI, op, "--program", programDir, "--stack", stack, "--state", statePath, "--report", reportPath, "--host-log", hostLog,
            ...(runOpts.packageRoot ? ["--package", runOpts.packageRoot] : []),
          ],
          { env: { ...process.env, HARNESS_CONFIG: JSON.stringify(config), GITBOOK_TOKEN: "" }, maxBuffer: 16 * 1024 * 1024 },
          (err, out, errOut) => {
            fs.appendFileSync(hostLog, out + errOut);
            if (err && !fs.existsSync(reportPath)) reject(new Error(`harness ${op} failed: ${errOut || err.message}`));
            else resolve(out);
          },
        );
      });
      const report = JSON.parse(fs.readFileSync(reportPath, "utf8")) as RunReport;
      return { ...report, stdout };
    },
    state: () => (fs.existsSync(statePath) ? (JSON.parse(fs.readFileSync(statePath, "utf8")) as StateFile) : { version: 1, resources: [] }),
    resource(name) {
      const r = d.state().resources.find((x) => x.name === name);
      if (!r) throw new Error(`no resource ${name} in state`);
      return r;
    },
    async close() {
      await emu.close();
    },
  };
  return d;
}

/** Steps of a report other than the root stack, as "op name" strings. */
export function steps(r: RunReport): string[] {
  return r.steps.filter((s) => s.type !== "pulumi:pulumi:Stack").map((s) => `${s.op} ${s.name}`);
}
