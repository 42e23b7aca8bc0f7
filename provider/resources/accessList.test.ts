// AccessList: an object's grants, authoritative per declared list: check, lifecycle, app edits, the refusal to take over grants and adoption.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissionKey, type PermissionTarget } from "../../emulator/store";
import { PartialFailure } from "../framework/failure";
import { startProviderEnv, type ProviderEnv, rejectsAtCheck, type BadInput } from "../../test/support/provider";

let env: ProviderEnv;
let ada: string, grace: string;
let space: string;
const teams: string[] = [];
beforeAll(async () => {
  env = await startProviderEnv();
  [ada, grace] = env.emu.seeded.members.map((m) => m.id) as [string, string];
  space = env.emu.seeded.spaceIds[1]!;
  for (const t of ["Writers", "Reviewers", "Support"]) teams.push((await env.up("Team", { title: t })).state.id);
});
afterAll(async () => env.close());

/** The object's grants in the emulator, as "team:ID=role" strings, sorted. */
function grants(target: PermissionTarget, id: string): string[] {
  return [...env.emu.store.permissions.values()]
    .filter((g) => g.target === target && g.targetId === id)
    .map((g) => `${g.principal}:${g.principalId}=${g.role}`)
    .sort();
}

function grantOutOfBand(target: PermissionTarget, targetId: string, principal: "team" | "user", principalId: string, role: "read" | "admin") {
  const { seq, createdAt } = env.emu.store.newId("perm");
  const id = permissionKey(target, targetId, principal, principalId);
  env.emu.store.permissions.set(id, { id, seq, createdAt, target, targetId, principal, principalId, role });
  env.outOfBand();
}

describe("check", () => {
  const bad: BadInput[] = [
    ["teams", { teams: undefined }, /^teams is required: declare teams, users or both/],
    ["teams[1].teamId", { teams: [{ teamId: "t1", role: "read" }, { teamId: "t1", role: "edit" }] }, /^teams\[1\]\.teamId lists the same team as teams\[0\]\.teamId/],
    ["users[2].userId", { users: [{ userId: "u1", role: "read" }, { userId: "u2", role: "read" }, { userId: "u1", role: "read" }] }, /lists the same user as users\[0\]\.userId/],
    ["teams[0].role", { teams: [{ teamId: "t1", role: "owner" }] }, /^teams\[0\]\.role must be one of admin, create/],
    ["teams[0].role", { teams: [{ teamId: "t1" }] }, /^teams\[0\]\.role must be one of admin/],
    ["teams", { teams: "everyone" }, /^teams must be a list of \{teamId, role\}/],
    ["siteId", { spaceId: undefined }, /^siteId is required/],
    // GitBook's permissions take user IDs only: an e-mail passed the preview and failed at the invite.
    ["users[1].userId", { users: [{ userId: "u1", role: "read" }, { userId: "bob@acme.test", role: "edit" }] }, /^users\[1\]\.userId is an e-mail address, and GitBook's permissions name a user by their user ID only: give the user's GitBook ID/],
  ];
  rejectsAtCheck(() => env, "AccessList", { spaceId: "spc_1", teams: [] }, bad);
});

describe("lifecycle", () => {
  it("grants what the lists say, removes what they leave out (app grants too), and never deletes the object", async () => {
    const site = (await env.up("Site", { title: "Access" })).state.id;
    const args = { siteId: site, teams: [{ teamId: teams[0], role: "edit" }, { teamId: teams[1], role: "read" }], users: [{ userId: ada, role: "read" }] };
    env.emu.log.reset();
    const created = await env.up("AccessList", args);
    expect(created.state.id).toBe(site);
    expect(grants("site", site)).toEqual([`team:${teams[0]}=edit`, `team:${teams[1]}=read`, `user:${ada}=read`].sort());
    // Two listings, one look-up per team or user to invite (all before any write), then one invite per role (teams and users together).
    expect(env.emu.log.byRoute()).toEqual({
      "GET /v1/orgs/:org/sites/:site/permissions/teams": 1,
      "GET /v1/orgs/:org/sites/:site/permissions/users": 1,
      "GET /v1/orgs/:org/teams/:team": 2,
      "GET /v1/orgs/:org/members/:user": 1,
      "POST /v1/orgs/:org/sites/:site/permissions": 2,
    });

    // Order means nothing.
    expect((await env.up("AccessList", { ...args, teams: [...args.teams].reverse() }, created.state)).step).toBe("same");

    // App edits: a team added, a role changed. Refresh shows both; up puts the list back.
    grantOutOfBand("site", site, "team", teams[2]!, "admin");
    env.emu.store.permissions.get(permissionKey("site", site, "user", ada))!.role = "admin";
    env.outOfBand();
    const refreshed = (await env.refresh("AccessList", created.state))!;
    expect(refreshed.inputs.teams).toEqual([...args.teams, { teamId: teams[2], role: "admin" }]);
    expect(refreshed.inputs.users).toEqual([{ userId: ada, role: "admin" }]);
    env.emu.log.reset();
    const back = await env.up("AccessList", args, refreshed.state);
    expect(back.step).toBe("update");
    expect(grants("site", site)).toEqual([`team:${teams[0]}=edit`, `team:${teams[1]}=read`, `user:${ada}=read`].sort());
    expect(env.emu.log.writes()).toBe(2);
    expect((await env.refresh("AccessList", back.state))!.inputs).toMatchObject({ teams: args.teams, users: args.users });

    // A list changed: one invite, one role change, one removal.
    env.emu.log.reset();
    const changed = await env.up("AccessList", { ...args, teams: [{ teamId: teams[1], role: "admin" }, { teamId: teams[2], role: "comment" }] }, back.state);
    expect(changed.step).toBe("update");
    expect(grants("site", site)).toEqual([`team:${teams[1]}=admin`, `team:${teams[2]}=comment`, `user:${ada}=read`].sort());
    expect(env.emu.log.writes()).toBe(3);

    // Removing `users` stops managing them: nothing sent, the grant stays.
    env.emu.log.reset();
    const { users: _users, ...withoutUsers } = { ...args, teams: [{ teamId: teams[1], role: "admin" }, { teamId: teams[2], role: "comment" }] };
    const unmanaged = await env.up("AccessList", withoutUsers, changed.state);
    expect(env.emu.log.writes()).toBe(0);
    expect(grants("site", site)).toContain(`user:${ada}=read`);

    // Deleting removes the listed grants, and only access is lost.
    await env.destroy("AccessList", unmanaged.state);
    expect(grants("site", site)).toEqual([`user:${ada}=read`]);
    expect(env.emu.store.sites.has(site)).toBe(true);
  });

  it("refuses to take over any grant made elsewhere, even one exactly as listed, unless adoptId names the object, then adopts", async () => {
    grantOutOfBand("space", space, "team", teams[0]!, "admin");
    grantOutOfBand("space", space, "user", grace, "read");
    env.emu.log.reset();
    await expect(env.up("AccessList", { spaceId: space, teams: [{ teamId: teams[1], role: "read" }] })).rejects.toThrow(
      new RegExp(`AccessList: teams: space ${space} already has grants this resource cannot prove it made .*: team Writers \\(${teams[0]}\\) \\(admin, not listed\\).*set adoptId: "${space}".*Nothing was changed`),
    );
    expect(env.emu.log.writes()).toBe(0);

    // A grant exactly as listed may be another stack's: refused all the same, naming it.
    await expect(env.up("AccessList", { spaceId: space, users: [{ userId: grace, role: "read" }] })).rejects.toThrow(
      new RegExp(`AccessList: users: space ${space} already has grants .*: user .*${grace}.* \\(read, listed\\).*set adoptId: "${space}"`),
    );
    expect(env.emu.log.writes()).toBe(0);

    const adopted = await env.up("AccessList", { spaceId: space, teams: [{ teamId: teams[1], role: "read" }], adoptId: space });
    expect(grants("space", space)).toEqual([`team:${teams[1]}=read`, `user:${grace}=read`].sort());
    expect(adopted.state.id).toBe(space);
    await env.destroy("AccessList", adopted.state);
    expect(env.emu.store.spaces.get(space)?.deletedAt).toBeUndefined();
  });

  // Issue 42, case 7: a list naming someone GitBook cannot invite was half applied, the invites of
  // other roles sent before it.
  it("applies its lists whole or not at all: a team or user the organization lacks is refused before any write, at create and update", async () => {
    const site = (await env.up("Site", { title: "Whole" })).state.id;
    const args = { siteId: site, teams: [{ teamId: teams[0], role: "read" }, { teamId: "team_nobody", role: "edit" }], users: [{ userId: ada, role: "read" }, { userId: "usr_nobody", role: "edit" }] };
    env.emu.log.reset();
    await expect(env.up("AccessList", args)).rejects.toThrow(
      `AccessList: teams[1].teamId "team_nobody", users[1].userId "usr_nobody": no such teams or members in organization ${env.org}, so the list cannot be applied whole. ` +
        "Give the ID of a team (the Team's `id` output) or of a member of the organization, or remove the entry. Nothing was changed.",
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(grants("site", site)).toEqual([]);

    const listed = await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[0], role: "read" }] });
    env.emu.log.reset();
    await expect(env.up("AccessList", { siteId: site, teams: [{ teamId: teams[1], role: "read" }, { teamId: "team_nobody", role: "edit" }] }, listed.state)).rejects.toThrow(/teams\[1\]\.teamId "team_nobody": no such team or member/);
    expect(env.emu.log.writes()).toBe(0);
    expect(grants("site", site)).toEqual([`team:${teams[0]}=read`]);
    // A principal granted already is not looked up: nothing but the object's own listings.
    env.emu.log.reset();
    await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[0], role: "edit" }] }, listed.state);
    expect(Object.keys(env.emu.log.byRoute()).filter((r) => r.startsWith("GET"))).toEqual(["GET /v1/orgs/:org/sites/:site/permissions/teams"]);
  });

  it("records, when a write fails part way, the grants the object holds: read again, or as the writes before answered", async () => {
    for (const rereadFails of [false, true]) {
      const site = (await env.up("Site", { title: "Half" })).state.id;
      // The invite of the first role goes through, the second's fails (after the client's retries).
      env.emu.faults.add({ match: { method: "POST", route: "/v1/orgs/:org/sites/:site/permissions" }, errorRate: 1, status: 500, after: 1 });
      // The create's own listing passes; the one after the failure fails.
      if (rereadFails) env.emu.faults.add({ match: { method: "GET", route: "/v1/orgs/:org/sites/:site/permissions/users" }, errorRate: 1, status: 500, after: 1 });
      const e = (await env.up("AccessList", { siteId: site, users: [{ userId: ada, role: "read" }, { userId: grace, role: "edit" }] }).catch((x: unknown) => x)) as PartialFailure;
      env.emu.faults.clear();
      expect(e).toBeInstanceOf(PartialFailure);
      const there = grants("site", site);
      expect(there).toHaveLength(1);
      expect((e.properties.users as { userId: string; role: string }[]).map((u) => `user:${u.userId}=${u.role}`)).toEqual(there);
    }
  });

  it("is gone when its object is", async () => {
    const collection = (await env.up("Collection", { title: "Gone" })).state.id;
    const r = await env.up("AccessList", { collectionId: collection, teams: [{ teamId: teams[0], role: "read" }] });
    env.emu.store.deleteCollection(collection);
    env.outOfBand();
    expect(await env.refresh("AccessList", r.state)).toBeUndefined();
    await expect(env.up("AccessList", { collectionId: "col_missing", teams: [] })).rejects.toThrow(/no collection col_missing; it was deleted, or the ID is wrong/);
  });
});
