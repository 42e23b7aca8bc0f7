import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { REQUIRED_ID, UNKNOWN } from "../framework/check";
import { startProviderEnv, rejectsAtCheck, type BadInput, type ProviderEnv, type State } from "../../test/support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());

const SORT = /\/structure\/sort$/;

/** A site with sections A, B, C (created in that order), a group G holding D and E, and a link L. */
interface Site {
  siteId: string;
  a: string;
  b: string;
  c: string;
  d: string;
  e: string;
  g: string;
  l: string;
}

async function site(): Promise<Site> {
  const spaces = env.emu.seeded.spaceIds;
  const siteId = (await env.up("Site", { title: "Ordered Docs" })).state.id;
  const section = async (i: number) => (await env.up("SiteSection", { siteId, spaceId: spaces[i] })).state.id;
  const [a, b, c, d, e] = [await section(0), await section(1), await section(2), await section(3), await section(4)];
  const g = (await env.up("SiteSectionGroup", { siteId, title: "G", sections: [d, e] })).state.id;
  const l = (await env.up("SiteExternalLink", { siteId, title: "Blog", url: "https://blog.acme.test" })).state.id;
  env.emu.log.reset();
  return { siteId, a, b, c, d, e, g, l };
}

const top = (siteId: string) => env.emu.store.childrenOf(siteId, undefined).map((n) => n.record.id);
const inGroup = (siteId: string, g: string) => env.emu.store.childrenOf(siteId, g).map((n) => n.record.id);

describe("check", () => {
  const bad: BadInput[] = [
    ["items[2]", { items: ["a", "b", "a"] }, /items\[2\] lists a, already listed at items\[0\]/],
    ["groups[0].items[0]", { items: ["a"], groups: [{ groupId: "g", items: ["a"] }] }, /groups\[0\]\.items\[0\] lists a, already listed at items\[0\]: an item has one place/],
    ["groups[1].groupId", { groups: [{ groupId: "g", items: [] }, { groupId: "g", items: [] }] }, /groups\[1\]\.groupId orders g again/],
    ["groups[0].items[0]", { groups: [{ groupId: "g", items: ["g"] }] }, /lists the group g inside itself/],
    ["sections[0].siteSpaces[1]", { sections: [{ sectionId: "s", siteSpaces: ["x", "x"] }] }, /lists x, already listed/],
    ["sections[0].sectionId", { sections: [{ siteSpaces: [] }] }, /is required/],
    ["items[0]", { items: [""] }, /must not be empty/],
  ];
  rejectsAtCheck(() => env, "SiteStructureOrder", { siteId: "site_x" }, bad);

  it("requires the site only, and takes values not known yet (new items) for what they are", async () => {
    expect((await env.check("SiteStructureOrder", {})).failures).toEqual([{ property: "siteId", reason: `siteId ${REQUIRED_ID}` }]);
    const r = await env.check("SiteStructureOrder", { siteId: "site_x", items: [UNKNOWN, "a", UNKNOWN], groups: [{ groupId: UNKNOWN, items: [UNKNOWN] }] });
    expect(r.failures).toBeUndefined();
  });
});

describe("navigation (what plans show)", () => {
  const entry = (id: string, ...path: (string | { title?: string | null; name: string })[]) => ({
    id,
    path: path.map((p) => (typeof p === "string" ? { title: p, name: `docs/${p}` } : p)),
  });

  it("shows each entry as its title path beside its ID, (new) for an ID and the name for a title not known yet", async () => {
    const navigation = [entry("a", "Guides"), entry(UNKNOWN, "Tools", "SDK"), entry("b", "Tools", { title: UNKNOWN, name: "docs/faq" }), entry("c"), entry(UNKNOWN), "kept (x)"];
    const r = await env.check("SiteStructureOrder", { siteId: "site_x", items: ["a", UNKNOWN, "b", "c", UNKNOWN], navigation });
    expect(r.failures).toBeUndefined();
    expect(r.inputs!.navigation).toEqual(["Guides (a)", "Tools / SDK (new)", "Tools / docs/faq (b)", "c", "(new)", "kept (x)"]);
  });

  it("never fails a check, and never makes a change on its own", async () => {
    const r = await env.check("SiteStructureOrder", { siteId: "site_x", items: ["a"], navigation: [{ nonsense: true }] });
    expect(r.failures).toBeUndefined();
    expect(r.inputs!.navigation).toBeUndefined();
    const state = { id: "site_x", outs: { organizationId: env.emu.seeded.organizationId, siteId: "site_x", items: ["a"], navigation: ["Guides (a)"] } };
    expect((await env.diff("SiteStructureOrder", state, { ...state.outs, navigation: ["Guides, renamed (a)"] })).changes).toBe(false);
    expect((await env.diff("SiteStructureOrder", state, { ...state.outs, items: ["a", "b"], navigation: ["Guides (a)"] })).changes).toBe(true);
  });
});

describe("ordering", () => {
  let t: Site;
  beforeEach(async () => {
    t = await site();
  });

  it("creates with one GET and no move when the site already has the order", async () => {
    const r = await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.a, t.b, t.c, t.g, t.l] });
    expect(r.state).toEqual({ id: t.siteId, outs: { organizationId: env.org, siteId: t.siteId, items: [t.a, t.b, t.c, t.g, t.l] } });
    expect(env.emu.log.byRoute()).toEqual({ "GET /v1/orgs/:org/sites/:site/structure": 1 });
  });

  it("sends the fewest moves: the items of the longest run in order stay", async () => {
    // Link first, and B after C: two moves.
    await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.l, t.a, t.c, t.b, t.g] });
    expect(top(t.siteId)).toEqual([t.l, t.a, t.c, t.b, t.g]);
    expect(env.emu.log.count({ route: SORT })).toBe(2);
    expect(env.emu.log.writes()).toBe(2);
  });

  it("orders inside groups and the site spaces of sections, and replaces nothing", async () => {
    const ss = (await env.up("SiteSpace", { siteId: t.siteId, sectionId: t.a, spaceId: env.emu.seeded.spaceIds[5] })).state.id;
    const own = env.emu.store.siteSpacesIn(t.siteId, t.a)[0]!.id;
    env.emu.log.reset();
    const r = await env.up("SiteStructureOrder", {
      siteId: t.siteId,
      groups: [{ groupId: t.g, items: [t.e, t.d] }],
      sections: [{ sectionId: t.a, siteSpaces: [ss, own] }],
    });
    expect(r.step).toBe("create");
    expect(inGroup(t.siteId, t.g)).toEqual([t.e, t.d]);
    expect(env.emu.store.siteSpacesIn(t.siteId, t.a).map((x) => x.id)).toEqual([ss, own]);
    expect(env.emu.log.count({ route: SORT })).toBe(2);
    expect(env.emu.log.count({ method: "POST" }) + env.emu.log.count({ method: "DELETE" })).toBe(0);
  });

  it("never moves an item it does not list", async () => {
    // Only A and C listed, C first: one move puts C right before A; B, G and L keep their places.
    await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.c, t.a] });
    expect(top(t.siteId)).toEqual([t.c, t.a, t.b, t.g, t.l]);
    expect(env.emu.log.count({ route: SORT })).toBe(1);
  });

  it("updates with only the moves the change needs, and sends nothing for the same program", async () => {
    const first = await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.a, t.b, t.c, t.g, t.l] });
    env.emu.log.reset();
    expect((await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.a, t.b, t.c, t.g, t.l] }, first.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    const swapped = await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.a, t.c, t.b, t.g, t.l] }, first.state);
    expect(swapped.step).toBe("update");
    expect(env.emu.log.count({ route: SORT })).toBe(1);
    expect(top(t.siteId)).toEqual([t.a, t.c, t.b, t.g, t.l]);
  });

  it("shows a reorder made outside Pulumi as drift at refresh, and moves the items back", async () => {
    const state = (await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.a, t.b, t.c], groups: [{ groupId: t.g, items: [t.d, t.e] }] })).state;
    env.emu.store.setOrder([t.c, t.g, t.a, t.l, t.b]);
    env.emu.store.setOrder([t.e, t.d]);
    env.outOfBand();
    const refreshed = await env.refresh("SiteStructureOrder", state);
    expect(refreshed!.inputs).toEqual({ organizationId: env.org, siteId: t.siteId, items: [t.c, t.a, t.b], groups: [{ groupId: t.g, items: [t.e, t.d] }] });
    env.emu.log.reset();
    const r = await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.a, t.b, t.c], groups: [{ groupId: t.g, items: [t.d, t.e] }] }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(top(t.siteId).filter((id) => [t.a, t.b, t.c].includes(id))).toEqual([t.a, t.b, t.c]);
    expect(inGroup(t.siteId, t.g)).toEqual([t.d, t.e]);
    expect(env.emu.log.count({ route: SORT })).toBe(2);
  });

  it("moves an item listed in another container into the listed one (one request each), then sorts", async () => {
    // D (in G) listed at the top level before A, B (at the top) listed in G, links and groups as well.
    await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.d, t.a], groups: [{ groupId: t.g, items: [t.e, t.b, t.l] }] });
    expect(top(t.siteId)).toEqual([t.d, t.a, t.c, t.g]);
    expect(inGroup(t.siteId, t.g)).toEqual([t.e, t.b, t.l]);
    // One read; D, B and L moved (each lands last in its new container), then D moved before A.
    expect(env.emu.log.byRoute()).toEqual({
      "GET /v1/orgs/:org/sites/:site/structure": 1,
      "PATCH /v1/orgs/:org/sites/:site/sections/:section": 2,
      "PATCH /v1/orgs/:org/sites/:site/external-links/:link": 1,
      "PATCH /v1/orgs/:org/sites/:site/structure/sort": 1,
    });
  });

  it("refuses, moving nothing, what cannot be where it is listed, naming where it is", async () => {
    const ofB = env.emu.store.siteSpacesIn(t.siteId, t.b)[0]!.id;
    const err = await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.d], sections: [{ sectionId: t.a, siteSpaces: [ofB] }] }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(new RegExp(`sections\\[0\\]\\.siteSpaces\\[0\\]: site space ${ofB} is in section ${t.b}, not in section ${t.a}, and a site space cannot move between sections`));
    expect(env.emu.log.writes()).toBe(0);
    const missing = await env.up("SiteStructureOrder", { siteId: t.siteId, groups: [{ groupId: "sitesg_nope", items: [] }], items: ["sitesc_nope"] }).catch((e: Error) => e);
    expect((missing as Error).message).toMatch(/groups\[0\]\.groupId: no section group sitesg_nope in the site; items\[0\]: sitesc_nope is not in the site's structure/);
    expect(env.emu.log.writes()).toBe(0);
  });

  it("drops the order when its site is gone, and deletes without a request", async () => {
    const state = (await env.up("SiteStructureOrder", { siteId: t.siteId, items: [t.b, t.a] })).state;
    env.emu.log.reset();
    await env.destroy("SiteStructureOrder", state);
    expect(env.emu.log.count()).toBe(0);
    expect(top(t.siteId).slice(0, 2)).toEqual([t.b, t.a]);
    env.emu.store.deleteSite(t.siteId);
    env.outOfBand();
    expect(await env.refresh("SiteStructureOrder", state)).toBeUndefined();
  });
});

describe("with sections joining groups", () => {
  it("orders a section created in a group through its groupId", async () => {
    const spaces = env.emu.seeded.spaceIds;
    const siteId = (await env.up("Site", { title: "Section-led groups" })).state.id;
    const g = (await env.up("SiteSectionGroup", { siteId, title: "G" })).state.id;
    const x = (await env.up("SiteSection", { siteId, spaceId: spaces[0], groupId: g })).state;
    const y = (await env.up("SiteSection", { siteId, spaceId: spaces[1], groupId: g })).state;
    expect(inGroup(siteId, g)).toEqual([x.id, y.id]);
    const order: State = (await env.up("SiteStructureOrder", { siteId, items: [g], groups: [{ groupId: g, items: [y.id, x.id] }] })).state;
    expect(inGroup(siteId, g)).toEqual([y.id, x.id]);
    expect(order.outs.groups).toEqual([{ groupId: g, items: [y.id, x.id] }]);
  });
});
