/**
 * What a resource records is what its own writes decide (issue 42): after every `up`, each resource's
 * state equals what its kind reads from GitBook, however the later steps of the run wrote to its
 * object. One program of every kind, in process, whose second `up` makes each write that changes
 * another resource's object: a SitePublication publishing the site after its sections, site spaces
 * and share links; a section and a site space made the default of their container; a section's path
 * moved under its site spaces; the space a site space shows renamed; the site's branding changed
 * under a site space that overrides none of it; the site's basename changed under its share link and
 * publication. The CLI suites compare the exported checkpoints of their own runs the same way
 * (test/support/stateIsGitBook.ts).
 */
import { describe, expect, it } from "vitest";
import { resources } from "../../provider/resources";
import type { Decl } from "../support/lifecycle";
import { programSuite } from "../support/program";
import { differencesFromGitBook } from "../support/stateIsGitBook";
import { ref } from "../support/scenarios";

const HOST = "docs.acme.test";

/** Every kind; `second` makes the writes that change other resources' objects. */
function program(spaces: string[], member: string, second: boolean): Decl[] {
  const site = ref("site.id");
  const basename = second ? "written-2" : "written";
  // What the program process fills in for the kinds whose URLs follow the site's address (siteAddress.ts):
  // the in-process program constructs no resource class.
  const siteAddress = { basename };
  return [
    { kind: "Site", name: "site", args: { title: "Written Docs", visibility: "share-link", basename } },
    { kind: "Space", name: "space", args: { title: second ? "Notes renamed" : "Notes" } },
    { kind: "SiteSection", name: "start", args: { siteId: site, spaceId: spaces[0], path: "start", ...(second ? {} : { default: true }) } },
    { kind: "SiteSection", name: "guides", args: { siteId: site, spaceId: spaces[1], path: second ? "handbook" : "guides", ...(second ? { default: true } : {}) } },
    { kind: "SiteSpace", name: "notes", args: { siteId: site, sectionId: ref("guides.id"), spaceId: ref("space.id"), path: "notes" } },
    { kind: "SiteSpace", name: "v2", args: { siteId: site, sectionId: ref("start.id"), spaceId: spaces[2], path: "v2", ...(second ? { default: true } : {}) } },
    { kind: "SiteSectionGroup", name: "group", args: { siteId: site, title: "Group" } },
    { kind: "SiteExternalLink", name: "link", args: { siteId: site, title: "Status", url: "https://status.acme.test" } },
    { kind: "SiteStructureOrder", name: "order", args: { siteId: site, items: [ref("start.id"), ref("guides.id"), ref("group.id"), ref("link.id")] } },
    { kind: "SiteAdaptiveSchema", name: "schema", args: { siteId: site, jsonSchema: { type: "object", properties: { beta: { type: "boolean", description: "Beta tester" } }, additionalProperties: false } } },
    { kind: "SiteCustomization", name: "branding", args: { siteId: site, footer: { copyright: second ? "© Acme 2" : "© Acme" } } },
    { kind: "SiteSpaceCustomization", name: "notes-branding", args: { siteId: site, siteSpaceId: ref("notes.id"), title: "Notes FR" } },
    // Overrides nothing: GitBook answers the site's settings for it.
    { kind: "SiteSpaceCustomization", name: "v2-branding", args: { siteId: site, siteSpaceId: ref("v2.id") } },
    { kind: "SiteVisitorAuth", name: "auth", args: { siteId: site, backend: "custom", fallbackURL: "https://login.acme.test/" } },
    { kind: "ShareLink", name: "reviewers", args: { siteId: site, name: "Reviewers", siteAddress } },
    { kind: "SiteRedirect", name: "redirect", args: { siteId: site, source: "/old", destination: { url: "https://example.com/new" } } },
    { kind: "SitePublication", name: "publication", args: { siteId: site, published: true, siteAddress } },
    { kind: "Site", name: "site2", args: { title: "Other Docs" } },
    { kind: "SiteRedirects", name: "redirects", args: { siteId: ref("site2.id"), rules: [{ source: "/a", destination: { url: "https://example.com/a" } }] } },
    ...(second ? [{ kind: "SiteCustomHostname", name: "hostname", args: { siteId: ref("site2.id"), hostname: HOST } }] : []),
    { kind: "Collection", name: "collection", args: { title: "Folder" } },
    { kind: "Team", name: "team", args: { title: "Writers" } },
    { kind: "SamlProvider", name: "saml", args: { label: "SSO" } },
    { kind: "OpenApiSpec", name: "spec", args: { slug: "written-api", source: { text: "openapi: 3.0.3\ninfo:\n  title: Written\n  version: 1.0.0\npaths: {}\n" } } },
    { kind: "Permission", name: "grant", args: { siteId: site, teamId: ref("team.id"), role: "read" } },
    { kind: "AccessList", name: "access", args: { collectionId: ref("collection.id"), users: [{ userId: member, role: "read" }] } },
  ];
}

describe("state equals GitBook after every up, for every kind", () => {
  const s = programSuite();
  const stateOf = (decls: Decl[]) => decls.map((d) => ({ name: d.name, type: d.kind, ...s.p.resource(d.name) }));

  it("declares every kind", () => {
    const declared = new Set(program([], "", true).map((d) => d.kind));
    expect(resources.map((r) => r.kind).filter((k) => !declared.has(k))).toEqual([]);
  });

  it("after the up that creates them, published by a SitePublication applied last", async () => {
    const decls = program(s.env.emu.seeded.spaceIds, s.env.emu.seeded.members[0]!.id, false);
    await s.p.up(decls);
    expect([...s.env.emu.store.sites.values()].find((x) => x.title === "Written Docs")?.published).toBe(true);
    expect(await differencesFromGitBook(s.env.emu, stateOf(decls))).toEqual([]);
  });

  it("after an up whose writes change other resources' objects: defaults moved, a path moved, a space renamed, the branding and the basename changed", async () => {
    // A custom hostname set up in the app (GitBook's API cannot), for the SiteCustomHostname to claim.
    const emu = s.env.emu;
    const site2 = s.p.resource("site2").id;
    emu.store.customHostnames.set(HOST, { ...emu.store.newId("host"), id: HOST, targetType: "site", targetId: site2, isActive: true, status: "live" });
    emu.store.sites.get(site2)!.hostname = HOST;
    const decls = program(emu.seeded.spaceIds, emu.seeded.members[0]!.id, true);
    const steps = await s.p.up(decls);
    // The share link and the publication follow the site's new basename: updates of their own, after the Site's.
    expect(steps.filter((x) => x.name === "reviewers" || x.name === "publication")).toEqual([
      { name: "reviewers", op: "update", changed: ["siteAddress"] },
      { name: "publication", op: "update", changed: ["siteAddress"] },
    ]);
    const site = emu.store.sites.get(s.p.resource("site").id)!;
    expect(emu.store.defaultSection(site)?.id).toBe(s.p.resource("guides").id);
    expect(emu.store.defaultSiteSpaceIn(site, s.p.resource("start").id)?.id).toBe(s.p.resource("v2").id);
    expect(await differencesFromGitBook(emu, stateOf(decls))).toEqual([]);
  });
});
