// Deletes "in the app" (emu.delete, POST /__emulator/delete) of each kind, seen through the API as a
// program would see them next: the object gone, what goes with it gone, what it held kept.
import * as path from "node:path";
import { describe, expect, it } from "vitest";

import { call, emu, expectError, listAll, must, org, useEmulator, type Json } from "../test/support/emulatorApi";

useEmulator({ seedFile: path.resolve(__dirname, "../examples/emulator/seed.json") });

const ids = () => emu.seeded.ids as Record<string, string>;
const docs = () => `${org()}/sites/${ids().docs}`;
type Tree = [string, string, Tree[]?];
const treeOf = (n: Json): Tree => (n.object === "site-section-group" ? [n.object, n.id, n.children.map(treeOf)] : [n.object, n.id]);

describe("deletes in the app", () => {
  it("a space goes to the trash: 404 through the API, out of its collection, and the site spaces showing it leave their sites", async () => {
    const { start, product } = ids();
    const showing = (await listAll(`${docs()}/site-spaces`)).filter((ss: Json) => ss.space.id === start);
    expect(showing).toHaveLength(1);
    emu.delete("space", start!);
    expectError(await call("GET", `/v1/spaces/${start}`), 404);
    expect((await listAll(`/v1/collections/${product}/spaces`)).map((s: Json) => s.id)).not.toContain(start);
    expect((await listAll(`${docs()}/site-spaces`)).map((ss: Json) => ss.id)).not.toContain(showing[0].id);
    // Restorable, as a space deleted through the API is.
    expect((await must("POST", `/v1/spaces/${start}/restore`, undefined, 200)).id).toBe(start);
  });

  it("a section group keeps what it held: its sections and links take its place", async () => {
    const { learn } = ids();
    const before = (await must("GET", `${docs()}/structure`, undefined, 200)).structure.map(treeOf);
    const group = before.find(([, id]: Tree) => id === learn)!;
    expect(group[2]!.length).toBeGreaterThan(1);
    emu.delete("sectionGroup", learn!);
    const after = (await must("GET", `${docs()}/structure`, undefined, 200)).structure.map(treeOf);
    expect(after).toEqual(before.flatMap((n: Tree) => (n[1] === learn ? n[2]! : [n])));
    expectError(await call("PATCH", `${docs()}/section-groups/${learn}`, { title: "Back" }), 404);
  });

  it("a site space leaves its section's listing; the section stays", async () => {
    const variant = ids()["guides-v1-variant"]!;
    expect((await listAll(`${docs()}/site-spaces`)).map((ss: Json) => ss.id)).toContain(variant);
    emu.delete("siteSpace", variant);
    expect((await listAll(`${docs()}/site-spaces`)).map((ss: Json) => ss.id)).not.toContain(variant);
    expect((await listAll(`${docs()}/sections`)).map((s: Json) => s.id)).toContain(ids()["guides-section"]);
  });

  it("a team takes its memberships and its grants along", async () => {
    const { writers, docs: site } = ids();
    expect((await listAll(`${org()}/sites/${site}/permissions/teams`)).length).toBe(1);
    emu.delete("team", writers!);
    expectError(await call("GET", `${org()}/teams/${writers}`), 404);
    expect(await listAll(`${org()}/teams`)).toEqual([]);
    expect(await listAll(`${org()}/sites/${site}/permissions/teams`)).toEqual([]);
    expect([...emu.store.teamMembers.values()].filter((m) => m.teamId === writers)).toEqual([]);
  });

  it("an OpenAPI spec takes its versions along", async () => {
    const slug = emu.store.openApiSpecs.get(ids().petstore!)!.slug;
    expect((await listAll(`${org()}/openapi/${slug}/versions`)).length).toBe(1);
    emu.delete("openApiSpec", ids().petstore!);
    expectError(await call("GET", `${org()}/openapi/${slug}`), 404);
    expectError(await call("GET", `${org()}/openapi/${slug}/versions`), 404);
    expect([...emu.store.openApiVersions.values()]).toEqual([]);
  });

  it("a custom hostname: the site it served is published on the organization's hostname again", async () => {
    expect(emu.store.sites.get(ids().docs!)!.hostname).toBe("docs.acme.test");
    const before = await must("GET", docs(), undefined, 200);
    emu.delete("customHostname", "docs.acme.test");
    expectError(await call("GET", "/v1/custom-hostnames/docs.acme.test"), 404);
    const after = await must("GET", docs(), undefined, 200);
    expect(after).not.toHaveProperty("hostname");
    expect(after.urls.published).not.toBe(before.urls.published);
    expect(after.urls.published).not.toContain("docs.acme.test");
  });

  it("a share link (a kind nothing goes with) is just gone", async () => {
    const { preview } = ids();
    expect((await listAll(`${docs()}/share-links`)).map((l: Json) => l.id)).toEqual([preview]);
    expect((await call("POST", "/__emulator/delete", { kind: "shareLinks", id: preview })).status).toBe(205);
    expect(await listAll(`${docs()}/share-links`)).toEqual([]);
    expectError(await call("PATCH", `${docs()}/share-links/${preview}`, { name: "Back" }), 404);
  });
});
