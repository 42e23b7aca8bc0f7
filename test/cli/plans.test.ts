/**
 * Plans a reviewer can read, through the real CLI: `pulumi preview --diff` of a change to a site's
 * navigation names every listed item by its title path beside its ID, in the order the site will show
 * them, and never makes the order flap when a title changes (in the program or in the app).
 *
 * Four programs side by side in one stack (a navigation, a second navigation reordered in the app,
 * references between resources, a DocsSite), each in its own names: three runs (up, preview --diff,
 * up --refresh) serve all the tests, and each test checks its program's part of a run (its steps, what
 * its refresh read, its part of the `--diff` plan, the requests for its site). That the up after the
 * refresh asks nothing about the site but the renamed section and the Git Sync question is counted in
 * process (test/unit/plansRefresh.test.ts): here its requests mix with the refresh's reads.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { GIT_SYNC_QUESTION, ORG_QUESTION } from "../support/provider";
import { planSite } from "../support/scenarios";

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
    const { section, decls } = planSite(spaces, titles);
    return [
      ...decls,
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

  // ---- A second site whose navigation is reordered in the app (the first one's titles change meanwhile) --
  const APP = ["appSite", "appOneSpace", "appTwoSpace", "appThreeSpace", "appOne", "appTwo", "appThree", "appGroup", "appOrder"];
  const app: Decl[] = [
    { kind: "Site", name: "appSite", args: { title: "App Docs" } },
    ...["One", "Two", "Three"].flatMap((t): Decl[] => [
      { kind: "Space", name: `app${t}Space`, args: { title: `${t} content` } },
      { kind: "SiteSection", name: `app${t}`, args: { siteId: ref("appSite.id"), spaceId: ref(`app${t}Space.id`), title: t } },
    ]),
    { kind: "SiteSectionGroup", name: "appGroup", args: { siteId: ref("appSite.id"), title: "Group", sections: [ref("appThree.id")] } },
    {
      kind: "SiteStructureOrder",
      name: "appOrder",
      args: { siteId: ref("appSite.id"), items: [ref("appOne.id"), ref("appTwo.id"), ref("appGroup.id")], groups: [{ groupId: ref("appGroup.id"), items: [ref("appThree.id")] }] },
    },
  ];

  // ---- References named beside their IDs -----------------------------------------------------------
  /**
   * A site with two sections on spaces of this program, and a further site space of a section; `p`
   * prefixes the names: `named` is deployed, `new` only previewed (its IDs not known yet).
   */
  function refs(p: string, siteSpace: { sectionId: string; spaceId: unknown }): Decl[] {
    return [
      { kind: "Site", name: `${p}Site`, args: { title: "Named Docs" } },
      { kind: "Space", name: `${p}GuidesSpace`, args: { title: "Guides content" } },
      { kind: "Space", name: `${p}ApiSpace`, args: { title: "API content" } },
      { kind: "Space", name: `${p}ExtraSpace`, args: { title: "Extra content" } },
      { kind: "SiteSection", name: `${p}Guides`, args: { siteId: ref(`${p}Site.id`), spaceId: ref(`${p}GuidesSpace.id`), title: "Guides" } },
      { kind: "SiteSection", name: `${p}Api`, args: { siteId: ref(`${p}Site.id`), spaceId: ref(`${p}ApiSpace.id`), title: "API" } },
      { kind: "SiteSpace", name: `${p}V2`, args: { siteId: ref(`${p}Site.id`), sectionId: ref(`${p}${siteSpace.sectionId}.id`), spaceId: siteSpace.spaceId, path: "v2" } },
    ];
  }
  const REFS = ["namedSite", "namedGuidesSpace", "namedApiSpace", "namedExtraSpace", "namedGuides", "namedApi", "namedV2"];
  const NEW_REFS = REFS.map((n) => n.replace(/^named/, "new"));
  const refsBase = () => refs("named", { sectionId: "Guides", spaceId: seeded(0) });

  // ---- A DocsSite's children -----------------------------------------------------------------------
  const docs = (siteSpaces: { key: string; space: { title: string } }[]): Decl[] => [
    { kind: "DocsSite", name: "docs", args: { site: { title: "Component Docs" }, sections: [{ key: "guides", title: "Guides", space: { title: "Guides content" }, siteSpaces }] } },
  ];

  /**
   * One deployment, then one preview every plan test reads (a reorder with a new item, a change of
   * reference, a set of references not created yet, a DocsSite's new child), then, after edits in the
   * app (renames on the first site and the references' site, a reorder on the second site), one
   * `up --refresh` whose program renames a section and follows the app's renames.
   */
  let plan: Report;
  /** The plan's requests: the question whether the token sees the organization, and per site whose structure it changes whether Git Sync owns it. */
  let planRequests: Record<string, number>;
  /** What the `up --refresh` read, by resource name. */
  const refreshed = (name: string) => {
    const step = renamedUp.refreshed?.find((s) => s.name === name);
    expect(step, `${name} refreshed`).toBeDefined();
    return step!;
  };
  let renamedUp: Report;
  let namesBefore: unknown;
  let appNavigation: unknown;

  describe("the navigation's items", () => {
    it("previews a reorder with each item's title beside its ID, in the site's order, an item not created yet by its title", async () => {
      expect((await d.run("up", [...nav(ORDER), ...refsBase(), ...docs([]), ...app])).error).toBeUndefined();
      d.emu.log.reset();
      const faq: Decl = { kind: "SiteSection", name: "faq", args: { siteId: ref("site.id"), spaceId: seeded(2), title: "FAQ" } };
      plan = await d.run(
        "preview",
        [
          ...nav(["changelog", "guides", "api", "tools", "status", "faq"], {}, [faq]),
          ...refs("named", { sectionId: "Api", spaceId: ref("namedExtraSpace.id") }),
          ...refs("new", { sectionId: "Guides", spaceId: seeded(0) }),
          ...docs([{ key: "v2", space: { title: "Guides v2" } }]),
          ...app,
        ],
        { flags: ["--diff"] },
      );
      planRequests = d.emu.log.byRoute();
      expect(plan.error).toBeUndefined();
      expect(changes(plan, NAV)).toEqual(["update order"]);
      const part = partOf(plan.stdout, "order");
      const [guides, api, changelog] = ["guides", "api", "changelog"].map(idOf);
      expect(part).toContain(`~ [0]: "Guides (${guides})" => "Changelog (${changelog})"`);
      expect(part).toContain(`~ [1]: "API (${api})" => "Guides (${guides})"`);
      expect(part).toContain(`~ [2]: "Changelog (${changelog})" => "API (${api})"`);
      // A group's items follow it, named by their path.
      expect(part).toContain(`[3]: "Tools (${idOf("tools")})"`);
      expect(part).toContain(`[4]: "Tools / SDK (${idOf("sdk")})"`);
      expect(part).toContain(`+ [6]: "FAQ (new)"`);
      expect(changes(plan, APP)).toEqual([]);
      // And, once for each site whose structure the plan changes (this one, the named site, the DocsSite's), whether Git Sync owns it.
      expect(planRequests).toEqual({ [ORG_QUESTION]: 1, [GIT_SYNC_QUESTION]: 3 });
    });

    it("does not flap when a title changes, in the program or in the app", async () => {
      d.emu.store.sections.get(idOf("changelog"))!.title = "Release notes";
      // (The references' test renames its section in the app too, and the second site is reordered in
      // the app: one refresh and one up serve all three.)
      d.emu.store.sections.get(idOf("namedGuides"))!.title = "Guides (renamed in the app)";
      d.emu.store.setOrder(["appGroup", "appTwo", "appOne"].map(idOf));
      namesBefore = d.resource("namedV2").inputs.names;
      renamedUp = await d.run("up", [...nav(ORDER, { changelog: "Release notes", api: "API reference" }), ...refsBase(), ...docs([]), ...app], { flags: ["--refresh"] });
      expect(renamedUp.error).toBeUndefined();
      expect(refreshed("order").changed ?? []).toEqual([]);
      appNavigation = refreshed("appOrder").inputs?.navigation;
      expect(changes(renamedUp, NAV)).toEqual(["update api"]);
    });

    it("shows a reorder made in the app by name at refresh", () => {
      expect(refreshed("appOrder").changed).toContain("navigation");
      expect(appNavigation).toEqual([`Group (${idOf("appGroup")})`, `Group / Three (${idOf("appThree")})`, `Two (${idOf("appTwo")})`, `One (${idOf("appOne")})`]);
    });
  });

  /**
   * Every reference input (a site, space, section or group ID) is named in `names` beside its ID when
   * the program passes a resource's `id` output: at a create, at a change of reference, never flapping
   * when a title changes in the app, and for a DocsSite's children alike.
   */
  describe("the objects a resource refers to", () => {
    it("names a new resource's references at a create, (new) standing for IDs not known yet, and leaves a literal ID alone", () => {
      const part = partOf(plan.stdout, "newV2");
      expect(part).toMatch(/names\s*: \{\s*sectionId: "Guides \(new\)"\s*siteId\s*: "Named Docs \(new\)"\s*\}/);
      expect(part).toMatch(new RegExp(`spaceId\\s*: "${seeded(0)}"`));
      expect(partOf(plan.stdout, "newGuides")).toMatch(/siteId\s*: "Named Docs \(new\)"\s*spaceId: "Guides content \(new\)"/);
      // Costs no request (checked with the reorder's, in the same preview).
      expect(changes(plan, NEW_REFS).map((s) => s.split(" ")[0])).toEqual(NEW_REFS.map(() => "create"));
      // Deployed, the names carry the IDs.
      expect(d.resource("namedV2").inputs.names).toEqual({ sectionId: `Guides (${idOf("namedGuides")})`, siteId: `Named Docs (${idOf("namedSite")})` });
      expect(d.resource("namedV2").outputs.names).toEqual(d.resource("namedV2").inputs.names);
    });

    it("names both sides of a change of reference: a site space moved to another section and to another space", () => {
      const part = partOf(plan.stdout, "namedV2");
      expect(part).toContain(`~ sectionId: "Guides (${idOf("namedGuides")})" => "API (${idOf("namedApi")})"`);
      expect(part).toContain(`+ spaceId  : "Extra content (${idOf("namedExtraSpace")})"`);
      expect(planRequests).toEqual({ [ORG_QUESTION]: 1, [GIT_SYNC_QUESTION]: 3 });
    });

    it("keeps the names at refresh after a rename in the app, so no plan flaps", () => {
      expect(refreshed("namedV2").changed ?? []).toEqual([]);
      // The next up put the title back, and changed nothing that names the section.
      expect(changes(renamedUp, REFS)).toEqual(["update namedGuides"]);
      expect(d.resource("namedV2").inputs.names).toEqual(namesBefore);
      expect(d.resource("namedV2").outputs.names).toEqual(namesBefore);
    });
  });

  describe("a DocsSite's children named by title", () => {
    it("shows a new site space of a section with the section's, site's and space's titles", () => {
      const section = d.resource("docs/guides").id!;
      const site = d.state().resources.find((x) => x.urn.includes("DocsSite$") && x.type.endsWith("gitbook:Site"))!.id!;
      const part = partOf(plan.stdout, "docs/guides/v2");
      expect(part).toContain(`sectionId: "Guides (${section})"`);
      expect(part).toContain(`siteId   : "Component Docs (${site})"`);
      expect(part).toContain(`spaceId  : "Guides v2 (new)"`);
      // The order lists the new site space under its section, by the section's title and the child's name until GitBook titles it.
      const order = partOf(plan.stdout, "docs/order");
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
