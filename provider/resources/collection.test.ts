import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GitbookClient } from "../client";
import { startProviderEnv, rejectsAtCheck, type BadInput, type ProviderEnv, type State } from "../../test/support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());
afterEach(() => vi.restoreAllMocks());

const COLLECTIONS = /\/orgs\/:org\/collections$/;

const live = (id: string) => env.emu.store.collections.get(id);
const created = async (args: Record<string, unknown> = {}): Promise<State> => (await env.up("Collection", { title: "Products", ...args })).state;

/** What the provider sent, observed at the client (the emulator logs no bodies): `METHOD path` and body. */
function spySent(): () => [string, unknown][] {
  const spy = vi.spyOn(GitbookClient.prototype, "request");
  return () => spy.mock.calls.filter((c) => c[0] !== "GET").map((c) => [`${c[0]} ${c[1]}`, (c[2] as { body?: unknown } | undefined)?.body]);
}

describe("check", () => {
  const bad: BadInput[] = [
    // "" is a title GitBook's spec allows (no minLength): see importer/adopt.test.ts.
    ["title", { title: "t".repeat(51) }, /^title must be at most 50 characters/],
    ["description", { description: "" }, /^description must be 1 to 100 characters/],
    ["description", { description: "d".repeat(101) }, /^description must be 1 to 100 characters/],
    ["parent", { parent: "" }, /^parent must not be empty/],
    ["defaultLevel", { defaultLevel: "guest" }, /^defaultLevel must be one of admin, create, review, edit, comment, read, inherit, or null for no access/],
  ];
  rejectsAtCheck(() => env, "Collection", { title: "Products" }, bad);

  it("requires a title", async () => {
    expect((await env.check("Collection", {})).failures).toEqual([{ property: "title", reason: "title is required" }]);
  });
});

describe("create", () => {
  it("sends one POST when the program declares only a title and a parent", async () => {
    const top = await created();
    const sent = spySent();
    const sub = await created({ title: "Widgets", parent: top.id });
    expect(sent()).toEqual([[`POST /orgs/${env.org}/collections`, { title: "Widgets", parent: top.id }]]);
    expect(live(sub.id)).toMatchObject({ title: "Widgets", parentId: top.id, description: "", defaultLevel: "inherit" });
    expect(sub.outs).toEqual({
      organizationId: env.org,
      title: "Widgets",
      parent: top.id,
      urls: { location: `${env.emu.url}/v1/collections/${sub.id}`, app: expect.stringContaining(sub.id) },
    });
  });

  it("sets a description and a default level with one PATCH after the POST", async () => {
    const sent = spySent();
    const c = await created({ description: "Everything we sell", defaultLevel: null });
    expect(sent()).toEqual([
      [`POST /orgs/${env.org}/collections`, { title: "Products" }],
      [`PATCH /collections/${c.id}`, { description: "Everything we sell", defaultLevel: null }],
    ]);
    expect(live(c.id)).toMatchObject({ description: "Everything we sell", defaultLevel: null });
  });

  it("creates once when the POST's answer is lost", async () => {
    env.emu.faults.add({ match: { method: "POST", route: COLLECTIONS }, dropAfterProcess: true, times: 1 });
    env.emu.log.reset();
    const r = await env.up("Collection", { title: "Lost answer" });
    const made = [...env.emu.store.collections.values()].filter((c) => c.title === "Lost answer");
    expect(made.map((c) => c.id)).toEqual([r.state.id]);
    expect(env.emu.log.count({ method: "POST", route: COLLECTIONS })).toBe(1);
  });
});

describe("update and removal", () => {
  it("sends nothing when nothing changed, only what changed otherwise, and moves in place", async () => {
    const a = await created({ title: "A" });
    const c = await created({ title: "Tools", description: "Hand tools" });
    env.emu.log.reset();
    expect((await env.up("Collection", { title: "Tools", description: "Hand tools" }, c)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    const sent = spySent();
    const r = await env.up("Collection", { title: "Tools", description: "Power tools", parent: a.id }, c);
    expect(r.state.id).toBe(c.id);
    expect(sent()).toEqual([
      [`PATCH /collections/${c.id}`, { description: "Power tools" }],
      [`POST /collections/${c.id}/move`, { parent: a.id }],
    ]);
    expect(live(c.id)).toMatchObject({ description: "Power tools", parentId: a.id });
  });

  it("clears the description with \"\", sets the default level back to inherit, and moves to the top level", async () => {
    const a = await created({ title: "Home" });
    const c = await created({ title: "Leaving", parent: a.id, description: "Soon gone", defaultLevel: "read" });
    const sent = spySent();
    const r = await env.up("Collection", { title: "Leaving" }, c);
    expect(sent()).toEqual([
      [`PATCH /collections/${c.id}`, { description: "", defaultLevel: "inherit" }],
      [`POST /collections/${c.id}/move`, { parent: null }],
    ]);
    expect(live(c.id)).toMatchObject({ description: "", defaultLevel: "inherit" });
    expect(live(c.id)!.parentId).toBeUndefined();
    expect(r.state.outs).toEqual({ organizationId: env.org, title: "Leaving", urls: c.outs.urls });
  });
});

describe("refresh", () => {
  it("shows drift made in the app, and converges it on the next up", async () => {
    const a = await created({ title: "Drift home" });
    const c = await created({ title: "Drifting", description: "As declared", parent: a.id, defaultLevel: "edit" });
    Object.assign(live(c.id)!, { title: "Renamed in the app", description: "", defaultLevel: "read" });
    delete live(c.id)!.parentId;
    env.outOfBand();
    const refreshed = (await env.refresh("Collection", c))!;
    expect(refreshed.inputs).toEqual({ organizationId: env.org, title: "Renamed in the app", defaultLevel: "read" });
    const r = await env.up("Collection", { title: "Drifting", description: "As declared", parent: a.id, defaultLevel: "edit" }, refreshed.state);
    expect(r.step).toBe("update");
    expect(live(c.id)).toMatchObject({ title: "Drifting", description: "As declared", parentId: a.id, defaultLevel: "edit" });
  });

  it("drops a collection deleted outside Pulumi, and deletes idempotently", async () => {
    const c = await created();
    env.emu.store.collections.delete(c.id);
    env.outOfBand();
    expect(await env.refresh("Collection", c)).toBeUndefined();
    await env.destroy("Collection", c);
  });

  it("deletes the collection", async () => {
    const c = await created();
    await env.destroy("Collection", c);
    expect(live(c.id)).toBeUndefined();
  });

  it("refuses to delete a collection holding a space made in the app, counting the pages that would go to the trash with it, and sends no DELETE", async () => {
    const c = await created();
    // Made in the app, out of this stack: one written in, one as GitBook made it (its one page never edited).
    const written = (await env.up("Space", { title: "Runbooks", parent: c.id })).state.id;
    const blank = (await env.up("Space", { title: "Blank", parent: c.id })).state.id;
    env.emu.store.writePages(written, ["On call", "Incidents"]);
    env.outOfBand();
    env.emu.log.reset();
    await expect(env.destroy("Collection", c)).rejects.toThrow(
      new RegExp(`would also delete what it still holds.*Space "Runbooks" \\(${written}, 3 pages\\), Space "Blank" \\(${blank}\\)\\..*Nothing was deleted.*formerKeys.*set forceDestroy: true on this Collection.*retainOnDelete`),
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(live(c.id)).toBeDefined();
    await env.destroy("Collection", { ...c, outs: { ...c.outs, forceDestroy: true } });
    expect(env.emu.store.spaces.get(written)!.deletedAt).toBeDefined();
  });
});

describe("adoption", () => {
  it("adopts a collection whose settings match the program without writing anything", async () => {
    const home = await created({ title: "Adopted home" });
    const existing = await created({ title: "Existing", parent: home.id, description: "Kept", defaultLevel: "comment" });
    env.emu.log.reset();
    const r = await env.up("Collection", { title: "Existing", parent: home.id, description: "Kept", defaultLevel: "comment", adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.writes()).toBe(0);
  });

  it("changes only what the program declares on an adopted collection", async () => {
    const existing = await created({ title: "Legacy", description: "Old words", defaultLevel: null });
    const sent = spySent();
    await env.up("Collection", { title: "Adopted", adoptId: existing.id });
    expect(sent()).toEqual([[`PATCH /collections/${existing.id}`, { title: "Adopted" }]]);
    expect(live(existing.id)).toMatchObject({ title: "Adopted", description: "Old words", defaultLevel: null });
  });
});
