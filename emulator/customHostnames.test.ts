// Custom hostnames: read, DNS revalidation and removal (the only routes GitBook's spec has), seeded
// from a site's `hostname`, changed out of band as the app would, exported and imported with the rest.
import { describe, expect, it } from "vitest";

import { Emulator } from "./emulator";
import { expectContractViolation } from "../test/support/contract.setup";
import { call, expectError } from "../test/support/emulatorApi";

const HOST = "docs.acme.test";
const route = (h: string) => `/v1/custom-hostnames/${h}`;
let emu: Emulator;

const start = async () =>
  (emu = await Emulator.start({ seedFile: { sites: [{ key: "docs", title: "Product docs", hostname: HOST }, { key: "plain", title: "Plain" }], spaces: [] } }));

describe("custom hostnames", () => {
  it("reads a seeded hostname, revalidates only a failed check, and removes it from its site", async () => {
    await start();
    const site = emu.seeded.ids.docs!;
    const get = async (): Promise<Record<string, unknown>> => (await fetch(emu.url + route(HOST), { headers: { authorization: `Bearer ${emu.token}` } })).json() as Promise<Record<string, unknown>>;
    expect(await get()).toEqual({ object: "custom-hostname", hostname: HOST, target: { type: "site", site }, isActive: true, status: "live", urls: { location: `${emu.url}${route(HOST)}` } });
    const c = (method: string, path: string) => call(method, path, undefined, emu.token, emu);

    // Live: nothing to revalidate. A failed DNS check: revalidated, the certificate comes next.
    expectError(await c("PATCH", route(HOST)), 409);
    emu.edit("customHostname", HOST, { status: "dns_wrong_cname" });
    expect((await c("PATCH", route(HOST))).status).toBe(204);
    expect((await get()).status).toBe("ssl_pending");
    // The spec gives this 400 the ConflictError body, whose code is 409; GitBook's error bodies carry the status.
    expectContractViolation(/dnsRevalidateCustomHostname response 400 body \/error\/code: must be 409/);
    emu.edit("customHostname", HOST, { isActive: "false" });
    expectError(await c("PATCH", route(HOST)), 400);

    // Re-pointed in the app: the GET says so.
    emu.edit("customHostname", HOST, { targetId: emu.seeded.ids.plain!, isActive: "true" });
    expect((await get()).target).toEqual({ type: "site", site: emu.seeded.ids.plain });
    emu.edit("customHostname", HOST, { targetId: site });

    expectError(await c("GET", route("nothing.acme.test")), 404);
    expect((await c("DELETE", route(HOST))).status).toBe(205);
    expect((await c("DELETE", route(HOST))).status).toBe(204);
    expectError(await c("GET", route(HOST)), 404);
    expect(emu.store.sites.get(site)).not.toHaveProperty("hostname");
    await emu.close();
  });

  it("goes with its site, is exported and imported, and a seed's hostname must be a DNS name", async () => {
    await start();
    const state = emu.exportState();
    expect(state.store.tables.customHostnames).toMatchObject([{ id: HOST, targetType: "site", targetId: emu.seeded.ids.docs }]);
    emu.delete("site", emu.seeded.ids.docs!);
    expect(emu.store.customHostnames.size).toBe(0);
    emu.importState(state);
    expect(emu.store.customHostnames.get(HOST)).toMatchObject({ isActive: true, status: "live" });
    await emu.close();
    await expect(Emulator.start({ seedFile: { sites: [{ title: "Docs", hostname: "Docs.Example.com" }] } })).rejects.toThrow(/sites\[0\]\.hostname: must be a lowercase DNS name/);
  });
});
