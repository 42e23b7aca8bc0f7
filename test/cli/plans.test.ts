/**
 * Plans a reviewer can read, through the real CLI: `pulumi preview --diff` of a change to a site's
 * navigation names every listed item by its title path beside its ID, in the order the site will show
 * them, and never makes the order flap when a title changes (in the program or in the app).
 *
 * Three programs side by side in one stack (a navigation, references between resources, a DocsSite),
 * each in its own names: one run serves the steps they have in common, and each test checks its
 * program's part of the run (its steps, its part of the `--diff` plan, the requests for its site).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

type Report = Awaited<ReturnType<Deployment["run"]>>;

describeDeployments("plans", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());
  const idOf = (name: string) => d.resource(name).id!;
  const seeded = (i: number) => d.emu.seeded.spaceIds[i]!;

  // ---- The navigation's items ----------------------------------------------------------------------
  const NAV = ["site", "guides", "api", "changelog", "sdk", "tools", "status", "order"];
  function nav(order: string[], titles: Record<string, string> = {}, extra: Decl[] = []): Decl[] {
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
  const ORDER = ["guides", "api", "changelog", "tools", "status"];
  /** The steps of a run other than `same`, among `names`. */
  const changes = (r: Report, names: string[]) => steps(r).filter((s) => !s.startsWith("same") && names.includes(s.slice(s.indexOf(" ") + 1)));

  // ---- References named beside their IDs -----------------------------------------------------------
  const REFS = ["namedSite", "guidesSpace", "apiSpace", "extraSpace", "namedGuides", "namedApi", "v2"];
  /** A site with two sections on spaces of this program, and a further site space of a section. */
  function refs(siteSpace: { sectionId: string; spaceId: unknown }): Decl[] {
    return [
      { kind: "Site", name: "namedSite", args: { title: "Named Docs" } },
      { kind: "Space", name: "guidesSpace", args: { title: "Guides content" } },
      { kind: "Space", name: "apiSpace", args: { title: "API content" } },
      { kind: "Space", name: "extraSpace", args: { title: "Extra content" } },
      { kind: "SiteSection", name: "namedGuides", args: { siteId: ref("namedSite.id"), spaceId: ref("guidesSpace.id"), title: "Guides" } },
      { kind: "SiteSection", name: "namedApi", args: { siteId: ref("namedSite.id"), spaceId: ref("apiSpace.id"), title: "API" } },
      { kind: "SiteSpace", name: "v2", args: { siteId: ref("namedSite.id"), sectionId: ref(`${siteSpace.sectionId}.id`), spaceId: siteSpace.spaceId, path: "v2" } },
    ];
  }
  const refsBase = () => refs({ sectionId: "namedGuides", spaceId: seeded(0) });

  // ---- A DocsSite's children -----------------------------------------------------------------------
  const docs = (siteSpaces: { key: string; space: { title: string } }[]): Decl[] => [
    { kind: "DocsSite", name: "docs", args: { site: { title: "Component Docs" }, sections: [{ key: "guides", title: "Guides", space: { title: "Guides content" }, siteSpaces }] } },
  ];

  /** Runs several tests read: the first preview (references not created yet), the preview with new items, the refresh and up after app renames. */
  let createPlan: Report;
  let newItemsPlan: Report;
  let renamedRefresh: Report;
  let renamedUp: Report;
  let namesBefore: unknown;
  let newItemsRequests: number;

  describe("the navigation's items", () => {
    it("previews a reorder with each item's title beside its ID, in the site's order", async () => {
      expect((await d.run("up", [...nav(ORDER), ...docs([])])).error).toBeUndefined();
      d.emu.log.reset();
      createPlan = await d.run("preview", [...nav(["changelog", "guides", "api", "tools", "status"]), ...refsBase(), ...docs([{ key: "v2", space: { title: "Guides v2" } }])], { flags: ["--diff"] });
      const r = createPlan;
      expect(r.error).toBeUndefined();
      expect(changes(r, NAV)).toEqual(["update order"]);
      const plan = partOf(r.stdout, "order");
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
      expect((await d.run("up", [...nav(ORDER), ...refsBase(), ...docs([])])).error).toBeUndefined();
      const added: Decl = { kind: "SiteSection", name: "faq", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[2], title: "FAQ" } };
      d.emu.log.reset();
      newItemsPlan = await d.run("preview", [...nav(["guides", "faq", "api", "changelog", "tools", "status"], {}, [added]), ...refs({ sectionId: "namedApi", spaceId: ref("extraSpace.id") }), ...docs([])], { flags: ["--diff"] });
      expect(newItemsPlan.error).toBeUndefined();
      newItemsRequests = d.emu.log.count();
      expect(partOf(newItemsPlan.stdout, "order")).toContain(`~ [1]: "API (${idOf("api")})" => "FAQ (new)"`);
    });

    it("does not flap when a title changes, in the program or in the app", async () => {
      const renamed = await d.run("preview", [...nav(ORDER, { api: "API reference" }), ...refsBase(), ...docs([])]);
      expect(changes(renamed, [...NAV, ...REFS])).toEqual(["update api"]);
      d.emu.store.sections.get(idOf("changelog"))!.title = "Release notes";
      // (The references' test renames its section in the app too: one refresh and one up serve both.)
      d.emu.store.sections.get(idOf("namedGuides"))!.title = "Guides (renamed in the app)";
      namesBefore = d.resource("v2").inputs.names;
      renamedRefresh = await d.run("refresh");
      expect(renamedRefresh.steps.find((s) => s.name === "order")?.changed ?? []).toEqual([]);
      d.emu.log.reset();
      renamedUp = await d.run("up", [...nav(ORDER, { changelog: "Release notes" }), ...refsBase(), ...docs([])]);
      expect(changes(renamedUp, NAV)).toEqual([]);
      // Nothing asked of GitBook about this site (the other site's section is put back meanwhile).
      expect(d.emu.log.entries.filter((e) => e.path.includes(idOf("site")))).toEqual([]);
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
  describe("the objects a resource refers to", () => {
    it("names a new resource's references at a create, (new) standing for IDs not known yet, and leaves a literal ID alone", () => {
      const r = createPlan;
      const plan = partOf(r.stdout, "v2");
      expect(plan).toMatch(/names\s*: \{\s*sectionId: "Guides \(new\)"\s*siteId\s*: "Named Docs \(new\)"\s*\}/);
      expect(plan).toMatch(new RegExp(`spaceId\\s*: "${seeded(0)}"`));
      expect(partOf(r.stdout, "namedGuides")).toMatch(/siteId\s*: "Named Docs \(new\)"\s*spaceId: "Guides content \(new\)"/);
      // Costs no request (checked with the reorder's, in the same preview).
      expect(changes(r, REFS).every((s) => s.startsWith("create "))).toBe(true);
      expect(d.resource("v2").inputs.names).toEqual({ sectionId: `Guides (${idOf("namedGuides")})`, siteId: `Named Docs (${idOf("namedSite")})` });
      expect(d.resource("v2").outputs.names).toEqual(d.resource("v2").inputs.names);
    });

    it("names both sides of a change of reference: a site space moved to another section and to another space", () => {
      const plan = partOf(newItemsPlan.stdout, "v2");
      expect(plan).toContain(`~ sectionId: "Guides (${idOf("namedGuides")})" => "API (${idOf("namedApi")})"`);
      expect(plan).toContain(`+ spaceId  : "Extra content (${idOf("extraSpace")})"`);
      expect(newItemsRequests).toBe(0);
    });

    it("keeps the names at refresh after a rename in the app, so no plan flaps", () => {
      expect(renamedRefresh.error).toBeUndefined();
      expect(renamedRefresh.steps.find((s) => s.name === "v2")?.changed ?? []).toEqual([]);
      // The next up put the title back, and changed nothing that names the section.
      expect(changes(renamedUp, REFS)).toEqual(["update namedGuides"]);
      expect(d.resource("v2").inputs.names).toEqual(namesBefore);
      expect(d.resource("v2").outputs.names).toEqual(namesBefore);
    });
  });

  describe("a DocsSite's children named by title", () => {
    it("shows a new site space of a section with the section's, site's and space's titles", () => {
      const r = createPlan;
      const section = d.resource("docs/guides").id!;
      const site = d.state().resources.find((x) => x.urn.includes("DocsSite$") && x.type.endsWith("gitbook:Site"))!.id!;
      const plan = partOf(r.stdout, "docs/guides/v2");
      expect(plan).toContain(`sectionId: "Guides (${section})"`);
      expect(plan).toContain(`siteId   : "Component Docs (${site})"`);
      expect(plan).toContain(`spaceId  : "Guides v2 (new)"`);
      // The order lists the new site space under its section, by the section's title and the child's name until GitBook titles it.
      const order = partOf(r.stdout, "docs/order");
      expect(order).toContain(`+ [2]: "Guides / docs/guides/v2 (new)"`);
    });
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
