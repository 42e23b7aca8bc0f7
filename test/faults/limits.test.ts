/**
 * The API's limits (test/support/limits.ts) through a whole program and the real CLI: a bad field
 * fails preview and up at check, named with its resource and limit, and costs zero requests. Each
 * row is checked in process by test/unit/limits.test.ts; here one preview stands for them all (the
 * engine stops a preview at the first failing check, so each row would be a preview of its own).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, type Decl, type Deployment } from "../support/lifecycle";
import { ROWS, VALID } from "../support/limits";
import { deploy, expectTokenNowhere } from "./topology";

const program: Decl[] = ROWS.map(([, kind, field, value], i) => ({ kind, name: `bad${i}`, args: { ...VALID[kind], [field]: value } }));

describeDeployments("the API's limits, as bad input to a whole program", () => {
  let d: Deployment;
  const outputs: string[] = [];
  beforeAll(async () => {
    d = await deploy();
  });
  afterAll(async () => d?.close());

  it("fails preview at check, naming the resource, the field and the limit, with zero requests", async () => {
    // A nested field (source.url), which the engine must report under its dotted path.
    const i = ROWS.findIndex(([, , , , property]) => property.includes("."));
    const [row, , , , property, reason] = ROWS[i]!;
    d.emu.log.reset();
    const r = await d.preview([program[i]!]);
    outputs.push(r.stdout, r.error ?? "");
    expect(r.error, row).toBeDefined();
    const failures = (r.checkFailures ?? []).filter((f) => f.urn.endsWith(`::bad${i}`));
    expect(failures, row).toContainEqual(expect.objectContaining({ property, reason: expect.stringMatching(reason) }));
    // What the user reads names the resource and the field.
    expect(r.stdout, row).toMatch(new RegExp(`bad${i}'?:? .*${reason.source}`));
    expect(d.emu.log.count()).toBe(0);
  });

  it("fails up at check before anything is sent or recorded", async () => {
    d.emu.log.reset();
    const r = await d.run("up", program);
    outputs.push(r.stdout, r.error ?? "");
    expect(r.error).toMatch(/\S+ must be/);
    expect(r.checkFailures!.length).toBeGreaterThan(0);
    for (const i of new Set(r.checkFailures!.map((f) => Number(/::bad(\d+)$/.exec(f.urn)![1])))) {
      const [row, , , , property, reason] = ROWS[i]!;
      const failures = r.checkFailures!.filter((f) => f.urn.endsWith(`::bad${i}`));
      expect(failures, row).toContainEqual(expect.objectContaining({ property, reason: expect.stringMatching(reason) }));
    }
    expect(d.emu.log.count()).toBe(0);
    expect(d.state().resources.filter((x) => x.custom)).toEqual([]);
  });

  it("never showed the token", () => {
    expectTokenNowhere(d, [d.emu.token], outputs);
  });
});
