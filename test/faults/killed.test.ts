/**
 * A `pulumi up` killed with SIGKILL (a cancelled CI job) while creates are in flight, through the real
 * CLI (issue 19.4): before the first write and mid-way, then `pulumi-gitbook recover` and `pulumi up`.
 * How runs are killed and recovered: killedRun.ts. The kill after the last write, the kill that leaves the
 * checkpoint empty, and an up without recover: killedCheckpoint.test.ts.
 */
import { expect, it } from "vitest";
import { describeDeployments } from "../support/lifecycle";
import { closeKilledRuns, expectRecovered, killedRun, recoverAll } from "./killedRun";

closeKilledRuns();

describeDeployments("a killed `pulumi up`", () => {
  for (const [label, moment] of [
    ["before the first write", { at: "first write, before it is processed" }],
    ["mid-way: at the collection's create", { at: "route", method: "POST", route: /\/collections$/ }],
    ["mid-way: at the 8th write", { at: "write", nth: 8 }],
  ] as const) {
    it(`${label}: recover, then up, leaves one object per resource and adopts nothing the run did not make`, async () => {
      const { dep, decls, app } = await killedRun(moment);
      const out = await recoverAll(dep, app);
      for (const id of app) expect(out).not.toMatch(new RegExp(`adopt ${id}`));
      await expectRecovered(dep, decls, app, [...app][0]!);
    }, 300_000);
  }
});
