import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { Emulator } from "./emulator";

// Response bodies are untyped JSON: `any` keeps the assertions readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
interface Res {
  status: number;
  headers: Headers;
  body: Json;
}

let emu: Emulator;

beforeEach(async () => {
  emu = await Emulator.start();
});
afterEach(async () => {
  await emu.close();
});

async function call(method: string, path: string, body?: unknown, token: string | null = emu.token, target = emu): Promise<Res> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(target.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const org = () => `/v1/orgs/${emu.seeded.organizationId}`;
const space = (i: number) => emu.seeded.spaceIds[i]!;
const spaceTitle = (i: number) => emu.store.spaces.get(space(i))!.title;

async function must(method: string, path: string, body: unknown, status: number): Promise<Json> {
  const r = await call(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
}
const createSite = (body: object = {}) => must("POST", `${org()}/sites`, { title: "Product docs", ...body }, 201);
const createSection = (siteId: string, body: object) => must("POST", `${org()}/sites/${siteId}/sections`, body, 201);
const getSite = (siteId: string) => must("GET", `${org()}/sites/${siteId}`, undefined, 200);
const listAll = async (path: string): Promise<Json[]> => (await must("GET", path, undefined, 200)).items;

function expectError(r: Res, status: number, messageStart?: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (messageStart !== undefined) expect(r.body.error.message.startsWith(messageStart), r.body.error.message).toBe(true);
}

// ------------------------------------------------------------------ auth

describe("authentication", () => {
  it("answers 401 {error} without a token, with a wrong one, and after revokeToken", async () => {
    // /v1/nowhere is no path of the spec: checked as received, before authentication.
    expectContractViolation(/GET \/v1\/nowhere: no operation of the spec has this path/);
    expectError(await call("GET", "/v1/orgs", undefined, null), 401);
    expectError(await call("GET", "/v1/orgs", undefined, "gb_emu_wrong"), 401);
    // Authentication comes before routing.
    expectError(await call("GET", "/v1/nowhere", undefined, null), 401);
    const good = await call("GET", "/v1/orgs");
    expect(good.status).toBe(200);
    expect(good.body.items.map((o: Json) => o.id)).toEqual([emu.seeded.organizationId]);

    const old = emu.token;
    emu.revokeToken();
    expectError(await call("GET", "/v1/orgs", undefined, old), 401);
    emu.token = "gb_emu_fresh";
    expect((await call("GET", "/v1/orgs", undefined, "gb_emu_fresh")).status).toBe(200);
    expectError(await call("GET", "/v1/orgs", undefined, old), 401);
  });

  it("uses the token given in the options, and a random gb_emu_ token otherwise", async () => {
    expect(emu.token).toMatch(/^gb_emu_[0-9a-f]{32}$/);
    const other = await Emulator.start({ token: "fixed-token" });
    try {
      expect((await call("GET", "/v1/orgs", undefined, "fixed-token", other)).status).toBe(200);
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await other.close();
    }
  });
});

// ------------------------------------------------------------------ 404

describe("not found", () => {
  it("answers 404 {error} for unknown ids and routes", async () => {
    // Unknown routes are no paths of the spec; unknown ids are valid requests.
    expectContractViolation(/GET \/v1\/nowhere: no operation of the spec has this path/);
    expectContractViolation(/POST \/v1\/orgs\/[^ ]+\/unknown: no operation of the spec has this path/);
    const site = await createSite();
    const s = `${org()}/sites/${site.id}`;
    const cases: [string, string, unknown?][] = [
      ["GET", "/v1/orgs/org_nope"],
      ["GET", "/v1/orgs/org_nope/sites"],
      ["GET", `${org()}/sites/site_nope`],
      ["PATCH", `${org()}/sites/site_nope`, { title: "Whatever" }],
      ["PATCH", `${s}/sections/sec_nope`, { title: "Whatever" }],
      ["PATCH", `${s}/site-spaces/ss_nope`, { path: "x" }],
      ["PATCH", `${s}/share-links/shl_nope`, { name: "x" }],
      ["GET", `/v1/spaces/spc_nope`],
      ["GET", `${org()}/members/usr_nope`],
      ["GET", `${org()}/teams/team_nope`],
      ["GET", `${org()}/saml/saml_nope`],
      ["GET", `${org()}/openapi/nope`],
      ["GET", `${org()}/openapi/nope/versions/latest`],
      ["GET", "/v1/nowhere"],
      ["POST", `${org()}/sites/${site.id}/unknown`, {}],
    ];
    for (const [method, path, body] of cases) {
      const r = await call(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expectError(r, 404);
    }
    // A site of this org is not reachable through another org id.
    expectError(await call("GET", `/v1/orgs/org_other/sites/${site.id}`), 404);
  });
});

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

async function siteWithSection() {
  const site = await createSite();
  const section = await createSection(site.id, { spaceId: space(0) });
  return { site, section, base: `${org()}/sites/${site.id}` };
}

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

describe("sections and default semantics", () => {
  it("a new section creates its space's site space as its default; the first section is the default", async () => {
    const site = await createSite();
    const base = `${org()}/sites/${site.id}`;
    const first = await createSection(site.id, { spaceId: space(0) });
    expect(first).toMatchObject({ object: "site-section", title: spaceTitle(0), path: "getting-started", default: true });
    expect(first.siteSpaces).toHaveLength(1);
    expect(first.siteSpaces[0]).toMatchObject({ default: true, section: first.id, space: { id: space(0) }, path: "getting-started" });
    expect(first.urls.published).toBe(`https://acme.gitbook.io/product-docs/getting-started`);
    expect(await getSite(site.id)).toMatchObject({ siteSpaces: 1 });

    const second = await createSection(site.id, { spaceId: space(1), title: "API", icon: "code" });
    expect(second).toMatchObject({ title: "API", path: "api", default: false, icon: "code" });
    expect(second.siteSpaces[0].default).toBe(true);
    // Paths stay unique within the site.
    expect((await createSection(site.id, { spaceId: space(2), title: "API" })).path).toBe("api-2");

    // Omitted sectionId goes to the default section.
    const extra = await must("POST", `${base}/site-spaces`, { spaceId: space(3) }, 201);
    expect(extra).toMatchObject({ section: first.id, default: false, path: "changelog" });
    const inSecond = await must("POST", `${base}/site-spaces`, { spaceId: space(3), sectionId: second.id }, 201);
    expect(inSecond).toMatchObject({ section: second.id, default: false });

    // PATCH site defaultSiteSpace targets the default section.
    await must("PATCH", base, { defaultSiteSpace: extra.id }, 200);
    let sections = await listAll(`${base}/sections`);
    expect(sections[0].siteSpaces.map((ss: Json) => [ss.id, ss.default])).toEqual([
      [first.siteSpaces[0].id, false],
      [extra.id, true],
    ]);
    expectError(await call("PATCH", base, { defaultSiteSpace: inSecond.id }), 400, "defaultSiteSpace: ");

    // PATCH section defaultSiteSpace: only its own site spaces.
    await must("PATCH", `${base}/sections/${second.id}`, { defaultSiteSpace: inSecond.id }, 200);
    expectError(await call("PATCH", `${base}/sections/${second.id}`, { defaultSiteSpace: extra.id }), 400, "defaultSiteSpace: ");

    // defaultSiteSection moves the default flag, and with it PATCH site defaultSiteSpace's target.
    await must("PATCH", base, { defaultSiteSection: second.id }, 200);
    sections = await listAll(`${base}/sections`);
    expect(sections.map((s: Json) => s.default)).toEqual([false, true, false]);
    await must("PATCH", base, { defaultSiteSpace: second.siteSpaces[0].id }, 200);
    const defaults = await listAll(`${base}/site-spaces?default=true`);
    expect(defaults.map((d: Json) => d.id).sort()).toEqual(
      [extra.id, second.siteSpaces[0].id, sections[2].siteSpaces[0].id].sort(),
    );

    // Deleting the default section deletes its site spaces and promotes another section.
    expect((await call("DELETE", `${base}/sections/${second.id}`)).status).toBe(205);
    sections = await listAll(`${base}/sections`);
    expect(sections.map((s: Json) => [s.id, s.default])).toEqual([
      [first.id, true],
      [sections[1].id, false],
    ]);
    const remaining = await listAll(`${base}/site-spaces`);
    expect(remaining.some((ss: Json) => ss.section === second.id)).toBe(false);
    expect(await getSite(site.id)).toMatchObject({ siteSpaces: remaining.length });

    // Deleting a section's default site space promotes the next one.
    expect((await call("DELETE", `${base}/site-spaces/${extra.id}`)).status).toBe(205);
    expect((await listAll(`${base}/sections`))[0].siteSpaces.map((ss: Json) => ss.default)).toEqual([true]);
  });

  it("site space PATCH changes path and space", async () => {
    const { base, section } = await siteWithSection();
    const ss = await must("PATCH", `${base}/site-spaces/${section.siteSpaces[0].id}`, { path: "v2", spaceId: space(4) }, 200);
    expect(ss).toMatchObject({ path: "v2", title: spaceTitle(4), space: { id: space(4) } });
    expectError(await call("PATCH", `${base}/site-spaces/${section.siteSpaces[0].id}`, { spaceId: "spc_nope" }), 400, "spaceId: ");
  });
});

// ------------------------------------------------------------------ site structure

describe("site structure", () => {
  /** GET .../structure as [type, id, children] trees, for order assertions. */
  type Tree = [string, string, Tree[]?];
  const treeOf = (n: Json): Tree =>
    n.object === "site-section-group" ? [n.object, n.id, n.children.map(treeOf)] : [n.object, n.id];
  async function structure(base: string): Promise<Tree[]> {
    const s = await must("GET", `${base}/structure`, undefined, 200);
    expect(s.type).toBe("sections");
    return s.structure.map(treeOf);
  }
  const sec = (id: string): Tree => ["site-section", id];
  const grp = (id: string, children: Tree[]): Tree => ["site-section-group", id, children];
  const lnk = (id: string): Tree => ["site-external-link", id];
  const sort = (base: string, item: [string, string], position: Record<string, [string, string]>) =>
    call("PATCH", `${base}/structure/sort`, {
      item: { type: item[0], id: item[1] },
      position: Object.fromEntries(Object.entries(position).map(([k, [type, id]]) => [k, { type, id }])),
    });

  /** A site with three sections A, B, C (created in that order). */
  async function siteWithThree() {
    const { site, base, section: a } = await siteWithSection();
    const b = await createSection(site.id, { spaceId: space(1) });
    const c = await createSection(site.id, { spaceId: space(2) });
    return { site, base, a, b, c };
  }

  it("a site without sections is a structure of site spaces; one with sections lists them in creation order", async () => {
    const site = await createSite({ spaces: [space(0), space(1)] });
    const base = `${org()}/sites/${site.id}`;
    const flat = await must("GET", `${base}/structure`, undefined, 200);
    expect(flat).toMatchObject({ type: "siteSpaces", structure: [{ object: "site-space", space: { id: space(0) } }, { object: "site-space", space: { id: space(1) } }] });
    const { base: other, a, b, c } = await siteWithThree();
    expect(await structure(other)).toEqual([sec(a.id), sec(b.id), sec(c.id)]);
    expectError(await call("GET", `${org()}/sites/site_nope/structure`), 404);
  });

  it("section groups hold sections, joined as the spec says: at the group's creation, the section's creation, or the section's update", async () => {
    const { site, base, a, b, c } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "Products", icon: "box", sections: [c.id, a.id] }, 201);
    expect(group).toMatchObject({
      object: "site-section-group",
      title: "Products",
      icon: "box",
      draft: false,
      sections: [{ id: c.id }, { id: a.id }],
      children: [{ object: "site-section", id: c.id, sectionGroup: group.id }, { id: a.id }],
    });
    expect(await structure(base)).toEqual([sec(b.id), grp(group.id, [sec(c.id), sec(a.id)])]);
    // Created in the group: last there.
    const d = await createSection(site.id, { spaceId: space(3), siteSectionGroupId: group.id });
    expect(d.sectionGroup).toBe(group.id);
    // Updated into the group (last there), and back to the top level with null (last there).
    expect(await must("PATCH", `${base}/sections/${b.id}`, { siteSectionGroupId: group.id }, 200)).toMatchObject({ sectionGroup: group.id });
    expect(await structure(base)).toEqual([grp(group.id, [sec(c.id), sec(a.id), sec(d.id), sec(b.id)])]);
    expect(await must("PATCH", `${base}/sections/${c.id}`, { siteSectionGroupId: null }, 200)).not.toHaveProperty("sectionGroup");
    expect(await structure(base)).toEqual([grp(group.id, [sec(a.id), sec(d.id), sec(b.id)]), sec(c.id)]);
    // Naming the group it is in already moves nothing.
    await must("PATCH", `${base}/sections/${a.id}`, { siteSectionGroupId: group.id }, 200);
    expect(await structure(base)).toEqual([grp(group.id, [sec(a.id), sec(d.id), sec(b.id)]), sec(c.id)]);
    // The list of sections follows the structure.
    expect((await listAll(`${base}/sections`)).map((s: Json) => s.id)).toEqual([a.id, d.id, b.id, c.id]);
    expectError(await call("PATCH", `${base}/sections/${a.id}`, { siteSectionGroupId: "sitesg_nope" }), 400, "siteSectionGroupId: ");
    expectError(await call("POST", `${base}/sections`, { spaceId: space(4), siteSectionGroupId: "sitesg_nope" }), 400, "siteSectionGroupId: ");
    expectError(await call("POST", `${base}/section-groups`, { title: "G", sections: ["sitesc_nope"] }), 400, "sections: ");

    const patched = await must("PATCH", `${base}/section-groups/${group.id}`, { title: "Areas", icon: null, draft: true }, 200);
    expect(patched).toMatchObject({ title: "Areas", draft: true });
    expect(patched).not.toHaveProperty("icon");
    expect((await listAll(`${base}/section-groups`)).map((g: Json) => [g.id, g.title])).toEqual([[group.id, "Areas"]]);
  });

  it("the routes GitBook does not have are gone: a section joins or leaves a group through the section", async () => {
    const { base, a } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "G" }, 201);
    expectContractViolation(/POST .*section-groups\/\S+\/sections: no operation of the spec has this path/);
    expectContractViolation(/DELETE .*section-groups\/\S+\/sections\/\S+: no operation of the spec has this path/);
    expect((await call("POST", `${base}/section-groups/${group.id}/sections`, { sectionId: a.id })).status).toBe(404);
    expect((await call("DELETE", `${base}/section-groups/${group.id}/sections/${a.id}`)).status).toBe(404);
  });

  it("deleting a group keeps what it held, in its place and order", async () => {
    const { base, a, b, c } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "G", sections: [b.id, a.id] }, 201);
    const link = await must("POST", `${base}/external-links`, { title: "Status", url: "https://status.acme.test", parent: group.id }, 201);
    expect((await sort(base, ["site-section", c.id], { before: ["site-section-group", group.id] })).status).toBe(200);
    expect(await structure(base)).toEqual([sec(c.id), grp(group.id, [sec(b.id), sec(a.id), lnk(link.id)])]);
    expect((await call("DELETE", `${base}/section-groups/${group.id}`)).status).toBe(205);
    expect(await structure(base)).toEqual([sec(c.id), sec(b.id), sec(a.id), lnk(link.id)]);
    expect((await listAll(`${base}/sections`)).every((s: Json) => s.sectionGroup === undefined)).toBe(true);
  });

  it("nests groups, and refuses to put a group inside itself", async () => {
    const { base, a } = await siteWithThree();
    const outer = await must("POST", `${base}/section-groups`, { title: "Outer" }, 201);
    const inner = await must("POST", `${base}/section-groups`, { title: "Inner", parent: outer.id, sections: [a.id], draft: true }, 201);
    expect(inner).toMatchObject({ sectionGroup: outer.id, draft: true });
    expect((await structure(base)).find((t) => t[1] === outer.id)).toEqual(grp(outer.id, [grp(inner.id, [sec(a.id)])]));
    expectError(await call("PATCH", `${base}/section-groups/${outer.id}`, { parentSectionGroupId: inner.id }), 400, "parentSectionGroupId: ");
    expectError(await call("PATCH", `${base}/section-groups/${outer.id}`, { parentSectionGroupId: outer.id }), 400, "parentSectionGroupId: ");
    expect(await must("PATCH", `${base}/section-groups/${inner.id}`, { parentSectionGroupId: null }, 200)).not.toHaveProperty("sectionGroup");
    expect((await structure(base)).at(-1)).toEqual(grp(inner.id, [sec(a.id)]));
  });

  it("external links: at the top level or in a group, never in a site without sections", async () => {
    const empty = await createSite();
    expectError(await call("POST", `${org()}/sites/${empty.id}/external-links`, { title: "Blog", url: "https://blog.acme.test" }), 400, "parent: ");
    const { base, a } = await siteWithThree();
    const link = await must("POST", `${base}/external-links`, { title: "Blog", url: "https://blog.acme.test", icon: "rss", condition: "visitor.claims.beta" }, 201);
    expect(link).toEqual({
      object: "site-external-link",
      id: expect.stringMatching(/^sitel_/),
      title: "Blog",
      url: "https://blog.acme.test",
      icon: "rss",
      draft: false,
      condition: "visitor.claims.beta",
    });
    const group = await must("POST", `${base}/section-groups`, { title: "More" }, 201);
    const moved = await must("PATCH", `${base}/external-links/${link.id}`, { parent: group.id, description: "News", icon: null, draft: true }, 200);
    expect(moved).toMatchObject({ sectionGroup: group.id, description: "News", draft: true });
    expect(moved).not.toHaveProperty("icon");
    expect((await structure(base)).at(-1)).toEqual(grp(group.id, [lnk(link.id)]));
    const back = await must("PATCH", `${base}/external-links/${link.id}`, { parent: null, condition: null, url: "https://acme.test/blog" }, 200);
    expect(back).not.toHaveProperty("sectionGroup");
    expect(back).not.toHaveProperty("condition");
    expect(back.url).toBe("https://acme.test/blog");
    expect((await structure(base)).slice(0, 1)).toEqual([sec(a.id)]);
    expect((await structure(base)).at(-1)).toEqual(lnk(link.id));

    expectContractViolation(/addExternalLinkToSite request body \/title: is required/);
    expectContractViolation(/addExternalLinkToSite request body \/url: is required/);
    expectError(await call("POST", `${base}/external-links`, { url: "https://blog.acme.test" }), 400, "title: is required");
    expectError(await call("POST", `${base}/external-links`, { title: "Blog" }), 400, "url: is required");
    expectError(await call("POST", `${base}/external-links`, { title: "Blog", url: "https://x.test", parent: "sitesg_nope" }), 400, "parent: ");
    expectError(await call("PATCH", `${base}/external-links/sitel_nope`, { title: "Blog" }), 404);
    expect((await call("DELETE", `${base}/external-links/${link.id}`)).status).toBe(205);
    expect((await call("DELETE", `${base}/external-links/${link.id}`)).status).toBe(204);
    expect((await structure(base)).some((t) => t[1] === link.id)).toBe(false);
  });

  it("external links and section groups keep to GitBook's limits", async () => {
    const { base } = await siteWithThree();
    const link = await must("POST", `${base}/external-links`, { title: "Bl", url: `https://a.test/${"x".repeat(2048 - 15)}`, description: "d".repeat(256), icon: "i".repeat(50) }, 201);
    const group = await must("POST", `${base}/section-groups`, { title: "g".repeat(100) }, 201);
    await must("PATCH", `${base}/section-groups/${group.id}`, { title: "G" }, 200);
    // Each refused by the spec too: [operation, method, path, body, field, message].
    const bad: [string, string, string, unknown, string, string][] = [
      ["addExternalLinkToSite", "POST", `${base}/external-links`, { title: "B", url: "https://a.test" }, "title", "must be 2 to 128 characters"],
      ["addExternalLinkToSite", "POST", `${base}/external-links`, { title: "t".repeat(129), url: "https://a.test" }, "title", "must be 2 to 128 characters"],
      ["addExternalLinkToSite", "POST", `${base}/external-links`, { title: "Blog", url: `https://a.test/${"x".repeat(2048 - 14)}` }, "url", "must be at most 2048 characters"],
      ["updateSiteExternalLinkById", "PATCH", `${base}/external-links/${link.id}`, { description: "d".repeat(257) }, "description", "must be at most 256 characters"],
      ["updateSiteExternalLinkById", "PATCH", `${base}/external-links/${link.id}`, { icon: "i".repeat(51) }, "icon", "must be at most 50 characters"],
      ["addSectionGroupToSite", "POST", `${base}/section-groups`, { title: "" }, "title", "must be 1 to 100 characters"],
      ["updateSiteSectionGroupById", "PATCH", `${base}/section-groups/${group.id}`, { title: "g".repeat(101) }, "title", "must be 1 to 100 characters"],
    ];
    for (const [operation, method, path, body, field, message] of bad) {
      expectContractViolation(new RegExp(`${operation} request body /${field}`));
      expectError(await call(method, path, body), 400, `${field}: ${message}`);
    }
    // A URI the schema takes, but GitBook says a link's destination must be an absolute http(s) URL.
    expectError(await call("PATCH", `${base}/external-links/${link.id}`, { url: "ftp://a.test" }), 400, "url: must be a valid absolute http(s) URL");
    expectError(await call("POST", `${base}/external-links`, { title: "Blog", url: "mailto:blog@acme.test" }), 400, "url: must be a valid absolute http(s) URL");
  });

  it("sorts an item before or after a sibling, and every list follows", async () => {
    const { site, base, a, b, c } = await siteWithThree();
    const link = await must("POST", `${base}/external-links`, { title: "Blog", url: "https://blog.acme.test" }, 201);
    const moved = await sort(base, ["site-section", c.id], { before: ["site-section", a.id] });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ object: "site-section", id: c.id });
    expect((await sort(base, ["site-external-link", link.id], { after: ["site-section", c.id] })).body).toMatchObject({ object: "site-external-link" });
    expect(await structure(base)).toEqual([sec(c.id), lnk(link.id), sec(a.id), sec(b.id)]);
    expect((await listAll(`${base}/sections`)).map((s: Json) => s.id)).toEqual([c.id, a.id, b.id]);
    // Before itself: nothing moves.
    expect((await sort(base, ["site-section", a.id], { before: ["site-section", a.id] })).status).toBe(200);
    expect(await structure(base)).toEqual([sec(c.id), lnk(link.id), sec(a.id), sec(b.id)]);

    // Site spaces within their section; the section's list of site spaces and the site's follow.
    const extra = await must("POST", `${base}/site-spaces`, { spaceId: space(4), sectionId: a.id }, 201);
    const own = a.siteSpaces[0].id;
    expect((await sort(base, ["site-space", extra.id], { before: ["site-space", own] })).body).toMatchObject({ object: "site-space", id: extra.id });
    const sections = await listAll(`${base}/sections`);
    expect(sections.find((s: Json) => s.id === a.id).siteSpaces.map((ss: Json) => ss.id)).toEqual([extra.id, own]);
    expect((await listAll(`${base}/site-spaces`)).map((ss: Json) => ss.id)).toEqual([c.siteSpaces[0].id, extra.id, own, b.siteSpaces[0].id]);
    const full = await must("GET", `${base}/structure`, undefined, 200);
    expect(full.structure[2].siteSpaces.map((ss: Json) => ss.id)).toEqual([extra.id, own]);
    // The default site space is the section's pointer, whatever the order.
    expect(sections.find((s: Json) => s.id === a.id).siteSpaces.map((ss: Json) => ss.default)).toEqual([false, true]);
    expect(await getSite(site.id)).toMatchObject({ siteSpaces: 4 });
  });

  it("sorts within a group only, and says how to move between containers", async () => {
    const { base, a, b, c } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "G", sections: [a.id, b.id] }, 201);
    expect((await sort(base, ["site-section", b.id], { before: ["site-section", a.id] })).status).toBe(200);
    expect(await structure(base)).toEqual([sec(c.id), grp(group.id, [sec(b.id), sec(a.id)])]);
    const notSibling = await sort(base, ["site-section", c.id], { after: ["site-section", a.id] });
    expectError(notSibling, 400, "position.after: ");
    expect(notSibling.body.error.message).toContain("sibling");
    expectError(await sort(base, ["site-section", "sitesc_nope"], { after: ["site-section", a.id] }), 400, "item: ");
    expectError(await sort(base, ["site-section-group", a.id], { after: ["site-section", c.id] }), 400, "item: ");
    expectError(await sort(base, ["site-section", c.id], { after: ["site-section", "sitesc_nope"] }), 400, "position.after: ");
    expectError(await call("PATCH", `${base}/structure/sort`, { item: { type: "site-section", id: c.id }, position: {} }), 400, "position: ");
    expectError(
      await call("PATCH", `${base}/structure/sort`, {
        item: { type: "site-section", id: c.id },
        position: { before: { type: "site-section-group", id: group.id }, after: { type: "site-section-group", id: group.id } },
      }),
      400,
      "position: ",
    );
    expectContractViolation(/sortSiteStructure request body \/item: must have required property 'type'|sortSiteStructure request body \/item\/type/);
    expectError(await call("PATCH", `${base}/structure/sort`, { item: { id: c.id }, position: {} }), 400, "item.type: is required");
    expect(await structure(base)).toEqual([sec(c.id), grp(group.id, [sec(b.id), sec(a.id)])]);
  });

  it("pages through sections in structure order", async () => {
    const { base, a, b, c } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "G", sections: [a.id] }, 201);
    await sort(base, ["site-section-group", group.id], { after: ["site-section", c.id] });
    const p1 = await must("GET", `${base}/sections?limit=2`, undefined, 200);
    expect(p1.items.map((s: Json) => s.id)).toEqual([b.id, c.id]);
    const p2 = await must("GET", `${base}/sections?limit=2&page=${p1.next.page}`, undefined, 200);
    expect(p2.items.map((s: Json) => s.id)).toEqual([a.id]);
    expect(p2).not.toHaveProperty("next");
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

// ------------------------------------------------------------------ DELETE

describe("idempotent DELETE", () => {
  it("answers 205 when something was deleted and 204 when it was already gone, everywhere", async () => {
    const { site, base, section } = await siteWithSection();
    const ss = await must("POST", `${base}/site-spaces`, { spaceId: space(1) }, 201);
    const link = await must("POST", `${base}/share-links`, { name: "L" }, 201);
    const group = await must("POST", `${base}/section-groups`, { title: "G" }, 201);
    const team = await must("PUT", `${org()}/teams`, { title: "T", members: [emu.seeded.members[1]!.id] }, 201);
    const saml = await must("POST", `${org()}/saml`, { label: "Okta" }, 201);
    await must("POST", `${org()}/openapi`, { slug: "petstore", source: { text: "openapi: 3.0.0" } }, 201);

    const paths = [
      `${base}/site-spaces/${ss.id}`,
      `${base}/share-links/${link.id}`,
      `${base}/section-groups/${group.id}`,
      `${base}/sections/${section.id}`,
      base,
      `${org()}/teams/${team.id}/members/${emu.seeded.members[1]!.id}`,
      `${org()}/teams/${team.id}`,
      `${org()}/saml/${saml.id}`,
      `${org()}/openapi/petstore`,
    ];
    for (const p of paths) {
      const first = await call("DELETE", p);
      expect(first.status, p).toBe(205);
      expect(first.body).toBeUndefined();
      expect((await call("DELETE", p)).status, p).toBe(204);
    }
    expect((await call("GET", base)).status).toBe(404);
    // Children of a deleted site are gone too, and deleting them afterwards is a no-op.
    expect([...emu.store.sections.values()].filter((s) => s.siteId === site.id)).toEqual([]);
    expect((await call("DELETE", `${base}/sections/${section.id}`)).status).toBe(204);
    // An unknown organization is still an error.
    expectError(await call("DELETE", `/v1/orgs/org_nope/sites/${site.id}`), 404);
  });

  it("deleting a site removes its sections, site spaces and share links", async () => {
    const { site, base } = await siteWithSection();
    await must("POST", `${base}/share-links`, { name: "L" }, 201);
    expect((await call("DELETE", base)).status).toBe(205);
    const left = [...emu.store.siteSpaces.values(), ...emu.store.shareLinks.values(), ...emu.store.sections.values()].filter(
      (r) => r.siteId === site.id,
    );
    expect(left).toEqual([]);
  });
});

// ------------------------------------------------------------------ pagination

describe("pagination", () => {
  it("walks every page with opaque cursors, in creation order", async () => {
    const titles = Array.from({ length: 7 }, (_, i) => `Team ${i + 1}`);
    for (const title of titles) await must("PUT", `${org()}/teams`, { title }, 201);

    const seen: string[] = [];
    let page: string | undefined;
    const sizes: number[] = [];
    do {
      const r = await must("GET", `${org()}/teams?limit=3${page ? `&page=${encodeURIComponent(page)}` : ""}`, undefined, 200);
      expect(r.count).toBe(7);
      sizes.push(r.items.length);
      seen.push(...r.items.map((t: Json) => t.title));
      page = r.next?.page;
      if (page !== undefined) expect(typeof page).toBe("string");
    } while (page !== undefined);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(titles);

    const all = await must("GET", `${org()}/teams`, undefined, 200);
    expect(all.items).toHaveLength(7);
    expect(all).not.toHaveProperty("next");
    expect((await must("GET", `${org()}/teams?limit=1000`, undefined, 200)).items).toHaveLength(7);
    const exact = await must("GET", `${org()}/teams?limit=7`, undefined, 200);
    expect(exact).not.toHaveProperty("next");
  });

  it("is stable when items are deleted between pages", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await must("PUT", `${org()}/teams`, { title: `T${i}` }, 201)).id);
    const p1 = await must("GET", `${org()}/teams?limit=2`, undefined, 200);
    await call("DELETE", `${org()}/teams/${ids[1]}`);
    await call("DELETE", `${org()}/teams/${ids[2]}`);
    const p2 = await must("GET", `${org()}/teams?limit=2&page=${p1.next.page}`, undefined, 200);
    expect(p2.items.map((t: Json) => t.id)).toEqual([ids[3], ids[4]]);
    expect(p2).not.toHaveProperty("next");
  });

  it("defaults to 50 and rejects limits outside 1..1000 and foreign page tokens", async () => {
    for (let i = 0; i < 51; i++) await must("PUT", `${org()}/teams`, { title: `T${i}` }, 201);
    const first = await must("GET", `${org()}/teams`, undefined, 200);
    expect(first.items).toHaveLength(50);
    expect(first.count).toBe(51);
    expect(first.next.page).toEqual(expect.any(String));
    // The spec's limit is a number from 0 to 1000; GitBook refuses 0 as well (LIST_LIMIT).
    expectContractViolation(/listTeamsInOrganizationById query \/limit: must be <= 1000/);
    expectContractViolation(/listTeamsInOrganizationById query \/limit: must be >= 0/);
    expectContractViolation(/listTeamsInOrganizationById query \/limit: must be number/);
    for (const limit of ["1001", "0", "-1", "abc", ""]) {
      expectError(await call("GET", `${org()}/teams?limit=${limit}`), 400, "limit: ");
    }
    // A fraction is a number: whole items are served.
    expect((await must("GET", `${org()}/teams?limit=2.5`, undefined, 200)).items).toHaveLength(2);
    expect((await call("GET", `${org()}/teams?limit=1000`)).status).toBe(200);
    expectError(await call("GET", `${org()}/teams?page=not-a-token`), 400, "page: ");
  });

  it("every list route uses the envelope", async () => {
    const { base } = await siteWithSection();
    const team = await must("PUT", `${org()}/teams`, { title: "T", members: [emu.seeded.members[0]!.id] }, 201);
    await must("POST", `${org()}/openapi`, { slug: "s", source: { text: "swagger: '2.0'" } }, 201);
    const lists = [
      "/v1/orgs",
      `${org()}/members`,
      `${org()}/sites`,
      `${base}/sections`,
      `${base}/section-groups`,
      `${base}/site-spaces`,
      `${base}/share-links`,
      `${org()}/teams`,
      `${org()}/teams/${team.id}/members`,
      `${org()}/saml`,
      `${org()}/openapi`,
      `${org()}/openapi/s/versions`,
    ];
    expectContractViolation(/query \/limit: must be <= 1000/);
    for (const path of lists) {
      const r = await must("GET", `${path}?limit=1`, undefined, 200);
      expect(Object.keys(r).sort(), path).toEqual(r.next ? ["count", "items", "next"] : ["count", "items"]);
      expect(r.items.length, path).toBeLessThanOrEqual(1);
      expectError(await call("GET", `${path}?limit=1001`), 400, "limit: ");
    }
  });
});

// ------------------------------------------------------------------ faults

describe("faults", () => {
  it("adds latency to matching requests only, within `times`", async () => {
    const h = emu.faults.add({ match: { route: "/v1/orgs" }, latencyMs: 60, times: 1 });
    expect((await call("GET", "/v1/orgs")).status).toBe(200);
    expect((await call("GET", "/v1/orgs")).status).toBe(200);
    expect((await call("GET", org())).status).toBe(200);
    expect(h.hits).toBe(1);
    expect(emu.log.entries[0]!.ms).toBeGreaterThanOrEqual(55);
  });

  async function failurePattern(seed: number, rate: number, n: number, status?: 500 | 502 | 503 | 504): Promise<number[]> {
    const e = await Emulator.start({ seed });
    try {
      e.faults.add({ match: { method: "GET", route: "/v1/orgs/:org" }, errorRate: rate, ...(status && { status }) });
      const failed: number[] = [];
      for (let i = 0; i < n; i++) {
        const r = await call("GET", `/v1/orgs/${e.seeded.organizationId}`, undefined, e.token, e);
        if (r.status !== 200) {
          expectError(r, status ?? 503);
          failed.push(i);
        }
      }
      // Non-matching routes are never failed.
      expect((await call("GET", "/v1/orgs", undefined, e.token, e)).status).toBe(200);
      return failed;
    } finally {
      await e.close();
    }
  }

  it("errorRate fails exactly that fraction, deterministically per seed", async () => {
    const a = await failurePattern(42, 0.3, 100);
    expect(a).toHaveLength(30);
    expect(await failurePattern(42, 0.3, 100)).toEqual(a);
    const b = await failurePattern(7, 0.3, 100, 502);
    expect(b).toHaveLength(30);
    expect(b).not.toEqual(a);
    // Failures are spread, not the first 30.
    expect(a).not.toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("errorRate requests are not processed, and `times` caps the failures", async () => {
    emu.faults.add({ match: { method: "PUT", route: "/v1/orgs/:org/teams" }, errorRate: 1, status: 500, times: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call("PUT", `${org()}/teams`, { title: `T${i}` })).status);
    expect(statuses).toEqual([500, 500, 500, 201, 201]);
    expect(emu.store.teams.size).toBe(2);
  });

  it("rateLimit answers a burst of 429s with X-RateLimit-* and Retry-After headers", async () => {
    emu.faults.add({ match: { route: /\/sites$/ }, rateLimit: { burst: 2, resetInSeconds: 30, retryAfterSeconds: 7 } });
    const before = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 2; i++) {
      const r = await call("POST", `${org()}/sites`, { title: "Limited" });
      expectError(r, 429);
      expect(Number(r.headers.get("x-ratelimit-limit"))).toBeGreaterThan(0);
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
      const reset = Number(r.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(before + 30);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 31);
      expect(r.headers.get("retry-after")).toBe("7");
    }
    expect(emu.store.sites.size).toBe(0);
    expect((await call("POST", `${org()}/sites`, { title: "Limited" })).status).toBe(201);

    emu.faults.add({ rateLimit: { burst: 1 } });
    const r = await call("GET", "/v1/orgs");
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBeNull();
    expect(r.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    expect((await call("GET", "/v1/orgs")).status).toBe(200);
  });

  it("dropAfterProcess performs the write but resets the connection", async () => {
    emu.faults.add({ match: { method: "PUT", route: "/v1/orgs/:org/teams" }, dropAfterProcess: true, times: 1 });
    await expect(call("PUT", `${org()}/teams`, { title: "Ghost team" })).rejects.toThrow();
    const teams = await listAll(`${org()}/teams`);
    expect(teams.map((t: Json) => t.title)).toEqual(["Ghost team"]);
    expect(emu.log.entries[0]).toMatchObject({ method: "PUT", route: "/v1/orgs/:org/teams", status: 0 });
    // `times: 1`: the next write answers normally.
    expect((await call("PUT", `${org()}/teams`, { title: "Second" })).status).toBe(201);
  });

  it("dropBeforeProcess resets the connection without doing anything", async () => {
    const site = await createSite();
    const h = emu.faults.add({ match: { method: "POST", route: /share-links/ }, dropBeforeProcess: true });
    await expect(call("POST", `${org()}/sites/${site.id}/share-links`, { name: "Never" })).rejects.toThrow();
    await expect(call("POST", `${org()}/sites/${site.id}/share-links`, { name: "Never" })).rejects.toThrow();
    expect(emu.store.shareLinks.size).toBe(0);
    expect(emu.log.count({ method: "POST", route: "/v1/orgs/:org/sites/:site/share-links" })).toBe(2);
    expect(emu.log.entries.filter((e) => e.status === 0)).toHaveLength(2);
    h.remove();
    expect((await call("POST", `${org()}/sites/${site.id}/share-links`, { name: "Now" })).status).toBe(201);
  });

  it("clear() removes every fault; a fault needs exactly one kind", async () => {
    emu.faults.add({ errorRate: 1 });
    emu.faults.add({ latencyMs: 1 });
    expect(emu.faults.list()).toHaveLength(2);
    emu.faults.clear();
    expect(emu.faults.list()).toHaveLength(0);
    expect((await call("GET", "/v1/orgs")).status).toBe(200);
    expect(() => emu.faults.add({ match: {} } as never)).toThrow();
    expect(() => emu.faults.add({ latencyMs: 1, dropAfterProcess: true } as never)).toThrow();
  });
});

// ------------------------------------------------------------------ OpenAPI

describe("OpenAPI specs", () => {
  const spec = (slug: string) => `${org()}/openapi/${slug}`;

  it("goes pending -> complete after one GET, with versions", async () => {
    const created = await must("POST", `${org()}/openapi`, { slug: "petstore", source: { text: "openapi: 3.1.0\ninfo: {}" } }, 201);
    expect(created).toMatchObject({ object: "openapi-spec", slug: "petstore", processingState: "pending", visibility: "private" });
    for (const key of ["lastVersion", "lastProcessedAt", "lastProcessErrorCode", "sourceURL"]) expect(created).not.toHaveProperty(key);

    expect((await must("GET", spec("petstore"), undefined, 200)).processingState).toBe("pending");
    const done = await must("GET", spec("petstore"), undefined, 200);
    expect(done).toMatchObject({ processingState: "complete", lastVersion: expect.any(String), lastProcessedAt: expect.any(String) });
    expect((await must("GET", `${spec("petstore")}/versions/latest`, undefined, 200)).id).toBe(done.lastVersion);

    expectError(await call("POST", `${org()}/openapi`, { slug: "petstore", source: { text: "openapi" } }), 409, "slug: ");

    const put = await must("PUT", spec("petstore"), { source: { url: "https://specs.acme.test/petstore.yaml" } }, 200);
    expect(put).toMatchObject({ processingState: "pending", sourceURL: "https://specs.acme.test/petstore.yaml", lastVersion: done.lastVersion });
    await must("GET", spec("petstore"), undefined, 200);
    const again = await must("GET", spec("petstore"), undefined, 200);
    expect(again.processingState).toBe("complete");
    expect(again.lastVersion).not.toBe(done.lastVersion);
    const versions = await listAll(`${spec("petstore")}/versions`);
    expect(versions.map((v: Json) => v.id)).toEqual([done.lastVersion, again.lastVersion]);
    expect(versions[1]).toMatchObject({ object: "openapi-spec-version", url: "https://specs.acme.test/petstore.yaml" });
    expect((await must("GET", `${spec("petstore")}/versions/${done.lastVersion}`, undefined, 200)).id).toBe(done.lastVersion);

    expect((await must("PATCH", spec("petstore"), { visibility: "public" }, 200)).visibility).toBe("public");
    expectContractViolation(/updateOpenAPISpecBySlug request body \/visibility: must be one of "private", "public"/);
    expectError(await call("PATCH", spec("petstore"), { visibility: "internal" }), 400, "visibility: ");

    // PUT on an unknown slug creates it, and says so with a 201.
    expect((await must("PUT", spec("fresh"), { source: { text: "swagger: '2.0'" } }, 201)).processingState).toBe("pending");
    expectError(await call("PUT", spec("Bad_Slug"), { source: { text: "openapi" } }), 400, "slug: ");
  });

  it("completes with PARSE_ERROR for bad text and FETCH_ERROR for a URL it cannot fetch, keeping the last version", async () => {
    await must("POST", `${org()}/openapi`, { slug: "text", source: { text: "just some prose" } }, 201);
    await must("POST", `${org()}/openapi`, { slug: "url", source: { url: "https://invalid.example/openapi.json" } }, 201);
    await must("POST", `${org()}/openapi`, { slug: "ftp", source: { url: "ftp://specs.acme.test/openapi.yaml" } }, 201);
    for (const [slug, code] of [
      ["text", "PARSE_ERROR"],
      ["url", "FETCH_ERROR"],
      ["ftp", "FETCH_ERROR"],
    ] as const) {
      await must("GET", spec(slug), undefined, 200);
      const failed = await must("GET", spec(slug), undefined, 200);
      // The spec has no failed state: processing is over, and the code says it failed.
      expect(failed).toMatchObject({ processingState: "complete", lastProcessErrorCode: code, lastProcessedErrorCount: 1, lastProcessedErrors: [{ message: expect.any(String) }] });
      expect(failed).not.toHaveProperty("lastVersion");
      expectError(await call("GET", `${spec(slug)}/versions/latest`), 404);
    }
    // A new source clears the error and processes again.
    const retried = await must("PUT", spec("text"), { source: { text: "openapi: 3.0.3" } }, 200);
    expect(retried).toMatchObject({ processingState: "pending", lastProcessedErrorCount: 0 });
    expect(retried).not.toHaveProperty("lastProcessErrorCode");
    await must("GET", spec("text"), undefined, 200);
    const done = await must("GET", spec("text"), undefined, 200);
    expect(done).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
    // A later failure leaves that version as the last one.
    await must("PUT", spec("text"), { source: { text: "prose again" } }, 200);
    await must("GET", spec("text"), undefined, 200);
    expect(await must("GET", spec("text"), undefined, 200)).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR", lastVersion: done.lastVersion });
  });

  it("serves a version's content with its source URL, public only while the spec is", async () => {
    await must("POST", `${org()}/openapi`, { slug: "petstore", source: { url: "https://specs.acme.test/petstore.yaml" } }, 201);
    await must("GET", spec("petstore"), undefined, 200);
    await must("GET", spec("petstore"), undefined, 200);
    expect(await must("GET", `${spec("petstore")}/versions/latest/content`, undefined, 200)).toEqual({
      filesystem: {},
      urls: { source: "https://specs.acme.test/petstore.yaml", public: null },
    });
    await must("PATCH", spec("petstore"), { visibility: "public" }, 200);
    expect((await must("GET", `${spec("petstore")}/versions/latest/content`, undefined, 200)).urls.public).toBe("https://specs.acme.test/petstore.yaml");
  });

  it("honours openApiProcessingReads, including 0 and Infinity, and the per-spec freeze", async () => {
    const states = async (e: Emulator, slug: string, n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push((await call("GET", `/v1/orgs/${e.seeded.organizationId}/openapi/${slug}`, undefined, e.token, e)).body.processingState);
      return out;
    };
    for (const [reads, expected] of [
      [0, ["complete", "complete"]],
      [3, ["pending", "pending", "pending", "complete", "complete"]],
      [Infinity, Array(20).fill("pending")],
    ] as const) {
      const e = await Emulator.start({ openApiProcessingReads: reads });
      try {
        await call("POST", `/v1/orgs/${e.seeded.organizationId}/openapi`, { slug: "s", source: { text: "openapi" } }, e.token, e);
        expect(await states(e, "s", expected.length)).toEqual(expected);
      } finally {
        await e.close();
      }
    }

    await must("POST", `${org()}/openapi`, { slug: "frozen", source: { text: "openapi" } }, 201);
    emu.store.findOpenApiSpec(emu.seeded.organizationId, "frozen")!.frozen = true;
    expect(await states(emu, "frozen", 5)).toEqual(Array(5).fill("pending"));
    // Reads while frozen do not count: after thawing, the default single pending read still applies.
    emu.store.findOpenApiSpec(emu.seeded.organizationId, "frozen")!.frozen = false;
    expect(await states(emu, "frozen", 2)).toEqual(["pending", "complete"]);
  });
});

// ------------------------------------------------------------------ teams

describe("teams", () => {
  const members = () => emu.seeded.members;
  const memberList = async (teamId: string) =>
    (await listAll(`${org()}/teams/${teamId}/members`)).map((m: Json) => [m.organization.user.email, m.team.role]);

  it("creates teams with members and manages membership by id and e-mail", async () => {
    const [ada, grace, alan, katherine] = members();
    const team = await must("PUT", `${org()}/teams`, { title: "Writers", members: [ada!.id] }, 201);
    expect(team).toMatchObject({ object: "team", title: "Writers", members: 1, spaces: 0, permissions: { admin: true, view: true } });
    const items = await listAll(`${org()}/teams/${team.id}/members`);
    expect(items[0]).toMatchObject({ organization: { object: "member", id: ada!.id, role: "admin" }, team: { role: "member" }, permissions: { view: true } });

    const t = `${org()}/teams/${team.id}/members`;
    const r = await call("PUT", t, { add: [grace!.email.toUpperCase(), alan!.id], memberships: { [grace!.email]: { role: "owner" } } });
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect(await memberList(team.id)).toEqual([
      [ada!.email, "member"],
      [grace!.email, "owner"],
      [alan!.email, "member"],
    ]);

    // A user both added and removed ends up removed; memberships also updates existing members.
    await must("PUT", t, { add: [katherine!.email], remove: [katherine!.id, alan!.email], memberships: { [ada!.id]: { role: "owner" } } }, 204);
    expect(await memberList(team.id)).toEqual([
      [ada!.email, "owner"],
      [grace!.email, "owner"],
    ]);

    // Unknown users are named in the 400, and nothing changes.
    expectError(await call("PUT", t, { add: [alan!.id, "ghost@acme.test"] }), 400, 'add: unknown user "ghost@acme.test"');
    expectError(await call("PUT", t, { remove: ["usr_ghost"] }), 400, 'remove: unknown user "usr_ghost"');
    expectContractViolation(/updateMembersInOrganizationTeam request body \/memberships\/[^/]+\/role: must be one of "owner", "member"/);
    expectError(await call("PUT", t, { memberships: { [ada!.id]: { role: "boss" } } }), 400, `memberships.${ada!.id}.role: `);
    expect((await memberList(team.id)).length).toBe(2);

    // Single-member routes.
    expect((await call("PUT", `${t}/${alan!.id}`, { role: "owner" })).status).toBe(204);
    expect((await call("PUT", `${t}/${grace!.id}`, {})).status).toBe(204);
    expect(await memberList(team.id)).toEqual([
      [ada!.email, "owner"],
      [grace!.email, "owner"],
      [alan!.email, "owner"],
    ]);
    expect((await call("PUT", `${t}/${alan!.id}`, { role: "member" })).status).toBe(204);
    expect((await call("DELETE", `${t}/${grace!.id}`)).status).toBe(205);
    expect((await call("DELETE", `${t}/${grace!.id}`)).status).toBe(204);
    expect(await memberList(team.id)).toEqual([
      [ada!.email, "owner"],
      [alan!.email, "member"],
    ]);
    expect((await must("GET", `${org()}/teams/${team.id}`, undefined, 200)).members).toBe(2);
    expect((await must("GET", `${org()}/members/${alan!.id}`, undefined, 200)).teams).toBe(1);
  });

  it("renames, filters and lists members of the organization", async () => {
    const team = await must("PUT", `${org()}/teams`, { title: "Writers" }, 201);
    await must("PUT", `${org()}/teams`, { title: "Reviewers" }, 201);
    expect((await must("PATCH", `${org()}/teams/${team.id}`, { title: "Authors" }, 200)).title).toBe("Authors");
    expect((await listAll(`${org()}/teams?title=AUTH`)).map((x: Json) => x.title)).toEqual(["Authors"]);
    await must("PUT", `${org()}/teams/${team.id}/members/${members()[0]!.id}`, { role: "owner" }, 204);
    expect((await listAll(`${org()}/teams?owner=${members()[0]!.id}`)).map((x: Json) => x.id)).toEqual([team.id]);

    const all = await listAll(`${org()}/members`);
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.filter((m: Json) => m.role === "admin")).toHaveLength(1);
    expect(all.every((m: Json) => m.object === "member" && m.user.email.includes("@"))).toBe(true);
    expect((await listAll(`${org()}/members?search=hopper`)).map((m: Json) => m.id)).toEqual([members()[1]!.id]);
    expect((await listAll(`${org()}/members?search=ALAN@`)).map((m: Json) => m.id)).toEqual([members()[2]!.id]);
    expect((await must("GET", `/v1/spaces/${space(1)}`, undefined, 200))).toMatchObject({ object: "space", title: "API reference", organization: emu.seeded.organizationId });
    expect(emu.seeded.spaceIds.length).toBeGreaterThanOrEqual(5);
  });
});

// ------------------------------------------------------------------ SAML

describe("SAML providers", () => {
  it("is pending until entityID, certificate and ssoURL are set", async () => {
    const team = await must("PUT", `${org()}/teams`, { title: "Everyone" }, 201);
    const p = await must("POST", `${org()}/saml`, { label: "Okta", defaultTeam: team.id }, 201);
    expect(p).toMatchObject({
      object: "saml-provider",
      label: "Okta",
      status: "pending",
      // Every provider object carries the three; one created without them has them empty (ssoURL, a URI: about:blank).
      entityID: "",
      certificate: "",
      ssoURL: "about:blank",
      defaultRole: null,
      defaultTeam: { object: "team", id: team.id },
      service: {
        acsURL: `https://app.gitbook.com/saml/${p.id}/acs`,
        startURL: expect.stringContaining(p.id),
        entityID: expect.stringContaining(p.id),
      },
      urls: { location: `${emu.url}${org()}/saml/${p.id}` },
    });
    const active = await must(
      "PATCH",
      `${org()}/saml/${p.id}`,
      { entityID: "urn:okta:acme", certificate: "MIIC...", ssoURL: "https://acme.okta.test/sso", defaultRole: "read" },
      200,
    );
    expect(active).toMatchObject({ status: "active", entityID: "urn:okta:acme", defaultRole: "read", label: "Okta" });
    // An empty entityID (or certificate) is a value the spec allows: the provider is incomplete again.
    const emptied = await must("PATCH", `${org()}/saml/${p.id}`, { entityID: "", defaultRole: null }, 200);
    expect(emptied).toMatchObject({ status: "pending", entityID: "", defaultRole: null, ssoURL: "https://acme.okta.test/sso" });
    // Nothing takes null but defaultRole; an empty defaultTeam names no team.
    expectContractViolation(/updateOrganizationSAMLProvider request body \/ssoURL: must be string \(got null\)/);
    expectContractViolation(/updateOrganizationSAMLProvider request body \/defaultTeam: must be string \(got null\)/);
    expectError(await call("PATCH", `${org()}/saml/${p.id}`, { ssoURL: null }), 400, "ssoURL: ");
    expectError(await call("PATCH", `${org()}/saml/${p.id}`, { defaultTeam: null }), 400, "defaultTeam: ");
    expectError(await call("PATCH", `${org()}/saml/${p.id}`, { defaultTeam: "" }), 400, "defaultTeam: ");
    expect((await must("GET", `${org()}/saml/${p.id}`, undefined, 200)).defaultTeam).toMatchObject({ id: team.id });

    expect(await must("GET", `${org()}/sso`, undefined, 200)).toEqual({ items: [{ id: p.id, label: "Okta", startURL: p.service.startURL }] });
  });
});

// ------------------------------------------------------------------ request log

describe("request log", () => {
  it("records every request with its route template", async () => {
    const site = await createSite();
    await createSection(site.id, { spaceId: space(0) });
    await createSection(site.id, { spaceId: space(1) });
    await call("GET", `${org()}/sites/${site.id}/sections`);
    expectContractViolation(/GET \/v1\/nowhere: no operation of the spec has this path/);
    await call("GET", "/v1/nowhere");
    await call("GET", "/v1/orgs", undefined, null);

    const log = emu.log;
    expect(log.count()).toBe(6);
    expect(log.count({ method: "post" })).toBe(3);
    expect(log.count({ route: "/v1/orgs/:org/sites/:site/sections" })).toBe(3);
    expect(log.count({ method: "GET", route: /sections$/ })).toBe(1);
    expect(log.writes()).toBe(3);
    expect(log.byRoute()).toEqual({
      "POST /v1/orgs/:org/sites": 1,
      "POST /v1/orgs/:org/sites/:site/sections": 2,
      "GET /v1/orgs/:org/sites/:site/sections": 1,
      "GET *": 1,
      "GET /v1/orgs": 1,
    });
    expect(log.entries.map((e) => e.status)).toEqual([201, 201, 201, 200, 404, 401]);
    expect(log.entries[0]!.path).toBe(`${org()}/sites`);
    expect(log.entries.every((e) => e.ms >= 0)).toBe(true);
    log.reset();
    expect(log.count()).toBe(0);
    expect(log.byRoute()).toEqual({});
  });

  it("ids are unique and never reused", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const t = await must("PUT", `${org()}/teams`, { title: `T${i}` }, 201);
      ids.add(t.id);
      await call("DELETE", `${org()}/teams/${t.id}`);
    }
    expect(ids.size).toBe(20);
  });
});
