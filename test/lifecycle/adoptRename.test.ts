/**
 * A resource renamed in the program, the new name given the object's ID as adoptId (a way to move an
 * object between resources without aliases): the engine creates the new resource, then deletes the
 * old one. When the provider process that serves the delete saw the new one take the object over, the
 * delete leaves the object to it (before, it deleted the space the new resource had just adopted, its
 * pages going to the trash); the engine may serve it from another process, which cannot know, so the
 * README's way is `retainOnDelete` on the old resource first, which the engine honours whatever process
 * serves the run (no delete is sent at all). And a second adoptId naming the same object is refused
 * by the program, naming the resource that adopts it, before anything is sent.
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
    // The provider's delete was called, and said what it did instead.
    expect(moved.stdout).toContain(`${id} is left in GitBook, not deleted`);
    expect(d.resource("renamed").id).toBe(id);
    expect(d.emu.store.spaces.get(id)?.deletedAt ?? null).toBeNull();

    // Refused by the program, whatever order the engine would send the two in: the provider refused the
    // second one its process saw, and when that was the renamed one's diff (seen once in a suite run at
    // 4 workers) the twin's adoption went into state beside it.
    d.emu.log.reset();
    const twice = await d.run("up", [
      { kind: "Space", name: "renamed", args: { title: "Moved Handbook", adoptId: id } },
      { kind: "Space", name: "twin", args: { title: "Moved Handbook", adoptId: id } },
    ]);
    expect(twice.error).toMatch(new RegExp(`Space "twin": adoptId: Space "renamed" adopts the object "${id}" too`));
    expect(d.emu.log.count()).toBe(0);
    expect(d.state().resources.filter((r) => r.custom).map((r) => r.name)).toEqual(["renamed"]);

    d.emu.log.reset();
    const again = await d.run("up", [{ kind: "Space", name: "renamed", args: { title: "Moved Handbook", adoptId: id } }]);
    expect(again.error).toBeUndefined();
    expect(steps(again).filter((s) => !s.startsWith("same "))).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
  });

  it("moves with no delete sent at all when the old resource is first marked retainOnDelete, as the README says", async () => {
    const space = { kind: "Space", name: "before", args: { title: "Retained Handbook" } };
    expect((await d.run("up", [{ ...space, retainOnDelete: true }])).error).toBeUndefined();
    const id = d.resource("before").id!;
    d.emu.log.reset();
    const moved = await d.run("up", [{ kind: "Space", name: "after", args: { title: "Retained Handbook", adoptId: id } }]);
    expect(moved.error).toBeUndefined();
    expect(d.emu.log.count({ method: "DELETE" })).toBe(0);
    // The engine did not even call the provider's delete (which, in the same process, would also have
    // left the object, saying so): the option holds whichever process would have served it.
    expect(moved.stdout).not.toContain("is left in GitBook");
    expect(d.resource("after").id).toBe(id);
    expect(d.emu.store.spaces.get(id)?.deletedAt ?? null).toBeNull();
  });
});
