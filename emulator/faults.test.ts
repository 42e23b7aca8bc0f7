// Fault injection: latency, error rates, rate limits and dropped connections, deterministic per seed.
import * as net from "node:net";
import { describe, expect, it } from "vitest";

import { Emulator } from "./emulator";
import { useEmulator, call, org, createSite, listAll, expectError, emu, type Json } from "../test/support/emulatorApi";

useEmulator();

// ------------------------------------------------------------------ faults

/** An HTTP/1.1 request as bytes, for a socket the test writes by hand (to control when the server reads it). */
function rawRequest(method: string, path: string, body = ""): string {
  const { host } = new URL(emu.url);
  return `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${emu.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe("faults", () => {
  it("adds latency to matching requests only, within `times`", async () => {
    const h = emu.faults.add({ match: { route: "/v1/orgs" }, latencyMs: 60, times: 1 });
    expect((await call("GET", "/v1/orgs")).status).toBe(200);
    expect((await call("GET", "/v1/orgs")).status).toBe(200);
    expect((await call("GET", org())).status).toBe(200);
    expect(h.hits).toBe(1);
    expect(emu.log.entries[0]!.ms).toBeGreaterThanOrEqual(55);
  });

  async function failurePattern(seed: number, rate: number, n: number, status?: 500 | 502 | 503 | 504): Promise<number[]> {
    const e = await Emulator.start({ seed });
    try {
      e.faults.add({ match: { method: "GET", route: "/v1/orgs/:org" }, errorRate: rate, ...(status && { status }) });
      const failed: number[] = [];
      for (let i = 0; i < n; i++) {
        const r = await call("GET", `/v1/orgs/${e.seeded.organizationId}`, undefined, e.token, e);
        if (r.status !== 200) {
          expectError(r, status ?? 503);
          failed.push(i);
        }
      }
      // Non-matching routes are never failed.
      expect((await call("GET", "/v1/orgs", undefined, e.token, e)).status).toBe(200);
      return failed;
    } finally {
      await e.close();
    }
  }

  it("errorRate fails exactly that fraction, deterministically per seed", async () => {
    const a = await failurePattern(42, 0.3, 100);
    expect(a).toHaveLength(30);
    expect(await failurePattern(42, 0.3, 100)).toEqual(a);
    const b = await failurePattern(7, 0.3, 100, 502);
    expect(b).toHaveLength(30);
    expect(b).not.toEqual(a);
    // Failures are spread, not the first 30.
    expect(a).not.toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("errorRate requests are not processed, and `times` caps the failures", async () => {
    emu.faults.add({ match: { method: "PUT", route: "/v1/orgs/:org/teams" }, errorRate: 1, status: 500, times: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call("PUT", `${org()}/teams`, { title: `T${i}` })).status);
    expect(statuses).toEqual([500, 500, 500, 201, 201]);
    expect(emu.store.teams.size).toBe(2);
  });

  it("`after` lets the first matching requests through untouched, then affects the rest (within `times`)", async () => {
    const h = emu.faults.add({ match: { method: "PUT", route: "/v1/orgs/:org/teams" }, errorRate: 1, status: 500, after: 2, times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call("PUT", `${org()}/teams`, { title: `A${i}` })).status);
    expect(statuses).toEqual([201, 201, 500, 500, 201]);
    expect(h.hits).toBe(2);
    expect(() => emu.faults.add({ errorRate: 1, after: -1 })).toThrow(/after must be/);
  });

  it("rateLimit answers a burst of 429s with X-RateLimit-* and Retry-After headers", async () => {
    emu.faults.add({ match: { route: /\/sites$/ }, rateLimit: { burst: 2, resetInSeconds: 30, retryAfterSeconds: 7 } });
    const before = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 2; i++) {
      const r = await call("POST", `${org()}/sites`, { title: "Limited" });
      expectError(r, 429);
      expect(Number(r.headers.get("x-ratelimit-limit"))).toBeGreaterThan(0);
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
      const reset = Number(r.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(before + 30);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 31);
      expect(r.headers.get("retry-after")).toBe("7");
    }
    expect(emu.store.sites.size).toBe(0);
    expect((await call("POST", `${org()}/sites`, { title: "Limited" })).status).toBe(201);

    emu.faults.add({ rateLimit: { burst: 1 } });
    const r = await call("GET", "/v1/orgs");
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBeNull();
    expect(r.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    expect((await call("GET", "/v1/orgs")).status).toBe(200);
  });

  it("dropAfterProcess performs the write but resets the connection", async () => {
    emu.faults.add({ match: { method: "PUT", route: "/v1/orgs/:org/teams" }, dropAfterProcess: true, times: 1 });
    await expect(call("PUT", `${org()}/teams`, { title: "Ghost team" })).rejects.toThrow();
    const teams = await listAll(`${org()}/teams`);
    expect(teams.map((t: Json) => t.title)).toEqual(["Ghost team"]);
    expect(emu.log.entries[0]).toMatchObject({ method: "PUT", route: "/v1/orgs/:org/teams", status: 0 });
    // `times: 1`: the next write answers normally.
    expect((await call("PUT", `${org()}/teams`, { title: "Second" })).status).toBe(201);
  });

  it("dropBeforeProcess resets the connection without doing anything", async () => {
    const site = await createSite();
    const h = emu.faults.add({ match: { method: "POST", route: /share-links/ }, dropBeforeProcess: true });
    await expect(call("POST", `${org()}/sites/${site.id}/share-links`, { name: "Never" })).rejects.toThrow();
    await expect(call("POST", `${org()}/sites/${site.id}/share-links`, { name: "Never" })).rejects.toThrow();
    expect(emu.store.shareLinks.size).toBe(0);
    expect(emu.log.count({ method: "POST", route: "/v1/orgs/:org/sites/:site/share-links" })).toBe(2);
    expect(emu.log.entries.filter((e) => e.status === 0)).toHaveLength(2);
    h.remove();
    expect((await call("POST", `${org()}/sites/${site.id}/share-links`, { name: "Now" })).status).toBe(201);
  });

  it("dropConnections() cuts open connections: a request sent but not yet read is never processed", async () => {
    const site = await createSite();
    const url = new URL(emu.url);
    const socket = net.connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    socket.on("data", (c: Buffer) => received.push(c));
    // Cut with unread data, the connection is reset.
    socket.on("error", () => undefined);
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    // One answered request first, so the server holds the connection (kept alive) when the next is sent.
    socket.write(rawRequest("GET", "/v1/orgs"));
    await new Promise<void>((resolve) => socket.once("data", () => resolve()));
    received.length = 0;
    // Written and cut in one turn of the event loop: the server has not read it.
    socket.write(rawRequest("POST", `${org()}/sites/${site.id}/share-links`, JSON.stringify({ name: "Never" })));
    emu.dropConnections();
    await closed;
    expect(Buffer.concat(received).toString()).toBe("");
    expect(emu.store.shareLinks.size).toBe(0);
    expect((await call("POST", `${org()}/sites/${site.id}/share-links`, { name: "Now" })).status).toBe(201);
  });

  it("dropConnections() also cuts connections not yet accepted, and serves the ones made after it", async () => {
    const site = await createSite();
    const url = new URL(emu.url);
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on("error", () => undefined);
    socket.write(rawRequest("POST", `${org()}/sites/${site.id}/share-links`, JSON.stringify({ name: "Never" })));
    // An answer (the request was processed) or the cut, whichever comes first.
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()).on("data", () => resolve()));
    // net.connect connects on the next tick; on loopback the handshake is done when connect() returns, so
    // the connection waits in the accept queue, where the server has not taken it yet.
    await new Promise<void>((resolve) => process.nextTick(resolve));
    emu.dropConnections();
    await closed;
    expect(emu.store.shareLinks.size).toBe(0);
    expect((await call("POST", `${org()}/sites/${site.id}/share-links`, { name: "Now" })).status).toBe(201);
  });

  it("clear() removes every fault; a fault needs exactly one kind", async () => {
    emu.faults.add({ errorRate: 1 });
    emu.faults.add({ latencyMs: 1 });
    expect(emu.faults.list()).toHaveLength(2);
    emu.faults.clear();
    expect(emu.faults.list()).toHaveLength(0);
    expect((await call("GET", "/v1/orgs")).status).toBe(200);
    expect(() => emu.faults.add({ match: {} } as never)).toThrow();
    expect(() => emu.faults.add({ latencyMs: 1, dropAfterProcess: true } as never)).toThrow();
  });
});
