/**
 * A `pulumi up` killed with SIGKILL (a cancelled CI job) while creates are in flight, through the real
 * CLI (issue 19.4): before its first write and after its last, each followed by `pulumi-gitbook recover`
 * and `pulumi up`. How runs are killed and recovered: killedRun.ts. What an up without recover does
 * (the killed run's create sent again, a duplicate): case 4 of recoverCases.test.ts.
 * Kills mid-way (one run after another on one stack, one of them leaving the checkpoint empty):
 * killedCheckpoint.test.ts.
 */
import { expect, it } from "vitest";
import { describeDeployments } from "../support/lifecycle";
import { expectStateMatchesEmulator } from "./topology";
import { closeKilledRuns, expectRecovered, killedRun, recoverAll, resentByRecover } from "./killedRun";

closeKilledRuns();

describeDeployments("a killed `pulumi up`, at its first or its last write", () => {
  /**
   * How many writes a whole up of the program sends: the up after a kill before the first write is one
   * (nothing was made, recover leaves state empty), so it stands for an uninterrupted reference run.
   */
  let total: number | undefined;

  it("before the first write: recover records nothing, then up leaves one object per resource and adopts nothing the run did not make", async () => {
    const { dep, decls, app } = await killedRun({ at: "first write, before it is processed" });
    const out = await recoverAll(dep, app);
    for (const id of app) expect(out).not.toMatch(new RegExp(`adopt ${id}`));
    expect(dep.state().resources.filter((r) => r.custom)).toEqual([]);
    expectStateMatchesEmulator(dep, app, resentByRecover(out));
    // Nothing was made and recover recorded nothing, so this up is an up from empty: whether its next plan
    // is empty is not this scenario's to prove (the after-the-last-write kill below and every other
    // killed run end with `preview --expect-no-changes`; a whole up's next plan: everyFault.test.ts).
    total = await expectRecovered(dep, decls, app, [...app][0]!, { preview: false });
  }, 300_000);

  it("after the last write: recover, then up, converges with no duplicate", async () => {
    expect(total, "the count of a whole up's writes, from the test before").toBeGreaterThan(0);
    const { dep, decls, app } = await killedRun({ at: "write", nth: total! });
    const out = await recoverAll(dep, app);
    for (const id of app) expect(out).not.toMatch(new RegExp(`adopt ${id}`));
    // Every write was carried out: all that is left is to finish, not to make anything again.
    const writes = await expectRecovered(dep, decls, app, [...app][0]!);
    expect(writes).toBeLessThan(total!);
  }, 300_000);
});
