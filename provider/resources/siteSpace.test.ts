import { createRequire } from "node:module";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GitbookClient } from "../client";
import { REQUIRED_ID, UNKNOWN } from "../framework/check";
import { CheckFailed, startProviderEnv, type ProviderEnv, type State, rejectsAtCheck, type BadInput } from "../../test/support/provider";
import { SiteSpace } from "./siteSpace";
import { validateTopology } from "../components/topology";

let env: ProviderEnv;
let space: string[];
beforeAll(async () => {
  env = await startProviderEnv();
  space = env.emu.seeded.spaceIds;
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());
afterEach(() => vi.restoreAllMocks());

const SITE_SPACES = /\/site-spaces$/;
const SITE_SPACE = /\/site-spaces\/:siteSpace$/;
const SECTION = /\/sections\/:section$/;

async function newSite(title = "Spaced Docs"): Promise<string> {
  return (await env.up("Site", { title })).state.id;
}

/** A site with one section (created with space[0], which therefore already has its site space there). */
async function siteWithSection(): Promise<{ siteId: string; sectionId: string }> {
  const siteId = await newSite();
  const sectionId = (await env.up("SiteSection", { siteId, spaceId: space[0], title: "Docs" })).state.id;
  return { siteId, sectionId };
}

async function siteSpace(props: Record<string, unknown>): Promise<State> {
  return (await env.up("SiteSpace", props)).state;
}

/** Bodies the provider sent with `method`, observed at the client (the emulator logs no bodies). */
function spyBodies(method: string): () => unknown[] {
  const spy = vi.spyOn(GitbookClient.prototype, "request");
  return () => spy.mock.calls.filter((c) => c[0] === method).map((c) => (c[2] as { body?: unknown } | undefined)?.body);
}

describe("check", () => {
  const bad: BadInput[] = [
    ["path", { path: "" }, /path must be 1 to 100 characters/],
    ["path", { path: "p".repeat(101) }, /path must be 1 to 100 characters/],
    ["condition", { condition: "" }, /condition must be 1 to 1024 characters/],
    ["condition", { condition: "c".repeat(1025) }, /condition must be 1 to 1024 characters/],
    ["default", { default: 1 }, /default must be a boolean/],
    ["siteId", { siteId: "" }, /siteId must not be empty/],
    ["spaceId", { spaceId: "" }, /spaceId must not be empty/],
    ["sectionId", { sectionId: "" }, /sectionId must not be empty/],
  ];
  rejectsAtCheck(() => env, "SiteSpace", { siteId: "site_x", spaceId: "spc_x", sectionId: "sitesc_x" }, bad);

  it("accepts the limits themselves", async () => {
    const r = await env.check("SiteSpace", { siteId: "site_x", spaceId: "spc_x", sectionId: "sitesc_x", path: "p".repeat(100), condition: "c".repeat(1024) });
    expect(r.failures).toBeUndefined();
  });

  it("requires a site, a space and a section and says so", async () => {
    const r = await env.check("SiteSpace", {});
    expect(r.failures).toEqual(
      expect.arrayContaining([
        { property: "siteId", reason: `siteId ${REQUIRED_ID}` },
        { property: "spaceId", reason: `spaceId ${REQUIRED_ID}` },
        { property: "sectionId", reason: `sectionId ${REQUIRED_ID}` },
      ]),
    );
  });

  it("refuses a site space without a section before sending anything (it would not follow the section it lands in)", async () => {
    env.emu.log.reset();
    const r = await env.check("SiteSpace", { siteId: "site_x", spaceId: "spc_x", path: "v2" });
    expect(r.failures).toEqual([{ property: "sectionId", reason: `sectionId ${REQUIRED_ID}` }]);
    expect(env.emu.log.count()).toBe(0);
  });

  it("fills the organization from config and nothing else", async () => {
    const r = await env.check("SiteSpace", { siteId: "site_x", spaceId: "spc_x", sectionId: "sitesc_x" });
    expect(r.inputs).toEqual({ organizationId: env.org, siteId: "site_x", spaceId: "spc_x", sectionId: "sitesc_x" });
  });

  it("skips values not known until apply", async () => {
    const r = await env.check("SiteSpace", { siteId: UNKNOWN, spaceId: UNKNOWN, sectionId: UNKNOWN, condition: UNKNOWN });
    expect(r.failures).toBeUndefined();
  });

  it("fails up with the property named", async () => {
    await expect(env.up("SiteSpace", { siteId: "site_x", spaceId: "spc_x", sectionId: "sitesc_x", condition: "" })).rejects.toThrow(CheckFailed);
  });
});

describe("diff", () => {
  let state: State;
  let program: Record<string, unknown>;
  beforeAll(async () => {
    const { siteId, sectionId } = await siteWithSection();
    program = { siteId, spaceId: space[1], sectionId, path: "v2", condition: "visitor.claims.beta", default: true };
    state = await siteSpace(program);
  });
  const inputs = async (news: Record<string, unknown>) => (await env.check("SiteSpace", news)).inputs!;

  it("reports no change for the same program, without a request", async () => {
    env.emu.log.reset();
    const d = await env.diff("SiteSpace", state, await inputs(program));
    expect(d.changes).toBe(false);
    expect(env.emu.log.count()).toBe(0);
  });

  for (const [field, value] of [
    ["spaceId", "spc_other"],
    ["path", "v3"],
    ["condition", "visitor.claims.alpha"],
    ["default", false],
  ] as const) {
    it(`updates in place for a ${field} change`, async () => {
      const d = await env.diff("SiteSpace", state, await inputs({ ...program, [field]: value }));
      expect(d).toMatchObject({ changes: true, replaces: [] });
    });
  }

  it("replaces, deleting first, for another section, site or organization", async () => {
    for (const [field, value] of [
      ["sectionId", "sitesc_other"],
      ["siteId", "site_other"],
      ["organizationId", "org_other"],
    ]) {
      const d = await env.diff("SiteSpace", state, await inputs({ ...program, [field!]: value }));
      expect(d).toMatchObject({ changes: true, replaces: [field], deleteBeforeReplace: true });
    }
  });

  it("sees a removed optional field as an in-place change", async () => {
    const { condition: _c, ...rest } = program;
    expect(await env.diff("SiteSpace", state, await inputs(rest))).toMatchObject({ changes: true, replaces: [] });
  });

  it("takes a sectionId added to state written without one, naming the section it is in, as no change", async () => {
    // State from before sectionId was required: the site space was placed in a section implicitly.
    const { sectionId: _s, ...legacy } = state.outs;
    const d = await env.diff("SiteSpace", { id: state.id, outs: legacy }, await inputs(program));
    expect(d.changes).toBe(false);
    const moved = await env.diff("SiteSpace", { id: state.id, outs: legacy }, await inputs({ ...program, sectionId: "sitesc_other" }));
    expect(moved).toMatchObject({ changes: true, replaces: ["sectionId"] });
  });

  it("treats unknown values as possible changes", async () => {
    expect(await env.diff("SiteSpace", state, { ...(await inputs(program)), spaceId: UNKNOWN })).toMatchObject({ changes: true, replaces: [] });
    expect((await env.diff("SiteSpace", state, { ...(await inputs(program)), sectionId: UNKNOWN })).replaces).toEqual(["sectionId"]);
  });
});

describe("lifecycle", () => {
  it("creates in the given section with one POST", async () => {
    const { siteId, sectionId } = await siteWithSection();
    env.emu.log.reset();
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId });
    expect(env.emu.log.writes()).toBe(1);
    const live = env.emu.store.siteSpaces.get(s.id)!;
    expect(live).toMatchObject({ siteId, sectionId, spaceId: space[1] });
    expect(s.outs).toEqual({
      organizationId: env.org,
      siteId,
      spaceId: space[1],
      sectionId,
      parentSectionId: sectionId,
    });
  });

  it("creates with one POST, one PATCH and one section PATCH for path, condition and default", async () => {
    const { siteId, sectionId } = await siteWithSection();
    env.emu.log.reset();
    const patches = spyBodies("PATCH");
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId, path: "v2", condition: "visitor.claims.beta", default: true });
    expect(env.emu.log.count({ method: "POST" })).toBe(1);
    expect(env.emu.log.count({ method: "PATCH", route: SITE_SPACE })).toBe(1);
    expect(env.emu.log.count({ method: "PATCH", route: SECTION })).toBe(1);
    expect(patches()).toEqual([{ path: "v2", condition: "visitor.claims.beta" }, { defaultSiteSpace: s.id }]);
    expect(env.emu.store.siteSpaces.get(s.id)).toMatchObject({ path: "v2", condition: "visitor.claims.beta" });
    expect(env.emu.store.sections.get(sectionId)!.defaultSiteSpaceId).toBe(s.id);
    expect(s.outs).toMatchObject({ path: "v2", default: true });
  });

  it("refuses to show a space twice in a section, naming adoptId, without writing", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const own = env.emu.store.siteSpacesIn(siteId, sectionId)[0]!;
    env.emu.log.reset();
    await expect(siteSpace({ siteId, spaceId: space[0], sectionId })).rejects.toThrow(
      new RegExp(`already published in section ${sectionId}.*managed by the SiteSection.*adoptId: "${own.id}"`),
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.siteSpacesIn(siteId, sectionId)).toHaveLength(1);
  });

  it("reads the site space back from the site's list", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId, path: "read", default: true });
    const r = await env.refresh("SiteSpace", s);
    expect(r!.state).toEqual(s);
    expect(r!.inputs).toEqual({ organizationId: env.org, siteId, spaceId: space[1], sectionId, path: "read", default: true });
  });

  it("updates only what changed, and nothing when nothing changed", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const program = { siteId, spaceId: space[1], sectionId, path: "before", condition: "visitor.claims.a" };
    const s = await siteSpace(program);
    env.emu.log.reset();
    const same = await env.up("SiteSpace", program, s);
    expect(same.step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    const patches = spyBodies("PATCH");
    const r = await env.up("SiteSpace", { ...program, path: "after" }, s);
    expect(r.step).toBe("update");
    expect(patches()).toEqual([{ path: "after" }]);
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.store.siteSpaces.get(s.id)).toMatchObject({ path: "after", condition: "visitor.claims.a" });
  });

  it("repoints the site space to another space in place", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId, path: "stable" });
    const patches = spyBodies("PATCH");
    const r = await env.up("SiteSpace", { siteId, spaceId: space[2], sectionId, path: "stable" }, s);
    expect(r.step).toBe("update");
    expect(r.state.id).toBe(s.id);
    expect(patches()).toEqual([{ spaceId: space[2] }]);
    expect(env.emu.store.siteSpaces.get(s.id)).toMatchObject({ spaceId: space[2], path: "stable" });
    expect(r.state.outs.spaceId).toBe(space[2]);
  });

  it("clears a removed condition with null and leaves the path when it is removed", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId, path: "kept", condition: "visitor.claims.a" });
    const patches = spyBodies("PATCH");
    const r = await env.up("SiteSpace", { siteId, spaceId: space[1], sectionId }, s);
    expect(r.step).toBe("update");
    expect(patches()).toEqual([{ condition: null }]);
    const live = env.emu.store.siteSpaces.get(s.id)!;
    expect(live).not.toHaveProperty("condition");
    expect(live.path).toBe("kept");
    expect(r.state.outs).not.toHaveProperty("condition");
    expect(r.state.outs).not.toHaveProperty("path");
  });

  it("shows drift after refresh and converges it on the next up", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const program = { siteId, spaceId: space[1], sectionId, path: "drift", condition: "visitor.claims.a" };
    const s = await siteSpace(program);
    const live = env.emu.store.siteSpaces.get(s.id)!;
    live.path = "hand";
    live.spaceId = space[3]!;
    delete live.condition;
    env.outOfBand();
    const refreshed = await env.refresh("SiteSpace", s);
    expect(refreshed!.inputs).toMatchObject({ path: "hand", spaceId: space[3] });
    expect(refreshed!.inputs).not.toHaveProperty("condition");
    const r = await env.up("SiteSpace", program, refreshed!.state);
    expect(r.step).toBe("update");
    expect(env.emu.store.siteSpaces.get(s.id)).toMatchObject({ path: "drift", spaceId: space[1], condition: "visitor.claims.a" });
  });

  it("sets, reads, drops and moves a custom home page (pageId), a page of the space it shows", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const [home, other] = env.emu.store.writePages(space[1]!, ["Home", "Other"]);
    const [elsewhere] = env.emu.store.writePages(space[2]!, ["Elsewhere"]);
    const patches = spyBodies("PATCH");
    const program = { siteId, spaceId: space[1], sectionId, pageId: home!.id };
    const s = await siteSpace(program);
    expect(patches()).toEqual([{ pageId: home!.id }]);
    expect(env.emu.store.siteSpaces.get(s.id)!.pageId).toBe(home!.id);
    expect((await env.refresh("SiteSpace", s))!.state).toEqual(s);
    // Another page chosen in the app is drift; the next up takes it back.
    env.emu.store.siteSpaces.get(s.id)!.pageId = other!.id;
    env.outOfBand();
    const drifted = await env.refresh("SiteSpace", s);
    expect(drifted!.inputs.pageId).toBe(other!.id);
    expect((await env.up("SiteSpace", program, drifted!.state)).step).toBe("update");
    expect(env.emu.store.siteSpaces.get(s.id)!.pageId).toBe(home!.id);
    // A page of another space is GitBook's to refuse, and the error names the field.
    await expect(env.up("SiteSpace", { ...program, pageId: elsewhere!.id }, s)).rejects.toThrow(/pageId/);
    // Another space and its page go in one PATCH.
    patches();
    const moved = await env.up("SiteSpace", { ...program, spaceId: space[2], pageId: elsewhere!.id }, s);
    expect(patches().at(-1)).toEqual({ spaceId: space[2], pageId: elsewhere!.id });
    expect(env.emu.store.siteSpaces.get(s.id)).toMatchObject({ spaceId: space[2], pageId: elsewhere!.id });
    // Removed, the landing page is shown again.
    const removed = await env.up("SiteSpace", { ...program, spaceId: space[2], pageId: undefined }, moved.state);
    expect(patches().at(-1)).toEqual({ pageId: null });
    expect(env.emu.store.siteSpaces.get(s.id)).not.toHaveProperty("pageId");
    expect(removed.state.outs).not.toHaveProperty("pageId");
    // A DocsSite site space takes it as the kind declares it, with no line of its own.
    const docs = { site: { title: "Docs" }, sections: [{ key: "guides", spaceId: "spc_1", siteSpaces: [{ key: "v2", spaceId: "spc_2", pageId: "" }] }] };
    expect(validateTopology(docs).map((p) => p.message)).toEqual(["sections[0].siteSpaces[0].pageId must not be empty"]);
  });

  it("sees another default as drift of a declared default", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId, default: true });
    env.emu.store.sections.get(sectionId)!.defaultSiteSpaceId = env.emu.store.siteSpacesIn(siteId, sectionId)[0]!.id;
    env.outOfBand();
    const refreshed = await env.refresh("SiteSpace", s);
    expect(refreshed!.inputs.default).toBe(false);
    await env.up("SiteSpace", { siteId, spaceId: space[1], sectionId, default: true }, refreshed!.state);
    expect(env.emu.store.sections.get(sectionId)!.defaultSiteSpaceId).toBe(s.id);
  });

  it("does not report drift for a declared false while it is the default", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId, default: false });
    env.emu.store.sections.get(sectionId)!.defaultSiteSpaceId = s.id;
    env.outOfBand();
    expect(env.emu.store.isDefaultSiteSpace(env.emu.store.siteSpaces.get(s.id)!)).toBe(true);
    const refreshed = await env.refresh("SiteSpace", s);
    expect(refreshed!.inputs.default).toBe(false);
  });

  it("drops a site space deleted outside Pulumi at refresh (also with its section), and deletes idempotently", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId });
    env.emu.store.deleteSiteSpace(s.id);
    env.outOfBand();
    expect(await env.refresh("SiteSpace", s)).toBeUndefined();
    await env.destroy("SiteSpace", s);

    const t = await siteSpace({ siteId, spaceId: space[2], sectionId });
    env.emu.store.deleteSection(sectionId);
    env.outOfBand();
    expect(await env.refresh("SiteSpace", t)).toBeUndefined();
  });

  it("deletes the site space", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId });
    await env.destroy("SiteSpace", s);
    expect(env.emu.store.siteSpaces.has(s.id)).toBe(false);
  });

  it("replaces for another section, deleting the old site space first", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const other = (await env.up("SiteSection", { siteId, spaceId: space[5], title: "Other" })).state.id;
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId });
    const r = await env.up("SiteSpace", { siteId, spaceId: space[1], sectionId: other }, s);
    expect(r.step).toBe("replace");
    expect(env.emu.store.siteSpaces.has(s.id)).toBe(false);
    expect(env.emu.store.siteSpaces.get(r.state.id)).toMatchObject({ sectionId: other, spaceId: space[1] });
  });

  it("refuses to delete a section holding a site space with a fixed sectionId, from what GitBook says now, not what this process saw", async () => {
    // A SiteSpace naming its section by a fixed ID: the engine does not know it depends on the section.
    const { siteId, sectionId } = await siteWithSection();
    const section = await env.refresh("SiteSection", { id: sectionId, outs: { organizationId: env.org, siteId, spaceId: space[0] } });
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId });
    // A new process: nothing of the site space was seen here.
    env.outOfBand();
    env.emu.log.reset();
    await expect(env.destroy("SiteSection", section!.state)).rejects.toThrow(
      new RegExp(`SiteSection ${sectionId}: deleting it \\(${sectionId}\\) would also delete .*SiteSpace "[^"]+" \\(${s.id}\\).*Nothing was deleted.*forceDestroy: true`),
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.siteSpaces.has(s.id)).toBe(true);
    // Once the SiteSpace is gone (replaced or removed first, as with sectionId: section.id), the section goes.
    await env.destroy("SiteSpace", s);
    await env.destroy("SiteSection", section!.state);
    expect(env.emu.store.sections.has(sectionId)).toBe(false);
  });

  it("deletes a section with the site spaces in it when its forceDestroy is recorded", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const section = await env.refresh("SiteSection", { id: sectionId, outs: { organizationId: env.org, siteId, spaceId: space[0] } });
    const s = await siteSpace({ siteId, spaceId: space[1], sectionId });
    env.outOfBand();
    await env.destroy("SiteSection", { ...section!.state, outs: { ...section!.state.outs, forceDestroy: true } });
    expect(env.emu.store.sections.has(sectionId)).toBe(false);
    expect(env.emu.store.siteSpaces.has(s.id)).toBe(false);
  });

  it("adopts an existing site space (e.g. a section's own) and converges it to the program", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const own = env.emu.store.siteSpacesIn(siteId, sectionId)[0]!;
    env.emu.log.reset();
    const r = await env.up("SiteSpace", { siteId, spaceId: space[0], sectionId, condition: "visitor.claims.x", adoptId: own.id });
    expect(r.state.id).toBe(own.id);
    expect(env.emu.log.count({ method: "POST" })).toBe(0);
    expect(env.emu.store.siteSpaces.get(own.id)).toMatchObject({ condition: "visitor.claims.x" });
    expect(r.state.outs).toMatchObject({ adoptId: own.id, parentSectionId: sectionId });
  });

  it("refuses to adopt a site space in another section", async () => {
    const { siteId, sectionId } = await siteWithSection();
    const elsewhere = await siteSpace({ siteId, spaceId: space[1], sectionId });
    const other = (await env.up("SiteSection", { siteId, spaceId: space[5], title: "Other" })).state.id;
    await expect(env.up("SiteSpace", { siteId, spaceId: space[1], sectionId: other, adoptId: elsewhere.id })).rejects.toThrow(
      /sectionId.*cannot change in place/,
    );
    expect(env.emu.store.siteSpaces.get(elsewhere.id)!.sectionId).toBe(sectionId);
  });

  it("fails clearly when adoptId names nothing", async () => {
    const { siteId, sectionId } = await siteWithSection();
    await expect(env.up("SiteSpace", { siteId, spaceId: space[1], sectionId, adoptId: "sitesp_missing" })).rejects.toThrow(
      /adoptId "sitesp_missing" names no existing object/,
    );
  });

  it("recovers from a lost POST answer without creating the site space twice", async () => {
    const { siteId, sectionId } = await siteWithSection();
    env.emu.faults.add({ match: { method: "POST", route: SITE_SPACES }, dropAfterProcess: true, times: 1 });
    const r = await env.up("SiteSpace", { siteId, spaceId: space[1], sectionId, path: "lost" });
    const mine = env.emu.store.siteSpacesOf(siteId).filter((x) => x.spaceId === space[1]);
    expect(mine.map((x) => x.id)).toEqual([r.state.id]);
    expect(mine[0]!.path).toBe("lost");
  });

  it("keeps a created site space in state when its settings fail to apply", async () => {
    const { siteId, sectionId } = await siteWithSection();
    env.emu.faults.add({ match: { method: "PATCH", route: SITE_SPACE }, errorRate: 1, status: 500 });
    const program = { siteId, spaceId: space[1], sectionId, path: "half" };
    const err = await env.up("SiteSpace", program).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure", id: expect.any(String) });
    expect(err.properties.path).not.toBe("half");
    expect(env.emu.store.siteSpaces.has(err.id)).toBe(true);
    env.emu.faults.clear();
    const next = await env.up("SiteSpace", program, { id: err.id, outs: err.properties });
    expect(next.step).toBe("update");
    expect(env.emu.store.siteSpaces.get(err.id)!.path).toBe("half");
  });

  it("refreshes many site spaces of a site with one listing", async () => {
    const siteId = await newSite();
    const sections = await Promise.all(
      Array.from({ length: 6 }, (_, i) => env.up("SiteSection", { siteId, spaceId: space[0], title: `Section ${i}` })),
    );
    const states = await Promise.all(
      sections.flatMap((sec) => space.slice(1).map((spaceId) => env.up("SiteSpace", { siteId, spaceId, sectionId: sec.state.id }))),
    );
    expect(states).toHaveLength(30);
    env.emu.log.reset();
    const refreshed = await Promise.all(states.map((s) => env.refresh("SiteSpace", s.state)));
    expect(refreshed.every((r) => r !== undefined)).toBe(true);
    expect(env.emu.log.count({ method: "GET", route: SITE_SPACES })).toBe(1);
    expect(env.emu.log.count()).toBe(1);
  });
});

describe("resource class", () => {
  it("registers gitbook:SiteSpace with the declared inputs and every output key", () => {
    pulumi.runtime.setMocks({ newResource: (a) => ({ id: "id", state: a.inputs }), call: () => ({}) });
    const runtime = createRequire(__filename)("@pulumi/pulumi/runtime/resource");
    const spy = vi.spyOn(runtime, "registerResource").mockImplementation(() => undefined);
    new SiteSpace("s", { siteId: "site_1", spaceId: "spc_1", sectionId: "sitesc_1" });
    const [, , type, , , , , props] = spy.mock.calls.at(-1)!;
    expect(type).toBe("pulumi-nodejs:dynamic/gitbook:SiteSpace");
    for (const k of ["organizationId", "siteId", "spaceId", "sectionId", "parentSectionId"]) {
      expect(props).toHaveProperty(k);
    }
    // Inputs left unset are not registered (four promises each in the SDK); they read as Outputs of undefined.
    for (const k of ["path", "condition", "default", "adoptId"]) expect(props).not.toHaveProperty(k);
  });
});
