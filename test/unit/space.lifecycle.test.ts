/** A site from nothing in one program, in process: the requests each step sends and the order of deletes. */
import { describe, expect, it } from "vitest";
import type { Decl } from "../support/lifecycle";
import { programSuite, stepNames } from "../support/program";
import { GIT_SYNC_QUESTION, ORG_QUESTION } from "../support/provider";
import { ref } from "../support/scenarios";

/** A whole site from nothing: a collection, a space in it, a site, and a section of the site showing the space. */
const fromNothing: Decl[] = [
  { kind: "Collection", name: "products", args: { title: "Products" } },
  { kind: "Space", name: "guides", args: { title: "Guides", emoji: "🧭", parent: ref("products.id") } },
  { kind: "Site", name: "site", args: { title: "Acme Docs" } },
  { kind: "SiteSection", name: "section", args: { siteId: ref("site.id"), spaceId: ref("guides.id"), title: "Guides" } },
];

describe("a site from nothing: Collection, Space, Site and SiteSection in one up", () => {
  const s = programSuite();

  it("previews four creates with one request, the question whether the token sees the organization", async () => {
    const r = await s.p.preview(fromNothing);
    expect(stepNames(r)).toEqual(expect.arrayContaining(["create products", "create guides", "create site", "create section"]));
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
  });

  it("creates them in one up with one POST each, the section showing the new space", async () => {
    s.env.emu.log.reset();
    const r = await s.p.up(fromNothing);
    // Each POST follows the listing that recovery from a lost answer would compare with.
    expect(s.env.emu.log.byRoute()).toEqual({
      [ORG_QUESTION]: 1,
      "GET /v1/orgs/:org/collections": 1,
      "POST /v1/orgs/:org/collections": 1,
      "GET /v1/orgs/:org/spaces": 1,
      "POST /v1/orgs/:org/spaces": 1,
      "GET /v1/orgs/:org/sites": 1,
      "POST /v1/orgs/:org/sites": 1,
      // The section's check, once its site is known: whether Git Sync owns the site's structure.
      [GIT_SYNC_QUESTION]: 1,
      "GET /v1/orgs/:org/sites/:site/sections": 1,
      "POST /v1/orgs/:org/sites/:site/sections": 1,
    });
    const space = s.p.resource("guides").id!;
    expect(s.env.emu.store.spaces.get(space)).toMatchObject({ title: "Guides", emoji: "🧭", parentId: s.p.resource("products").id });
    const shown = [...s.env.emu.store.siteSpaces.values()].filter((ss) => ss.sectionId === s.p.resource("section").id).map((ss) => ss.spaceId);
    expect(shown).toEqual([space]);
  });

  it("re-runs as a no-op with zero requests, and refreshes with one GET each", async () => {
    s.env.emu.log.reset();
    expect(stepNames(await s.p.up()).every((s) => s.startsWith("same"))).toBe(true);
    expect(s.env.emu.log.count()).toBe(0);
    const r = await s.p.refresh();
    expect(s.env.emu.log.byRoute()).toEqual({
      "GET /v1/collections/:collection": 1,
      "GET /v1/spaces/:space": 1,
      "GET /v1/orgs/:org/sites/:site": 1,
      "GET /v1/orgs/:org/sites/:site/sections": 1,
    });
  });

  it("after the space is deleted in the app, refresh drops it and up makes a new one, with a new section showing it", async () => {
    const old = s.p.resource("guides").id!;
    const oldSection = s.p.resource("section").id!;
    s.env.emu.store.trashSpace(old);
    const r = await s.p.refresh();
    expect(r.find((s) => s.name === "guides")?.op).toBe("read-gone");
    const up = await s.p.up();
    expect(up.find((s) => s.name === "guides")?.op).toBe("create");
    expect(up.find((s) => s.name === "section")).toMatchObject({ op: "replace", replaces: ["spaceId"] });
    const space = s.p.resource("guides").id!;
    expect(space).not.toBe(old);
    expect(s.env.emu.store.sections.has(oldSection)).toBe(false);
    const shown = [...s.env.emu.store.siteSpaces.values()].filter((ss) => ss.sectionId === s.p.resource("section").id).map((ss) => ss.spaceId);
    expect(shown).toEqual([space]);
  });

  it("destroys the section before its space and the space before its collection, one DELETE each", async () => {
    const space = s.p.resource("guides").id!;
    s.env.emu.log.reset();
    const r = await s.p.destroy();
    // The deletes that would take others along read first what they hold (cascade.ts): nothing here.
    expect(s.env.emu.log.byRoute()).toEqual({
      "GET /v1/orgs/:org/sites/:site/sections": 1,
      "DELETE /v1/orgs/:org/sites/:site/sections/:section": 1,
      "GET /v1/orgs/:org/sites": 1,
      "GET /v1/spaces/:space/content/pages": 1,
      "DELETE /v1/spaces/:space": 1,
      "GET /v1/collections/:collection/spaces": 1,
      "GET /v1/orgs/:org/collections": 1,
      "DELETE /v1/collections/:collection": 1,
      "GET /v1/orgs/:org/sites/:site/structure": 1,
      "GET /v1/orgs/:org/sites/:site/share-links": 1,
      "DELETE /v1/orgs/:org/sites/:site": 1,
    });
    const order = s.env.emu.log.entries.map((e) => e.route);
    expect(order.indexOf("/v1/orgs/:org/sites/:site/sections/:section")).toBeLessThan(order.indexOf("/v1/spaces/:space"));
    expect(order.indexOf("/v1/spaces/:space")).toBeLessThan(order.indexOf("/v1/collections/:collection"));
    expect(s.env.emu.store.spaces.get(space)!.deletedAt).toBeDefined();
    expect(s.env.emu.store.collections.size).toBe(0);
    expect(s.p.names()).toEqual([]);
  });
});

/** The resources a DocsSite registers for a section whose space it creates, named by `key` as the component names them. */
const docsSection = (key: string, extra: Record<string, unknown> = {}): Decl[] => [
  { kind: "Space", name: `docs/spaces/${key}`, args: { title: "Guides", ...extra } },
  { kind: "SiteSection", name: `docs/${key}`, args: { siteId: ref("docs.id"), spaceId: ref(`docs/spaces/${key}.id`), title: "Guides" } },
];
const docsSite: Decl = { kind: "Site", name: "docs", args: { title: "Acme Docs" } };

describe("a DocsSite section's key renamed without formerKeys: the engine deletes its created Space and makes a new one", () => {
  const s = programSuite();

  it("refuses the old space's delete while it holds pages, counting them and naming the fixes, and sends no DELETE for it", async () => {
    await s.p.up([docsSite, ...docsSection("guides")]);
    const old = s.p.resource("docs/spaces/guides").id;
    s.env.emu.store.writePages(old, ["Install", "Configure", "Upgrade"]);
    s.env.emu.log.reset();
    await expect(s.p.up([docsSite, ...docsSection("handbook")])).rejects.toThrow(
      new RegExp(
        `^Space docs/spaces/guides: deleting it \\(${old}\\) would send the 4 pages it holds to GitBook's trash .*Nothing was deleted\\. If it was renamed rather than removed.*\`formerKeys\`.*set forceDestroy: true on this Space \\(in a DocsSite: its entry's \`space.forceDestroy\`\\).*retainOnDelete: true \\(in a DocsSite: its entry's \`space.retainOnDelete\`\\)`,
      ),
    );
    expect(s.env.emu.log.entries.filter((e) => e.method === "DELETE" && e.path.endsWith(old))).toEqual([]);
    expect(s.env.emu.store.spaces.get(old)!.deletedAt).toBeUndefined();
    expect(s.env.emu.store.spaces.get(old)!.pages).toHaveLength(4);
  });

  it("deletes it once declared again with forceDestroy and recorded by an up (which sends nothing for it)", async () => {
    const old = s.p.resource("docs/spaces/guides").id;
    s.env.emu.log.reset();
    const steps = await s.p.up([docsSite, { ...docsSection("guides", { forceDestroy: true })[0]! }, ...docsSection("handbook")]);
    expect(steps.find((x) => x.name === "docs/spaces/guides")).toMatchObject({ op: "update", changed: ["forceDestroy"] });
    expect(s.env.emu.log.entries.filter((e) => e.method !== "GET" && e.path.includes(old))).toEqual([]);
    await s.p.up([docsSite, ...docsSection("handbook")]);
    expect(s.env.emu.store.spaces.get(old)!.deletedAt).toBeDefined();
  });
});
