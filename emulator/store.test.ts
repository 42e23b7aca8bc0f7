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
