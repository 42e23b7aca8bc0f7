/**
 * What a kill can leave a file backend unable to read, and what `pulumi-gitbook recover` reads then,
 * through the real CLI's file backend (no engine run: the checkpoints are written with `stack import`
 * and by hand; the command runs in this process, its `pulumi` calls the real CLI).
 * The backend writes each file's attributes (`<file>.attrs`) by truncating, then writing them, before
 * it renames the new file into place: a kill in between leaves the last checkpoint complete beside an
 * empty `.attrs`, which the CLI reports as "failed to load checkpoint: EOF" (the cause of that message
 * in this package's killed-run tests). Recover must read that checkpoint, not the one before it in
 * `.bak`, which would hold as pending again a create the checkpoint saw finish.
 */
import * as fs from "node:fs";
import { afterEach, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Deployment } from "../support/lifecycle";
import { runRecover } from "../../provider/recover/command";
import { recoverCall } from "./killedRun";

let dep: Deployment | undefined;

/** `pulumi-gitbook recover` on the stack, run in this process (the killed-run tests run the command's binary). */
async function recover(d: Deployment, flags: string[] = []): Promise<{ code: number; out: string }> {
  const { argv, env } = recoverCall(d, flags);
  let out = "";
  const sink = { write: (text: string) => (out += text) };
  const code = await runRecover(argv, { env, cwd: d.dir, stdout: sink, stderr: sink });
  return { code, out };
}
afterEach(async () => {
  await dep?.close();
  dep = undefined;
});

const STACK_URN = "urn:pulumi:test::lifecycle::pulumi:pulumi:Stack::lifecycle-test";
const SITE_URN = "urn:pulumi:test::lifecycle::pulumi-nodejs:dynamic/gitbook:Site::docs";

/**
 * The stack's checkpoint as `stack import` writes it (only the stack), and as its backup, the one before
 * it, with a site's create pending (written here: `stack import` clears pending operations).
 */
async function twoCheckpoints(): Promise<{ d: Deployment; file: string }> {
  const d = (dep = await startDeployment());
  const cli = await d.stack();
  const stack = { urn: STACK_URN, custom: false, type: "pulumi:pulumi:Stack" };
  await cli.importState({ version: 3, deployment: { resources: [stack] } });
  const file = cli.statePath;
  const saved = JSON.parse(fs.readFileSync(file, "utf8"));
  const site = { urn: SITE_URN, custom: true, type: "pulumi-nodejs:dynamic/gitbook:Site", parent: STACK_URN, inputs: { title: "Docs", organizationId: d.emu.seeded.organizationId, __provider: 'with({ kind: "Site" }) { require("pulumi-gitbook/impl") }' } };
  saved.checkpoint.latest.pending_operations = [{ type: "creating", resource: site }];
  fs.writeFileSync(`${file}.bak`, JSON.stringify(saved));
  fs.copyFileSync(`${file}.attrs`, `${file}.bak.attrs`);
  return { d, file };
}

describeDeployments("recover over a checkpoint a kill left unreadable", () => {
  it("an empty .attrs beside a complete checkpoint: set aside, and the checkpoint read as it is (not the .bak before it)", async () => {
    const { d, file } = await twoCheckpoints();
    fs.writeFileSync(`${file}.attrs`, "");
    const unreadable = await d.cli()!.pulumi(["stack", "export", "-s", d.cli()!.name]);
    expect(unreadable.stderr).toContain("failed to load checkpoint: EOF");

    // Without a decision it writes nothing, so it only reads.
    const dry = await recover(d);
    expect(dry.out).toContain("is empty or cut");
    expect(fs.readFileSync(`${file}.attrs`, "utf8")).toBe("");
    const r = await recover(d, ["--accept"]);
    expect(r.out).toContain(`Set aside ${file}.attrs`);
    expect(r.out).toContain("Nothing to recover: the checkpoint holds no pending operation and no unconfirmed create.");
    expect(r.code, r.out).toBe(0);
    expect(fs.existsSync(`${file}.attrs.broken`)).toBe(true);
    // The CLI reads the stack again, and it is the latest checkpoint.
    const exported = await d.cli()!.pulumi(["stack", "export", "-s", d.cli()!.name]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout).deployment.pending_operations ?? []).toEqual([]);
  }, 60_000);

  it("a cut checkpoint put back with --from-backup: the backup's empty .attrs is not copied with it", async () => {
    const { d, file } = await twoCheckpoints();
    fs.writeFileSync(file, "");
    fs.writeFileSync(`${file}.bak.attrs`, "");
    const refused = await recover(d);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain("cannot be read: it is empty or cut");
    const r = await recover(d, ["--from-backup", "--accept"]);
    expect(r.out).toContain(`Put back ${file}.bak`);
    // The backup's pending create, resolved: GitBook holds no site, so the next up creates it.
    expect(r.out).toMatch(/creating urn:\S+::docs\n\s+-> drop \(proposed, --accept\)/);
    expect(r.code, r.out).toBe(0);
    expect(JSON.parse((await d.cli()!.pulumi(["stack", "export", "-s", d.cli()!.name])).stdout).deployment.pending_operations ?? []).toEqual([]);
  }, 60_000);

  it("another provider's pending create: named, nothing imported (stack import would clear it) until --drop says it made nothing", async () => {
    const { d, file } = await twoCheckpoints();
    const saved = JSON.parse(fs.readFileSync(`${file}.bak`, "utf8"));
    const bucket = "urn:pulumi:test::lifecycle::aws:s3/bucket:Bucket::assets";
    saved.checkpoint.latest.pending_operations.push({ type: "creating", resource: { urn: bucket, custom: true, type: "aws:s3/bucket:Bucket", parent: STACK_URN, inputs: {} } });
    fs.writeFileSync(file, JSON.stringify(saved));
    const refused = await recover(d);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(`creating ${bucket}\n    -> UNDECIDED: not a pulumi-gitbook resource`);
    expect(refused.out).toContain("nothing was written");
    const accepted = await recover(d, ["--accept"]);
    expect(accepted.code).toBe(1);
    expect(fs.readFileSync(file, "utf8")).toBe(JSON.stringify(saved));
    const r = await recover(d, ["--drop", bucket, "--accept"]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/creating urn:\S+::assets\n\s+-> drop: another provider's, --drop/);
    expect(JSON.parse((await d.cli()!.pulumi(["stack", "export", "-s", d.cli()!.name])).stdout).deployment.pending_operations ?? []).toEqual([]);
  }, 60_000);
});

describeDeployments("recover's settings", () => {
  it("come from the stack's config file, the token a secret, over the environment's (none set: it fails naming the setting; one that cannot be decrypted, or settings that cannot be listed: it fails rather than take the environment's)", async () => {
    const { d, file } = await twoCheckpoints();
    fs.copyFileSync(`${file}.bak`, file);
    const cli = d.cli()!;
    const { file: configFile } = await cli.writeRunConfig({ "gitbook:token": d.emu.token, "gitbook:apiUrl": d.emu.url, "gitbook:organizationId": d.emu.seeded.organizationId });
    expect(fs.readFileSync(configFile, "utf8")).not.toContain(d.emu.token);
    const { argv, env } = recoverCall(d);
    const bare = { ...env, GITBOOK_TOKEN: undefined, GITBOOK_API_URL: undefined };
    const run = async (args: string[], runEnv: NodeJS.ProcessEnv = bare) => {
      let out = "";
      const sink = { write: (text: string) => (out += text) };
      return { code: await runRecover(args, { env: runEnv, cwd: d.dir, stdout: sink, stderr: sink }), out };
    };

    // A token the stack sets but that cannot be decrypted: the environment's is not used instead.
    const wrongKey = await run([...argv, "--config-file", configFile], { ...env, PULUMI_CONFIG_PASSPHRASE: "not the passphrase" });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toContain("gitbook:token");
    expect(wrongKey.out).toContain("incorrect passphrase");
    expect(wrongKey.out).toContain("PULUMI_CONFIG_PASSPHRASE");
    expect(d.emu.log.count()).toBe(0);

    // The listing of the stack's settings failing (a config file that does not parse): the environment's token is not used instead.
    const broken = `${configFile}.broken.yaml`;
    fs.writeFileSync(broken, "config: [unclosed\n");
    const unlisted = await run([...argv, "--config-file", broken], env);
    expect(unlisted.code).toBe(1);
    expect(unlisted.out).toContain("`pulumi config --json` failed, so the stack's gitbook:* settings could not be read");
    expect(d.emu.log.count()).toBe(0);

    const unset = await run(argv);
    expect(unset.code).toBe(1);
    expect(unset.out).toContain("gitbook:token");
    expect(d.emu.log.count()).toBe(0);

    const r = await run([...argv, "--config-file", configFile]);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/creating urn:\S+::docs\n\s+-> drop \(proposed: --accept takes it\)/);
    expect(r.out).toContain("nothing was written: 1 proposal to take with --accept");
    expect(d.emu.log.count()).toBeGreaterThan(0);
    expect(r.out).not.toContain(d.emu.token);
  }, 60_000);
});
