/**
 * `pulumi-gitbook recover`: after a `pulumi up` that was interrupted (a cancelled CI job), or a create
 * whose outcome a run could not learn, shows each operation left open in the checkpoint with what
 * GitBook holds that could be its object, and changes state only by the user's word (see plan.ts).
 *
 * It talks to the user's `pulumi` (PULUMI_CLI, else `pulumi` on PATH): `stack export` to read the
 * checkpoint, `config` for the stack's gitbook settings (the token too, which goes nowhere but into
 * the requests' Authorization header), and `stack import` to write the resolved checkpoint.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import isEqual from "fast-deep-equal";
import { ProviderRuntime } from "../config";
import { openOperations, planRecovery, recoveredCheckpoint, type Exported, type Resolution } from "./plan";

export const USAGE = `Usage: pulumi-gitbook recover [options]

After a \`pulumi up\` that was interrupted (killed, a cancelled CI job), or a create whose answer was
lost, shows what the stack's checkpoint holds open and what GitBook holds that could be its object:

  - a pending create: the objects of its kind and name that no resource in state holds, with their
    IDs and creation times. Nothing proves which of them (if any) the run made: another stack, a
    person in the app or the run itself make the same. You decide: --adopt URN=ID takes one into
    state, --drop URN leaves them all and the next up creates the resource. When GitBook holds none,
    recover proposes the drop;
  - an unconfirmed create (its answer lost, and GitBook failing when the run looked for it): the same,
    leaving out what the listing taken just before it held;
  - a pending update whose rule (a section's old-path redirect) may have been made: the rules that
    could be it, for --adopt URN=ID or --drop URN;
  - a pending update or delete: recover proposes to clear it (the resource stays as state records
    it; \`pulumi refresh\` or the next up converges it);
  - another provider's pending create: --drop it once you know it made nothing.

It writes nothing until every one is decided, by --adopt, --drop, or --accept (which takes what it
proposes). Then it checks that the checkpoint is still the one it read, runs \`pulumi stack import\`,
and says to run \`pulumi up\`.

Options:
  --stack <name>        The stack (default: the current stack).
  --cwd <dir>           The Pulumi project's folder (default: the current folder).
  --config-file <file>  The stack's settings file, as \`pulumi --config-file\` takes it.
  --adopt <URN=ID>      The open operation of URN made the object ID (repeatable).
  --drop <URN>          The open operation of URN made nothing: the next up makes it (repeatable).
  --accept              Take every proposal printed (drops where GitBook holds nothing, clears).
  --check               Exit 1 when the checkpoint holds anything open of this package (a guard for
                        CI before \`pulumi up\`); reads the checkpoint only.
  --unlock              Remove the interrupted run's lock (as \`pulumi cancel\` does) before importing,
                        when it was not taken on this machine: only once that run is certainly dead.
                        A lock of a process of this machine that no longer runs is removed anyway.
  --from-backup         When the checkpoint of a file backend is itself empty or cut, put back the
                        copy of the previous one the backend keeps (<stack>.json.bak) and recover from
                        it. (An empty <stack>.json.attrs, which a kill may leave, is set aside.)
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
  adopt: Map<string, string[]>;
  drop: Set<string>;
  accept: boolean;
  check: boolean;
  unlock: boolean;
  fromBackup: boolean;
}

/** Whether this run may write: the user gave a decision. Without one, recover only shows. */
const writes = (args: Args) => args.accept || args.adopt.size > 0 || args.drop.size > 0;

/** Runs the command; resolves to its exit code (0 done or nothing open, 1 failed or something left to decide, 2 usage). */
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
  const stack = cli.stackName ?? "(current)";
  if (args.check) {
    const exported = JSON.parse((await cli.must(["stack", "export", ...cli.stackFlag])).stdout) as Exported;
    const open = openOperations(exported);
    if (open.length === 0) {
      say(`Nothing open in stack ${stack}.`);
      return 0;
    }
    fail(`stack ${stack} holds ${open.length} operation${open.length === 1 ? "" : "s"} an interrupted run left open:\n${open.map((o) => `  ${o}`).join("\n")}\nA \`pulumi up\` now could create them again. Run \`npx pulumi-gitbook recover${cli.stackFlag.length ? ` --stack ${args.stack}` : ""}\`, decide, then \`pulumi up\`.`);
    return 1;
  }
  const exported = await exportCheckpoint(args, cli, say);
  const open = openOperations(exported);
  // Another provider's pending operations count too: `pulumi stack import` would clear them.
  if (open.length === 0 && !exported.deployment.pending_operations?.length && args.adopt.size === 0 && args.drop.size === 0) {
    say("Nothing to recover: the checkpoint holds no pending operation and no unconfirmed create.");
    return 0;
  }
  const runtime = new ProviderRuntime({ env });
  const settings = await cli.gitbookSettings(say);
  runtime.configure({ get: (k) => settings[k] });
  const ctx = { client: runtime.client(), config: runtime.config() };
  try {
    const plan = await planRecovery(ctx, exported, { adopt: args.adopt, drop: args.drop });
    for (const urn of [...args.adopt.keys(), ...args.drop]) {
      if (!plan.some((p) => p.urn === urn)) {
        fail(`${urn} has nothing open in this stack; what is open:\n${plan.map((p) => `  ${p.op} ${p.urn}`).join("\n")}`);
        return 2;
      }
    }
    for (const p of plan) say(line(p, args));
    const undecided = plan.filter((p) => p.action === "undecided" || p.action === "keep");
    const proposed = plan.filter((p) => "by" in p && p.by === "proposal");
    if (undecided.length > 0 || (proposed.length > 0 && !args.accept) || !writes(args)) {
      const left = [
        ...(undecided.length > 0 ? [`${undecided.length} to decide with the --adopt or --drop above`] : []),
        ...(proposed.length > 0 && !args.accept ? [`${proposed.length} proposal${proposed.length === 1 ? "" : "s"} to take with --accept`] : []),
      ];
      fail(`nothing was written: ${left.join(", and ") || "nothing decided"}. Run recover again with them (the decisions together), then \`pulumi up\`.`);
      return 1;
    }
    const locks = await cli.locks();
    const live = locks.filter((l) => !l.stale);
    if (live.length > 0 && !args.unlock) {
      fail(
        `the stack is locked by ${live.map((l) => `${l.who} (pid ${l.pid}) since ${l.timestamp}`).join(", ")}, which may still be running; nothing was written. ` +
          "Once that run is certainly dead (a cancelled CI job), run again with --unlock (or run `pulumi cancel` first).",
      );
      return 1;
    }
    const next = await recoveredCheckpoint(ctx, exported, plan);
    // Another run may have changed the stack while this one read GitBook: writing over it would erase what
    // that run recorded (and the next up would make it again). `pulumi stack import` takes the stack's lock
    // itself, so a run holding it now makes the import fail; one that ended since shows here.
    const now = JSON.parse((await cli.must(["stack", "export", ...cli.stackFlag])).stdout) as Exported;
    if (!isEqual(now.deployment, exported.deployment)) {
      fail("the stack's checkpoint changed while recover ran (another `pulumi` command ran on it); nothing was written. Run recover again: it reads the checkpoint as it is now.");
      return 1;
    }
    if (locks.length > 0) {
      // Only a lock whose run is gone: the same as `pulumi cancel`, which the CLI asks for after a killed run.
      await cli.must(["cancel", "--yes", ...cli.stackFlag]);
      say(`Removed the interrupted run's lock (${locks.map((l) => `${l.who}, pid ${l.pid}${l.stale ? ", no longer running" : ", --unlock"}`).join("; ")}).`);
    }
    await cli.importCheckpoint(next);
    const count = (a: Resolution["action"]) => plan.filter((p) => p.action === a).length;
    say(`Imported the checkpoint: ${count("adopt")} adopted, ${count("drop")} dropped (the next up makes them), ${count("clear")} cleared. Run \`pulumi up\` next.`);
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
      if (!writes(args)) {
        say(`${files.file}.attrs is empty or cut (the CLI was killed while writing it): a run that decides sets it aside; reading the checkpoint, which is complete.`);
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
    if (!writes(args)) {
      say(`Reading ${files.backup} (a run that only shows puts nothing back).`);
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

/** One open operation as printed: what it is, what could be its object, and the command for each choice. */
function line(p: Resolution, args: Args): string {
  const stack = args.stack ? ` --stack ${args.stack}` : "";
  const head = `  ${p.op} ${p.urn}`;
  if (p.action === "undecided") {
    const candidates = p.candidates.map((c) => `      ${c.id}${c.name !== undefined ? ` ${JSON.stringify(c.name)}` : ""}${c.createdAt ? ` (created ${c.createdAt})` : ""}${c.note ? `: ${c.note}` : ""}`);
    const choices = [
      ...p.candidates.map((c) => `      npx pulumi-gitbook recover${stack} --adopt '${p.urn}=${c.id}'`),
      `      npx pulumi-gitbook recover${stack} --drop '${p.urn}'`,
    ];
    return `${head}\n    -> UNDECIDED: ${p.why}${candidates.length ? `\n    candidates:\n${candidates.join("\n")}` : ""}\n    decide with one of:\n${choices.join("\n")}`;
  }
  if (p.action === "keep") return `${head}\n    -> UNDECIDED: ${p.why}\n    decide with:\n      npx pulumi-gitbook recover${stack} --drop '${p.urn}'`;
  const verb = p.action === "adopt" ? `adopt ${p.id}` : p.action;
  const by = p.by === "proposal" ? (args.accept ? " (proposed, --accept)" : " (proposed: --accept takes it)") : p.by === "you" ? "" : " (the program's adoptId)";
  return `${head}\n    -> ${verb}${by}: ${p.why}`;
}

// ---- The Pulumi CLI ------------------------------------------------------------------------------

interface PulumiCli {
  stackName?: string;
  stackFlag: string[];
  must(args: string[]): Promise<{ stdout: string }>;
  /** The stack's gitbook:* settings, as `pulumi up` reads them; `say` prints what the user must know of how. */
  gitbookSettings(say: (line: string) => void): Promise<Record<string, string | undefined>>;
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
      // A run that only shows leaves a broken checkpoint as it is, and the CLI then lists no setting of
      // the stack: the environment's serve for what it reads (it writes nothing); the run that puts the
      // checkpoint right reads the stack's.
      if (listed.code !== 0 && !writes(args) && /failed to load checkpoint/.test(listed.stderr + listed.stdout)) {
        say("The stack's settings cannot be listed while its checkpoint is broken: this run, which writes nothing, reads with the environment's (GITBOOK_TOKEN, ...); the run that puts the checkpoint right reads the stack's.");
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
      accept: { type: "boolean" },
      check: { type: "boolean" },
      unlock: { type: "boolean" },
      "from-backup": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return "help";
  const adopt = new Map<string, string[]>();
  for (const a of values.adopt ?? []) {
    const i = a.lastIndexOf("=");
    if (i <= 0 || i === a.length - 1) throw new Error(`--adopt takes URN=ID (got ${JSON.stringify(a)})`);
    adopt.set(a.slice(0, i), [...(adopt.get(a.slice(0, i)) ?? []), a.slice(i + 1)]);
  }
  const drop = new Set(values.drop ?? []);
  for (const urn of drop) if (adopt.has(urn)) throw new Error(`${urn} is given both --adopt and --drop; choose one`);
  if (values.check && (adopt.size > 0 || drop.size > 0 || values.accept)) throw new Error("--check only reads the checkpoint: give it without --adopt, --drop or --accept");
  return {
    ...(values.stack ? { stack: values.stack } : {}),
    cwd: path.resolve(cwd, values["cwd"] ?? "."),
    ...(values["config-file"] ? { configFile: path.resolve(cwd, values["config-file"]) } : {}),
    adopt,
    drop,
    accept: values.accept === true,
    check: values.check === true,
    unlock: values.unlock === true,
    fromBackup: values["from-backup"] === true,
  };
}
