import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UNKNOWN } from "../framework/check";
import { teamMemberKey } from "../../emulator/store";
import { CheckFailed, startProviderEnv, type ProviderEnv, type State, rejectsAtCheck, type BadInput } from "../../test/support/provider";

let env: ProviderEnv;
let ada: string, grace: string, alan: string, katherine: string;
beforeAll(async () => {
  env = await startProviderEnv();
  [ada, grace, alan, katherine] = env.emu.seeded.members.map((m) => m.id) as [string, string, string, string];
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());

const TEAMS = "/v1/orgs/:org/teams";
const TEAM = "/v1/orgs/:org/teams/:team";
const MEMBERS = "/v1/orgs/:org/teams/:team/members";

let n = 0;
/** A fresh title per test, so find-by-title never sees another test's team. */
const title = () => `Team ${++n}`;

/** The membership the emulator holds, as {userId: role}. */
function liveRoles(teamId: string): Record<string, string> {
  return Object.fromEntries(env.emu.store.teamMembersOf(teamId).map((m) => [m.userId, m.role]));
}

function addOutOfBand(teamId: string, userId: string, role: "owner" | "member" = "member") {
  const { seq, createdAt } = env.emu.store.newId("tm");
  const id = teamMemberKey(teamId, userId);
  env.emu.store.teamMembers.set(id, { id, seq, createdAt, teamId, userId, role });
  env.outOfBand();
}

async function created(inputs: Record<string, unknown>): Promise<State> {
  return (await env.up("Team", inputs)).state;
}

describe("check", () => {
  const bad: BadInput[] = [
    ["title", { title: "" }, /^title must be 1 to 64 characters/],
    ["title", { title: "t".repeat(65) }, /^title must be 1 to 64 characters/],
    ["members", { title: "T", members: "everyone" }, /^members must be a list of \{user, role\}/],
    ["members[0].user", { title: "T", members: [{ user: "" }] }, /^members\[0\]\.user must not be empty/],
    ["members[0].role", { title: "T", members: [{ user: "ada@acme.test", role: "boss" }] }, /^members\[0\]\.role must be owner or member/],
    ["members[1].user", { title: "T", members: [{ user: "ada@acme.test" }, { user: "ADA@acme.test" }] }, /lists the same user as members\[0\]\.user/],
    ["members[2].user", { title: "T", members: [{ user: "usr_1" }, { user: "grace@acme.test" }, { user: "usr_1", role: "owner" }] }, /lists the same user as members\[0\]\.user/],
  ];
  rejectsAtCheck(() => env, "Team", {}, bad);

  it("requires a title", async () => {
    const r = await env.check("Team", {});
    expect(r.failures).toContainEqual({ property: "title", reason: "title is required" });
  });

  it("fills the organization, adds no role the program did not declare, and keeps the program's order (so errors can name entries by index)", async () => {
    const r = await env.check("Team", { title: "T", members: [{ user: "grace@acme.test", role: "owner" }, { user: "Ada@acme.test" }] });
    expect(r.failures).toBeUndefined();
    expect(r.inputs).toEqual({
      title: "T",
      organizationId: env.org,
      members: [{ user: "grace@acme.test", role: "owner" }, { user: "Ada@acme.test" }],
    });
  });

  it("compares IDs exactly: two IDs differing only in case are two users", async () => {
    const r = await env.check("Team", { title: "T", members: [{ user: "usr_Ab" }, { user: "usr_aB" }] });
    expect(r.failures).toBeUndefined();
  });

  it("skips values not known until apply", async () => {
    expect((await env.check("Team", { title: UNKNOWN, members: UNKNOWN })).failures).toBeUndefined();
    expect((await env.check("Team", { title: "T", members: [{ user: UNKNOWN, role: "owner" }] })).failures).toBeUndefined();
  });

  it("fails up with the property named", async () => {
    await expect(env.up("Team", { title: "" })).rejects.toThrow(CheckFailed);
  });
});

describe("diff", () => {
  let state: State;
  const members = () => [
    { user: ada, role: "owner" },
    { user: "grace@acme.test", role: "member" },
  ];
  beforeAll(async () => {
    state = await created({ title: "Diffed", members: members() });
  });
  const inputs = async (news: Record<string, unknown>) => (await env.check("Team", news)).inputs!;

  it("reports no change for the same program in another member order, without a request", async () => {
    env.emu.log.reset();
    const d = await env.diff("Team", state, await inputs({ title: "Diffed", members: members().reverse() }));
    expect(d.changes).toBe(false);
    expect(env.emu.log.count()).toBe(0);
  });

  it("updates in place for a title or role change", async () => {
    expect(await env.diff("Team", state, await inputs({ title: "Renamed", members: members() }))).toMatchObject({ changes: true, replaces: [] });
    const roles = members().map((m) => ({ ...m, role: "owner" }));
    expect(await env.diff("Team", state, await inputs({ title: "Diffed", members: roles }))).toMatchObject({ changes: true, replaces: [] });
  });

  it("replaces for an organization change", async () => {
    const d = await env.diff("Team", state, await inputs({ title: "Diffed", members: members(), organizationId: "org_other" }));
    expect(d.replaces).toEqual(["organizationId"]);
    expect(d.deleteBeforeReplace).toBeFalsy();
  });

  it("sees removed members as a change", async () => {
    expect(await env.diff("Team", state, await inputs({ title: "Diffed" }))).toMatchObject({ changes: true, replaces: [] });
  });

  it("treats an unknown member as a possible change", async () => {
    const d = await env.diff("Team", state, { ...(await inputs({ title: "Diffed", members: members() })), members: [{ user: UNKNOWN, role: "member" }] });
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("lifecycle", () => {
  it("creates a team without members with a single PUT", async () => {
    env.emu.log.reset();
    const s = await created({ title: "Solo" });
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.count({ method: "PUT", route: TEAMS })).toBe(1);
    expect(env.emu.store.teams.get(s.id)!.title).toBe("Solo");
    expect(s.outs).toEqual({ organizationId: env.org, title: "Solo", memberCount: 0, createdAt: expect.any(String) });
  });

  it("creates a team and its membership with one members PUT", async () => {
    env.emu.log.reset();
    const s = await created({ title: title(), members: [{ user: grace }, { user: ada, role: "owner" }] });
    expect(env.emu.log.count({ method: "PUT", route: TEAMS })).toBe(1);
    expect(env.emu.log.count({ method: "PUT", route: MEMBERS })).toBe(1);
    expect(env.emu.log.writes()).toBe(2);
    expect(liveRoles(s.id)).toEqual({ [ada]: "owner", [grace]: "member" });
    expect(s.outs.members).toEqual([{ user: ada, role: "owner" }, { user: grace }].sort((a, b) => (a.user < b.user ? -1 : 1)));
    expect(s.outs.memberCount).toBe(2);
  });

  it("renames with one PATCH and leaves membership alone", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada }] });
    env.emu.log.reset();
    const r = await env.up("Team", { title: `${t} renamed`, members: [{ user: ada }] }, s);
    expect(r.step).toBe("update");
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.count({ method: "PATCH", route: TEAM })).toBe(1);
    expect(env.emu.store.teams.get(s.id)!.title).toBe(`${t} renamed`);
    expect(liveRoles(s.id)).toEqual({ [ada]: "member" });
  });

  it("converges membership (add, remove, role change) with one members PUT and nothing else", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada }, { user: grace }] });
    env.emu.log.reset();
    const r = await env.up("Team", { title: t, members: [{ user: ada, role: "owner" }, { user: alan }] }, s);
    expect(r.step).toBe("update");
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.count({ method: "PUT", route: MEMBERS })).toBe(1);
    expect(liveRoles(s.id)).toEqual({ [ada]: "owner", [alan]: "member" });
    expect(r.state.outs.memberCount).toBe(2);
    const again = await env.up("Team", { title: t, members: [{ user: alan }, { user: ada, role: "owner" }] }, r.state);
    expect(again.step).toBe("same");
  });

  it("accepts users given by e-mail in any case without seeing drift", async () => {
    const t = title();
    const members = [{ user: "Grace@ACME.test", role: "owner" }, { user: "alan@acme.test" }];
    const s = await created({ title: t, members });
    expect(liveRoles(s.id)).toEqual({ [grace]: "owner", [alan]: "member" });
    const refreshed = await env.refresh("Team", s);
    const declared = (await env.check("Team", { title: t, members })).inputs!.members as { user: string }[];
    // Refresh records them in a canonical order; what matters is that they are the declared entries, spelled the same.
    expect(refreshed!.inputs.members).toHaveLength(declared.length);
    expect(refreshed!.inputs.members).toEqual(expect.arrayContaining(declared));
    env.emu.log.reset();
    expect((await env.up("Team", { title: t, members }, refreshed!.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("shows a member added outside Pulumi, and a declared role changed there, as drift and converges both on the next up", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada, role: "member" }] });
    addOutOfBand(s.id, katherine, "owner");
    env.emu.store.teamMembers.get(teamMemberKey(s.id, ada))!.role = "owner";
    const refreshed = await env.refresh("Team", s);
    expect(refreshed!.inputs.members).toHaveLength(2);
    expect(refreshed!.inputs.members).toEqual(
      expect.arrayContaining([
        { user: ada, role: "owner" },
        { user: "katherine@acme.test", role: "owner" },
      ]),
    );
    env.emu.log.reset();
    const r = await env.up("Team", { title: t, members: [{ user: ada, role: "member" }] }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(env.emu.log.writes()).toBe(1);
    expect(liveRoles(s.id)).toEqual({ [ada]: "member" });
  });

  it("leaves the role of a member listed without one as it is: only declared roles are managed", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada }] });
    expect(liveRoles(s.id)).toEqual({ [ada]: "member" });
    env.emu.store.teamMembers.get(teamMemberKey(s.id, ada))!.role = "owner";
    env.outOfBand();
    const refreshed = await env.refresh("Team", s);
    expect(refreshed!.inputs.members).toEqual([{ user: ada }]);
    env.emu.log.reset();
    expect((await env.up("Team", { title: t, members: [{ user: ada }] }, refreshed!.state)).step).toBe("same");
    expect(env.emu.log.writes()).toBe(0);
    expect(liveRoles(s.id)).toEqual({ [ada]: "owner" });
  });

  it("shows a member removed outside Pulumi as drift and adds it back", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada }, { user: grace }] });
    env.emu.store.teamMembers.delete(teamMemberKey(s.id, grace));
    env.outOfBand();
    const refreshed = await env.refresh("Team", s);
    expect(refreshed!.inputs.members).toEqual([{ user: ada }]);
    await env.up("Team", { title: t, members: [{ user: ada }, { user: grace }] }, refreshed!.state);
    expect(liveRoles(s.id)).toEqual({ [ada]: "member", [grace]: "member" });
  });

  it("leaves membership alone when members are not declared, or no longer declared", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada }] });
    env.emu.log.reset();
    const r = await env.up("Team", { title: t }, s);
    expect(r.step).toBe("update");
    expect(env.emu.log.writes()).toBe(0);
    expect(r.state.outs).not.toHaveProperty("members");
    addOutOfBand(s.id, grace);
    const refreshed = await env.refresh("Team", r.state);
    expect(refreshed!.inputs).not.toHaveProperty("members");
    expect((await env.up("Team", { title: t }, refreshed!.state)).step).toBe("same");
    expect(liveRoles(s.id)).toEqual({ [ada]: "member", [grace]: "member" });
  });

  it("empties the team when members is an empty list", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada }, { user: grace }] });
    await env.up("Team", { title: t, members: [] }, s);
    expect(liveRoles(s.id)).toEqual({});
  });

  it("shows a title changed outside Pulumi as drift and converges it", async () => {
    const t = title();
    const s = await created({ title: t });
    env.emu.store.teams.get(s.id)!.title = "Hand made";
    const refreshed = await env.refresh("Team", s);
    expect(refreshed!.inputs).toEqual({ organizationId: env.org, title: "Hand made" });
    await env.up("Team", { title: t }, refreshed!.state);
    expect(env.emu.store.teams.get(s.id)!.title).toBe(t);
  });

  it("drops a team deleted outside Pulumi at refresh, and deletes idempotently", async () => {
    const s = await created({ title: title(), members: [{ user: ada }] });
    await env.destroy("Team", s);
    expect(env.emu.store.teams.has(s.id)).toBe(false);
    expect(env.emu.store.teamMembersOf(s.id)).toEqual([]);
    expect(await env.refresh("Team", s)).toBeUndefined();
    await env.destroy("Team", s);
  });

  it("adopts an existing team and converges its title and membership, keeping roles the program does not declare", async () => {
    const existing = await created({ title: title(), members: [{ user: grace, role: "owner" }, { user: katherine }, { user: alan, role: "owner" }] });
    env.emu.log.reset();
    const r = await env.up("Team", { title: "Adopted", members: [{ user: grace }, { user: ada }, { user: alan, role: "member" }], adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.count({ method: "PUT", route: TEAMS })).toBe(0);
    expect(env.emu.log.count({ method: "PATCH", route: TEAM })).toBe(1);
    expect(env.emu.log.count({ method: "PUT", route: MEMBERS })).toBe(1);
    expect(env.emu.store.teams.get(existing.id)!.title).toBe("Adopted");
    // Grace keeps owner (no role declared), Ada joins as member, Alan is set to the declared member, Katherine is removed.
    expect(liveRoles(existing.id)).toEqual({ [grace]: "owner", [ada]: "member", [alan]: "member" });
  });

  it("fails clearly when adoptId names nothing", async () => {
    await expect(env.up("Team", { title: "T", adoptId: "team_missing" })).rejects.toThrow(/adoptId "team_missing" names no existing object/);
  });

  it("recovers from a lost create answer without creating the team twice", async () => {
    const t = title();
    env.emu.faults.add({ match: { method: "PUT", route: TEAMS }, dropAfterProcess: true, times: 1 });
    env.emu.log.reset();
    const r = await env.up("Team", { title: t, members: [{ user: ada }] });
    const teams = [...env.emu.store.teams.values()].filter((x) => x.title === t);
    expect(teams.map((x) => x.id)).toEqual([r.state.id]);
    // The lost PUT was not resent: the team it created was found and adopted.
    expect(env.emu.log.count({ method: "PUT", route: TEAMS })).toBe(1);
    expect(liveRoles(r.state.id)).toEqual({ [ada]: "member" });
  });

  // Issue 42, case 7: a member the organization lacks was refused by the members PUT, after the team
  // was created (or renamed): half the declaration applied.
  it("refuses a team naming a user the organization does not have before any write, at create and update, the title included", async () => {
    const t = title();
    env.emu.log.reset();
    await expect(env.up("Team", { title: t, members: [{ user: ada }, { user: "nobody@elsewhere.test" }, { user: "usr_nobody" }] })).rejects.toThrow(
      `Team: members[1].user "nobody@elsewhere.test", members[2].user "usr_nobody": no member of organization ${env.org} has these e-mail addresses or IDs, so the team's members cannot be applied whole. ` +
        "Name each user by the e-mail they are a member of the organization with, or by their user ID; or remove the entry. Nothing was changed.",
    );
    expect(env.emu.log.writes()).toBe(0);
    expect([...env.emu.store.teams.values()].filter((x) => x.title === t)).toEqual([]);
    const s = await created({ title: t, members: [{ user: ada }] });
    env.emu.log.reset();
    await expect(env.up("Team", { title: `${t}!`, members: [{ user: ada }, { user: "ghost@acme.test" }] }, s)).rejects.toThrow(/^Team \S+: members\[1\]\.user "ghost@acme.test": no member of organization \S+ has this e-mail address or ID/);
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.teams.get(s.id)!.title).toBe(t);
  });

  it("keeps a created team in state when its membership fails, and converges on the next up", async () => {
    const t = title();
    env.emu.faults.add({ match: { method: "PUT", route: MEMBERS }, errorRate: 1, status: 500 });
    const err = await env.up("Team", { title: t, members: [{ user: ada }, { user: grace }] }).catch((e) => e);
    env.emu.faults.clear();
    expect(err).toMatchObject({ name: "PartialFailure", id: expect.any(String) });
    expect(env.emu.store.teams.get(err.id)!.title).toBe(t);
    expect(err.properties).toMatchObject({ title: t, members: [] });
    const next = await env.up("Team", { title: t, members: [{ user: ada }] }, { id: err.id, outs: err.properties });
    expect(next.step).toBe("update");
    expect(liveRoles(err.id)).toEqual({ [ada]: "member" });
    expect([...env.emu.store.teams.values()].filter((x) => x.title === t)).toHaveLength(1);
  });

  it("keeps the real membership in state when a membership update fails", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada }] });
    env.emu.faults.add({ match: { method: "PUT", route: MEMBERS }, errorRate: 1, status: 500 });
    const err = await env.up("Team", { title: `${t}!`, members: [{ user: ada }, { user: "alan@acme.test" }] }, s).catch((e) => e);
    env.emu.faults.clear();
    expect(err).toMatchObject({ name: "PartialFailure", id: s.id });
    expect(err.properties).toMatchObject({ title: `${t}!`, members: [{ user: ada }] });
    const next = await env.up("Team", { title: `${t}!`, members: [{ user: grace }] }, { id: s.id, outs: err.properties });
    expect(next.step).toBe("update");
    expect(liveRoles(s.id)).toEqual({ [grace]: "member" });
  });

  it("refuses a new team naming one user by e-mail and by ID before any write, naming both entries", async () => {
    const t = title();
    env.emu.log.reset();
    const err = await env
      .up("Team", { title: t, members: [{ user: "grace@acme.test", role: "owner" }, { user: alan }, { user: grace, role: "member" }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/members\[0\]\.user "grace@acme.test" and members\[2\]\.user ".+" name the same user/);
    expect(err.message).toContain(grace);
    expect(env.emu.log.writes()).toBe(0);
    expect([...env.emu.store.teams.values()].filter((x) => x.title === t)).toEqual([]);
  });

  it("refuses an update naming one user by e-mail and by ID before any write, the title included", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada }] });
    env.emu.log.reset();
    const err = await env
      .up("Team", { title: `${t}!`, members: [{ user: ada }, { user: grace, role: "owner" }, { user: "GRACE@acme.test" }] }, s)
      .catch((e) => e);
    expect(err.message).toMatch(/members\[1\]\.user ".+" and members\[2\]\.user "GRACE@acme.test" name the same user/);
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.teams.get(s.id)!.title).toBe(t);
    expect(liveRoles(s.id)).toEqual({ [ada]: "member" });
  });

  it("reads the organization's members only when users are not in the team yet, or are named both ways", async () => {
    const t = title();
    // No listing shared from the tests before.
    env.outOfBand();
    env.emu.log.reset();
    const s = await created({ title: t, members: [{ user: ada }, { user: "grace@acme.test" }] });
    expect(env.emu.log.count({ method: "GET", route: "/v1/orgs/:org/members" })).toBe(1);
    env.emu.log.reset();
    const r = await env.up("Team", { title: t, members: [{ user: ada, role: "owner" }, { user: "grace@acme.test" }] }, s);
    expect(env.emu.log.count({ method: "GET", route: "/v1/orgs/:org/members" })).toBe(1);
    env.emu.log.reset();
    await env.up("Team", { title: t, members: [{ user: ada, role: "member" }] }, r.state);
    expect(env.emu.log.count({ method: "GET", route: "/v1/orgs/:org/members" })).toBe(0);
  });

  it("refuses a user listed twice, by ID and by e-mail, before changing membership", async () => {
    const t = title();
    const s = await created({ title: t, members: [{ user: ada }] });
    env.emu.log.reset();
    await expect(env.up("Team", { title: t, members: [{ user: ada }, { user: "ada@acme.test", role: "owner" }] }, s)).rejects.toThrow(
      /name the same user/,
    );
    expect(env.emu.log.writes()).toBe(0);
  });
});
