/**
 * Deletes that GitBook carries out on other objects too (issue 19, parts 1 and 5), in process: what
 * the provider alone decides. A Collection, a Space, a Site or a SiteSection whose delete would take
 * along objects the stack does not delete first (made in the app, or resources of this program that
 * name it by a fixed ID) fails before any DELETE, naming each by kind, title and ID, from what GitBook
 * says at the delete: each refusal is tried twice, each run with the clients a new provider process
 * would have. `forceDestroy`, recorded by an up that sends nothing for it, lets the delete take them
 * along, and a refresh sees no drift in it.
 *
 * What the engine decides stays with test/lifecycle/cascade.test.ts: dependents that follow a section
 * by its `id` output deleted (or replaced, or moved) before it, and the refusals as the CLI renders them.
 *
 * Every case is independent, so all live in one program, each on its own objects (its own site), and
 * each step is one run for all of them: the refused deletes are asked for together (continuing on
 * error, so that each is attempted whatever the others do), and each case is checked against the
 * DELETEs that touched its own objects, so that removing one guard fails its case alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Decl } from "../support/lifecycle";
import { programSuite, RunFailed, stepNames, type ProgramStep } from "../support/program";
import { isOrgQuestion } from "../support/provider";
import { api, cascadeRefusal, ref } from "../support/scenarios";

type Report = { steps: ProgramStep[]; error?: string };
const refusal = cascadeRefusal;

/** What the program declares at a step. */
interface Step {
  /** The containers: first deployed, held (guide included), removed (all but guide), forced (forceDestroy set), gone (the pair that names by a fixed ID left). */
  containers: "first" | "held" | "removed" | "forced" | "gone";
  /** Site x, whose section A is replaced: its fixed site space absent, by a fixed ID, or (once forced) by section A's `id`. */
  x: { spaceOfA: number; fixed?: "literal" | "ref" };
  /** Site y, whose section A is removed: declared, forced, or gone (its fixed site space stays declared). */
  y: { a: "declared" | "forced" | "gone"; fixed: boolean };
  /** The site holding a section made in the app: declared, forced, or gone. */
  app: "declared" | "forced" | "gone";
}

describe("deletes that would take along what the stack does not delete first, each case on its own objects in one program", () => {
  const s = programSuite();
  const env = () => s.env;
  const store = () => s.env.emu.store;
  const ids = {} as Record<"app" | "appSpace" | "fixed" | "guide" | "handbook" | "shown" | "appSite" | "appSection" | "appLink" | "xA" | "xFixed" | "yA" | "yFixed", string>;
  const spaces = () => s.env.emu.seeded.spaceIds;

  function sections(p: string, o: { spaceOfA?: number; withA?: boolean; forceA?: boolean; fixed?: "literal" | "ref"; follower?: boolean }): Decl[] {
    const { spaceOfA = 0, withA = true, forceA = false, fixed, follower } = o;
    const site = ref(`${p}-site.id`);
    const decls: Decl[] = [{ kind: "Site", name: `${p}-site`, args: { title: `Cascade Docs ${p}` } }];
    if (withA) decls.push({ kind: "SiteSection", name: `${p}-sectionA`, args: { siteId: site, spaceId: spaces()[spaceOfA], title: "Section A", default: true, ...(forceA ? { forceDestroy: true } : {}) } });
    decls.push({ kind: "SiteSection", name: `${p}-sectionB`, args: { siteId: site, spaceId: spaces()[1], title: "Section B" } });
    if (follower) decls.push({ kind: "SiteSpace", name: `${p}-follower`, args: { siteId: site, sectionId: ref(`${p}-sectionA.id`), spaceId: spaces()[2], path: "v2" } });
    if (fixed) {
      const sectionA = p === "x" ? ids.xA : ids.yA;
      decls.push({ kind: "SiteSpace", name: `${p}-fixed`, args: { siteId: site, sectionId: fixed === "ref" ? ref(`${p}-sectionA.id`) : sectionA, spaceId: spaces()[3], path: "v3" } });
    }
    return decls;
  }

  function program(o: Step): Decl[] {
    const decls: Decl[] = [];
    const c = o.containers;
    const forced = c === "forced" ? { forceDestroy: true } : {};
    if (c !== "removed" && c !== "gone") decls.push({ kind: "Collection", name: "archive", args: { title: "Archive", ...forced } });
    if (c !== "removed") decls.push({ kind: "Collection", name: "archive2", args: { title: "Shelf" } });
    if (c !== "first") decls.push({ kind: "Space", name: "guide", args: { title: "Guide", parent: ids.fixed } });
    if (c !== "removed" && c !== "gone") decls.push({ kind: "Space", name: "handbook", args: { title: "Handbook", ...forced } });
    decls.push(...sections("x", { spaceOfA: o.x.spaceOfA, fixed: o.x.fixed }));
    decls.push(...sections("y", { withA: o.y.a !== "gone", forceA: o.y.a === "forced", fixed: o.y.fixed ? "literal" : undefined }));
    if (o.app !== "gone") decls.push({ kind: "Site", name: "app-site", args: { title: "App Docs", ...(o.app === "forced" ? { forceDestroy: true } : {}) } });
    decls.push(...sections("z1", { follower: true }));
    return decls;
  }

  const FIRST: Step = { containers: "first", x: { spaceOfA: 0 }, y: { a: "declared", fixed: false }, app: "declared" };
  const HELD: Step = { ...FIRST, containers: "held", x: { spaceOfA: 0, fixed: "literal" }, y: { a: "declared", fixed: true } };
  /** The refused deletes asked for at once: the containers removed, y's section A removed. */
  const REFUSED: Step = { ...HELD, containers: "removed", y: { a: "gone", fixed: true } };
  /** x's section A replaced (delete-first) while its fixed site space is in it. */
  const REPLACED: Step = { ...HELD, x: { spaceOfA: 5, fixed: "literal" } };
  /** forceDestroy recorded; x's fixed site space now named by section A's `id` output. */
  const FORCED: Step = { ...HELD, containers: "forced", x: { spaceOfA: 0, fixed: "ref" }, y: { a: "forced", fixed: true }, app: "forced" };
  const FINAL: Step = { containers: "gone", x: { spaceOfA: 0, fixed: "ref" }, y: { a: "gone", fixed: true }, app: "gone" };

  const attempts: Array<{ op: string; r: Report; deleted: string[]; names: string[]; idOf: Record<string, string | undefined>; untrue: string[] }> = [];
  const attemptsOf = (op: string) => attempts.filter((a) => a.op === op);
  let held: Report;
  let heldRequests: Array<{ method: string; path: string }>;
  let forced: Report;
  let forcedRequests: Array<{ method: string; path: string }>;
  let refreshed: ProgramStep[];
  let forceRecorded: Record<string, unknown>;
  let forceAfterRefresh: Record<string, unknown>;
  let final: Report;
  const untrueAfter: { forced?: string[]; final?: string[] } = {};

  /** The SiteSections and SiteSpaces state lists that GitBook does not hold (a site space: in the section state says). */
  function stateUntrue(): string[] {
    return s.p
      .names()
      .map((name) => ({ name, ...s.p.resource(name) }))
      .filter((r) => (r.name.includes("-section") && !store().sections.has(r.id)) || ((r.name.endsWith("-fixed") || r.name.endsWith("-follower")) && store().siteSpaces.get(r.id)?.sectionId !== r.outputs.parentSectionId))
      .map((r) => `${r.name} in state but deleted`);
  }

  const run = async (f: () => Promise<ProgramStep[]>): Promise<Report> => {
    try {
      return { steps: await f() };
    } catch (e) {
      return { steps: e instanceof RunFailed ? e.steps : [], error: (e as Error).message };
    }
  };

  const attempt = async (op: "up" | "replace" | "destroy", f: () => Promise<ProgramStep[]>) => {
    env().emu.log.reset();
    const r = await run(f);
    const idOf = Object.fromEntries(s.p.names().map((n) => [n, s.p.resource(n).id]));
    const deleted = env().emu.log.entries.filter((e) => e.method === "DELETE").map((e) => e.path);
    attempts.push({ op, r, deleted, names: s.p.names(), idOf, untrue: stateUntrue() });
  };

  /** A targeted destroy of whichever of `names` is still in state, continuing on error: the errors by name. */
  const destroyTargets = async (names: string[]): Promise<ProgramStep[]> => {
    env().outOfBand();
    const errors = new Map<string, string>();
    for (const name of names.filter((n) => s.p.names().includes(n))) {
      const r = s.p.resource(name);
      await env()
        .destroy(name === "app-site" ? "Site" : "SiteSection", { id: r.id, outs: r.outputs })
        .catch((e: Error) => errors.set(name, e.message));
    }
    if (errors.size) throw new RunFailed(errors, []);
    return [];
  };

  beforeAll(async () => {
    const org = env().emu.seeded.organizationId;
    await s.p.up(program(FIRST));
    Object.assign(ids, { app: s.p.resource("archive").id, fixed: s.p.resource("archive2").id, handbook: s.p.resource("handbook").id, xA: s.p.resource("x-sectionA").id, yA: s.p.resource("y-sectionA").id, appSite: s.p.resource("app-site").id });
    // Made in the app: a space in the first collection; another team's site showing the handbook (GitBook
    // would take that site space off its site with the space); a section and a share link on the app site.
    ids.appSpace = (await api(env().emu, "POST", `/orgs/${org}/spaces`, { title: "Team notes", parent: ids.app })).id as string;
    const partner = (await api(env().emu, "POST", `/orgs/${org}/sites`, { title: "Partner Docs" })).id as string;
    const shown = await api(env().emu, "POST", `/orgs/${org}/sites/${partner}/sections`, { spaceId: ids.handbook, title: "Handbook" });
    ids.shown = (shown.siteSpaces as Array<{ id: string }>)[0]!.id;
    ids.appSection = (await api(env().emu, "POST", `/orgs/${org}/sites/${ids.appSite}/sections`, { spaceId: spaces()[0], title: "Written in the app" })).id as string;
    ids.appLink = (await api(env().emu, "POST", `/orgs/${org}/sites/${ids.appSite}/share-links`, { name: "Partner" })).id as string;
    // What an earlier version recorded for a SiteSpace placed in the default section implicitly (the
    // program's state, edited as `pulumi stack import` would).
    const follower = s.p.resource("z1-follower");
    delete follower.inputs.sectionId;
    delete follower.outputs.sectionId;

    env().emu.log.reset();
    held = await run(() => s.p.up(program(HELD)));
    heldRequests = env().emu.log.entries.map((e) => ({ method: e.method, path: e.path }));
    ids.guide = s.p.resource("guide").id;
    ids.xFixed = s.p.resource("x-fixed").id;
    ids.yFixed = s.p.resource("y-fixed").id;

    for (let i = 0; i < 2; i++) await attempt("up", () => s.p.up(program(REFUSED), { continueOnError: true }));
    for (let i = 0; i < 2; i++) await attempt("replace", () => s.p.up(program(REPLACED)));
    for (let i = 0; i < 2; i++) await attempt("destroy", () => destroyTargets(["y-sectionA", "app-site"]));
  }, 120_000);

  it("a site space recorded before sectionId was required takes the section it is in, once declared, as no change", () => {
    expect(held.error).toBeUndefined();
    expect(stepNames(held.steps).filter((x) => x.includes("z1-") && !x.startsWith("same"))).toEqual([]);
    const z1 = s.p.resource("z1-site").id;
    expect(heldRequests.filter((e) => e.method !== "GET" && e.path.split("/").includes(z1))).toEqual([]);
  });

  it("every refused delete fails its run, each attempt with a new provider process's clients", () => {
    expect(attempts.map((a) => a.op)).toEqual(["up", "up", "replace", "replace", "destroy", "destroy"]);
    for (const a of attempts) expect(a.r.error).toBeDefined();
  });

  describe("containers", () => {
    const expectRefused = (kind: string, id: string, heldObject: [string, string, string], also: (a: (typeof attempts)[number]) => void) =>
      attemptsOf("up").forEach((a, i) => {
        expect(a.r.error, `attempt ${i + 1}`).toMatch(refusal(kind, id, [heldObject]));
        expect(a.deleted.filter((p) => p.includes(id) || p.includes(heldObject[2])), `attempt ${i + 1}`).toEqual([]);
        also(a);
      });

    it("a Collection holding a space made in the app fails before any DELETE naming the space", () => {
      expectRefused("Collection", ids.app, ["Space", "Team notes", ids.appSpace], (a) => expect(a.names).toContain("archive"));
      expect(store().spaces.get(ids.appSpace)!.deletedAt).toBeUndefined();
      expect(store().spaces.get(ids.appSpace)!.parentId).toBe(ids.app);
    });

    it("a Collection holding a declared Space whose parent is a fixed ID fails before any DELETE naming the space; state and GitBook still agree", () => {
      expectRefused("Collection", ids.fixed, ["Space", "Guide", ids.guide], (a) => expect([a.idOf.archive2, a.idOf.guide]).toEqual([ids.fixed, ids.guide]));
      expect(store().spaces.get(ids.guide)).toMatchObject({ parentId: ids.fixed });
      expect(store().spaces.get(ids.guide)!.deletedAt).toBeUndefined();
    });

    it("a Space shown on a site made in the app fails before any DELETE naming the site space it would take off the site", () => {
      expectRefused("Space", ids.handbook, ["SiteSpace", "Partner Docs / Handbook", ids.shown], (a) => expect(a.names).toContain("handbook"));
      expect(store().spaces.get(ids.handbook)!.deletedAt).toBeUndefined();
      expect(store().siteSpaces.has(ids.shown)).toBe(true);
    });
  });

  describe("a SiteSection holding a SiteSpace that names it by a fixed ID", () => {
    const titleOf = (siteSpace: string) => store().spaces.get(store().siteSpaces.get(siteSpace)!.spaceId)!.title;
    const expectRefusedUntouched = (which: typeof attempts, section: string, fixed: string, p: string) => {
      expect(which.length).toBe(2);
      which.forEach((a, i) => {
        const label = `${a.op}, attempt ${i + 1}`;
        expect(a.r.error, label).toMatch(refusal("SiteSection", section, [["SiteSpace", titleOf(fixed), fixed]]));
        expect(a.r.error, label).toMatch(new RegExp(`SiteSection \\S+: deleting it \\(${section}\\) would also delete .*\\(${fixed}\\).*name this SiteSection by its id output`));
        expect(a.deleted.filter((x) => x.includes(section) || x.includes(fixed)), label).toEqual([]);
        expect([a.idOf[`${p}-sectionA`], a.idOf[`${p}-fixed`]], label).toEqual([section, fixed]);
        expect(a.untrue.filter((x) => x.startsWith(`${p}-`)), label).toEqual([]);
      });
      expect(store().sections.has(section)).toBe(true);
      expect(store().siteSpaces.get(fixed)).toMatchObject({ sectionId: section, path: "v3" });
    };

    it("refuses the section's replacement (delete-first) before deleting anything, every time", () => {
      expectRefusedUntouched(attemptsOf("replace"), ids.xA, ids.xFixed, "x");
    });

    it("refuses the section's removal, by up or by a targeted destroy, every time", () => {
      expectRefusedUntouched(attemptsOf("up"), ids.yA, ids.yFixed, "y");
      expectRefusedUntouched(attemptsOf("destroy"), ids.yA, ids.yFixed, "y");
    });
  });

  it("a Site holding a section made in the app fails a targeted destroy before any DELETE, naming the section and the share link", () => {
    const destroys = attemptsOf("destroy");
    expect(destroys.length).toBe(2);
    destroys.forEach((a, i) => {
      expect(a.r.error, `attempt ${i + 1}`).toMatch(
        refusal("Site", ids.appSite, [
          ["SiteSection", "Written in the app", ids.appSection],
          ["ShareLink", "Partner", ids.appLink],
        ]),
      );
      expect(a.deleted.filter((p) => [ids.appSite, ids.appSection, ids.appLink].some((x) => p.includes(x))), `attempt ${i + 1}`).toEqual([]);
      expect(a.idOf["app-site"]).toBe(ids.appSite);
    });
    expect(store().sites.has(ids.appSite)).toBe(true);
    expect(store().sections.has(ids.appSection)).toBe(true);
  });

  describe("once forceDestroy is recorded", () => {
    beforeAll(async () => {
      // After the refusals' checks: the held program again (the refused replacement left it), then forceDestroy recorded.
      await s.p.up(program(HELD));
      env().emu.log.reset();
      forced = await run(() => s.p.up(program(FORCED)));
      forcedRequests = env().emu.log.entries.filter((e) => !isOrgQuestion(e)).map((e) => ({ method: e.method, path: e.path }));
      untrueAfter.forced = stateUntrue();
      forceRecorded = Object.fromEntries(["archive", "app-site"].map((n) => [n, s.p.resource(n).outputs.forceDestroy]));
      refreshed = await s.p.refresh();
      forceAfterRefresh = Object.fromEntries(["archive", "handbook", "y-sectionA", "app-site"].map((n) => [n, s.p.resource(n).outputs.forceDestroy]));
      final = await run(() => s.p.up(program(FINAL)));
      untrueAfter.final = stateUntrue();
    }, 120_000);

    it("the up that records it sends nothing for it; a fixed site space then named by the section's `id` output is no change", () => {
      expect(forced.error).toBeUndefined();
      expect(
        stepNames(forced.steps)
          .filter((x) => !x.startsWith("same"))
          .sort(),
      ).toEqual(["update app-site", "update archive", "update handbook", "update y-sectionA"]);
      expect(stepNames(forced.steps)).toEqual(expect.arrayContaining(["same x-sectionA", "same x-fixed", "same archive2", "same guide"]));
      expect(forcedRequests).toEqual([]);
      expect(forceRecorded).toEqual({ archive: true, "app-site": true });
      expect(untrueAfter.forced).toEqual([]);
    });

    it("refresh sees no drift in forceDestroy", () => {
      // Sections and site spaces are as state says. (The Sites' counters are another matter.)
      expect(refreshed.filter((x) => x.op !== "same" && !x.name.endsWith("site")).map((x) => x.name)).toEqual([]);
      for (const x of refreshed) expect(x.changed ?? [], x.name).not.toContain("forceDestroy");
      expect(forceAfterRefresh).toEqual({ archive: true, handbook: true, "y-sectionA": true, "app-site": true });
    });

    it("the containers' deletes take along what they hold", () => {
      expect(final.error).toBeUndefined();
      expect(store().spaces.get(ids.appSpace)!.deletedAt).toBeTruthy();
      expect(store().spaces.get(ids.handbook)!.deletedAt).toBeTruthy();
      expect(store().siteSpaces.has(ids.shown)).toBe(false);
      expect(s.p.names().filter((x) => ["archive", "archive2", "guide", "handbook"].includes(x)).sort()).toEqual(["archive2", "guide"]);
    });

    it("the section goes with the site space that names it by a fixed ID (state lists it until a refresh drops it)", async () => {
      expect(store().sections.has(ids.yA)).toBe(false);
      expect(store().siteSpaces.has(ids.yFixed)).toBe(false);
      expect(untrueAfter.final).toEqual(["y-fixed in state but deleted"]);
      expect((await s.p.refresh()).find((x) => x.name === "y-fixed")?.op).toBe("read-gone");
      expect(stateUntrue()).toEqual([]);
    });

    it("the site goes with the section and the share link made in the app", () => {
      expect(store().sites.has(ids.appSite)).toBe(false);
      expect(store().sections.has(ids.appSection)).toBe(false);
      expect(store().shareLinks.has(ids.appLink)).toBe(false);
    });
  });
});
