/**
 * Deletes that GitBook carries out on other objects too (issue 19, parts 1 and 5), through the real
 * CLI. A Collection, a Space, a Site or a SiteSection whose delete would take along objects this stack
 * does not delete first (made in the app, or resources of this program that name it by a fixed ID)
 * fails before any DELETE, naming each by kind, title and ID, whichever process serves the call (each
 * refusal is tried twice, each attempt a new provider process); `forceDestroy`, recorded by an `up` (no
 * request), lets the delete take them along.
 *
 * Deleting a section deletes every site space in it, so no run may end in success while state still
 * lists a site space the run itself caused the API to delete: a SiteSpace names its section (sectionId is
 * required, checked in process in provider/resources/siteSpace.test.ts), through the SiteSection's `id`
 * output so that the engine replaces or removes it with the section; one that does not follow its
 * section (a fixed ID) makes the section's delete fail, before anything is deleted, from what GitBook
 * says the section holds (never from what one provider process saw earlier in the run).
 *
 * Every case is independent, so all live in one stack, each on its own objects (its own site), and each
 * step is one `pulumi` run for all of them: the refused deletes are asked for together (with
 * `--continue-on-error`, so that each is attempted whatever the others do), and each case is checked
 * against the DELETEs that touched its own objects, so that removing one guard fails its case alone.
 * Twelve engine runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { api, ref } from "../support/scenarios";
import { isOrgQuestion } from "../support/provider";

type Report = Awaited<ReturnType<Deployment["run"]>>;
const org = (d: Deployment) => d.emu.seeded.organizationId;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The refusal, naming the resource (by the program's name once state records it, else its ID), its object and each thing it holds. */
const refusal = (kind: string, id: string, held: [string, string, string][]) =>
  new RegExp(
    `${kind} \\S+: deleting it \\(${esc(id)}\\) would also delete what it still holds.*` +
      held.map(([k, title, hid]) => esc(`${k} ${JSON.stringify(title)} (${hid})`)).join(".*") +
      `.*Nothing was deleted.*set forceDestroy: true on this ${kind}`,
    "s",
  );

/** What each case declares at a step. */
interface Step {
  /** The containers: held (as first deployed, guide included once `guide`), removed (all but guide), forced (forceDestroy set), gone (the pair that names by a fixed ID left). */
  containers: "first" | "held" | "removed" | "forced" | "gone";
  /** Site x, whose section A is replaced: the fixed site space absent, by a fixed ID (after section A: `dependsOn`), or following section A's `id`. */
  x: { spaceOfA: number; fixed?: "literal" | "after" | "ref" };
  /** Site y, whose section A is removed: declared, forced, or gone (its fixed site space stays declared). */
  y: { a: "declared" | "forced" | "gone"; fixed: boolean };
  /** The site holding a section made in the app: declared, forced, or gone. */
  app: "declared" | "forced" | "gone";
  /** Sites z1 (section A replaced), z2 (section A removed, its follower moved to B), z3 (section A removed with its follower). */
  z1: { spaceOfA: number };
  z23: "first" | "after";
}

describeDeployments("deletes that would take along what the stack does not delete first, each case on its own objects in one stack", () => {
  let d: Deployment;
  const ids = {} as {
    app: string;
    appSpace: string;
    fixed: string;
    guide: string;
    handbook: string;
    shown: string;
    appSite: string;
    appSection: string;
    appLink: string;
    xA: string;
    xFixed: string;
    yA: string;
    yFixed: string;
  };
  const s = () => d.emu.seeded.spaceIds;

  function sections(p: string, o: { spaceOfA?: number; withA?: boolean; forceA?: boolean; fixed?: "literal" | "after" | "ref"; follower?: "A" | "B" | "gone" }): Decl[] {
    const { spaceOfA = 0, withA = true, forceA = false, fixed, follower } = o;
    const decls: Decl[] = [{ kind: "Site", name: `${p}-site`, args: { title: `Cascade Docs ${p}` } }];
    const site = ref(`${p}-site.id`);
    if (withA) {
      decls.push({ kind: "SiteSection", name: `${p}-sectionA`, args: { siteId: site, spaceId: s()[spaceOfA], title: "Section A", default: true, ...(forceA ? { forceDestroy: true } : {}) } });
    }
    decls.push({ kind: "SiteSection", name: `${p}-sectionB`, args: { siteId: site, spaceId: s()[1], title: "Section B" } });
    if (follower && follower !== "gone") {
      decls.push({ kind: "SiteSpace", name: `${p}-follower`, args: { siteId: site, sectionId: ref(`${p}-section${follower}.id`), spaceId: s()[2], path: "v2" } });
    }
    if (fixed) {
      const sectionA = p === "x" ? ids.xA : ids.yA;
      decls.push({
        kind: "SiteSpace",
        name: `${p}-fixed`,
        args: { siteId: site, sectionId: fixed === "ref" ? ref(`${p}-sectionA.id`) : sectionA, spaceId: s()[3], path: "v3" },
        // After section A: the engine reaches this SiteSpace only after the section's steps, so nothing
        // the provider process saw of it can help the section's delete decide.
        ...(fixed === "after" ? { dependsOn: [`${p}-sectionA`] } : {}),
      });
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
    decls.push(...sections("z1", { spaceOfA: o.z1.spaceOfA, follower: "A" }));
    decls.push(...sections("z2", { withA: o.z23 === "first", follower: o.z23 === "first" ? "A" : "B" }));
    decls.push(...sections("z3", { withA: o.z23 === "first", follower: o.z23 === "first" ? "A" : "gone" }));
    return decls;
  }

  const FIRST: Step = { containers: "first", x: { spaceOfA: 0 }, y: { a: "declared", fixed: false }, app: "declared", z1: { spaceOfA: 0 }, z23: "first" };
  const HELD: Step = { ...FIRST, containers: "held", x: { spaceOfA: 0, fixed: "literal" }, y: { a: "declared", fixed: true } };
  /** The refused deletes asked for at once by up: the containers removed, y's section A removed. */
  const REFUSED: Step = { ...HELD, containers: "removed", y: { a: "gone", fixed: true } };
  /**
   * x's section A replaced, its fixed site space reached after it. On its own: under
   * `--continue-on-error`, the program never finishes once the replacement of a resource another
   * depends on (`dependsOn`) has failed (seen on 3.248), and without it a run stops at its first error.
   */
  const REPLACED: Step = { ...HELD, x: { spaceOfA: 5, fixed: "after" } };
  /** forceDestroy recorded; x's fixed site space named by section A's `id`; z1's section A replaced with its follower. */
  const FORCED: Step = { ...HELD, containers: "forced", x: { spaceOfA: 0, fixed: "ref" }, y: { a: "forced", fixed: true }, app: "forced", z1: { spaceOfA: 5 } };
  const FINAL: Step = { containers: "gone", x: { spaceOfA: 5, fixed: "ref" }, y: { a: "gone", fixed: true }, app: "gone", z1: { spaceOfA: 5 }, z23: "after" };

  /** What each refused attempt saw, for each case to check its own part of. */
  const attempts: Array<{ op: string; r: Report; deleted: string[]; names: string[]; idOf: Record<string, string | undefined>; untrue: string[] }> = [];
  const attemptsOf = (op: string) => attempts.filter((a) => a.op === op);
  let forced: Report;
  let refreshed: Report;
  let final: Report;
  let finalRefresh: Report;
  let forceAfterRefresh: Record<string, unknown>;
  /** What state listed that GitBook no longer held, after the forced and the final up. */
  const untrueAfter: { forced?: string[]; final?: string[] } = {};
  let z1Before: { section: string; follower: string };
  let finalRequests: Array<{ method: string; path: string }>;
  let forcedRequests: Array<{ method: string; path: string }>;
  /** The Z sites' IDs, to tell their requests apart. */
  const siteOf = (p: string) => d.resource(`${p}-site`).id!;

  /** The SiteSections and SiteSpaces state lists that GitBook does not hold (a site space: in the section state says). */
  function stateUntrue(): string[] {
    const st = d.emu.store;
    // A resource deleted by a delete-before-replace that the failed run did not finish stays in state
    // marked pendingReplacement: state says it is gone, and the next up creates it.
    return d
      .state()
      .resources.filter((x) => !x.pendingReplacement)
      .filter((r) => (r.type.endsWith(":SiteSection") && !st.sections.has(r.id!)) || (r.type.endsWith(":SiteSpace") && st.siteSpaces.get(r.id!)?.sectionId !== r.outputs.parentSectionId))
      .map((r) => `${r.name} in state but deleted`);
  }

  const attempt = async (op: "up" | "replace" | "destroy", ...args: Parameters<Deployment["run"]>) => {
    d.emu.log.reset();
    const r = await d.run(...args);
    const names = d.state().resources.map((x) => x.name);
    const idOf = Object.fromEntries(d.state().resources.map((x) => [x.name, x.id]));
    const deleted = d.emu.log.entries.filter((e) => e.method === "DELETE").map((e) => e.path);
    // Checked by each case on its own objects, so that one defect fails its case alone.
    attempts.push({ op, r, deleted, names, idOf, untrue: stateUntrue() });
  };

  beforeAll(async () => {
    d = await startDeployment();
    expect((await d.run("up", program(FIRST))).error).toBeUndefined();
    Object.assign(ids, { app: d.resource("archive").id!, fixed: d.resource("archive2").id!, handbook: d.resource("handbook").id!, xA: d.resource("x-sectionA").id!, yA: d.resource("y-sectionA").id! });
    ids.appSite = d.resource("app-site").id!;
    // Made in the app: a space in the first collection; another team's site showing the handbook (GitBook
    // would take that site space off its site with the space); a section and a share link on the app site.
    ids.appSpace = (await api(d.emu, "POST", `/orgs/${org(d)}/spaces`, { title: "Team notes", parent: ids.app })).id as string;
    const partner = (await api(d.emu, "POST", `/orgs/${org(d)}/sites`, { title: "Partner Docs" })).id as string;
    const shown = await api(d.emu, "POST", `/orgs/${org(d)}/sites/${partner}/sections`, { spaceId: ids.handbook, title: "Handbook" });
    ids.shown = (shown.siteSpaces as Array<{ id: string }>)[0]!.id;
    ids.appSection = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${ids.appSite}/sections`, { spaceId: s()[0], title: "Written in the app" })).id as string;
    ids.appLink = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${ids.appSite}/share-links`, { name: "Partner" })).id as string;
    // What an earlier version recorded for a SiteSpace placed in the default section implicitly.
    await d.editState((resources) => {
      const follower = resources.find((r) => r.name === "z1-follower")!;
      delete follower.inputs.sectionId;
      delete follower.outputs.sectionId;
    });
  }, 400_000);
  afterAll(async () => d?.close());

  it("deploys what the refused deletes need; a site space recorded before sectionId was required takes the section it is in, once declared, as no change", async () => {
    d.emu.log.reset();
    const r = await d.run("up", program(HELD));
    expect(r.error).toBeUndefined();
    ids.guide = d.resource("guide").id!;
    ids.xFixed = d.resource("x-fixed").id!;
    ids.yFixed = d.resource("y-fixed").id!;
    expect(steps(r).filter((x) => x.includes("z1-") && !x.startsWith("same"))).toEqual([]);
    const z1 = siteOf("z1");
    expect(d.emu.log.entries.filter((e) => e.method !== "GET" && e.path.split("/").includes(z1))).toEqual([]);
  }, 400_000);

  it("asks for every refused delete twice by up (a replacement and the rest) and twice by a targeted destroy, each a new provider process", async () => {
    for (let i = 0; i < 2; i++) await attempt("up", "up", program(REFUSED), { flags: ["--continue-on-error"] });
    for (let i = 0; i < 2; i++) await attempt("replace", "up", program(REPLACED));
    for (let i = 0; i < 2; i++) {
      // Whichever is still in state: a missing guard must fail its own case, not the other's.
      const targets = d
        .state()
        .resources.filter((x) => ["y-sectionA", "app-site"].includes(x.name))
        .flatMap((x) => ["--target", x.urn]);
      await attempt("destroy", "destroy", undefined, { flags: [...targets, "--continue-on-error"] });
    }
    for (const a of attempts) expect(a.r.error).toBeDefined();
  }, 600_000);

  describe("containers", () => {
    /**
     * Every up attempt refused the delete of `kind` `id`, naming what it holds, and no DELETE of the attempt
     * touched it or what it holds (the other cases' DELETEs are theirs to check); `also` checks the rest.
     */
    const expectRefused = (kind: string, id: string, held: [string, string, string], also: (a: (typeof attempts)[number]) => void) =>
      attemptsOf("up").forEach((a, i) => {
        expect(a.r.error, `attempt ${i + 1}`).toMatch(refusal(kind, id, [held]));
        expect(a.deleted.filter((p) => p.includes(id) || p.includes(held[2])), `attempt ${i + 1}`).toEqual([]);
        also(a);
      });

    it("a Collection holding a space made in the app fails before any DELETE naming the space", () => {
      expectRefused("Collection", ids.app, ["Space", "Team notes", ids.appSpace], (a) => expect(a.names).toContain("archive"));
      expect(d.emu.store.spaces.get(ids.appSpace)!.deletedAt).toBeUndefined();
      expect(d.emu.store.spaces.get(ids.appSpace)!.parentId).toBe(ids.app);
    });

    it("a Collection holding a declared Space whose parent is a fixed ID fails before any DELETE naming the space; state and GitBook still agree", () => {
      expectRefused("Collection", ids.fixed, ["Space", "Guide", ids.guide], (a) => expect([a.idOf.archive2, a.idOf.guide]).toEqual([ids.fixed, ids.guide]));
      expect(d.emu.store.spaces.get(ids.guide)).toMatchObject({ parentId: ids.fixed });
      expect(d.emu.store.spaces.get(ids.guide)!.deletedAt).toBeUndefined();
    });

    it("a Space shown on a site made in the app fails before any DELETE naming the site space it would take off the site", () => {
      expectRefused("Space", ids.handbook, ["SiteSpace", "Partner Docs / Handbook", ids.shown], (a) => expect(a.names).toContain("handbook"));
      expect(d.emu.store.spaces.get(ids.handbook)!.deletedAt).toBeUndefined();
      expect(d.emu.store.siteSpaces.has(ids.shown)).toBe(true);
    });
  });

  describe("a SiteSection holding a SiteSpace that names it by a fixed ID", () => {
    /** The title GitBook shows for a site space (its space's). */
    const titleOf = (siteSpace: string) => d.emu.store.spaces.get(d.emu.store.siteSpaces.get(siteSpace)!.spaceId)!.title;
    /** In every attempt of `which`: refused naming the fixed site space, no DELETE of the section or the site space, and state says what GitBook holds. */
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
      expect(d.emu.store.sections.has(section)).toBe(true);
      expect(d.emu.store.siteSpaces.get(fixed)).toMatchObject({ sectionId: section, path: "v3" });
    };

    it("refuses the section's replacement before deleting anything, every time", () => {
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
    expect(d.emu.store.sites.has(ids.appSite)).toBe(true);
    expect(d.emu.store.sections.has(ids.appSection)).toBe(true);
  });

  it("records forceDestroy with an up that sends nothing for it (the refused pairs converged); replaces z1's section with the site spaces that follow it", async () => {
    z1Before = { section: d.resource("z1-sectionA").id!, follower: d.resource("z1-follower").id! };
    d.emu.log.reset();
    forced = await d.run("up", program(FORCED));
    // But for the question whether the token sees the organization, each process's first before a change.
    forcedRequests = d.emu.log.entries.filter((e) => !isOrgQuestion(e)).map((e) => ({ method: e.method, path: e.path }));
    expect(forced.error).toBeUndefined();
    untrueAfter.forced = stateUntrue();
    // Nothing was lost behind state's back: what was refused needs nothing; x's fixed site space named by the section's `id` output changes nothing.
    expect(
      steps(forced)
        .filter((x) => !x.startsWith("same") && !x.includes("z1-"))
        .sort(),
    ).toEqual(["update app-site", "update archive", "update handbook", "update y-sectionA"]);
    expect(steps(forced)).toEqual(expect.arrayContaining(["same x-sectionA", "same x-fixed", "same archive2", "same guide"]));
    const z1 = siteOf("z1");
    expect(forcedRequests.filter((e) => !e.path.split("/").includes(z1))).toEqual([]);
    expect(d.resource("archive").outputs.forceDestroy).toBe(true);
    expect(d.resource("app-site").outputs.forceDestroy).toBe(true);

    refreshed = await d.run("refresh");
    expect(refreshed.error).toBeUndefined();
    forceAfterRefresh = Object.fromEntries(["archive", "handbook", "y-sectionA", "app-site"].map((n) => [n, d.resource(n).outputs.forceDestroy]));

    d.emu.log.reset();
    final = await d.run("up", program(FINAL));
    finalRequests = d.emu.log.entries.map((e) => ({ method: e.method, path: e.path }));
    expect(final.error).toBeUndefined();
    untrueAfter.final = stateUntrue();
    finalRefresh = await d.run("refresh");
    expect(finalRefresh.error).toBeUndefined();
  }, 600_000);

  describe("once forceDestroy is recorded", () => {
    it("refresh sees no drift in forceDestroy", () => {
      // Sections and site spaces are as state says. (The Sites' counters are another matter.)
      expect(refreshed.steps.filter((x) => x.op !== "same" && x.type !== "pulumi:pulumi:Stack" && !x.type.endsWith(":Site")).map((x) => x.name)).toEqual([]);
      for (const x of refreshed.steps) expect(x.changed ?? [], x.name).not.toContain("forceDestroy");
      expect(forceAfterRefresh).toEqual({ archive: true, handbook: true, "y-sectionA": true, "app-site": true });
    });

    it("the containers' deletes take along what they hold", () => {
      expect(d.emu.store.spaces.get(ids.appSpace)!.deletedAt).toBeTruthy();
      expect(d.emu.store.spaces.get(ids.handbook)!.deletedAt).toBeTruthy();
      expect(d.emu.store.siteSpaces.has(ids.shown)).toBe(false);
      expect(d.state().resources.filter((x) => ["archive", "archive2", "guide", "handbook"].includes(x.name)).map((x) => x.name).sort()).toEqual(["archive2", "guide"]);
    });

    it("the section goes with the site space that names it by a fixed ID (refresh then drops the site space)", () => {
      expect(d.emu.store.sections.has(ids.yA)).toBe(false);
      expect(d.emu.store.siteSpaces.has(ids.yFixed)).toBe(false);
      expect(d.state().resources.map((x) => x.name)).not.toContain("y-fixed");
      expect(stateUntrue()).toEqual([]);
    });

    it("the site goes with the section and the share link made in the app", () => {
      expect(d.emu.store.sites.has(ids.appSite)).toBe(false);
      expect(d.emu.store.sections.has(ids.appSection)).toBe(false);
      expect(d.emu.store.shareLinks.has(ids.appLink)).toBe(false);
    });

    it("a section whose fixed site space was named by its `id` output first is then replaced with it", () => {
      expect(steps(final)).toEqual(expect.arrayContaining(["replace x-sectionA", "replace x-fixed"]));
      expect(d.resource("x-sectionA").id).not.toBe(ids.xA);
      expect(d.emu.store.siteSpaces.get(d.resource("x-fixed").id!)).toMatchObject({ sectionId: d.resource("x-sectionA").id, path: "v3" });
    });
  });

  describe("a section holding site spaces that follow it (sectionId: section.id)", () => {
    it("no up ends with state listing a site space or a section it caused GitBook to delete (but the one forceDestroy took along)", () => {
      expect(untrueAfter).toEqual({ forced: [], final: ["y-fixed in state but deleted"] });
    });

    it("replaces them with the section, and a re-run then finds nothing to do; refresh finds them as state says", () => {
      expect(steps(forced)).toEqual(expect.arrayContaining(["replace z1-sectionA", "replace z1-follower"]));
      const section = d.resource("z1-sectionA").id!;
      expect(section).not.toBe(z1Before.section);
      expect(d.resource("z1-follower").id).not.toBe(z1Before.follower);
      expect(d.emu.store.siteSpaces.get(d.resource("z1-follower").id!)).toMatchObject({ sectionId: section, path: "v2" });
      expect(steps(final).filter((x) => x.includes("z1-") && !x.startsWith("same"))).toEqual([]);
      const z1 = siteOf("z1");
      expect(finalRequests.filter((e) => e.method !== "GET" && e.path.split("/").includes(z1))).toEqual([]);
      expect(steps(refreshed).filter((x) => x.includes("z1-") && !x.startsWith("same"))).toEqual([]);
    });

    it("moves them when the section is removed and they name another", () => {
      expect(steps(final)).toEqual(expect.arrayContaining(["replace z2-follower", "delete z2-sectionA"]));
      expect(d.emu.store.siteSpaces.get(d.resource("z2-follower").id!)).toMatchObject({ sectionId: d.resource("z2-sectionB").id, path: "v2" });
    });

    it("removes them with the section", () => {
      expect(d.state().resources.map((x) => x.name)).not.toContain("z3-follower");
      // Only sectionB's own site space is left.
      const z3 = siteOf("z3");
      expect([...d.emu.store.siteSpaces.values()].filter((x) => x.siteId === z3).map((x) => x.sectionId)).toEqual([d.resource("z3-sectionB").id]);
    });
  });
});
