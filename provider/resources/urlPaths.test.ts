/**
 * The segments of a published URL (urlPaths.ts), for every kind that declares one (a site's basename,
 * a section's path, a site space's path):
 * - two siblings at one path are refused in the program as the second is constructed, naming both,
 *   and the run registers nothing. Run as a preview (Pulumi's mocks, every new ID unknown): siblings of
 *   a parent not created yet are told by the resource their parent's ID comes from;
 * - a path a URL cannot hold as written fails check, naming the field, before any request.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { DocsSite, Site, SiteSection, SiteSectionGroup, SiteSpace } from "../index";
import { GIT_SYNC_QUESTION, ORG_QUESTION, providerEnvPerFile, rejectsAtCheck, type ProviderEnv } from "../../test/support/provider";
import { mockedRegistrations, nextRun, registeredAll } from "../../test/support/mocks";

const registered = mockedRegistrations("urlPaths", true);

describe("siblings at one path, in the program", () => {
  it("refuses a second section at a path of the same site, in whatever group, naming both, and registers nothing of the run", async () => {
    const site = new Site("u1-site", { title: "Docs" });
    const group = new SiteSectionGroup("u1-group", { siteId: site.id, title: "Reference" });
    new SiteSection("u1-api", { siteId: site.id, spaceId: "spc_1", path: "api" });
    expect(() => new SiteSection("u1-api-2", { siteId: site.id, spaceId: "spc_2", path: "api", groupId: group.id })).toThrow(
      'SiteSection "u1-api-2": path: SiteSection "u1-api" in the same site (a section group has no path of its own) has the path "api" already: two sections at one URL, of which a visitor reaches only one. Give each its own path. Nothing was sent.',
    );
    await nextRun();
    await registeredAll([new Site("u1-control", { title: "Docs" })]);
    expect(registered.filter((n) => n.startsWith("u1-"))).toEqual(["u1-control"]);
  });

  it("refuses a second site space at a path of the same section, and a second site at a basename of the organization", () => {
    // Basenames of their own: the program's checks span every test file the worker runs.
    const site = new Site("u2-site", { title: "Docs", basename: "u2-docs" });
    const section = new SiteSection("u2-sec", { siteId: site.id, spaceId: "spc_1", path: "guides" });
    new SiteSpace("u2-v1", { siteId: site.id, sectionId: section.id, spaceId: "spc_2", path: "v1" });
    expect(() => new SiteSpace("u2-v1-again", { siteId: site.id, sectionId: section.id, spaceId: "spc_3", path: "v1" })).toThrow(
      /^SiteSpace "u2-v1-again": path: SiteSpace "u2-v1" in the same section has the path "v1" already/,
    );
    expect(() => new Site("u2-site-2", { title: "Other docs", basename: "u2-docs" })).toThrow(/^Site "u2-site-2": basename: Site "u2-site" in the same organization has the basename "u2-docs" already/);
    // Named by the same literal organization ID, or by the stack's default (as the provider fills it in).
    new Site("u2-site-3", { title: "Docs", basename: "u2-docs", organizationId: "org_other" });
    expect(() => new Site("u2-site-4", { title: "Docs", basename: "u2-docs", organizationId: "org_other" })).toThrow(/Site "u2-site-3" in the same organization/);
  });

  it("refuses two sections at one path of a site named by a literal ID, and in a DocsSite", () => {
    new SiteSection("u3-a", { siteId: "site_literal", spaceId: "spc_1", path: "changelog" });
    expect(() => new SiteSection("u3-b", { siteId: "site_literal", spaceId: "spc_2", path: "changelog" })).toThrow(/SiteSection "u3-a" in the same site/);
    expect(
      () =>
        new DocsSite("u3-docs", {
          site: { title: "Docs" },
          sections: [
            { key: "api", spaceId: "spc_1", path: "api" },
            { type: "group", key: "more", title: "More", sections: [{ key: "api-2", spaceId: "spc_2", path: "api" }] },
          ],
        }),
    ).toThrow(/^SiteSection "u3-docs\/api-2": path: SiteSection "u3-docs\/api" in the same site/);
  });

  it("passes the same path in different containers, and what it cannot trace (a path or parent given as an Output)", async () => {
    // Out of the refused run of the test before.
    await nextRun();
    const a = new Site("u4-a", { title: "A" });
    const b = new Site("u4-b", { title: "B" });
    const all: pulumi.Resource[] = [
      new SiteSection("u4-a-api", { siteId: a.id, spaceId: "spc_1", path: "api" }),
      new SiteSection("u4-b-api", { siteId: b.id, spaceId: "spc_1", path: "api" }),
      // A literal ID and a resource's output may be one site or two: not compared.
      new SiteSection("u4-lit-api", { siteId: "site_u4", spaceId: "spc_1", path: "api" }),
      new SiteSection("u4-a-out", { siteId: a.id, spaceId: "spc_2", path: pulumi.output("api") }),
      new SiteSection("u4-both", { siteId: pulumi.all([a.id, b.id]).apply(([x]) => x), spaceId: "spc_3", path: "api" }),
    ];
    const [sa, sb] = all as SiteSection[];
    all.push(new SiteSpace("u4-sa-v1", { siteId: a.id, sectionId: sa!.id, spaceId: "spc_4", path: "v1" }), new SiteSpace("u4-sb-v1", { siteId: b.id, sectionId: sb!.id, spaceId: "spc_4", path: "v1" }));
    await registeredAll(all);
    expect(registered.filter((n) => n.startsWith("u4-"))).toHaveLength(9);
  });
});

describe("path characters, at check", () => {
  let env: ProviderEnv;
  providerEnvPerFile((e) => (env = e));

  const bad = (field: string): [string, Record<string, unknown>, RegExp][] =>
    ["change log", "guides/v2", "change%20log", "..", ".", "guía", "a?b", "a#b"].map((v) => [field, { [field]: v }, new RegExp(`^${field} must match one segment of a URL: letters, digits and`)]);
  rejectsAtCheck(() => env, "SiteSection", { siteId: "site_1", spaceId: "spc_1" }, bad("path"));
  rejectsAtCheck(() => env, "SiteSpace", { siteId: "site_1", sectionId: "sec_1", spaceId: "spc_1" }, bad("path"));
  rejectsAtCheck(() => env, "Site", { title: "Docs" }, bad("basename"));

  it("accepts what GitBook derives from a title, and the rest of a URL's unreserved characters, asking only about the organization", async () => {
    for (const path of ["api", "change-log", "v1.2", "Guides_EN", "a~b", "c++", "...x"]) {
      expect((await env.check("SiteSection", { siteId: "site_1", spaceId: "spc_1", path })).failures, path).toBeUndefined();
      expect((await env.check("Site", { title: "Docs", basename: path })).failures, path).toBeUndefined();
    }
    // And, once for the site, whether Git Sync owns its structure.
    expect(env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [GIT_SYNC_QUESTION]: 1 });
  });
});
