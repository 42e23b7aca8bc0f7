/**
 * Adoption, as a user meets it, in process (the provider alone decides all of it: what create adopts,
 * what diff plans and refuses; each case fails at the provider's create or diff if its rule goes):
 * - it converges only what the program declares: a share-link site stays share-link and a revoked
 *   link stays revoked when the program does not declare `visibility` or `active` (issue 11, item 1);
 * - a site's `type` is sent and managed only when declared, so adopting a site of another type than
 *   the old default is not refused (item 2);
 * - `adoptId` affects only the first creation: a replacing change with `adoptId` still in the program
 *   fails, before anything is deleted, saying to remove it (issue 19: a replacement's create sees
 *   `adoptId`, and only memory of the run could tell it the object is the one being replaced), for a
 *   kind replaced delete-first (SiteSection) and create-first (Site); once removed, the replacement
 *   creates a new object. No path adopts the object it then deletes.
 *
 * Every case is a resource of one program, so each run below checks all the cases at its stage: the
 * first `up` adopts them all, one `refresh` finds nothing changed on any, one `up` makes the declared
 * changes, an `up` per replacing kind is refused, one `up` replaces both, and one more finds nothing to do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Decl } from "../support/lifecycle";
import { inProcessProgram, stepNames, type InProcessProgram, type ProgramStep } from "../support/program";
import { startProviderEnv, type ProviderEnv } from "../support/provider";
import { api, ref } from "../support/scenarios";

type Report = { steps: ProgramStep[]; error?: string };
const org = (d: ProviderEnv) => d.emu.seeded.organizationId;
const changes = (r: Report) => stepNames(r.steps).filter((s) => !s.startsWith("same "));
const steps = (r: Report) => stepNames(r.steps);

describe("adoption, in one program", () => {
  let d: ProviderEnv;
  let p: InProcessProgram;
  /** A run as the CLI suites report one: its steps, or the error it stopped with. */
  const run = async (op: "preview" | "up" | "refresh", decls?: Decl[]): Promise<Report> => {
    try {
      return { steps: await (op === "refresh" ? p.refresh() : p[op](decls)) };
    } catch (e) {
      return { steps: [], error: (e as Error).message };
    }
  };
  const resource = (name: string) => p.resource(name);
  /** Objects made in the GitBook app before the program first runs. */
  const made = {} as Record<"partner" | "link" | "sponsored" | "adopted" | "replaceSite" | "section" | "other", string>;
  let space0: string;
  let space1: string;

  /**
   * The program at each stage: `adopt` first, then `declare` adds declared fields; `moved` also moves
   * the section to another space and `typed` also follows the app's change of the subject's type (both
   * replacing changes, with adoptId still set); `removed` makes both changes without adoptId.
   */
  const program = (stage: "adopt" | "declare" | "moved" | "typed" | "removed"): Decl[] => {
    const later = stage !== "adopt";
    const moved = stage === "moved" || stage === "removed";
    const typed = stage === "typed" || stage === "removed";
    const keepAdoptId = stage !== "removed";
    return [
      // A share-link site and its revoked link: adopted, and only declared fields converged.
      { kind: "Site", name: "site", args: { title: "Partner Docs", adoptId: later ? made.other : made.partner } },
      { kind: "ShareLink", name: "link", args: { siteId: ref("site.id"), name: "Partner", adoptId: made.link, ...(later ? { active: true } : {}) } },
      // A site whose type the program leaves to GitBook; then declares another type, which replaces it.
      { kind: "Site", name: "typeless", args: { title: "Typeless Docs", ...(later ? { type: "premium" } : {}) } },
      // A sponsored site adopted without declaring its type; then declared as the type it has.
      { kind: "Site", name: "sponsored", args: { title: "Sponsored Docs", adoptId: made.sponsored, ...(later ? { type: "sponsored" } : {}) } },
      // Site (replaced create-first): its type changed in the app, and the program follows it.
      { kind: "Site", name: "subject", args: { title: "Adopted Docs", ...(keepAdoptId ? { adoptId: made.adopted } : {}), ...(typed ? { type: "premium" } : {}) } },
      // SiteSection (replaced delete-first): its spaceId changed in the program.
      { kind: "Site", name: "rsite", args: { title: "Replace Docs", adoptId: made.replaceSite } },
      {
        kind: "SiteSection",
        name: "section",
        args: { siteId: ref("rsite.id"), spaceId: moved ? space1 : space0, title: "Guides", ...(keepAdoptId ? { adoptId: made.section } : {}) },
      },
    ];
  };

  beforeAll(async () => {
    d = await startProviderEnv();
    p = inProcessProgram(d);
    [space0, space1] = d.emu.seeded.spaceIds as [string, string];
    const post = async (path: string, body: Record<string, unknown>) => (await api(d.emu, "POST", `/orgs/${org(d)}${path}`, body)).id as string;
    made.partner = await post("/sites", { title: "Partner Docs", visibility: "share-link" });
    made.link = await post(`/sites/${made.partner}/share-links`, { name: "Partner" });
    await api(d.emu, "PATCH", `/orgs/${org(d)}/sites/${made.partner}/share-links/${made.link}`, { active: false });
    made.sponsored = await post("/sites", { title: "Sponsored Docs", type: "sponsored" });
    made.adopted = await post("/sites", { title: "Adopted Docs" });
    made.replaceSite = await post("/sites", { title: "Replace Docs" });
    made.section = await post(`/sites/${made.replaceSite}/sections`, { spaceId: space0, title: "Guides" });
    made.other = await post("/sites", { title: "Someone Else's Docs" });
  });
  afterAll(async () => d?.close());

  it("previews every adoption as a create", async () => {
    const preview = await run("preview", program("adopt"));
    expect(preview.error).toBeUndefined();
    expect(steps(preview).sort()).toEqual(["create link", "create rsite", "create section", "create site", "create sponsored", "create subject", "create typeless"]);
  });

  it("adopts each object, writing nothing to any: the share-link site and its revoked link, a sponsored site", async () => {
    d.emu.log.reset();
    const r = await run("up", program("adopt"));
    expect(r.error).toBeUndefined();
    for (const [name, id] of [["site", made.partner], ["link", made.link], ["sponsored", made.sponsored], ["subject", made.adopted], ["rsite", made.replaceSite], ["section", made.section]]) {
      expect(resource(name!).id, name).toBe(id);
    }
    // The one write is the creation of the site no adoptId names.
    expect(d.emu.log.entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.route}`)).toEqual(["POST /v1/orgs/:org/sites"]);
    expect(d.emu.store.sites.get(made.partner)).toMatchObject({ visibility: "share-link", type: "ultimate" });
    expect(d.emu.store.shareLinks.get(made.link)!.active).toBe(false);
    expect(d.emu.store.sites.get(made.sponsored)!.type).toBe("sponsored");
    // The outputs say what the objects really are.
    expect(resource("site").outputs).toMatchObject({ visibility: "share-link", type: "ultimate" });
    expect(resource("link").outputs).toMatchObject({ active: false });
  });

  it("a site's type the program does not declare is not sent: GitBook makes the site ultimate", () => {
    expect(d.emu.store.sites.get(resource("typeless").id)!.type).toBe("ultimate");
    expect(resource("typeless").outputs.type).toBe("ultimate");
  });

  it("a refresh finds nothing changed on any adopted object, and writes nothing", async () => {
    d.emu.log.reset();
    const refreshed = await run("refresh");
    expect(refreshed.error).toBeUndefined();
    expect(refreshed.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
    expect(d.emu.store.shareLinks.get(made.link)!.active).toBe(false);
    expect(d.emu.store.sites.get(made.partner)!.visibility).toBe("share-link");
  });

  describe("once the program declares more", () => {
    let r: Report;
    let typeless: string;
    beforeAll(async () => {
      typeless = resource("typeless").id;
      d.emu.log.reset();
      r = await run("up", program("declare"));
    });

    it("changes only the declared field of an adopted object, once", () => {
      expect(r.error).toBeUndefined();
      expect(r.steps.find((s) => s.name === "link")).toMatchObject({ op: "update", changed: expect.arrayContaining(["active"]) });
      expect(d.emu.log.entries.filter((e) => e.route.includes("share-links") && e.method !== "GET")).toHaveLength(1);
      expect(d.emu.store.shareLinks.get(made.link)!.active).toBe(true);
      expect(d.emu.store.sites.get(made.partner)!.visibility).toBe("share-link");
    });

    it("a type declared as the one the site has changes nothing; declared as another, replaces the site", () => {
      expect(changes(r).sort()).toEqual(["replace typeless", "update link"]);
      expect(r.steps.find((s) => s.name === "typeless")).toMatchObject({ op: "replace", replaces: ["type"] });
      expect(resource("typeless").id).not.toBe(typeless);
      expect(d.emu.store.sites.get(made.sponsored)!.type).toBe("sponsored");
    });

    it("ignores a changed adoptId once the resource is in state", () => {
      expect(resource("site").id).toBe(made.partner);
      expect(d.emu.store.sites.get(made.other)!.title).toBe("Someone Else's Docs");
      // Besides the link's PATCH, only the replacement of `typeless`: its create and its old site's delete.
      expect(d.emu.log.entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.route}`).sort()).toEqual(
        ["DELETE /v1/orgs/:org/sites/:site", "PATCH /v1/orgs/:org/sites/:site/share-links/:shareLink", "POST /v1/orgs/:org/sites"].sort(),
      );
    });
  });

  // A refusal fails diff, which ends the engine's run (--continue-on-error does not go on past it), so
  // each kind is refused by a run of its own, as through the CLI.
  it("refuses a replacing change while adoptId is set: SiteSection (replaced delete-first), deleting nothing", async () => {
    d.emu.log.reset();
    const r = await run("up", program("moved"));
    expect(r.error).toMatch(/SiteSection section: adoptId: spaceId changed, which replaces the resource.*Remove adoptId/);
    expect(d.emu.log.writes()).toBe(0);
    expect(resource("section").id).toBe(made.section);
    expect(d.emu.store.sections.get(made.section)).toMatchObject({ spaceId: space0 });
  });

  it("refuses it for Site (replaced create-first): never adopts the site it would then delete, even when it already matches the program", async () => {
    // The plan changes in the app, and the program follows without a refresh: state says ultimate, the
    // site is premium, so diff plans a replacement whose create would find adoptId's site matching.
    d.emu.store.sites.get(made.adopted)!.type = "premium";
    d.emu.log.reset();
    const r = await run("up", program("typed"));
    expect(r.error).toMatch(/Site subject: adoptId: type changed, which replaces the resource.*Remove adoptId/);
    expect(d.emu.log.writes()).toBe(0);
    expect(resource("subject").id).toBe(made.adopted);
    expect(d.emu.store.sites.has(made.adopted)).toBe(true);
  });

  it("replaces both once adoptId is removed, creating new objects, and the next run has nothing to do", async () => {
    const r = await run("up", program("removed"));
    expect(r.error).toBeUndefined();
    expect(changes(r).sort()).toEqual(["replace section", "replace subject"]);
    expect(r.steps.find((s) => s.name === "subject")).toMatchObject({ op: "replace", replaces: ["type"] });
    const section = resource("section").id;
    expect(section).not.toBe(made.section);
    expect(d.emu.store.sections.has(made.section)).toBe(false);
    expect(d.emu.store.sections.get(section)).toMatchObject({ spaceId: space1 });
    const site = resource("subject").id;
    expect(site).not.toBe(made.adopted);
    expect(d.emu.store.sites.has(made.adopted)).toBe(false);
    expect(d.emu.store.sites.get(site)).toMatchObject({ type: "premium", title: "Adopted Docs" });

    d.emu.log.reset();
    const again = await run("up");
    expect(again.error).toBeUndefined();
    expect(steps(again).filter((s) => !s.startsWith("same "))).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
  });
});
