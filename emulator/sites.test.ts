// Sites: creation defaults, patches, publishing, adaptive schemas and share links.
import { describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { useEmulator, call, org, space, spaceTitle, must, createSite, getSite, listAll, expectError, emu, type Json } from "../test/support/emulatorApi";

useEmulator();

// ------------------------------------------------------------------ sites, sections, site spaces

describe("sites", () => {
  it("creates a site with spec defaults", async () => {
    const site = await must("POST", `${org()}/sites`, { title: "Développeur Docs!" }, 201);
    expect(site).toMatchObject({
      object: "site",
      type: "ultimate",
      appliedType: "ultimate",
      title: "Développeur Docs!",
      basename: "developpeur-docs",
      visibility: "public",
      published: false,
      siteSpaces: 0,
      adaptiveContent: { enabled: false },
      agentsContext: "excluded",
      defaultLevel: "inherit",
      urls: {
        location: `${emu.url}/v1/orgs/${emu.seeded.organizationId}/sites/${site.id}`,
        app: expect.any(String),
        preview: `https://sites.gitbook.com/preview/${site.id}/`,
      },
    });
    expect(site).not.toHaveProperty("hostname");
    // The published URL is defined only once the site is published.
    expect(site.urls).not.toHaveProperty("published");
    expect((await must("POST", `${org()}/sites/${site.id}/publish`, undefined, 200)).urls.published).toBe("https://acme.gitbook.io/developpeur-docs");
    expect(Date.parse(site.createdAt)).not.toBeNaN();
    // Basenames derived from titles stay unique in the organization.
    expect((await createSite({ title: "Développeur Docs!" })).basename).toBe("developpeur-docs-2");

    // hostname only shows when set in the store.
    emu.store.sites.get(site.id)!.hostname = "docs.acme.test";
    expect(await getSite(site.id)).toMatchObject({ hostname: "docs.acme.test", urls: { published: "https://docs.acme.test" } });
  });

  it("accepts every site type of GitBook's spec; without one, ultimate (sponsored in a community organization)", async () => {
    for (const type of ["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"]) {
      expect((await createSite({ type })).type).toBe(type);
    }
    const o = emu.store.orgs.get(emu.seeded.organizationId)!;
    o.type = "community";
    try {
      expect((await createSite()).type).toBe("sponsored");
      expect((await must("GET", org(), undefined, 200)).type).toBe("community");
    } finally {
      delete o.type;
    }
    expect((await createSite()).type).toBe("ultimate");
  });

  it("patches fields, and lists the premium features the site uses", async () => {
    const site = await createSite();
    expect(site.features).toEqual([]);
    const p = await must(
      "PATCH",
      `${org()}/sites/${site.id}`,
      { visibility: "share-link", basename: "handbook", agentsContext: "included", adaptiveContent: { enabled: true } },
      200,
    );
    expect(p).toMatchObject({ visibility: "share-link", basename: "handbook", agentsContext: "included", adaptiveContent: { enabled: true } });
    expect(p.features.map((f: Json) => [f.id, f.plan])).toEqual([
      ["sites-adaptive-content", "ultimate"],
      ["sites-share-links", "premium"],
    ]);
  });

  it("adds root-level site spaces from `spaces`, first one default, unique paths", async () => {
    const site = await createSite({ spaces: [space(0), space(0), space(1)] });
    expect(site).toMatchObject({ published: false, siteSpaces: 3 });
    const items = await listAll(`${org()}/sites/${site.id}/site-spaces`);
    expect(items.map((i: Json) => [i.path, i.default])).toEqual([
      ["getting-started", true],
      ["getting-started-2", false],
      ["api-reference", false],
    ]);
    expect(items[0]).not.toHaveProperty("section");
    expect(items[0]).not.toHaveProperty("condition");
    expect(items[0]).toMatchObject({ object: "site-space", title: spaceTitle(0), space: { object: "space", id: space(0), organization: emu.seeded.organizationId } });

    // Without sections, PATCH site defaultSiteSpace moves the root default.
    await must("PATCH", `${org()}/sites/${site.id}`, { defaultSiteSpace: items[2].id }, 200);
    const defaults = await listAll(`${org()}/sites/${site.id}/site-spaces?default=true`);
    expect(defaults.map((i: Json) => i.id)).toEqual([items[2].id]);
    expect((await listAll(`${org()}/sites/${site.id}/site-spaces?default=false`)).length).toBe(2);

    // A site space added to a site without sections makes GitBook wrap the site's content in a new
    // section named after the site, which becomes the default section, and add the site space there.
    const added = await must("POST", `${org()}/sites/${site.id}/site-spaces`, { spaceId: space(2) }, 201);
    const sections = await listAll(`${org()}/sites/${site.id}/sections`);
    expect(sections).toHaveLength(1);
    expect(sections[0]).toMatchObject({ title: site.title, path: "product-docs", default: true });
    expect(added).toMatchObject({ path: "guides", default: false, section: sections[0].id });
    // The root-level site spaces moved into it, their default kept.
    const after = await listAll(`${org()}/sites/${site.id}/site-spaces`);
    expect(after.map((i: Json) => [i.path, i.section, i.default])).toEqual([
      ["getting-started", sections[0].id, false],
      ["getting-started-2", sections[0].id, false],
      ["api-reference", sections[0].id, true],
      ["guides", sections[0].id, false],
    ]);
    // Deleting that section deletes them all: it is a section like any other.
    expect((await call("DELETE", `${org()}/sites/${site.id}/sections/${sections[0].id}`)).status).toBe(205);
    expect(await listAll(`${org()}/sites/${site.id}/site-spaces`)).toEqual([]);
  });

  it("adds a site space to a site without anything in it through a new section named after the site", async () => {
    const site = await createSite({ title: "Empty Docs" });
    const added = await must("POST", `${org()}/sites/${site.id}/site-spaces`, { spaceId: space(1) }, 201);
    const sections = await listAll(`${org()}/sites/${site.id}/sections`);
    expect(sections.map((s: Json) => [s.title, s.path, s.default])).toEqual([["Empty Docs", "empty-docs", true]]);
    expect(added).toMatchObject({ section: sections[0].id, default: true });
    expect(sections[0].siteSpaces.map((s: Json) => s.id)).toEqual([added.id]);
  });

  it("filters site lists", async () => {
    const alpha = await createSite({ title: "Alpha docs", spaces: [space(0)] });
    await createSite({ title: "Beta docs" });
    await must("POST", `${org()}/sites/${alpha.id}/publish`, undefined, 200);
    expect((await listAll(`${org()}/sites?published=true`)).map((s: Json) => s.title)).toEqual(["Alpha docs"]);
    expect((await listAll(`${org()}/sites?title=BETA`)).map((s: Json) => s.title)).toEqual(["Beta docs"]);
    expect((await listAll(`${org()}/sites?space=${space(0)}`)).map((s: Json) => s.title)).toEqual(["Alpha docs"]);
    expectContractViolation(/listSites query \/published: must be boolean/);
    expectError(await call("GET", `${org()}/sites?published=maybe`), 400, "published: ");
  });
});

describe("publishing", () => {
  it("publishes and unpublishes a site, one without content too, answering with the site as it now is", async () => {
    const site = await createSite();
    const base = `${org()}/sites/${site.id}`;
    expect(site).toMatchObject({ published: false, siteSpaces: 0 });
    expect(await listAll(`${org()}/sites?published=true`)).toEqual([]);

    const published = await must("POST", `${base}/publish`, undefined, 200);
    expect(published).toMatchObject({ object: "site", id: site.id, published: true, urls: { published: "https://acme.gitbook.io/product-docs" } });
    expect(await getSite(site.id)).toMatchObject({ published: true });
    expect((await listAll(`${org()}/sites?published=true`)).map((s: Json) => s.id)).toEqual([site.id]);
    // Publishing a published site changes nothing.
    expect(await must("POST", `${base}/publish`, undefined, 200)).toMatchObject({ published: true });

    const unpublished = await must("POST", `${base}/unpublish`, undefined, 200);
    expect(unpublished).toMatchObject({ id: site.id, published: false });
    expect(unpublished.urls).not.toHaveProperty("published");
    expect(await must("POST", `${base}/unpublish`, undefined, 200)).toMatchObject({ published: false });
    expect((await listAll(`${org()}/sites?published=false`)).map((s: Json) => s.id)).toEqual([site.id]);

    expectError(await call("POST", `${org()}/sites/site_nope/publish`), 404);
    expectError(await call("POST", `${org()}/sites/site_nope/unpublish`), 404);
  });

  it("answers a checkout session instead of publishing when the organization's plan needs an upgrade", async () => {
    const site = await createSite();
    emu.store.orgs.get(emu.seeded.organizationId)!.publishNeedsCheckout = true;
    const r = await must("POST", `${org()}/sites/${site.id}/publish`, undefined, 200);
    expect(r).toEqual({ type: "checkout", sessionId: expect.stringMatching(/^cs_/) });
    expect(await getSite(site.id)).toMatchObject({ published: false });
  });
});

describe("adaptive schema", () => {
  const schemaPath = (siteId: string) => `${org()}/sites/${siteId}/adaptive-schema`;
  const jsonSchema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      isBetaUser: { type: "boolean", description: "Whether the visitor is a beta user." },
      seats: { type: "number", description: "Seats in the visitor's plan." },
      roles: { type: "array", description: "Roles of the visitor.", items: { type: "string", description: "A role.", enum: ["admin", "dev"] } },
      account: {
        type: "object",
        description: "The visitor's account.",
        properties: { plan: { type: "string", description: "Plan.", enum: ["free", "pro"] } },
        additionalProperties: false,
      },
      unsigned: {
        type: "object",
        description: "Unsigned claims of the site visitor.",
        properties: { language: { type: "string", description: "Language." } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };

  it("has none until one is put; a put replaces it whole; it goes with its site", async () => {
    const site = await createSite();
    expectError(await call("GET", schemaPath(site.id)), 404);
    const put = await must("PUT", schemaPath(site.id), { jsonSchema }, 200);
    expect(put).toEqual({ object: "site-adaptive-schema", jsonSchema, updatedAt: expect.any(String) });
    expect(await must("GET", schemaPath(site.id), undefined, 200)).toEqual(put);

    const smaller = { type: "object", properties: {}, additionalProperties: false };
    expect((await must("PUT", schemaPath(site.id), { jsonSchema: smaller }, 200)).jsonSchema).toEqual(smaller);
    expect((await must("GET", schemaPath(site.id), undefined, 200)).jsonSchema).toEqual(smaller);

    await call("DELETE", `${org()}/sites/${site.id}`);
    expectError(await call("GET", schemaPath(site.id)), 404);
    expectError(await call("PUT", schemaPath(site.id), { jsonSchema }), 404);
  });

  it("refuses a schema GitBook's spec does not accept, naming where", async () => {
    expectContractViolation(/updateSiteAdaptiveSchema request/);
    const site = await createSite();
    const claim = { type: "boolean", description: "A claim." };
    const root = (properties: object, extra: object = {}) => ({ type: "object", properties, additionalProperties: false, ...extra });
    const cases: [object, string][] = [
      [{}, "jsonSchema: is required"],
      [{ jsonSchema: root({}, { type: "array" }) }, 'jsonSchema.type: must be "object"'],
      [{ jsonSchema: root({}, { additionalProperties: true }) }, "jsonSchema.additionalProperties: must be false"],
      [{ jsonSchema: { type: "object", properties: {} } }, "jsonSchema.additionalProperties: is required"],
      [{ jsonSchema: root({}, { required: ["a"] }) }, "jsonSchema.required: is not allowed here"],
      [{ jsonSchema: root({}, { $schema: "https://json-schema.org/draft/2020-12/schema" }) }, "jsonSchema.$schema: must be"],
      [{ jsonSchema: root({ a: { type: "boolean" } }) }, "jsonSchema.properties.a.description: is required"],
      [{ jsonSchema: root({ a: { type: "integer", description: "x" } }) }, "jsonSchema.properties.a.type: must be one of"],
      [{ jsonSchema: root({ a: { ...claim, enum: [true] } }) }, "jsonSchema.properties.a.enum: is not allowed here"],
      [{ jsonSchema: root({ a: { type: "string", description: "x", enum: [1] } }) }, "jsonSchema.properties.a.enum: must be an array of strings"],
      [{ jsonSchema: root({ a: { type: "array", description: "x", items: { type: "object", description: "y", properties: {}, additionalProperties: false } } }) }, "jsonSchema.properties.a.items.type: must be one of boolean, number, string"],
      [{ jsonSchema: root({ a: { type: "object", description: "x", properties: { b: {} }, additionalProperties: false } }) }, "jsonSchema.properties.a.properties.b.type: is required"],
      [{ jsonSchema: root({ a: { type: "object", description: "x", properties: {} } }) }, "jsonSchema.properties.a.additionalProperties: is required"],
      [{ jsonSchema: root({ unsigned: { type: "object", description: "Unsigned visitor claims", properties: {}, additionalProperties: false } }) }, 'jsonSchema.properties.unsigned.description: must be exactly "Unsigned claims of the site visitor."'],
      [{ jsonSchema: root({ unsigned: claim }) }, 'jsonSchema.properties.unsigned.type: must be "object"'],
    ];
    for (const [body, message] of cases) expectError(await call("PUT", schemaPath(site.id), body), 400, message);
    expectError(await call("GET", schemaPath(site.id)), 404);
  });
});

describe("share links", () => {
  it("creates active links with a secret in the published URL, and toggles them", async () => {
    const site = await createSite({ title: "Private docs", visibility: "share-link" });
    const base = `${org()}/sites/${site.id}`;
    const link = await must("POST", `${base}/share-links`, { name: "Partners" }, 201);
    expect(link).toMatchObject({ object: "share-link", name: "Partners", active: true, createdAt: expect.any(String) });
    expect(link.urls.published).toMatch(/^https:\/\/acme\.gitbook\.io\/private-docs\?share=[a-z0-9]{24}$/);
    const other = await must("POST", `${base}/share-links`, { name: "Press" }, 201);
    expect(other.urls.published).not.toBe(link.urls.published);

    expect(await must("PATCH", `${base}/share-links/${link.id}`, { active: false, name: "Old partners" }, 200)).toMatchObject({
      active: false,
      name: "Old partners",
    });
    expect((await listAll(`${base}/share-links`)).map((l: Json) => l.name)).toEqual(["Old partners", "Press"]);
  });
});
