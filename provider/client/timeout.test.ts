import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AmbiguousRequestError, ConnectionError, GitbookClient } from "./index";
import { until } from "../../test/support/until";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

/** Answers every request after `delayMs`, counting what it received. */
async function slowServer(delayMs: number) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.method!);
    setTimeout(() => {
      if (!res.destroyed) res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    }, delayMs);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("per-request time limit", () => {
  // undici's own timeouts tick about once a second: a 100 ms limit used to let a 600 ms answer through.
  it("gives up on an answer slower than a sub-second limit, and resends a GET", async () => {
    const s = await slowServer(600);
    const c = new GitbookClient({ token: "t0ken-xyz", apiUrl: s.url, timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 1 } });
    const e = await c.get("/x").then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ConnectionError);
    expect((e as ConnectionError).code).toBe("ETIMEDOUT");
    expect((e as Error).message).toContain("no answer within 100 ms");
    await until(() => expect(s.seen).toEqual(["GET", "GET"]));
    await c.close();
  });

  it("reports a timed-out POST as possibly applied, without resending it", async () => {
    const s = await slowServer(600);
    const c = new GitbookClient({ token: "t0ken-xyz", apiUrl: s.url, timeoutMs: 100, retry: { maxAttempts: 3, baseDelayMs: 1 } });
    await expect(c.post("/x", { body: {} })).rejects.toBeInstanceOf(AmbiguousRequestError);
    // On a loaded machine the server may read the request after the client has given up on it.
    await until(() => expect(s.seen).toEqual(["POST"]));
    await c.close();
  });
});
