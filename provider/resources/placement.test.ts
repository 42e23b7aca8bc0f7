/**
 * The program-side checks of where navigation items sit (placement.ts), through the resource classes
 * under Pulumi's mocks: what is refused and how it is named, what passes, and that a refused run
 * registers nothing at all.
 */
import * as pulumi from "@pulumi/pulumi";
import { expect, it } from "vitest";
import { DocsSite, Site, SiteExternalLink, SiteSection, SiteSectionGroup, SiteStructureOrder } from "../index";
import { mockedRegistrations, nextRun, registeredAll } from "../../test/support/mocks";

const registered = mockedRegistrations("placement", false);

it("refuses a link whose groupId and an order's items disagree, naming both", () => {
  const site = new Site("p1-site", { title: "Docs" });
  const group = new SiteSectionGroup("p1-group", { siteId: site.id, title: "G" });
  const link = new SiteExternalLink("p1-link", { siteId: site.id, title: "Blog", url: "https://blog.acme.test", groupId: group.id });
  expect(() => new SiteStructureOrder("p1-order", { siteId: site.id, items: [group.id, link.id] })).toThrow(
    'SiteStructureOrder "p1-order": its items put SiteExternalLink "p1-link" in the site\'s top level, but SiteExternalLink "p1-link"\'s groupId puts it in SiteSectionGroup "p1-group". An item has one place: list it in the order under the container SiteExternalLink "p1-link"\'s groupId names, or change that.',
  );
});

it("refuses a section an order lists in another group than its group's sections", () => {
  const site = new Site("p2-site", { title: "Docs" });
  const sec = new SiteSection("p2-sec", { siteId: site.id, spaceId: "space" });
  const a = new SiteSectionGroup("p2-a", { siteId: site.id, title: "A", sections: [sec.id] });
  const b = new SiteSectionGroup("p2-b", { siteId: site.id, title: "B" });
  expect(() => new SiteStructureOrder("p2-order", { siteId: site.id, items: [a.id, b.id], groups: [{ groupId: b.id, items: [sec.id] }] })).toThrow(
    /its groups\[0\]\.items put SiteSection "p2-sec" in SiteSectionGroup "p2-b", but SiteSectionGroup "p2-a"'s sections puts it in SiteSectionGroup "p2-a"/,
  );
});

it("registers nothing of a refused run, not even what was declared before the refusal", async () => {
  const site = new Site("p3-site", { title: "Docs" });
  const sec = new SiteSection("p3-sec", { siteId: site.id, spaceId: "space" });
  new SiteSectionGroup("p3-a", { siteId: site.id, title: "A", sections: [sec.id] });
  expect(() => new SiteSectionGroup("p3-b", { siteId: site.id, title: "B", sections: [sec.id] })).toThrow(/SiteSectionGroup "p3-b": its sections set the group of SiteSection "p3-sec", which SiteSectionGroup "p3-a"'s sections already sets/);
  // A later run registers: by the time it has, the refused one would have too, had it been let through.
  await nextRun();
  await registeredAll([new Site("p3-control", { title: "Docs" })]);
  expect(registered.filter((n) => n.startsWith("p3-"))).toEqual(["p3-control"]);
});

it("passes, and registers, a program whose declarations agree: each section's one source, an order that follows it", async () => {
  const site = new Site("p4-site", { title: "Docs" });
  const top = new SiteSection("p4-top", { siteId: site.id, spaceId: "s1" });
  const viaGroupId = new SiteSectionGroup("p4-g1", { siteId: site.id, title: "G1" });
  const inG1 = new SiteSection("p4-in-g1", { siteId: site.id, spaceId: "s2", groupId: viaGroupId.id });
  const free = new SiteSection("p4-free", { siteId: site.id, spaceId: "s3" });
  const viaSections = new SiteSectionGroup("p4-g2", { siteId: site.id, title: "G2", sections: [free.id] });
  const order = new SiteStructureOrder("p4-order", {
    siteId: site.id,
    items: [top.id, viaGroupId.id, viaSections.id],
    groups: [
      { groupId: viaGroupId.id, items: [inG1.id] },
      { groupId: viaSections.id, items: [free.id] },
    ],
  });
  const docs = new DocsSite("p4-docs", { site: { title: "Docs" }, sections: [{ key: "a", spaceId: "s1" }, { type: "group", key: "g", title: "G", sections: [{ key: "b", spaceId: "s2" }] }] });
  await registeredAll([order, docs.order!]);
  expect(registered).toEqual(expect.arrayContaining(["p4-site", "p4-top", "p4-g1", "p4-in-g1", "p4-free", "p4-g2", "p4-order"]));
  // The component, its site, two sections, the group and the order.
  expect(registered.filter((n) => n.startsWith("p4-docs"))).toHaveLength(6);
});

it("refuses with a RunError that carries its message alone, no stack: the SDK formats an ending error's stack, which held the CLI for 30 s and more", () => {
  const thrown = (make: () => unknown): Error => {
    try {
      make();
    } catch (e) {
      return e as Error;
    }
    throw new Error("nothing was thrown");
  };
  const site = new Site("p5-site", { title: "Docs" });
  const sec = new SiteSection("p5-sec", { siteId: site.id, spaceId: "space" });
  new SiteSectionGroup("p5-a", { siteId: site.id, title: "A", sections: [sec.id] });
  const placement = thrown(() => new SiteSectionGroup("p5-b", { siteId: site.id, title: "B", sections: [sec.id] }));
  const docsSite = thrown(() => new DocsSite("p5-docs", { site: { title: "Docs" }, sections: [] }));
  for (const e of [placement, docsSite]) {
    expect(e).toBeInstanceOf(pulumi.RunError);
    expect(e.stack).toBe(`${e.name}: ${e.message}`);
  }
});

// The contradictions test/lifecycle/placement.test.ts proved through the CLI, one preview each, until
// the CLI proof kept one and then none: a refused program registers nothing (above) and throws a RunError
// the SDK prints as its message alone, whatever it throws.
it("refuses a section two groups' sections list, naming both groups", () => {
  const site = new Site("p6-site", { title: "Docs" });
  const sec = new SiteSection("p6-sec", { siteId: site.id, spaceId: "space" });
  new SiteSectionGroup("p6-groupA", { siteId: site.id, title: "A", sections: [sec.id] });
  expect(() => new SiteSectionGroup("p6-groupC", { siteId: site.id, title: "C", sections: [sec.id] })).toThrow(
    /^SiteSectionGroup "p6-groupC": its sections set the group of SiteSection "p6-sec", which SiteSectionGroup "p6-groupA"'s sections already sets/,
  );
});

it("refuses a section whose groupId and an order's items disagree, naming both", () => {
  const site = new Site("p7-site", { title: "Docs" });
  const groupB = new SiteSectionGroup("p7-groupB", { siteId: site.id, title: "B" });
  const sec = new SiteSection("p7-sec", { siteId: site.id, spaceId: "space", groupId: groupB.id });
  expect(() => new SiteStructureOrder("p7-order", { siteId: site.id, items: [groupB.id, sec.id] })).toThrow(
    'SiteStructureOrder "p7-order": its items put SiteSection "p7-sec" in the site\'s top level, but SiteSection "p7-sec"\'s groupId puts it in SiteSectionGroup "p7-groupB"',
  );
});

it("refuses a section whose groupId names a group whose sections list it too, naming both: two sources", () => {
  const site = new Site("p11-site", { title: "Docs" });
  const groupB = new SiteSectionGroup("p11-groupB", { siteId: site.id, title: "B" });
  const sec = new SiteSection("p11-sec", { siteId: site.id, spaceId: "space", groupId: groupB.id });
  expect(() => new SiteSectionGroup("p11-groupA", { siteId: site.id, title: "A", sections: [sec.id] })).toThrow(
    'SiteSectionGroup "p11-groupA": its sections set the group of SiteSection "p11-sec", which SiteSection "p11-sec"\'s groupId already sets. A section\'s group has one source, else the two fight at every refresh and up: ' +
      "keep either the SiteSection's groupId or one SiteSectionGroup's sections, and remove the other.",
  );
});

// Issue 42, case 1: the group's `sections` hold alpha, and beta names the group by its groupId. Before,
// the preview passed and `up` ended with state (alpha) and GitBook (alpha, beta) disagreeing, and each
// later run moved beta back and forth.
it("refuses a section whose groupId names a group declaring sections that do not list it, naming both and the fix", () => {
  const site = new Site("p8-site", { title: "Docs" });
  const alpha = new SiteSection("p8-alpha", { siteId: site.id, spaceId: "s1" });
  const products = new SiteSectionGroup("p8-products", { siteId: site.id, title: "Products", sections: [alpha.id] });
  expect(() => new SiteSection("p8-beta", { siteId: site.id, spaceId: "s2", groupId: products.id })).toThrow(
    'SiteSection "p8-beta": groupId: SiteSectionGroup "p8-products"\'s sections list every section the group holds, and not SiteSection "p8-beta", whose groupId names the group: each up would take the section out of the group and its groupId put it back, or end with state and GitBook disagreeing. ' +
      'List SiteSection "p8-beta" in SiteSectionGroup "p8-products"\'s sections and remove its groupId, or remove the group\'s sections and give each of its sections a groupId. Nothing was sent.',
  );
  // An empty list holds no section either; a value computed from the group's ID names the group too.
  const empty = new SiteSectionGroup("p8-empty", { siteId: site.id, title: "Empty", sections: [] });
  expect(() => new SiteSection("p8-gamma", { siteId: site.id, spaceId: "s3", groupId: empty.id.apply((id) => id) })).toThrow(/^SiteSection "p8-gamma": groupId: SiteSectionGroup "p8-empty"'s sections list every section/);
});

it("refuses a section naming by literal ID a group adopted under that ID with sections, in either order", () => {
  const site = new Site("p9-site", { title: "Docs" });
  const alpha = new SiteSection("p9-alpha", { siteId: site.id, spaceId: "s1" });
  new SiteSectionGroup("p9-products", { siteId: site.id, title: "Products", sections: [alpha.id], adoptId: "sitesg_p9" });
  expect(() => new SiteSection("p9-beta", { siteId: site.id, spaceId: "s2", groupId: "sitesg_p9" })).toThrow(/^SiteSection "p9-beta": groupId: SiteSectionGroup "p9-products"'s sections list every section the group holds, and not SiteSection "p9-beta"/);
  const gamma = new SiteSection("p9-gamma", { siteId: site.id, spaceId: "s3" });
  new SiteSection("p9-delta", { siteId: site.id, spaceId: "s4", groupId: "sitesg_p9b" });
  expect(() => new SiteSectionGroup("p9-tools", { siteId: site.id, title: "Tools", sections: [gamma.id], adoptId: "sitesg_p9b" })).toThrow(
    /^SiteSectionGroup "p9-tools": sections: SiteSectionGroup "p9-tools"'s sections list every section the group holds, and not SiteSection "p9-delta"/,
  );
});

it("passes a link naming a group with sections, a section naming a group without them, and a literal ID it cannot trace", async () => {
  // Out of the run the tests before refused (a refused run registers nothing).
  await nextRun();
  const site = new Site("p10-site", { title: "Docs" });
  const alpha = new SiteSection("p10-alpha", { siteId: site.id, spaceId: "s1" });
  const listing = new SiteSectionGroup("p10-listing", { siteId: site.id, title: "Listing", sections: [alpha.id] });
  const free = new SiteSectionGroup("p10-free", { siteId: site.id, title: "Free" });
  // A group's sections never move a link: a link's groupId is its own place.
  const link = new SiteExternalLink("p10-link", { siteId: site.id, title: "Blog", url: "https://blog.acme.test", groupId: listing.id });
  const beta = new SiteSection("p10-beta", { siteId: site.id, spaceId: "s2", groupId: free.id });
  // A literal ID of a group the program creates is not known while the program runs: left to the reader.
  const gamma = new SiteSection("p10-gamma", { siteId: site.id, spaceId: "s3", groupId: "sitesg_created_here" });
  await registeredAll([link, beta, gamma]);
  expect(registered).toEqual(expect.arrayContaining(["p10-link", "p10-beta", "p10-gamma"]));
});
