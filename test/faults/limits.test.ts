/**
 * The API's limits (test/support/limits.ts) through the real CLI: a bad field fails `up` at check, named
 * with its resource, its dotted path and its limit, before anything is sent or recorded. Each row is
 * checked in process by test/unit/limits.test.ts; here one row, a nested field (source.url) the engine
 * must report under its dotted path, stands for them all (the engine stops at the first failing check,
 * so each row would be a run of its own). `pulumi preview` failing on bad input: test/cli/cli.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, type Decl, type Deployment } from "../support/lifecycle";
import { ROWS, VALID } from "../support/limits";
import { deploy, expectTokenNowhere } from "./topology";

const i = ROWS.findIndex(([, , , , property]) => property.includes("."));
const [row, kind, field, value, property, reason] = ROWS[i]!;
const program: Decl[] = [{ kind, name: `bad${i}`, args: { ...VALID[kind], [field]: value } }];

describeDeployments("the API's limits, as bad input to a program", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deploy();
  });
  afterAll(async () => d?.close());

  it("fails up at check, naming the resource, the field and the limit, before anything is sent or recorded", async () => {
    d.emu.log.reset();
    const r = await d.run("up", program);
    expect(r.error, row).toBeDefined();
    const failures = (r.checkFailures ?? []).filter((f) => f.urn.endsWith(`::bad${i}`));
    expect(failures, row).toContainEqual(expect.objectContaining({ property, reason: expect.stringMatching(reason) }));
    // What the user reads names the resource and the field.
    expect(r.stdout, row).toMatch(new RegExp(`bad${i}'?:? .*${reason.source}`));
    expect(d.emu.log.count()).toBe(0);
    expect(d.state().resources.filter((x) => x.custom)).toEqual([]);
    expectTokenNowhere(d, [d.emu.token], [r.stdout, r.error ?? ""]);
  });
});
