/**
 * A resource renamed in the program, the new name given the object's ID as adoptId (a way to move an
 * object between resources without aliases): the engine creates the new resource, then deletes the
 * old one. When the provider process that serves the delete saw the new one take the object over, the
 * delete leaves the object to it (before, it deleted the space the new resource had just adopted, its
 * pages going to the trash); the engine may serve it from another process, which cannot know, so the
 * README's way is `retainOnDelete` on the old resource first, which the engine honours whatever process
 * serves the run (no delete is sent at all). A second adoptId naming the same object is refused by the
 * program, naming the resource that adopts it, before anything is sent: that is the program's process
 * alone, proved in process by provider/resources/overlaps.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Deployment } from "../support/lifecycle";

describeDeployments("an object moved to a renamed resource by adoptId", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  // One sequence for both ways (engine runs are the suite's cost): the first up makes both spaces, the
  // second moves both, the third has nothing to do. The second adoptId naming an object already adopted
  // is refused by the program before anything is sent: provider/resources/overlaps.test.ts.
  it("stays, managed by the new resource, and the next run has nothing to do; with retainOnDelete first, no delete is sent at all, as the README says", async () => {
    const first = await d.run("up", [
      { kind: "Space", name: "old", args: { title: "Moved Handbook" } },
      { kind: "Space", name: "before", args: { title: "Retained Handbook" }, retainOnDelete: true },
    ]);
    expect(first.error).toBeUndefined();
    const id = d.resource("old").id!;
    const retained = d.resource("before").id!;
    d.emu.log.reset();
    const program = [
      { kind: "Space", name: "renamed", args: { title: "Moved Handbook", adoptId: id } },
      { kind: "Space", name: "after", args: { title: "Retained Handbook", adoptId: retained } },
    ];
    const moved = await d.run("up", program);
    expect(moved.error).toBeUndefined();
    expect(steps(moved).filter((s) => !s.startsWith("same ")).sort()).toEqual(["create after", "create renamed", "delete before", "delete old"]);
    // The provider's delete was called, and said what it did instead.
    expect(moved.stdout).toContain(`${id} is left in GitBook, not deleted`);
    expect(d.resource("renamed").id).toBe(id);
    expect(d.emu.store.spaces.get(id)?.deletedAt ?? null).toBeNull();
    // Neither sent a delete; and for the retained one the engine did not even call the provider's delete
    // (which, in the same process, would also have left the object, saying so): the option holds
    // whichever process would have served it.
    expect(d.emu.log.count({ method: "DELETE" })).toBe(0);
    expect(moved.stdout).not.toContain(`${retained} is left in GitBook`);
    expect(d.resource("after").id).toBe(retained);
    expect(d.emu.store.spaces.get(retained)?.deletedAt ?? null).toBeNull();

    d.emu.log.reset();
    const again = await d.run("up", program);
    expect(again.error).toBeUndefined();
    expect(steps(again).filter((s) => !s.startsWith("same "))).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
  });
});
