// A user's hands on a running emulator: export and import of the whole state, and edits and deletes
// "in the app", through Emulator's methods and the /__emulator/ routes the CLI uses.
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { Emulator } from "./emulator";

const EXAMPLE = path.resolve(__dirname, "../examples/emulator/seed.json");

let emu: Emulator;
const others: Emulator[] = [];
beforeEach(async () => {
  emu = await Emulator.start({ seedFile: EXAMPLE });
});
afterEach(async () => {
  await Promise.all([emu, ...others.splice(0)].map((e) => e.close()));
});

async function another(opts: Parameters<typeof Emulator.start>[0] = {}): Promise<Emulator> {
  const e = await Emulator.start(opts);
  others.push(e);
  return e;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(target: Emulator, method: string, route: string, body?: unknown, token: string | null = target.token): Promise<{ status: number; body: any }> {
  const res = await fetch(target.url + route, {
    method,
    headers: { ...(token !== null && { authorization: `Bearer ${token}` }), "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Every object the API lists, as JSON, with the emulator's own address taken out. */
async function everything(target: Emulator): Promise<string> {
  const org = `/v1/orgs/${target.seeded.organizationId}`;
  const routes = [`${org}/sites`, `${org}/spaces`, `${org}/collections`, `${org}/members`, `${org}/teams`, `${org}/saml`, `${org}/openapi`];
  for (const site of target.store.sites.keys()) routes.push(`${org}/sites/${site}/structure`, `${org}/sites/${site}/site-spaces`, `${org}/sites/${site}/share-links`);
  const out: unknown[] = [];
  for (const r of routes) out.push((await call(target, "GET", r)).body);
  return JSON.stringify(out).replaceAll(target.url, "EMULATOR");
}

describe("export and import", () => {
  it("export, start another emulator, import: the same objects, and the same IDs for what is created next", async () => {
    const org = `/v1/orgs/${emu.seeded.organizationId}`;
    // A state the seed did not make: an API write, a sort, a trashed space, frozen processing.
    expect((await call(emu, "POST", `${org}/sites`, { title: "Made through the API" })).status).toBe(201);
    const ids = emu.seeded.ids;
    expect((await call(emu, "PATCH", `${org}/sites/${ids.docs}/structure/sort`, { item: { type: "site-section-group", id: ids.learn }, position: { before: { type: "site-section", id: ids["start-section"] } } })).status).toBeLessThan(300);
    expect((await call(emu, "DELETE", `/v1/spaces/${ids.handbook}`)).status).toBe(205);
    emu.openApiProcessingReads = Infinity;

    const state = JSON.parse(JSON.stringify(emu.exportState()));
    const restarted = await another({ seed: 99 });
    restarted.importState(state);
    expect(restarted.exportState()).toEqual(emu.exportState());
    expect(restarted.seeded).toEqual(emu.seeded);
    expect(restarted.openApiProcessingReads).toBe(Infinity);
    expect(await everything(restarted)).toBe(await everything(emu));

    const next = async (e: Emulator) => (await call(e, "PUT", `/v1/orgs/${e.seeded.organizationId}/teams`, { title: "Next" })).body.id;
    expect(await next(restarted)).toBe(await next(emu));
  });

  it("serves the state at /__emulator/state, with the API's token, outside the request log", async () => {
    const exported = await call(emu, "GET", "/__emulator/state");
    expect(exported.status).toBe(200);
    expect(exported.body.format).toBe("pulumi-gitbook-emulator-state/1");
    expect((await call(emu, "GET", "/__emulator/state", undefined, null)).status).toBe(401);
    expect((await call(emu, "GET", "/__emulator/state", undefined, "wrong")).status).toBe(401);

    const restarted = await another({ state: exported.body });
    expect(await everything(restarted)).toBe(await everything(emu));
    const fresh = await another();
    const imported = await call(fresh, "PUT", "/__emulator/state", exported.body);
    expect(imported.status).toBe(200);
    expect(imported.body.seeded).toEqual(emu.seeded);
    expect(fresh.seeded).toEqual(emu.seeded);
    expect(await everything(fresh)).toBe(await everything(emu));
    expect(emu.log.entries.filter((e) => e.path.startsWith("/__emulator"))).toEqual([]);
  });

  it("refuses a file that is not an export, naming where, and keeps its state", async () => {
    const before = emu.exportState();
    const state = JSON.parse(JSON.stringify(before));
    delete state.store.tables.sites[0].id;
    const r = await call(emu, "PUT", "/__emulator/state", state);
    expect(r).toEqual({ status: 400, body: { error: { code: 400, message: "not an exported emulator state: store.tables.sites[0].id: required" } } });
    expect((await call(emu, "PUT", "/__emulator/state", { sites: [] })).body.error.message).toMatch(/^not an exported emulator state: format: /);
    expect(emu.exportState()).toEqual(before);
  });
});

describe("edits in the app", () => {
  it("changes a field, read as the field's type, and the API shows it at once", async () => {
    const { organizationId: org, ids } = emu.seeded;
    const edited = await call(emu, "POST", "/__emulator/edit", { kind: "site", id: ids.docs, set: { title: "Renamed in the app", published: "false", visibility: "unlisted" } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: ids.docs, title: "Renamed in the app", published: false, visibility: "unlisted" });
    expect((await call(emu, "GET", `/v1/orgs/${org}/sites/${ids.docs}`)).body).toMatchObject({ title: "Renamed in the app", published: false, visibility: "unlisted" });
    // JSON for objects; "null" removes an optional field.
    emu.edit("sites", ids.docs, { adaptiveContent: '{"enabled":false}', hostname: "null" });
    expect(emu.store.sites.get(ids.docs)).toMatchObject({ adaptiveContent: { enabled: false } });
    expect(emu.store.sites.get(ids.docs)).not.toHaveProperty("hostname");
    // An optional field the record lacks can be added; an edit bumps updatedAt where there is one.
    const space = emu.store.spaces.get(ids.start)!;
    const updatedAt = space.updatedAt;
    emu.edit("space", ids.start, { language: "fr" });
    expect(space.language).toBe("fr");
    expect(space.updatedAt >= updatedAt).toBe(true);
  });

  it("refuses what it cannot do, naming the field, and changes nothing", async () => {
    const { ids } = emu.seeded;
    const before = emu.exportState();
    const edit = (body: unknown) => call(emu, "POST", "/__emulator/edit", body);
    expect((await edit({ kind: "site", id: ids.docs, set: { title: "Fine", colour: "red" } })).body.error.message).toMatch(/^set\.colour: a site has no field "colour" \(fields: .*title.*hostname/);
    expect((await edit({ kind: "site", id: ids.docs, set: { published: "yes" } })).body.error.message).toBe("set.published: must be a boolean (JSON), as it is now: true");
    expect((await edit({ kind: "site", id: ids.docs, set: { id: "site_mine" } })).body.error.message).toBe("set.id: an object's id cannot change");
    expect((await edit({ kind: "sites", id: "site_nope", set: { title: "x" } }))).toEqual({ status: 404, body: { error: { code: 404, message: 'site "site_nope" not found' } } });
    expect((await edit({ kind: "page", id: ids.docs, set: { title: "x" } })).body.error.message).toMatch(/^kind: unknown kind "page" \(one of org, member, space/);
    expect((await edit({ kind: "site", set: { title: "x" } })).body.error.message).toBe("id: required");
    // A value given as JSON (not text) is held to the field's type too: the app cannot store a number as a title.
    expect((await edit({ kind: "site", id: ids.docs, set: { published: 1 } })).body.error.message).toBe("set.published: must be a boolean (JSON), as it is now: true");
    expect((await edit({ kind: "site", id: ids.docs, set: { title: 5 } })).body.error.message).toBe('set.title: must be a string, as it is now: "Product docs"');
    expect((await edit({ kind: "sectionGroup", id: ids.learn, set: { sectionIds: {} } })).body.error.message).toMatch(/^set\.sectionIds: must be an array \(JSON\), as it is now: \[/);
    expect(() => emu.edit("sectionGroup", ids.learn!, { sectionIds: 7 })).toThrow(/^set\.sectionIds: must be an array/);
    expect(emu.exportState()).toEqual(before);
  });

  it("deletes as the app does, with what goes with it", async () => {
    const { organizationId: org, ids } = emu.seeded;
    expect((await call(emu, "POST", "/__emulator/delete", { kind: "section", id: ids["guides-section"] })).status).toBe(205);
    expect(emu.store.siteSpaces.has(ids["guides-v1-variant"])).toBe(false);
    expect((await call(emu, "GET", `/v1/orgs/${org}/sites/${ids.docs}/sections`)).body.items.map((s: { id: string }) => s.id)).toEqual([ids["start-section"], ids["api-section"]]);
    emu.delete("collection", ids.product);
    expect(emu.store.spaces.get(ids.api)!.deletedAt).toBeDefined();
    expect((await call(emu, "POST", "/__emulator/delete", { kind: "team", id: "team_nope" })).status).toBe(404);
    expect((await call(emu, "POST", "/__emulator/nothing", {})).status).toBe(404);
  });
});
