/**
 * Plans a reviewer can read, through the real CLI: `pulumi preview --diff` of a change to a site's
 * navigation names every listed item by its title path beside its ID, in the order the site will show
 * them, and never makes the order flap when a title changes (in the program or in the app).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

describeDeployments("plans name the navigation's items", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  function program(order: string[], titles: Record<string, string> = {}, extra: Decl[] = []): Decl[] {
    const spaces = d.emu.seeded.spaceIds;
    const section = (name: string, title: string, space: number): Decl => ({
      kind: "SiteSection",
      name,
      args: { siteId: ref("site.id"), spaceId: spaces[space], title: titles[name] ?? title },
    });
    return [
      { kind: "Site", name: "site", args: { title: "Plans Docs" } },
      section("guides", "Guides", 0),
      section("api", "API", 1),
      section("changelog", "Changelog", 3),
      section("sdk", "SDK", 4),
      ...extra,
      { kind: "SiteSectionGroup", name: "tools", args: { siteId: ref("site.id"), title: "Tools", sections: [ref("sdk.id")] } },
      { kind: "SiteExternalLink", name: "status", args: { siteId: ref("site.id"), title: "Status", url: "https://status.acme.test" }, dependsOn: ["guides"] },
      { kind: "SiteStructureOrder", name: "order", args: { siteId: ref("site.id"), items: order.map((n) => ref(`${n}.id`)), groups: [{ groupId: ref("tools.id"), items: [ref("sdk.id")] }] } },
    ];
  }
  const idOf = (name: string) => d.resource(name).id!;
  /** The order resource's part of a `--diff` plan. */
  const orderPart = (stdout: string) => stdout.slice(stdout.indexOf("gitbook:SiteStructureOrder"), stdout.indexOf("Resources:"));

  it("previews a reorder with each item's title beside its ID, in the site's order", async () => {
    expect((await d.run("up", program(["guides", "api", "changelog", "tools", "status"]))).error).toBeUndefined();
    d.emu.log.reset();
    const r = await d.run("preview", program(["changelog", "guides", "api", "tools", "status"]), { flags: ["--diff"] });
    expect(r.error).toBeUndefined();
    expect(steps(r).filter((s) => !s.startsWith("same"))).toEqual(["update order"]);
    const plan = orderPart(r.stdout);
    const [guides, api, changelog] = ["guides", "api", "changelog"].map(idOf);
    expect(plan).toContain(`~ [0]: "Guides (${guides})" => "Changelog (${changelog})"`);
    expect(plan).toContain(`~ [1]: "API (${api})" => "Guides (${guides})"`);
    expect(plan).toContain(`~ [2]: "Changelog (${changelog})" => "API (${api})"`);
    // A group's items follow it, named by their path.
    expect(plan).toContain(`[3]: "Tools (${idOf("tools")})"`);
    expect(plan).toContain(`[4]: "Tools / SDK (${idOf("sdk")})"`);
    expect(d.emu.log.count()).toBe(0);
  });

  it("names an item not created yet by its title", async () => {
    const added: Decl = { kind: "SiteSection", name: "faq", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[2], title: "FAQ" } };
    const r = await d.run("preview", program(["guides", "faq", "api", "changelog", "tools", "status"], {}, [added]), { flags: ["--diff"] });
    expect(r.error).toBeUndefined();
    expect(orderPart(r.stdout)).toContain(`~ [1]: "API (${idOf("api")})" => "FAQ (new)"`);
  });

  it("does not flap when a title changes, in the program or in the app", async () => {
    const order = ["guides", "api", "changelog", "tools", "status"];
    const renamed = await d.run("preview", program(order, { api: "API reference" }));
    expect(steps(renamed).filter((s) => !s.startsWith("same"))).toEqual(["update api"]);
    d.emu.store.sections.get(idOf("changelog"))!.title = "Release notes";
    const refreshed = await d.run("refresh");
    expect(refreshed.steps.find((s) => s.name === "order")?.changed ?? []).toEqual([]);
    d.emu.log.reset();
    const again = await d.run("up", program(order, { changelog: "Release notes" }));
    expect(steps(again).every((s) => s.startsWith("same"))).toBe(true);
    expect(d.emu.log.count()).toBe(0);
  });

  it("shows a reorder made in the app by name at refresh", async () => {
    d.emu.store.setOrder(["status", "tools", "changelog", "api", "guides"].map(idOf));
    const r = await d.run("refresh", undefined, { flags: ["--diff"] });
    expect(r.steps.find((s) => s.name === "order")?.changed).toContain("navigation");
    expect(d.resource("order").inputs.navigation).toEqual([
      `Status (${idOf("status")})`,
      `Tools (${idOf("tools")})`,
      `Tools / SDK (${idOf("sdk")})`,
      `Release notes (${idOf("changelog")})`,
      `API (${idOf("api")})`,
      `Guides (${idOf("guides")})`,
    ]);
  });
});

/**
 * Every reference input (a site, space, section or group ID) is named in `names` beside its ID when
 * the program passes a resource's `id` output: at a create, at a change of reference, never flapping
 * when a title changes in the app, and for a DocsSite's children alike.
 */
describeDeployments("plans name the objects a resource refers to", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const seeded = (i: number) => d.emu.seeded.spaceIds[i]!;
  /** A site with two sections on spaces of this program, and a further site space of a section. */
  function program(siteSpace: { sectionId: string; spaceId: unknown }): Decl[] {
    return [
      { kind: "Site", name: "docs", args: { title: "Named Docs" } },
      { kind: "Space", name: "guidesSpace", args: { title: "Guides content" } },
      { kind: "Space", name: "apiSpace", args: { title: "API content" } },
      { kind: "Space", name: "extraSpace", args: { title: "Extra content" } },
      { kind: "SiteSection", name: "guides", args: { siteId: ref("docs.id"), spaceId: ref("guidesSpace.id"), title: "Guides" } },
      { kind: "SiteSection", name: "api", args: { siteId: ref("docs.id"), spaceId: ref("apiSpace.id"), title: "API" } },
      { kind: "SiteSpace", name: "v2", args: { siteId: ref("docs.id"), sectionId: ref(`${siteSpace.sectionId}.id`), spaceId: siteSpace.spaceId, path: "v2" } },
    ];
  }
  const idOf = (name: string) => d.resource(name).id!;

  it("names a new resource's references at a create, (new) standing for IDs not known yet, and leaves a literal ID alone", async () => {
    d.emu.log.reset();
    const r = await d.run("preview", program({ sectionId: "guides", spaceId: seeded(0) }), { flags: ["--diff"] });
    expect(r.error).toBeUndefined();
    const plan = partOf(r.stdout, "v2");
    expect(plan).toMatch(/names\s*: \{\s*sectionId: "Guides \(new\)"\s*siteId\s*: "Named Docs \(new\)"\s*\}/);
    expect(plan).toMatch(new RegExp(`spaceId\\s*: "${seeded(0)}"`));
    expect(partOf(r.stdout, "guides")).toMatch(/siteId\s*: "Named Docs \(new\)"\s*spaceId: "Guides content \(new\)"/);
    // Costs no request.
    expect(d.emu.log.count()).toBe(0);

    expect((await d.run("up", program({ sectionId: "guides", spaceId: seeded(0) }))).error).toBeUndefined();
    expect(d.resource("v2").inputs.names).toEqual({ sectionId: `Guides (${idOf("guides")})`, siteId: `Named Docs (${idOf("docs")})` });
    expect(d.resource("v2").outputs.names).toEqual(d.resource("v2").inputs.names);
  });

  it("names both sides of a change of reference: a site space moved to another section and to another space", async () => {
    d.emu.log.reset();
    const r = await d.run("preview", program({ sectionId: "api", spaceId: ref("extraSpace.id") }), { flags: ["--diff"] });
    expect(r.error).toBeUndefined();
    const plan = partOf(r.stdout, "v2");
    expect(plan).toContain(`~ sectionId: "Guides (${idOf("guides")})" => "API (${idOf("api")})"`);
    expect(plan).toContain(`+ spaceId  : "Extra content (${idOf("extraSpace")})"`);
    expect(d.emu.log.count()).toBe(0);
  });

  it("keeps the names at refresh after a rename in the app, so no plan flaps", async () => {
    d.emu.store.sections.get(idOf("guides"))!.title = "Guides (renamed in the app)";
    const before = d.resource("v2").inputs.names;
    const refreshed = await d.run("refresh");
    expect(refreshed.error).toBeUndefined();
    expect(refreshed.steps.find((s) => s.name === "v2")?.changed ?? []).toEqual([]);
    expect(d.resource("v2").inputs.names).toEqual(before);
    expect(d.resource("v2").outputs.names).toEqual(before);
    // The next up puts the title back, and changes nothing that names the section.
    const up = await d.run("up", program({ sectionId: "guides", spaceId: seeded(0) }));
    expect(steps(up).filter((s) => !s.startsWith("same"))).toEqual(["update guides"]);
  });
});

describeDeployments("plans name a DocsSite's children by title", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const docs = (siteSpaces: { key: string; space: { title: string } }[]): Decl[] => [
    { kind: "DocsSite", name: "docs", args: { site: { title: "Component Docs" }, sections: [{ key: "guides", title: "Guides", space: { title: "Guides content" }, siteSpaces }] } },
  ];

  it("shows a new site space of a section with the section's, site's and space's titles", async () => {
    expect((await d.run("up", docs([]))).error).toBeUndefined();
    const r = await d.run("preview", docs([{ key: "v2", space: { title: "Guides v2" } }]), { flags: ["--diff"] });
    expect(r.error).toBeUndefined();
    const section = d.resource("docs/guides").id!;
    const site = d.state().resources.find((x) => x.type.endsWith("gitbook:Site"))!.id!;
    const plan = partOf(r.stdout, "docs/guides/v2");
    expect(plan).toContain(`sectionId: "Guides (${section})"`);
    expect(plan).toContain(`siteId   : "Component Docs (${site})"`);
    expect(plan).toContain(`spaceId  : "Guides v2 (new)"`);
    // The order lists the new site space under its section, by the section's title and the child's name until GitBook titles it.
    const order = partOf(r.stdout, "docs/order");
    expect(order).toContain(`+ [2]: "Guides / docs/guides/v2 (new)"`);
  });
});

/** A resource's part of a `--diff` plan: its lines, from the one before its URN to the next resource's. */
function partOf(stdout: string, name: string): string {
  const lines = stdout.split("\n");
  const at = lines.findIndex((l) => l.trim().startsWith("[urn=") && l.trim().endsWith(`::${name}]`));
  if (at < 0) return "";
  const end = lines.findIndex((l, i) => i > at && l.trim().startsWith("[urn="));
  return lines.slice(at - 1, end < 0 ? undefined : end - 1).join("\n");
}
