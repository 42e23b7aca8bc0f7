/**
 * Runs Pulumi programs through the real `pulumi` CLI (built by `npm run pulumi-cli` into
 * .pulumi-cli/) with a local file backend, and turns what the engine reports (its event log, its
 * exit code, `pulumi stack export`) into RunReport and StateFile (dev/report.ts). The CLI is the only
 * engine tests deploy with: in CI (CI=true) every suite runs through it, and a missing CLI fails the
 * run instead of skipping.
 */
import { execFile, execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import * as yaml from "js-yaml";
import { killOnExit } from "./children";
import { ROOT } from "./checkout";
import type { RunReport, StateFile, Step, StepKind } from "./report";
import { linkPackage } from "./project";

const SDK_VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")) as { version: string }).version;
export const CLI_BIN = path.join(ROOT, ".pulumi-cli", `v${SDK_VERSION}`);
/** The built CLI; failing that (the demo only: tests need the build), a `pulumi` on PATH. */
function pulumiCommand(): string {
  return fs.existsSync(path.join(CLI_BIN, "pulumi")) ? path.join(CLI_BIN, "pulumi") : "pulumi";
}
const PASSPHRASE = "pulumi-gitbook-tests";

export type Engine = "cli";

/**
 * Why the CLI cannot be used here, or undefined when it can. A build from other sources throws
 * instead (see cliStale): skipping would hide it, and running it tests code the checkout no longer has.
 */
export function cliMissing(): string | undefined {
  for (const b of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
    if (!fs.existsSync(path.join(CLI_BIN, b))) return `${path.relative(ROOT, path.join(CLI_BIN, b))} is not built: run \`npm run pulumi-cli\` (needs Go; a cold build takes 3 to 15 minutes on 2 cores)`;
  }
  const stale = cliStale();
  if (stale) throw new Error(stale);
  return undefined;
}

/**
 * Why the build in `bin` is not the build of the checkout's tools/pulumi-cli, or undefined when it is.
 * scripts/pulumi-cli.sh stamps a build with the hash of the sources it built from, and rebuilds when
 * they change; `npm test` runs it, a direct `vitest run` does not. A language host built before its
 * parent watch was added stayed running once its starter was killed, and the test of that watch
 * timed out while the source was right.
 */
export function cliStale(bin = CLI_BIN, src = path.join(ROOT, "tools/pulumi-cli")): string | undefined {
  const hash = crypto.createHash("sha256");
  for (const f of ["go.mod", "go.sum", "language-host/main.go"]) hash.update(fs.readFileSync(path.join(src, f)));
  const stamp = fs.existsSync(path.join(bin, ".stamp")) ? fs.readFileSync(path.join(bin, ".stamp"), "utf8").trim() : "";
  if (stamp === hash.digest("hex")) return undefined;
  return `${path.relative(ROOT, bin)} was built from other sources than ${path.relative(ROOT, src)} (go.mod, go.sum, language-host/main.go) now holds: run \`npm run pulumi-cli\` to rebuild it (warm, under 20 seconds)`;
}

/**
 * The engine that suites deploying programs run on: the built CLI. Undefined when it is not built:
 * those suites then skip, saying why, rather than report results the CLI has not confirmed. In CI
 * (CI=true), or when GITBOOK_TEST_ENGINE=cli asks for it, a missing CLI is an error.
 */
export function testEngine(): Engine | undefined {
  const asked = process.env.GITBOOK_TEST_ENGINE;
  if (asked && asked !== "cli") throw new Error(`GITBOOK_TEST_ENGINE can only be "cli" (got "${asked}"): the lifecycle harness no longer runs tests`);
  const missing = cliMissing();
  if (missing && (process.env.CI === "true" || asked === "cli")) throw new Error(`the suites that deploy programs run through the real Pulumi CLI, and ${missing}`);
  return missing ? undefined : "cli";
}

/**
 * Under vitest, counts a `pulumi` process the tests started: a line naming its subcommand in this
 * process's file under GITBOOK_TEST_PULUMI_COUNT (see test/support/pulumiCount.ts, which prints the totals).
 */
export function countPulumi(args: readonly string[]): void {
  const dir = process.env.GITBOOK_TEST_PULUMI_COUNT;
  if (dir) fs.appendFileSync(path.join(dir, String(process.pid)), `${args.find((a) => !a.startsWith("-")) ?? "-"}\n`);
}

/** The PULUMI_CLI for a process the tests start that runs `pulumi` itself (recover): the built CLI, each command counted. */
export function countedPulumiCli(): NodeJS.ProcessEnv {
  return {
    PULUMI_CLI: path.join(ROOT, "test/support/countedPulumi.sh"),
    GITBOOK_TEST_PULUMI_REAL: path.join(CLI_BIN, "pulumi"),
    ...(process.env.GITBOOK_TEST_PULUMI_COUNT ? { GITBOOK_TEST_PULUMI_COUNT: process.env.GITBOOK_TEST_PULUMI_COUNT } : {}),
  };
}

/**
 * With GITBOOK_TEST_PULUMI_LOG set to a file, each `pulumi` command appends a line to it when it
 * ends: the test file running it (under vitest), its wall time in ms and its subcommand, tab-separated,
 * so a suite's CLI cost can be counted per file (`cut -f1 | sort | uniq -c`) after `npm test`.
 */
function logInvocation(args: string[], wallMs: number): void {
  countPulumi(args);
  const log = process.env.GITBOOK_TEST_PULUMI_LOG;
  if (!log) return;
  const file = (globalThis as { __vitest_worker__?: { filepath?: string } }).__vitest_worker__?.filepath;
  const where = file ? path.relative(ROOT, file) : "-";
  fs.appendFileSync(log, `${where}\t${Math.round(wallMs)}\t${args.filter((a) => !a.startsWith("-")).slice(0, 2).join(" ")}\n`);
}

/** The environment every CLI call gets: its own home and backend, offline, no ambient GitBook settings. */
export function cliEnv(home: string, backend: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GITBOOK_") && !k.startsWith("PULUMI_")) env[k] = v;
  return {
    ...env,
    PATH: `${CLI_BIN}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // Unhides --event-log, as the Automation API does.
    PULUMI_DEBUG_COMMANDS: "true",
    GITBOOK_TOKEN: "",
  };
}

interface EngineEvent {
  resourcePreEvent?: { metadata: StepMeta; planning?: boolean };
  resOutputsEvent?: { metadata: StepMeta; planning?: boolean };
  resOpFailedEvent?: { metadata: StepMeta };
  diagnosticEvent?: { urn?: string; message: string; severity: string; prefix?: string };
  summaryEvent?: { result?: string };
}

interface StepMeta {
  op: string;
  urn: string;
  type: string;
  old?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
  new?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
  keys?: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function changedKeys(a: Record<string, unknown> = {}, b: Record<string, unknown> = {}): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== "__provider" && !same(a[k], b[k])).sort();
}

const STEP_OF: Record<string, StepKind> = {
  create: "create",
  update: "update",
  same: "same",
  delete: "delete",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
};

/** The engine's event log as steps (provider resources left out). */
export function reportFromEvents(
  op: RunReport["op"],
  lines: string[],
): Pick<RunReport, "steps" | "error" | "checkFailures" | "failed" | "refreshed"> & { diagnostics: string[]; stackOutputs?: Record<string, unknown> } {
  const steps = new Map<string, Step>();
  const refreshed = new Map<string, NonNullable<RunReport["refreshed"]>[number]>();
  const errors: string[] = [];
  const diagnostics: string[] = [];
  const checkFailures: NonNullable<RunReport["checkFailures"]> = [];
  let failed: RunReport["failed"];
  let stackOutputs: Record<string, unknown> | undefined;
  for (const line of lines) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as EngineEvent;
    const d = e.diagnosticEvent;
    if (d && d.severity !== "debug") diagnostics.push(`${d.severity}: ${d.message.trim()}`);
    if (d && d.severity === "error") {
      errors.push(d.message.trim());
      if (d.urn && !failed && !d.urn.includes("::pulumi:pulumi:Stack::")) failed = { urn: d.urn, type: d.urn.split("::")[2]!.split("$").pop()!, name: d.urn.split("::").pop()! };
      // How the engine words a failure that Check returned.
      const failure = /resource '[^']+': property (\S+) value \{.*\} has a problem: (.*)$/s.exec(d.message.trim());
      if (failure && d.urn) checkFailures.push({ urn: d.urn, property: failure[1]!, reason: failure[2]! });
    }
    const m = (e.resOutputsEvent ?? e.resourcePreEvent ?? e.resOpFailedEvent)?.metadata;
    if (!m || m.type.startsWith("pulumi:providers:")) continue;
    if (e.resOutputsEvent && m.type === "pulumi:pulumi:Stack" && m.new?.outputs) stackOutputs = m.new.outputs;
    const name = m.urn.split("::").pop()!;
    let kind: StepKind | undefined;
    let changed: string[] = [];
    if (op !== "refresh" && m.op === "refresh") {
      // An `up --refresh`'s reads, ahead of its plan.
      if (!e.resOutputsEvent) continue;
      changed = changedKeys(m.old?.outputs, m.new?.outputs);
      refreshed.set(m.urn, { urn: m.urn, type: m.type, name, op: changed.length ? "refresh" : "same", ...(changed.length ? { changed } : {}), inputs: m.new?.inputs ?? {} });
      continue;
    }
    if (op === "refresh") {
      if (!e.resOutputsEvent) continue;
      if (m.op === "delete") kind = "read-gone";
      else {
        changed = changedKeys(m.old?.outputs, m.new?.outputs);
        kind = changed.length ? "refresh" : "same";
      }
    } else {
      kind = STEP_OF[m.op];
      if (!kind) continue;
      // A replacement is reported in three events; the one carrying the replace keys wins.
      const prior = steps.get(m.urn);
      if (prior?.op === "replace" && kind === "replace" && !m.keys?.length) continue;
      if (kind === "update" || kind === "replace") changed = changedKeys(m.old?.inputs, m.new?.inputs);
    }
    steps.set(m.urn, {
      urn: m.urn,
      type: m.type,
      name,
      op: kind,
      ...(changed.length ? { changed } : {}),
      ...(kind === "replace" && m.keys?.length ? { replaces: [...m.keys] } : {}),
    });
  }
  // The engine adds a bare "update failed" on the stack when a resource failed: the resource's own
  // error is the report's; the bare one only when there is nothing else.
  const specific = errors.filter((e) => !/^(update|preview|refresh|destroy) failed$/.test(e));
  const error = (specific.length ? specific : errors).join("\n");
  return {
    steps: [...steps.values()],
    ...(refreshed.size ? { refreshed: [...refreshed.values()] } : {}),
    ...(errors.length ? { error } : {}),
    ...(checkFailures.length ? { checkFailures } : {}),
    ...(failed ? { failed } : {}),
    diagnostics,
    ...(stackOutputs ? { stackOutputs } : {}),
  };
}

export type OnSpawn = (pid: number) => (() => void) | void;

export interface CliStack {
  name: string;
  programDir: string;
  configFile: string;
  statePath: string;
  env: NodeJS.ProcessEnv;
  /**
   * Runs `pulumi <args>` in the program's folder; resolves whatever the exit code, with the command's
   * wall time. `onSpawn` gets the process id as soon as it exists, and what it returns is called as
   * soon as the process has exited, before anything reads its output: the benchmark measures the
   * command's process tree between the two.
   */
  pulumi(args: string[], opts?: { cwd?: string; onSpawn?: OnSpawn }): Promise<{ code: number; stdout: string; stderr: string; wallMs: number }>;
  /**
   * `outputs: false` skips the `pulumi stack output` that follows an up or refresh, so the run is one
   * `pulumi` process (the benchmark times exactly that one); `wallMs` is that command's wall time.
   */
  run(
    op: RunReport["op"],
    config: Record<string, string>,
    opts?: { programDir?: string; flags?: string[]; outputs?: boolean; onSpawn?: OnSpawn },
  ): Promise<RunReport & { stdout: string; code: number; diagnostics: string[]; wallMs: number }>;
  /**
   * Writes `config` into a config file of its own for one run (secret keys encrypted by the CLI),
   * to pass as --config-file; runs with different config can then go at once.
   */
  writeRunConfig(config: Record<string, string>, cwd?: string): Promise<{ file: string; id: string }>;
  state(): StateFile;
  /** `pulumi stack export`, as the CLI writes it. */
  exported(): { version?: number; deployment: { resources?: Array<Record<string, any>> } };
  /** `pulumi stack import` of an edited export (e.g. state written by an earlier version). */
  importState(exported: ReturnType<CliStack["exported"]>): Promise<void>;
}

const SECRET_KEY = /token|secret|password|certificate/i;

function projectOf(programDir: string): { name: string; stackFile: (stack: string) => string } {
  const doc = yaml.load(fs.readFileSync(path.join(programDir, "Pulumi.yaml"), "utf8")) as Record<string, any>;
  const stackDir = doc.stackConfigDir ? path.resolve(programDir, String(doc.stackConfigDir)) : programDir;
  return { name: String(doc.name), stackFile: (stack) => path.join(stackDir, `Pulumi.${stack}.yaml`) };
}

/** A stack as `pulumi stack init` leaves it on a file backend, and the key its secrets are encrypted with. */
interface StackTemplate {
  /** The backend's `.pulumi` folder after the init. */
  backend: string;
  /** The passphrase secrets provider's state (`encryptionsalt`), as the CLI writes it into a stack's config. */
  salt: string;
  /** PBKDF2-SHA256 of the passphrase and that salt, 1,000,000 rounds, 32 bytes: the AES-256-GCM key. */
  key: Buffer;
}

const SECURE_SIG = "4dabf18193072939515e22adb298388d";

/**
 * `pulumi stack init` is a process of seconds on a loaded machine, and `pulumi config set --secret` another
 * (with a million PBKDF2 rounds in it), and the suites make a stack per deployment, hundreds in all. What
 * init writes (the checkpoint naming the stack and its secrets provider's salt, with their `.attrs`) does
 * not depend on where the backend is, so the CLI's own files are made once per CLI version, project,
 * stack name and passphrase on this machine, and copied for each stack; and secrets are encrypted here
 * as the CLI does it (below), under the key of that salt, saved beside the copy. The key is checked by
 * decrypting the salt's own check value, "pulumi", as the CLI does before it trusts a passphrase.
 */
async function stackTemplate(projectName: string, stack: string, env: NodeJS.ProcessEnv): Promise<StackTemplate> {
  const passphrase = String(env.PULUMI_CONFIG_PASSPHRASE ?? "");
  const tag = crypto.createHash("sha256").update(`${SDK_VERSION}\0${projectName}\0${stack}\0${passphrase}`).digest("hex").slice(0, 16);
  const root = path.join(os.tmpdir(), "pulumi-gitbook-stack-templates");
  const final = path.join(root, tag);
  if (!fs.existsSync(path.join(final, "secrets.json"))) {
    fs.mkdirSync(root, { recursive: true });
    const work = fs.mkdtempSync(path.join(root, "making-"));
    const init = path.join(work, "init");
    fs.mkdirSync(init);
    fs.mkdirSync(path.join(work, "backend"));
    fs.writeFileSync(path.join(init, "Pulumi.yaml"), `name: ${projectName}\nruntime: nodejs\n`);
    const t0 = performance.now();
    // Async, as every run: the test's emulator lives in this event loop.
    await promisify(execFile)(pulumiCommand(), ["stack", "init", stack, "--non-interactive"], { cwd: init, env: { ...env, PULUMI_HOME: path.join(work, "home"), PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}` } });
    logInvocation(["stack", "init"], performance.now() - t0);
    const salt = String((yaml.load(fs.readFileSync(path.join(init, `Pulumi.${stack}.yaml`), "utf8")) as { encryptionsalt: string }).encryptionsalt);
    const key = await promisify(crypto.pbkdf2)(passphrase, Buffer.from(salt.split(":")[1]!, "base64"), 1_000_000, 32, "sha256");
    fs.writeFileSync(path.join(work, "secrets.json"), JSON.stringify({ salt, key: key.toString("base64") }));
    fs.rmSync(init, { recursive: true });
    fs.rmSync(path.join(work, "home"), { recursive: true, force: true });
    // Another worker may have made it meanwhile: theirs is as good.
    try {
      fs.renameSync(work, final);
    } catch {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  const { salt, key } = JSON.parse(fs.readFileSync(path.join(final, "secrets.json"), "utf8")) as { salt: string; key: string };
  const t: StackTemplate = { backend: path.join(final, "backend", ".pulumi"), salt, key: Buffer.from(key, "base64") };
  if (decryptSecret(t.key, salt.split(":").slice(2).join(":")) !== "pulumi") throw new Error(`the stack template in ${final} does not match the passphrase: delete that folder`);
  return t;
}

/** A secret as the CLI's passphrase provider writes it: `v1:` base64(nonce) `:` base64(AES-256-GCM ciphertext and tag). */
function encryptSecret(key: Buffer, value: string): string {
  const nonce = crypto.randomBytes(12);
  const c = crypto.createCipheriv("aes-256-gcm", key, nonce);
  const sealed = Buffer.concat([c.update(value, "utf8"), c.final(), c.getAuthTag()]);
  return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}

function decryptSecret(key: Buffer, text: string): string | undefined {
  try {
    const [v, nonce, data] = text.split(":");
    if (v !== "v1" || !nonce || !data) return undefined;
    const sealed = Buffer.from(data, "base64");
    const d = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
    d.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

/** Whether stack outputs as the event log shows them hold a secret (shown there as "[secret]"). */
function holdsSecret(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(holdsSecret);
  if (v && typeof v === "object") return SECURE_SIG in v || Object.values(v).some(holdsSecret);
  return false;
}

/**
 * A stack of the project in `programDir` on a file backend under `dir`. Its config lives in a file of
 * its own (--config-file), seeded from the project's stack file when there is one, so the tests never
 * write into the checkout. `opts.env` is added to every CLI call's environment (e.g. PULUMI_* engine
 * settings, which cliEnv otherwise clears).
 */
export async function createCliStack(
  dir: string,
  programDir: string,
  stack: string,
  opts: { packageRoot?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliStack> {
  const packageRoot = opts.packageRoot ?? ROOT;
  const home = path.join(dir, "pulumi-home");
  const backend = path.join(dir, "backend");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(backend, { recursive: true });
  const env = { ...cliEnv(home, backend), ...opts.env };
  const project = projectOf(programDir);
  const configFile = path.join(dir, `Pulumi.${stack}.yaml`);
  const seeded = fs.existsSync(project.stackFile(stack)) ? (yaml.load(fs.readFileSync(project.stackFile(stack), "utf8")) as Record<string, any>) : {};
  const baseConfig: Record<string, unknown> = { ...(seeded?.config ?? {}) };
  /** Secret config encrypted so far, by key: the value and its ciphertext. */
  const secured: Record<string, { value: string; secure: string }> = {};
  let cache: ReturnType<CliStack["exported"]> | undefined;
  /** Runs started on this stack that may change its outputs: a run's outputs read after the next one would be that one's. */
  let runs = 0;

  const pulumi: CliStack["pulumi"] = (args, opts = {}) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      let exited: (() => void) | void;
      // Async on purpose: tests keep the emulator in their own event loop.
      const child = execFile(pulumiCommand(), args, { cwd: opts.cwd ?? programDir, env, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
        const wallMs = performance.now() - t0;
        logInvocation(args, wallMs);
        exited?.();
        const code = err ? (typeof (err as any).code === "number" ? (err as any).code : 1) : 0;
        resolve({ code, stdout, stderr, wallMs });
      });
      killOnExit(child);
      if (child.pid !== undefined) exited = opts.onSpawn?.(child.pid);
    });
  const must = async (args: string[], cwd?: string) => {
    const r = await pulumi(args, { cwd });
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed: ${r.stderr || r.stdout}`);
    return r;
  };

  // The stack `pulumi stack init` makes, copied (see stackTemplate); its config file carries the salt
  // the CLI would have taken from the checkpoint at the first `config set --secret`.
  const template = await stackTemplate(project.name, stack, env);
  fs.cpSync(template.backend, path.join(backend, ".pulumi"), { recursive: true });
  fs.writeFileSync(configFile, yaml.dump({ encryptionsalt: template.salt, config: baseConfig }));

  const cli: CliStack = {
    name: stack,
    programDir,
    configFile,
    statePath: path.join(backend, ".pulumi", "stacks", project.name, `${stack}.json`),
    env,
    pulumi,
    async run(op, config, runOpts = {}) {
      const cwd = runOpts.programDir ?? programDir;
      linkPackage(cwd, packageRoot);
      const { file: runConfig, id } = await cli.writeRunConfig(config, cwd);
      const events = path.join(dir, `events-${id}.jsonl`);
      const flags = ["-s", stack, "--config-file", runConfig, "--non-interactive", "--color", "never", "--event-log", events, ...(runOpts.flags ?? [])];
      const verb = op === "preview" ? ["preview"] : [op, "--yes", "--skip-preview"];
      if (op !== "preview") runs++;
      const r = await pulumi([...verb, ...flags], { cwd, onSpawn: runOpts.onSpawn });
      cache = undefined;
      const lines = fs.existsSync(events) ? fs.readFileSync(events, "utf8").split("\n") : [];
      const parsed = reportFromEvents(op, lines);
      const stdout = r.stdout + r.stderr;
      const report: RunReport & { stdout: string; code: number; diagnostics: string[]; wallMs: number } = {
        op,
        steps: parsed.steps,
        ...(parsed.refreshed ? { refreshed: parsed.refreshed } : {}),
        stdout,
        code: r.code,
        diagnostics: parsed.diagnostics,
        ...(parsed.checkFailures ? { checkFailures: parsed.checkFailures } : {}),
        ...(parsed.failed ? { failed: parsed.failed } : {}),
        wallMs: r.wallMs,
      };
      if (r.code !== 0) report.error = parsed.error ?? (r.stderr.trim() || `pulumi ${op} exited with ${r.code}`);
      if (op !== "preview" && op !== "destroy" && runOpts.outputs !== false) {
        // The event log carries the stack's outputs, secrets as "[secret]". Only outputs holding a
        // secret, or a run that reported none (a failed one), need `pulumi stack output`, and only when
        // a test reads them: then, before the stack's next run changes them.
        if (parsed.stackOutputs && !holdsSecret(parsed.stackOutputs)) report.outputs = parsed.stackOutputs;
        else {
          const run = runs;
          let read: { value?: Record<string, unknown> } | undefined;
          Object.defineProperty(report, "outputs", {
            enumerable: false,
            get() {
              if (read) return read.value;
              if (runs !== run) throw new Error(`the ${op}'s stack outputs were read after the stack's next run: read them before`);
              read = {};
              const t0 = performance.now();
              try {
                const out = execFileSync(pulumiCommand(), ["stack", "output", "--json", "--show-secrets", "-s", stack], { cwd, env, stdio: "pipe", maxBuffer: 256 * 1024 * 1024 }).toString("utf8");
                if (out.trim()) read.value = JSON.parse(out);
              } catch {
                // As before: a stack with no outputs to show leaves them undefined.
              } finally {
                logInvocation(["stack", "output"], performance.now() - t0);
              }
              return read.value;
            },
          });
        }
      }
      return report;
    },
    async writeRunConfig(config, cwd = programDir) {
      const secrets = Object.entries(config).filter(([k]) => SECRET_KEY.test(k));
      let changed = false;
      for (const [k, v] of secrets) {
        if (secured[k]?.value === v) continue;
        secured[k] = { value: v, secure: encryptSecret(template.key, v) };
        changed = true;
      }
      // The stack's own file holds the secrets as `config set --secret` would have left it.
      const doc = { ...((yaml.load(fs.readFileSync(configFile, "utf8")) ?? {}) as Record<string, any>) };
      if (changed) {
        doc.config = { ...(doc.config ?? {}), ...Object.fromEntries(Object.entries(secured).map(([k, x]) => [k, { secure: x.secure }])) };
        fs.writeFileSync(configFile, yaml.dump(doc, { lineWidth: -1 }));
      }
      const secure = Object.fromEntries(secrets.map(([k]) => [k, { secure: secured[k]!.secure }]));
      const plain = Object.fromEntries(Object.entries(config).filter(([k]) => !SECRET_KEY.test(k)));
      doc.config = { ...baseConfig, ...plain, ...secure };
      // A file per run, so that runs with different programs can go at once; it keeps the salt
      // the secure values were encrypted with.
      const id = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
      const runConfig = path.join(dir, `Pulumi.${stack}.${id}.yaml`);
      fs.writeFileSync(runConfig, yaml.dump(doc, { lineWidth: -1 }));

      return { file: runConfig, id };
    },
    async importState(exported) {
      const file = path.join(dir, `import-${Date.now()}.json`);
      fs.writeFileSync(file, JSON.stringify(exported));
      await must(["stack", "import", "--file", file, "-s", stack]);
      cache = undefined;
    },
    exported() {
      if (!cache) {
        // The backend's checkpoint file holds, under `checkpoint.latest`, the deployment `pulumi stack
        // export` prints (compared byte for byte, secrets and pending operations included); only a file
        // that is not there or does not parse (a kill while the CLI wrote it) is left to the CLI to read.
        try {
          const file = JSON.parse(fs.readFileSync(cli.statePath, "utf8")) as { version: number; checkpoint: { latest?: Record<string, any> } };
          if (!file.checkpoint) throw new Error("not a checkpoint");
          cache = { version: file.version, deployment: file.checkpoint.latest ?? {} } as ReturnType<CliStack["exported"]>;
        } catch {
          const t0 = performance.now();
          cache = JSON.parse(execFileSync(pulumiCommand(), ["stack", "export", "-s", stack], { cwd: programDir, env, maxBuffer: 256 * 1024 * 1024 }).toString("utf8"));
          logInvocation(["stack", "export"], performance.now() - t0);
        }
      }
      return cache!;
    },
    state() {
      const resources = (cli.exported().deployment.resources ?? [])
        .filter((r) => !String(r.type).startsWith("pulumi:providers:"))
        .map((r) => ({
          urn: r.urn,
          type: r.type,
          name: String(r.urn).split("::").pop()!,
          custom: !!r.custom,
          ...(r.parent ? { parent: r.parent } : {}),
          ...(r.id ? { id: r.id } : {}),
          inputs: r.inputs ?? {},
          outputs: r.outputs ?? {},
          ...(r.additionalSecretOutputs ? { additionalSecretOutputs: r.additionalSecretOutputs } : {}),
          ...(r.pendingReplacement ? { pendingReplacement: true } : {}),
        }));
      return { version: 1, resources };
    },
  };
  return cli;
}
