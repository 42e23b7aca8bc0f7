/**
 * The order of a site's navigation in a program, in process: a program declares three sections, a group
 * and a link in an order, and a SiteStructureOrder listing them in that order. Requests are counted on
 * the emulator: a swap of two neighbours is one sort request and replaces nothing, an order already
 * right is none, and a reorder made in GitBook shows at refresh and is undone by the next up.
 */
import { describe, expect, it } from "vitest";
import type { Decl } from "../support/lifecycle";
import { programSuite, stepNames as steps } from "../support/program";
import { GIT_SYNC_QUESTION, ORG_QUESTION } from "../support/provider";
import { ref, site } from "../support/scenarios";

const SORT = "/v1/orgs/:org/sites/:site/structure/sort";
const STRUCTURE = "/v1/orgs/:org/sites/:site/structure";

describe("SiteStructureOrder in a program", () => {
  const s = programSuite();

  /** The items of the navigation, in the program's order (names of the declarations). */
  function program(order: string[]): Decl[] {
    const spaces = s.env.emu.seeded.spaceIds;
    return [
      site("Ordered Docs"),
      { kind: "SiteSection", name: "guides", args: { siteId: ref("site.id"), spaceId: spaces[0], title: "Guides" } },
      { kind: "SiteSection", name: "api", args: { siteId: ref("site.id"), spaceId: spaces[1], title: "API" } },
      { kind: "SiteSection", name: "changelog", args: { siteId: ref("site.id"), spaceId: spaces[3], title: "Changelog" } },
      { kind: "SiteSection", name: "sdk", args: { siteId: ref("site.id"), spaceId: spaces[4], title: "SDK" } },
      { kind: "SiteSectionGroup", name: "tools", args: { siteId: ref("site.id"), title: "Tools", sections: [ref("sdk.id")] } },
      { kind: "SiteExternalLink", name: "status", args: { siteId: ref("site.id"), title: "Status", url: "https://status.acme.test" }, dependsOn: ["guides"] },
      { kind: "SiteStructureOrder", name: "order", args: { siteId: ref("site.id"), items: order.map((n) => ref(`${n}.id`)) } },
    ];
  }
  const idOf = (name: string) => s.p.resource(name).id!;
  /** The site's top level as the emulator has it, by declaration name. */
  function topLevel(): string[] {
    const names = new Map(["guides", "api", "changelog", "tools", "status"].map((n) => [idOf(n), n]));
    return s.env.emu.store.childrenOf(idOf("site"), undefined).map((n) => names.get(n.record.id) ?? n.record.id);
  }

  const declared = ["status", "changelog", "guides", "tools", "api"];

  it("previews sending nothing but the one question about the organization", async () => {
    const r = await s.p.preview(program(declared));
    expect(steps(r)).toContain("create order");
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
  });

  it("creates the navigation in the program's order, then re-runs as a no-op with zero requests", async () => {
    const r = await s.p.up(program(declared));
    expect(topLevel()).toEqual(declared);
    s.env.emu.log.reset();
    const again = await s.p.up();
    expect(steps(again).every((s) => s.startsWith("same"))).toBe(true);
    expect(s.env.emu.log.count()).toBe(0);
  });

  it("swaps two neighbouring sections with one sort request, replacing nothing", async () => {
    const swapped = ["status", "guides", "changelog", "tools", "api"];
    s.env.emu.log.reset();
    const r = await s.p.up(program(swapped));
    expect(steps(r).filter((s) => !s.startsWith("same"))).toEqual(["update order"]);
    // The order's check asks once whether Git Sync owns the site's structure.
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [GIT_SYNC_QUESTION]: 1, [`GET ${STRUCTURE}`]: 1, [`PATCH ${SORT}`]: 1 });
    expect(topLevel()).toEqual(swapped);
  });

  it("shows a reorder made outside Pulumi as drift at refresh, and the next up moves the items back", async () => {
    const program = ["status", "guides", "changelog", "tools", "api"];
    s.env.emu.store.setOrder(["api", "tools", "changelog", "guides", "status"].map(idOf));
    const refreshed = await s.p.refresh();
    const drifted = refreshed.find((s) => s.name === "order")!;
    expect(drifted.changed).toContain("items");
    expect(s.p.resource("order").inputs.items).toEqual(["api", "tools", "changelog", "guides", "status"].map(idOf));
    s.env.emu.log.reset();
    const back = await s.p.up();
    expect(back.find((s) => s.name === "order")).toMatchObject({ op: "update" });
    expect(steps(back).filter((s) => !s.startsWith("same"))).toEqual(["update order"]);
    expect(topLevel()).toEqual(program);
    // A full reversal of five keeps one item in place: four moves.
    expect(s.env.emu.log.count({ route: SORT })).toBe(4);
    s.env.emu.log.reset();
    expect(steps(await s.p.up()).every((s) => s.startsWith("same"))).toBe(true);
    expect(s.env.emu.log.count()).toBe(0);
  });

  it("keeps the order through a replacement the user forces (`up --replace`): the old one goes first", async () => {
    const before = topLevel();
    await s.p.replace("order");
    expect(topLevel()).toEqual(before);
    expect((await s.p.refresh()).find((x) => x.name === "order")?.op).toBe("same");
    s.env.emu.log.reset();
    expect(steps(await s.p.up()).every((s) => s.startsWith("same"))).toBe(true);
  });

  it("destroys everything, the order with no request of its own", async () => {
    s.env.emu.log.reset();
    const r = await s.p.destroy();
    expect(s.p.names()).toEqual([]);
    expect(s.env.emu.log.count({ route: SORT })).toBe(0);
    // The one structure read is the Site's, checking that its delete takes nothing along (cascade.ts).
    expect(s.env.emu.log.count({ route: STRUCTURE })).toBe(1);
  });
});
