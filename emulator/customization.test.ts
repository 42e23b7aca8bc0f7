// Branding: a site's customization (GET, whole-object PUT) and a site space's overrides of it
// (GET effective settings, PATCH with null clearing, DELETE 205/204), seeds and export.
import { describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { Emulator } from "./emulator";
import { defaultCustomization } from "./resources/customization";
import { useEmulator, call, org, space, must, createSite, expectError, emu, type Json } from "../test/support/emulatorApi";

useEmulator();

const custom = (siteId: string) => `${org()}/sites/${siteId}/customization`;
const override = (siteId: string, ssId: string) => `${org()}/sites/${siteId}/site-spaces/${ssId}/customization`;

async function siteWithSpace(): Promise<{ site: Json; ss: Json }> {
  const site = await createSite();
  const ss = await must("POST", `${org()}/sites/${site.id}/site-spaces`, { spaceId: space(0) }, 201);
  return { site, ss };
}

describe("site customization", () => {
  it("answers GitBook's defaults for a site nobody customized, without updatedAt", async () => {
    const site = await createSite();
    const got = await must("GET", custom(site.id), undefined, 200);
    expect(got).toMatchObject({ styling: { theme: "clean", primaryColor: { light: expect.stringMatching(/^#/) } }, favicon: {}, themes: { default: "system" } });
    expect(got).not.toHaveProperty("updatedAt");
  });

  it("replaces the whole object on PUT, and answers it with updatedAt", async () => {
    const site = await createSite();
    const settings = { ...defaultCustomization(), title: "Acme", styling: { ...(defaultCustomization().styling as object), theme: "bold" } };
    const put = await must("PUT", custom(site.id), settings, 200);
    expect(put).toMatchObject({ title: "Acme", styling: { theme: "bold" } });
    expect(Date.parse(put.updatedAt)).not.toBeNaN();
    expect(await must("GET", custom(site.id), undefined, 200)).toEqual(put);
  });

  it("refuses a body missing a required group, a bad colour, an unknown enum value or a bad URL, naming the path", async () => {
    // Each body breaks the spec on purpose; the contract check agrees with the emulator.
    for (const at of ["/feedback", "/styling/primaryColor/light", "/styling/theme", "/header/logo/light"]) expectContractViolation(new RegExp(`updateSiteCustomizationById request body ${at}:`));
    const site = await createSite();
    const { feedback: _f, ...withoutFeedback } = defaultCustomization();
    expectError(await call("PUT", custom(site.id), withoutFeedback), 400, "feedback:");
    const base = defaultCustomization() as Json;
    expectError(await call("PUT", custom(site.id), { ...base, styling: { ...base.styling, primaryColor: { light: "red", dark: "#000" } } }), 400, "styling.primaryColor.light: must be a hex colour");
    expectError(await call("PUT", custom(site.id), { ...base, styling: { ...base.styling, theme: "neon" } }), 400, "styling.theme:");
    expectError(await call("PUT", custom(site.id), { ...base, header: { ...base.header, logo: { light: "not a url", dark: "https://x.test/l.png" } } }), 400, "header.logo.light: must be an absolute URI");
  });

  it("answers 404 for a site that is not there", async () => {
    expectError(await call("GET", custom("nope")), 404);
    expectError(await call("PUT", custom("nope"), defaultCustomization()), 404);
  });
});

describe("site space customization", () => {
  it("answers the site's settings until overridden, then the overrides over them", async () => {
    const { site, ss } = await siteWithSpace();
    expect((await must("GET", override(site.id, ss.id), undefined, 200)).styling.theme).toBe("clean");
    const patched = await must("PATCH", override(site.id, ss.id), { title: "Acme FR", styling: { theme: "muted" } }, 200);
    expect(patched).toMatchObject({ title: "Acme FR", styling: { theme: "muted", corners: "rounded" } });
    // The site's own settings are untouched.
    expect((await must("GET", custom(site.id), undefined, 200)).styling.theme).toBe("clean");
    // A later PATCH sets only what it carries.
    await must("PATCH", override(site.id, ss.id), { styling: { corners: "straight" } }, 200);
    expect(await must("GET", override(site.id, ss.id), undefined, 200)).toMatchObject({ title: "Acme FR", styling: { theme: "muted", corners: "straight" } });
    expect(emu.store.siteSpaceCustomizations.get(ss.id)!.overrides).toEqual({ title: "Acme FR", styling: { theme: "muted", corners: "straight" } });
  });

  it("clears one override with null, falling back to the site's value", async () => {
    const { site, ss } = await siteWithSpace();
    await must("PATCH", override(site.id, ss.id), { styling: { theme: "muted", corners: "straight" } }, 200);
    const after = await must("PATCH", override(site.id, ss.id), { styling: { theme: null } }, 200);
    expect(after.styling).toMatchObject({ theme: "clean", corners: "straight" });
    // Its last override cleared, the group holds none: the site's whole group shows through again.
    const cleared = await must("PATCH", override(site.id, ss.id), { styling: { corners: null } }, 200);
    expect(cleared.styling).toEqual((await must("GET", custom(site.id), undefined, 200)).styling);
    expect(emu.store.siteSpaceCustomizations.get(ss.id)?.overrides ?? {}).not.toHaveProperty("styling");
  });

  it("refuses what the PATCH body does not accept, naming the path", async () => {
    expectContractViolation(/overrideSiteSpaceCustomizationById request body \/styling\/primaryColor:/);
    expectContractViolation(/overrideSiteSpaceCustomizationById request body \/title:/);
    const { site, ss } = await siteWithSpace();
    expectError(await call("PATCH", override(site.id, ss.id), { styling: { primaryColor: { light: "#12", dark: "#000" } } }), 400, "styling.primaryColor.light:");
    expectError(await call("PATCH", override(site.id, ss.id), { title: "A" }), 400, "title:");
  });

  it("deletes every override: 205 when there were some, 204 when none", async () => {
    const { site, ss } = await siteWithSpace();
    expect((await call("DELETE", override(site.id, ss.id))).status).toBe(204);
    await must("PATCH", override(site.id, ss.id), { title: "Acme FR" }, 200);
    expect((await call("DELETE", override(site.id, ss.id))).status).toBe(205);
    expect((await must("GET", override(site.id, ss.id), undefined, 200)).title).not.toBe("Acme FR");
    expect((await call("DELETE", override(site.id, "gone"))).status).toBe(204);
  });

  it("answers 404 for a site space of another site", async () => {
    const { ss } = await siteWithSpace();
    const other = await createSite();
    expectError(await call("GET", override(other.id, ss.id)), 404);
  });

  it("goes with its site space", async () => {
    const { site, ss } = await siteWithSpace();
    await must("PATCH", override(site.id, ss.id), { title: "Acme FR" }, 200);
    expect((await call("DELETE", `${org()}/sites/${site.id}/site-spaces/${ss.id}`)).status).toBe(205);
    expect(emu.store.siteSpaceCustomizations.has(ss.id)).toBe(false);
  });
});

describe("seeded customization", () => {
  it("seeds a site's settings over the defaults and a site space's overrides, and export carries them", async () => {
    const e = await Emulator.start({
      seedFile: {
        organization: { title: "Acme" },
        spaces: [{ key: "s", title: "Guide" }],
        sites: [{ key: "site", title: "Docs", spaces: [{ key: "fr", space: "s", customization: { title: "Docs FR" } }], customization: { styling: { theme: "bold" }, feedback: { enabled: true } } }],
      },
    });
    try {
      const { organizationId, ids } = e.seeded;
      const get = async (p: string) => (await call("GET", `/v1/orgs/${organizationId}/sites/${ids.site}${p}`, undefined, e.token, e)).body as Json;
      expect(await get("/customization")).toMatchObject({ styling: { theme: "bold", corners: "rounded" }, feedback: { enabled: true } });
      expect(await get(`/site-spaces/${ids.fr}/customization`)).toMatchObject({ title: "Docs FR", styling: { theme: "bold" } });
      const snap = e.store.snapshot();
      expect(snap.tables.siteCustomizations).toHaveLength(1);
      expect(snap.tables.siteSpaceCustomizations).toHaveLength(1);
    } finally {
      await e.close();
    }
  });

  it("refuses a seed whose customization the API would refuse, naming the path", async () => {
    const e = await Emulator.start({ seedFile: { organization: { title: "Acme" }, sites: [{ title: "Docs", customization: { styling: { theme: "neon" } } }] } }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(e?.message).toContain("sites[0].customization.styling.theme");
  });
});
