import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GitbookClient } from "../client";
import { REQUIRED_ID, UNKNOWN } from "../framework/check";
import { PartialFailure } from "../framework/failure";
import { startProviderEnv, rejectsAtCheck, type BadInput, type ProviderEnv, type State } from "../../test/support/provider";

let env: ProviderEnv;
let siteId: string;
/** Six sections of the test site. */
let s: string[];
beforeAll(async () => {
  env = await startProviderEnv();
  siteId = (await env.up("Site", { title: "Grouped Docs" })).state.id;
  s = [];
  for (const spaceId of env.emu.seeded.spaceIds) s.push((await env.up("SiteSection", { siteId, spaceId })).state.id);
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());
afterEach(() => vi.restoreAllMocks());

const GROUPS = /\/section-groups$/;
const groupOf = (section: string) => env.emu.store.groupOfSection(env.emu.store.sections.get(section)!)?.id;

async function created(extra: Record<string, unknown> = {}): Promise<State> {
  return (await env.up("SiteSectionGroup", { siteId, title: "Products", ...extra })).state;
}

/** Bodies the provider sent with `method`, observed at the client (the emulator logs no bodies). */
function spyRequests(method: string): () => [string, unknown][] {
  const spy = vi.spyOn(GitbookClient.prototype, "request");
  return () => spy.mock.calls.filter((c) => c[0] === method).map((c) => [c[1], (c[2] as { body?: unknown } | undefined)?.body]);
}

/** Takes every section back to the top level, so each test starts from the same site. */
afterEach(() => {
  for (const g of [...env.emu.store.sectionGroups.values()]) if (g.siteId === siteId) env.emu.store.deleteSectionGroup(g.id);
  env.outOfBand();
});

describe("check", () => {
  const bad: BadInput[] = [
    ["title", { title: "" }, /title must be 1 to 100 characters/],
    ["title", { title: "t".repeat(101) }, /title must be 1 to 100 characters/],
    ["icon", { icon: "i".repeat(51) }, /icon must be at most 50 characters/],
    ["draft", { draft: 1 }, /draft must be a boolean/],
    ["sections[1]", { sections: ["sec_a", "sec_a"] }, /sections\[1\] lists section sec_a twice/],
    ["sections[0]", { sections: [""] }, /must not be empty/],
  ];
  rejectsAtCheck(() => env, "SiteSectionGroup", { siteId: "site_x", title: "Products" }, bad);

  it("requires a site and a title; sections not known yet are not duplicates", async () => {
    const r = await env.check("SiteSectionGroup", {});
    expect(r.failures).toEqual(expect.arrayContaining([{ property: "siteId", reason: `siteId ${REQUIRED_ID}` }, { property: "title", reason: "title is required" }]));
    expect((await env.check("SiteSectionGroup", { siteId: "site_x", title: "P", sections: [UNKNOWN, UNKNOWN] })).failures).toBeUndefined();
  });
});

describe("diff", () => {
  const inputs = async (news: Record<string, unknown>) => (await env.check("SiteSectionGroup", news)).inputs!;
  const state: State = { id: "sitesg_1", outs: { organizationId: "", siteId: "site_1", title: "P", sections: ["a", "b"] } };

  it("compares sections as a set: another order is no change; another member is, in place", async () => {
    state.outs.organizationId = env.org;
    expect((await env.diff("SiteSectionGroup", state, await inputs({ siteId: "site_1", title: "P", sections: ["b", "a"] }))).changes).toBe(false);
    expect(await env.diff("SiteSectionGroup", state, await inputs({ siteId: "site_1", title: "P", sections: ["a"] }))).toMatchObject({ changes: true, replaces: [] });
    expect((await env.diff("SiteSectionGroup", state, await inputs({ siteId: "site_2", title: "P", sections: ["a", "b"] }))).replaces).toEqual(["siteId"]);
  });
});

describe("lifecycle", () => {
  it("creates with one POST holding its sections, in the order given", async () => {
    env.emu.log.reset();
    const posts = spyRequests("POST");
    const g = await created({ icon: "box", sections: [s[2], s[0]] });
    expect(env.emu.log.writes()).toBe(1);
    expect(posts().map(([, b]) => b)).toEqual([{ title: "Products", icon: "box", sections: [s[2], s[0]] }]);
    expect(env.emu.store.childrenOf(siteId, g.id).map((n) => n.record.id)).toEqual([s[2], s[0]]);
    expect(g.outs).toEqual({ organizationId: env.org, siteId, title: "Products", icon: "box", sections: [s[2], s[0]] });
  });

  it("reads the group back from the site's structure, its sections as a set", async () => {
    const g = await created({ sections: [s[1], s[0]] });
    env.emu.log.reset();
    const r = await env.refresh("SiteSectionGroup", g);
    expect(r!.inputs).toEqual({ organizationId: env.org, siteId, title: "Products", sections: [s[1], s[0]] });
    expect(env.emu.log.byRoute()).toEqual({ "GET /v1/orgs/:org/sites/:site/structure": 1 });
    env.emu.log.reset();
    // Refreshed state and the same program: nothing to do.
    expect((await env.up("SiteSectionGroup", { siteId, title: "Products", sections: [s[0], s[1]] }, r!.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("changes its sections one section PATCH each: joining ones come in, leaving ones go back to the top level", async () => {
    const g = await created({ sections: [s[0], s[1]] });
    env.emu.log.reset();
    const patches = spyRequests("PATCH");
    const r = await env.up("SiteSectionGroup", { siteId, title: "Products", sections: [s[1], s[2], s[3]] }, g);
    expect(r.step).toBe("update");
    expect(patches().map(([path, body]) => [path.split("/").pop(), body]).sort()).toEqual(
      [
        [s[0], { siteSectionGroupId: null }],
        [s[2], { siteSectionGroupId: g.id }],
        [s[3], { siteSectionGroupId: g.id }],
      ].sort(),
    );
    // One read of the structure, three section PATCHes.
    expect(env.emu.log.count()).toBe(4);
    expect([s[0], s[1], s[2], s[3]].map(groupOf)).toEqual([undefined, g.id, g.id, g.id]);
    expect(r.state.outs.sections).toEqual([s[1], s[2], s[3]]);
  });

  // Issue 42, case 7: before, the group's PATCH and the moves before the unknown section went through,
  // and state recorded the sections as they were before the update.
  it("applies its sections whole or not at all: a section the site does not have is refused before any write, its own PATCH included", async () => {
    const g = await created({ sections: [s[0]] });
    env.emu.log.reset();
    await expect(env.up("SiteSectionGroup", { siteId, title: "Renamed", sections: [s[1], "sitesc_missing", s[2]] }, g)).rejects.toThrow(
      `SiteSectionGroup ${g.id}: sections[1] "sitesc_missing": no section of site ${siteId} has this ID, so the group's sections cannot be applied whole. Pass the \`id\` outputs of SiteSections of this site, or remove the entry. Nothing was changed.`,
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.sectionGroups.get(g.id)?.title).toBe("Products");
    expect([s[0], s[1], s[2]].map(groupOf)).toEqual([g.id, undefined, undefined]);
    // Its sections alone: checked on the read the moves start from.
    await expect(env.up("SiteSectionGroup", { siteId, title: "Products", sections: [s[1], "sitesc_missing"] }, g)).rejects.toThrow(/sections\[1\] "sitesc_missing": no section of site/);
    expect(env.emu.log.writes()).toBe(0);
    expect([s[0], s[1]].map(groupOf)).toEqual([g.id, undefined]);
  });

  it("records, when a section's move fails part way, the sections the group holds: read again, or as the moves before answered", async () => {
    for (const rereadFails of [false, true]) {
      const g = await created({ sections: [s[0], s[1]] });
      // The first move goes through; every later one fails (after the client's retries).
      env.emu.faults.add({ match: { method: "PATCH", route: "/v1/orgs/:org/sites/:site/sections/:section" }, errorRate: 1, status: 500, after: 1 });
      // The one structure read before the moves passes; the one after them fails.
      if (rereadFails) env.emu.faults.add({ match: { method: "GET", route: "/v1/orgs/:org/sites/:site/structure" }, errorRate: 1, status: 500, after: 1 });
      const e = (await env.up("SiteSectionGroup", { siteId, title: "Products", sections: [s[1], s[2], s[3]] }, g).catch((x: unknown) => x)) as PartialFailure;
      env.emu.faults.clear();
      expect(e).toBeInstanceOf(PartialFailure);
      const held = [s[0], s[1], s[2], s[3]].filter((x) => groupOf(x!) === g.id);
      expect(held).toEqual([s[0], s[1], s[2]]);
      expect([...(e.properties.sections as string[])].sort()).toEqual([...held].sort());
      expect(e.reasons[0]).toMatch(new RegExp(`section group ${g.id} holds 3 sections \\(.*\\), not the 3 listed: a section's move failed`));
      // The next up converges from there.
      const next = await env.up("SiteSectionGroup", { siteId, title: "Products", sections: [s[1], s[2], s[3]] }, { id: g.id, outs: e.properties });
      expect(next.step).toBe("update");
      expect([s[0], s[1], s[2], s[3]].map(groupOf)).toEqual([undefined, g.id, g.id, g.id]);
      env.emu.store.deleteSectionGroup(g.id);
      env.outOfBand();
    }
  });

  it("updates its own settings with one PATCH, and clears what the program removed", async () => {
    const g = await created({ icon: "box", draft: true });
    const patches = spyRequests("PATCH");
    const r = await env.up("SiteSectionGroup", { siteId, title: "Areas" }, g);
    expect(patches().map(([, b]) => b)).toEqual([{ title: "Areas", icon: null, draft: false }]);
    expect(env.emu.store.sectionGroups.get(g.id)).toMatchObject({ title: "Areas", draft: false });
    expect(env.emu.store.sectionGroups.get(g.id)).not.toHaveProperty("icon");
    expect(r.state.outs).toEqual({ organizationId: env.org, siteId, title: "Areas" });
  });

  it("leaves its sections where they are when the program stops declaring them", async () => {
    const g = await created({ sections: [s[0]] });
    env.emu.log.reset();
    const r = await env.up("SiteSectionGroup", { siteId, title: "Products" }, g);
    expect(r.step).toBe("update");
    expect(env.emu.log.writes()).toBe(0);
    expect(groupOf(s[0]!)).toBe(g.id);
  });

  it("shows sections added or taken out outside Pulumi as drift, and converges them", async () => {
    const g = await created({ sections: [s[0], s[1]] });
    const store = env.emu.store;
    store.setSectionGroup(store.sections.get(s[4]!)!, g.id);
    store.setSectionGroup(store.sections.get(s[0]!)!, undefined);
    env.outOfBand();
    const refreshed = await env.refresh("SiteSectionGroup", g);
    expect(refreshed!.inputs.sections).toEqual([s[1], s[4]]);
    const r = await env.up("SiteSectionGroup", { siteId, title: "Products", sections: [s[0], s[1]] }, refreshed!.state);
    expect(r.step).toBe("update");
    expect([s[0], s[1], s[4]].map(groupOf)).toEqual([g.id, g.id, undefined]);
  });

  it("moves a section from one group to another in one run, whichever group converges first", async () => {
    for (const firstA of [true, false]) {
      const a = await created({ title: "A", sections: [s[0]] });
      const b = await created({ title: "B", sections: [] });
      const upA = () => env.up("SiteSectionGroup", { siteId, title: "A", sections: [] }, a);
      const upB = () => env.up("SiteSectionGroup", { siteId, title: "B", sections: [s[0]] }, b);
      await Promise.all(firstA ? [upA(), upB()] : [upB(), upA()]);
      expect(groupOf(s[0]!)).toBe(b.id);
      env.emu.store.deleteSectionGroup(a.id);
      env.emu.store.deleteSectionGroup(b.id);
      env.outOfBand();
    }
  });

  it("drops a group deleted outside Pulumi at refresh; deleting it keeps its sections, at the top level", async () => {
    const gone = await created();
    env.emu.store.deleteSectionGroup(gone.id);
    env.outOfBand();
    expect(await env.refresh("SiteSectionGroup", gone)).toBeUndefined();
    await env.destroy("SiteSectionGroup", gone);
    const g = await created({ sections: [s[5]] });
    await env.destroy("SiteSectionGroup", g);
    expect(env.emu.store.sectionGroups.has(g.id)).toBe(false);
    expect(env.emu.store.sections.has(s[5]!)).toBe(true);
    expect(groupOf(s[5]!)).toBeUndefined();
  });

  it("adopts an existing group, converging only what the program declares", async () => {
    const existing = await created({ title: "Legacy", icon: "clock", sections: [s[3]] });
    env.emu.log.reset();
    const r = await env.up("SiteSectionGroup", { siteId, title: "Adopted", adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.count({ method: "POST" })).toBe(0);
    expect(env.emu.store.sectionGroups.get(existing.id)).toMatchObject({ title: "Adopted", icon: "clock" });
    expect(groupOf(s[3]!)).toBe(existing.id);
  });

  it("recovers from a lost POST answer without creating the group twice", async () => {
    env.emu.log.reset();
    env.emu.faults.add({ match: { method: "POST", route: GROUPS }, dropAfterProcess: true, times: 1 });
    const r = await env.up("SiteSectionGroup", { siteId, title: "Lost answer" });
    expect([...env.emu.store.sectionGroups.values()].filter((g) => g.title === "Lost answer").map((g) => g.id)).toEqual([r.state.id]);
    expect(env.emu.log.count({ method: "POST", route: GROUPS })).toBe(1);
  });

  it("refreshes every group and link of a site with one GET of its structure", async () => {
    const groups = await Promise.all(["G1", "G2", "G3"].map((title) => created({ title })));
    const link = (await env.up("SiteExternalLink", { siteId, title: "Blog", url: "https://blog.acme.test", groupId: groups[0]!.id })).state;
    env.emu.log.reset();
    await Promise.all([...groups.map((g) => env.refresh("SiteSectionGroup", g)), env.refresh("SiteExternalLink", link)]);
    expect(env.emu.log.count()).toBe(1);
    await env.destroy("SiteExternalLink", link);
  });
});
