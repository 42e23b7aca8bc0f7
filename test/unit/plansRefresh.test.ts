/**
 * Plans that never flap, in process (test/lifecycle/everyKind.test.ts's drift refresh and its up show the same
 * through the CLI, with the `names` the program's process records, but cannot tell its reads from its plan's
 * requests): after titles change in the app, a refresh records no change to a navigation naming them
 * nor to a reference to them; a reorder made in the app shows at refresh, each item named by its
 * title path beside its ID; and the next up, whose program follows the app's renames and renames a
 * section, updates that section alone, asking GitBook nothing else about its site but whether Git Sync
 * owns its structure.
 */
import { describe, expect, it } from "vitest";
import type { Decl } from "../support/lifecycle";
import { programSuite } from "../support/program";
import { GIT_SYNC_QUESTION } from "../support/provider";
import { planSite, ref } from "../support/scenarios";

describe("plans across a refresh after edits in the app", () => {
  const s = programSuite();
  const idOf = (name: string) => s.p.resource(name).id!;

  function program(titles: Record<string, string> = {}): Decl[] {
    const spaces = s.env.emu.seeded.spaceIds;
    const { section, decls } = planSite(spaces, titles);
    return [
      ...decls,
      { kind: "SiteStructureOrder", name: "order", args: { siteId: ref("site.id"), items: ["guides", "api", "changelog"].map((n) => ref(`${n}.id`)) } },
      // References named beside their IDs.
      { kind: "Site", name: "namedSite", args: { title: "Named Docs" } },
      { kind: "Space", name: "namedSpace", args: { title: "Guides content" } },
      { kind: "SiteSection", name: "namedGuides", args: { siteId: ref("namedSite.id"), spaceId: ref("namedSpace.id"), title: "Guides" } },
      { kind: "SiteSpace", name: "namedV2", args: { siteId: ref("namedSite.id"), sectionId: ref("namedGuides.id"), spaceId: spaces[0], path: "v2" } },
      // A navigation reordered in the app.
      { kind: "Site", name: "appSite", args: { title: "App Docs" } },
      ...["One", "Two"].map((t, i): Decl => ({ kind: "SiteSection", name: `app${t}`, args: { siteId: ref("appSite.id"), spaceId: spaces[i], title: t } })),
      { kind: "SiteSectionGroup", name: "appGroup", args: { siteId: ref("appSite.id"), title: "Group", sections: [ref("appOne.id")] } },
      {
        kind: "SiteStructureOrder",
        name: "appOrder",
        args: { siteId: ref("appSite.id"), items: [ref("appTwo.id"), ref("appGroup.id")], groups: [{ groupId: ref("appGroup.id"), items: [ref("appOne.id")] }] },
      },
    ];
  }

  it("records no change at refresh for what names a title renamed in the app, shows an app reorder, and the next up updates the renamed section alone", async () => {
    await s.p.up(program());
    s.env.emu.store.sections.get(idOf("changelog"))!.title = "Release notes";
    s.env.emu.store.sections.get(idOf("namedGuides"))!.title = "Guides (renamed in the app)";
    s.env.emu.store.setOrder([idOf("appGroup"), idOf("appTwo")]);

    const refreshed = await s.p.refresh();
    const step = (name: string) => refreshed.find((x) => x.name === name)!;
    expect(step("order").changed ?? []).toEqual([]);
    expect(step("namedV2").changed ?? []).toEqual([]);
    // (Named by titles in `navigation`, which the program's process records: everyKind.test.ts's plans.)
    expect(step("appOrder").changed).toContain("items");

    s.env.emu.log.reset();
    const up = await s.p.up(program({ changelog: "Release notes", api: "API reference" }));
    const changes = up.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`);
    // The order follows the app's title, the references' site puts its title back, the app's order is put back.
    expect(changes.sort()).toEqual(["update api", "update appOrder", "update namedGuides"]);
    const site = s.env.emu.log.entries.filter((e) => e.path.includes(idOf("site")));
    expect(site.length).toBeGreaterThan(0);
    expect(site.filter((e) => !e.path.includes(idOf("api"))).map((e) => `${e.method} ${e.route}`)).toEqual([GIT_SYNC_QUESTION]);
  });
});
