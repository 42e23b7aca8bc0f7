/**
 * A `pulumi up` killed with SIGKILL (a cancelled CI job), through the real CLI (issue 19.4): killed
 * mid-way three times over on one stack (a CI job cancelled again and again), once with the checkpoint
 * then left empty, as a machine that stopped before the backend's write reached its disk leaves it, with
 * `pulumi-gitbook recover` after each. How runs are killed and recovered: killedRun.ts; kills before the
 * first write and after the last, and what an up without recover does: killed.test.ts; what a kill itself
 * can leave unreadable (an empty `.attrs`): recoverCheckpoint.test.ts.
 */
import * as fs from "node:fs";
import { expect, it } from "vitest";
import { describeDeployments, type Deployment } from "../support/lifecycle";
import { expectStateMatchesEmulator } from "./topology";
import { closeKilledRuns, expectRecovered, killedRun, killedUp, recover, recoverAll, resentByRecover } from "./killedRun";

closeKilledRuns();

/** Recovers as a user would, and checks what recover decided: state names exactly what GitBook holds, none of the app's objects adopted. */
async function recovered(dep: Deployment, app: ReadonlySet<string>): Promise<void> {
  const out = await recoverAll(dep, app);
  for (const id of app) expect(out).not.toMatch(new RegExp(`adopt ${id}`));
  expectStateMatchesEmulator(dep, app, resentByRecover(out));
}

describeDeployments("a killed `pulumi up`, mid-way and in its checkpoint", () => {
  it(
    "killed at the collection's create, then with the checkpoint left empty, then at the 8th write: recover after each, then up, leaves one object per resource",
    { timeout: 600_000 },
    async () => {
      // 1. At the collection's create: the app's namesake collection is a candidate recover cannot rule out.
      const { dep, decls, app } = await killedRun({ at: "route", method: "POST", route: /\/collections$/ });
      await recovered(dep, app);

      // 2. At a space's create (the collection's space waits for the collection, so one is always left to
      // make), then the checkpoint left empty and the one before it in .bak: what a machine that stopped
      // before the backend's last write reached its disk leaves (a kill cannot: the backend renames a new
      // checkpoint into place). The engine waits for a create's pending record to be saved before sending
      // the create, so that write recorded nothing sent yet. The kill may have left the checkpoint's
      // `.attrs` empty: copied to .bak with it, recover must not put it back.
      await killedUp(dep, decls, { at: "route", method: "POST", route: /^\/v1\/orgs\/:org\/spaces$/ });
      const file = dep.cli()!.statePath;
      for (const suffix of ["", ".attrs"]) if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, `${file}.bak${suffix}`);
      fs.writeFileSync(file, "");
      const refused = await recover(dep);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain("cannot be read: it is empty or cut");
      expect(refused.out).toContain("--from-backup");
      expect(fs.readFileSync(file, "utf8")).toBe("");
      await recovered(dep, app);

      // 3. At the 8th write of the next run, then recover and the up that finishes.
      await killedUp(dep, decls, { at: "write", nth: 8 });
      await recovered(dep, app);
      await expectRecovered(dep, decls, app, [...app][0]!);
    },
  );
});
