/** A site from nothing in one program, in process: the requests each step sends and the order of deletes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../emulator/resources/collections";
import type { Decl } from "../support/lifecycle";
import { inProcessProgram, stepNames, type InProcessProgram } from "../support/program";
import { startProviderEnv, type ProviderEnv } from "../support/provider";
import { ref } from "../support/scenarios";

/** A whole site from nothing: a collection, a space in it, a site, and a section of the site showing the space. */
const fromNothing: Decl[] = [
  { kind: "Collection", name: "products", args: { title: "Products" } },
  { kind: "Space", name: "guides", args: { title: "Guides", emoji: "🧭", parent: ref("products.id") } },
  { kind: "Site", name: "site", args: { title: "Acme Docs" } },
  { kind: "SiteSection", name: "section", args: { siteId: ref("site.id"), spaceId: ref("guides.id"), title: "Guides" } },
];

describe("a site from nothing: Collection, Space, Site and SiteSection in one up", () => {
  let env: ProviderEnv;
  let p: InProcessProgram;
  beforeAll(async () => {
    env = await startProviderEnv();
    p = inProcessProgram(env);
  });
  afterAll(async () => env?.close());

  it("previews four creates without a request", async () => {
    const r = await p.preview(fromNothing);
    expect(stepNames(r)).toEqual(expect.arrayContaining(["create products", "create guides", "create site", "create section"]));
    expect(env.emu.log.count()).toBe(0);
  });

  it("creates them in one up with one POST each, the section showing the new space", async () => {
    const r = await p.up(fromNothing);
    // Each POST follows the listing that recovery from a lost answer would compare with.
    expect(env.emu.log.byRoute()).toEqual({
      "GET /v1/orgs/:org/collections": 1,
      "POST /v1/orgs/:org/collections": 1,
      "GET /v1/orgs/:org/spaces": 1,
      "POST /v1/orgs/:org/spaces": 1,
      "GET /v1/orgs/:org/sites": 1,
      "POST /v1/orgs/:org/sites": 1,
      "GET /v1/orgs/:org/sites/:site/sections": 1,
      "POST /v1/orgs/:org/sites/:site/sections": 1,
    });
    const space = p.resource("guides").id!;
    expect(env.emu.store.spaces.get(space)).toMatchObject({ title: "Guides", emoji: "🧭", parentId: p.resource("products").id });
    const shown = [...env.emu.store.siteSpaces.values()].filter((ss) => ss.sectionId === p.resource("section").id).map((ss) => ss.spaceId);
    expect(shown).toEqual([space]);
  });

  it("re-runs as a no-op with zero requests, and refreshes with one GET each", async () => {
    env.emu.log.reset();
    expect(stepNames(await p.up()).every((s) => s.startsWith("same"))).toBe(true);
    expect(env.emu.log.count()).toBe(0);
    const r = await p.refresh();
    expect(env.emu.log.byRoute()).toEqual({
      "GET /v1/collections/:collection": 1,
      "GET /v1/spaces/:space": 1,
      "GET /v1/orgs/:org/sites/:site": 1,
      "GET /v1/orgs/:org/sites/:site/sections": 1,
    });
  });

  it("after the space is deleted in the app, refresh drops it and up makes a new one, with a new section showing it", async () => {
    const old = p.resource("guides").id!;
    const oldSection = p.resource("section").id!;
    env.emu.store.trashSpace(old);
    const r = await p.refresh();
    expect(r.find((s) => s.name === "guides")?.op).toBe("read-gone");
    const up = await p.up();
    expect(up.find((s) => s.name === "guides")?.op).toBe("create");
    expect(up.find((s) => s.name === "section")).toMatchObject({ op: "replace", replaces: ["spaceId"] });
    const space = p.resource("guides").id!;
    expect(space).not.toBe(old);
    expect(env.emu.store.sections.has(oldSection)).toBe(false);
    const shown = [...env.emu.store.siteSpaces.values()].filter((ss) => ss.sectionId === p.resource("section").id).map((ss) => ss.spaceId);
    expect(shown).toEqual([space]);
  });

  it("destroys the section before its space and the space before its collection, one DELETE each", async () => {
    const space = p.resource("guides").id!;
    env.emu.log.reset();
    const r = await p.destroy();
    // The deletes that would take others along read first what they hold (cascade.ts): nothing here.
    expect(env.emu.log.byRoute()).toEqual({
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
    const order = env.emu.log.entries.map((e) => e.route);
    expect(order.indexOf("/v1/orgs/:org/sites/:site/sections/:section")).toBeLessThan(order.indexOf("/v1/spaces/:space"));
    expect(order.indexOf("/v1/spaces/:space")).toBeLessThan(order.indexOf("/v1/collections/:collection"));
    expect(env.emu.store.spaces.get(space)!.deletedAt).toBeDefined();
    expect(collections.of(env.emu.store).size).toBe(0);
    expect(p.names()).toEqual([]);
  });
});
