/**
 * An AccessList in state that declares one list (`teams`) manages only that kind of grant. A list
 * added later (`users`) would take over every grant of its kind the object has, as a create would:
 * grants this resource cannot prove it made (the app's, another stack's AccessList's). It is refused
 * as a create is, naming them, with nothing written, unless `adoptId` names the object; and the
 * grants of the list it declared all along are not touched by the refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissionKey } from "../../emulator/store";
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

const grants = (site: string) =>
  [...env.emu.store.permissions.values()]
    .filter((g) => g.target === "site" && g.targetId === site)
    .map((g) => `${g.principal}:${g.principalId}=${g.role}`)
    .sort();

function userGrantInApp(site: string, user: string) {
  const { seq, createdAt } = env.emu.store.newId("perm");
  const id = permissionKey("site", site, "user", user);
  env.emu.store.permissions.set(id, { id, seq, createdAt, target: "site", targetId: site, principal: "user", principalId: user, role: "admin" });
  env.outOfBand();
}

describe("AccessList: a list added to a resource in state", () => {
  it("is refused while the object has grants of its kind that the resource cannot prove it made, writing nothing", async () => {
    const site = (await env.up("Site", { title: "Added list" })).state.id;
    const list = await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[0], role: "read" }] });
    // Made in the app (or by another stack's AccessList of users), never by this resource.
    userGrantInApp(site, grace);
    env.emu.log.reset();
    await expect(env.up("AccessList", { siteId: site, teams: [{ teamId: teams[0], role: "read" }], users: [{ userId: ada, role: "read" }] }, list.state)).rejects.toThrow(
      new RegExp(`AccessList( \\S+)?: users: site ${site} already has grants this resource cannot prove it made .*user .*${grace}.* \\(admin, not listed\\).*set adoptId: "${site}"`),
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(grants(site)).toEqual([`team:${teams[0]}=read`, `user:${grace}=admin`].sort());

    // With adoptId naming the object, the list takes them over as a create would.
    const adopted = await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[0], role: "read" }], users: [{ userId: ada, role: "read" }], adoptId: site }, list.state);
    expect(adopted.step).toBe("update");
    expect(grants(site)).toEqual([`team:${teams[0]}=read`, `user:${ada}=read`].sort());
  });

  it("is applied with no refusal when the object has no grant of its kind", async () => {
    const site = (await env.up("Site", { title: "Added list, empty" })).state.id;
    const list = await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[1], role: "edit" }] });
    const added = await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[1], role: "edit" }], users: [{ userId: ada, role: "comment" }] }, list.state);
    expect(added.step).toBe("update");
    expect(grants(site)).toEqual([`team:${teams[1]}=edit`, `user:${ada}=comment`].sort());
    // Declared all along, an app grant of its kind is removed (the list is authoritative).
    userGrantInApp(site, grace);
    const refreshed = (await env.refresh("AccessList", added.state))!;
    await env.up("AccessList", { siteId: site, teams: [{ teamId: teams[1], role: "edit" }], users: [{ userId: ada, role: "comment" }] }, refreshed.state);
    expect(grants(site)).toEqual([`team:${teams[1]}=edit`, `user:${ada}=comment`].sort());
  });
});
