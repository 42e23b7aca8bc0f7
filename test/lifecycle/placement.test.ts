/**
 * Where a section sits (the site's top level or a section group) has one source of truth, and a move
 * made in the GitBook app shows at refresh and is undone by the next `up`.
 *
 * - A section's group is declared by its SiteSection `groupId` or by one SiteSectionGroup's `sections`,
 *   never both, never two groups: a program doing so fails its preview, naming both resources, before
 *   any request (issue 20, item 2).
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

  it("by the section's groupId and by a group's sections: preview fails naming both, before any request", async () => {
    const decls: Decl[] = [
      ...base(d),
      { kind: "SiteSection", name: "sec", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[0], groupId: ref("groupB.id") } },
      { kind: "SiteSectionGroup", name: "groupA", args: { siteId: ref("site.id"), title: "A", sections: [ref("sec.id")] } },
    ];
    d.emu.log.reset();
    const r = await d.run("preview", decls);
    expect(r.error).toMatch(/SiteSection "sec"/);
    expect(r.error).toMatch(/SiteSectionGroup "groupA"/);
    expect(r.error).toMatch(/groupId/);
    expect(d.emu.log.count()).toBe(0);
    const up = await d.run("up", decls);
    expect(up.error).toMatch(/SiteSectionGroup "groupA"/);
    // Even without a preview first, the resources declared before the group are not created.
    expect(d.emu.log.count()).toBe(0);
  }, 240_000);
  // The other contradictions (two groups' sections; a groupId and an order's items) end the program the
  // same way: provider/resources/placement.test.ts holds their messages, under Pulumi's mocks.
});
