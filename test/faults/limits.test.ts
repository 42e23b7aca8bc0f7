/**
 * Every row of the API's Limits table that applies to these resources, tried as bad input through a
 * whole program: each must fail at check (preview and up alike), name its field and the limit, and
 * cost zero requests.
 *
 * Rows that do not apply: `limit` on list endpoints (the client always asks for the maximum, 1000),
 * Site `hostname` (read-only: the API gives no way to set it), section-group icon, space title and
 * emoji, search query, subdomain and deleted-space retention (no resource manages those).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, type Decl, type Deployment } from "../support/lifecycle";
import { deploy, expectTokenNowhere } from "./topology";

const SITE = "site_declared_elsewhere";
const SPACE = "spc_declared_elsewhere";
const long = (n: number) => "a".repeat(n);
const url = (n: number) => `https://example.com/${long(n - "https://example.com/".length)}`;

/** [spec row, resource kind, the one bad field, its value, the property named, what the reason must say] */
const ROWS: [string, string, string, unknown, string, RegExp][] = [
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
  ["Share link name max 50", "ShareLink", "name", long(51), "name", /name must be 1 to 50 characters/],
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
const VALID: Record<string, Record<string, unknown>> = {
  Site: { title: "Valid Docs" },
  SiteSection: { siteId: SITE, spaceId: SPACE, title: "Valid section" },
  SiteSpace: { siteId: SITE, spaceId: SPACE },
  ShareLink: { siteId: SITE, name: "Valid link" },
  Team: { title: "Valid team" },
  SamlProvider: { label: "Valid IdP" },
  OpenApiSpec: { slug: "valid-api", source: { url: "https://example.com/openapi.yaml" } },
};

const program: Decl[] = ROWS.map(([, kind, field, value], i) => ({ kind, name: `bad${i}`, args: { ...VALID[kind], [field]: value } }));

describeDeployments("the API's limits, as bad input to a whole program", () => {
  let d: Deployment;
  const outputs: string[] = [];
  beforeAll(async () => {
    d = await deploy();
  });
  afterAll(async () => d?.close());

  // The engine stops a preview at the first resource whose check fails, so each row is its own
  // program; four previews run at a time.
  it("fails preview at check for every row, naming the field and the limit, with zero requests", async () => {
    d.emu.log.reset();
    const results: Awaited<ReturnType<Deployment["preview"]>>[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < ROWS.length) {
          const i = next++;
          results[i] = await d.preview([program[i]!]);
        }
      }),
    );
    ROWS.forEach(([row, , , , property, reason], i) => {
      const r = results[i]!;
      outputs.push(r.stdout, r.error ?? "");
      expect(r.error, row).toBeDefined();
      const failures = (r.checkFailures ?? []).filter((f) => f.urn.endsWith(`::bad${i}`));
      // An empty slug also breaks the slug pattern: that second failure may come along.
      expect(failures, row).toContainEqual(expect.objectContaining({ property, reason: expect.stringMatching(reason) }));
      // What the user reads names the resource and the field.
      expect(r.stdout, row).toMatch(new RegExp(`bad${i}'?:? .*${reason.source}`));
    });
    expect(d.emu.log.count()).toBe(0);
  }, 300_000);

  it("fails up at check before anything is sent or recorded", async () => {
    d.emu.log.reset();
    const r = await d.run("up", program);
    outputs.push(r.stdout, r.error ?? "");
    expect(r.error).toMatch(/\S+ must be/);
    expect(r.checkFailures!.length).toBeGreaterThan(0);
    for (const i of new Set(r.checkFailures!.map((f) => Number(/::bad(\d+)$/.exec(f.urn)![1])))) {
      const [row, , , , property, reason] = ROWS[i]!;
      const failures = r.checkFailures!.filter((f) => f.urn.endsWith(`::bad${i}`));
      expect(failures, row).toContainEqual(expect.objectContaining({ property, reason: expect.stringMatching(reason) }));
    }
    expect(d.emu.log.count()).toBe(0);
    expect(d.state().resources.filter((x) => x.custom)).toEqual([]);
  });

  it("never showed the token", () => {
    expectTokenNowhere(d, [d.emu.token], outputs);
  });
});
