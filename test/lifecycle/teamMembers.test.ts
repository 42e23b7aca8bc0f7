/**
 * One user named twice in a team's members, by e-mail and by ID: the API would apply both entries and
 * keep one role while state recorded the other. The run must stop before any write, naming both entries.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

describeDeployments("a team naming one user twice", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const team = (members: { user: string; role?: string }[]): Decl[] => [{ kind: "Team", name: "team", args: { title: "Docs Team", members } }];

  it("written the same way twice, fails preview naming both entries, before any request", async () => {
    d.emu.log.reset();
    const r = await d.run("preview", team([{ user: "grace@acme.test", role: "owner" }, { user: "Grace@Acme.test" }]));
    expect(r.checkFailures).toEqual([expect.objectContaining({ property: "members[1].user", reason: expect.stringMatching(/same user as members\[0\]\.user/) })]);
    expect(d.emu.log.count()).toBe(0);
  });

  it("by e-mail and by ID, fails up naming both entries before any write", async () => {
    const grace = d.emu.seeded.members.find((m) => m.email === "grace@acme.test")!;
    d.emu.log.reset();
    const r = await d.run("up", team([{ user: "grace@acme.test", role: "owner" }, { user: grace.id, role: "member" }]));
    expect(r.error).toMatch(new RegExp(`members\\[0\\]\\.user "grace@acme.test" and members\\[1\\]\\.user "${grace.id}" name the same user`));
    expect(d.emu.log.writes()).toBe(0);
    expect(d.emu.store.teams.size).toBe(0);
    expect(d.state().resources.filter((x) => x.custom)).toEqual([]);
  });

  it("converges once the user is listed once", async () => {
    const grace = d.emu.seeded.members.find((m) => m.email === "grace@acme.test")!;
    const r = await d.run("up", team([{ user: "grace@acme.test", role: "owner" }, { user: d.emu.seeded.members[0]!.id }]));
    expect(r.error).toBeUndefined();
    const id = d.resource("team").id!;
    expect(d.emu.store.teamMembersOf(id).find((m) => m.userId === grace.id)?.role).toBe("owner");
    d.emu.log.reset();
    const again = await d.run("up");
    expect(again.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
  });
});
