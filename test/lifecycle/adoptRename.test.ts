/**
 * A resource renamed in the program, the new name given the object's ID as adoptId (a way to move an
 * object between resources without aliases): the engine creates the new resource, then deletes the
 * old one, both through the one provider process of the run. The old one's delete leaves the object
 * to the resource that took it over (before, it deleted the space the new resource had just adopted,
 * its pages going to the trash). And a second adoptId naming the same object is refused, naming the
 * resource that manages it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Deployment } from "../support/lifecycle";

describeDeployments("an object moved to a renamed resource by adoptId", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("stays, managed by the new resource, and the next run has nothing to do", async () => {
    expect((await d.run("up", [{ kind: "Space", name: "old", args: { title: "Moved Handbook" } }])).error).toBeUndefined();
    const id = d.resource("old").id!;
    const moved = await d.run("up", [{ kind: "Space", name: "renamed", args: { title: "Moved Handbook", adoptId: id } }]);
    expect(moved.error).toBeUndefined();
    expect(steps(moved).sort()).toEqual(["create renamed", "delete old"]);
    expect(d.resource("renamed").id).toBe(id);
    expect(d.emu.store.spaces.get(id)?.deletedAt ?? null).toBeNull();

    const twice = await d.run("up", [
      { kind: "Space", name: "renamed", args: { title: "Moved Handbook", adoptId: id } },
      { kind: "Space", name: "twin", args: { title: "Moved Handbook", adoptId: id } },
    ]);
    expect(twice.error).toMatch(new RegExp(`Space twin: adoptId: "${id}" names the object Space renamed of this stack manages`));

    d.emu.log.reset();
    const again = await d.run("up", [{ kind: "Space", name: "renamed", args: { title: "Moved Handbook", adoptId: id } }]);
    expect(again.error).toBeUndefined();
    expect(steps(again).filter((s) => !s.startsWith("same "))).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
  });
});
