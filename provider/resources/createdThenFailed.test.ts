/**
 * Once the API has created the object, any later failure in the same create must still hand its ID
 * to the engine (a partial failure), or the object is left on the API unknown to state, and the next
 * `up` creates a second one (or, for a spec, fails on its slug).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PartialFailure } from "../framework/failure";
import { startProviderEnv, type ProviderEnv } from "../../test/support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());

const failOnce = (method: string, route: string) => env.emu.faults.add({ match: { method, route }, errorRate: 1, status: 500, times: 1 });

async function partialFailure(p: Promise<unknown>): Promise<PartialFailure> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PartialFailure);
  return e as PartialFailure;
}

describe("a create that fails after the object exists", () => {
  it("keeps an OpenAPI spec whose processing could not be followed, where refresh finds it", async () => {
    // The GET that follows the spec's processing, not the one before the POST (recovery's listing before).
    const record = env.emu.log.record.bind(env.emu.log);
    env.emu.log.record = (entry) => {
      record(entry);
      if (entry.method !== "POST") return;
      env.emu.log.record = record;
      failOnce("GET", "/v1/orgs/:org/openapi/:slug");
    };
    const inputs = { slug: "followed-api", source: { url: "https://example.com/openapi.yaml" } };
    const e = await partialFailure(env.up("OpenApiSpec", inputs));
    const live = [...env.emu.store.openApiSpecs.values()].filter((s) => s.slug === "followed-api");
    expect(live.map((s) => s.id)).toEqual([e.id]);
    expect(e.reasons[0]).toMatch(/^OpenApiSpec oas_\w+: GitBook API 500 on GET \S+: .*\nOpenAPI spec "followed-api" was sent but its processing could not be followed; it is kept in state/);
    const refreshed = await env.refresh("OpenApiSpec", { id: e.id, outs: e.properties });
    expect(refreshed!.state.id).toBe(e.id);
  });

  it("keeps a team whose membership could not be confirmed, and the next up converges the members", async () => {
    failOnce("GET", "/v1/orgs/:org/teams/:team");
    const m = env.emu.seeded.members;
    const inputs = { title: "Half Team", members: [{ user: m[1]!.email }, { user: m[2]!.id, role: "owner" }] };
    const e = await partialFailure(env.up("Team", inputs));
    expect([...env.emu.store.teams.values()].filter((t) => t.title === "Half Team").map((t) => t.id)).toEqual([e.id]);
    // Unconfirmed membership is recorded as unknown, so the next up looks at it again.
    expect(e.properties).not.toHaveProperty("members");
    const next = await env.up("Team", inputs, { id: e.id, outs: e.properties });
    expect(next.step).toBe("update");
    expect(env.emu.store.teamMembersOf(e.id).map((x) => [x.userId, x.role]).sort()).toEqual(
      [
        [m[1]!.id, "member"],
        [m[2]!.id, "owner"],
      ].sort(),
    );
  });

  // The run that fails this way through the CLI: test/cli/cli.test.ts's failed up (the engine keeps the team).
  it("keeps a team whose members' write GitBook refused, and the next up finishes the job", async () => {
    failOnce("PUT", "/v1/orgs/:org/teams/:team/members");
    const m = env.emu.seeded.members;
    const inputs = { title: "Refused Team", members: [{ user: m[1]!.email }] };
    const e = await partialFailure(env.up("Team", inputs));
    expect(e.message).toMatch(/^Team \S+: .*500/);
    expect([...env.emu.store.teams.values()].filter((t) => t.title === "Refused Team").map((t) => t.id)).toEqual([e.id]);
    expect(env.emu.store.teamMembersOf(e.id)).toEqual([]);
    const next = await env.up("Team", inputs, { id: e.id, outs: e.properties });
    expect(next.step).toBe("update");
    expect(next.state.id).toBe(e.id);
    expect(env.emu.store.teamMembersOf(e.id).map((x) => x.userId)).toEqual([m[1]!.id]);
    expect([...env.emu.store.teams.values()].filter((t) => t.title === "Refused Team")).toHaveLength(1);
  });
});
