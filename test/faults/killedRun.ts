/**
 * What the killed-run suites (killed.test.ts, killedCheckpoint.test.ts: two files so that each is a short
 * share of the suite's wall time) share. A `pulumi up` killed with SIGKILL (a cancelled CI job) while creates are in flight, through the real
 * CLI (issue 19.4). The kill is tied to the emulator's requests, not to time: a listener on its request
 * log kills the CLI and every process under it the moment a chosen request has been processed, before its answer
 * leaves, and from then on the emulator processes nothing more (what was still in flight is dropped,
 * as a request whose client died may be). Then `pulumi-gitbook recover` and `pulumi up`: exactly one
 * object per declared resource, state equal to GitBook, and nothing adopted the run did not make.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect } from "vitest";
import { GitbookClient } from "../../provider/client";
import { ApiCollection, paths as collectionPaths } from "../../provider/resources/collection";
import { ApiTeam, paths as teamPaths } from "../../provider/resources/team";
import { countedPulumiCli } from "../../dev/pulumiCli";
import { ROOT, PROGRAM, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { plannedSteps } from "../support/stateIsGitBook";
import { expectExactlyDeclared, topology } from "./topology";

const BIN = path.join(ROOT, "dist/bin/pulumi-gitbook.js");

let d: Deployment | undefined;
/** Closes, after each test, the deployment killedRun started. */
export function closeKilledRuns(): void {
  afterEach(async () => {
    await d?.close();
    d = undefined;
  });
}

/** The whole fault topology; it holds a collection, a kind GitBook gives no creation time. */
export function program(dep: Deployment): Decl[] {
  return topology(dep.emu);
}

/**
 * Namesakes made in the app before the run: a collection (no creation time: recovery may never take
 * it by guess) and a team made ten minutes earlier (its creation time rules it out).
 */
export async function appMade(dep: Deployment): Promise<Set<string>> {
  const client = new GitbookClient({ token: dep.emu.token, apiUrl: dep.emu.url });
  const org = dep.emu.seeded.organizationId;
  try {
    const col = await client.post(collectionPaths.collections(org), { body: { title: "Fault Guides" }, schema: ApiCollection });
    const team = await client.put(teamPaths.teams(org), { body: { title: "Docs Team" }, schema: ApiTeam, idempotent: false });
    dep.emu.store.teams.get(team.id)!.createdAt = new Date(Date.now() - 10 * 60_000).toISOString();
    return new Set([col.id, team.id]);
  } finally {
    await client.close();
  }
}

export type Moment = { at: "first write, before it is processed" } | { at: "write"; nth: number } | { at: "route"; method: string; route: RegExp };

/**
 * Kills the process and all its descendants (Linux /proc: the plugins the CLI started are not in its
 * process group), and every process carrying the run's PULUMI_HOME: one forked while the tree was read
 * (a plugin's shell script starting node) would otherwise outlive the kill, orphaned, and send its writes
 * later. Read again until no live process of the run is left: a killed one cannot fork, and a zombie's
 * environment reads empty.
 */
function killRun(root: number, home: string): void {
  const marker = `PULUMI_HOME=${home}\0`;
  let pids = processTree(root);
  for (let round = 0; pids.length > 0 && round < 1000; round++) {
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    pids = [];
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const env = fs.readFileSync(`/proc/${entry}/environ`, "latin1");
        if (env.startsWith(marker) || env.includes(`\0${marker}`)) pids.push(Number(entry));
      } catch {
        continue;
      }
    }
  }
}

/** The process and all its descendants. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/**
 * The writes a kill point counts. Left out, since how many there are depends on the order the engine
 * picks: writes the API refused (a link created before its site has a section is refused once, then
 * sent again) and sort requests (an order needs them only where items were created out of order).
 */
export function counted(e: { method: string; route: string; status: number }): boolean {
  return e.method !== "GET" && e.status < 400 && !e.route.endsWith("/structure/sort");
}

/**
 * Runs `up` and kills it, with every process it started, at `moment`, as a cancelled CI job is; resolves once the CLI is gone.
 * Also used to kill a later `up` of a stack already killed and recovered once (a CI job cancelled again).
 */
export async function killedUp(dep: Deployment, decls: Decl[], moment: Moment): Promise<void> {
  let cliPid = 0;
  let writes = 0;
  let killed = false;
  // Every write is dropped unprocessed, and the first of all is where the kill comes. (Dropping only the
  // first of each method let a second POST in flight be carried out, and answered, before the kill.)
  if (moment.at === "first write, before it is processed") for (const method of ["POST", "PUT", "PATCH", "DELETE"]) dep.emu.faults.add({ match: { method }, dropBeforeProcess: true });
  const off = dep.emu.log.onRecord((e) => {
    if (killed || !counted(e)) return;
    writes++;
    const now =
      moment.at === "write" ? writes === moment.nth : moment.at === "route" ? e.method === moment.method && moment.route.test(e.route) : writes === 1;
    if (!now) return;
    killed = true;
    // The emulator processes nothing more, then the CLI and its plugins die before this answer leaves.
    dep.emu.faults.add({ dropBeforeProcess: true });
    if (cliPid <= 0) throw new Error("the CLI's process is not known yet");
    killRun(cliPid, dep.cli()!.env.PULUMI_HOME!);
    // What the dead processes sent and the emulator has not read yet is never processed: without this,
    // a request read after the CLI's exit, once the faults are cleared, was carried out (a CI failure:
    // a space made by a run killed before its first write).
    dep.emu.dropConnections();
  });
  try {
    const r = await dep.run("up", decls, { onSpawn: (pid) => void (cliPid = pid) });
    expect(killed, `the up ended (${r.error ?? "no error"}) before the chosen moment`).toBe(true);
  } finally {
    off();
    dep.emu.faults.clear();
  }
}

/** A fresh deployment with the app's namesakes, and an up of the program killed at `moment`. */
export async function killedRun(moment: Moment): Promise<{ dep: Deployment; decls: Decl[]; app: Set<string> }> {
  const dep = (d = await startDeployment());
  const decls = program(dep);
  const app = await appMade(dep);
  await killedUp(dep, decls, moment);
  return { dep, decls, app };
}

/**
 * What the CLI tells a user to do after a killed run: `pulumi cancel`, to remove the lock. The kill may
 * have caught the backend writing the checkpoint's attributes and left them empty (see
 * recoverCheckpoint.test.ts): cancel then fails, and without recover a user deletes that file by hand.
 */
export async function cancelAsAdvised(dep: Deployment): Promise<void> {
  const cli = dep.cli()!;
  let cancel = await cli.pulumi(["cancel", "--yes", "--stack", cli.name]);
  if (cancel.code !== 0 && /failed to load checkpoint: EOF/.test(cancel.stderr)) {
    fs.rmSync(`${cli.statePath}.attrs`);
    cancel = await cli.pulumi(["cancel", "--yes", "--stack", cli.name]);
  }
  expect(cancel.code, cancel.stdout + cancel.stderr).toBe(0);
}

/** What `pulumi-gitbook recover` is run with on the deployment's stack: its arguments and environment. */
export function recoverCall(dep: Deployment, flags: string[] = []): { argv: string[]; env: NodeJS.ProcessEnv } {
  const cli = dep.cli()!;
  return {
    argv: ["--stack", cli.name, "--cwd", PROGRAM, ...flags],
    env: { ...cli.env, GITBOOK_TOKEN: dep.emu.token, GITBOOK_API_URL: dep.emu.url, ...countedPulumiCli() },
  };
}

export function recover(dep: Deployment, flags: string[] = []): Promise<{ code: number; out: string }> {
  const { argv, env } = recoverCall(dep, flags);
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, "recover", ...argv], { env }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, out: stdout + stderr });
    });
  });
}

/** The kinds of the pending creates recover dropped because the next up sends their create again (see plan.ts). */
export function resentByRecover(out: string): string[] {
  return [...out.matchAll(/creating (\S+)\n\s+-> drop[^:\n]*: its create sets the object with a request that may be sent again/g)].map((m) => /gitbook:(\w+)::[^:]*$/.exec(m[1]!)![1]!);
}

/** The open operations recover left for the user to decide, with their candidate IDs. */
export function undecided(out: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const m of out.matchAll(/(?:creating|unconfirmed|updating|unrecorded) (\S+)\n\s+-> UNDECIDED:[^\n]*\n(?: {4}candidates:\n((?: {6}[^\n]*\n)*))?/g)) {
    found.set(m[1]!, (m[2] ?? "").split("\n").filter(Boolean).map((c) => c.trim().split(" ")[0]!.replace(/:$/, "")));
  }
  return found;
}

/**
 * Recovers as the README says a user does: `recover` shows what is open and writes nothing; the user
 * decides each candidate (here, knowing which objects the app made: the one candidate that is not the
 * app's is the run's) and runs it again with those decisions and --accept for its proposals.
 */
export async function recoverAll(dep: Deployment, app: ReadonlySet<string>): Promise<string> {
  let look = await recover(dep);
  // Killed while it rewrote the checkpoint, the CLI leaves it empty: recover says so, and reads the backend's copy when asked.
  const backup = look.code !== 0 && look.out.includes("--from-backup") ? ["--from-backup"] : [];
  if (backup.length > 0) look = await recover(dep, backup);
  for (const r of [look]) expect(r.out.includes(dep.emu.token), "the token was printed").toBe(false);
  if (look.code === 0) {
    expect(look.out).toContain("Nothing to recover");
    return look.out;
  }
  expect(look.out).toContain("nothing was written");
  const flags: string[] = [];
  for (const [urn, ids] of undecided(look.out)) {
    const ours = ids.filter((id) => !app.has(id));
    expect(ours.length, `${urn}: ${look.out}`).toBeLessThanOrEqual(1);
    flags.push(...(ours.length === 1 ? ["--adopt", `${urn}=${ours[0]}`] : ["--drop", urn]));
  }
  const decided = await recover(dep, [...backup, ...flags, "--accept"]);
  expect(decided.code, decided.out).toBe(0);
  expect(decided.out.includes(dep.emu.token), "the token was printed").toBe(false);
  return decided.out;
}

/**
 * The `up` after recover converges with one object per resource, nothing of the app's touched, secrets
 * encrypted, and the next plan empty (planned in this process: no engine run of its own). Returns how many writes that `up` sent (as `counted` counts them).
 */
export async function expectRecovered(dep: Deployment, decls: Decl[], app: ReadonlySet<string>, appCollection: string, opts = { preview: true }): Promise<number> {
  const from = dep.emu.log.entries.length;
  const up = await dep.run("up", decls);
  expect(up.error, up.stdout).toBeUndefined();
  const writes = dep.emu.log.entries.slice(from).filter(counted).length;
  expectExactlyDeclared(dep, decls, app);
  // The app's namesakes are untouched.
  const col = [...dep.emu.store.collections.values()].find((c) => c.id === appCollection);
  expect(col?.title).toBe("Fault Guides");
  // Secret outputs (a share link's URL), adopted ones included, are encrypted in state.
  for (const r of dep.cli()!.exported().deployment.resources ?? []) {
    if (String(r.type).endsWith(":ShareLink")) expect(Object.keys(r.outputs.url)).toContain("ciphertext");
  }
  // The next plan, as `preview --expect-no-changes` would find it, made in this process from the
  // checkpoint the up left (plannedSteps: the provider's check and diff of each declaration).
  if (opts.preview) expect((await plannedSteps(dep.emu, decls, dep.state().resources)).filter((s) => s.op !== "same")).toEqual([]);
  return writes;
}

