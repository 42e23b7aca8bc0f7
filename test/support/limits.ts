/**
 * Every row of the API's Limits table that applies to these resources, as one bad field in otherwise
 * valid arguments. test/unit/limits.test.ts checks each row at the provider's check, in process; that a
 * check failure of a nested field fails up at check under its dotted path with no request is
 * test/lifecycle/state.test.ts's, through the CLI (issue 40: one run, of source.file).
 *
 * Rows that do not apply: `limit` on list endpoints (the client always asks for the maximum, 1000),
 * Site `hostname` (read-only: the API gives no way to set it), section-group icon, space title and
 * emoji, search query, subdomain and deleted-space retention (no resource manages those).
 */
const SITE = "site_declared_elsewhere";
const SPACE = "spc_declared_elsewhere";
const long = (n: number) => "a".repeat(n);
const url = (n: number) => `https://example.com/${long(n - "https://example.com/".length)}`;

/** [spec row, resource kind, the one bad field, its value, the property named, what the reason must say] */
export const ROWS: [string, string, string, unknown, string, RegExp][] = [
  ["Site title 2 to 128", "Site", "title", "A", "title", /title must be 2 to 128 characters/],
  ["Site title 2 to 128", "Site", "title", long(129), "title", /title must be 2 to 128 characters/],
  ["Site basename 1 to 100", "Site", "basename", "", "basename", /basename must be 1 to 100 characters/],
  ["Site basename 1 to 100", "Site", "basename", long(101), "basename", /basename must be 1 to 100 characters/],
  ["Site proxy max 512", "Site", "proxy", `example.com/${long(501)}`, "proxy", /proxy must be at most 512 characters/],
  ["Site section title 2 to 128", "SiteSection", "title", "A", "title", /title must be 2 to 128 characters/],
  ["Site section title 2 to 128", "SiteSection", "title", long(129), "title", /title must be 2 to 128 characters/],
  ["Section path 1 to 100", "SiteSection", "path", "", "path", /path must be 1 to 100 characters/],
  ["Section path 1 to 100", "SiteSection", "path", long(101), "path", /path must be 1 to 100 characters/],
  ["Section description max 256", "SiteSection", "description", long(257), "description", /description must be at most 256 characters/],
  ["Section icon max 50", "SiteSection", "icon", long(51), "icon", /icon must be at most 50 characters/],
  ["condition 1 to 1024 (section)", "SiteSection", "condition", "", "condition", /condition must be 1 to 1024 characters/],
  ["condition 1 to 1024 (section)", "SiteSection", "condition", long(1025), "condition", /condition must be 1 to 1024 characters/],
  ["Site space path 1 to 100", "SiteSpace", "path", "", "path", /path must be 1 to 100 characters/],
  ["Site space path 1 to 100", "SiteSpace", "path", long(101), "path", /path must be 1 to 100 characters/],
  ["condition 1 to 1024 (site space)", "SiteSpace", "condition", "", "condition", /condition must be 1 to 1024 characters/],
  ["condition 1 to 1024 (site space)", "SiteSpace", "condition", long(1025), "condition", /condition must be 1 to 1024 characters/],
  ["Share link name max 50", "ShareLink", "name", long(51), "name", /name must be at most 50 characters/],
  ["Team title 1 to 64", "Team", "title", "", "title", /title must be 1 to 64 characters/],
  ["Team title 1 to 64", "Team", "title", long(65), "title", /title must be 1 to 64 characters/],
  ["SAML label 1 to 30", "SamlProvider", "label", "", "label", /label must be 1 to 30 characters/],
  ["SAML label 1 to 30", "SamlProvider", "label", long(31), "label", /label must be 1 to 30 characters/],
  ["SAML entityID max 1024", "SamlProvider", "entityID", long(1025), "entityID", /entityID must be at most 1024 characters/],
  ["SAML certificate max 10000", "SamlProvider", "certificate", long(10001), "certificate", /certificate must be at most 10000 characters/],
  ["SAML ssoURL max 2048", "SamlProvider", "ssoURL", url(2049), "ssoURL", /ssoURL must be at most 2048 characters/],
  ["OpenAPI spec slug 1 to 100", "OpenApiSpec", "slug", "", "slug", /slug must be 1 to 100 characters/],
  ["OpenAPI spec slug 1 to 100", "OpenApiSpec", "slug", long(101), "slug", /slug must be 1 to 100 characters/],
  ["OpenAPI sourceURL max 2048", "OpenApiSpec", "source", { url: url(2049) }, "source.url", /source\.url must be at most 2048 characters/],
];

/** Otherwise valid arguments for each kind, so the bad field is the only mistake. */
export const VALID: Record<string, Record<string, unknown>> = {
  Site: { title: "Valid Docs" },
  SiteSection: { siteId: SITE, spaceId: SPACE, title: "Valid section" },
  SiteSpace: { siteId: SITE, sectionId: "sitesc_declared_elsewhere", spaceId: SPACE },
  ShareLink: { siteId: SITE, name: "Valid link" },
  Team: { title: "Valid team" },
  SamlProvider: { label: "Valid IdP" },
  OpenApiSpec: { slug: "valid-api", source: { url: "https://example.com/openapi.yaml" } },
};

