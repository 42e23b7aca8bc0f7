/**
 * Namesakes and lost creates, through the real CLI in one stack (both programs side by side):
 *
 * A create whose request never reached GitBook, next to an object of the same name someone made in the
 * app. Collections carry no creation time, and recovery used to take any unheld namesake: the app's
 * "Guides" collection was edited to the program's values, recorded in state, and deleted by destroy
 * with the spaces in it. Recovery now adopts only an object absent from the listing it took just before
 * its first POST: the app's collection was there, so the create is sent again and makes the program's own.
 *
 * Names need not be unique either: two ShareLinks named "Partner" on one site. The first POST is carried
 * out and its answer lost; the second is answered and made later. Recovery must take the link the lost
 * POST made, not the newest "Partner" (the other resource's), or both resources hold one link and the
 * first stays live, active and unmanaged.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { CollectionRecord } from "../../emulator/store";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });
const LINKS = "/v1/orgs/:org/sites/:site/share-links";

describeDeployments("namesakes: an app-made collection, two same-named share links, their first creates lost", () => {
  let d: Deployment;
  let app: CollectionRecord;
  let appSpace: string;
  const decls: Decl[] = [
    { kind: "Collection", name: "guides", args: { title: "Guides", description: "The program's guides" } },
    { kind: "Site", name: "site", args: { title: "Partner Docs", visibility: "share-link" } },
    { kind: "Site", name: "later", args: { title: "Registered Later" } },
    { kind: "ShareLink", name: "partnerA", args: { siteId: ref("site.id"), name: "Partner" } },
    // Waits for another create, so its POST reaches the API strictly after the first one's.
    { kind: "ShareLink", name: "partnerB", args: { siteId: ref("site.id"), name: "Partner" }, dependsOn: ["later"] },
  ];
  const guides = () => [...d.emu.store.collections.values()].filter((c) => c.title === "Guides");

  beforeAll(async () => {
    d = await startDeployment();
    // Made in the app: a "Guides" collection holding one of the organization's spaces.
    app = { ...d.emu.store.newId("col"), orgId: d.emu.seeded.organizationId, title: "Guides", description: "Written by the support team", defaultLevel: "inherit" };
    d.emu.store.collections.set(app.id, app);
    appSpace = d.emu.seeded.spaceIds[0]!;
    d.emu.store.spaces.get(appSpace)!.parentId = app.id;
  });
  afterAll(async () => d?.close());

  let appBefore: CollectionRecord;
  let lostCollection: { hits: number };
  let lostLink: { hits: number };
  beforeAll(async () => {
    appBefore = structuredClone(app);
    lostCollection = d.emu.faults.add({ match: { method: "POST", route: "/v1/orgs/:org/collections" }, dropBeforeProcess: true, times: 1 });
    lostLink = d.emu.faults.add({ match: { method: "POST", route: LINKS }, dropAfterProcess: true, times: 1 });
    // The lost link create looks for its link only once the second POST has been carried out.
    d.emu.faults.add({ match: { method: "GET", route: LINKS }, latencyMs: 400, times: 1 });
    const r = await d.run("up", decls);
    expect(r.error).toBeUndefined();
  });

  it("creates the program's own collection and leaves the app's untouched", () => {
    expect(lostCollection.hits).toBe(1);
    expect(guides()).toHaveLength(2);
    expect(d.emu.store.collections.get(app.id)).toEqual(appBefore);
    const ours = d.resource("guides").id!;
    expect(ours).not.toBe(app.id);
    expect(d.emu.store.collections.get(ours)).toMatchObject({ title: "Guides", description: "The program's guides" });
    expect(d.resource("guides").outputs).toMatchObject({ description: "The program's guides" });
  });

  it("binds each ShareLink to its own link and leaves no orphan", () => {
    expect(lostLink.hits).toBe(1);
    const a = d.resource("partnerA").id!;
    const b = d.resource("partnerB").id!;
    expect(a).not.toBe(b);
    // Exactly the two links state names, both active: nothing left behind unmanaged.
    expect([...d.emu.store.shareLinks.keys()].sort()).toEqual([a, b].sort());
    expect([...d.emu.store.shareLinks.values()].map((l) => l.active)).toEqual([true, true]);
    expect([...d.emu.store.sites.keys()].sort()).toEqual([d.resource("site").id, d.resource("later").id].sort());
  });

  it("destroys only the program's objects, leaving the app's collection and its space alone", async () => {
    const r = await d.run("destroy");
    expect(r.error).toBeUndefined();
    expect(guides().map((c) => c.id)).toEqual([app.id]);
    expect([d.emu.store.shareLinks.size, d.emu.store.sites.size]).toEqual([0, 0]);
    const space = d.emu.store.spaces.get(appSpace)!;
    expect(space.deletedAt).toBeUndefined();
    expect(space.parentId).toBe(app.id);
  });
});
