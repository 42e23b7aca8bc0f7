/**
 * Every row of the API's Limits table (test/support/limits.ts) at the provider's check, in process:
 * each fails on its field (and no other), with a reason naming the limit, and sends nothing. That
 * such a failure stops `pulumi up` is proved once through the CLI (test/lifecycle/state.test.ts, of a nested field, source.file).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROWS, VALID } from "../support/limits";
import { startProviderEnv, type ProviderEnv } from "../support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env?.close());

describe("the API's limits at check", () => {
  it.each(ROWS.map(([row, ...rest], i) => [`${row} (row ${i})`, ...rest] as const))("%s", async (_row, kind, field, value, property, reason) => {
    env.emu.log.reset();
    const r = await env.check(kind, { ...VALID[kind], [field]: value });
    // An empty slug also breaks the slug pattern: that second failure may come along, on the same field.
    expect(r.failures?.map((f) => f.property)).toEqual(r.failures?.map(() => property));
    expect(r.failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
    expect(env.emu.log.count()).toBe(0);
  });
});
