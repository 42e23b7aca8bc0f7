// Routes of spaces and collections (resources/spaces.ts, resources/collections.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectContractViolation } from "../test/support/contract.setup";
import { Emulator } from "./emulator";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let emu: Emulator;
beforeEach(async () => {
  emu = await Emulator.start();
});
afterEach(async () => emu.close());

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { authorization: `Bearer ${emu.token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(emu.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function must(method: string, path: string, body: unknown, status: number): Promise<Json> {
  const r = await call(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
}

async function refused(method: string, path: string, body: unknown, status: number, message: RegExp): Promise<void> {
  const r = await call(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error.message).toMatch(message);
}

const org = () => `/v1/orgs/${emu.seeded.organizationId}`;
const createSpace = (body: object = {}) => must("POST", `${org()}/spaces`, { title: "Handbook", ...body }, 201);
const createCollection = (body: object = {}) => must("POST", `${org()}/collections`, { title: "Products", ...body }, 201);
const spaceIds = async (): Promise<string[]> => (await must("GET", `${org()}/spaces`, undefined, 200)).items.map((s: Json) => s.id);

describe("spaces", () => {
  it("creates a space with what CreateSpace takes, and GitBook's defaults for the rest", async () => {
    const col = await createCollection();
    const s = await createSpace({ emoji: "🎉", parent: col.id, language: "fr", editMode: "locked" });
    expect(s).toMatchObject({
      object: "space",
      title: "Handbook",
      emoji: "🎉",
      parent: col.id,
      language: "fr",
      editMode: "locked",
      defaultLevel: "inherit",
      organization: emu.seeded.organizationId,
      urls: { location: `${emu.url}/v1/spaces/${s.id}` },
    });
    expect(s.urls.icon).toBeUndefined();
    expect(await must("GET", `/v1/spaces/${s.id}`, undefined, 200)).toEqual(s);
    expect(await spaceIds()).toEqual([...emu.seeded.spaceIds, s.id]);
    const plain = await createSpace();
    expect(plain).toMatchObject({ emoji: "", editMode: "live", defaultLevel: "inherit" });
    expect(plain).not.toHaveProperty("parent");
    expect(plain).not.toHaveProperty("language");
  });

  it("refuses what the spec refuses, naming the field and the limit", async () => {
    expectContractViolation(/createSpace request body/);
    expectContractViolation(/updateSpaceById request body/);
    await refused("POST", `${org()}/spaces`, { title: "t".repeat(51) }, 400, /^title: must be at most 50 characters/);
    await refused("POST", `${org()}/spaces`, { title: "T", language: "xx" }, 400, /^language: must be one of en, fr/);
    await refused("POST", `${org()}/spaces`, { title: "T", editMode: "draft" }, 400, /^editMode: must be one of live, locked/);
    await refused("POST", `${org()}/spaces`, { title: "T", parent: "col_nope" }, 400, /^parent: no collection "col_nope"/);
    const s = await createSpace();
    await refused("PATCH", `/v1/spaces/${s.id}`, { icon: "not a uri" }, 400, /^icon: must be an absolute URI/);
    await refused("PATCH", `/v1/spaces/${s.id}`, { emoji: "🎉", icon: "https://cdn.acme.test/i.png" }, 400, /^icon: cannot be set together with emoji/);
    await refused("PATCH", `/v1/spaces/${s.id}`, { defaultLevel: "owner" }, 400, /^defaultLevel: must be one of admin/);
  });

  it("counts a title's characters as the spec does (code points): 50 emoji fit", async () => {
    expect((await createSpace({ title: "🎉".repeat(50) })).title).toBe("🎉".repeat(50));
    expectContractViolation(/createSpace request body/);
    await refused("POST", `${org()}/spaces`, { title: "🎉".repeat(51) }, 400, /^title: must be at most 50 characters/);
  });

  it("takes an emoji as a character or as codepoints, and nothing else", async () => {
    expect((await createSpace({ emoji: "1f469-200d-1f4bb" })).emoji).toBe("1f469-200d-1f4bb");
    expect((await createSpace({ emoji: "👩‍💻" })).emoji).toBe("👩‍💻");
    await refused("POST", `${org()}/spaces`, { title: "T", emoji: "x" }, 400, /^emoji: must match/);
    await refused("POST", `${org()}/spaces`, { title: "T", emoji: "🎉🎉" }, 400, /^emoji: must match/);
  });

  it("shows an emoji or an icon: setting one removes the other, null removes either", async () => {
    const s = await createSpace({ emoji: "📘" });
    const path = `/v1/spaces/${s.id}`;
    const icon = "https://cdn.acme.test/icon.png";
    expect(await must("PATCH", path, { icon }, 200)).toMatchObject({ emoji: "", urls: { icon } });
    const back = await must("PATCH", path, { emoji: "📗", icon: null }, 200);
    expect(back.emoji).toBe("📗");
    expect(back.urls.icon).toBeUndefined();
    expect((await must("PATCH", path, { emoji: null, icon }, 200)).urls.icon).toBe(icon);
    const none = await must("PATCH", path, { emoji: null, icon: null }, 200);
    expect(none.emoji).toBe("");
    expect(none.urls.icon).toBeUndefined();
  });

  it("updates title, language, edit mode and default level; null is a default level of its own", async () => {
    const s = await createSpace();
    const path = `/v1/spaces/${s.id}`;
    expect(await must("PATCH", path, { title: "Renamed", language: "de", editMode: "locked", defaultLevel: null }, 200)).toMatchObject({
      title: "Renamed",
      language: "de",
      editMode: "locked",
      defaultLevel: null,
    });
    expect((await must("PATCH", path, { defaultLevel: "read" }, 200)).defaultLevel).toBe("read");
    expect((await must("PATCH", path, { defaultLevel: "inherit" }, 200)).defaultLevel).toBe("inherit");
  });

  it("moves between collections and the top level; a move that changes nothing is a 409", async () => {
    const a = await createCollection({ title: "A" });
    const b = await createCollection({ title: "B" });
    const s = await createSpace({ parent: a.id });
    const move = `/v1/spaces/${s.id}/move`;
    expect((await must("POST", move, { parent: b.id }, 200)).parent).toBe(b.id);
    await refused("POST", move, { parent: b.id }, 409, /would not result in any update/);
    expect(await must("POST", move, { parent: null }, 200)).not.toHaveProperty("parent");
    await refused("POST", move, { parent: "col_nope" }, 400, /^parent: no collection/);
    expectContractViolation(/moveSpace request body/);
    await refused("POST", move, {}, 400, /^body: must set parent or position/);
  });

  it("sends a deleted space to the trash: gone from the API and from the sites showing it, restorable", async () => {
    const s = await createSpace();
    const site = await must("POST", `${org()}/sites`, { title: "Docs" }, 201);
    const sections = `${org()}/sites/${site.id}/sections`;
    const section = await must("POST", sections, { spaceId: s.id }, 201);
    const other = await must("POST", `${org()}/sites/${site.id}/site-spaces`, { spaceId: emu.seeded.spaceIds[0], sectionId: section.id }, 201);

    expect((await call("DELETE", `/v1/spaces/${s.id}`)).status).toBe(205);
    expect((await call("GET", `/v1/spaces/${s.id}`)).status).toBe(404);
    expect((await call("PATCH", `/v1/spaces/${s.id}`, { title: "X" })).status).toBe(404);
    expect(await spaceIds()).not.toContain(s.id);
    expect((await call("DELETE", `/v1/spaces/${s.id}`)).status).toBe(204);
    // The section stays, without the site space that showed the deleted space.
    const listed = (await must("GET", sections, undefined, 200)).items;
    expect(listed.map((x: Json) => x.id)).toEqual([section.id]);
    expect(listed[0].siteSpaces.map((ss: Json) => ss.id)).toEqual([other.id]);
    await refused("POST", sections, { spaceId: s.id }, 400, /^spaceId: no space/);

    const restored = await must("POST", `/v1/spaces/${s.id}/restore`, undefined, 200);
    expect(restored).toMatchObject({ id: s.id, title: "Handbook" });
    expect(await spaceIds()).toContain(s.id);
    expect((await must("GET", sections, undefined, 200)).items[0].siteSpaces.map((ss: Json) => ss.id)).toEqual([other.id]);
    expect((await call("DELETE", "/v1/spaces/spc_nope")).status).toBe(204);
  });

  it("lists a space's pages: a new space's one undated page (none with empty: true), then what is written in the app, dated; the trash keeps them", async () => {
    const pagesOf = async (id: string) => (await must("GET", `/v1/spaces/${id}/content/pages?metadata=false&computed=false`, undefined, 200)).pages;
    const s = await createSpace();
    const [first] = await pagesOf(s.id);
    expect(first).toMatchObject({ title: "Untitled", type: "document", path: "untitled", pages: [] });
    expect(first.createdAt).toBeUndefined();
    expect(first.updatedAt).toBeUndefined();
    const blank = await must("POST", `${org()}/spaces`, { title: "Blank", empty: true }, 201);
    expect(await pagesOf(blank.id)).toEqual([]);

    emu.store.writePages(s.id, ["Getting started", "FAQ"]);
    emu.store.spaces.get(s.id)!.pages![1]!.pages = [{ id: "page_child", title: "Install" }];
    const pages = await pagesOf(s.id);
    expect(pages.map((p: Json) => p.title)).toEqual(["Untitled", "Getting started", "FAQ"]);
    expect(pages[1].updatedAt).toBeDefined();
    expect(pages[1].pages[0]).toMatchObject({ id: "page_child", path: "getting-started/install" });

    await must("DELETE", `/v1/spaces/${s.id}`, undefined, 205);
    expect((await call("GET", `/v1/spaces/${s.id}/content/pages`)).status).toBe(404);
    await must("POST", `/v1/spaces/${s.id}/restore`, undefined, 200);
    expect(await pagesOf(s.id)).toHaveLength(3);
  });
});

describe("collections", () => {
  it("creates with a title and a parent; description and default level come with a PATCH", async () => {
    const top = await createCollection();
    expect(top).toMatchObject({ object: "collection", title: "Products", defaultLevel: "inherit", organization: emu.seeded.organizationId });
    expect(top).not.toHaveProperty("description");
    const sub = await createCollection({ title: "Widgets", parent: top.id });
    expect(sub.parent).toBe(top.id);
    const patched = await must("PATCH", `/v1/collections/${sub.id}`, { description: "All widgets", defaultLevel: null, title: "Gadgets" }, 200);
    expect(patched).toMatchObject({ title: "Gadgets", description: "All widgets", defaultLevel: null });
    expect(await must("PATCH", `/v1/collections/${sub.id}`, { description: "" }, 200)).not.toHaveProperty("description");
    expect(await must("GET", `/v1/collections/${sub.id}`, undefined, 200)).toMatchObject({ id: sub.id, title: "Gadgets" });
    const all = (await must("GET", `${org()}/collections`, undefined, 200)).items.map((x: Json) => x.id);
    expect(all).toEqual([top.id, sub.id]);
    const topOnly = (await must("GET", `${org()}/collections?nested=false`, undefined, 200)).items.map((x: Json) => x.id);
    expect(topOnly).toEqual([top.id]);
  });

  it("refuses what the spec refuses", async () => {
    expectContractViolation(/createCollection request body/);
    expectContractViolation(/updateCollectionById request body/);
    await refused("POST", `${org()}/collections`, { title: "t".repeat(51) }, 400, /^title: must be at most 50 characters/);
    const col = await createCollection();
    await refused("PATCH", `/v1/collections/${col.id}`, { description: "d".repeat(101) }, 400, /^description: must be at most 100 characters/);
    await refused("PATCH", `/v1/collections/${col.id}`, { description: null }, 400, /^description: must be a string/);
  });

  it("moves, but never into itself or below itself", async () => {
    const a = await createCollection({ title: "A" });
    const b = await createCollection({ title: "B", parent: a.id });
    await refused("POST", `/v1/collections/${a.id}/move`, { parent: b.id }, 400, /^parent: cannot move a collection into itself/);
    await refused("POST", `/v1/collections/${a.id}/move`, { parent: a.id }, 400, /^parent: cannot move a collection into itself/);
    expect(await must("POST", `/v1/collections/${b.id}/move`, { parent: null }, 200)).not.toHaveProperty("parent");
    await refused("POST", `/v1/collections/${b.id}/move`, { parent: null }, 409, /would not result in any update/);
    expect((await must("POST", `/v1/collections/${a.id}/move`, { parent: b.id }, 200)).parent).toBe(b.id);
  });

  it("deletes what it holds: the collections below it and their spaces, which go to the trash", async () => {
    const a = await createCollection({ title: "A" });
    const b = await createCollection({ title: "B", parent: a.id });
    const keep = await createCollection({ title: "Keep" });
    const inB = await createSpace({ parent: b.id });
    const outside = await createSpace({ parent: keep.id });
    expect((await call("DELETE", `/v1/collections/${a.id}`)).status).toBe(205);
    expect((await call("GET", `/v1/collections/${b.id}`)).status).toBe(404);
    expect(await spaceIds()).not.toContain(inB.id);
    expect(await spaceIds()).toContain(outside.id);
    expect((await call("DELETE", `/v1/collections/${a.id}`)).status).toBe(204);
    // Restored, a space whose collection is gone sits at the top level.
    expect(await must("POST", `/v1/spaces/${inB.id}/restore`, undefined, 200)).not.toHaveProperty("parent");
  });
});
