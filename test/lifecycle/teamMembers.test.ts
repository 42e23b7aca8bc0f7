/**
 * One user named twice in a team's members, by e-mail and by ID: the API would apply both entries and
 * keep one role while state recorded the other. The run must stop before any write, naming both entries.
 * (Named twice the same way fails at check: provider/resources/team.test.ts.)
 *
 * Two runs (issue 23: engine runs are the suite's cost): a team listing each user once, by e-mail and
 * by ID, converges; the next run keeps it unchanged and refuses a second team naming one user twice.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";

describeDeployments("a team naming one user twice", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const grace = () => d.emu.seeded.members.find((m) => m.email === "grace@acme.test")!;
  const team = (name: string, members: { user: string; role?: string }[], dependsOn?: string[]): Decl => ({
    kind: "Team",
    name,
    args: { title: `Docs Team ${name}`, members },
    ...(dependsOn ? { dependsOn } : {}),
  });
  const good = () => team("good", [{ user: "grace@acme.test", role: "owner" }, { user: d.emu.seeded.members[0]!.id }]);

  it("converges when each user is listed once, by e-mail or by ID", async () => {
    const r = await d.run("up", [good()]);
    expect(r.error).toBeUndefined();
    const id = d.resource("good").id!;
    expect(d.emu.store.teamMembersOf(id).find((m) => m.userId === grace().id)?.role).toBe("owner");
  });

  it("by e-mail and by ID, fails up naming both entries before any write; the other team unchanged", async () => {
    d.emu.log.reset();
    // After the converged team (dependsOn), so that its step is certainly part of this run.
    const r = await d.run("up", [good(), team("bad", [{ user: "grace@acme.test", role: "owner" }, { user: grace().id, role: "member" }], ["good"])]);
    expect(r.error).toMatch(new RegExp(`members\\[0\\]\\.user "grace@acme.test" and members\\[1\\]\\.user "${grace().id}" name the same user`));
    expect(steps(r)).toContain("same good");
    expect(d.emu.log.writes()).toBe(0);
    expect(d.emu.store.teams.size).toBe(1);
    expect(d.state().resources.filter((x) => x.custom).map((x) => x.name)).toEqual(["good"]);
  });
});
