/**
 * Every kind's lifecycle (test/support/scenarios.ts) in process, against the emulator: preview,
 * create, no-op, update, replace, refresh with drift, refresh after an out-of-band delete, adoption,
 * destroy, with the requests each sends. The same scenarios run through the real CLI, all kinds in
 * one stack, in test/lifecycle/everyKind.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessProgram, type InProcessProgram, type ProgramStep } from "../support/program";
import { startProviderEnv, type ProviderEnv } from "../support/provider";
import { scenarios } from "../support/scenarios";

const stepOf = (steps: ProgramStep[], name = "subject") => steps.find((s) => s.name === name);

describe.each(Object.values(scenarios))("$kind, in process", (sc) => {
  let env: ProviderEnv;
  let p: InProcessProgram;
  let id: string;
  beforeAll(async () => {
    env = await startProviderEnv();
    p = inProcessProgram(env);
  });
  afterAll(async () => env?.close());

  it("previews a create without sending anything", async () => {
    const steps = await p.preview(sc.program(env.emu, "base"));
    expect(stepOf(steps)?.op).toBe("create");
    expect(env.emu.log.count()).toBe(0);
  });

  it("creates, then re-runs as a no-op with zero requests", async () => {
    expect(stepOf(await p.up(sc.program(env.emu, "base")))?.op).toBe("create");
    id = p.resource("subject").id;
    expect(sc.live(env.emu, id)).toBeDefined();
    env.emu.log.reset();
    expect((await p.up()).every((s) => s.op === "same")).toBe(true);
    expect(env.emu.log.count()).toBe(0);
  });

  it(`updates in place when ${sc.updateField} changes`, async () => {
    const program = sc.program(env.emu, "update");
    expect(stepOf(await p.preview(program))).toMatchObject({ op: "update", changed: [sc.updateField] });
    expect(stepOf(await p.up(program))?.op).toBe("update");
    expect(p.resource("subject").id).toBe(id);
    expect(p.resource("subject").inputs[sc.updateField]).toEqual(program.at(-1)!.args[sc.updateField]);
  });

  it(`replaces when ${sc.replaceField} changes`, async () => {
    expect(stepOf(await p.up(sc.program(env.emu, "replace")))).toMatchObject({ op: "replace", replaces: [sc.replaceField] });
    const newId = p.resource("subject").id;
    expect(newId).not.toBe(id);
    expect(sc.live(env.emu, id)).toBeUndefined();
    expect(sc.live(env.emu, newId)).toBeDefined();
    id = newId;
  });

  it("shows drift made outside Pulumi at refresh, and converges it on the next up", async () => {
    const field = sc.drift(env.emu, id);
    const drifted = stepOf(await p.refresh())!;
    expect(drifted.op).toBe("refresh");
    expect(drifted.changed).toContain(field);
    expect(p.resource("subject").inputs[field]).toEqual(p.resource("subject").outputs[field]);
    const converged = stepOf(await p.up())!;
    expect(converged.op).toBe("update");
    expect(converged.changed).toContain(field);
    env.emu.log.reset();
    expect((await p.up()).every((s) => s.op === "same")).toBe(true);
    expect(env.emu.log.writes()).toBe(0);
  });

  it("drops an object deleted outside Pulumi at refresh, and recreates it on up", async () => {
    sc.remove(env.emu, id);
    expect(stepOf(await p.refresh())?.op).toBe("read-gone");
    expect(p.names()).not.toContain("subject");
    expect(stepOf(await p.up())?.op).toBe("create");
    id = p.resource("subject").id;
  });

  it("adopts an existing object instead of creating another", async () => {
    await p.up(sc.program(env.emu, "base").filter((x) => x.name !== "subject"));
    expect(sc.live(env.emu, id)).toBeUndefined();
    const existing = await sc.existing(env.emu, p);
    const before = sc.count(env.emu);
    const program = sc.program(env.emu, "base");
    program.at(-1)!.args.adoptId = existing;
    env.emu.log.reset();
    await p.up(program);
    expect(p.resource("subject").id).toBe(existing);
    expect(sc.count(env.emu)).toBe(before);
    expect(env.emu.log.count({ method: "POST" })).toBe(0);
  });

  it("destroys everything it made, leaving nothing behind", async () => {
    await p.destroy();
    expect(p.names()).toEqual([]);
    expect(sc.count(env.emu)).toBe(0);
  });
});
