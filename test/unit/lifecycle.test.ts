/**
 * Every kind's lifecycle (test/support/scenarios.ts) in process, against the emulator: preview,
 * create, no-op, update, replace, refresh with drift, refresh after an out-of-band delete, adoption,
 * destroy, with the requests each sends. The same scenarios run through the real CLI, all kinds in
 * one stack, in test/lifecycle/everyKind.test.ts.
 */
import { describe, expect, it } from "vitest";
import { definitionOf } from "../../provider/impl";
import { programSuite, type ProgramStep } from "../support/program";
import { ORG_QUESTION } from "../support/provider";
import { scenarios } from "../support/scenarios";

const stepOf = (steps: ProgramStep[], name = "subject") => steps.find((s) => s.name === name);

describe.each(Object.values(scenarios))("$kind, in process", (sc) => {
  const s = programSuite();
  let id: string;

  it("previews a create sending nothing but the one question whether the token sees the organization", async () => {
    const steps = await s.p.preview(sc.program(s.env.emu, "base"));
    expect(stepOf(steps)?.op).toBe("create");
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
  });

  it("creates, then re-runs as a no-op with zero requests", async () => {
    expect(stepOf(await s.p.up(sc.program(s.env.emu, "base")))?.op).toBe("create");
    id = s.p.resource("subject").id;
    expect(sc.live(s.env.emu, id)).toBeDefined();
    s.env.emu.log.reset();
    expect((await s.p.up()).every((s) => s.op === "same")).toBe(true);
    expect(s.env.emu.log.count()).toBe(0);
  });

  it(`updates in place when ${sc.updateField} changes`, async () => {
    const program = sc.program(s.env.emu, "update");
    expect(stepOf(await s.p.preview(program))).toMatchObject({ op: "update", changed: [sc.updateField] });
    expect(stepOf(await s.p.up(program))?.op).toBe("update");
    expect(s.p.resource("subject").id).toBe(id);
    expect(s.p.resource("subject").inputs[sc.updateField]).toEqual(program.at(-1)!.args[sc.updateField]);
  });

  it(`replaces when ${sc.replaceField} changes`, async () => {
    expect(stepOf(await s.p.up(sc.program(s.env.emu, "replace")))).toMatchObject({ op: "replace", replaces: [sc.replaceField] });
    const newId = s.p.resource("subject").id;
    expect(newId).not.toBe(id);
    expect(sc.live(s.env.emu, id)).toBeUndefined();
    expect(sc.live(s.env.emu, newId)).toBeDefined();
    id = newId;
  });

  it("is, after a replacement the user forces (`up --replace`), what the program declares, or refuses it changing nothing", async () => {
    const { deleteBeforeReplace } = (await definitionOf(sc.kind)).diff;
    if (typeof deleteBeforeReplace === "object") {
      // Its replacement would collide with it (same slug, same source): the create fails, before any delete.
      await expect(s.p.replace("subject")).rejects.toThrow(/adoptId/);
      expect(sc.live(s.env.emu, id)).toBeDefined();
      return;
    }
    await s.p.replace("subject");
    id = s.p.resource("subject").id;
    expect(sc.live(s.env.emu, id)).toBeDefined();
    // Before: where old and new are one object (an ID derived from the declaration), the old one's
    // delete, after the new one's create, undid it.
    const refreshed = stepOf(await s.p.refresh())!;
    expect(refreshed.op).not.toBe("read-gone");
    // allowReplacement means something to one run only: refresh does not keep it.
    expect((refreshed.changed ?? []).filter((f) => f !== "allowReplacement")).toEqual([]);
    s.env.emu.log.reset();
    expect((await s.p.up()).every((s) => s.op === "same")).toBe(true);
  });

  it("shows drift made outside Pulumi at refresh, and converges it on the next up", async () => {
    const field = sc.drift(s.env.emu, id);
    const drifted = stepOf(await s.p.refresh())!;
    expect(drifted.op).toBe("refresh");
    expect(drifted.changed).toContain(field);
    expect(s.p.resource("subject").inputs[field]).toEqual(s.p.resource("subject").outputs[field]);
    const converged = stepOf(await s.p.up())!;
    expect(converged.op).toBe("update");
    expect(converged.changed).toContain(field);
    s.env.emu.log.reset();
    expect((await s.p.up()).every((s) => s.op === "same")).toBe(true);
    expect(s.env.emu.log.writes()).toBe(0);
  });

  it("drops an object deleted outside Pulumi at refresh, and recreates it on up", async () => {
    sc.remove(s.env.emu, id);
    expect(stepOf(await s.p.refresh())?.op).toBe("read-gone");
    expect(s.p.names()).not.toContain("subject");
    expect(stepOf(await s.p.up())?.op).toBe("create");
    id = s.p.resource("subject").id;
  });

  it("adopts an existing object instead of creating another", async () => {
    await s.p.up(sc.program(s.env.emu, "base").filter((x) => x.name !== "subject"));
    expect(sc.live(s.env.emu, id)).toBeUndefined();
    const existing = await sc.existing(s.env.emu, s.p);
    const before = sc.count(s.env.emu);
    const program = sc.program(s.env.emu, "base");
    program.at(-1)!.args.adoptId = existing;
    s.env.emu.log.reset();
    await s.p.up(program);
    expect(s.p.resource("subject").id).toBe(existing);
    expect(sc.count(s.env.emu)).toBe(before);
    expect(s.env.emu.log.count({ method: "POST" })).toBe(0);
  });

  it("destroys everything it made, leaving nothing behind", async () => {
    await s.p.destroy();
    expect(s.p.names()).toEqual([]);
    expect(sc.count(s.env.emu)).toBe(0);
  });
});
