/**
 * Where a section sits (the site's top level or a section group) has one source of truth, and a move
 * made in the GitBook app shows at refresh and is undone by the next `up`.
 *
 * - A section's group is declared by its SiteSection `groupId` or by one SiteSectionGroup's `sections`,
 *   never both, never two groups: a program doing so fails its preview, naming both resources, before
 *   any request (issue 20, item 2). A group's `sections` hold every section of the group, so a section
 *   whose `groupId` names such a group is refused too, listed or not (issue 42, case 1: the preview
 *   passed, and `up` ended with state and GitBook disagreeing on the group's sections).
 * - A SiteStructureOrder lists items in containers: an item the app moved to another container is drift
 *   on the order's list, and the next `up` puts it back where the order lists it (issue 20, item 4).
 *   Those moves, declared resource by resource and as a DocsSite, are rows of appEdits.test.ts, whose
 *   refreshes and ups serve them with every other edit made in the app.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
// A program that throws takes the CLI some 40 s to end on this machine (DocsSite's own checks too).
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

describeDeployments("a section's group declared in two places", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const base = (d: Deployment): Decl[] => [
    { kind: "Site", name: "site", args: { title: "Placement Docs" } },
    { kind: "SiteSectionGroup", name: "groupB", args: { siteId: ref("site.id"), title: "B" } },
  ];

  it("a section naming by its groupId a group whose sections do not list it: preview fails naming both, before any request", async () => {
    const decls: Decl[] = [
      ...base(d),
      { kind: "SiteSection", name: "alpha", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[0] } },
      { kind: "SiteSectionGroup", name: "products", args: { siteId: ref("site.id"), title: "Products", sections: [ref("alpha.id")] } },
      { kind: "SiteSection", name: "beta", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[1], groupId: ref("products.id") } },
    ];
    d.emu.log.reset();
    const r = await d.run("preview", decls);
    expect(r.error).toMatch(/SiteSection "beta": groupId: SiteSectionGroup "products"'s sections list every section the group holds, and not SiteSection "beta"/);
    expect(d.emu.log.count()).toBe(0);
    const up = await d.run("up", decls);
    expect(up.error).toMatch(/SiteSection "beta": groupId/);
    // Even without a preview first, the resources declared before the section are not created.
    expect(d.emu.log.count()).toBe(0);
    expect(d.state().resources.filter((x) => x.custom)).toEqual([]);
  }, 240_000);
  // The other contradictions (a groupId and a group's sections listing the section; two groups'
  // sections; a groupId and an order's items) end the program the same way: provider/resources/placement.test.ts
  // holds their messages, under Pulumi's mocks.
});
