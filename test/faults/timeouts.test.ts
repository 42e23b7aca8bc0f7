/**
 * Answers slower than `gitbook:requestTimeoutSeconds`: the provider gives up on the request while the
 * API is still working on it. A read or an idempotent write is simply sent again; a create that timed
 * out may still happen after the provider gave up, so it must not be sent again until the provider
 * has made sure the first one did not create anything.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { FaultHandle } from "../../emulator/faults";
import { describeDeployments, type Deployment } from "../support/lifecycle";
import { deploy, expectConvergedRerun, expectExactlyDeclared, expectNothingLeft, expectTokenNowhere, topology } from "./topology";

const TIMEOUT = { "gitbook:requestTimeoutSeconds": "0.2" };
/** Beyond the 0.2 s timeout, but not so far that a test waits long for the API to finish. */
const SLOW_MS = 450;

/** The first request of these methods on every route answers too late. */
function slowFirst(d: Deployment, methods: string[]): FaultHandle[] {
  return d.emu
    .routes()
    .map((r) => r.split(" ") as [string, string])
    .filter(([method]) => methods.includes(method))
    .map(([method, route]) => d.emu.faults.add({ match: { method, route }, latencyMs: SLOW_MS, times: 1 }));
}

describeDeployments("answers slower than the request timeout", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deploy();
  });
  afterAll(async () => d?.close());

  it("converges with exactly the declared objects when the first write on every route is too slow", async () => {
    const decls = topology(d.emu);
    // Writes only: a slow listing would hide a create resent too early (the listing itself would wait).
    const slow = slowFirst(d, ["POST", "PUT", "PATCH"]);
    const r = await d.run("up", decls, { config: TIMEOUT });
    expect(r.error).toBeUndefined();
    // Every kind of create timed out once, and the API finished each after the provider gave up...
    // (sites, sections, site spaces, share links, teams, SSO, specs, collections, spaces, section
    // groups, external links, and the idempotent spec source PUT, visitor schema PUT and publish)
    expect(slow.filter((f) => f.hits === 1 && f.spec.match!.method !== "PATCH").length).toBe(14);
    // ...yet each object exists once.
    expectExactlyDeclared(d, decls);
  });

  it("refreshes, losing nothing, when the first read on every route is too slow", async () => {
    const ids = () => d.state().resources.map((x) => [x.name, x.id]);
    const before = ids();
    const reads = slowFirst(d, ["GET"]);
    const r = await d.run("refresh", undefined, { config: TIMEOUT });
    expect(r.error).toBeUndefined();
    // Nothing read as gone, every object still the one state names.
    expect(r.steps.filter((s) => s.op === "read-gone")).toEqual([]);
    expect(ids()).toEqual(before);
    expect(reads.filter((f) => f.hits === 1).length).toBeGreaterThanOrEqual(6);
    expectExactlyDeclared(d, topology(d.emu));
  });

  it("destroys everything when every DELETE is first too slow", async () => {
    const deletes = slowFirst(d, ["DELETE"]);
    const r = await d.run("destroy", undefined, { config: TIMEOUT });
    expect(r.error).toBeUndefined();
    // (site, section, site space, share link, team, SSO, spec, collection, space, section group, external link)
    expect(deletes.filter((f) => f.hits === 1)).toHaveLength(11);
    expectNothingLeft(d);
  });

  it("re-runs to the same result with the faults gone, and never wrote the token anywhere", async () => {
    await expectConvergedRerun(d, topology(d.emu));
    expectTokenNowhere(d, [d.emu.token]);
  });
});
