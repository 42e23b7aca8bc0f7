/**
 * A create whose request never reached GitBook, next to an object of the same name someone made in the
 * app. Collections carry no creation time, and recovery used to take any unheld namesake: the app's
 * "Guides" collection was edited to the program's values, recorded in state, and deleted by destroy
 * with the spaces in it. Recovery now adopts only an object absent from the listing it took just before
 * its first POST: the app's collection was there, so the create is sent again and makes the program's own.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { CollectionRecord } from "../../emulator/store";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

describeDeployments("an app-made collection named like the program's, the program's first create dropped", () => {
  let d: Deployment;
  let app: CollectionRecord;
  let appSpace: string;
  const decls: Decl[] = [{ kind: "Collection", name: "guides", args: { title: "Guides", description: "The program's guides" } }];
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

  it("creates the program's own collection and leaves the app's untouched", async () => {
    const before = structuredClone(app);
    const lost = d.emu.faults.add({ match: { method: "POST", route: "/v1/orgs/:org/collections" }, dropBeforeProcess: true, times: 1 });
    const r = await d.run("up", decls);
    expect(r.error).toBeUndefined();
    expect(lost.hits).toBe(1);
    expect(guides()).toHaveLength(2);
    expect(d.emu.store.collections.get(app.id)).toEqual(before);
    const ours = d.resource("guides").id!;
    expect(ours).not.toBe(app.id);
    expect(d.emu.store.collections.get(ours)).toMatchObject({ title: "Guides", description: "The program's guides" });
    expect(d.resource("guides").outputs).toMatchObject({ description: "The program's guides" });
  });

  it("destroys only the program's collection, leaving the app's and its space alone", async () => {
    const r = await d.run("destroy");
    expect(r.error).toBeUndefined();
    expect(guides().map((c) => c.id)).toEqual([app.id]);
    const space = d.emu.store.spaces.get(appSpace)!;
    expect(space.deletedAt).toBeUndefined();
    expect(space.parentId).toBe(app.id);
  });
});
