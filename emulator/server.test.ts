// The emulator's HTTP server at its edges: the routes it serves (each an operation of GitBook's
// published spec), paths and bodies it cannot read, and a bug of its own answered as a 500 instead
// of crashing the process that runs it.
import * as fs from "node:fs";
import * as net from "node:net";
import { describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { UNKNOWN_ROUTE } from "./log";
import { call, emu, expectError, must, org, siteWithSection, useEmulator } from "../test/support/emulatorApi";

useEmulator();

/** The paths of GitBook's published spec (without /v1), each with its operations by method. */
function publishedPaths(): Record<string, Record<string, unknown>> {
  return (JSON.parse(fs.readFileSync(require.resolve("@gitbook/api/spec/openapi.json"), "utf8")) as { paths: Record<string, Record<string, unknown>> }).paths;
}

describe("routes", () => {
  it("serves only operations of GitBook's published spec, each once", async () => {
    const paramless = (p: string) => p.replace(/\{[^}]+\}/g, "{}");
    const spec = new Set<string>();
    for (const [p, ops] of Object.entries(publishedPaths())) {
      for (const method of Object.keys(ops)) spec.add(`${method.toUpperCase()} /v1${paramless(p)}`);
    }
    const routes = emu.routes();
    expect(routes.length).toBeGreaterThan(100);
    expect(new Set(routes).size).toBe(routes.length);
    const served = routes.map((r) => r.replace(/:[^/]+/g, "{}"));
    expect(served.filter((r) => !spec.has(r))).toEqual([]);
  });

  it("answers 404 for a path it cannot decode, as for any unknown path", async () => {
    expectContractViolation(/GET \/v1\/spaces\/%E0%A4: malformed percent-encoding in the path/);
    expectError(await call("GET", "/v1/spaces/%E0%A4"), 404, "No route for GET /v1/spaces/%E0%A4");
    expect(emu.log.entries.at(-1)).toMatchObject({ route: UNKNOWN_ROUTE, status: 404 });
  });
});

describe("compression", () => {
  it("answers a body over 1 kB in the first encoding the client accepts (br or gzip), and small or unasked ones plain", async () => {
    for (let i = 0; i < 20; i++) await must("POST", `${org()}/sites`, { title: `Compressed ${i}` }, 201);
    const get = async (acceptEncoding?: string) => {
      const res = await fetch(`${emu.url}${org()}/sites`, { headers: { authorization: `Bearer ${emu.token}`, ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}) } });
      // fetch decodes what it asked for; the header says what was sent.
      return { encoding: res.headers.get("content-encoding"), items: ((await res.json()) as { items: unknown[] }).items.length };
    };
    expect(await get("br, gzip")).toEqual({ encoding: "br", items: 20 });
    expect(await get("gzip;q=1.0, br")).toEqual({ encoding: "gzip", items: 20 });
    expect(await get("identity")).toEqual({ encoding: null, items: 20 });
    const small = await fetch(`${emu.url}${org()}/teams`, { headers: { authorization: `Bearer ${emu.token}`, "accept-encoding": "gzip" } });
    expect(small.headers.get("content-encoding")).toBeNull();
  });
});

describe("what it cannot read", () => {
  it("drops a request whose body never arrives whole, and keeps serving", async () => {
    const { port } = new URL(emu.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write(`POST ${org()}/sites HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${emu.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":`);
    socket.destroy();
    await closed;
    // Nothing was created or answered for it; the next request is served as usual.
    expect((await must("GET", `${org()}/sites`, undefined, 200)).items).toEqual([]);
    expect(emu.log.entries.map((e) => `${e.method} ${e.route}`)).toEqual(["GET /v1/orgs/:org/sites"]);
  });
});

describe("its own bugs", () => {
  it("answers a bug in a handler with 500 {error} naming it, and keeps serving", async () => {
    const { site, base } = await siteWithSection();
    const group = await must("POST", `${base}/section-groups`, { title: "Group" }, 201);
    // A record in a shape no route (nor an edit in the app) writes: what a bug in the emulator would leave.
    const record = emu.store.sectionGroups.get(group.id)!;
    record.sectionIds = 7 as never;
    const r = await call("GET", `${base}/structure`);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: { code: 500, message: expect.stringMatching(/^Emulator bug: TypeError: /) } });
    // The message carries the stack, to find the bug by.
    expect(r.body.error.message).toContain("at Store.");
    expect((await must("GET", `${org()}/teams`, undefined, 200)).items).toEqual([]);
    record.sectionIds = [];
    expect((await must("GET", `${org()}/sites/${site.id}`, undefined, 200)).id).toBe(site.id);
  });

  it("answers 500 when a request-log listener throws, and stops calling a listener once unsubscribed", async () => {
    const seen: string[] = [];
    const unsubscribe = emu.log.onRecord((e) => {
      seen.push(`${e.method} ${e.path} ${e.status}`);
      throw new Error("listener broke");
    });
    const r = await call("GET", "/v1/orgs");
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: { code: 500, message: "Emulator bug: Error: listener broke" } });
    expect(seen).toEqual(["GET /v1/orgs 200"]);
    unsubscribe();
    expect((await call("GET", "/v1/orgs")).status).toBe(200);
    expect(seen).toHaveLength(1);
  });
});
