// Access: permissions of teams and users on sites, spaces and collections; a site's visitor authentication.
import { describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { useEmulator, call, org, space, must, listAll, expectError, emu, createSite, type Json } from "../test/support/emulatorApi";

useEmulator();

const team = async (title: string) => (await must("PUT", `${org()}/teams`, { title }, 201)).id as string;
const user = (i: number) => emu.seeded.members[i]!.id;

describe("permissions", () => {
  it("invites, lists, changes and removes grants on a site, a space and a collection", async () => {
    expectContractViolation(/invite\w+ request body \/role: matches none/);
    expectContractViolation(/invite\w+ request body: matches none .*users: must NOT have fewer than 1 items/);
    expectContractViolation(/invite\w+ request body: matches none .*\/users: is required/);
    const site = (await createSite()).id;
    const collection = (await must("POST", `${org()}/collections`, { title: "Guides" }, 201)).id;
    const writers = await team("Writers");
    for (const base of [`${org()}/sites/${site}/permissions`, `/v1/spaces/${space(0)}/permissions`, `/v1/collections/${collection}/permissions`]) {
      await must("POST", base, { role: "read", teams: [writers], users: [user(0)] }, 204);
      expect((await listAll(`${base}/teams`)).map((g: Json) => [g.team.id, g.permission])).toEqual([[writers, "read"]]);
      expect((await listAll(`${base}/users`)).map((g: Json) => [g.user.id, g.permission])).toEqual([[user(0), "read"]]);
      // Inviting again sets the role.
      await must("POST", base, { role: "edit", users: [user(0)] }, 204);
      await must("PATCH", `${base}/teams/${writers}`, { role: "admin" }, 204);
      expect((await listAll(`${base}/teams`))[0].permission).toBe("admin");
      expect((await listAll(`${base}/users`))[0].permission).toBe("edit");
      expectError(await call("PATCH", `${base}/users/nobody`, { role: "read" }), 404);
      expectError(await call("POST", base, { role: "owner", teams: [writers] }), 400, "role: ");
      expectError(await call("POST", base, { role: "read", teams: ["team_missing"] }), 400, "teams[0]: ");
      expectError(await call("POST", base, { role: "read", users: [] }), 400, "users: ");
      expectError(await call("POST", base, { role: "read" }), 400, "teams: ");
      expect((await call("DELETE", `${base}/teams/${writers}`)).status).toBe(205);
      expect((await call("DELETE", `${base}/teams/${writers}`)).status).toBe(204);
      expect((await call("DELETE", `${base}/users/${user(0)}`)).status).toBe(205);
      expect(await listAll(`${base}/teams`)).toEqual([]);
    }
    expectError(await call("GET", `/v1/spaces/space_missing/permissions/teams`), 404);
    expect((await call("DELETE", `/v1/collections/col_missing/permissions/teams/${writers}`)).status).toBe(204);
  });

  it("drops the grants of a deleted team, site or collection", async () => {
    const site = (await createSite()).id;
    const writers = await team("Writers");
    await must("POST", `${org()}/sites/${site}/permissions`, { role: "read", teams: [writers] }, 204);
    await must("POST", `/v1/spaces/${space(0)}/permissions`, { role: "read", teams: [writers], users: [user(1)] }, 204);
    await must("DELETE", `${org()}/teams/${writers}`, undefined, 205);
    expect(await listAll(`/v1/spaces/${space(0)}/permissions/teams`)).toEqual([]);
    await must("POST", `${org()}/sites/${site}/permissions`, { role: "read", users: [user(1)] }, 204);
    await must("DELETE", `${org()}/sites/${site}`, undefined, 205);
    expect([...emu.store.permissions.values()].map((g) => g.target)).toEqual(["space"]);
  });
});

describe("visitor authentication", () => {
  it("reads, changes and regenerates a site's settings", async () => {
    expectContractViolation(/updateSitePublishingAuthById request body: matches none .*backend: is required/);
    expectContractViolation(/updateSitePublishingAuthById request body \/logoutURL: must match format "uri"/);
    const site = (await createSite()).id;
    const auth = `${org()}/sites/${site}/publishing/auth`;
    const first = await must("GET", auth, undefined, 200);
    expect(first).toMatchObject({ object: "publishing-auth", backend: "custom", privateKey: expect.any(String) });
    expect(await must("GET", auth, undefined, 200)).toEqual(first);
    const patched = await must("PATCH", auth, { backend: "custom", fallbackURL: "https://login.acme.test/" }, 200);
    expect(patched).toMatchObject({ fallbackURL: "https://login.acme.test/", privateKey: first.privateKey });
    expectError(await call("PATCH", auth, { fallbackURL: "https://x.test/" }), 400, "backend: ");
    expectError(await call("PATCH", auth, { backend: "custom", logoutURL: "not a url" }), 400, "logoutURL: ");
    expect(await must("PATCH", auth, { backend: "integration", fallbackURL: null }, 200)).not.toHaveProperty("fallbackURL");
    const again = await must("POST", `${auth}/regenerate`, undefined, 200);
    expect(again.privateKey).not.toBe(first.privateKey);
    expect(again.backend).toBe("integration");
    expectError(await call("GET", `${org()}/sites/site_missing/publishing/auth`), 404);
  });
});
