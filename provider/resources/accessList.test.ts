// AccessList: an object's grants, authoritative per declared list: check, lifecycle, app edits, the refusal to take over grants and adoption.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissionKey, type PermissionTarget } from "../../emulator/store";
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
    // Two listings, then one invite per role (teams and users together).
    expect(env.emu.log.byRoute()).toEqual({ "GET /v1/orgs/:org/sites/:site/permissions/teams": 1, "GET /v1/orgs/:org/sites/:site/permissions/users": 1, "POST /v1/orgs/:org/sites/:site/permissions": 2 });

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

  it("is gone when its object is", async () => {
    const collection = (await env.up("Collection", { title: "Gone" })).state.id;
    const r = await env.up("AccessList", { collectionId: collection, teams: [{ teamId: teams[0], role: "read" }] });
    env.emu.store.deleteCollection(collection);
    env.outOfBand();
    expect(await env.refresh("AccessList", r.state)).toBeUndefined();
    await expect(env.up("AccessList", { collectionId: "col_missing", teams: [] })).rejects.toThrow(/no collection col_missing; it was deleted, or the ID is wrong/);
  });
});
