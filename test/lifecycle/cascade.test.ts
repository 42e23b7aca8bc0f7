/**
 * One stack, two independent cases, sharing runs (issue 40: engine runs are the suite's cost): each
 * case declares its own resources in every run, and checks only its own resources' steps, requests,
 * errors and state.
 *
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
 * Every cascade case is independent, so all live in the stack, each on its own site, and each step is
 * one run for all of them (`--continue-on-error`, so that each is attempted whatever the others do),
 * each case checked against the DELETEs that touched its own objects.
 *
 * What a DocsSite creates keeps its identity wherever its entry stands (issue 19 part 2): a Space
 * created for a `space:` entry survives the upgrade from the names earlier versions gave it (by place)
 * in the same `up` as its entry moving to another section, and the section around it renamed with
 * `formerKeys`, as the same GitBook space, never trashed, and no plan deletes or replaces a Space.
 * A change that would replace a Space fails at its diff, naming it, unless the program opts in: the
 * provider's refusal, proved in process by provider/resources/space.test.ts. The upgraded checkpoint's
 * first `up` also replaces another Space, whose program opts in, and moves two spaces to renamed
 * resources by adoptId (a way to move an object between resources without aliases): the engine creates
 * the new resource, then deletes the old one. When the provider process that serves the delete saw the
 * new one take the object over, the delete leaves the object to it (before, it deleted the space the
 * new resource had just adopted, its pages going to the trash); the engine may serve it from another
 * process, which cannot know, so the README's way is `retainOnDelete` on the old resource first, which
 * the engine honours whatever process serves the run (no delete is sent at all). A second adoptId
 * naming the same object is refused by the program before anything is sent: that is the program's
 * process alone, proved in process by provider/resources/overlaps.test.ts. A section's key renamed
 * without `formerKeys` (issue 42 case 3) makes the engine delete the Space the DocsSite created for it
 * and create an empty one: the delete refuses while the space holds pages, naming them and the fixes,
 * and no DELETE reaches it; the fix it names then works.
 *
 * Seven engine runs (once 4 + 5 in two files): the DocsSite's first up is the cascade's, its upgrade's
 * up the cascade's `--continue-on-error` up (nothing of the DocsSite's fails there, so the flag changes
 * nothing for it). The cascade's refused replacement runs without `--continue-on-error` (with it the
 * program never finishes once a replacement has failed, seen on 3.248; without it a run stops at its
 * first error), so the DocsSite's refused rename, whose delete the engine sends last, cannot ride it;
 * nor can the rename's recovery, or the targeted destroy. Those three ups of the DocsSite's come
 * last, declaring the cascade's resources as its runs left them (every one "same").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { api, cascadeRefusal, otherOrg, ref } from "../support/scenarios";
import { differencesFromGitBook } from "../support/stateIsGitBook";
import type { RunReport } from "../../dev/report";

type Report = Awaited<ReturnType<Deployment["run"]>>;
type Section = { key: string; formerKeys?: string[]; spaceId?: string; space?: { title: string }; title?: string; siteSpaces?: unknown[] };
const org = (d: Deployment) => d.emu.seeded.organizationId;
const refusal = cascadeRefusal;

describeDeployments("deletes that take along what they hold, where the engine decides, and a DocsSite's created space across upgrade, move and rename, in one stack", () => {
  let d: Deployment;
  const s = () => d.emu.seeded.spaceIds;

  // The cascade: each case on its own site (x, y, z1..z3, app), its resources named `<site>-...`.
  const ids = {} as Record<"xA" | "xHeld" | "yA" | "yHeld" | "appSite" | "appSection" | "appLink", string>;

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
   * holding a site space made in the app. `settled`: what the cascade's runs left, y's refused section A
   * and x's unreplaced one still there, declared so in the DocsSite's last ups (every step "same").
   */
  const cascade = (then: boolean, o: { replaceX?: boolean; settled?: boolean } = {}): Decl[] => [
    ...sections("x", { spaceOfA: o.replaceX ? 5 : 0 }),
    ...sections("y", { withA: !then || !!o.settled }),
    { kind: "Site", name: "app-site", args: { title: "App Docs" } },
    ...sections("z1", { spaceOfA: then ? 5 : 0, follower: "A" }),
    ...sections("z2", { withA: !then, follower: then ? "B" : "A" }),
    ...sections("z3", { withA: !then, follower: then ? undefined : "A" }),
  ];
  const ofCascade = (name: string) => /^(x|y|z\d|app)-/.test(name);

  let up: Report;
  let upDeleted: string[];
  let replaced: Report;
  let replacedDeleted: string[];
  let destroy: Report;
  let destroyDeleted: string[];
  let z1Before: { section: string; follower: string };
  const siteOf = (p: string) => d.resource(`${p}-site`).id!;
  /** The cascade's SiteSections and SiteSpaces that state lists and GitBook does not hold (a site space: in the section state says). */
  function stateUntrue(): string[] {
    const st = d.emu.store;
    // A resource deleted by a delete-before-replace that the failed run did not finish stays in state
    // marked pendingReplacement: state says it is gone, and the next up creates it.
    return d
      .state()
      .resources.filter((x) => ofCascade(x.name) && !x.pendingReplacement)
      .filter((r) => (r.type.endsWith(":SiteSection") && !st.sections.has(r.id!)) || (r.type.endsWith(":SiteSpace") && st.siteSpaces.get(r.id!)?.sectionId !== r.outputs.parentSectionId))
      .map((r) => `${r.name} in state but deleted`);
  }
  let untrue: string[];

  // The DocsSite ("docs") and the Spaces beside it (loose, old, before; renamed, after).
  let spaceId: string;
  const docs = (sections: Section[]): Decl[] => [{ kind: "DocsSite", name: "docs", args: { site: { title: "Identity Docs" }, sections } }];
  const tutorials = { key: "tut", path: "tutorials", space: { title: "Tutorials" } };
  /** A section whose own space the DocsSite creates (`docs/spaces/<key>`): the brief's guides → handbook rename. */
  const guides = (key = "guides", more: Partial<Section> = {}): Section => ({ key, space: { title: "Guides" }, ...more });
  /** The steps of a run touching a Space, and every step that deletes or replaces anything, of the DocsSite's case. */
  const losses = (r: RunReport) =>
    r.steps.filter((x) => !ofCascade(x.name) && (x.op === "delete" || x.op === "replace" || (x.type.endsWith(":Space") && x.op !== "same"))).map((x) => `${x.op} ${x.name}`);
  /** The lines of a run's error naming one of the DocsSite case's resources (as `<Kind> <name>: ...`). */
  const identityErrors = (r: RunReport) => (r.error ?? "").split("\n").filter((l) => /\b[A-Z]\w+ (docs(\/\S+)?|loose|old|before|renamed|after): /.test(l));
  const space = () => d.emu.store.spaces.get(spaceId)!;
  const spaceResources = () => d.state().resources.filter((r) => r.type.endsWith(":Space"));

  /** A Space of its own beside the DocsSite, replaced once its program opts in. */
  const loose = (args: Record<string, unknown> = {}): Decl => ({ kind: "Space", name: "loose", args: { title: "Loose notes", ...args } });
  const start = () => docs([{ key: "start", spaceId: s()[0] }, guides("guides", { siteSpaces: [tutorials] })]);
  /** The spaces moved by adoptId: `old` to `renamed` alone, `before` to `after` with retainOnDelete first. */
  const unmoved: Decl[] = [
    { kind: "Space", name: "old", args: { title: "Moved Handbook" } },
    { kind: "Space", name: "before", args: { title: "Retained Handbook" }, retainOnDelete: true },
  ];
  let moved: string;
  let retained: string;
  const adopted = (): Decl[] => [
    { kind: "Space", name: "renamed", args: { title: "Moved Handbook", adoptId: moved } },
    { kind: "Space", name: "after", args: { title: "Retained Handbook", adoptId: retained } },
  ];
  /** The start section once the tutorials' entry moved into it. */
  const started = (): Section => ({ key: "start", spaceId: s()[0], siteSpaces: [tutorials] });
  /** Everything beside the DocsSite after the upgrade's up. */
  const rest = (): Decl[] => [loose({ organizationId: otherOrg(d.emu), allowReplacement: true }), ...adopted()];
  /** The DocsSite's case after its upgrade. */
  const upgraded = () => [...docs([started(), guides()]), ...rest()];

  let first: Report;
  let spacesFirst: string[];
  let spacesEdited: string[];
  let looseBefore: string;
  /** The upgrade's up (the cascade's `up` above) and the requests it sent. */
  let upgrade: Report;
  let upgradeLog: typeof d.emu.log.entries;
  /** The requests of the upgrade's up that wrote to the spaces moved by adoptId. */
  const adoptedWrites = (log = upgradeLog) => log.filter((e) => e.method !== "GET" && [moved, retained].some((id) => e.path.includes(id)));

  beforeAll(async () => {
    d = await startDeployment();
    first = await d.run("up", [...cascade(false), ...start(), loose(), ...unmoved]);
    expect(first.error).toBeUndefined();
    Object.assign(ids, { xA: d.resource("x-sectionA").id!, yA: d.resource("y-sectionA").id!, appSite: d.resource("app-site").id! });
    z1Before = { section: d.resource("z1-sectionA").id!, follower: d.resource("z1-follower").id! };
    spacesFirst = spaceResources().map((x) => x.name).sort();
    spaceId = d.resource("docs/spaces/tut").id!;
    moved = d.resource("old").id!;
    retained = d.resource("before").id!;
    looseBefore = d.resource("loose").id!;

    // Made in the app: a site space in x's and in y's section A; a section and a share link on the app site.
    const siteSpace = async (p: string, section: string) => (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${siteOf(p)}/site-spaces`, { spaceId: s()[3], sectionId: section })).id as string;
    ids.xHeld = await siteSpace("x", ids.xA);
    ids.yHeld = await siteSpace("y", ids.yA);
    ids.appSection = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${ids.appSite}/sections`, { spaceId: s()[0], title: "Written in the app" })).id as string;
    ids.appLink = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${ids.appSite}/share-links`, { name: "Partner" })).id as string;
    // The checkpoint as 0.1.0 wrote it: the tutorials' Space named by where its entry stood (no other resource's text holds that name).
    await d.editState((resources) => {
      for (const r of resources) {
        const text = JSON.stringify(r).replaceAll("Space::docs/spaces/tut", "Space::docs/guides/tut/space");
        Object.assign(r, JSON.parse(text));
      }
    });
    spacesEdited = spaceResources().map((x) => x.name).sort();

    d.emu.log.reset();
    up = upgrade = await d.run("up", [...cascade(true), ...upgraded()], { flags: ["--continue-on-error"] });
    upgradeLog = [...d.emu.log.entries];
    upDeleted = upgradeLog.filter((e) => e.method === "DELETE").map((e) => e.path);
    untrue = stateUntrue();
    d.emu.log.reset();
    replaced = await d.run("up", [...cascade(true, { replaceX: true }), ...upgraded()]);
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

  // After the cascade's tests (they read the state its runs left): the DocsSite's own ups come last.
  describe("a DocsSite's created space across upgrade, move and rename", () => {
    it("creates the space under a name of its own key", () => {
      expect(first.error).toBeUndefined();
      expect(spacesFirst).toEqual(["before", "docs/spaces/guides", "docs/spaces/tut", "loose", "old"]);
      expect(space().title).toBe("Tutorials");
    });

    // One up for all: the upgraded checkpoint's first run also moves the entry to another section (the
    // old name is then under a section the entry no longer stands in: before the guess of earlier
    // places, this run trashed the space and created an empty one), the other Space, whose program now
    // opts in, is replaced, and two spaces move to renamed resources by adoptId.
    it("recognises the space under the name an earlier version gave it (by place), even when the same up moves its entry: nothing trashed; a program that opts in may replace a space; a space moved by adoptId stays, with retainOnDelete first without a delete sent at all", () => {
      expect(spacesEdited).toEqual(["before", "docs/guides/tut/space", "docs/spaces/guides", "loose", "old"]);
      const r = upgrade;
      // The run's error is the cascade's alone.
      expect(identityErrors(r)).toEqual([]);
      // GitBook moves no site space between sections: the pointer is replaced, never the space it shows.
      // The spaces moved by adoptId: their new resources created, the old ones deleted from state.
      expect(losses(r).sort()).toEqual(["create after", "create renamed", "delete before", "delete docs/guides/tut", "delete old", "replace loose"]);
      expect(r.steps.find((x) => x.name === "loose")).toMatchObject({ op: "replace", replaces: ["organizationId"] });
      expect(d.resource("docs/spaces/tut").id).toBe(spaceId);
      expect(space().deletedAt).toBeUndefined();
      expect([...d.emu.store.spaces.values()].filter((x) => x.title === "Tutorials")).toHaveLength(1);
      const site = [...d.emu.store.sites.values()].find((x) => x.title === "Identity Docs")!;
      const startSection = d.emu.store.sectionsOf(site.id).find((x) => x.id === d.resource("docs/start").id)!;
      expect(d.emu.store.siteSpacesIn(site.id, startSection.id).map((ss) => ss.spaceId)).toContain(spaceId);
      expect(d.emu.store.spaces.get(looseBefore)!.deletedAt).toBeDefined();
      expect(d.emu.store.spaces.get(d.resource("loose").id!)).toMatchObject({ orgId: otherOrg(d.emu) });

      // The provider's delete was called for `old`, and said what it did instead.
      expect(r.stdout).toContain(`${moved} is left in GitBook, not deleted`);
      expect(d.resource("renamed").id).toBe(moved);
      expect(d.emu.store.spaces.get(moved)?.deletedAt ?? null).toBeNull();
      // Neither sent a delete; and for the retained one the engine did not even call the provider's delete
      // (which, in the same process, would also have left the object, saying so): the option holds
      // whichever process would have served it.
      expect(adoptedWrites().filter((e) => e.method === "DELETE")).toEqual([]);
      expect(r.stdout).not.toContain(`${retained} is left in GitBook`);
      expect(d.resource("after").id).toBe(retained);
      expect(d.emu.store.spaces.get(retained)?.deletedAt ?? null).toBeNull();
    });

    // Issue 42 case 3: the engine plans a delete and a create; the Space's delete refuses while it holds pages.
    it("refuses the delete of a created space holding pages when its section's key is renamed without formerKeys, naming the pages and the fixes; no DELETE reaches it", async () => {
      const id = d.resource("docs/spaces/guides").id!;
      d.emu.store.writePages(id, ["Install", "Configure"]);
      d.emu.log.reset();
      const r = await d.run("up", [...cascade(true, { settled: true }), ...docs([started(), guides("handbook")]), ...rest()]);
      expect(r.error).toMatch(
        new RegExp(
          `Space docs/spaces/guides: deleting it \\(${id}\\) would send the 3 pages it holds to GitBook's trash .*Nothing was deleted\\. ` +
            "If it was renamed rather than removed.*`formerKeys`.*set forceDestroy: true on this Space \\(in a DocsSite: its entry's `space.forceDestroy`\\).*retainOnDelete: true \\(in a DocsSite: its entry's `space.retainOnDelete`\\)",
        ),
      );
      expect(d.emu.log.entries.filter((e) => e.method === "DELETE" && e.path.endsWith(`/spaces/${id}`))).toEqual([]);
      expect(d.emu.store.spaces.get(id)!.deletedAt).toBeUndefined();
      expect(d.emu.store.spaces.get(id)!.pages).toHaveLength(3);
      expect(d.resource("docs/spaces/guides").id).toBe(id);
    });

    // What the refusal advises: the engine made the new key's space before the refused delete, and once that
    // is in state an alias added then no longer takes the old space's place (the old one is deleted again).
    // The way back is also the run after the moves by adoptId: it has nothing to do for them. The last up
    // renames the section around the tutorials' space too: every child updated in place.
    it("recovers as the refusal says: the old key back deletes what the refused run made (a space as GitBook made it holds no page that counts), then formerKeys renames in place, the section around the tutorials' space alike", async () => {
      const id = d.resource("docs/spaces/guides").id!;
      const made = d.resource("docs/spaces/handbook").id!;
      d.emu.log.reset();
      const back = await d.run("up", [...cascade(true, { settled: true }), ...upgraded()]);
      expect(back.error).toBeUndefined();
      expect(losses(back).sort()).toEqual(["delete docs/handbook", "delete docs/spaces/handbook"]);
      expect(back.steps.filter((x) => ["renamed", "after"].includes(x.name)).map((x) => `${x.op} ${x.name}`).sort()).toEqual(["same after", "same renamed"]);
      expect(adoptedWrites(d.emu.log.entries)).toEqual([]);
      expect(d.emu.store.spaces.get(made)!.deletedAt).toBeDefined();
      const section = d.emu.store.sections.get(d.resource("docs/guides").id!)!;
      expect(d.emu.store.siteSpacesIn(section.siteId, section.id).map((ss) => ss.spaceId)).toEqual([id]);

      const sectionId = d.resource("docs/start").id;
      const siteSpaceId = d.resource("docs/start/tut").id;
      const intro = { ...started(), key: "intro", formerKeys: ["start"] };
      const renamed = await d.run("up", [...cascade(true, { settled: true }), ...docs([intro, guides("handbook", { formerKeys: ["guides"] })]), ...rest()]);
      expect(renamed.error).toBeUndefined();
      expect(renamed.steps.filter((x) => x.op !== "same" && x.op !== "update").map((x) => `${x.op} ${x.name}`)).toEqual([]);
      expect(d.resource("docs/intro").id).toBe(sectionId);
      expect(d.resource("docs/intro/tut").id).toBe(siteSpaceId);
      expect(d.resource("docs/spaces/tut").id).toBe(spaceId);
      expect(space().deletedAt).toBeUndefined();
      expect(d.resource("docs/spaces/handbook").id).toBe(id);
      expect(d.emu.store.spaces.get(id)!.deletedAt).toBeUndefined();
      expect(d.emu.store.spaces.get(id)!.pages).toHaveLength(3);
    });
  });
});
