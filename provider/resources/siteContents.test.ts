/**
 * SiteSpaces added to a section this deployment created know what the section shows without listing
 * the site; anything less certain is listed as before. Either way a space is never shown twice.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startProviderEnv, type ProviderEnv, type State } from "../../test/support/provider";

let env: ProviderEnv;
let space: string[];
beforeAll(async () => {
  env = await startProviderEnv();
  space = env.emu.seeded.spaceIds;
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());

const SITE_SPACES = /\/site-spaces$/;
/** Where a site space's create finds what its section shows: the site's section listing, which embeds it. */
const SECTIONS = /\/sections$/;

async function freshSection(): Promise<{ siteId: string; sectionId: string }> {
  const siteId = (await env.up("Site", { title: "Known Docs" })).state.id;
  const sectionId = (await env.up("SiteSection", { siteId, spaceId: space[0], title: "Docs" })).state.id;
  return { siteId, sectionId };
}

const siteSpace = async (props: Record<string, unknown>): Promise<State> => (await env.up("SiteSpace", props)).state;

describe("site spaces in a section created by this deployment", () => {
  it("are created with one POST each, the guard needing no listing of the site", async () => {
    const { siteId, sectionId } = await freshSection();
    env.emu.log.reset();
    await Promise.all([1, 2, 3].map((i) => siteSpace({ siteId, sectionId, spaceId: space[i] })));
    expect(env.emu.log.count({ method: "POST", route: SITE_SPACES })).toBe(3);
    // What this process remembers is no proof for recovering a lost answer: each create lists the
    // site's sections (which embed their site spaces) once before its POST (concurrent ones may share
    // a listing), and nothing else.
    expect(env.emu.log.count({ method: "GET", route: SECTIONS })).toBeLessThanOrEqual(3);
    expect(env.emu.log.count({ method: "GET" })).toBe(env.emu.log.count({ method: "GET", route: SECTIONS }));
    expect(env.emu.store.siteSpacesIn(siteId, sectionId).map((s) => s.spaceId).sort()).toEqual([space[0], space[1], space[2], space[3]].sort());
  });

  it("still refuses the section's own space, naming its site space, without a single request", async () => {
    const { siteId, sectionId } = await freshSection();
    const own = env.emu.store.siteSpacesIn(siteId, sectionId)[0]!;
    env.emu.log.reset();
    await expect(siteSpace({ siteId, sectionId, spaceId: space[0] })).rejects.toThrow(`adoptId: "${own.id}"`);
    expect(env.emu.log.count()).toBe(0);
  });

  it("refuses a space declared twice for one section even when both are created at once", async () => {
    const { siteId, sectionId } = await freshSection();
    const results = await Promise.allSettled([1, 2].map(() => siteSpace({ siteId, sectionId, spaceId: space[4] })));
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.message).toMatch(/declared twice/);
    expect(env.emu.store.siteSpacesIn(siteId, sectionId).filter((s) => s.spaceId === space[4])).toHaveLength(1);
  });

  it("accepts a space again once its site space was deleted", async () => {
    const { siteId, sectionId } = await freshSection();
    const first = await siteSpace({ siteId, sectionId, spaceId: space[1] });
    await env.destroy("SiteSpace", first);
    const again = await siteSpace({ siteId, sectionId, spaceId: space[1] });
    expect(env.emu.store.siteSpaces.has(again.id)).toBe(true);
  });

  it("lists the section again after a create failed, since what it shows is then unknown", async () => {
    const { siteId, sectionId } = await freshSection();
    await expect(siteSpace({ siteId, sectionId, spaceId: "spc_missing" })).rejects.toThrow(/400/);
    env.emu.log.reset();
    await siteSpace({ siteId, sectionId, spaceId: space[2] });
    expect(env.emu.log.count({ method: "GET", route: SECTIONS })).toBe(1);
  });
});

describe("site spaces in a section this deployment did not create", () => {
  it("list the site first, and refuse a space someone else already added", async () => {
    const { siteId, sectionId } = await freshSection();
    // Added through the API by someone else, then a new deployment (a new provider process).
    const other = await fetch(`${env.emu.url}/v1/orgs/${env.org}/sites/${siteId}/site-spaces`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.emu.token}`, "content-type": "application/json" },
      body: JSON.stringify({ spaceId: space[5], sectionId }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    env.outOfBand();
    env.emu.log.reset();
    await expect(siteSpace({ siteId, sectionId, spaceId: space[5] })).rejects.toThrow(`adoptId: "${other.id}"`);
    expect(env.emu.log.count({ method: "GET", route: SECTIONS })).toBe(1);
    expect(env.emu.log.writes()).toBe(0);
  });
});
