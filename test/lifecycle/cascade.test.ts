/**
 * Deletes that GitBook carries out on other objects too (issue 19, parts 1 and 5), through the real
 * CLI. A Collection, a Space, a Site or a SiteSection whose delete would take along objects this stack does not
 * delete first (made in the app, or resources of this program that name it by a fixed ID) fails before
 * any DELETE, naming each by kind, title and ID, whichever process serves the call; `forceDestroy`,
 * recorded by an `up` (no request), lets the delete take them along.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { api, ref } from "../support/scenarios";

/** A test or a shared deployment runs the CLI up to nine times, on a 2-core machine shared with other runs. */
const LONG = 400_000;
const org = (d: Deployment) => d.emu.seeded.organizationId;
const deletes = (d: Deployment) => d.emu.log.count({ method: "DELETE" });
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The refusal, naming the resource (by the program's name once state records it, else its ID), its object and each thing it holds. */
const refusal = (kind: string, id: string, held: [string, string, string][]) =>
  new RegExp(
    `${kind} \\S+: deleting it \\(${esc(id)}\\) would also delete what it still holds.*` +
      held.map(([k, title, hid]) => esc(`${k} ${JSON.stringify(title)} (${hid})`)).join(".*") +
      `.*Nothing was deleted.*set forceDestroy: true on this ${kind}`,
    "s",
  );

/**
 * Three containers in one stack, each holding what the stack does not delete first: a Collection holding
 * a space made in the app, a Collection holding a declared Space that names it by a fixed ID, a Space
 * shown on a site made in the app. They are independent, so one `up` asks for all three deletes
 * (`--continue-on-error`, so that each is attempted whatever the others do) and each refusal is
 * checked on its own; every attempt is a new provider process.
 */
describeDeployments("containers holding what the stack does not delete", () => {
  let d: Deployment;
  let ids: { app: string; appSpace: string; fixed: string; guide: string; handbook: string; shown: string };
  const attempts: Array<{ error?: string; deleted: string[]; names: string[]; archive2?: string; guide?: string }> = [];
  /**
   * Every attempt refused the delete of `kind` `id`, naming what it holds, and no DELETE of the attempt
   * touched it or what it holds (the other containers' DELETEs are theirs to check); `also` checks the rest.
   */
  const expectRefused = (kind: string, id: string, held: [string, string, string], also: (a: (typeof attempts)[number]) => void) =>
    attempts.forEach((a, i) => {
      expect(a.error, `attempt ${i + 1}`).toMatch(refusal(kind, id, [held]));
      expect(a.deleted.filter((p) => p.includes(id) || p.includes(held[2])), `attempt ${i + 1}`).toEqual([]);
      also(a);
    });
  const appCol = (extra: Record<string, unknown> = {}): Decl => ({ kind: "Collection", name: "archive", args: { title: "Archive", ...extra } });
  const fixedCol: Decl = { kind: "Collection", name: "archive2", args: { title: "Shelf" } };
  const handbook = (extra: Record<string, unknown> = {}): Decl => ({ kind: "Space", name: "handbook", args: { title: "Handbook", ...extra } });
  const guide = (): Decl => ({ kind: "Space", name: "guide", args: { title: "Guide", parent: ids.fixed } });

  beforeAll(async () => {
    d = await startDeployment();
    expect((await d.run("up", [appCol(), fixedCol, handbook()])).error).toBeUndefined();
    const [app, fixed, hb] = ["archive", "archive2", "handbook"].map((n) => d.resource(n).id!);
    const appSpace = (await api(d.emu, "POST", `/orgs/${org(d)}/spaces`, { title: "Team notes", parent: app })).id as string;
    // Another team's site shows the space: GitBook would take that site space off its site with the space.
    const site = (await api(d.emu, "POST", `/orgs/${org(d)}/sites`, { title: "Partner Docs" })).id as string;
    const section = await api(d.emu, "POST", `/orgs/${org(d)}/sites/${site}/sections`, { spaceId: hb, title: "Handbook" });
    ids = { app, appSpace, fixed, guide: "", handbook: hb!, shown: (section.siteSpaces as Array<{ id: string }>)[0]!.id };
    expect((await d.run("up", [appCol(), fixedCol, guide(), handbook()])).error).toBeUndefined();
    ids.guide = d.resource("guide").id!;

    for (let i = 0; i < 2; i++) {
      d.emu.log.reset();
      const r = await d.run("up", [guide()], { flags: ["--continue-on-error"] });
      const names = d.state().resources.map((x) => x.name);
      const idOf = (n: string) => d.state().resources.find((x) => x.name === n)?.id;
      const deleted = d.emu.log.entries.filter((e) => e.method === "DELETE").map((e) => e.path);
      attempts.push({ error: r.error, deleted, names, archive2: idOf("archive2"), guide: idOf("guide") });
    }
  }, LONG);
  afterAll(async () => d?.close());

  it("a Collection holding a space made in the app fails before any DELETE naming the space", () => {
    expectRefused("Collection", ids.app, ["Space", "Team notes", ids.appSpace], (a) => expect(a.names).toContain("archive"));
    expect(d.emu.store.spaces.get(ids.appSpace)!.deletedAt).toBeUndefined();
    expect(d.emu.store.spaces.get(ids.appSpace)!.parentId).toBe(ids.app);
  });

  it("a Collection holding a declared Space whose parent is a fixed ID fails before any DELETE naming the space; state and GitBook still agree", () => {
    expectRefused("Collection", ids.fixed, ["Space", "Guide", ids.guide], (a) => expect([a.archive2, a.guide]).toEqual([ids.fixed, ids.guide]));
    expect(d.emu.store.spaces.get(ids.guide)).toMatchObject({ parentId: ids.fixed });
    expect(d.emu.store.spaces.get(ids.guide)!.deletedAt).toBeUndefined();
  });

  it("a Space shown on a site made in the app fails before any DELETE naming the site space it would take off the site", () => {
    expectRefused("Space", ids.handbook, ["SiteSpace", "Partner Docs / Handbook", ids.shown], (a) => expect(a.names).toContain("handbook"));
    expect(d.emu.store.spaces.get(ids.handbook)!.deletedAt).toBeUndefined();
    expect(d.emu.store.siteSpaces.has(ids.shown)).toBe(true);
  });

  it("forceDestroy is recorded by an up that sends nothing (the fixed-ID pair converged), refresh sees no drift in it, and the deletes then take along what they hold", async () => {
    d.emu.log.reset();
    const set = await d.run("up", [appCol({ forceDestroy: true }), fixedCol, guide(), handbook({ forceDestroy: true })]);
    expect(set.error).toBeUndefined();
    // Nothing was lost behind state's back: the pair whose delete was refused needs nothing.
    expect(steps(set).filter((s) => !s.startsWith("same")).sort()).toEqual(["update archive", "update handbook"]);
    expect(d.emu.log.count()).toBe(0);
    expect(d.resource("archive").outputs.forceDestroy).toBe(true);
    const refreshed = await d.run("refresh");
    expect(steps(refreshed).filter((s) => !s.startsWith("same"))).toEqual([]);
    expect(d.resource("archive").outputs.forceDestroy).toBe(true);
    expect(d.resource("handbook").outputs.forceDestroy).toBe(true);

    const r = await d.run("up", [fixedCol, guide()]);
    expect(r.error).toBeUndefined();
    expect(d.emu.store.spaces.get(ids.appSpace)!.deletedAt).toBeTruthy();
    expect(d.emu.store.spaces.get(ids.handbook)!.deletedAt).toBeTruthy();
    expect(d.emu.store.siteSpaces.has(ids.shown)).toBe(false);
    expect(d.state().resources.filter((x) => x.custom).map((x) => x.name).sort()).toEqual(["archive2", "guide"]);
  }, LONG);
});

function sections(d: Deployment, opts: { spaceOfA?: number; withA?: boolean; fixed?: string; fixedAfterA?: boolean; forceA?: boolean } = {}): Decl[] {
  const s = d.emu.seeded.spaceIds;
  const { spaceOfA = 0, withA = true, fixed, fixedAfterA = false, forceA = false } = opts;
  const decls: Decl[] = [{ kind: "Site", name: "site", args: { title: "Cascade Docs" } }];
  if (withA) {
    decls.push({ kind: "SiteSection", name: "sectionA", args: { siteId: ref("site.id"), spaceId: s[spaceOfA], title: "Section A", default: true, ...(forceA ? { forceDestroy: true } : {}) } });
  }
  decls.push({ kind: "SiteSection", name: "sectionB", args: { siteId: ref("site.id"), spaceId: s[1], title: "Section B" } });
  if (fixed) {
    // dependsOn sectionA: the engine reaches this SiteSpace only after sectionA's steps, so nothing the
    // provider process saw of it can help the section's delete decide.
    decls.push({
      kind: "SiteSpace",
      name: "fixed",
      args: { siteId: ref("site.id"), sectionId: fixed, spaceId: s[3], path: "v3" },
      ...(fixedAfterA && withA ? { dependsOn: ["sectionA"] } : {}),
    });
  }
  return decls;
}

describeDeployments("a SiteSection holding a SiteSpace that names it by a fixed ID", () => {
  let d: Deployment;
  let sectionA: string;
  let fixed: string;
  let fixedTitle: string;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  /** Nothing was deleted, and state says what GitBook holds. */
  function expectUntouched(): void {
    expect(deletes(d)).toBe(0);
    expect(d.emu.store.sections.has(sectionA)).toBe(true);
    expect(d.emu.store.siteSpaces.get(fixed)).toMatchObject({ sectionId: sectionA, path: "v3" });
    expect(d.resource("sectionA").id).toBe(sectionA);
    expect(d.resource("fixed").id).toBe(fixed);
    expect(d.resource("sectionA").pendingReplacement).toBeFalsy();
  }

  it("refuses the section's replacement before deleting anything, every time", async () => {
    expect((await d.run("up", sections(d))).error).toBeUndefined();
    sectionA = d.resource("sectionA").id!;
    expect((await d.run("up", sections(d, { fixed: sectionA }))).error).toBeUndefined();
    fixed = d.resource("fixed").id!;
    fixedTitle = titleOf(d, fixed);
    for (const attempt of [1, 2]) {
      d.emu.log.reset();
      const r = await d.run("up", sections(d, { spaceOfA: 5, fixed: sectionA, fixedAfterA: true }));
      expect(r.error, `attempt ${attempt}`).toMatch(refusal("SiteSection", sectionA, [["SiteSpace", fixedTitle, fixed]]));
      expectUntouched();
    }
  }, LONG);

  it("refuses the section's removal, by up or by a targeted destroy, every time", async () => {
    for (const attempt of [1, 2]) {
      d.emu.log.reset();
      const r = await d.run("up", sections(d, { withA: false, fixed: sectionA }));
      expect(r.error, `up, attempt ${attempt}`).toMatch(refusal("SiteSection", sectionA, [["SiteSpace", fixedTitle, fixed]]));
      expectUntouched();
    }
    for (const attempt of [1, 2]) {
      d.emu.log.reset();
      const r = await d.run("destroy", undefined, { flags: ["--target", d.resource("sectionA").urn] });
      expect(r.error, `destroy --target, attempt ${attempt}`).toMatch(refusal("SiteSection", sectionA, [["SiteSpace", fixedTitle, fixed]]));
      expectUntouched();
    }
  }, LONG);

  it("deletes the section with the site space once forceDestroy is recorded (refresh then drops the site space)", async () => {
    d.emu.log.reset();
    const set = await d.run("up", sections(d, { fixed: sectionA, forceA: true }));
    expect(set.error).toBeUndefined();
    expect(d.emu.log.count()).toBe(0);
    const r = await d.run("up", sections(d, { withA: false, fixed: sectionA }));
    expect(r.error).toBeUndefined();
    expect(d.emu.store.sections.has(sectionA)).toBe(false);
    expect(d.emu.store.siteSpaces.has(fixed)).toBe(false);
    await d.run("refresh");
    expect(d.state().resources.map((x) => x.name)).not.toContain("fixed");
  }, LONG);
});

/** The title GitBook shows for a site space (its space's). */
function titleOf(d: Deployment, siteSpace: string): string {
  return d.emu.store.spaces.get(d.emu.store.siteSpaces.get(siteSpace)!.spaceId)!.title;
}

describeDeployments("a Site holding a section made in the app", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("fails destroy before any DELETE naming the section, and goes with it once forceDestroy is recorded", async () => {
    const site = (extra: Record<string, unknown> = {}): Decl[] => [{ kind: "Site", name: "site", args: { title: "App Docs", ...extra } }];
    expect((await d.run("up", site())).error).toBeUndefined();
    const siteId = d.resource("site").id!;
    const section = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${siteId}/sections`, { spaceId: d.emu.seeded.spaceIds[0], title: "Written in the app" })).id as string;
    const link = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${siteId}/share-links`, { name: "Partner" })).id as string;

    for (const attempt of [1, 2]) {
      d.emu.log.reset();
      const r = await d.run("destroy");
      expect(r.error, `attempt ${attempt}`).toMatch(
        refusal("Site", siteId, [
          ["SiteSection", "Written in the app", section],
          ["ShareLink", "Partner", link],
        ]),
      );
      expect(deletes(d)).toBe(0);
      expect(d.emu.store.sites.has(siteId)).toBe(true);
      expect(d.emu.store.sections.has(section)).toBe(true);
      expect(d.resource("site").id).toBe(siteId);
    }

    d.emu.log.reset();
    expect((await d.run("up", site({ forceDestroy: true }))).error).toBeUndefined();
    expect(d.emu.log.count()).toBe(0);
    const r = await d.run("destroy");
    expect(r.error).toBeUndefined();
    expect(d.emu.store.sites.has(siteId)).toBe(false);
    expect(d.emu.store.sections.has(section)).toBe(false);
    expect(d.emu.store.shareLinks.has(link)).toBe(false);
  }, LONG);
});
