/**
 * `pulumi-gitbook recover`: after a `pulumi up` that was killed (a cancelled CI job), resolves the
 * operations it left pending in the checkpoint, so the next `up` neither duplicates what the killed
 * run created nor adopts what it did not (see plan.ts for the rules).
 *
 * It talks to the user's `pulumi` (PULUMI_CLI, else `pulumi` on PATH): `stack export` to read the
 * checkpoint, `config get` for the stack's gitbook settings (the token too, which goes nowhere but
 * into the requests' Authorization header), and `stack import` to write the resolved checkpoint.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ProviderRuntime } from "../config";
import { longestCreateMs } from "../framework/createOnce";
import { planRecovery, recoveredCheckpoint, UNCONFIRMED, unconfirmedResources, type Exported, type Resolution } from "./plan";

export const USAGE = `Usage: pulumi-gitbook recover [options]

After a \`pulumi up\` that was interrupted (killed, a cancelled CI job), resolves what it left
pending in the stack's checkpoint, so that the next \`pulumi up\` neither creates again what the
interrupted run created nor adopts anything it did not:

  - a pending create whose object GitBook holds, and which the run provably made (same kind and
    fields, held by no other resource in state, created after the run began, or inside a site
    created after it), is written into state as that object;
  - a pending create whose object GitBook does not hold is dropped: the next up creates it;
  - a pending create GitBook may hold but nothing proves is the run's (kinds with no creation
    time, several candidates) stops the command, naming the candidates: decide with --adopt or
    --drop and run it again. Nothing is imported until every pending create is decided;
  - a pending update or delete is dropped and the resource kept as state records it:
    \`pulumi refresh\` or the next \`pulumi up\` converges it (another provider's too);
  - another provider's pending create stops the command, since \`pulumi stack import\` would clear it
    (and the next up make it again): --drop it once you know it made nothing;
  - an unconfirmed create (its answer lost, and GitBook failing when the run looked for what it made)
    is decided as a pending create is, from when it was sent, never taking what existed before it:
    the resource becomes the object it made, or leaves state so that the next up creates it.

Then it runs \`pulumi stack import\`. Run \`pulumi up\` afterwards.

Options:
  --stack <name>        The stack (default: the current stack).
  --cwd <dir>           The Pulumi project's folder (default: the current folder).
  --config-file <file>  The stack's settings file, as \`pulumi --config-file\` takes it.
  --adopt <URN=ID>      The pending create of URN made the object ID (repeatable).
  --drop <URN>          The pending create of URN made nothing: the next up creates it (repeatable).
  --since <time>        When the interrupted run began (ISO 8601, e.g. from the CI job's log), when
                        the backend kept no lock of it.
  --until <time>        When the interrupted run was stopped (ISO 8601, e.g. when the CI job was
                        cancelled): nothing created after it is taken as the run's. By default, its
                        checkpoint's last save plus the longest a create can take.
  --unlock              Remove the interrupted run's lock (as \`pulumi cancel\` does) before importing,
                        when it was not taken on this machine: only once that run is certainly dead.
                        A lock of a process of this machine that no longer runs is removed anyway.
  --from-backup         When the checkpoint of a file backend is itself empty or cut, put back the
                        copy of the previous one the backend keeps (<stack>.json.bak) and recover from
                        it. (An empty <stack>.json.attrs, which a kill may leave, is set aside without it.)
  --dry-run             Print what would be done; import nothing.
  -h, --help            Show this help.

Settings: gitbook:token (or GITBOOK_TOKEN), gitbook:apiUrl (or GITBOOK_API_URL), as \`pulumi up\` reads
them; one the stack holds but that cannot be read (a secret under another passphrase) stops it. The
token is used for the requests only and printed nowhere. Environment: PULUMI_CLI, the
\`pulumi\` to run (default: \`pulumi\` on PATH).
`;

export interface RecoverIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

interface Args {
  stack?: string;
  cwd: string;
  configFile?: string;
  adopt: Map<string, string>;
  drop: Set<string>;
  since?: number;
  until?: number;
  unlock: boolean;
  fromBackup: boolean;
  dryRun: boolean;
}

/** Runs the command; resolves to its exit code (0 done, 1 failed or undecided, 2 usage). */
export async function runRecover(argv: string[], io: Partial<RecoverIo> = {}): Promise<number> {
  const out: RecoverIo = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), ...io };
  const say = (line: string) => out.stdout.write(`${line}\n`);
  const fail = (line: string) => out.stderr.write(`pulumi-gitbook recover: ${line}\n`);
  let args: Args | "help";
  try {
    args = parse(argv, out.cwd);
  } catch (e) {
    fail(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args === "help") {
    out.stdout.write(USAGE);
    return 0;
  }
  const cli = pulumiCli(out.env, args);
  try {
    return await recover(args, cli, out.env, say, fail);
  } catch (e) {
    fail((e as Error).message);
    return 1;
  }
}

async function recover(args: Args, cli: PulumiCli, env: NodeJS.ProcessEnv, say: (l: string) => void, fail: (l: string) => void): Promise<number> {
  const exported = await exportCheckpoint(args, cli, say);
  // When the checkpoint was saved (the engine stamps each save; seen equal to the file's write): the
  // interrupted run saved each pending create before sending it, so none began later. Not the file's
  // mtime, which a copy (--from-backup) or a restored folder moves to any later time.
  const saved = Date.parse(exported.deployment.manifest?.time ?? "");
  const lastWrite = Number.isFinite(saved) ? saved : undefined;
  const pending = exported.deployment.pending_operations ?? [];
  const unconfirmed = unconfirmedResources(exported.deployment.resources ?? []);
  if (pending.length === 0 && unconfirmed.length === 0) {
    say("Nothing to recover: the checkpoint holds no pending operation and no unconfirmed create.");
    return 0;
  }
  for (const urn of [...args.adopt.keys(), ...args.drop]) {
    if (!pending.some((p) => p.type === "creating" && p.resource.urn === urn) && !unconfirmed.some((r) => r.urn === urn)) {
      const open = [...pending.map((p) => `  ${p.type} ${p.resource.urn}`), ...unconfirmed.map((r) => `  ${UNCONFIRMED} ${r.urn}`)];
      fail(`${urn} is not a pending or unconfirmed create of this stack; those are:\n${open.join("\n")}`);
      return 2;
    }
  }
  const runtime = new ProviderRuntime({ env });
  const settings = await cli.gitbookSettings(say);
  runtime.configure({ get: (k) => settings[k] });
  const ctx = { client: runtime.client(), config: runtime.config() };
  try {
    const lock = args.since === undefined ? await cli.runStartFromLock() : undefined;
    const runStart = args.since ?? lock?.time;
    const longest = longestCreateMs(ctx.config.requestTimeoutSeconds * 1000);
    const runEnd = args.until ?? (lastWrite === undefined ? undefined : lastWrite + longest);
    if (pending.length > 0) say(`${pending.length} pending operation${pending.length === 1 ? "" : "s"} in stack ${cli.stackName ?? "(current)"}; the interrupted run began ${describeStart(args.since, lock)}.`);
    if (unconfirmed.length > 0) say(`${unconfirmed.length} unconfirmed create${unconfirmed.length === 1 ? "" : "s"} in stack ${cli.stackName ?? "(current)"} (each got no answer, and what it made could not be looked for then).`);
    if (pending.length > 0) say(`It could create nothing after ${describeEnd(args.until, lastWrite, longest)}.`);
    const plan = await planRecovery(ctx, exported, { runStart, ...(runEnd !== undefined && { runEnd }), adopt: args.adopt, drop: args.drop });
    for (const p of plan) say(line(p));
    const undecided = plan.filter((p) => p.action === "undecided");
    if (undecided.length > 0) {
      fail(
        `${undecided.length} create${undecided.length === 1 ? "" : "s"} (pending or unconfirmed) could not be resolved without a guess; nothing was imported. ` +
          `Look at the candidates in GitBook, then run again with --adopt <URN>=<ID> for the object the interrupted run made, or --drop <URN> if none is.`,
      );
      return 1;
    }
    // `pulumi stack import` clears every pending operation it is given: another provider's pending create
    // would go from the checkpoint unnoticed, and the next up would make its object again.
    const others = plan.filter((p) => p.action === "keep");
    if (others.length > 0) {
      fail(
        `the checkpoint also holds pending creates of other providers (${others.map((p) => p.urn).join(", ")}); \`pulumi stack import\`, which writes what this command resolves, would clear them, and the next up would create them again. Nothing was imported. ` +
          "Check each where it lives, and run again with --drop <URN> for one that made nothing (or that you will bring in with `pulumi import`).",
      );
      return 1;
    }
    if (args.dryRun) {
      say("Dry run: nothing was imported.");
      return 0;
    }
    const locks = await cli.locks();
    if (locks.length > 0) {
      const live = locks.filter((l) => !l.stale);
      if (live.length > 0 && !args.unlock) {
        fail(
          `the stack is locked by ${live.map((l) => `${l.who} (pid ${l.pid}) since ${l.timestamp}`).join(", ")}, which may still be running; nothing was imported. ` +
            "Once that run is certainly dead (a cancelled CI job), run again with --unlock (or run `pulumi cancel`, then this command with --since <when the run began>).",
        );
        return 1;
      }
      // Only a lock whose run is gone: the same as `pulumi cancel`, which the CLI asks for after a killed run.
      await cli.must(["cancel", "--yes", ...cli.stackFlag]);
      say(`Removed the interrupted run's lock (${locks.map((l) => `${l.who}, pid ${l.pid}${l.stale ? ", no longer running" : ", --unlock"}`).join("; ")}).`);
    }
    const next = await recoveredCheckpoint(ctx, exported, plan);
    await cli.importCheckpoint(next);
    const count = (a: Resolution["action"]) => plan.filter((p) => p.action === a).length;
    say(`Imported the checkpoint: ${count("adopt")} adopted, ${count("drop")} dropped (the next up creates them), ${count("clear")} cleared. Run \`pulumi up\` next.`);
    return 0;
  } finally {
    await ctx.client.close();
  }
}

/**
 * `pulumi stack export`, and what a kill can leave a file backend unable to read. The backend (gocloud's
 * fileblob) writes a file by writing a temporary one, then its attributes beside it (`<file>.attrs`:
 * truncated, then written), then renaming the temporary one over it; before that, it copies the
 * checkpoint to `<stack>.json.bak` the same way. So a kill never leaves the checkpoint itself cut, but may
 * leave an `.attrs` empty, which the CLI reports as "failed to load checkpoint: EOF" over a complete
 * checkpoint (seen in this package's killed-run tests). The attributes are a content type and a hash that
 * nothing checks, and the backend reads a file without them: an `.attrs` that does not parse is set aside
 * (kept as `.attrs.broken`), and the checkpoint read as it is. Going back to the .bak instead would lose
 * the record of the step that ended last: a create the checkpoint saw finish, the backup holds as pending.
 * A checkpoint that is itself empty or cut (a machine that crashed after a rename it had not flushed) can
 * only be put back from the .bak, and only when asked (--from-backup): its last step may then be pending.
 */
async function exportCheckpoint(args: Args, cli: PulumiCli, say: (l: string) => void): Promise<Exported> {
  try {
    return JSON.parse((await cli.must(["stack", "export", ...cli.stackFlag])).stdout) as Exported;
  } catch (e) {
    if (!/failed to load checkpoint/.test((e as Error).message)) throw e;
    const files = await cli.checkpointFiles();
    if (!files) throw e;
    if (parsesAsJson(files.file) && brokenAttrs(files.file)) {
      if (args.dryRun) {
        say(`${files.file}.attrs is empty or cut (the CLI was killed while writing it): a run without --dry-run sets it aside; reading the checkpoint, which is complete.`);
        return fromFile(files.file);
      }
      fs.renameSync(`${files.file}.attrs`, `${files.file}.attrs.broken`);
      say(`Set aside ${files.file}.attrs, left empty or cut by the kill (kept as ${files.file}.attrs.broken); the checkpoint itself is complete.`);
      return JSON.parse((await cli.must(["stack", "export", ...cli.stackFlag])).stdout) as Exported;
    }
    if (!fs.existsSync(files.backup) || !parsesAsJson(files.backup)) throw e;
    if (!args.fromBackup) {
      throw new Error(
        `${(e as Error).message}\nThe stack's checkpoint ${files.file} cannot be read: it is empty or cut. The backend kept the one before as ${files.backup}. ` +
          "Run again with --from-backup to put it back (the broken one is kept as .broken) and recover from it: a create whose end it lacks, it still holds as pending.",
      );
    }
    if (args.dryRun) {
      say(`Reading ${files.backup} (a dry run puts nothing back).`);
      return fromFile(files.backup);
    }
    for (const suffix of ["", ".attrs"]) if (fs.existsSync(files.file + suffix)) fs.renameSync(files.file + suffix, `${files.file}.broken${suffix}`);
    fs.copyFileSync(files.backup, files.file);
    // The backup's attributes only if they parse: without them the backend reads the file all the same.
    if (fs.existsSync(`${files.backup}.attrs`) && !brokenAttrs(files.backup)) fs.copyFileSync(`${files.backup}.attrs`, `${files.file}.attrs`);
    say(`Put back ${files.backup} as the stack's checkpoint (the unreadable one is kept as ${files.file}.broken).`);
    return JSON.parse((await cli.must(["stack", "export", ...cli.stackFlag])).stdout) as Exported;
  }
}

/** A file backend's checkpoint file, as `pulumi stack export` prints it. */
function fromFile(file: string): Exported {
  const saved = JSON.parse(fs.readFileSync(file, "utf8")) as { version: number; checkpoint: { latest: Exported["deployment"] } };
  return { version: saved.version, deployment: saved.checkpoint.latest };
}

/** Whether the file's `.attrs` is there and does not parse (what the backend fails to read as "EOF"). */
function brokenAttrs(file: string): boolean {
  return fs.existsSync(`${file}.attrs`) && !parsesAsJson(`${file}.attrs`);
}

function parsesAsJson(file: string): boolean {
  try {
    JSON.parse(fs.readFileSync(file, "utf8"));
    return true;
  } catch {
    return false;
  }
}

function describeEnd(until: number | undefined, lastWrite: number | undefined, longest: number): string {
  if (until !== undefined) return `${new Date(until).toISOString()} (--until)`;
  if (lastWrite !== undefined) return `${new Date(lastWrite + longest).toISOString()} (its checkpoint's last save, ${new Date(lastWrite).toISOString()}, and the ${Math.round(longest / 60_000)} minutes a create can take at most)`;
  return "an unknown time (its checkpoint says not when it was saved): nothing is adopted by its date; --until gives it";
}

function describeStart(since: number | undefined, lock: { time: number; file: string } | undefined): string {
  if (since !== undefined) return `at ${new Date(since).toISOString()} (--since)`;
  if (lock) return `at ${new Date(lock.time).toISOString()} (its lock in the backend)`;
  return "at an unknown time (no lock of it in the backend; --since gives it)";
}

function line(p: Resolution): string {
  const verb = { adopt: `adopt ${"id" in p ? p.id : ""}`, drop: "drop", clear: "clear", keep: "keep", undecided: "UNDECIDED" }[p.action];
  const candidates = p.action === "undecided" && p.candidates.length > 0 ? `\n      candidates: ${p.candidates.map((c) => (c.createdAt ? `${c.id} (created ${c.createdAt})` : c.id)).join(", ")}` : "";
  return `  ${p.op} ${p.urn}\n    -> ${verb}: ${p.why}${candidates}`;
}

// ---- The Pulumi CLI ------------------------------------------------------------------------------

interface PulumiCli {
  stackName?: string;
  stackFlag: string[];
  must(args: string[]): Promise<{ stdout: string }>;
  /** The stack's gitbook:* settings, as `pulumi up` reads them; `say` prints what the user must know of how. */
  gitbookSettings(say: (line: string) => void): Promise<Record<string, string | undefined>>;
  runStartFromLock(): Promise<{ time: number; file: string } | undefined>;
  /** The file backend's locks on the stack; `stale` when taken by a process of this machine that is gone. */
  locks(): Promise<Lock[]>;
  /** A file backend's checkpoint of the stack and the copy of the previous one it keeps beside it. */
  checkpointFiles(): Promise<{ file: string; backup: string } | undefined>;
  importCheckpoint(next: Exported): Promise<void>;
}

interface Lock {
  file: string;
  time: number;
  timestamp: string;
  pid: number;
  who: string;
  stale: boolean;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

const SETTINGS = ["token", "apiUrl", "organizationId", "requestTimeoutSeconds"] as const;

function pulumiCli(env: NodeJS.ProcessEnv, args: Args): PulumiCli {
  const bin = env.PULUMI_CLI || "pulumi";
  const stackFlag = args.stack ? ["--stack", args.stack] : [];
  const run = (argv: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(bin, argv, { cwd: args.cwd, env, maxBuffer: 512 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : 1) : 0;
        if (err && (err as NodeJS.ErrnoException).code === "ENOENT") stderr = `${bin} was not found: install the Pulumi CLI, or set PULUMI_CLI to it`;
        resolve({ code, stdout, stderr });
      });
    });
  const must = async (argv: string[]) => {
    const r = await run(argv);
    if (r.code !== 0) throw new Error(`\`pulumi ${argv.filter((a) => a !== "--show-secrets").join(" ")}\` failed: ${(r.stderr || r.stdout).trim()}`);
    return r;
  };
  /** Where a file backend (`file://`) keeps this stack, or undefined for any other backend. */
  let backendOnce: Promise<{ root: string; project?: string; stack: string } | undefined> | undefined;
  const fileBackend = () => (backendOnce ??= readFileBackend());
  const readFileBackend = async (): Promise<{ root: string; project?: string; stack: string } | undefined> => {
    const who = await run(["whoami", "--json"]);
    if (who.code !== 0) return undefined;
    const url = (JSON.parse(who.stdout) as { url?: string }).url;
    if (!url?.startsWith("file://")) return undefined;
    const stack = args.stack ? args.stack.split("/").pop()! : (await must(["stack", "--show-name"])).stdout.trim().split("/").pop()!;
    const project = projectName(args.cwd);
    return { root: fileURLToPath(url.replace(/\?.*$/, "")), stack, ...(project ? { project } : {}) };
  };
  return {
    stackName: args.stack,
    stackFlag,
    must,
    async gitbookSettings(say) {
      const out: Record<string, string | undefined> = {};
      const file = args.configFile ? ["--config-file", args.configFile] : [];
      // One `pulumi config --json` lists every key the stack resolves (its file, the project's, its
      // environments) with its value, but a secret's. Only a secret is then read with `config get`,
      // which decrypts it: a passphrase stack derives its key again in every such call (about 0.25 s
      // of CPU), and four calls were a second of a recovery. A key it does not list is unset: the
      // environment's value applies (resolveConfig). A listing that fails (the stack's checkpoint was
      // read already, so its environment or secrets provider could not be opened), or a key the stack
      // sets but that cannot be read, fails the recovery: the environment's value could be another
      // organization's, which `up` would not use.
      const listed = await run(["config", "--json", ...stackFlag, ...file]);
      // A dry run leaves a broken checkpoint as it is, and the CLI then lists no setting of the stack:
      // the environment's serve for what a dry run reads (it writes nothing); the run that puts the
      // checkpoint right reads the stack's.
      if (listed.code !== 0 && args.dryRun && /failed to load checkpoint/.test(listed.stderr + listed.stdout)) {
        say("The stack's settings cannot be listed while its checkpoint is broken: this dry run reads with the environment's (GITBOOK_TOKEN, ...); the run that puts the checkpoint right reads the stack's.");
        return out;
      }
      if (listed.code !== 0) {
        throw new Error(
          `\`pulumi config --json\` failed, so the stack's gitbook:* settings could not be read: ${(listed.stderr || listed.stdout).trim().slice(0, 400)}. ` +
            "Run this command where `pulumi up` runs for this stack (its environments and secrets provider reachable); the environment's values are not used in their place.",
        );
      }
      let keys: Record<string, { value?: unknown; secret?: boolean }>;
      try {
        keys = JSON.parse(listed.stdout);
      } catch {
        throw new Error(`\`pulumi config --json\` printed what is not JSON, so the stack's gitbook:* settings could not be read: ${listed.stdout.slice(0, 200)}`);
      }
      for (const k of SETTINGS) {
        const key = `gitbook:${k}`;
        const entry = keys[key];
        if (!entry) continue;
        if (!entry.secret) {
          if (typeof entry.value === "string") out[key] = entry.value;
          continue;
        }
        const r = await run(["config", "get", key, ...stackFlag, ...file]);
        if (r.code !== 0) {
          throw new Error(
            `the stack sets ${key} as a secret, and \`pulumi config get ${key}\` could not read it: ${(r.stderr || r.stdout).trim()}. ` +
              "Run this command with what `pulumi up` reads the stack's secrets with (its passphrase in PULUMI_CONFIG_PASSPHRASE, or access to its secrets provider); the environment's value is not used in its place.",
          );
        }
        out[key] = r.stdout.replace(/\n$/, "");
      }
      return out;
    },
    async runStartFromLock() {
      // A file backend keeps the lock of the update that was killed, stamped with when it began.
      // Several locks: the latest is the safe bound (it can only make fewer objects count as the run's).
      const all = await this.locks();
      return all.length > 0 ? all.reduce((a, b) => (b.time > a.time ? b : a)) : undefined;
    },
    async locks() {
      const at = await fileBackend();
      if (!at) return [];
      const { project, stack } = at;
      const root = path.join(at.root, ".pulumi", "locks");
      const dirs = [path.join(root, stack)];
      if (project && fs.existsSync(root)) for (const org of fs.readdirSync(root)) dirs.push(path.join(root, org, project, stack));
      const found: Lock[] = [];
      for (const dir of dirs) {
        if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) continue;
        for (const f of fs.readdirSync(dir).filter((n) => n.endsWith(".json"))) {
          const l = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { pid?: number; username?: string; hostname?: string; timestamp?: string };
          const time = Date.parse(String(l.timestamp));
          if (!Number.isFinite(time)) continue;
          const here = l.hostname === os.hostname();
          found.push({ file: path.join(dir, f), time, timestamp: String(l.timestamp), pid: Number(l.pid), who: `${l.username}@${l.hostname}`, stale: here && !running(Number(l.pid)) });
        }
      }
      return found;
    },
    async checkpointFiles() {
      const at = await fileBackend();
      if (!at) return undefined;
      const stacks = path.join(at.root, ".pulumi", "stacks");
      for (const file of [...(at.project ? [path.join(stacks, at.project, `${at.stack}.json`)] : []), path.join(stacks, `${at.stack}.json`)]) {
        if (fs.existsSync(file) || fs.existsSync(`${file}.bak`)) return { file, backup: `${file}.bak` };
      }
      return undefined;
    },
    async importCheckpoint(next) {
      // Adopted secret outputs are in it as plaintext until the CLI encrypts them: a private file, removed after.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-gitbook-recover-"));
      const file = path.join(dir, "checkpoint.json");
      try {
        fs.writeFileSync(file, JSON.stringify(next), { mode: 0o600 });
        await must(["stack", "import", "--file", file, ...stackFlag]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The project's name from its Pulumi.yaml (`name: x`), without a YAML parser at run time. */
function projectName(cwd: string): string | undefined {
  for (const f of ["Pulumi.yaml", "Pulumi.yml"]) {
    const p = path.join(cwd, f);
    if (fs.existsSync(p)) return /^name:\s*["']?([^"'\s#]+)/m.exec(fs.readFileSync(p, "utf8"))?.[1];
  }
  return undefined;
}

// ---- Arguments -----------------------------------------------------------------------------------

function parse(argv: string[], cwd: string): Args | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      stack: { type: "string" },
      cwd: { type: "string" },
      "config-file": { type: "string" },
      adopt: { type: "string", multiple: true },
      drop: { type: "string", multiple: true },
      since: { type: "string" },
      until: { type: "string" },
      "dry-run": { type: "boolean" },
      unlock: { type: "boolean" },
      "from-backup": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return "help";
  const adopt = new Map<string, string>();
  for (const a of values.adopt ?? []) {
    const i = a.lastIndexOf("=");
    if (i <= 0 || i === a.length - 1) throw new Error(`--adopt takes URN=ID (got ${JSON.stringify(a)})`);
    adopt.set(a.slice(0, i), a.slice(i + 1));
  }
  const drop = new Set(values.drop ?? []);
  for (const urn of drop) if (adopt.has(urn)) throw new Error(`${urn} is given both --adopt and --drop; choose one`);
  const time = (flag: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const t = Date.parse(value);
    if (!Number.isFinite(t)) throw new Error(`--${flag} takes an ISO 8601 time, e.g. 2026-01-31T14:05:00Z (got ${JSON.stringify(value)})`);
    return t;
  };
  const since = time("since", values.since);
  const until = time("until", values.until);
  if (since !== undefined && until !== undefined && until < since) throw new Error("--until is before --since: the run cannot have stopped before it began");
  return {
    ...(values.stack ? { stack: values.stack } : {}),
    cwd: path.resolve(cwd, values.cwd ?? "."),
    ...(values["config-file"] ? { configFile: path.resolve(cwd, values["config-file"]) } : {}),
    adopt,
    drop,
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
    unlock: values.unlock === true,
    fromBackup: values["from-backup"] === true,
    dryRun: values["dry-run"] === true,
  };
}
