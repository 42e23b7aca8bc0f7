/**
 * Configuration errors name the setting, its value (never the token's) and the fix, in a line; the
 * program's process judges the settings once per run; a wrong organization is named as the setting
 * it came from, whichever kind of resource meets it first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, judgeProgramConfig, MissingTokenError, NO_TOKEN_WARNING, resolveConfig } from "./config";
import { ORG_QUESTION, startProviderEnv, type ProviderEnv } from "../test/support/provider";

const source = (values: Record<string, string>) => ({ get: (k: string) => values[k] });

describe("settings", () => {
  it("a preview without a token is warned about, naming both settings, what fails and the command; an up fails naming them", () => {
    expect(judgeProgramConfig(source({}), {}, true)).toEqual({ warning: NO_TOKEN_WARNING });
    expect(NO_TOKEN_WARNING).toMatch(/gitbook:token is not set, nor GITBOOK_TOKEN/);
    expect(NO_TOKEN_WARNING).toContain("`pulumi up`, `pulumi refresh` and `npx pulumi-gitbook import` will fail");
    expect(NO_TOKEN_WARNING).toContain("pulumi config set --secret gitbook:token <token>");
    expect(judgeProgramConfig(source({}), { GITBOOK_TOKEN: "" }, false)).toEqual({ error: new MissingTokenError().message });
    expect(new MissingTokenError().message).toMatch(/^No GitBook API token: gitbook:token is not set, nor GITBOOK_TOKEN; set it with `pulumi config set --secret gitbook:token <token>`/);
    // The provider's process may have the token from its environment: the program's sees the same.
    expect(judgeProgramConfig(source({}), { GITBOOK_TOKEN: "t0k3n" }, false)).toEqual({});
    expect(judgeProgramConfig(source({ "gitbook:token": "t0k3n" }), {}, false)).toEqual({});
  });

  it("a malformed setting is an error for preview and up alike, one line naming setting, value and fix", () => {
    for (const dryRun of [true, false]) {
      const v = judgeProgramConfig(source({ "gitbook:token": "t", "gitbook:apiUrl": "notaurl" }), {}, dryRun);
      expect(v.error).toBe(
        'gitbook:apiUrl is "notaurl", which is not an absolute URL; it must be the API\'s base URL, e.g. https://api.gitbook.com (`pulumi config set gitbook:apiUrl <url>`, or `pulumi config rm gitbook:apiUrl` for the default).',
      );
    }
  });

  it("names each setting, its value and the command that fixes it", () => {
    const err = (raw: Record<string, string>, env: NodeJS.ProcessEnv = {}) => {
      try {
        resolveConfig(raw, env);
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    expect(err({ requestTimeoutSeconds: "30s" })).toBe(
      'gitbook:requestTimeoutSeconds is "30s", which is not a positive number of seconds (`pulumi config set gitbook:requestTimeoutSeconds 30`, or `pulumi config rm gitbook:requestTimeoutSeconds` for the default; the default is 30).',
    );
    expect(err({}, { GITBOOK_OPENAPI_WAIT_SECONDS: "0" })).toBe(
      'GITBOOK_OPENAPI_WAIT_SECONDS (gitbook:openApiWaitSeconds is not set) is "0", which is not a positive number of seconds (fix or unset GITBOOK_OPENAPI_WAIT_SECONDS, or set gitbook:openApiWaitSeconds; the default is 300).',
    );
    expect(err({ listingMaxAgeSeconds: "-1" })).toBe(
      'gitbook:listingMaxAgeSeconds is "-1", which is not a number of seconds, 0 or more (`pulumi config set gitbook:listingMaxAgeSeconds 1`, or `pulumi config rm gitbook:listingMaxAgeSeconds` for the default; the default is 1).',
    );
    expect(resolveConfig({ listingMaxAgeSeconds: "0" }, {}).listingMaxAgeSeconds).toBe(0);
    expect(resolveConfig({}, { GITBOOK_LISTING_MAX_AGE_SECONDS: "0.25" }).listingMaxAgeSeconds).toBe(0.25);
    expect(resolveConfig({}, {}).listingMaxAgeSeconds).toBe(1);
    expect(err({ organizationId: "https://app.gitbook.com/o/AbC123/home" })).toBe(
      'gitbook:organizationId is "https://app.gitbook.com/o/AbC123/home", which is not an organization ID (it has spaces or slashes); the ID is the part after /o/ in the organization\'s address on app.gitbook.com (`pulumi config set gitbook:organizationId AbC123`).',
    );
    const token = err({ token: "gb_api_secret\n" });
    expect(token).toBe(
      "gitbook:token holds whitespace, a control character or a character outside ASCII (often a trailing newline, or typographic quotes, from where it was copied), so it cannot be sent; set it again without them (`pulumi config set --secret gitbook:token <token>`). The value is not shown.",
    );
    expect(err({}, { GITBOOK_TOKEN: "gb_api_secret " })).not.toContain("gb_api_secret");
    // Typographic quotes from a page it was copied from: undici refused the header at every request,
    // which read as a failed connection to the API (and, for a create, as one that may have happened).
    for (const quoted of ["\u201cgb_api_secret\u201d", "gb_api_s\u00e9cret"]) {
      expect(err({ token: quoted })).toBe(
        "gitbook:token holds whitespace, a control character or a character outside ASCII (often a trailing newline, or typographic quotes, from where it was copied), so it cannot be sent; set it again without them (`pulumi config set --secret gitbook:token <token>`). The value is not shown.",
      );
    }
  });
});

it("a setting's error, where the provider's host prints it to stderr, is one line without a stack and without the message again", () => {
  for (const e of [new ConfigError('gitbook:apiUrl is "notaurl", which is not an absolute URL'), new MissingTokenError()]) {
    // How the SDK's dynamic-provider host writes an error thrown from check, diff, read or delete.
    const hostLine = `${e}: ${e.stack}`;
    expect(hostLine).toBe("pulumi-gitbook: configuration error: the setting and how to fix it are in the resource's error");
    expect(e.message).not.toBe("");
  }
});

describe("a wrong organization", () => {
  let env: ProviderEnv;
  let siteId: string;
  let sectionId: string;
  beforeAll(async () => {
    env = await startProviderEnv();
    const site = await env.up("Site", { title: "Docs" });
    siteId = site.state.id;
    sectionId = (await env.up("SiteSection", { siteId, spaceId: env.emu.seeded.spaceIds[0] })).state.id;
  });
  afterAll(async () => env?.close());

  const configure = (org: string) =>
    env.call("Site", "configure", { config: source({ "gitbook:token": env.emu.token, "gitbook:apiUrl": env.emu.url, "gitbook:organizationId": org }) });

  const SPEC = "openapi: 3.0.3\ninfo:\n  title: Pets\n  version: 1.0.0\npaths: {}\n";
  const programs = (): [string, Record<string, unknown>][] => [
    ["Site", { title: "Docs" }],
    ["SiteSection", { siteId, spaceId: env.emu.seeded.spaceIds[1] }],
    ["SiteSpace", { siteId, sectionId, spaceId: env.emu.seeded.spaceIds[2] }],
    ["SiteSectionGroup", { siteId, title: "Products" }],
    ["SiteExternalLink", { siteId, title: "Status", url: "https://status.acme.test" }],
    ["SiteStructureOrder", { siteId, items: [sectionId] }],
    ["ShareLink", { siteId, name: "Reviewers" }],
    ["SitePublication", { siteId, published: true }],
    ["SiteAdaptiveSchema", { siteId, jsonSchema: { type: "object", properties: { beta: { type: "boolean", description: "Tests betas." } }, additionalProperties: false } }],
    ["Space", { title: "Handbook" }],
    ["Collection", { title: "Products" }],
    ["Team", { title: "Writers" }],
    ["SamlProvider", { label: "Okta", entityID: "http://www.okta.com/exk1", ssoURL: "https://acme.okta.com/app/sso/saml", certificate: "MIIC-test-certificate" }],
    ["OpenApiSpec", { slug: "pets", source: { text: SPEC } }],
  ];

  /** What a wrong organization is called, `on` the request GitBook answered (a check's question, or a create's own request). */
  const wrong = (on: string) =>
    new RegExp(
      `gitbook:organizationId is "org_wrong", an organization GitBook does not show this token \\(404 organization "org_wrong" not found\\): set it to the ID after /o/ in your organization's address on app\\.gitbook\\.com \\(\`pulumi config set gitbook:organizationId <id>\`\\), and use a token of that organization \\(GitBook API 404 on ${on}`,
    );
  const probes = () => env.emu.log.count({ method: "GET", route: "/v1/orgs/:org" });

  it("fails check at every kind, naming gitbook:organizationId, its value and the fix, after one question for the whole provider and nothing else", async () => {
    await configure("org_wrong");
    env.emu.log.reset();
    for (const [kind, args] of programs()) {
      const checked = await env.check(kind, args);
      expect(checked.failures, kind).toEqual([{ property: "organizationId", reason: expect.stringMatching(new RegExp(`^${wrong("GET /v1/orgs/org_wrong\\)$").source}`)) }]);
    }
    expect(env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
    // A request under it without that check before (an update whose check asked nothing) says the same, asking nothing more.
    for (const [kind, args] of programs()) {
      const err = (await env.call(kind, "create", { ...args, organizationId: "org_wrong", __provider: "p" }).catch((e: unknown) => e)) as Error;
      expect(err.message.split("\n")[0], kind).toMatch(new RegExp(`^\\w+: ${wrong("\\w+ /v1/orgs/org_wrong").source}`));
    }
    expect(probes()).toBe(1);
    expect(env.emu.log.writes()).toBeLessThanOrEqual(programs().length);
  });

  it("is asked about at most once per provider, only by a check that will send something, and not once anything under it has succeeded", async () => {
    await configure(env.org);
    const gone = (id: string) => env.refresh("Site", { id, outs: { organizationId: env.org, title: "x" } });
    env.outOfBand();
    env.emu.log.reset();
    // Objects gone under the right organization are still gone: one question, then "not found" as before.
    expect([await gone("site_gone"), await gone("site_gone2")]).toEqual([undefined, undefined]);
    expect(probes()).toBe(1);
    // A resource in state that changes nothing sends nothing, so its check asks nothing (a no-op up);
    // nor does one whose only change is a provider-local setting, nor one releasing a live field.
    env.outOfBand();
    env.emu.log.reset();
    const recorded = { organizationId: env.org, title: "Docs", visibility: "public", __gitbookName: "docs" };
    expect((await env.check("Site", { title: "Docs", visibility: "public" }, recorded)).failures).toBeUndefined();
    expect((await env.check("Site", { title: "Docs", visibility: "public", forceDestroy: true }, recorded)).failures).toBeUndefined();
    expect((await env.check("Site", { title: "Docs" }, recorded)).failures).toBeUndefined();
    expect(env.emu.log.count()).toBe(0);
    // A create's check asks, once; what follows under the organization asks nothing more.
    await env.up("Site", { title: "More docs" });
    expect(probes()).toBe(1);
    expect(await gone("site_gone3")).toBeUndefined();
    expect((await env.check("Site", { title: "Docs", visibility: "unlisted" }, recorded)).failures).toBeUndefined();
    expect(probes()).toBe(1);
  });

  it("fails check, once, when GitBook cannot be asked at all, with why: what every request of the run would meet", async () => {
    await configure(env.org);
    env.outOfBand();
    env.emu.log.reset();
    const fault = env.emu.faults.add({ match: { method: "GET", route: "/v1/orgs/:org" }, errorRate: 1, status: 500 });
    try {
      for (const [kind, args] of programs().slice(0, 3)) {
        expect((await env.check(kind, args)).failures, kind).toEqual([
          {
            property: "organizationId",
            reason: expect.stringMatching(new RegExp(`^GitBook could not be asked whether this token sees organization "${env.org}", so nothing else is sent: GitBook API 500 on GET /v1/orgs/${env.org}: Injected fault`)),
          },
        ]);
      }
      expect(fault.hits).toBe(1);
      expect(env.emu.log.count()).toBe(1);
    } finally {
      env.emu.faults.clear();
    }
  });

  it("a resource's own organizationId is named as such", async () => {
    const checked = await env.check("Space", { title: "Handbook", organizationId: "org_other" });
    expect(checked.failures).toEqual([{ property: "organizationId", reason: expect.stringMatching(/^organizationId is "org_other", an organization GitBook does not show this token .*\(fix the resource's organizationId\)/) }]);
  });
});
