import { afterEach, beforeEach, expect, it } from "vitest";

import { Emulator } from "./emulator";

let emu: Emulator;
beforeEach(async () => {
  emu = await Emulator.start();
});
afterEach(async () => {
  await emu.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: { id: string } }> {
  const res = await fetch(`${emu.url}/v1/orgs/${emu.seeded.organizationId}${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const schema = { type: "object", additionalProperties: false, properties: { beta: { type: "boolean", description: "Beta user" } } };

it("deletes a site's adaptive schema with the site, as every table cascades", async () => {
  const siteA = (await call("POST", "/sites", { title: "Site A" })).body.id;
  const siteB = (await call("POST", "/sites", { title: "Site B" })).body.id;
  for (const site of [siteA, siteB]) expect((await call("PUT", `/sites/${site}/adaptive-schema`, { jsonSchema: schema })).status).toBe(200);
  expect((await call("DELETE", `/sites/${siteA}`)).status).toBe(205);
  expect([...emu.store.adaptiveSchemas.keys()]).toEqual([siteB]);
});

it("keeps each emulator's tables its own", async () => {
  const other = await Emulator.start();
  try {
    await call("POST", "/collections", { title: "Guides" });
    expect(emu.store.collections.size).toBe(1);
    expect(other.store.collections.size).toBe(0);
  } finally {
    await other.close();
  }
});

it("finds a site's default section without walking its structure, as the walk would", async () => {
  const site = (await call("POST", "/sites", { title: "Site A" })).body.id;
  const record = emu.store.sites.get(site)!;
  const ids: string[] = [];
  for (const spaceId of emu.seeded.spaceIds.slice(0, 3)) ids.push((await call("POST", `/sites/${site}/sections`, { spaceId })).body.id);
  // What defaultSection answered before it had a shortcut: the pointed section among the walked ones, else the first.
  const walked = () => {
    const sections = emu.store.sectionsOf(site);
    return sections.find((s) => s.id === record.defaultSectionId) ?? sections[0];
  };
  const same = () => expect(emu.store.defaultSection(record)?.id).toBe(walked()?.id);
  same();
  const group = (await call("POST", `/sites/${site}/section-groups`, { title: "Group" })).body.id;
  const link = (await call("POST", `/sites/${site}/external-links`, { title: "Link", url: "https://example.com" })).body.id;
  // A group first, holding the second section; then a link first; then a section again.
  emu.store.setSectionGroup(emu.store.sections.get(ids[1]!)!, group);
  emu.store.setOrder([group, link, ids[0]!, ids[2]!]);
  same();
  emu.store.setOrder([link, group, ids[2]!, ids[0]!]);
  same();
  emu.store.setOrder([ids[2]!, link, group, ids[0]!]);
  same();
  // A pointer at the top level, into a group, dangling, and to another site's section.
  for (const pointer of [ids[0]!, ids[1]!, "sitesc_gone", (await call("POST", `/sites/${(await call("POST", "/sites", { title: "Site B" })).body.id}/sections`, { spaceId: emu.seeded.spaceIds[3] })).body.id]) {
    record.defaultSectionId = pointer;
    same();
    emu.store.reading(() => same());
  }
});
