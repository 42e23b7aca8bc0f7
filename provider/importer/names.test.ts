import { describe, expect, it } from "vitest";
import { Identifiers, Namer, slug } from "./names";

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
