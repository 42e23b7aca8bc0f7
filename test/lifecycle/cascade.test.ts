/**
 * Deletes that GitBook carries out on other objects too (issue 19, parts 1 and 5), where the engine
 * decides: deleting a section deletes every site space in it, so a SiteSpace names its section
 * (sectionId is required, checked in process in provider/resources/siteSpace.test.ts) through the
 * SiteSection's `id` output, and the engine then deletes, replaces or moves it before the section's
 * delete; no run may end with state listing a site space or a section the run caused GitBook to
 * delete. And a delete the provider refuses (the section or site still holds what the stack does not
 * delete first: here, made in the app) as the CLI renders it, for an up's replacement and removal and
 * for a targeted destroy, nothing deleted.
 *
 * What the provider alone decides (every kind's refusal, from what GitBook says at the delete whichever
 * process asks, each tried twice; `forceDestroy` recorded with no request, kept by refresh, and taking
 * along what the object holds) is test/unit/cascade.test.ts's, in process.
 *
 * Every case is independent, so all live in one stack, each on its own site, and each step is one run
 * for all of them (`--continue-on-error`, so that each is attempted whatever the others do), each case
 * checked against the DELETEs that touched its own objects. Four engine runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { api, cascadeRefusal, ref } from "../support/scenarios";
import { differencesFromGitBook } from "../support/stateIsGitBook";

type Report = Awaited<ReturnType<Deployment["run"]>>;
const org = (d: Deployment) => d.emu.seeded.organizationId;
const refusal = cascadeRefusal;

describeDeployments("deletes that take along what they hold, where the engine decides, each case on its own site in one stack", () => {
  let d: Deployment;
  const ids = {} as Record<"xA" | "xHeld" | "yA" | "yHeld" | "appSite" | "appSection" | "appLink", string>;
  const s = () => d.emu.seeded.spaceIds;

  /** A site with sections A and B, and optionally a SiteSpace following A or B by its `id` output. */
  function sections(p: string, o: { spaceOfA?: number; withA?: boolean; follower?: "A" | "B" }): Decl[] {
    const { spaceOfA = 0, withA = true, follower } = o;
    const site = ref(`${p}-site.id`);
    const decls: Decl[] = [{ kind: "Site", name: `${p}-site`, args: { title: `Cascade Docs ${p}` } }];
    if (withA) decls.push({ kind: "SiteSection", name: `${p}-sectionA`, args: { siteId: site, spaceId: s()[spaceOfA], title: "Section A", default: true } });
    decls.push({ kind: "SiteSection", name: `${p}-sectionB`, args: { siteId: site, spaceId: s()[1], title: "Section B" } });
    if (follower) decls.push({ kind: "SiteSpace", name: `${p}-follower`, args: { siteId: site, sectionId: ref(`${p}-section${follower}.id`), spaceId: s()[2], path: "v2" } });
    return decls;
  }

  /**
   * First: every site as deployed. Then: y's section A removed, holding a site space made in the app;
   * z1's section A replaced with the site space that follows it, z2's removed while its follower moves
   * to section B, z3's removed with its follower. And on its own: x's section A replaced (delete-first),
   * holding a site space made in the app (under `--continue-on-error` the program never finishes once a
   * replacement has failed, seen on 3.248; without it a run stops at its first error).
   */
  const program = (then: boolean, replaceX = false): Decl[] => [
    ...sections("x", { spaceOfA: replaceX ? 5 : 0 }),
    ...sections("y", { withA: !then }),
    { kind: "Site", name: "app-site", args: { title: "App Docs" } },
    ...sections("z1", { spaceOfA: then ? 5 : 0, follower: "A" }),
    ...sections("z2", { withA: !then, follower: then ? "B" : "A" }),
    ...sections("z3", { withA: !then, follower: then ? undefined : "A" }),
  ];

  let up: Report;
  let upDeleted: string[];
  let replaced: Report;
  let replacedDeleted: string[];
  let destroy: Report;
  let destroyDeleted: string[];
  let z1Before: { section: string; follower: string };
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
  let untrue: string[];

  beforeAll(async () => {
    d = await startDeployment();
    expect((await d.run("up", program(false))).error).toBeUndefined();
    Object.assign(ids, { xA: d.resource("x-sectionA").id!, yA: d.resource("y-sectionA").id!, appSite: d.resource("app-site").id! });
    z1Before = { section: d.resource("z1-sectionA").id!, follower: d.resource("z1-follower").id! };
    // Made in the app: a site space in x's and in y's section A; a section and a share link on the app site.
    const siteSpace = async (p: string, section: string) => (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${siteOf(p)}/site-spaces`, { spaceId: s()[3], sectionId: section })).id as string;
    ids.xHeld = await siteSpace("x", ids.xA);
    ids.yHeld = await siteSpace("y", ids.yA);
    ids.appSection = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${ids.appSite}/sections`, { spaceId: s()[0], title: "Written in the app" })).id as string;
    ids.appLink = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${ids.appSite}/share-links`, { name: "Partner" })).id as string;

    d.emu.log.reset();
    up = await d.run("up", program(true), { flags: ["--continue-on-error"] });
    upDeleted = d.emu.log.entries.filter((e) => e.method === "DELETE").map((e) => e.path);
    untrue = stateUntrue();
    d.emu.log.reset();
    replaced = await d.run("up", program(true, true));
    replacedDeleted = d.emu.log.entries.filter((e) => e.method === "DELETE").map((e) => e.path);
    d.emu.log.reset();
    const targets = d
      .state()
      .resources.filter((x) => x.name === "app-site")
      .flatMap((x) => ["--target", x.urn]);
    destroy = await d.run("destroy", undefined, { flags: [...targets, "--continue-on-error"] });
    destroyDeleted = d.emu.log.entries.filter((e) => e.method === "DELETE").map((e) => e.path);
  }, 600_000);
  afterAll(async () => d?.close());

  describe("a section holding a site space the stack does not delete first (made in the app)", () => {
    /** The CLI's run refused the section's delete, naming the site space; nothing of the case was deleted; state still lists the section. */
    const expectRefused = (run: Report, deleted: string[], section: string, held: string, p: string) => {
      const title = d.emu.store.spaces.get(s()[3]!)!.title;
      expect(run.error).toMatch(refusal("SiteSection", section, [["SiteSpace", title, held]]));
      expect(deleted.filter((x) => x.includes(section) || x.includes(held))).toEqual([]);
      expect(d.state().resources.filter((x) => x.name === `${p}-sectionA`).map((x) => x.id)).toEqual([section]);
      expect(d.emu.store.sections.has(section)).toBe(true);
      expect(d.emu.store.siteSpaces.get(held)).toMatchObject({ sectionId: section });
    };

    it("an up refuses its replacement (delete-first) before deleting or creating anything", () => {
      expectRefused(replaced, replacedDeleted, ids.xA, ids.xHeld, "x");
      expect(replacedDeleted).toEqual([]);
      expect([...d.emu.store.sections.values()].filter((x) => x.siteId === siteOf("x")).map((x) => x.id).sort()).toEqual([ids.xA, d.resource("x-sectionB").id].sort());
    });

    it("an up refuses its removal", () => {
      expectRefused(up, upDeleted, ids.yA, ids.yHeld, "y");
    });
  });

  it("a targeted destroy of a Site holding a section and a share link made in the app is refused before any DELETE, naming them", () => {
    expect(destroy.error).toMatch(
      refusal("Site", ids.appSite, [
        ["SiteSection", "Written in the app", ids.appSection],
        ["ShareLink", "Partner", ids.appLink],
      ]),
    );
    expect(destroyDeleted).toEqual([]);
    expect(d.resource("app-site").id).toBe(ids.appSite);
    expect(d.emu.store.sites.has(ids.appSite)).toBe(true);
  });

  describe("a section holding site spaces that follow it (sectionId: section.id)", () => {
    it("no up ends with state listing a site space or a section it caused GitBook to delete, and state is what GitBook holds", async () => {
      expect(untrue).toEqual([]);
      const z = d.state().resources.filter((r) => /^z\d-/.test(r.name));
      expect(await differencesFromGitBook(d.emu, z)).toEqual([]);
    });

    it("replaces them with the section", () => {
      expect(steps(up)).toEqual(expect.arrayContaining(["replace z1-sectionA", "replace z1-follower"]));
      const section = d.resource("z1-sectionA").id!;
      expect(section).not.toBe(z1Before.section);
      expect(d.resource("z1-follower").id).not.toBe(z1Before.follower);
      expect(d.emu.store.siteSpaces.get(d.resource("z1-follower").id!)).toMatchObject({ sectionId: section, path: "v2" });
    });

    it("moves them when the section is removed and they name another", () => {
      expect(steps(up)).toEqual(expect.arrayContaining(["replace z2-follower", "delete z2-sectionA"]));
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
