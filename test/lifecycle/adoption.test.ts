/**
 * Adoption through the dynamic-provider host, as a user meets it:
 * - it converges only what the program declares: a share-link site stays share-link and a revoked
 *   link stays revoked when the program does not declare `visibility` or `active` (issue 11, item 1);
 * - a site's `type` is sent and managed only when declared, so adopting a site of another type than
 *   the old default is not refused (item 2);
 * - `adoptId` affects only the first creation: a replacing change with `adoptId` still in the program
 *   fails at preview, before anything is deleted, saying to remove it (issue 19: a replacement's create
 *   sees `adoptId`, and only memory of the run could tell it the object is the one being replaced), for
 *   a kind replaced delete-first (SiteSection) and create-first (Site); once removed, the replacement
 *   creates a new object. No path adopts the object it then deletes.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { api, ref } from "../support/scenarios";

const org = (d: Deployment) => d.emu.seeded.organizationId;

describeDeployments("adoption converges only what the program declares", () => {
  let d: Deployment;
  let siteId: string;
  let linkId: string;
  const program = (): Decl[] => [
    { kind: "Site", name: "site", args: { title: "Partner Docs", adoptId: siteId } },
    { kind: "ShareLink", name: "link", args: { siteId: ref("site.id"), name: "Partner", adoptId: linkId } },
  ];

  beforeAll(async () => {
    d = await startDeployment();
    // Made in the GitBook app: a share-link site, and a link to it that was revoked.
    siteId = (await api(d.emu, "POST", `/orgs/${org(d)}/sites`, { title: "Partner Docs", visibility: "share-link" })).id;
    linkId = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${siteId}/share-links`, { name: "Partner" })).id;
    await api(d.emu, "PATCH", `/orgs/${org(d)}/sites/${siteId}/share-links/${linkId}`, { active: false });
  });
  afterAll(async () => d?.close());

  it("keeps the site's visibility and the link revoked, sending no write", async () => {
    const preview = await d.run("preview", program());
    expect(preview.error).toBeUndefined();
    expect(steps(preview)).toEqual(["create site", "create link"]);
    d.emu.log.reset();
    const r = await d.run("up");
    expect(r.error).toBeUndefined();
    expect(d.resource("site").id).toBe(siteId);
    expect(d.resource("link").id).toBe(linkId);
    expect(d.emu.log.writes()).toBe(0);
    expect(d.emu.store.sites.get(siteId)).toMatchObject({ visibility: "share-link", type: "ultimate" });
    expect(d.emu.store.shareLinks.get(linkId)!.active).toBe(false);
    // The outputs say what the objects really are.
    expect(d.resource("site").outputs).toMatchObject({ visibility: "share-link", type: "ultimate" });
    expect(d.resource("link").outputs).toMatchObject({ active: false });
  });

  it("leaves them alone on later runs, and a refresh finds nothing changed", async () => {
    d.emu.log.reset();
    const again = await d.run("up");
    expect(steps(again).filter((s) => !s.startsWith("same "))).toEqual([]);
    const refreshed = await d.run("refresh");
    expect(refreshed.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
    expect(d.emu.store.shareLinks.get(linkId)!.active).toBe(false);
    expect(d.emu.store.sites.get(siteId)!.visibility).toBe("share-link");
  });

  it("changes only the declared field once the program declares it", async () => {
    const declared = program();
    declared[1]!.args.active = true;
    d.emu.log.reset();
    const r = await d.run("up", declared);
    expect(r.steps.find((s) => s.name === "link")).toMatchObject({ op: "update" });
    expect(d.emu.log.writes()).toBe(1);
    expect(d.emu.store.shareLinks.get(linkId)!.active).toBe(true);
    expect(d.emu.store.sites.get(siteId)!.visibility).toBe("share-link");
  });
});

describeDeployments("a site's type", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("is not sent when the program does not declare it: GitBook makes the site ultimate", async () => {
    const r = await d.run("up", [{ kind: "Site", name: "site", args: { title: "Typeless Docs" } }]);
    expect(r.error).toBeUndefined();
    expect(d.emu.store.sites.get(d.resource("site").id!)!.type).toBe("ultimate");
    expect(d.resource("site").outputs.type).toBe("ultimate");
  });

  it("declared as the type the site has, changes nothing; declared as another, replaces the site", async () => {
    const same = await d.run("preview", [{ kind: "Site", name: "site", args: { title: "Typeless Docs", type: "ultimate" } }]);
    expect(steps(same)).toEqual(["same site"]);
    const other = await d.run("preview", [{ kind: "Site", name: "site", args: { title: "Typeless Docs", type: "premium" } }]);
    expect(other.steps.find((s) => s.name === "site")).toMatchObject({ op: "replace", replaces: ["type"] });
  });

  it("is not a reason to refuse adopting a site when the program does not declare it", async () => {
    const existing = (await api(d.emu, "POST", `/orgs/${org(d)}/sites`, { title: "Sponsored Docs", type: "sponsored" })).id;
    d.emu.log.reset();
    const r = await d.run("up", [
      { kind: "Site", name: "site", args: { title: "Typeless Docs" } },
      { kind: "Site", name: "adopted", args: { title: "Sponsored Docs", adoptId: existing } },
    ]);
    expect(r.error).toBeUndefined();
    expect(d.resource("adopted").id).toBe(existing);
    expect(d.emu.log.writes()).toBe(0);
    expect(d.emu.store.sites.get(existing)!.type).toBe("sponsored");
  });
});

describeDeployments("adoptId with a replacing change", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("SiteSection (replaced delete-first): refuses the replacement while adoptId is set, deleting nothing, then replaces once it is removed", async () => {
    const [space0, space1] = d.emu.seeded.spaceIds as [string, string];
    const site: Decl = { kind: "Site", name: "site", args: { title: "Replace Docs" } };
    expect((await d.run("up", [site])).error).toBeUndefined();
    const siteId = d.resource("site").id!;
    const adopted = (await api(d.emu, "POST", `/orgs/${org(d)}/sites/${siteId}/sections`, { spaceId: space0, title: "Guides" })).id as string;
    const section = (spaceId: string, adopt = true): Decl => ({
      kind: "SiteSection",
      name: "section",
      args: { siteId: ref("site.id"), spaceId, title: "Guides", ...(adopt ? { adoptId: adopted } : {}) },
    });

    const first = await d.run("up", [site, section(space0)]);
    expect(first.error).toBeUndefined();
    expect(d.resource("section").id).toBe(adopted);

    // adoptId stays in the program; spaceId forces a replacement.
    d.emu.log.reset();
    const preview = await d.run("preview", [site, section(space1)]);
    expect(preview.error).toMatch(new RegExp(`SiteSection section: adoptId: spaceId changed, which replaces the resource.*Remove adoptId`));
    const r = await d.run("up");
    expect(r.error).toMatch(/adoptId: spaceId changed, which replaces the resource.*Remove adoptId/);
    expect(d.emu.log.writes()).toBe(0);
    expect(d.resource("section").id).toBe(adopted);
    expect(d.emu.store.sections.get(adopted)).toMatchObject({ spaceId: space0 });

    const replaced = await d.run("up", [site, section(space1, false)]);
    expect(replaced.error).toBeUndefined();
    const replacement = d.resource("section").id!;
    expect(replacement).not.toBe(adopted);
    expect(d.emu.store.sections.has(adopted)).toBe(false);
    expect(d.emu.store.sections.get(replacement)).toMatchObject({ spaceId: space1 });

    d.emu.log.reset();
    const again = await d.run("up");
    expect(again.error).toBeUndefined();
    expect(steps(again).filter((s) => !s.startsWith("same "))).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
  }, 300_000);

  it("Site (replaced create-first): never adopts the site it would then delete, even when the site already matches the program", async () => {
    const adopted = (await api(d.emu, "POST", `/orgs/${org(d)}/sites`, { title: "Adopted Docs" })).id as string;
    const site = (extra: Record<string, unknown>, adopt = true): Decl => ({
      kind: "Site",
      name: "subject",
      args: { title: "Adopted Docs", ...(adopt ? { adoptId: adopted } : {}), ...extra },
    });

    const first = await d.run("up", [site({})]);
    expect(first.error).toBeUndefined();
    expect(d.resource("subject").id).toBe(adopted);

    // The plan changes in the app, and the program follows without a refresh: state says ultimate, the
    // site is premium, so diff plans a replacement whose create would find adoptId's site matching.
    d.emu.store.sites.get(adopted)!.type = "premium";
    d.emu.log.reset();
    const r = await d.run("up", [site({ type: "premium" })]);
    expect(r.error).toMatch(/Site subject: adoptId: type changed, which replaces the resource.*Remove adoptId/);
    expect(d.emu.log.writes()).toBe(0);
    expect(d.resource("subject").id).toBe(adopted);
    expect(d.emu.store.sites.has(adopted)).toBe(true);

    const replaced = await d.run("up", [site({ type: "premium" }, false)]);
    expect(replaced.error).toBeUndefined();
    expect(replaced.steps.find((s) => s.name === "subject")).toMatchObject({ op: "replace", replaces: ["type"] });
    const replacement = d.resource("subject").id!;
    expect(replacement).not.toBe(adopted);
    expect(d.emu.store.sites.has(adopted)).toBe(false);
    expect(d.emu.store.sites.get(replacement)).toMatchObject({ type: "premium", title: "Adopted Docs" });

    d.emu.log.reset();
    const again = await d.run("up");
    expect(steps(again).filter((s) => !s.startsWith("same "))).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
  }, 300_000);

  it("ignores a changed adoptId once the resource is in state", async () => {
    const other = (await api(d.emu, "POST", `/orgs/${org(d)}/sites`, { title: "Someone Else's Docs" })).id as string;
    const id = d.resource("subject").id!;
    d.emu.log.reset();
    const r = await d.run("up", [{ kind: "Site", name: "subject", args: { title: "Adopted Docs", type: "premium", adoptId: other } }]);
    expect(r.error).toBeUndefined();
    expect(d.resource("subject").id).toBe(id);
    expect(d.emu.log.writes()).toBe(0);
    expect(d.emu.store.sites.get(other)!.title).toBe("Someone Else's Docs");
  });
});
