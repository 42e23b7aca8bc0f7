import { createRequire } from "node:module";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GitbookClient } from "../client";
import { REQUIRED_ID, UNKNOWN } from "../framework/check";
import { CheckFailed, startProviderEnv, type ProviderEnv, type State, rejectsAtCheck, type BadInput } from "../../test/support/provider";
import { SiteSection } from "./siteSection";

let env: ProviderEnv;
let space: string[];
beforeAll(async () => {
  env = await startProviderEnv();
  space = env.emu.seeded.spaceIds;
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());
afterEach(() => vi.restoreAllMocks());

const SECTIONS = /\/sections$/;
const SECTION = /\/sections\/:section$/;
const SITE = /\/sites\/:site$/;

/** A fresh site per test keeps section lists, paths and defaults independent. */
async function newSite(title = "Sectioned Docs"): Promise<string> {
  return (await env.up("Site", { title })).state.id;
}

async function section(siteId: string, extra: Record<string, unknown> = {}): Promise<State> {
  return (await env.up("SiteSection", { siteId, spaceId: space[0], ...extra })).state;
}

/** Bodies the provider sent with `method`, observed at the client (the emulator logs no bodies). */
function spyBodies(method: string): () => unknown[] {
  const spy = vi.spyOn(GitbookClient.prototype, "request");
  return () => spy.mock.calls.filter((c) => c[0] === method).map((c) => (c[2] as { body?: unknown } | undefined)?.body);
}

describe("check", () => {
  const bad: BadInput[] = [
    ["title", { title: "A" }, /title must be 2 to 128 characters/],
    ["title", { title: "t".repeat(129) }, /title must be 2 to 128 characters/],
    ["icon", { icon: "i".repeat(51) }, /icon must be at most 50 characters/],
    ["path", { path: "" }, /path must be 1 to 100 characters/],
    ["path", { path: "p".repeat(101) }, /path must be 1 to 100 characters/],
    ["condition", { condition: "" }, /condition must be 1 to 1024 characters/],
    ["condition", { condition: "c".repeat(1025) }, /condition must be 1 to 1024 characters/],
    ["description", { description: "d".repeat(257) }, /description must be at most 256 characters/],
    ["localizedTitle", { localizedTitle: { klingon: "Guides" } }, /localizedTitle Unrecognized key: "klingon"/],
    ["localizedTitle.fr", { localizedTitle: { fr: "t".repeat(129) } }, /localizedTitle\.fr must be at most 128 characters/],
    ["default", { default: "yes" }, /default must be a boolean/],
    ["draft", { draft: "yes" }, /draft must be a boolean/],
    ["siteId", { siteId: "" }, /siteId must not be empty/],
    ["spaceId", { spaceId: "" }, /spaceId must not be empty/],
  ];
  rejectsAtCheck(() => env, "SiteSection", { siteId: "site_x", spaceId: "spc_x" }, bad);

  it("accepts the limits themselves", async () => {
    const r = await env.check("SiteSection", {
      siteId: "site_x",
      spaceId: "spc_x",
      title: "t".repeat(128),
      icon: "i".repeat(50),
      path: "p".repeat(100),
      condition: "c".repeat(1024),
      description: "d".repeat(256),
    });
    expect(r.failures).toBeUndefined();
  });

  it("requires a site and a space and says so", async () => {
    const r = await env.check("SiteSection", {});
    expect(r.failures).toEqual(
      expect.arrayContaining([
        { property: "siteId", reason: `siteId ${REQUIRED_ID}` },
        { property: "spaceId", reason: `spaceId ${REQUIRED_ID}` },
      ]),
    );
  });

  it("fills the organization from config and nothing else", async () => {
    const r = await env.check("SiteSection", { siteId: "site_x", spaceId: "spc_x" });
    expect(r.inputs).toEqual({ organizationId: env.org, siteId: "site_x", spaceId: "spc_x" });
  });

  it("skips values not known until apply", async () => {
    const r = await env.check("SiteSection", { siteId: UNKNOWN, spaceId: UNKNOWN, title: UNKNOWN, path: UNKNOWN });
    expect(r.failures).toBeUndefined();
  });

  it("fails up with the property named", async () => {
    await expect(env.up("SiteSection", { siteId: "site_x", spaceId: "spc_x", path: "" })).rejects.toThrow(CheckFailed);
  });
});

describe("diff", () => {
  let siteId: string;
  let state: State;
  const declared = () => ({ siteId, spaceId: space[0], title: "Guides", icon: "book", path: "guides", condition: "visitor.claims.beta", default: true });
  beforeAll(async () => {
    siteId = await newSite();
    state = await section(siteId, declared());
  });
  const inputs = async (news: Record<string, unknown>) => (await env.check("SiteSection", news)).inputs!;

  it("reports no change for the same program, without a request", async () => {
    env.emu.log.reset();
    const d = await env.diff("SiteSection", state, await inputs(declared()));
    expect(d.changes).toBe(false);
    expect(env.emu.log.count()).toBe(0);
  });

  for (const [field, value] of [
    ["title", "Handbook"],
    ["icon", "star"],
    ["path", "handbook"],
    ["condition", "visitor.claims.alpha"],
    ["description", "All the guides"],
    ["default", false],
  ] as const) {
    it(`updates in place for a ${field} change`, async () => {
      const d = await env.diff("SiteSection", state, await inputs({ ...declared(), [field]: value }));
      expect(d).toMatchObject({ changes: true, replaces: [] });
    });
  }

  it("replaces, deleting first, for another site, space or organization", async () => {
    for (const [field, value] of [
      ["siteId", "site_other"],
      ["spaceId", "spc_other"],
      ["organizationId", "org_other"],
    ]) {
      const d = await env.diff("SiteSection", state, await inputs({ ...declared(), [field!]: value }));
      expect(d).toMatchObject({ changes: true, replaces: [field], deleteBeforeReplace: true });
    }
  });

  it("sees a removed optional field as an in-place change", async () => {
    const { condition: _c, ...rest } = declared();
    const d = await env.diff("SiteSection", state, await inputs(rest));
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });

  it("treats unknown values as possible changes", async () => {
    const d = await env.diff("SiteSection", state, { ...(await inputs(declared())), title: UNKNOWN });
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const d2 = await env.diff("SiteSection", state, { ...(await inputs(declared())), spaceId: UNKNOWN });
    expect(d2.replaces).toEqual(["spaceId"]);
  });

  it("ignores adoptId once the section is managed", async () => {
    const d = await env.diff("SiteSection", state, await inputs({ ...declared(), adoptId: "sitesc_x" }));
    expect(d.changes).toBe(false);
  });
});

describe("lifecycle", () => {
  it("creates with one POST when only the title and icon are declared; the section's site space is an output", async () => {
    const siteId = await newSite();
    env.emu.log.reset();
    const s = await section(siteId, { title: "Start here", icon: "rocket" });
    expect(env.emu.log.writes()).toBe(1);
    const live = env.emu.store.sections.get(s.id)!;
    expect(live).toMatchObject({ siteId, title: "Start here", icon: "rocket", spaceId: space[0] });
    const own = env.emu.store.siteSpacesIn(siteId, s.id);
    expect(own.map((ss) => ss.spaceId)).toEqual([space[0]]);
    expect(s.outs).toEqual({
      organizationId: env.org,
      siteId,
      spaceId: space[0],
      title: "Start here",
      icon: "rocket",
      siteSpaceId: own[0]!.id,
    });
  });

  it("leaves the title to the API (the space's title) when not declared", async () => {
    const siteId = await newSite();
    const s = await section(siteId);
    expect(env.emu.store.sections.get(s.id)!.title).toBeNull();
    expect(s.outs).not.toHaveProperty("title");
    const r = await env.refresh("SiteSection", s);
    expect(r!.inputs).not.toHaveProperty("title");
  });

  it("creates with one POST, one section PATCH and one site PATCH for the rest", async () => {
    const siteId = await newSite();
    await section(siteId, { spaceId: space[1] });
    env.emu.log.reset();
    const patches = spyBodies("PATCH");
    const s = await section(siteId, { title: "Guides", path: "g", condition: "visitor.claims.beta", description: "How-tos", default: true });
    expect(env.emu.log.count({ method: "POST" })).toBe(1);
    expect(env.emu.log.count({ method: "PATCH", route: SECTION })).toBe(1);
    expect(env.emu.log.count({ method: "PATCH", route: SITE })).toBe(1);
    expect(patches()).toEqual([{ path: "g", condition: "visitor.claims.beta", description: "How-tos" }, { defaultSiteSection: s.id }]);
    expect(env.emu.store.sections.get(s.id)).toMatchObject({ path: "g", condition: "visitor.claims.beta", description: "How-tos" });
    expect(env.emu.store.sites.get(siteId)!.defaultSectionId).toBe(s.id);
    expect(s.outs).toMatchObject({ path: "g", default: true });
  });

  it("creates a draft section with its one POST, shows a draft made live in the app as drift, and makes it live again when removed", async () => {
    const siteId = await newSite();
    await section(siteId, { spaceId: space[1] });
    env.emu.log.reset();
    const posts = spyBodies("POST");
    const s = await section(siteId, { title: "Preview", draft: true });
    expect(env.emu.log.writes()).toBe(1);
    expect(posts()).toEqual([{ spaceId: space[0], title: "Preview", draft: true }]);
    expect(env.emu.store.sections.get(s.id)!.draft).toBe(true);
    expect(s.outs).toMatchObject({ draft: true });
    env.emu.store.sections.get(s.id)!.draft = false;
    env.outOfBand();
    const r = await env.refresh("SiteSection", s);
    expect(r!.inputs).toMatchObject({ draft: false });
    const back = await env.up("SiteSection", { siteId, spaceId: space[0], title: "Preview", draft: true }, r!.state);
    expect(back.step).toBe("update");
    expect(env.emu.store.sections.get(s.id)!.draft).toBe(true);
    vi.restoreAllMocks();
    const patches = spyBodies("PATCH");
    const live = await env.up("SiteSection", { siteId, spaceId: space[0], title: "Preview" }, back.state);
    expect(live.step).toBe("update");
    expect(patches()).toEqual([{ draft: false }]);
    expect(env.emu.store.sections.get(s.id)!.draft).toBe(false);
  });

  it("reads the section back from the site's list", async () => {
    const siteId = await newSite();
    const s = await section(siteId, { title: "Readable", path: "read", default: true });
    const r = await env.refresh("SiteSection", s);
    expect(r!.state).toEqual(s);
    expect(r!.inputs).toEqual({ organizationId: env.org, siteId, spaceId: space[0], title: "Readable", path: "read", default: true });
  });

  it("updates only what changed, and nothing when nothing changed", async () => {
    const siteId = await newSite();
    const program = { siteId, spaceId: space[0], title: "Before", icon: "book", path: "before" };
    const s = await section(siteId, program);
    env.emu.log.reset();
    const same = await env.up("SiteSection", program, s);
    expect(same.step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    const patches = spyBodies("PATCH");
    const r = await env.up("SiteSection", { ...program, icon: "star" }, s);
    expect(r.step).toBe("update");
    expect(patches()).toEqual([{ icon: "star" }]);
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.store.sections.get(s.id)).toMatchObject({ title: "Before", icon: "star", path: "before" });
    expect(r.state.outs).toMatchObject({ icon: "star", siteSpaceId: s.outs.siteSpaceId });
  });

  it("clears removed icon, condition and description with null, and leaves a removed title in place", async () => {
    const siteId = await newSite();
    const s = await section(siteId, { title: "Custom", icon: "book", condition: "visitor.claims.beta", description: "Text", path: "kept" });
    const patches = spyBodies("PATCH");
    const r = await env.up("SiteSection", { siteId, spaceId: space[0], path: "kept" }, s);
    expect(r.step).toBe("update");
    // The API's PATCH takes a title of 2 to 128 characters, never null.
    expect(patches()).toEqual([{ icon: null, condition: null, description: null }]);
    const live = env.emu.store.sections.get(s.id)!;
    expect(live).toMatchObject({ title: "Custom", path: "kept" });
    expect(live).not.toHaveProperty("icon");
    expect(live).not.toHaveProperty("condition");
    expect(live).not.toHaveProperty("description");
    expect(r.state.outs).toEqual({ organizationId: env.org, siteId, spaceId: space[0], path: "kept", siteSpaceId: s.outs.siteSpaceId });
  });

  it("sets, updates and clears the title's translations (localizedTitle) whole, and sees an edit in the app as drift", async () => {
    const siteId = await newSite();
    const patches = spyBodies("PATCH");
    const program = { siteId, spaceId: space[0], title: "Guides", localizedTitle: { fr: "Guides FR", de: "Anleitungen" } };
    const s = await section(siteId, program);
    expect(patches()).toEqual([{ localizedTitle: { fr: "Guides FR", de: "Anleitungen" } }]);
    expect(env.emu.store.sections.get(s.id)!.localizedTitle).toEqual({ fr: "Guides FR", de: "Anleitungen" });
    expect((await env.refresh("SiteSection", s))!.state).toEqual(s);
    // Written whole: a translation dropped from the program is dropped in GitBook.
    const updated = await env.up("SiteSection", { ...program, localizedTitle: { fr: "Guides" } }, s);
    expect(patches().at(-1)).toEqual({ localizedTitle: { fr: "Guides" } });
    expect(env.emu.store.sections.get(s.id)!.localizedTitle).toEqual({ fr: "Guides" });
    // Another translation added in the app is drift; the next up takes it back.
    env.emu.store.sections.get(s.id)!.localizedTitle = { fr: "Guides", es: "Guías" };
    env.outOfBand();
    const drifted = await env.refresh("SiteSection", updated.state);
    expect(drifted!.inputs.localizedTitle).toEqual({ fr: "Guides", es: "Guías" });
    expect((await env.up("SiteSection", { ...program, localizedTitle: { fr: "Guides" } }, drifted!.state)).step).toBe("update");
    expect(env.emu.store.sections.get(s.id)!.localizedTitle).toEqual({ fr: "Guides" });
    // Removed: the PATCH takes no null, and the empty record clears every translation.
    const removed = await env.up("SiteSection", { siteId, spaceId: space[0], title: "Guides" }, updated.state);
    expect(patches().at(-1)).toEqual({ localizedTitle: {} });
    expect(env.emu.store.sections.get(s.id)).not.toHaveProperty("localizedTitle");
    expect(removed.state.outs).not.toHaveProperty("localizedTitle");
  });

  it("makes the section the default with one site PATCH, and leaves the default alone when the flag goes", async () => {
    const siteId = await newSite();
    const first = await section(siteId, { spaceId: space[1] });
    const s = await section(siteId, { title: "Second" });
    expect(env.emu.store.sites.get(siteId)!.defaultSectionId).toBeUndefined();
    const patches = spyBodies("PATCH");
    const r = await env.up("SiteSection", { siteId, spaceId: space[0], title: "Second", default: true }, s);
    expect(patches()).toEqual([{ defaultSiteSection: s.id }]);
    expect(env.emu.store.sites.get(siteId)!.defaultSectionId).toBe(s.id);
    env.emu.log.reset();
    const off = await env.up("SiteSection", { siteId, spaceId: space[0], title: "Second" }, r.state);
    expect(off.step).toBe("update");
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.sites.get(siteId)!.defaultSectionId).toBe(s.id);
    expect(first.id).not.toBe(s.id);
  });

  it("shows drift after refresh and converges it on the next up", async () => {
    const siteId = await newSite();
    const program = { siteId, spaceId: space[0], title: "Drift", path: "drift", condition: "visitor.claims.a" };
    const s = await section(siteId, program);
    const live = env.emu.store.sections.get(s.id)!;
    live.title = "Changed by hand";
    live.path = "hand";
    delete live.condition;
    live.icon = "hand";
    env.outOfBand();
    const refreshed = await env.refresh("SiteSection", s);
    expect(refreshed!.inputs).toMatchObject({ title: "Changed by hand", path: "hand" });
    expect(refreshed!.inputs).not.toHaveProperty("condition");
    // Never declared: not mirrored, so not an input to fight over.
    expect(refreshed!.inputs).not.toHaveProperty("icon");
    const r = await env.up("SiteSection", program, refreshed!.state);
    expect(r.step).toBe("update");
    expect(env.emu.store.sections.get(s.id)).toMatchObject({ title: "Drift", path: "drift", condition: "visitor.claims.a", icon: "hand" });
  });

  it("sees another section made default as drift of a declared default", async () => {
    const siteId = await newSite();
    const s = await section(siteId, { default: true });
    const other = await section(siteId, { spaceId: space[1] });
    env.emu.store.sites.get(siteId)!.defaultSectionId = other.id;
    env.outOfBand();
    const refreshed = await env.refresh("SiteSection", s);
    expect(refreshed!.inputs.default).toBe(false);
    const r = await env.up("SiteSection", { siteId, spaceId: space[0], default: true }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(env.emu.store.sites.get(siteId)!.defaultSectionId).toBe(s.id);
  });

  it("does not report drift for a declared false while the section is the default", async () => {
    const siteId = await newSite();
    const s = await section(siteId, { default: false });
    const refreshed = await env.refresh("SiteSection", s);
    expect(refreshed!.inputs.default).toBe(false);
  });

  it("drops a section deleted outside Pulumi at refresh, and deletes idempotently", async () => {
    const siteId = await newSite();
    const s = await section(siteId);
    env.emu.store.deleteSection(s.id);
    env.outOfBand();
    expect(await env.refresh("SiteSection", s)).toBeUndefined();
    await env.destroy("SiteSection", s);
  });

  it("deletes the section with its site space, and copes with the site being gone", async () => {
    const siteId = await newSite();
    const s = await section(siteId);
    await env.destroy("SiteSection", s);
    expect(env.emu.store.sections.has(s.id)).toBe(false);
    expect(env.emu.store.siteSpaces.has(s.outs.siteSpaceId as string)).toBe(false);
    const t = await section(siteId);
    // forceDestroy: the site goes with the section still in it (else the delete would refuse, see site.test.ts).
    await env.destroy("Site", { id: siteId, outs: { organizationId: env.org, forceDestroy: true } });
    expect(await env.refresh("SiteSection", t)).toBeUndefined();
    await env.destroy("SiteSection", t);
  });

  it("replaces for another space, deleting the old section first so its path is free", async () => {
    const siteId = await newSite();
    const s = await section(siteId, { path: "docs" });
    const r = await env.up("SiteSection", { siteId, spaceId: space[1], path: "docs" }, s);
    expect(r.step).toBe("replace");
    expect(env.emu.store.sections.has(s.id)).toBe(false);
    const sections = env.emu.store.sectionsOf(siteId);
    expect(sections.map((x) => [x.id, x.path, x.spaceId])).toEqual([[r.state.id, "docs", space[1]]]);
  });

  it("adopts an existing section and converges it to the program", async () => {
    const siteId = await newSite();
    const existing = await section(siteId, { title: "Legacy" });
    env.emu.log.reset();
    const r = await env.up("SiteSection", { siteId, spaceId: space[0], title: "Adopted", condition: "visitor.claims.x", adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.count({ method: "POST" })).toBe(0);
    expect(env.emu.store.sections.get(existing.id)).toMatchObject({ title: "Adopted", condition: "visitor.claims.x" });
    expect(r.state.outs).toMatchObject({ adoptId: existing.id, siteSpaceId: existing.outs.siteSpaceId });
  });

  it("refuses to adopt a section created with another space", async () => {
    const siteId = await newSite();
    const existing = await section(siteId);
    await expect(env.up("SiteSection", { siteId, spaceId: space[2], adoptId: existing.id })).rejects.toThrow(/spaceId.*cannot change in place/);
  });

  it("fails clearly when adoptId names nothing", async () => {
    const siteId = await newSite();
    await expect(env.up("SiteSection", { siteId, spaceId: space[0], adoptId: "sitesc_missing" })).rejects.toThrow(
      /adoptId "sitesc_missing" names no existing object/,
    );
  });

  it("recovers from a lost POST answer without creating the section twice", async () => {
    const siteId = await newSite();
    await section(siteId, { spaceId: space[1] });
    env.emu.faults.add({ match: { method: "POST", route: SECTIONS }, dropAfterProcess: true, times: 1 });
    const r = await env.up("SiteSection", { siteId, spaceId: space[2], path: "lost" });
    const mine = env.emu.store.sectionsOf(siteId).filter((x) => x.spaceId === space[2]);
    expect(mine.map((x) => x.id)).toEqual([r.state.id]);
    expect(env.emu.log.count({ method: "POST", route: SECTIONS })).toBeGreaterThanOrEqual(1);
    expect(mine[0]!.path).toBe("lost");
    expect(r.state.outs.siteSpaceId).toBe(env.emu.store.siteSpacesIn(siteId, r.state.id)[0]!.id);
  });

  it("keeps a created section in state when its settings fail to apply", async () => {
    const siteId = await newSite();
    env.emu.faults.add({ match: { method: "PATCH", route: SECTION }, errorRate: 1, status: 500 });
    const program = { siteId, spaceId: space[0], title: "Half done", path: "half" };
    const err = await env.up("SiteSection", program).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure", id: expect.any(String) });
    expect(err.properties).toMatchObject({ title: "Half done", siteSpaceId: expect.any(String) });
    expect(err.properties.path).not.toBe("half");
    expect(env.emu.store.sections.has(err.id)).toBe(true);
    env.emu.faults.clear();
    const next = await env.up("SiteSection", program, { id: err.id, outs: err.properties });
    expect(next.step).toBe("update");
    expect(env.emu.store.sections.get(err.id)!.path).toBe("half");
  });

  it("keeps a created section in state when it cannot be made the default", async () => {
    const siteId = await newSite();
    await section(siteId, { spaceId: space[1] });
    env.emu.faults.add({ match: { method: "PATCH", route: SITE }, errorRate: 1, status: 500 });
    const program = { siteId, spaceId: space[0], default: true };
    const err = await env.up("SiteSection", program).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure" });
    expect(err.properties.default).toBe(false);
    env.emu.faults.clear();
    await env.up("SiteSection", program, { id: err.id, outs: err.properties });
    expect(env.emu.store.sites.get(siteId)!.defaultSectionId).toBe(err.id);
  });

  it("refreshes many sections of a site with one listing", async () => {
    const siteId = await newSite();
    const states = await Promise.all(
      Array.from({ length: 30 }, (_, i) => env.up("SiteSection", { siteId, spaceId: space[i % space.length], title: `Section ${i}` })),
    );
    env.emu.log.reset();
    const refreshed = await Promise.all(states.map((s) => env.refresh("SiteSection", s.state)));
    expect(refreshed.map((r) => r?.inputs.title)).toEqual(states.map((s) => s.state.outs.title));
    expect(env.emu.log.count({ method: "GET", route: SECTIONS })).toBe(1);
    expect(env.emu.log.count()).toBe(1);
  });
});

describe("resource class", () => {
  it("registers gitbook:SiteSection with the declared inputs, what check fills in and every output key", () => {
    pulumi.runtime.setMocks({ newResource: (a) => ({ id: "id", state: a.inputs }), call: () => ({}) });
    const runtime = createRequire(__filename)("@pulumi/pulumi/runtime/resource");
    const spy = vi.spyOn(runtime, "registerResource").mockImplementation(() => undefined);
    new SiteSection("s", { siteId: "site_1", spaceId: "spc_1" });
    const [, , type, , , , , props] = spy.mock.calls.at(-1)!;
    expect(type).toBe("pulumi-nodejs:dynamic/gitbook:SiteSection");
    for (const k of ["organizationId", "siteId", "spaceId", "siteSpaceId"]) expect(props).toHaveProperty(k);
    // Undeclared inputs are not registered (each registered property costs the SDK's promise wrapping).
    for (const k of ["condition", "description", "adoptId"]) expect(props).not.toHaveProperty(k);
  });
});

describe("groupId", () => {
  const groupOf = (id: string) => env.emu.store.groupOfSection(env.emu.store.sections.get(id)!)?.id;
  async function group(siteId: string, title = "Products"): Promise<string> {
    return (await env.up("SiteSectionGroup", { siteId, title })).state.id;
  }

  it("creates the section in its group with the one POST, last there", async () => {
    const siteId = await newSite();
    const g = await group(siteId);
    const first = await section(siteId, { groupId: g });
    env.emu.log.reset();
    const posts = spyBodies("POST");
    const s = await section(siteId, { spaceId: space[1], groupId: g });
    expect(posts()).toEqual([{ spaceId: space[1], siteSectionGroupId: g }]);
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.store.childrenOf(siteId, g).map((n) => n.record.id)).toEqual([first.id, s.id]);
    expect(s.outs.groupId).toBe(g);
  });

  it("moves the section in place with one PATCH, and back to the top level when removed", async () => {
    const siteId = await newSite();
    const [g, h] = [await group(siteId, "G"), await group(siteId, "H")];
    const s = await section(siteId, { groupId: g });
    const patches = spyBodies("PATCH");
    const moved = await env.up("SiteSection", { siteId, spaceId: space[0], groupId: h }, s);
    expect(moved.step).toBe("update");
    expect(moved.state.id).toBe(s.id);
    expect(groupOf(s.id)).toBe(h);
    const back = await env.up("SiteSection", { siteId, spaceId: space[0] }, moved.state);
    expect(patches()).toEqual([{ siteSectionGroupId: h }, { siteSectionGroupId: null }]);
    expect(groupOf(s.id)).toBeUndefined();
    expect(back.state.outs).not.toHaveProperty("groupId");
  });

  it("shows the section moved to another group outside Pulumi as drift, and moves it back", async () => {
    const siteId = await newSite();
    const [g, h] = [await group(siteId, "G"), await group(siteId, "H")];
    const s = await section(siteId, { groupId: g });
    env.emu.store.setSectionGroup(env.emu.store.sections.get(s.id)!, h);
    env.outOfBand();
    const refreshed = await env.refresh("SiteSection", s);
    expect(refreshed!.inputs.groupId).toBe(h);
    await env.up("SiteSection", { siteId, spaceId: space[0], groupId: g }, refreshed!.state);
    expect(groupOf(s.id)).toBe(g);
  });

  it("leaves the section's group alone when the program does not declare it (the group's sections manage it)", async () => {
    const siteId = await newSite();
    const s = await section(siteId);
    const g = (await env.up("SiteSectionGroup", { siteId, title: "G", sections: [s.id] })).state.id;
    const r = await env.refresh("SiteSection", s);
    expect(r!.inputs).not.toHaveProperty("groupId");
    env.emu.log.reset();
    expect((await env.up("SiteSection", { siteId, spaceId: space[0] }, r!.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    expect(groupOf(s.id)).toBe(g);
  });
});
