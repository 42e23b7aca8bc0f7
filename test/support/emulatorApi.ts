// What the emulator's own tests (emulator/*.test.ts) share: a fresh emulator per test and the calls
// that read its API. `useEmulator()` registers the hooks; `emu` is the running one.
import { afterEach, beforeEach, expect } from "vitest";

import { Emulator, type EmulatorOptions } from "../../emulator/emulator";

// Response bodies are untyped JSON: `any` keeps the assertions readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
export interface Res {
  status: number;
  headers: Headers;
  body: Json;
}

/** The emulator of the running test (a live binding: read it inside tests, not at import). */
export let emu: Emulator;

/** Starts an emulator before each test of the file and closes it after. */
export function useEmulator(opts: EmulatorOptions = {}): void {
  beforeEach(async () => {
    emu = await Emulator.start(opts);
  });
  afterEach(async () => {
    await emu.close();
  });
}

export async function call(method: string, path: string, body?: unknown, token: string | null = emu.token, target = emu): Promise<Res> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(target.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export const org = () => `/v1/orgs/${emu.seeded.organizationId}`;
export const space = (i: number) => emu.seeded.spaceIds[i]!;
export const spaceTitle = (i: number) => emu.store.spaces.get(space(i))!.title;

export async function must(method: string, path: string, body: unknown, status: number): Promise<Json> {
  const r = await call(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
}
export const createSite = (body: object = {}) => must("POST", `${org()}/sites`, { title: "Product docs", ...body }, 201);
export const createSection = (siteId: string, body: object) => must("POST", `${org()}/sites/${siteId}/sections`, body, 201);
export const getSite = (siteId: string) => must("GET", `${org()}/sites/${siteId}`, undefined, 200);
/** A new site with one section (of the first seeded space), and the site's path. */
export async function siteWithSection() {
  const site = await createSite();
  const section = await createSection(site.id, { spaceId: space(0) });
  return { site, section, base: `${org()}/sites/${site.id}` };
}
export const listAll = async (path: string): Promise<Json[]> => (await must("GET", path, undefined, 200)).items;

export function expectError(r: Res, status: number, messageStart?: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (messageStart !== undefined) expect(r.body.error.message.startsWith(messageStart), r.body.error.message).toBe(true);
}
