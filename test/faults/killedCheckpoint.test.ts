/**
 * A `pulumi up` killed with SIGKILL (a cancelled CI job), through the real CLI (issue 19.4): after its last
 * write, while it rewrote the checkpoint, and what an up without `pulumi-gitbook recover` does. How runs are
 * killed and recovered: killedRun.ts; kills before the first write and mid-way: killed.test.ts.
 */
import * as fs from "node:fs";
import { expect, it } from "vitest";
import { describeDeployments, startDeployment } from "../support/lifecycle";
import { appMade, closeKilledRuns, counted, expectRecovered, killedRun, program, recover, recoverAll } from "./killedRun";

closeKilledRuns();

describeDeployments("a killed `pulumi up`, at its end or in its checkpoint", () => {
  it("after the last write: recover, then up, converges with no duplicate", async () => {
    // How many writes a whole up sends, from an uninterrupted run of the same program.
    const ref = await startDeployment();
    let total: number;
    try {
      await appMade(ref);
      ref.emu.log.reset();
      const up = await ref.run("up", program(ref));
      expect(up.error).toBeUndefined();
      total = ref.emu.log.entries.filter(counted).length;
    } finally {
      await ref.close();
    }
    const { dep, decls, app } = await killedRun({ at: "write", nth: total });
    await recoverAll(dep, app);
    await expectRecovered(dep, decls, app, [...app][0]!);
  }, 300_000);

  // Retried: about one run in four under a loaded machine, the checkpoint put back from a .bak that parsed still
  // reads as "failed to load checkpoint: EOF" to the next `pulumi stack export`; not reproduced alone, cause not
  // yet found (recorded in the issue notes). A regression fails every attempt.
  it("a checkpoint the kill left empty (the CLI was rewriting it) is put back from the backend's copy when asked, then recovered", { retry: 2, timeout: 300_000 }, async () => {
    const { dep, decls, app } = await killedRun({ at: "route", method: "POST", route: /\/share-links$/ });
    // As a kill in the file backend's next checkpoint write leaves it (seen in this suite: "failed to load checkpoint:
    // EOF"): the last complete checkpoint moved to .bak, the new one empty. The engine waits for a create's
    // pending record to be saved before sending the create, so that write records nothing sent yet.
    const file = dep.cli()!.statePath;
    // The kill may itself have caught the CLI rewriting the checkpoint, leaving it empty and the backend's
    // copy in .bak: that is the state this test makes, so only a complete checkpoint is moved there
    // (copying an empty one over the backend's copy lost the last checkpoint: a flake seen 3 times in 9).
    const complete = fs.existsSync(file) && fs.readFileSync(file, "utf8").trim() !== "";
    if (complete) for (const suffix of ["", ".attrs"]) if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, `${file}.bak${suffix}`);
    expect(fs.readFileSync(`${file}.bak`, "utf8").trim(), "the backend's copy of the last checkpoint").not.toBe("");
    fs.writeFileSync(file, "");
    const refused = await recover(dep);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain("cannot be read: the CLI was killed while writing it");
    expect(refused.out).toContain("--from-backup");
    expect(fs.readFileSync(file, "utf8")).toBe("");
    await recoverAll(dep, app);
    await expectRecovered(dep, decls, app, [...app][0]!);
  });

  it("without recover, the next up duplicates what the killed run created (the failure recover exists for)", async () => {
    const { dep, decls } = await killedRun({ at: "route", method: "POST", route: /\/sites$/ });
    // What the CLI says to do: remove the lock, run up again.
    const cli = dep.cli()!;
    expect((await cli.pulumi(["cancel", "--yes", "--stack", cli.name])).code).toBe(0);
    // As issue 19 saw it: the killed run's site made again (and an OpenAPI spec it made refused with 409).
    await dep.run("up", decls);
    // The topology declares two sites (its own and the DocsSite's): one more is the duplicate.
    expect(dep.emu.store.sites.size).toBe(3);
  }, 300_000);
});
