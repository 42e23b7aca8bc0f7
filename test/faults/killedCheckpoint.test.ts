/**
 * A `pulumi up` killed with SIGKILL (a cancelled CI job), through the real CLI (issue 19.4): killed
 * mid-way three times over on one stack (a CI job cancelled again and again), once leaving the checkpoint
 * empty as a kill while the CLI rewrote it does, with `pulumi-gitbook recover` after each. How runs are
 * killed and recovered: killedRun.ts; kills before the first write and after the last, and what an up
 * without recover does: killed.test.ts.
 */
import * as fs from "node:fs";
import { expect, it } from "vitest";
import { describeDeployments, type Deployment } from "../support/lifecycle";
import { expectStateMatchesEmulator } from "./topology";
import { closeKilledRuns, expectRecovered, killedRun, killedUp, recover, recoverAll } from "./killedRun";

closeKilledRuns();

/** Recovers as a user would, and checks what recover decided: state names exactly what GitBook holds, none of the app's objects adopted. */
async function recovered(dep: Deployment, app: ReadonlySet<string>, laterRun: boolean): Promise<void> {
  const out = await recoverAll(dep, app, laterRun);
  for (const id of app) expect(out).not.toMatch(new RegExp(`adopt ${id}`));
  expectStateMatchesEmulator(dep, app);
}

describeDeployments("a killed `pulumi up`, mid-way and in its checkpoint", () => {
  // Retried: about one run in four under a loaded machine, the checkpoint put back from a .bak that parsed still
  // reads as "failed to load checkpoint: EOF" to the next `pulumi stack export`; not reproduced alone, cause not
  // yet found (recorded in the issue notes). A regression fails every attempt.
  it(
    "killed at the collection's create, then with the checkpoint left empty, then at the 8th write: recover after each, then up, leaves one object per resource",
    { retry: 2, timeout: 600_000 },
    async () => {
      // 1. At the collection's create: the app's namesake collection is a candidate recover cannot rule out.
      const { dep, decls, app } = await killedRun({ at: "route", method: "POST", route: /\/collections$/ });
      await recovered(dep, app, false);

      // 2. At a space's create (the collection's space waits for the collection, so one is always left to
      // make), the checkpoint left as a kill in the file backend's next checkpoint write leaves it (seen in
      // this suite: "failed to load checkpoint: EOF"): the last complete checkpoint moved to .bak, the new one
      // empty. The engine waits for a create's pending record to be saved before sending the create, so that
      // write records nothing sent yet.
      await killedUp(dep, decls, { at: "route", method: "POST", route: /^\/v1\/orgs\/:org\/spaces$/ });
      const file = dep.cli()!.statePath;
      // The kill may itself have caught the CLI rewriting the checkpoint, leaving it empty and the backend's
      // copy in .bak: that is the state this step makes, so only a complete checkpoint is moved there
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
      await recovered(dep, app, true);

      // 3. At the 8th write of the next run, then recover and the up that finishes.
      await killedUp(dep, decls, { at: "write", nth: 8 });
      await recovered(dep, app, true);
      await expectRecovered(dep, decls, app, [...app][0]!);
    },
  );
});
