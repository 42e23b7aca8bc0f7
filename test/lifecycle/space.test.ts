import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { lifecycleSuite, ref } from "./scenarios";

lifecycleSuite("Space");

/** A whole site from nothing: a collection, a space in it, a site, and a section of the site showing the space. */
const fromNothing: Decl[] = [
  { kind: "Collection", name: "products", args: { title: "Products" } },
  { kind: "Space", name: "guides", args: { title: "Guides", emoji: "🧭", parent: ref("products.id") } },
  { kind: "Site", name: "site", args: { title: "Acme Docs" } },
  { kind: "SiteSection", name: "section", args: { siteId: ref("site.id"), spaceId: ref("guides.id"), title: "Guides" } },
];

describeDeployments("a site from nothing: Collection, Space, Site and SiteSection in one up", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("previews four creates without a request", async () => {
    const r = await d.run("preview", fromNothing);
    expect(r.error).toBeUndefined();
    expect(steps(r)).toEqual(expect.arrayContaining(["create products", "create guides", "create site", "create section"]));
    expect(d.emu.log.count()).toBe(0);
  });

  it("creates them in one up with one POST each, the section showing the new space", async () => {
    const r = await d.run("up", fromNothing);
    expect(r.error).toBeUndefined();
    // Each POST follows the listing that recovery from a lost answer would compare with.
    expect(d.emu.log.byRoute()).toEqual({
      "GET /v1/orgs/:org/collections": 1,
      "POST /v1/orgs/:org/collections": 1,
      "GET /v1/orgs/:org/spaces": 1,
      "POST /v1/orgs/:org/spaces": 1,
      "GET /v1/orgs/:org/sites": 1,
      "POST /v1/orgs/:org/sites": 1,
      "GET /v1/orgs/:org/sites/:site/sections": 1,
      "POST /v1/orgs/:org/sites/:site/sections": 1,
    });
    const space = d.resource("guides").id!;
    expect(d.emu.store.spaces.get(space)).toMatchObject({ title: "Guides", emoji: "🧭", parentId: d.resource("products").id });
    const shown = [...d.emu.store.siteSpaces.values()].filter((ss) => ss.sectionId === d.resource("section").id).map((ss) => ss.spaceId);
    expect(shown).toEqual([space]);
  });

  it("re-runs as a no-op with zero requests, and refreshes with one GET each", async () => {
    d.emu.log.reset();
    expect(steps(await d.run("up")).every((s) => s.startsWith("same"))).toBe(true);
    expect(d.emu.log.count()).toBe(0);
    const r = await d.run("refresh");
    expect(r.error).toBeUndefined();
    expect(d.emu.log.byRoute()).toEqual({
      "GET /v1/collections/:collection": 1,
      "GET /v1/spaces/:space": 1,
      "GET /v1/orgs/:org/sites/:site": 1,
      "GET /v1/orgs/:org/sites/:site/sections": 1,
    });
  });

  it("after the space is deleted in the app, refresh drops it and up makes a new one, with a new section showing it", async () => {
    const old = d.resource("guides").id!;
    const oldSection = d.resource("section").id!;
    d.emu.store.trashSpace(old);
    const r = await d.run("refresh");
    expect(r.steps.find((s) => s.name === "guides")?.op).toBe("read-gone");
    const up = await d.run("up");
    expect(up.error).toBeUndefined();
    expect(up.steps.find((s) => s.name === "guides")?.op).toBe("create");
    expect(up.steps.find((s) => s.name === "section")).toMatchObject({ op: "replace", replaces: ["spaceId"] });
    const space = d.resource("guides").id!;
    expect(space).not.toBe(old);
    expect(d.emu.store.sections.has(oldSection)).toBe(false);
    const shown = [...d.emu.store.siteSpaces.values()].filter((ss) => ss.sectionId === d.resource("section").id).map((ss) => ss.spaceId);
    expect(shown).toEqual([space]);
  });

  it("destroys the section before its space and the space before its collection, one DELETE each", async () => {
    const space = d.resource("guides").id!;
    d.emu.log.reset();
    const r = await d.run("destroy");
    expect(r.error).toBeUndefined();
    // The deletes that would take others along read first what they hold (cascade.ts): nothing here.
    expect(d.emu.log.byRoute()).toEqual({
      "GET /v1/orgs/:org/sites/:site/sections": 1,
      "DELETE /v1/orgs/:org/sites/:site/sections/:section": 1,
      "DELETE /v1/spaces/:space": 1,
      "GET /v1/collections/:collection/spaces": 1,
      "GET /v1/orgs/:org/collections": 1,
      "DELETE /v1/collections/:collection": 1,
      "GET /v1/orgs/:org/sites/:site/structure": 1,
      "GET /v1/orgs/:org/sites/:site/share-links": 1,
      "DELETE /v1/orgs/:org/sites/:site": 1,
    });
    const order = d.emu.log.entries.map((e) => e.route);
    expect(order.indexOf("/v1/orgs/:org/sites/:site/sections/:section")).toBeLessThan(order.indexOf("/v1/spaces/:space"));
    expect(order.indexOf("/v1/spaces/:space")).toBeLessThan(order.indexOf("/v1/collections/:collection"));
    expect(d.emu.store.spaces.get(space)!.deletedAt).toBeDefined();
    expect(d.emu.store.collections.size).toBe(0);
    expect(d.state().resources).toEqual([]);
  });
});
