import { describe, expect, it } from "vitest";
import { Identifiers, Namer, PreviousProgram, slug } from "./names";

describe("slug", () => {
  it("keeps lower-case letters, digits and single hyphens, the way a DocsSite key must be", () => {
    expect(slug("Acme Developer Docs", "site")).toBe("acme-developer-docs");
    expect(slug("  Café & Crème — v2.0 ", "site")).toBe("cafe-creme-v2-0");
    expect(slug("🚀🚀", "section")).toBe("section");
    expect(slug("x".repeat(80), "site")).toHaveLength(64);
    expect(slug(`${"a".repeat(63)} b`, "site")).toBe("a".repeat(63));
  });
});

describe("Namer", () => {
  it("gives the first object a name as is and later ones -2, -3, so older objects keep theirs", () => {
    const n = new Namer();
    expect([n.take("docs"), n.take("docs"), n.take("guides"), n.take("docs")]).toEqual(["docs", "docs-2", "guides", "docs-3"]);
  });

  it("never hands out a name twice, even one that looks like a suffixed name", () => {
    const n = new Namer();
    const names = ["docs-2", "docs", "docs", "docs"].map((b) => n.take(b));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(["docs-2", "docs", "docs-3", "docs-4"]);
  });

  it("keeps suffixed names within 64 characters", () => {
    const n = new Namer();
    const base = "a".repeat(64);
    n.take(base);
    expect(n.take(base)).toBe(`${"a".repeat(62)}-2`);
  });
});

describe("Identifiers", () => {
  it("camel-cases names, reading all-capital words as words", () => {
    const ids = new Identifiers();
    expect(ids.take("acme-docs/guides")).toBe("acmeDocsGuides");
    expect(ids.take("API reference")).toBe("apiReference");
    expect(ids.take("SDK for TypeScript")).toBe("sdkForTypeScript");
  });

  it("never gives a reserved word, a name the program uses itself, a leading digit or a name twice", () => {
    const ids = new Identifiers();
    expect(ids.take("default")).toBe("default2");
    expect(ids.take("spaces")).toBe("spaces2");
    expect(ids.take("gitbook")).toBe("gitbook2");
    expect(ids.take("2024 docs")).toBe("_2024Docs");
    expect(ids.take("🚀")).toBe("resource");
    expect([ids.take("acme-docs"), ids.take("Acme docs"), ids.take("acme docs")]).toEqual(["acmeDocs", "acmeDocs2", "acmeDocs3"]);
  });
});

describe("PreviousProgram", () => {
  it("reads the names of an earlier import by adoptId, skipping code it did not write, and runs nothing", () => {
    const text = [
      'import * as gitbook from "pulumi-gitbook";',
      "// const fake = new gitbook.Site(\"from-a-comment\", { adoptId: \"site_1\" });",
      'const guidesSpace = new gitbook.Space("guides", { title: "Guides \\"quoted\\"\\u2028", adoptId: "spc_1" }, { retainOnDelete: true });',
      'const docs = new gitbook.Site("docs", { title: "Docs", adoptId: "site_1" });',
      'const docsGuides = new gitbook.SiteSection("docs/guides", {',
      "  siteId: docs.id,",
      "  spaceId: guidesSpace.id,",
      '  title: "Guides",',
      '  adoptId: "sec_1",',
      "});",
      "const mine = new gitbook.SiteSection(`docs/${1 + 1}`, { adoptId: \"sec_2\" });",
      'const schema = new gitbook.SiteAdaptiveSchema("docs/visitor-schema", { jsonSchema: { properties: { ["__proto__"]: { type: "string" } } }, adoptId: "site_1" });',
      'const portal = new gitbook.DocsSite("portal", {',
      '  site: { title: "Portal", adoptId: "site_2" },',
      '  sections: [{ key: "start", spaceId: "spc_9", adoptId: "sec_3", siteSpaces: [{ key: "ts", spaceId: "spc_8", adoptId: "ss_1" }] }, { type: "group", key: "learn", adoptId: "grp_1", sections: [{ type: "link", key: "blog", adoptId: "lnk_1" }] }],',
      '  shareLinks: [{ key: "partner", name: "Partner", adoptId: "shl_1" }],',
      '  visitorSchema: { type: "object" },',
      '  visitorSchemaAdoptId: "site_2",',
      '  redirects: [],',
      '  redirectsAdoptId: "site_2",',
      "});",
    ].join("\n");
    const p = PreviousProgram.parse(text);
    expect(p.name("Site", "site_1")).toBe("docs");
    expect(p.name("SiteAdaptiveSchema", "site_1")).toBe("docs/visitor-schema");
    expect(p.name("Space", "spc_1")).toBe("guides");
    expect(p.name("SiteSection", "sec_1")).toBe("docs/guides");
    expect(p.ownSpace("sec_1")).toBe("spc_1");
    expect(p.name("SiteSection", "sec_2")).toBeUndefined();
    expect(p.name("Site", "site_2")).toBe("portal");
    expect(p.name("SiteSection", "sec_3")).toBe("portal/start");
    expect(p.ownSpace("sec_3")).toBe("spc_9");
    expect(p.name("SiteSpace", "ss_1")).toBe("portal/start/ts");
    expect(p.name("SiteSectionGroup", "grp_1")).toBe("portal/learn");
    expect(p.name("SiteExternalLink", "lnk_1")).toBe("portal/blog");
    expect(p.name("ShareLink", "shl_1")).toBe("portal/partner");
    expect(p.name("SiteAdaptiveSchema", "site_2")).toBe("portal/visitor-schema");
    expect(p.name("SiteRedirects", "site_2")).toBe("portal/redirects");
  });

  it("still reads the name and adoptId of a declaration whose other values the user has made expressions", () => {
    // A program edited after the import: were such a declaration skipped, a re-import after a rename in
    // the app would rename its resource, and the plan would adopt the object anew and delete it.
    const text = [
      'import * as gitbook from "pulumi-gitbook";',
      'const stage = "prod";',
      'const guidesSpace = new gitbook.Space("guides", { title: `Guides (${stage})`, emoji: process.env.EMOJI ?? "🧭", adoptId: "spc_1" }, { retainOnDelete: true });',
      "const docs = new gitbook.Site(\"docs\", {",
      "  title: [\"Docs\", stage].join(\" \"),",
      "  visibility: stage === \"prod\" ? \"public\" : \"unlisted\",",
      "  adaptiveContent: { enabled: ((x: number) => x > 0)(1) },",
      '  adoptId: "site_1",',
      "});",
      'const docsGuides = new gitbook.SiteSection("docs/guides", { siteId: docs.id, spaceId: guidesSpace.id, title: `a}b]c,d`, description: "x" + `y`, adoptId: "sec_1" });',
    ].join("\n");
    const p = PreviousProgram.parse(text);
    expect(p.name("Space", "spc_1")).toBe("guides");
    expect(p.name("Site", "site_1")).toBe("docs");
    expect(p.name("SiteSection", "sec_1")).toBe("docs/guides");
    expect(p.ownSpace("sec_1")).toBe("spc_1");
  });
});
