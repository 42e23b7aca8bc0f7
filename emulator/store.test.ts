import { afterEach, beforeEach, expect, it } from "vitest";

import { Emulator } from "./emulator";
import { defineTable, type Base } from "./store";

// A table the way a new resource module declares one (see resources/index.ts).
interface LinkRecord extends Base {
  siteId: string;
  sectionId?: string;
}
const links = defineTable<LinkRecord>({ site: "siteId", section: "sectionId" });

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

it("deletes the records of a module's table with the site or section they belong to, as the built-in tables cascade", async () => {
  const siteA = (await call("POST", "/sites", { title: "Site A" })).body.id;
  const siteB = (await call("POST", "/sites", { title: "Site B" })).body.id;
  const section = (await call("POST", `/sites/${siteA}/sections`, { spaceId: emu.seeded.spaceIds[0] })).body.id;
  const add = (rec: Omit<LinkRecord, keyof Base>) => {
    const link = { ...emu.store.newId("lnk"), ...rec };
    links.of(emu.store).set(link.id, link);
    return link.id;
  };
  add({ siteId: siteA, sectionId: section });
  const inSiteA = add({ siteId: siteA });
  const inSiteB = add({ siteId: siteB });

  expect((await call("DELETE", `/sites/${siteA}/sections/${section}`)).status).toBe(205);
  expect([...links.of(emu.store).keys()]).toEqual([inSiteA, inSiteB]);
  expect((await call("DELETE", `/sites/${siteA}`)).status).toBe(205);
  expect([...links.of(emu.store).keys()]).toEqual([inSiteB]);
});

it("keeps a module's table per emulator", async () => {
  const other = await Emulator.start();
  try {
    const link = { ...emu.store.newId("lnk"), siteId: "site_x" };
    links.of(emu.store).set(link.id, link);
    expect(links.of(other.store).size).toBe(0);
  } finally {
    await other.close();
  }
});
