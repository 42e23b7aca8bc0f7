/**
 * A create the provider gave up on (no answer within the time limit) may still be carried out by the
 * API afterwards. Sending it again before that shows would make a second object.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RETRY } from "../client";
import { startProviderEnv, type ProviderEnv } from "../../test/support/provider";
import { until } from "../../test/support/until";

let env: ProviderEnv;
beforeAll(async () => {
  // A 200 ms time limit, and the API carries out the first create 450 ms after receiving it.
  env = await startProviderEnv({ client: { timeoutMs: 200 } });
});
afterAll(async () => env.close());
beforeEach(() => {
  env.emu.faults.clear();
  env.emu.log.reset();
  env.outOfBand();
});

/**
 * The API has finished with the slow request (it logs a request when done with it). Node's timers may
 * fire a fraction of a millisecond before performance.now() says 450 ms have passed, so the bar is 440.
 */
const slowRequestDone = () => until(() => expect(env.emu.log.entries.some((e) => e.ms >= 440)).toBe(true));

describe("a create that timed out", () => {
  it("is found once the API has carried it out, and never sent again", async () => {
    env.emu.faults.add({ match: { method: "POST", route: "/v1/orgs/:org/sites" }, latencyMs: 450, times: 1 });
    const site = await env.up("Site", { title: "Slow Docs" });
    await slowRequestDone();
    expect([...env.emu.store.sites.values()].filter((s) => s.title === "Slow Docs").map((s) => s.id)).toEqual([site.state.id]);
    expect(env.emu.log.count({ method: "POST" })).toBe(1);
  });

  it("is sent again, once, when the API dropped it without creating anything", async () => {
    // Too slow, and then never carried out: nothing appears however long one looks.
    const match = { method: "PUT", route: "/v1/orgs/:org/teams" };
    env.emu.faults.add({ match, latencyMs: 450, times: 1 });
    env.emu.faults.add({ match, dropBeforeProcess: true, times: 1 });
    const team = await env.up("Team", { title: "Retried Team" });
    await slowRequestDone();
    expect([...env.emu.store.teams.values()].filter((t) => t.title === "Retried Team").map((t) => t.id)).toEqual([team.state.id]);
    expect(env.emu.log.count(match)).toBe(2);
  });
});

describe("a create whose every answer is lost", () => {
  it("adopts what its last attempt made instead of leaving it behind", async () => {
    const match = { method: "POST", route: "/v1/orgs/:org/saml" };
    // Every attempt but the last never reaches the API; the last is carried out and its answer lost.
    env.emu.faults.add({ match, dropBeforeProcess: true, times: DEFAULT_RETRY.maxAttempts - 1 });
    env.emu.faults.add({ match, dropAfterProcess: true, times: 1 });
    const saml = await env.up("SamlProvider", { label: "Last try" });
    expect(env.emu.log.count(match)).toBe(DEFAULT_RETRY.maxAttempts);
    expect([...env.emu.store.samlProviders.values()].filter((p) => p.label === "Last try").map((p) => p.id)).toEqual([saml.state.id]);
  });
});

describe("a create that fails every time without making anything", () => {
  it("says nothing was made, how many times it was sent, and what to do, naming the resource once", async () => {
    const match = { method: "POST", route: "/v1/orgs/:org/spaces" };
    env.emu.faults.add({ match, errorRate: 1, status: 503 });
    const e = await env.up("Space", { title: "Never Made", __gitbookName: "handbook" }).then(
      () => undefined,
      (x: unknown) => x as Error,
    );
    expect(env.emu.log.count(match)).toBe(DEFAULT_RETRY.maxAttempts);
    expect([...env.emu.store.spaces.values()].filter((s) => s.title === "Never Made")).toEqual([]);
    // Before: "outcome unknown (the request may have been applied)", after proving each time it was not.
    expect(e?.message).toMatch(
      new RegExp(
        `^Space handbook: the create of space "Never Made" was sent ${DEFAULT_RETRY.maxAttempts} times and failed each time, and no object it could have made appeared after any of them, so nothing was created ` +
          `\\(last: GitBook API 503 on POST /v1/orgs/[^/]+/spaces: Injected fault: the service answered 503\\)\\. Run \`pulumi up\` again once GitBook answers\\.$`,
      ),
    );
  });
});
