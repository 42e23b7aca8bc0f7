/**
 * The settings-object recipe (settingsObject.ts) on what its kinds' own tests leave out: a create whose
 * parent is not there fails naming the kind, the target field, the parent and the fix, and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProviderEnv, type ProviderEnv } from "../../test/support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());

describe("a settings object whose parent is not there", () => {
  it("SiteCustomization and SitePublication name siteId and the organization, and send nothing", async () => {
    env.emu.log.reset();
    await expect(env.up("SiteCustomization", { siteId: "site_missing", title: "Acme" })).rejects.toThrow(
      /SiteCustomization: siteId: no site site_missing in organization \S+; it was deleted, or the ID is wrong \(pass the Site's id output\)\./,
    );
    await expect(env.up("SitePublication", { siteId: "site_missing", published: true })).rejects.toThrow(
      /SitePublication: siteId: no site site_missing in organization \S+; it was deleted, or the ID is wrong \(pass the Site's id output\)\./,
    );
    expect(env.emu.log.writes()).toBe(0);
  });

  it("SiteSpaceCustomization names siteSpaceId and the site, and sends nothing", async () => {
    const site = (await env.up("Site", { title: "Acme Docs" })).state;
    env.emu.log.reset();
    await expect(env.up("SiteSpaceCustomization", { siteId: site.id, siteSpaceId: "sitesp_missing", title: "Acme" })).rejects.toThrow(
      `SiteSpaceCustomization: siteSpaceId: no site space sitesp_missing in site ${site.id}; it was deleted, or an ID is wrong (pass the SiteSpace's id and the Site's id outputs).`,
    );
    expect(env.emu.log.writes()).toBe(0);
  });
});
