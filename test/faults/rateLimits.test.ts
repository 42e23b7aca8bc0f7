/**
 * 429 storms: the API refuses a run of requests with X-RateLimit-Reset (and Retry-After) headers. A
 * 429 means the request was not carried out, so anything may be resent, creates included, but only
 * once the API's reset time has come.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, type Deployment } from "../support/lifecycle";
import { deploy, expectConvergedRerun, expectExactlyDeclared, expectNothingLeft, expectTokenNowhere, topology } from "./topology";

describeDeployments("429 storms with reset headers", () => {
  let d: Deployment;
  /** Arrival time of every request, in the emulator's clock (the one its reset headers are computed from). */
  const arrivals: { method: string; path: string; status: number; at: number }[] = [];
  beforeAll(async () => {
    d = await deploy();
    const record = d.emu.log.record.bind(d.emu.log);
    d.emu.log.record = (e) => {
      arrivals.push({ method: e.method, path: e.path, status: e.status, at: Date.now() - e.ms });
      record(e);
    };
  });
  afterAll(async () => d?.close());

  it("converges with exactly the declared objects through a storm on every route", async () => {
    const decls = topology(d.emu);
    // Creates begin with a listing (what recovery from a lost answer compares with), so a storm on
    // every route would fall on reads alone: the first creates get one of their own.
    const createStorm = d.emu.faults.add({ match: { method: "POST" }, rateLimit: { burst: 4, resetInSeconds: 1 } });
    const storm = d.emu.faults.add({ rateLimit: { burst: 8, resetInSeconds: 1 } });
    const r = await d.run("up", decls);
    expect(r.error).toBeUndefined();
    expect(createStorm.hits).toBe(4);
    expect(storm.hits).toBe(8);
    expectExactlyDeclared(d, decls);
    // Every refused create was sent again (a 429 is never carried out), and none twice beyond that.
    const refusedCreates = arrivals.filter((a) => a.status === 429 && a.method !== "GET").length;
    expect(refusedCreates).toBeGreaterThan(0);
  });

  it("waits for the reset the API announced before resending, and destroys everything", async () => {
    arrivals.length = 0;
    d.emu.faults.add({ match: { method: "DELETE" }, rateLimit: { burst: 2, resetInSeconds: 1 } });
    const r = await d.run("destroy");
    expect(r.error).toBeUndefined();
    // The engine deletes independent resources at once: a refused DELETE's resend is the next request to its path.
    const refused = arrivals
      .map((a, i) => ({ a, next: arrivals.slice(i + 1).find((b) => b.method === a.method && b.path === a.path) }))
      .filter(({ a }) => a.status === 429);
    expect(refused).toHaveLength(2);
    for (const { a, next } of refused) {
      // X-RateLimit-Reset is whole epoch seconds: ceil(arrival) + 1 s.
      const reset = (Math.ceil(a.at / 1000) + 1) * 1000;
      expect(next).toMatchObject({ method: "DELETE", path: a.path });
      expect(next!.at).toBeGreaterThanOrEqual(reset - 5);
    }
    expectNothingLeft(d);
  });

  it("honours Retry-After, re-runs to the same result, and never wrote the token anywhere", async () => {
    d.emu.faults.add({ match: { method: "POST" }, rateLimit: { burst: 3, retryAfterSeconds: 1 } });
    const decls = topology(d.emu);
    const r = await d.run("up", decls);
    expect(r.error).toBeUndefined();
    expectExactlyDeclared(d, decls);
    await expectConvergedRerun(d, decls);
    expectTokenNowhere(d, [d.emu.token]);
  });
});
