/**
 * The program-side checks of a site's redirects (redirectRules.ts), through the resource classes under
 * Pulumi's mocks: SiteRedirect resources of one site that name one source twice, chain or loop, and a
 * SiteRedirects beside other declarations of the same site's rules, are refused as constructed, naming
 * the resources; rules of different sites, and untraceable ones, pass. So is a SiteRedirects beside a
 * section or site space whose redirectOldPath adds rules to the same site.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, expect, it } from "vitest";
import { Site, SiteRedirect, SiteRedirects, SiteSection, SiteSpace } from "../index";

beforeAll(async () => {
  await pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) }, "redirects", "test", false);
});

const to = (path: string) => ({ path });

it("refuses a second SiteRedirect from the same source of the same site, naming the first", () => {
  const site = new Site("r1-site", { title: "Docs" });
  new SiteRedirect("r1-a", { siteId: site.id, source: "/old", destination: { url: "https://x.test" } });
  expect(() => new SiteRedirect("r1-b", { siteId: site.id, source: "/old", destination: { url: "https://y.test" } })).toThrow(
    'SiteRedirect "r1-b": source: redirects from /old as SiteRedirect "r1-a" already does; a source has one rule: keep one of them',
  );
  // A draft rule from the same source, and the same source on another site, are fine.
  new SiteRedirect("r1-c", { siteId: site.id, source: "/old", draft: true, destination: { url: "https://y.test" } });
  new SiteRedirect("r1-d", { siteId: new Site("r1-other", { title: "Other" }).id, source: "/old", destination: { url: "https://y.test" } });
});

it("refuses a chain and a loop across SiteRedirect resources, in either order of declaration", () => {
  const site = new Site("r2-site", { title: "Docs" });
  new SiteRedirect("r2-a", { siteId: site.id, source: "/a", destination: to("/b") });
  expect(() => new SiteRedirect("r2-b", { siteId: site.id, source: "/b", destination: { url: "https://x.test" } })).toThrow(
    /SiteRedirect "r2-b": source: SiteRedirect "r2-a" leads to \/b, which SiteRedirect "r2-b" redirects again \(a chain: \/a → \/b → …\)/,
  );
  expect(() => new SiteRedirect("r2-c", { siteId: site.id, source: "/b", destination: to("/a") })).toThrow(
    /SiteRedirect "r2-c": destination: SiteRedirect "r2-a" forms a loop, \/a \(SiteRedirect "r2-a"\) → \/b \(SiteRedirect "r2-c"\) → \/a/,
  );
  expect(() => new SiteRedirect("r2-d", { siteId: site.id, source: "/z/*", destination: to("/z/y") })).toThrow(/SiteRedirect "r2-d": destination: sends visitors from \/z\/\* back to \/z\/\*, a loop/);
});

it("refuses a SiteRedirects beside SiteRedirect resources of the same site, and the reverse", () => {
  const site = new Site("r3-site", { title: "Docs" });
  new SiteRedirect("r3-one", { siteId: site.id, source: "/a", destination: { url: "https://x.test" } });
  expect(() => new SiteRedirects("r3-set", { siteId: site.id, rules: [] })).toThrow(
    /SiteRedirects "r3-set": SiteRedirect "r3-one" already declares redirects of this site\. SiteRedirects holds every rule of the site and deletes the rules it does not list/,
  );
  const other = new Site("r3-other", { title: "Other" });
  new SiteRedirects("r3-set2", { siteId: other.id, rules: [] });
  expect(() => new SiteRedirect("r3-two", { siteId: other.id, source: "/a", destination: { url: "https://x.test" } })).toThrow(
    /SiteRedirect "r3-two": SiteRedirects "r3-set2" holds every redirect of this site and would delete this rule at every up/,
  );
  expect(() => new SiteRedirects("r3-set3", { siteId: other.id, rules: [] })).toThrow(/SiteRedirects "r3-set3": SiteRedirects "r3-set2" already declares redirects of this site/);
  // By literal site ID too.
  new SiteRedirects("r3-lit", { siteId: "site_literal", rules: [] });
  expect(() => new SiteRedirect("r3-lit-one", { siteId: "site_literal", source: "/a", destination: { url: "https://x.test" } })).toThrow(/SiteRedirects "r3-lit" holds every redirect/);
});

// Issue 42, case 1: a rule given as Outputs (its source computed) was not recorded, so a SiteRedirects
// declared after it passed, and each up deleted the rule and the SiteRedirect made it again.
it("refuses a SiteRedirects beside a SiteRedirect whose rule is not known in the program, in either order", () => {
  const site = new Site("r3b-site", { title: "Docs" });
  new SiteRedirect("r3b-one", { siteId: site.id, source: pulumi.output("/a"), destination: { url: "https://x.test" } });
  expect(() => new SiteRedirects("r3b-set", { siteId: site.id, rules: [] })).toThrow(/^SiteRedirects "r3b-set": SiteRedirect "r3b-one" already declares redirects of this site/);
  const other = new Site("r3b-other", { title: "Other" });
  new SiteRedirects("r3b-set2", { siteId: other.id, rules: [] });
  expect(() => new SiteRedirect("r3b-two", { siteId: other.id, source: "/b", destination: pulumi.output({ url: "https://x.test" }) })).toThrow(/^SiteRedirect "r3b-two": SiteRedirects "r3b-set2" holds every redirect of this site/);
});

it("refuses a SiteRedirects beside a section or site space with redirectOldPath on the same site, in either order", () => {
  const site = new Site("r4-site", { title: "Docs" });
  const guides = new SiteSection("r4-guides", { siteId: site.id, spaceId: "spc_1", path: "guides", redirectOldPath: true });
  expect(() => new SiteRedirects("r4-set", { siteId: site.id, rules: [] })).toThrow(
    'SiteRedirects "r4-set": SiteSection "r4-guides" sets redirectOldPath, which adds redirect rules to this site, and SiteRedirects holds every rule of the site, so each up would delete what the other adds. Remove redirectOldPath from SiteSection "r4-guides" and list the redirect from its old path in this SiteRedirects\' rules instead.',
  );
  const other = new Site("r4-other", { title: "Other" });
  new SiteRedirects("r4-set2", { siteId: other.id, rules: [] });
  expect(() => new SiteSpace("r4-v2", { siteId: other.id, sectionId: guides.id, spaceId: "spc_2", redirectOldPath: true })).toThrow(
    'SiteSpace "r4-v2": redirectOldPath: SiteRedirects "r4-set2" holds every redirect of this site and would delete the rules redirectOldPath adds at every up. Remove redirectOldPath and list the redirect from the old path in the rules of SiteRedirects "r4-set2" instead.',
  );
  // Without the option, or on another site, both are fine.
  new SiteSection("r4-plain", { siteId: other.id, spaceId: "spc_3" });
  new SiteSection("r4-elsewhere", { siteId: new Site("r4-third", { title: "Third" }).id, spaceId: "spc_4", redirectOldPath: true });
});
