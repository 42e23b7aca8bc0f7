// Permission: one grant's lifecycle on a site, a space and a collection, its check, the refusal of a grant made elsewhere and its adoption.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissionKey } from "../../emulator/store";
import { startProviderEnv, type ProviderEnv, rejectsAtCheck, type BadInput } from "../../test/support/provider";

let env: ProviderEnv;
let ada: string;
let site: string, space: string, collection: string, team: string;
beforeAll(async () => {
  env = await startProviderEnv();
  ada = env.emu.seeded.members[0]!.id;
  space = env.emu.seeded.spaceIds[0]!;
  site = (await env.up("Site", { title: "Docs" })).state.id;
  collection = (await env.up("Collection", { title: "Guides" })).state.id;
  team = (await env.up("Team", { title: "Writers" })).state.id;
});
afterAll(async () => env.close());

const role = (target: "site" | "space" | "collection", targetId: string, who: "team" | "user", id: string) => env.emu.store.permissions.get(permissionKey(target, targetId, who, id))?.role;

describe("check", () => {
  const bad: BadInput[] = [
    ["siteId", { spaceId: undefined }, /^siteId is required: declare exactly one of siteId, spaceId and collectionId/],
    ["collectionId", { collectionId: "col_1" }, /^collectionId cannot be declared with spaceId/],
    ["teamId", { userId: undefined }, /^teamId is required: declare exactly one of teamId and userId/],
    ["userId", { teamId: "team_1" }, /^userId cannot be declared with teamId/],
    ["role", { role: "owner" }, /^role must be one of admin, create, edit, review, comment, read/],
    ["spaceId", { spaceId: "" }, /^spaceId must not be empty/],
    ["userId", { userId: "bob@acme.test" }, /^userId is an e-mail address, and GitBook's permissions name a user by their user ID only/],
  ];
  rejectsAtCheck(() => env, "Permission", { spaceId: "spc_1", userId: "usr_1", role: "read" }, bad);
});

describe("lifecycle", () => {
  for (const target of ["site", "space", "collection"] as const) {
    it(`grants, refreshes, changes, adopts and revokes a team's role on a ${target}`, async () => {
      const targetId = { site, space, collection }[target];
      const args = { [`${target}Id`]: targetId, teamId: team, role: "read" };
      env.emu.log.reset();
      const created = await env.up("Permission", args);
      expect(created.state.id).toBe(`${target}:${targetId}/team:${team}`);
      expect(role(target, targetId, "team", team)).toBe("read");
      // One listing (is the team granted already?) and one invite.
      expect(env.emu.log.count()).toBe(2);
      expect((await env.up("Permission", args, created.state)).step).toBe("same");

      // An edit in the app shows as drift, and the next up sets it back.
      env.emu.store.permissions.get(permissionKey(target, targetId, "team", team))!.role = "admin";
      env.outOfBand();
      const refreshed = (await env.refresh("Permission", created.state))!;
      expect(refreshed.inputs.role).toBe("admin");
      const back = await env.up("Permission", args, refreshed.state);
      expect(back.step).toBe("update");
      expect(role(target, targetId, "team", team)).toBe("read");

      const changed = await env.up("Permission", { ...args, role: "edit" }, back.state);
      expect(changed.step).toBe("update");
      expect(role(target, targetId, "team", team)).toBe("edit");

      // Another resource for the same grant is refused, naming the adoptId; with it the grant is taken over.
      await expect(env.up("Permission", { ...args, role: "comment" })).rejects.toThrow(
        new RegExp(`already has the role edit on ${target} ${targetId}.*set adoptId: "${target}:${targetId}/team:${team}".*Nothing was changed`),
      );
      expect(role(target, targetId, "team", team)).toBe("edit");
      const adopted = await env.up("Permission", { ...args, role: "comment", adoptId: changed.state.id });
      expect(adopted.state.id).toBe(changed.state.id);
      expect(role(target, targetId, "team", team)).toBe("comment");

      await env.destroy("Permission", adopted.state);
      expect(role(target, targetId, "team", team)).toBeUndefined();
      expect(await env.refresh("Permission", adopted.state)).toBeUndefined();
    });
  }

  it("grants a user, replaces on another principal, and never deletes the object", async () => {
    const first = await env.up("Permission", { spaceId: space, userId: ada, role: "review" });
    expect(role("space", space, "user", ada)).toBe("review");
    const r = await env.up("Permission", { spaceId: space, teamId: team, role: "review" }, first.state);
    expect(r.step).toBe("replace");
    expect(role("space", space, "user", ada)).toBeUndefined();
    expect(role("space", space, "team", team)).toBe("review");
    await env.destroy("Permission", r.state);
    expect(env.emu.store.spaces.get(space)?.deletedAt).toBeUndefined();
  });

  it("refuses an adoptId naming a grant of another object, and a malformed one", async () => {
    await env.up("Permission", { siteId: site, teamId: team, role: "read" });
    // At preview, with no request: the declaration says which grant it is.
    env.emu.log.reset();
    const own = `adoptId must be the ID of the grant this resource declares, "space:${space}/team:${team}"`;
    await expect(env.up("Permission", { spaceId: space, teamId: team, role: "read", adoptId: `site:${site}/team:${team}` })).rejects.toThrow(own);
    await expect(env.up("Permission", { spaceId: space, teamId: team, role: "read", adoptId: "spc_1" })).rejects.toThrow(own);
    expect(env.emu.log.count()).toBe(0);
    // Not known at preview: the create reads the grant adoptId names and refuses it, or refuses an ID that names none.
    const inputs = { organizationId: env.org, spaceId: space, teamId: team, role: "read", __provider: "p" };
    await expect(env.call("Permission", "create", { ...inputs, adoptId: `site:${site}/team:${team}` })).rejects.toThrow(/cannot be adopted as the program declares it/);
    await expect(env.call("Permission", "create", { ...inputs, adoptId: "spc_1" })).rejects.toThrow(/is not a permission's ID/);
  });
});
