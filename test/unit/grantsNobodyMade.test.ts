/**
 * Grants and rules nobody can prove this resource made (the app's, another stack's) are never taken
 * or lost by a change of the resource:
 * - a planned replacement moves a resource to another object (an AccessList to another collection, a
 *   SiteRedirects to another site, a Permission to another team). When the create on the new object
 *   refuses what it finds there, the old object must keep what it had: the old resource goes only
 *   after the new one is made, so a refused move changes nothing;
 * - an AccessList in state that declares one list (`teams`) manages only that kind of grant. A list
 *   added later (`users`) would take over every grant of its kind the object has, as a create would:
 *   it is refused as a create is, naming them, with nothing written, unless `adoptId` names the
 *   object; and the grants of the list it declared all along are not touched by the refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissionKey, type PermissionTarget } from "../../emulator/store";
import { startProviderEnv, type ProviderEnv } from "../support/provider";

let env: ProviderEnv;
let ada: string, grace: string;
const teams: string[] = [];
beforeAll(async () => {
  env = await startProviderEnv();
  [ada, grace] = env.emu.seeded.members.map((m) => m.id) as [string, string];
  for (const t of ["Writers", "Reviewers"]) teams.push((await env.up("Team", { title: t })).state.id);
});
afterAll(async () => env.close());

const grants = (target: PermissionTarget, id: string) =>
  [...env.emu.store.permissions.values()]
    .filter((g) => g.target === target && g.targetId === id)
    .map((g) => `${g.principal}:${g.principalId}=${g.role}`)
    .sort();

function grantInApp(target: PermissionTarget, targetId: string, principal: "team" | "user", principalId: string) {
  const { seq, createdAt } = env.emu.store.newId("perm");
  const id = permissionKey(target, targetId, principal, principalId);
  env.emu.store.permissions.set(id, { id, seq, createdAt, target, targetId, principal, principalId, role: "admin" });
  env.outOfBand();
}

describe("a replacement whose create the new object refuses", () => {
  it("AccessList moved to a collection with grants of its kind: the old collection keeps its grants", async () => {
    const a = (await env.up("Collection", { title: "Move A" })).state.id;
    const b = (await env.up("Collection", { title: "Move B" })).state.id;
    const list = await env.up("AccessList", { collectionId: a, users: [{ userId: ada, role: "read" }] });
    grantInApp("collection", b, "user", grace);
    await expect(env.up("AccessList", { collectionId: b, users: [{ userId: ada, role: "read" }] }, list.state)).rejects.toThrow(/already has grants/);
    expect(grants("collection", a)).toEqual([`user:${ada}=read`]);
    expect(grants("collection", b)).toEqual([`user:${grace}=admin`]);
  });

  it("SiteRedirects moved to a site with rules: the old site keeps its rules", async () => {
    const a = (await env.up("Site", { title: "Rules A" })).state.id;
    const b = (await env.up("Site", { title: "Rules B" })).state.id;
    const rules = [{ source: "/old", destination: { url: "https://example.com/new" } }];
    const held = await env.up("SiteRedirects", { siteId: a, rules });
    await env.up("SiteRedirect", { siteId: b, source: "/app", destination: { url: "https://example.com/app" } });
    env.outOfBand();
    await expect(env.up("SiteRedirects", { siteId: b, rules }, held.state)).rejects.toThrow(/adoptId/);
    expect([...env.emu.store.siteRedirects.values()].filter((r) => r.siteId === a).map((r) => r.source)).toEqual(["/old"]);
  });

  it("Permission moved to a team that already has a grant: the old team keeps its grant", async () => {
    const site = (await env.up("Site", { title: "Grant move" })).state.id;
    const perm = await env.up("Permission", { siteId: site, teamId: teams[0], role: "read" });
    grantInApp("site", site, "team", teams[1]!);
    await expect(env.up("Permission", { siteId: site, teamId: teams[1], role: "read" }, perm.state)).rejects.toThrow(/adoptId/);
    expect(grants("site", site)).toEqual([`team:${teams[0]}=read`, `team:${teams[1]}=admin`].sort());
  });
});

describe("AccessList: a list added to a resource in state", () => {
  it("is refused while the object has grants of its kind that the resource cannot prove it made, writing nothing", async () => {
    const site = (await env.up("Site", { title: "Added list" })).state.id;
    const list = await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[0], role: "read" }] });
    // Made in the app (or by another stack's AccessList of users), never by this resource.
    grantInApp("site", site, "user", grace);
    env.emu.log.reset();
    await expect(env.up("AccessList", { siteId: site, teams: [{ teamId: teams[0], role: "read" }], users: [{ userId: ada, role: "read" }] }, list.state)).rejects.toThrow(
      new RegExp(`AccessList( \\S+)?: users: site ${site} already has grants this resource cannot prove it made .*user .*${grace}.* \\(admin, not listed\\).*set adoptId: "${site}"`),
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(grants("site", site)).toEqual([`team:${teams[0]}=read`, `user:${grace}=admin`].sort());

    // With adoptId naming the object, the list takes them over as a create would.
    const adopted = await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[0], role: "read" }], users: [{ userId: ada, role: "read" }], adoptId: site }, list.state);
    expect(adopted.step).toBe("update");
    expect(grants("site", site)).toEqual([`team:${teams[0]}=read`, `user:${ada}=read`].sort());
  });

  it("is applied with no refusal when the object has no grant of its kind", async () => {
    const site = (await env.up("Site", { title: "Added list, empty" })).state.id;
    const list = await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[1], role: "edit" }] });
    const added = await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[1], role: "edit" }], users: [{ userId: ada, role: "comment" }] }, list.state);
    expect(added.step).toBe("update");
    expect(grants("site", site)).toEqual([`team:${teams[1]}=edit`, `user:${ada}=comment`].sort());
    // Declared all along, an app grant of its kind is removed (the list is authoritative).
    grantInApp("site", site, "user", grace);
    const refreshed = (await env.refresh("AccessList", added.state))!;
    await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[1], role: "edit" }], users: [{ userId: ada, role: "comment" }] }, refreshed.state);
    expect(grants("site", site)).toEqual([`team:${teams[1]}=edit`, `user:${ada}=comment`].sort());
  });
});
