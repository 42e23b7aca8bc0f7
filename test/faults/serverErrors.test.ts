/**
 * 30% of requests answered 5xx (the emulator fails exactly 30 of every 100 matching requests, at
 * seeded positions). A 502/503/504 says the request was not done and is resent; a 500 is a bug on
 * the API's side and is not. Either way the run converges or stops with an error that says what
 * failed, and state never loses track of an object.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, type Deployment } from "../support/lifecycle";
import { deploy, expectConvergedRerun, expectExactlyDeclared, expectStateMatchesEmulator, expectTokenNowhere, topology } from "./topology";

describeDeployments("30% of requests answered 5xx", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deploy();
  });
  afterAll(async () => d?.close());

  it("converges through 503s with exactly the declared objects, or stops saying which request failed", async () => {
    const decls = topology(d.emu);
    const fault = d.emu.faults.add({ errorRate: 0.3, status: 503 });
    const r = await d.run("up", decls);
    expect(fault.hits).toBeGreaterThanOrEqual(5);
    if (r.error) {
      // Only a create the API kept refusing (sent, looked for, eight times over) can end a run here.
      expect(r.error).toMatch(/GitBook API 503 on POST \/v1\/orgs\/\S+: outcome unknown .*: Injected fault: the service answered 503/);
      expectStateMatchesEmulator(d);
    } else {
      expectExactlyDeclared(d, decls);
    }
  });

  it("destroys through 502s, or stops saying which delete failed, keeping state true", async () => {
    d.emu.faults.clear();
    await d.run("up", topology(d.emu));
    d.emu.faults.add({ errorRate: 0.3, status: 502 });
    const r = await d.run("destroy");
    if (r.error) expect(r.error).toMatch(/GitBook API 502 on DELETE/);
    expectStateMatchesEmulator(d);
  });

  it("stops at the first 500 with the API's message, keeping state true, and converges once the API is fixed", async () => {
    const decls = topology(d.emu);
    d.emu.faults.clear();
    d.emu.faults.add({ errorRate: 0.3, status: 500 });
    const r = await d.run("up", decls);
    // A 500 on a read or an update ends the run (a create answered 500 is looked for and resent).
    if (r.error) expect(r.error).toMatch(/GitBook API 500 on (GET|PATCH|PUT|POST|DELETE) \/v1\/[^ ]+: Injected fault: the service answered 500/);
    expectStateMatchesEmulator(d);
    await expectConvergedRerun(d, decls);
    expectTokenNowhere(d, [d.emu.token]);
  });
});
