/**
 * The generator on its own: snapshots in, files out, no request. What the program does when run is
 * test/import/roundTrip.test.ts (through the Pulumi CLI); here, what a reader of the program sees.
 */
import { skeleton } from "../../bin/new";
import { ownPackage } from "../packageSource";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ruleOf } from "../framework/fields";
import { resources } from "../resources";
import { generateProgram, type GenerateOptions } from "./generate";
import { PreviousProgram } from "./names";
import type { OrgSnapshot, SiteSnapshot } from "./snapshot";

const OPTS: GenerateOptions = { style: "resources", project: "gitbook", stack: "dev", retainOnDelete: false, packageSpec: "^0.1.0" };

const space = (id: string, title?: string) => ({ id, ...(title ? { title } : {}) });

function site(over: Partial<SiteSnapshot> = {}): SiteSnapshot {
  return {
    id: "site_1",
    title: "Acme Docs",
    type: "ultimate",
    visibility: "share-link",
    basename: "acme-docs",
    agentsContext: "excluded",
    adaptiveContent: { enabled: false },
    published: true,
    createdAt: "2025-01-01T00:00:00.000Z",
    // Getting started, then the group "Learn" (the status link, then Guides), then the blog link.
    topLevel: ["sec_start", "grp_1", "lnk_blog"],
    sections: [
      {
        id: "sec_start",
        title: "Getting started",
        path: "start",
        icon: "rocket",
        default: true,
        siteSpaces: [{ id: "ss_start", path: "start", default: true, space: space("spc_start", "Getting started") }],
      },
      {
        id: "sec_guides",
        title: "Guides",
        path: "guides",
        default: false,
        groupId: "grp_1",
        siteSpaces: [
          { id: "ss_guides", path: "guides", default: false, space: space("spc_guides", "Guides") },
          { id: "ss_ts", path: "typescript", condition: "visitor.claims.ts == true", default: true, space: space("spc_ts", "SDK for TypeScript") },
        ],
      },
    ],
    sectionGroups: [{ id: "grp_1", title: "Learn", icon: "book", draft: false, itemIds: ["lnk_status", "sec_guides"] }],
    externalLinks: [
      { id: "lnk_status", title: "Status", url: "https://status.acme.test", draft: false, groupId: "grp_1" },
      { id: "lnk_blog", title: "Blog", url: "https://blog.acme.test", description: "News", draft: true, condition: "visitor.claims.beta == true" },
    ],
    unknownItems: [],
    shareLinks: [
      { id: "shl_b", name: "Partner", active: false, createdAt: "2025-01-03T00:00:00.000Z" },
      { id: "shl_a", name: "Partner", active: true, createdAt: "2025-01-02T00:00:00.000Z" },
    ],
    rootSiteSpaces: [],
    ...over,
  };
}

/** A site with no navigation and no share links. */
const bareSite = (over: Partial<SiteSnapshot>) => site({ topLevel: [], sections: [], sectionGroups: [], externalLinks: [], shareLinks: [], ...over });

/** A visitor schema declaring the claims the fixture's conditions use. */
const SCHEMA = {
  type: "object",
  properties: { ts: { type: "boolean", description: "Prefers TypeScript" }, beta: { type: "boolean", description: "In the beta" } },
  additionalProperties: false,
};

function org(over: Partial<OrgSnapshot> = {}): OrgSnapshot {
  return {
    organizationId: "org_1",
    scope: "organization",
    sites: [site()],
    // Listed child first: the program declares the collection holding it first all the same.
    collections: [
      { id: "col_sdk", title: "SDKs", parent: "col_docs", defaultLevel: "inherit" },
      { id: "col_docs", title: "Docs", description: "All of it", defaultLevel: null },
    ],
    spaces: [
      { id: "spc_start", title: "Getting started", emoji: "🚀", editMode: "live", defaultLevel: "inherit", createdAt: "2024-01-01T00:00:00.000Z" },
      { id: "spc_guides", title: "Guides", emoji: "🧭", parent: "col_docs", language: "en", editMode: "locked", defaultLevel: "read", createdAt: "2024-01-02T00:00:00.000Z" },
      { id: "spc_ts", title: "SDK for TypeScript", icon: "https://acme.test/ts.png", parent: "col_sdk", editMode: "live", defaultLevel: "inherit", createdAt: "2024-01-03T00:00:00.000Z" },
    ],
    teams: [
      {
        id: "team_1",
        title: "Docs writers",
        createdAt: "2025-01-01T00:00:00.000Z",
        members: [
          { user: "grace@acme.test", role: "member" },
          { user: "Ada@acme.test", role: "owner" },
        ],
      },
    ],
    samlProviders: [{ id: "saml_1", label: "Acme SSO", entityID: "https://idp/x", ssoURL: "https://idp/sso", certificate: "MIIC-public", defaultTeamId: "team_1", defaultRole: null }],
    openApiSpecs: [
      { id: "oas_1", slug: "acme-api", visibility: "public", processingState: "complete", source: { url: "https://acme.test/openapi.yaml" } },
      { id: "oas_2", slug: "internal", visibility: "private", processingState: "complete", source: { text: { document: { content: '{"openapi":"3.0.3"}', format: "json" } } } },
    ],
    ...over,
  };
}

const program = (snapshot: OrgSnapshot, opts: Partial<GenerateOptions> = {}) => generateProgram(snapshot, { ...OPTS, ...opts });
const index = (snapshot: OrgSnapshot, opts: Partial<GenerateOptions> = {}) => program(snapshot, opts).files["index.ts"]!;

/** The declaration of the resource named `name`, up to its closing line. */
function declarationOf(text: string, name: string): string {
  const start = text.indexOf(`(${JSON.stringify(name)}, {`);
  if (start < 0) throw new Error(`no declaration of ${name} in:\n${text}`);
  return text.slice(text.lastIndexOf("\n", start) + 1, text.indexOf("\n});", start) + 4);
}

describe("generateProgram", () => {
  it("declares every setting each object has, with its adoptId", () => {
    const text = index(org());
    expect(declarationOf(text, "acme-docs")).toBe(
      [
        'const acmeDocs = new gitbook.Site("acme-docs", {',
        '  title: "Acme Docs",',
        '  type: "ultimate",',
        '  visibility: "share-link",',
        "  published: true,",
        '  basename: "acme-docs",',
        '  agentsContext: "excluded",',
        "  adaptiveContent: { enabled: false },",
        '  adoptId: "site_1",',
        "});",
      ].join("\n"),
    );
    expect(declarationOf(text, "acme-docs/guides/typescript")).toContain('condition: "visitor.claims.ts == true",\n  default: true,\n  adoptId: "ss_ts",');
    expect(declarationOf(text, "docs-writers")).toContain('members: [{ user: "Ada@acme.test", role: "owner" }, { user: "grace@acme.test", role: "member" }],');
    expect(declarationOf(text, "acme-sso")).toContain("defaultRole: null,");
    expect(declarationOf(text, "internal")).toContain('source: { file: "openapi/internal.json" },');
  });

  it("refers to objects of the program by reference, never by ID, except in adoptId", () => {
    const text = index(org({ sites: [site({ adaptiveSchema: SCHEMA })] }));
    expect(declarationOf(text, "acme-docs/guides")).toContain("siteId: acmeDocs.id,\n  spaceId: guidesSpace.id,");
    expect(declarationOf(text, "acme-docs/guides")).toContain("groupId: acmeDocsLearn.id,");
    expect(declarationOf(text, "acme-docs/guides/typescript")).toContain("sectionId: acmeDocsGuides.id,\n  spaceId: sdkForTypescriptSpace.id,");
    expect(declarationOf(text, "acme-docs/status")).toContain("groupId: acmeDocsLearn.id,");
    expect(declarationOf(text, "sdks")).toContain("parent: docsCollection.id,");
    expect(declarationOf(text, "acme-sso")).toContain("defaultTeam: docsWritersTeam.id,");
    const ids = ["site_1", "sec_start", "sec_guides", "ss_ts", "shl_a", "shl_b", "team_1", "saml_1", "oas_1", "oas_2", "grp_1", "lnk_status", "lnk_blog"];
    for (const id of [...ids, "spc_start", "spc_guides", "spc_ts", "col_docs", "col_sdk"]) {
      const lines = text.split("\n").filter((l) => l.includes(`"${id}"`));
      // The visitor schema is adopted by its site's ID.
      expect(lines.length, id).toBe(id === "site_1" ? 2 : 1);
      for (const line of lines) expect(line, id).toMatch(/^ {2}adoptId: "/);
    }
  });

  it("declares the spaces the sites show and their collections, each collection before what it holds, none deleted with the program", () => {
    const text = index(org());
    const at = (name: string) => text.indexOf(`(${JSON.stringify(name)}, {`);
    expect(at("docs")).toBeLessThan(at("sdks"));
    expect(at("sdks")).toBeLessThan(at("sdk-for-typescript"));
    expect(at("sdk-for-typescript")).toBeLessThan(at("acme-docs"));
    expect(text).toContain(
      [
        'const docsCollection = new gitbook.Collection("docs", {',
        '  title: "Docs",',
        '  description: "All of it",',
        "  defaultLevel: null,",
        '  adoptId: "col_docs",',
        "}, { retainOnDelete: true });",
      ].join("\n"),
    );
    expect(text).toContain(
      [
        'const guidesSpace = new gitbook.Space("guides", {',
        '  title: "Guides",',
        '  emoji: "🧭",',
        "  parent: docsCollection.id,",
        '  language: "en",',
        '  editMode: "locked",',
        '  defaultLevel: "read",',
        '  adoptId: "spc_guides",',
        "}, { retainOnDelete: true });",
      ].join("\n"),
    );
    expect(declarationOf(text, "sdk-for-typescript")).toContain('  icon: "https://acme.test/ts.png",\n');
    expect(text.match(/\}, \{ retainOnDelete: true \}\);/g)).toHaveLength(5);
  });

  it("falls back to a space's ID where the import did not read the space", () => {
    expect(declarationOf(index(org({ spaces: [] })), "acme-docs/guides")).toContain('  spaceId: "spc_guides",\n');
  });

  it("keeps a default team outside the program as its ID", () => {
    const text = index(org({ teams: [] }));
    expect(declarationOf(text, "acme-sso")).toContain('defaultTeam: "team_1",');
  });

  it("gives the same text for the same organization, whatever order the API listed it in", () => {
    const a = program(org());
    const shuffled = org();
    shuffled.sites[0]!.shareLinks.reverse();
    shuffled.teams[0]!.members.reverse();
    shuffled.openApiSpecs.reverse();
    shuffled.spaces.reverse();
    shuffled.collections.reverse();
    expect(program(shuffled)).toEqual(a);
    expect(program(org())).toEqual(a);
  });

  it("names objects by title, unique, and keeps an older object's name when a newer one shares its title", () => {
    const older = site();
    const newer = bareSite({ id: "site_2", createdAt: "2025-02-01T00:00:00.000Z" });
    const text = index(org({ sites: [newer, older] }));
    expect(text).toContain('new gitbook.Site("acme-docs", {\n  title: "Acme Docs",');
    expect(declarationOf(text, "acme-docs")).toContain('adoptId: "site_1"');
    expect(declarationOf(text, "acme-docs-2")).toContain('adoptId: "site_2"');
    // Two links named "Partner": the older one keeps the plain name.
    expect(declarationOf(text, "acme-docs/partner")).toContain('adoptId: "shl_a"');
    expect(declarationOf(text, "acme-docs/partner-2")).toContain('adoptId: "shl_b"');
  });

  for (const style of ["resources", "docs-site"] as const) {
    it(`keeps every name and each section's space across a re-import after any reorder in the app (--style ${style})`, () => {
      // Two sections whose paths slug alike, a section with three site spaces, a group holding two items.
      const before = org({
        sites: [
          site({
            topLevel: ["sec_start", "grp_1", "sec_guides2", "lnk_blog"],
            sections: [
              ...site().sections.map((s) =>
                s.id === "sec_guides"
                  ? { ...s, siteSpaces: [...s.siteSpaces, { id: "ss_py", path: "python", default: false, space: space("spc_py", "SDK for Python") }] }
                  : s,
              ),
              { id: "sec_guides2", title: "Guides too", path: "Guides", default: false, siteSpaces: [{ id: "ss_g2", path: "g", default: true, space: space("spc_start") }] },
            ],
          }),
        ],
      });
      const first = index(before, { style });
      // Everything the app can reorder, reordered: the top level, inside the group, a section's site spaces (its own one moved last).
      const s = before.sites[0]!;
      const after = org({
        sites: [
          {
            ...s,
            topLevel: [...s.topLevel].reverse(),
            sections: [...s.sections].reverse().map((x) => ({ ...x, siteSpaces: [...x.siteSpaces.slice(1).reverse(), x.siteSpaces[0]!] })),
            sectionGroups: s.sectionGroups.map((g) => ({ ...g, itemIds: [...g.itemIds].reverse() })),
            externalLinks: [...s.externalLinks].reverse(),
          },
        ],
      });
      const previous = PreviousProgram.parse(first);
      const again = index(after, { style, previous });
      const reread = PreviousProgram.parse(again);
      const ids = ["site_1", "sec_start", "sec_guides", "sec_guides2", "grp_1", "lnk_status", "lnk_blog", "ss_ts", "ss_py", "shl_a", "shl_b"];
      const kinds = ["Site", "SiteSection", "SiteSectionGroup", "SiteExternalLink", "SiteSpace", "ShareLink"];
      const names = (p: PreviousProgram) => ids.map((id) => kinds.map((k) => p.name(k, id)).find(Boolean));
      expect(names(previous).every(Boolean)).toBe(true);
      expect(names(reread)).toEqual(names(previous));
      expect(["sec_start", "sec_guides", "sec_guides2"].map((id) => reread.ownSpace(id))).toEqual(["spc_start", "spc_guides", "spc_start"]);
      // Without the earlier program, the names still do not depend on where items sit; only a section's own space can move.
      const fresh = PreviousProgram.parse(index(after, { style }));
      const navigation = (p: PreviousProgram) => names(p).filter((_, i) => !ids[i]!.startsWith("ss_"));
      expect(navigation(fresh)).toEqual(navigation(previous));
    });
  }

  for (const style of ["resources", "docs-site"] as const) {
    it(`keeps the names of what has no adoptId (a custom hostname, visitor authentication, a site space's overrides) across a re-import after a rename in the app (--style ${style})`, () => {
      // Each of these is named after something the app can rename (the site's title, the site space's
      // path): a new name would be a delete and a create of the same object, and deleting the old
      // SiteSpaceCustomization clears the very overrides the new one adopted.
      const customization = { id: "ss_ts", siteId: "site_1", siteSpaceId: "ss_ts", title: "Acme for TypeScript" };
      const withAll = (title: string, path: string) => {
        const base = site({ title, customHostname: { hostname: "docs.acme.test" }, visitorAuth: { backend: "custom", fallbackURL: "https://login.acme.test" } });
        const guides = base.sections[1]!;
        return org({ sites: [{ ...base, sections: [base.sections[0]!, { ...guides, siteSpaces: [guides.siteSpaces[0]!, { ...guides.siteSpaces[1]!, path, customization }] }] }] });
      };
      const first = index(withAll("Acme Docs", "typescript"), { style });
      const again = index(withAll("Acme Handbook", "ts"), { style, previous: PreviousProgram.parse(first) });
      const names = (text: string) => [...text.matchAll(/new gitbook\.(\w+)\(("[^"]*")/g)].map((m) => `${m[1]} ${m[2]}`);
      expect(names(first)).toEqual(expect.arrayContaining(['SiteCustomHostname "acme-docs"', 'SiteVisitorAuth "acme-docs"', 'SiteSpaceCustomization "acme-docs/typescript-branding"']));
      expect(names(again)).toEqual(names(first));
    });
  }

  it("declares groups and external links, and the navigation's order as it is, so adopting it sorts nothing", () => {
    const text = index(org());
    expect(declarationOf(text, "acme-docs/learn")).toBe(
      ['const acmeDocsLearn = new gitbook.SiteSectionGroup("acme-docs/learn", {', "  siteId: acmeDocs.id,", '  title: "Learn",', '  icon: "book",', '  adoptId: "grp_1",', "});"].join("\n"),
    );
    expect(declarationOf(text, "acme-docs/blog")).toContain('  description: "News",\n  draft: true,\n  condition: "visitor.claims.beta == true",\n  adoptId: "lnk_blog",');
    expect(declarationOf(text, "acme-docs/order")).toBe(
      [
        'const acmeDocsOrder = new gitbook.SiteStructureOrder("acme-docs/order", {',
        "  siteId: acmeDocs.id,",
        "  items: [acmeDocsStart.id, acmeDocsLearn.id, acmeDocsBlog.id],",
        "  groups: [{ groupId: acmeDocsLearn.id, items: [acmeDocsStatus.id, acmeDocsGuides.id] }],",
        "});",
      ].join("\n"),
    );
    // The site's last declaration: after everything it lists.
    expect([...text.matchAll(/new gitbook\.\w+\("(acme-docs\/[^"]+)"/g)].at(-1)![1]).toBe("acme-docs/order");
    expect(text).not.toContain("TODO");
  });

  it("orders a section's further site spaces once it has two (its own is its SiteSection's)", () => {
    const s = site();
    s.sections[1]!.siteSpaces.push({ id: "ss_py", path: "python", default: false, space: space("spc_py", "SDK for Python") });
    expect(declarationOf(index(org({ sites: [s] })), "acme-docs/order")).toContain(
      "  sections: [\n    {\n      sectionId: acmeDocsGuides.id,\n      siteSpaces: [acmeDocsGuidesTypescript.id, acmeDocsGuidesPython.id],\n    },\n  ],\n",
    );
  });

  it("adopts the visitor schema with the site's ID, and leaves one the resource refuses as it is, saying why", () => {
    const text = index(org({ sites: [site({ adaptiveSchema: SCHEMA })] }));
    expect(declarationOf(text, "acme-docs/visitor-schema")).toContain("  siteId: acmeDocs.id,\n  jsonSchema: {\n    type: \"object\",");
    expect(declarationOf(text, "acme-docs/visitor-schema")).toContain('  adoptId: "site_1",\n});');
    const refused = program(org({ sites: [site({ adaptiveSchema: { type: "object", properties: { plan: { type: "string" } }, additionalProperties: false } })] }));
    expect(refused.files["index.ts"]).not.toContain("new gitbook.SiteAdaptiveSchema(");
    expect(refused.files["index.ts"]).toContain("// Its visitor schema is one SiteAdaptiveSchema refuses (jsonSchema.properties.plan.description");
    expect(refused.notes).toEqual([expect.stringMatching(/^Site "Acme Docs": its visitor schema was not imported \(jsonSchema\.properties\.plan\.description /)]);
  });

  it("declares a custom hostname that points to its site, and says why it leaves out one that cannot be declared", () => {
    const text = index(org({ sites: [site({ customHostname: { hostname: "docs.acme.test" } })] }));
    expect(text).toContain('const acmeDocsHostname = new gitbook.SiteCustomHostname("acme-docs", {\n  hostname: "docs.acme.test",\n  siteId: acmeDocs.id,\n});');
    const left = program(org({ sites: [site({ customHostname: { hostname: "docs.acme.test", unavailable: "the token may not read custom hostnames (GitBook answered 403)" } })] }));
    expect(left.files["index.ts"]).not.toContain("SiteCustomHostname");
    expect(left.notes).toEqual(['Site "Acme Docs": its custom hostname docs.acme.test is not imported: the token may not read custom hostnames (GitBook answered 403).']);
  });

  it("says what the navigation holds that it cannot declare, and declares a draft section as one", () => {
    const s = site({ unknownItems: [{ id: "x_1", object: "site-widget" }] });
    s.sections[0]!.draft = true;
    s.sectionGroups.push({ id: "grp_2", title: "Inner", draft: false, groupId: "grp_1", itemIds: [] });
    s.sectionGroups[0]!.itemIds.push("grp_2");
    const { files, notes } = program(org({ sites: [s] }));
    const text = files["index.ts"]!;
    expect(text).toContain("// The navigation holds \"x_1\", a \"site-widget\" pulumi-gitbook has no resource for: not imported, it stays where it is.");
    expect(declarationOf(text, "acme-docs/start")).toContain("  draft: true,\n");
    expect(text).toContain("// It is nested in section group \"grp_1\"; SiteSectionGroup has no input for that, so it stays where it is.\nconst acmeDocsInner = ");
    expect(declarationOf(text, "acme-docs/order")).toContain("groups: [{ groupId: acmeDocsLearn.id, items: [acmeDocsStatus.id, acmeDocsGuides.id, acmeDocsInner.id] }],");
    expect(notes).toContain('Site "Acme Docs": "site-widget" "x_1" in its navigation has no resource and was not imported.');
  });

  it("leaves out a setting the resource would refuse, saying why, and flags a required one", () => {
    const s = site();
    s.sections[1]!.title = "G";
    s.agentsContext = "sometimes";
    s.title = "A";
    const text = index(org({ sites: [s] }));
    expect(declarationOf(text, "a/guides")).not.toContain("title:");
    expect(text).toContain(
      '// title is "G" in GitBook, which SiteSection refuses (title must be 2 to 128 characters (got fewer)): left out, so it stays as it is.\nconst aGuides = ',
    );
    expect(declarationOf(text, "a")).not.toContain("agentsContext:");
    expect(text).toContain('// agentsContext is "sometimes" in GitBook, which Site refuses (agentsContext must be excluded or included): left out');
    expect(declarationOf(text, "a")).toContain('  title: "A",');
    expect(text).toContain('// FIXME: title is "A" in GitBook, which Site refuses (title must be 2 to 128 characters (got fewer)): preview fails until it is changed.');
    expect(program(org({ sites: [s] })).notes).toEqual([
      'Site "a": FIXME: title is "A" in GitBook, which Site refuses (title must be 2 to 128 characters (got fewer)): preview fails until it is changed.',
      'Site "a": agentsContext is "sometimes" in GitBook, which Site refuses (agentsContext must be excluded or included): left out, so it stays as it is.',
      'SiteSection "a/guides": title is "G" in GitBook, which SiteSection refuses (title must be 2 to 128 characters (got fewer)): left out, so it stays as it is.',
    ]);
  });

  it("leaves out a path a sibling has already (two sections of a site, two site spaces of a section, two sites), which a program refuses, saying why", () => {
    const s = site();
    const [start, guides] = s.sections;
    const twice = site({
      sections: [start!, { ...guides!, path: "start", siteSpaces: [guides!.siteSpaces[0]!, guides!.siteSpaces[1]!, { ...guides!.siteSpaces[1]!, id: "ss_ts2", space: space("spc_guides") }] }],
    });
    const other = bareSite({ id: "site_2", title: "Other", basename: "acme-docs", createdAt: "2025-03-01T00:00:00.000Z" });
    const generated = program(org({ sites: [twice, other] }));
    const text = generated.files["index.ts"]!;
    // Named by path, in ID order; declared in navigation order, the first keeping the path.
    expect(declarationOf(text, "acme-docs/start-2")).toContain('  path: "start",');
    expect(text).toContain(
      '// path is "start" in GitBook, as for SiteSection "acme-docs/start-2" in the same site (a section group has no path of its own), which a program refuses (two at one URL): left out, so it stays as it is.\nconst acmeDocsStart = new gitbook.SiteSection("acme-docs/start", {',
    );
    expect(declarationOf(text, "acme-docs/start")).not.toContain("  path:");
    expect(declarationOf(text, "acme-docs/start/typescript")).toContain('  path: "typescript",');
    expect(text).toContain('// path is "typescript" in GitBook, as for SiteSpace "acme-docs/start/typescript" in the same section, which a program refuses (two at one URL): left out, so it stays as it is.\nconst acmeDocsStartTypescript2 = ');
    expect(declarationOf(text, "acme-docs/start/typescript-2")).not.toContain("  path:");
    expect(text).toContain('// basename is "acme-docs" in GitBook, as for Site "acme-docs" in the same organization, which a program refuses (two at one URL): left out, so it stays as it is.\nconst other = ');
    expect(declarationOf(text, "other")).not.toContain("basename:");
    expect(generated.notes.filter((n) => n.includes("which a program refuses (two at one URL)"))).toHaveLength(3);
  });

  it("says what it could not import, in the program and in the notes", () => {
    const s = site({
      shareLinks: [{ id: "shl_x", active: true, createdAt: "2025-01-02T00:00:00.000Z" }],
      rootSiteSpaces: [{ id: "ss_root", path: "old", default: true, space: space("spc_old", "Old") }],
    });
    const failed = { id: "oas_3", slug: "broken", visibility: "private", processingState: "complete", lastProcessErrorCode: "PARSE_ERROR", source: { text: { unavailable: "GitBook has no processed version of it" } } };
    const { files, notes } = program(org({ sites: [s], openApiSpecs: [failed] }));
    const text = files["index.ts"]!;
    expect(text).toContain("// Share link \"shl_x\" has no name");
    expect(text).toContain('// Site space \"ss_root\" (space "Old" at "old") sits outside any section');
    expect(text).toContain("// TODO: put the document at openapi/broken.yaml: GitBook has no processed version of it.");
    expect(files["openapi/broken.yaml"]).toBeUndefined();
    expect(notes).toEqual([
      'Site "Acme Docs": site space "ss_root" is outside any section and was not imported.',
      'Site "Acme Docs": share link \"shl_x\" has no name and was not imported.',
      'OpenAPI spec "broken": put its document at openapi/broken.yaml before `pulumi up` (GitBook has no processed version of it).',
      'OpenAPI spec "broken": its last processing failed, so the first `pulumi up` sends its source again.',
    ]);
  });

  it("writes the downloaded document of a text upload beside the program", () => {
    expect(program(org()).files["openapi/internal.json"]).toBe('{"openapi":"3.0.3"}');
  });

  it("marks every resource retainOnDelete only when asked", () => {
    const transform = "pulumi.runtime.registerResourceTransform((args) => ({ props: args.props, opts: { ...args.opts, retainOnDelete: true } }));";
    expect(index(org(), { retainOnDelete: true })).toContain(transform);
    expect(index(org(), { retainOnDelete: true })).toContain('import * as pulumi from "@pulumi/pulumi";');
    expect(index(org())).not.toContain("registerResourceTransform");
    expect(index(org())).not.toContain("@pulumi/pulumi");
  });

  it("writes the organization, and the API URL when not the default, into the stack file, and no token", () => {
    expect(program(org(), { stack: "prod" }).files["Pulumi.prod.yaml"]).toMatch(/^config:\n {2}gitbook:organizationId: "org_1"\n$/m);
    const withUrl = program(org({ apiUrl: "http://127.0.0.1:9" })).files["Pulumi.dev.yaml"]!;
    expect(withUrl).toContain('  gitbook:apiUrl: "http://127.0.0.1:9"\n');
    expect(withUrl).not.toMatch(/gitbook:token:/);
    expect(JSON.parse(program(org(), { packageSpec: "file:../pulumi-gitbook" }).files["package.json"]!).dependencies).toEqual({
      "@pulumi/pulumi": "^3.216.0",
      "pulumi-gitbook": "file:../pulumi-gitbook",
    });
  });

  it("writes the package.json and tsconfig.json `pulumi-gitbook new` writes, and says above the adoptions that the first up writes nothing", () => {
    const spec = "git+https://github.com/acme/pulumi-gitbook.git#0123456789abcdef0123456789abcdef01234567";
    const imported = program(org(), { packageSpec: spec }).files;
    const made = skeleton({ name: OPTS.project, packageSpec: spec, own: ownPackage(), devOrganizationId: "org_1" }).files;
    expect(imported["package.json"]).toBe(made["package.json"]);
    expect(imported["tsconfig.json"]).toBe(made["tsconfig.json"]);
    const text = index(org());
    const header = text.slice(0, text.indexOf("\nconst "));
    expect(header).toContain("// `pulumi preview` shows every one as a create (`+ N to create`)");
    expect(header).toMatch(/first `pulumi up` reads each object and, each being declared as it is, writes nothing\./);
  });

  it("declares a site's redirect rules as they are, in one SiteRedirects adopting them (a create without adoptId refuses any rule)", () => {
    const redirects = [
      { source: "/old", destination: { url: "https://acme.test/new" }, permanent: true },
      { source: "/beta/*", destination: { siteSectionId: "sec_guides" }, draft: true, captureWildcard: true },
    ];
    const text = index(org({ sites: [site({ redirects })] }));
    expect(text).toContain('const acmeDocsRedirects = new gitbook.SiteRedirects("acme-docs/redirects", {\n  siteId: acmeDocs.id,\n  rules: [');
    expect(text).toContain('{ source: "/old", destination: { url: "https://acme.test/new" }, permanent: true },');
    expect(text).toMatch(/new gitbook.SiteRedirects\("acme-docs\/redirects", \{[^]*?\n  adoptId: "site_\w+",\n\}/);
    const docs = declarationOf(index(org({ sites: [site({ redirects })] }), { style: "docs-site" }), "acme-docs");
    expect(docs).toContain('  redirects: [\n    { source: "/old", destination: { url: "https://acme.test/new" }, permanent: true },');
    expect(docs).toMatch(/\n  redirectsAdoptId: "site_\w+",/);
    expect(index(org())).not.toContain("SiteRedirects");
  });

  it("declares a site space's overrides of the branding as they are, referring to the site space where the program declares it", () => {
    const customization = { id: "ss_ts", siteId: "site_1", siteSpaceId: "ss_ts", title: "Acme for TypeScript", styling: { primaryColor: { light: "#3178c6", dark: "#235a97" } } };
    const base = site();
    const withOverrides = site({ sections: [base.sections[0]!, { ...base.sections[1]!, siteSpaces: [base.sections[1]!.siteSpaces[0]!, { ...base.sections[1]!.siteSpaces[1]!, customization }] }] });
    const text = index(org({ sites: [withOverrides] }));
    expect(text).toContain(
      'const acmeDocsTypescriptBranding = new gitbook.SiteSpaceCustomization("acme-docs/typescript-branding", {\n  siteId: acmeDocs.id,\n  siteSpaceId: acmeDocsGuidesTypescript.id,\n  title: "Acme for TypeScript",\n  styling: { primaryColor: { light: "#3178c6", dark: "#235a97" } },\n});',
    );
    // Beside a DocsSite: its site spaces have no variable of their own, so the ID is written as it is.
    const docs = index(org({ sites: [withOverrides] }), { style: "docs-site" });
    expect(docs).toContain('new gitbook.SiteSpaceCustomization("acme-docs/typescript-branding", {\n  siteId: acmeDocs.siteId,\n  siteSpaceId: "ss_ts",');
    expect(index(org())).not.toContain("SiteSpaceCustomization");
  });

  describe("authoritative lists (FieldRule.authoritative), which remove what they do not list", () => {
    // An empty list declares the set empty: what a teammate adds in the app after the import is removed
    // at the next up. Each list is written where the import found entries, and left out (unmanaged) otherwise.
    const authoritative = resources.flatMap((def) =>
      Object.entries(def.schema.shape as Record<string, z.ZodType>).flatMap(([f, s]) => (ruleOf(s).authoritative ? [`${def.kind}.${f}`] : [])),
    );
    const emptyEverywhere = org({
      teams: [...org().teams, { id: "team_2", title: "Reviewers", createdAt: "2025-02-01T00:00:00.000Z", members: [] }],
      sites: [site({ redirects: [] })],
      access: [
        { on: "site", id: "site_1", title: "Acme Docs", teams: [{ teamId: "team_1", role: "admin" }], users: [] },
        { on: "space", id: "spc_guides", title: "Guides", teams: [], users: [{ userId: "usr_1", role: "read" }] },
        { on: "space", id: "spc_ts", title: "SDK for TypeScript", teams: [], users: [] },
      ],
    });

    it("covers every authoritative list of the registry (a new one needs its case here)", () => {
      expect(authoritative.sort()).toEqual(["AccessList.teams", "AccessList.users", "SiteRedirects.rules", "SiteSectionGroup.sections", "Team.members"]);
    });

    it("never writes one empty, in either style: the kind of grant, the members, the rules found none, so none is managed", () => {
      for (const style of ["resources", "docs-site"] as const) {
        const text = index(emptyEverywhere, { style });
        for (const kindField of authoritative) {
          const [kind, f] = kindField.split(".");
          const decls = [...text.matchAll(new RegExp(`new gitbook\\.${kind}\\([^]*?\\n\\}`, "g"))].map((m) => m[0]);
          for (const d of decls) expect(d, `${style}: ${kindField}`).not.toMatch(new RegExp(`\\b${f}: \\[\\]`));
        }
        // A DocsSite's redirects are its SiteRedirects' rules.
        expect(text, style).not.toMatch(/\bredirects: \[\]/);
        expect(text, style).not.toContain("SiteRedirects(");
        const of = (kind: string, name: string) => text.slice(text.indexOf(`new gitbook.${kind}(${JSON.stringify(name)}, {`)).split("\n});")[0]!;
        expect(of("AccessList", "acme-docs")).toContain("teams: [");
        expect(of("AccessList", "acme-docs")).not.toContain("users");
        expect(of("AccessList", "guides")).toContain('users: [{ userId: "usr_1", role: "read" }],');
        expect(of("AccessList", "guides")).not.toContain("teams");
        expect(of("Team", "reviewers")).not.toContain("members");
        expect(of("Team", "docs-writers")).toContain("members: [");
        // An object with no grant at all has no AccessList (it would declare neither list).
        expect(text.match(/new gitbook\.AccessList\(/g), style).toHaveLength(2);
      }
    });
  });

  describe("--style docs-site", () => {
    it("writes one DocsSite per site, with every child adopted by key", () => {
      const text = index(org(), { style: "docs-site" });
      const docs = declarationOf(text, "acme-docs");
      expect(docs).toMatch(/^const acmeDocs = new gitbook\.DocsSite\("acme-docs", \{\n {2}site: \{\n {4}title: "Acme Docs",/);
      expect(docs).toContain('  shareLinks: [\n    { key: "partner", name: "Partner", active: true, adoptId: "shl_a" },');
      expect(docs).not.toMatch(/siteId|groupId/);
      expect(text).not.toContain("new gitbook.SiteSectionGroup(");
    });

    it("writes the navigation in its order, groups holding their sections and links, and adopts the visitor schema", () => {
      const text = index(org({ sites: [site({ adaptiveSchema: SCHEMA })] }), { style: "docs-site" });
      const docs = declarationOf(text, "acme-docs");
      const entries = [...docs.matchAll(/^( +)(?:type: "(\w+)",\n\1)?key: "([\w-]+)"/gm)].map((m) => `${(m[1]!.length - 6) / 4}:${m[2] ?? "section"}:${m[3]}`);
      expect(entries).toEqual(["0:section:start", "0:group:learn", "1:link:status", "1:section:guides", "2:section:typescript", "0:link:blog"]);
      expect(docs).toContain('          key: "guides",\n          spaceId: guidesSpace.id,\n          title: "Guides",\n          path: "guides",\n          adoptId: "sec_guides",\n          siteSpaces: [');
      expect(docs).toContain('      icon: "book",\n      adoptId: "grp_1",\n      sections: [');
      expect(docs).toMatch(/\n {2}visitorSchema: \{\n {4}type: "object",[^]*\n {2}\},\n {2}visitorSchemaAdoptId: "site_1",\n\}\);$/);
    });

    it("declares resource by resource a site whose conditions name claims its visitor schema lacks, or whose groups nest", () => {
      const lacking = index(org({ sites: [site({ adaptiveSchema: { ...SCHEMA, properties: { ts: SCHEMA.properties.ts } } })] }), { style: "docs-site" });
      expect(lacking).toMatch(/\/\/ Declared resource by resource: as a DocsSite, .*visitor\.claims\.beta/);
      expect(lacking).toContain('const acmeDocsOrder = new gitbook.SiteStructureOrder("acme-docs/order", {');
      const s = site();
      s.sectionGroups.push({ id: "grp_2", title: "Inner", draft: false, groupId: "grp_1", itemIds: [] });
      s.sectionGroups[0]!.itemIds.push("grp_2");
      expect(index(org({ sites: [s] }), { style: "docs-site" })).toContain(
        '// Declared resource by resource: as a DocsSite, section group "Inner" is nested in another group, which a DocsSite cannot hold.',
      );
    });

    it("keeps share links of a site that is not share-link beside the component, which refuses them", () => {
      const text = index(org({ sites: [site({ visibility: "public" })] }), { style: "docs-site" });
      expect(declarationOf(text, "acme-docs")).not.toContain("shareLinks");
      expect(declarationOf(text, "acme-docs/partner")).toContain("siteId: acmeDocs.siteId,");
    });

    it("falls back to one resource per object, saying why, where DocsSite cannot hold the site", () => {
      const s = site();
      s.sections[1]!.siteSpaces[1]!.space = space("spc_guides", "Guides");
      const text = index(org({ sites: [s, bareSite({ id: "site_2", title: "Empty", createdAt: "2025-03-01T00:00:00.000Z" })] }), {
        style: "docs-site",
      });
      expect(text).toContain(
        "// Declared resource by resource: as a DocsSite, sections[1].sections[1].siteSpaces[0].spaceId shows the same space as sections[1].sections[1].spaceId",
      );
      expect(text).toContain('const acmeDocs = new gitbook.Site("acme-docs", {');
      expect(text).toContain("// Declared resource by resource: as a DocsSite, a site needs at least one section.");
      expect(text).toContain('const empty = new gitbook.Site("empty", {');
    });
  });

  describe("re-importing into a program of the other form", () => {
    // A DocsSite's children have it as their parent, so the same object declared resource by resource has
    // another URN: switching forms, the first up would adopt every object of the site under its new URN and
    // delete it under the old one (the sections, then the site).
    const withHostname = org({ sites: [site({ customHostname: { hostname: "docs.acme.test" } })] });

    it("keeps a site declared resource by resource so, whatever --style says, and says why", () => {
      const previous = PreviousProgram.parse(index(withHostname));
      const again = program(withHostname, { style: "docs-site", previous });
      const text = again.files["index.ts"]!;
      expect(text).not.toContain("new gitbook.DocsSite(");
      expect(text).toContain('const acmeDocs = new gitbook.Site("acme-docs", {');
      expect(text).toContain('hostname: "docs.acme.test",\n  siteId: acmeDocs.id,');
      expect(again.notes).toContainEqual(expect.stringMatching(/^Site "Acme Docs": declared resource by resource, as the program here declares it/));
    });

    it("keeps a DocsSite a DocsSite, whatever --style says", () => {
      const previous = PreviousProgram.parse(index(withHostname, { style: "docs-site" }));
      const text = index(withHostname, { style: "resources", previous });
      expect(text).toContain('const acmeDocs = new gitbook.DocsSite("acme-docs", {');
      expect(text).not.toContain('new gitbook.Site("acme-docs"');
      // The component has no `id` of its site: its hostname names the site by ID.
      expect(text).toContain('hostname: "docs.acme.test",\n  siteId: "site_1",');
    });

    it("keeps a DocsSite's share links where they were, inside or beside it, after a change of the site's visibility", () => {
      // The fixture's site is `share-link`: its links are inside the component.
      const inside = PreviousProgram.parse(index(org(), { style: "docs-site" }));
      expect(() => program(org({ sites: [site({ visibility: "public" })] }), { style: "docs-site", previous: inside })).toThrow(
        /^Site "Acme Docs": the program here declares its share links inside its DocsSite, which takes them only for a `share-link` site, and it is now "public"/,
      );
      // A public site's links are beside it; once the site is `share-link`, they stay there.
      const beside = PreviousProgram.parse(index(org({ sites: [site({ visibility: "public" })] }), { style: "docs-site" }));
      const text = index(org(), { style: "docs-site", previous: beside });
      expect(declarationOf(text, "acme-docs")).not.toContain("shareLinks");
      expect(declarationOf(text, "acme-docs/partner")).toContain("siteId: acmeDocs.siteId,");
    });

    it("refuses, writing nothing, when a DocsSite can no longer be one, rather than give its objects new URNs", () => {
      const previous = PreviousProgram.parse(index(withHostname, { style: "docs-site" }));
      const s = site({ customHostname: { hostname: "docs.acme.test" } });
      s.sectionGroups.push({ id: "grp_2", title: "Inner", draft: false, groupId: "grp_1", itemIds: [] });
      s.sectionGroups[0]!.itemIds.push("grp_2");
      expect(() => program(org({ sites: [s] }), { style: "docs-site", previous })).toThrow(
        /^Site "Acme Docs": the program here declares it as a DocsSite, which it can no longer be \(section group "Inner" is nested in another group, which a DocsSite cannot hold\)/,
      );
    });
  });

  it("never declares one object twice: a snapshot holding it twice fails rather than give it two resources", () => {
    expect(() => index(org({ sites: [site(), site()] }))).toThrow(/Site "site_1" would be adopted twice, as "acme-docs" and "acme-docs-2"/);
  });

  describe("re-importing into a program that declares what this import would not", () => {
    // A declaration gone from the program is a delete at the next up: of the object itself (a site, a
    // share link), or of what it manages (an AccessList's grants). Only an object gone from GitBook may go.
    const access = (role: string | null) => [{ on: "space" as const, id: "spc_guides", title: "Guides", teams: [{ teamId: "team_1", role }], users: [] }];

    it("refuses, writing nothing, when an object it declared is still there but can no longer be declared", () => {
      const previous = PreviousProgram.parse(index(org({ access: access("admin") })));
      expect(() => program(org({ access: access(null) }), { previous })).toThrow(
        /AccessList "guides" \(space "Guides": team team_1 is a guest, which an AccessList cannot declare\).*the first `pulumi up` would delete.*Nothing was written/s,
      );
      const named = PreviousProgram.parse(index(org()));
      const unnamed = site();
      delete unnamed.shareLinks[0]!.name;
      expect(() => program(org({ sites: [unnamed] }), { previous: named })).toThrow(/ShareLink "acme-docs\/partner-2" \(share link "shl_b" has no name/);
      const schema = PreviousProgram.parse(index(org({ sites: [site({ adaptiveSchema: SCHEMA })] })));
      expect(() => program(org({ sites: [site({ adaptiveSchema: { type: "array" } })] }), { previous: schema })).toThrow(
        /SiteAdaptiveSchema "acme-docs\/visitor-schema" \(its visitor schema is one SiteAdaptiveSchema refuses/,
      );
    });

    it("refuses when an AccessList's space is no longer read (no site shows it), since its grants may well still be there", () => {
      const previous = PreviousProgram.parse(index(org({ access: access("admin") })));
      // "Guides" is no longer shown: the import reads neither the space nor its grants.
      const s = site();
      const unshown = org({ sites: [{ ...s, sections: [s.sections[0]!], sectionGroups: [], externalLinks: [], topLevel: ["sec_start"] }], spaces: org().spaces.filter((x) => x.id !== "spc_guides") });
      expect(() => program(unshown, { previous })).toThrow(/AccessList "guides" \(what it grants access to is not read by this import/);
      // A site's AccessList goes with the site: a whole import reads every site, so one it did not read is gone.
      const siteAccess = [{ on: "site" as const, id: "site_1", title: "Acme Docs", teams: [{ teamId: "team_1", role: "edit" }], users: [] }];
      const withSite = PreviousProgram.parse(index(org({ access: siteAccess })));
      expect(index(org({ sites: [] }), { previous: withSite })).not.toContain("AccessList");
    });

    it("refuses a --site import over a program declaring other sites or organization-wide objects", () => {
      const two = org({ sites: [site(), bareSite({ id: "site_2", title: "Other", createdAt: "2025-03-01T00:00:00.000Z" })] });
      const previous = PreviousProgram.parse(index(two));
      const narrowed = { ...org(), scope: "sites" as const, teams: [], samlProviders: [], openApiSpecs: [] };
      expect(() => program(narrowed, { previous })).toThrow(/Site "other" \(not among the sites asked for with --site\).*Team "docs-writers" \(not read with --site\)/s);
      // Over a program of the same site alone, it goes ahead.
      const alone = PreviousProgram.parse(index(narrowed));
      expect(index(narrowed, { previous: alone })).toContain('new gitbook.Site("acme-docs", {');
    });

    it("drops, as before, what is gone from GitBook", () => {
      const previous = PreviousProgram.parse(index(org({ access: access("admin") })));
      expect(index(org({ sites: [bareSite({ title: "Acme Docs" })], teams: [], access: [] }), { previous })).not.toContain("AccessList");
    });
  });
});

