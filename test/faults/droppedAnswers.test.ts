/**
 * "Process, then drop the connection": the API does the write and the answer never arrives. A POST
 * resent blindly would make a second object; a PATCH or DELETE resent is harmless. The provider must
 * recover every lost create by finding what it made, and finish the run as if nothing happened.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { FaultHandle } from "../../emulator/faults";
import { describeDeployments, type Deployment } from "../support/lifecycle";
import { deploy, expectConvergedRerun, expectExactlyDeclared, expectNothingLeft, expectStateMatchesEmulator, expectTokenNowhere, topology } from "./topology";

/**
 * The first answer on every route of these methods is lost. (A fault limited by count per method
 * would land every loss on one request when the harness deletes one resource at a time.)
 */
function loseFirstAnswer(d: Deployment, methods: string[]): FaultHandle[] {
  return d.emu
    .routes()
    .map((r) => r.split(" ") as [string, string])
    .filter(([m, route]) => methods.includes(m) && route !== "/v1/orgs/:org/teams")
    .map(([method, route]) => d.emu.faults.add({ match: { method, route }, dropAfterProcess: true, times: 1 }));
}

/** Every POST but publishing and unpublishing a site. */
const NOT_PUBLISHING = /^(?!.*\/(un)?publish$)/;

describeDeployments("every write's answer lost after the API processed it", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deploy();
  });
  afterAll(async () => d?.close());

  it("converges from empty with exactly one object per resource, though no create ever got its answer", async () => {
    const decls = topology(d.emu);
    // Every create, forever: each one must be recovered by finding the object, never by sending again.
    // (Publishing is a POST too, but one that may be resent: its first answer is lost below.)
    const posts = d.emu.faults.add({ match: { method: "POST", route: NOT_PUBLISHING }, dropAfterProcess: true });
    // Team creation is a PUT on the collection: as unsafe to resend as a POST.
    const teamPut = d.emu.faults.add({ match: { method: "PUT", route: "/v1/orgs/:org/teams" }, dropAfterProcess: true });
    // Updates, membership, deletes: the first answer on every route is lost; resending those is safe.
    const firstAnswers = loseFirstAnswer(d, ["PATCH", "PUT"]);
    const publish = d.emu.faults.add({ match: { method: "POST", route: "/v1/orgs/:org/sites/:site/publish" }, dropAfterProcess: true, times: 1 });
    const r = await d.run("up", decls);
    expect(r.error).toBeUndefined();
    // One per object a POST creates: 15 of the program's resources and 7 of the DocsSite's children.
    expect(posts.hits).toBe(22);
    expect(teamPut.hits).toBe(1);
    expect(firstAnswers.filter((f) => f.hits === 1).map((f) => f.spec.match!.route)).toEqual(expect.arrayContaining([
      "/v1/orgs/:org/sites/:site",
      "/v1/orgs/:org/sites/:site/sections/:section",
      "/v1/orgs/:org/sites/:site/site-spaces/:siteSpace",
      "/v1/orgs/:org/sites/:site/share-links/:shareLink",
      "/v1/orgs/:org/openapi/:slug",
      "/v1/orgs/:org/teams/:team/members",
    ]));
    expect(publish.hits).toBe(1);
    // No create was sent twice: one per object created.
    expect(d.emu.log.count({ method: "POST", route: NOT_PUBLISHING })).toBe(posts.hits);
    expectExactlyDeclared(d, decls);
  });

  it("destroys everything though the first DELETE answers are lost, leaving nothing behind", async () => {
    const deletes = loseFirstAnswer(d, ["DELETE"]);
    const r = await d.run("destroy");
    expect(r.error).toBeUndefined();
    // One lost answer per kind of object deleted: site, section, site space, share link, team, SSO, spec,
    // collection, space, section group, external link.
    expect(deletes.filter((f) => f.hits === 1)).toHaveLength(11);
    expectNothingLeft(d);
  });

  it("re-runs to the same result with the faults gone, and never wrote the token anywhere", async () => {
    const decls = topology(d.emu);
    await expectConvergedRerun(d, decls);
    expectTokenNowhere(d, [d.emu.token]);
  });
});

/**
 * Names need not be unique: two ShareLinks named "Partner" on one site. The first POST is carried out
 * and its answer lost; the second is answered and made later. Recovery must take the link the lost
 * POST made, not the newest "Partner" (the other resource's), or both resources hold one link and the
 * first stays live, active and unmanaged.
 */
describeDeployments("two same-named objects, the first create's answer lost", () => {
  const ref = (s: string) => ({ $ref: s });
  let d: Deployment;
  beforeAll(async () => {
    d = await deploy();
  });
  afterAll(async () => d?.close());

  it("binds each ShareLink to its own link and leaves no orphan", async () => {
    const decls = [
      { kind: "Site", name: "site", args: { title: "Partner Docs", visibility: "share-link" } },
      { kind: "Site", name: "later", args: { title: "Registered Later" } },
      { kind: "ShareLink", name: "partnerA", args: { siteId: ref("site.id"), name: "Partner" } },
      // Waits for another create, so its POST reaches the API strictly after the first one's.
      { kind: "ShareLink", name: "partnerB", args: { siteId: ref("site.id"), name: "Partner" }, dependsOn: ["later"] },
    ];
    const links = "/v1/orgs/:org/sites/:site/share-links";
    const lost = d.emu.faults.add({ match: { method: "POST", route: links }, dropAfterProcess: true, times: 1 });
    // The lost create looks for its link only once the second POST has been carried out.
    d.emu.faults.add({ match: { method: "GET", route: links }, latencyMs: 400, times: 1 });
    const r = await d.run("up", decls);
    expect(r.error).toBeUndefined();
    expect(lost.hits).toBe(1);
    const a = d.resource("partnerA").id!;
    const b = d.resource("partnerB").id!;
    expect(a).not.toBe(b);
    // Exactly the two links state names, both active: nothing left behind unmanaged.
    expect([...d.emu.store.shareLinks.keys()].sort()).toEqual([a, b].sort());
    expect([...d.emu.store.shareLinks.values()].map((l) => l.active)).toEqual([true, true]);
    expectStateMatchesEmulator(d);
  });
});
