// Validation: GitBook's limits, patterns and types on every body, and null clearing optional fields.
import { describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { useEmulator, siteWithSection, call, org, space, must, createSite, getSite, expectError, emu } from "../test/support/emulatorApi";

useEmulator();

// ------------------------------------------------------------------ validation

interface LimitCase {
  name: string;
  field: string;
  min?: number;
  max: number;
  /** Builds a valid value of exactly n characters (default "x" * n). */
  make?: (n: number) => string;
  /** Prepares what the request needs and returns the request for a value. */
  target: () => Promise<(value: string) => [string, string, unknown]>;
}

const proxyOf = (n: number) => `${"a".repeat(n - ".com/docs".length)}.com/docs`;
const urlOf = (n: number) => `https://idp.example/${"a".repeat(n - "https://idp.example/".length)}`;

// The numbers restate the spec's Limits table independently of LIMITS in http.ts.
const LIMIT_CASES: LimitCase[] = [
  { name: "POST site title", field: "title", min: 2, max: 128, target: async () => (v) => ["POST", `${org()}/sites`, { title: v }] },
  {
    name: "PATCH site title",
    field: "title",
    min: 2,
    max: 128,
    target: async () => {
      const site = await createSite();
      return (v) => ["PATCH", `${org()}/sites/${site.id}`, { title: v }];
    },
  },
  {
    name: "PATCH site basename",
    field: "basename",
    min: 1,
    max: 100,
    target: async () => {
      const site = await createSite();
      return (v) => ["PATCH", `${org()}/sites/${site.id}`, { basename: v }];
    },
  },
  {
    name: "PATCH site proxy",
    field: "proxy",
    max: 512,
    make: proxyOf,
    target: async () => {
      const site = await createSite();
      return (v) => ["PATCH", `${org()}/sites/${site.id}`, { proxy: v }];
    },
  },
  {
    name: "POST section title",
    field: "title",
    min: 2,
    max: 128,
    target: async () => {
      const site = await createSite();
      return (v) => ["POST", `${org()}/sites/${site.id}/sections`, { spaceId: space(0), title: v }];
    },
  },
  {
    name: "POST section icon",
    field: "icon",
    max: 50,
    target: async () => {
      const site = await createSite();
      return (v) => ["POST", `${org()}/sites/${site.id}/sections`, { spaceId: space(0), icon: v }];
    },
  },
  ...(
    [
      ["title", 2, 128],
      ["path", 1, 100],
      ["description", undefined, 256],
      ["icon", undefined, 50],
      ["condition", undefined, 1024],
    ] as const
  ).map(
    ([field, min, max]): LimitCase => ({
      name: `PATCH section ${field}`,
      field,
      ...(min !== undefined && { min }),
      max,
      target: async () => {
        const { base, section } = await siteWithSection();
        return (v) => ["PATCH", `${base}/sections/${section.id}`, { [field]: v }];
      },
    }),
  ),
  ...(
    [
      ["path", 1, 100],
      ["condition", undefined, 1024],
    ] as const
  ).map(
    ([field, min, max]): LimitCase => ({
      name: `PATCH site space ${field}`,
      field,
      ...(min !== undefined && { min }),
      max,
      target: async () => {
        const { base, section } = await siteWithSection();
        return (v) => ["PATCH", `${base}/site-spaces/${section.siteSpaces[0].id}`, { [field]: v }];
      },
    }),
  ),
  {
    name: "POST section group icon",
    field: "icon",
    max: 50,
    target: async () => {
      const site = await createSite();
      return (v) => ["POST", `${org()}/sites/${site.id}/section-groups`, { title: "Group", icon: v }];
    },
  },
  {
    name: "POST share link name",
    field: "name",
    max: 50,
    target: async () => {
      const site = await createSite();
      return (v) => ["POST", `${org()}/sites/${site.id}/share-links`, { name: v }];
    },
  },
  {
    name: "PATCH share link name",
    field: "name",
    max: 50,
    target: async () => {
      const site = await createSite();
      const link = await must("POST", `${org()}/sites/${site.id}/share-links`, { name: "Reviewers" }, 201);
      return (v) => ["PATCH", `${org()}/sites/${site.id}/share-links/${link.id}`, { name: v }];
    },
  },
  { name: "PUT team title", field: "title", min: 1, max: 64, target: async () => (v) => ["PUT", `${org()}/teams`, { title: v }] },
  {
    name: "PATCH team title",
    field: "title",
    min: 1,
    max: 64,
    target: async () => {
      const team = await must("PUT", `${org()}/teams`, { title: "Writers" }, 201);
      return (v) => ["PATCH", `${org()}/teams/${team.id}`, { title: v }];
    },
  },
  { name: "POST SAML label", field: "label", min: 1, max: 30, target: async () => (v) => ["POST", `${org()}/saml`, { label: v }] },
  {
    name: "POST SAML entityID",
    field: "entityID",
    max: 1024,
    target: async () => (v) => ["POST", `${org()}/saml`, { label: "Okta", entityID: v }],
  },
  {
    name: "POST SAML certificate",
    field: "certificate",
    max: 10000,
    target: async () => (v) => ["POST", `${org()}/saml`, { label: "Okta", certificate: v }],
  },
  {
    name: "POST SAML ssoURL",
    field: "ssoURL",
    max: 2048,
    make: urlOf,
    target: async () => (v) => ["POST", `${org()}/saml`, { label: "Okta", ssoURL: v }],
  },
  {
    name: "PATCH SAML label",
    field: "label",
    min: 1,
    max: 30,
    target: async () => {
      const p = await must("POST", `${org()}/saml`, { label: "Okta" }, 201);
      return (v) => ["PATCH", `${org()}/saml/${p.id}`, { label: v }];
    },
  },
  {
    name: "POST OpenAPI slug",
    field: "slug",
    min: 1,
    max: 100,
    make: (n) => "a".repeat(n),
    target: async () => (v) => ["POST", `${org()}/openapi`, { slug: v, source: { text: "openapi: 3.1.0" } }],
  },
  {
    name: "POST OpenAPI source.url",
    field: "source.url",
    max: 2048,
    make: urlOf,
    target: async () => {
      let n = 0;
      return (v) => ["POST", `${org()}/openapi`, { slug: `spec-${++n}`, source: { url: v } }];
    },
  },
];

describe("validation limits", () => {
  it.each(LIMIT_CASES)("$name: rejects values beyond the limit naming $field, accepts the boundaries", async (c) => {
    // Values beyond the limit break the spec's maxLength/minLength (a long source.url fails both alternatives of source).
    const top = c.field.split(".")[0];
    expectContractViolation(new RegExp(`request body /${top}: .*must NOT have more than ${c.max} characters`));
    if (c.min !== undefined) expectContractViolation(new RegExp(`request body /${top}: .*must NOT have fewer than ${c.min} characters`));
    const make = c.make ?? ((n: number) => "x".repeat(n));
    const request = await c.target();
    const send = (v: string) => call(...request(v));

    const tooLong = await send(make(c.max + 1));
    expectError(tooLong, 400, `${c.field}: `);
    expect(tooLong.body.error.message).toContain(String(c.max));
    const atMax = await send(make(c.max));
    expect(atMax.status, JSON.stringify(atMax.body)).toBeLessThan(300);

    if (c.min !== undefined) {
      const tooShort = await send(make(c.min - 1));
      expectError(tooShort, 400, `${c.field}: `);
      expect(tooShort.body.error.message).toContain(`${c.min} to ${c.max}`);
      const atMin = await send(make(c.min));
      expect(atMin.status, JSON.stringify(atMin.body)).toBeLessThan(300);
    }
  });

  it("enforces patterns, URLs, enums, required fields and types, and ignores unknown fields", async () => {
    const site = await createSite();
    const s = `${org()}/sites/${site.id}`;
    // [method, path, body, start of the 400 message, what the request breaks in the spec (none: a valid request GitBook refuses)]
    const bad: [string, string, unknown, string, RegExp?][] = [
      ["PATCH", s, { proxy: "https://docs.acme.test/docs" }, "proxy: must match", /updateSiteById request body \/proxy: .*must match pattern/],
      ["PATCH", s, { proxy: "docs.acme.test" }, "proxy: must match", /updateSiteById request body \/proxy: .*must match pattern/],
      ["PATCH", s, { visibility: "secret" }, "visibility: must be one of public, unlisted, share-link, visitor-auth", /updateSiteById request body \/visibility: must be one of/],
      // agentsContext is no field of the spec's PATCH body, so nothing to break there.
      ["PATCH", s, { agentsContext: "maybe" }, "agentsContext: "],
      ["PATCH", s, { title: 42 }, "title: must be a string", /updateSiteById request body \/title: must be string \(got 42\)/],
      ["PATCH", s, { title: null }, "title: ", /updateSiteById request body \/title: must be string \(got null\)/],
      ["PATCH", s, { adaptiveContent: { enabled: "yes" } }, "adaptiveContent.enabled: must be a boolean", /updateSiteById request body \/adaptiveContent\/enabled: must be boolean/],
      ["POST", `${org()}/sites`, { type: "gold" }, "type: ", /createSite request body \/type: must be one of/],
      ["POST", `${org()}/sites`, { spaces: [space(0), "spc_nope"] }, "spaces: "],
      ["POST", `${s}/sections`, {}, "spaceId: is required", /addSectionToSite request body \/spaceId: is required/],
      ["POST", `${s}/sections`, { spaceId: "spc_nope" }, "spaceId: "],
      ["POST", `${s}/site-spaces`, { spaceId: space(0), sectionId: "sec_nope" }, "sectionId: "],
      ["POST", `${s}/share-links`, {}, "name: is required", /createSiteShareLink request body \/name: is required/],
      ["PUT", `${org()}/teams`, {}, "title: is required", /createOrganizationTeam request body \/title: is required/],
      ["PUT", `${org()}/teams`, { title: "T", members: ["nobody@acme.test"] }, 'members: unknown user "nobody@acme.test"'],
      ["POST", `${org()}/saml`, { label: "Okta", ssoURL: "not a url" }, "ssoURL: must be an absolute URI", /createOrganizationSAMLProvider request body \/ssoURL: must match format "uri"/],
      // A scheme, then what no URL parser reads (an unclosed IPv6 host).
      ["POST", `${org()}/saml`, { label: "Okta", ssoURL: "https://[::1" }, "ssoURL: must be an absolute URI", /createOrganizationSAMLProvider request body \/ssoURL: must match format "uri" \(got "https:\/\/\[::1"\)/],
      ["POST", `${org()}/saml`, { label: "Okta", defaultRole: "boss" }, "defaultRole: ", /createOrganizationSAMLProvider request body \/defaultRole: matches none/],
      ["POST", `${org()}/saml`, { label: "Okta", defaultTeam: "team_nope" }, "defaultTeam: "],
      ["POST", `${org()}/saml`, {}, "label: is required", /createOrganizationSAMLProvider request body \/label: is required/],
      ["POST", `${org()}/openapi`, { slug: "Bad_Slug", source: { text: "openapi" } }, "slug: must match", /createOpenAPISpec request body \/slug: must match pattern .*\(got "Bad_Slug"\)/],
      ["POST", `${org()}/openapi`, { slug: "-lead", source: { text: "openapi" } }, "slug: must match", /createOpenAPISpec request body \/slug: must match pattern .*\(got "-lead"\)/],
      ["POST", `${org()}/openapi`, { source: { text: "openapi" } }, "slug: is required", /createOpenAPISpec request body \/slug: is required/],
      ["POST", `${org()}/openapi`, { slug: "ok" }, "source: is required", /createOpenAPISpec request body \/source: is required/],
      ["POST", `${org()}/openapi`, { slug: "ok", source: {} }, "source: must be either", /createOpenAPISpec request body \/source: matches none of the alternatives/],
      ["POST", `${org()}/openapi`, { slug: "ok", source: { url: "https://a.example/x", text: "openapi" } }, "source: must be either", /createOpenAPISpec request body \/source: matches more than one alternative/],
      ["POST", `${org()}/openapi`, { slug: "ok", source: { text: "" } }, "source.text: ", /createOpenAPISpec request body \/source: .*\/text: must NOT have fewer than 1 characters/],
      ["POST", `${org()}/openapi`, { slug: "ok", source: { url: "a.example/x" } }, "source.url: must be an absolute URI", /createOpenAPISpec request body \/source: .*\/url: must match format "uri"/],
      ["POST", `${org()}/openapi`, [], "body: must be a JSON object", /createOpenAPISpec request body: must be object/],
    ];
    for (const [method, path, body, message, breaks] of bad) {
      if (breaks) expectContractViolation(breaks);
      expectError(await call(method, path, body), 400, message);
    }

    expectContractViolation(/updateSiteById request body: must be object \(got "\{oops"\)/);
    const raw = await fetch(`${emu.url}${s}`, { method: "PATCH", headers: { authorization: `Bearer ${emu.token}` }, body: "{oops" });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: { code: 400, message: "body: must be valid JSON" } });

    const patched = await must("PATCH", s, { title: "Renamed", bogus: true }, 200);
    expect(patched.title).toBe("Renamed");
    expect(patched).not.toHaveProperty("bogus");
  });

  it("accepts what the spec accepts: empty conditions, upper-case OpenAPI slugs, URIs of any scheme", async () => {
    const { base, section } = await siteWithSection();
    expect((await must("PATCH", `${base}/sections/${section.id}`, { condition: "" }, 200)).condition).toBe("");
    expect((await must("PATCH", `${base}/site-spaces/${section.siteSpaces[0].id}`, { condition: "" }, 200)).condition).toBe("");
    expect((await must("POST", `${org()}/openapi`, { slug: "Payments-API", source: { text: "openapi: 3.1.0" } }, 201)).slug).toBe("Payments-API");
    // GitBook takes the URL and then fails to fetch it (see the OpenAPI specs below).
    expect((await must("POST", `${org()}/openapi`, { slug: "ftp", source: { url: "ftp://specs.acme.test/api.yaml" } }, 201)).sourceURL).toBe("ftp://specs.acme.test/api.yaml");
    expect((await must("POST", `${org()}/saml`, { label: "Okta", ssoURL: "urn:acme:sso" }, 201)).ssoURL).toBe("urn:acme:sso");
  });

  it("leaves the object untouched when a PATCH is rejected", async () => {
    const site = await createSite({ title: "Stable" });
    expectError(await call("PATCH", `${org()}/sites/${site.id}`, { title: "Changed", defaultSiteSection: "sec_nope" }), 400, "defaultSiteSection: ");
    expect((await getSite(site.id)).title).toBe("Stable");
  });
});

// ------------------------------------------------------------------ null clearing

describe("null clears optional fields", () => {
  it("condition, icon and description of a section; condition of a site space; not a section's title", async () => {
    const { base, section } = await siteWithSection();
    const sec = `${base}/sections/${section.id}`;
    const set = await must("PATCH", sec, { title: "Custom", condition: "visitor.claims.beta", icon: "rocket", description: "About" }, 200);
    expect(set).toMatchObject({ title: "Custom", condition: "visitor.claims.beta", icon: "rocket", description: "About" });

    // Omitted leaves unchanged.
    expect(await must("PATCH", sec, { path: "start" }, 200)).toMatchObject({ condition: "visitor.claims.beta", icon: "rocket", path: "start" });

    const cleared = await must("PATCH", sec, { condition: null, icon: null, description: null }, 200);
    expect(cleared.title).toBe("Custom");
    for (const key of ["condition", "icon", "description"]) expect(cleared).not.toHaveProperty(key);
    // The spec's PATCH title is a string of 2 to 128 characters: a title once given cannot be removed.
    expectContractViolation(/updateSiteSectionById request body \/title: must be string \(got null\)/);
    expectError(await call("PATCH", sec, { title: null }), 400, "title: ");

    const ss = `${base}/site-spaces/${section.siteSpaces[0].id}`;
    expect((await must("PATCH", ss, { condition: "visitor.claims.paid" }, 200)).condition).toBe("visitor.claims.paid");
    expect(await must("PATCH", ss, { condition: null }, 200)).not.toHaveProperty("condition");
  });

  it("proxy is returned as {origin, target} and removed by null", async () => {
    const site = await createSite();
    await must("POST", `${org()}/sites/${site.id}/publish`, undefined, 200);
    const withProxy = await must("PATCH", `${org()}/sites/${site.id}`, { proxy: "www.acme.test/docs/v2" }, 200);
    // The origin as given (no scheme); the target is where GitBook serves the site for the proxy.
    expect(withProxy.proxy).toEqual({ origin: "www.acme.test/docs/v2", target: `https://proxy.gitbook.site/sites/${site.id}` });
    expect(withProxy.urls.published).toBe("https://www.acme.test/docs/v2");
    expect((await getSite(site.id)).proxy).toEqual(withProxy.proxy);
    const without = await must("PATCH", `${org()}/sites/${site.id}`, { proxy: null }, 200);
    expect(without).not.toHaveProperty("proxy");
  });
});
