import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as zlib from "node:zlib";
import { AsyncLocalStorage } from "node:async_hooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  AmbiguousRequestError,
  AuthError,
  ConflictError,
  ConnectionError,
  ContractError,
  GitbookClient,
  GitbookError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
  type ClientOptions,
} from "./index";

const TOKEN = "gb_secret_token_ABC123xyz";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Script = (req: Seen, res: http.ServerResponse, n: number) => void;

const servers: http.Server[] = [];
const errorsSeen: unknown[] = [];

/**
 * A loopback server answering each request with the script; it records what it saw. It sends no
 * `Date` of its own (Node's would be this machine's clock, not the fake one the clients below keep):
 * a script that wants one sets it.
 */
async function serve(script: Script) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    res.sendDate = false;
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(s);
      script(s, res, seen.length);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body === undefined ? "" : JSON.stringify(body));
}
const apiError = (res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
  json(res, status, { error: { code: status, message } }, headers);

/** Client with a fake clock: sleeps are recorded and advance time instantly. */
function client(url: string, extra: Partial<ClientOptions> = {}) {
  let now = 1_700_000_000_000;
  const sleeps: number[] = [];
  const c = new GitbookClient({
    token: TOKEN,
    apiUrl: url,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    now: () => now,
    random: () => 0.5,
    ...extra,
  });
  return { c, sleeps, now: () => now };
}

async function failure(p: Promise<unknown>): Promise<GitbookError> {
  try {
    await p;
  } catch (e) {
    errorsSeen.push(e);
    return e as GitbookError;
  }
  throw new Error("expected a failure");
}

afterEach(async () => {
  // Connections left open (a request never answered, a kept-alive one) would hold close() for seconds.
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.close(r), s.closeAllConnections()))));
});

describe("requests", () => {
  it("sends bearer auth, user agent, JSON body under /v1 and parses the answer", async () => {
    const s = await serve((_req, res) => json(res, 201, { id: "x1", extra: "kept" }));
    const { c } = client(s.url);
    const out = await c.post("/orgs/o%2F1/sites", { body: { title: "Docs" }, schema: z.looseObject({ id: z.string() }) });
    expect(out).toEqual({ id: "x1", extra: "kept" });
    expect(s.seen[0]!.url).toBe("/v1/orgs/o%2F1/sites");
    expect(s.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(s.seen[0]!.headers["user-agent"]).toMatch(/^pulumi-gitbook\/\d+\.\d+\.\d+/);
    expect(s.seen[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(s.seen[0]!.body)).toEqual({ title: "Docs" });
  });

  it("asks for compressed answers and reads gzip, brotli and plain ones; refuses an encoding it did not ask for", async () => {
    const body = JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ id: `s${i}` })) });
    const encoded: Record<string, Buffer | string> = { gzip: zlib.gzipSync(body), br: zlib.brotliCompressSync(body), identity: body, "": body, deflate: zlib.deflateSync(body) };
    const s = await serve((req, res) => {
      const encoding = new URL(req.url, "http://x").searchParams.get("e")!;
      res.writeHead(200, { "content-type": "application/json", ...(encoding ? { "content-encoding": encoding } : {}) });
      res.end(encoded[encoding]);
    });
    const { c } = client(s.url);
    for (const e of ["gzip", "br", "identity", ""]) expect((await c.get<{ items: unknown[] }>("/x", { query: { e } })).items).toHaveLength(50);
    expect(s.seen[0]!.headers["accept-encoding"]).toBe("br, gzip");
    await c.post("/x", { query: { e: "" } });
    expect(s.seen.at(-1)!.headers["accept-encoding"]).toBeUndefined();
    await expect(c.get("/x", { query: { e: "deflate" } })).rejects.toThrow(/content-encoding "deflate", which was not asked for/);
  });

  it("fails with the name of the field when a response breaks the contract", async () => {
    const s = await serve((_req, res) => json(res, 200, { id: 42 }));
    const { c } = client(s.url);
    const e = await failure(c.get("/x", { schema: z.looseObject({ id: z.string() }) }));
    expect(e).toBeInstanceOf(ContractError);
    expect(e.message).toContain("id:");
    expect(s.seen).toHaveLength(1);
  });
});

describe("error mapping", () => {
  const cases: [number, new (...a: never[]) => GitbookError][] = [
    [400, ValidationError],
    [422, ValidationError],
    [401, AuthError],
    [403, AuthError],
    [404, NotFoundError],
    [409, ConflictError],
    [500, ServerError],
  ];
  for (const [status, cls] of cases) {
    it(`maps ${status} to ${cls.name} with status, API message, method and path, once`, async () => {
      // The organization itself answers (a 403 or 404 under it is then about the object).
      const s = await serve((req, res) => (req.url === "/v1/orgs/o1" ? json(res, 200, { id: "o1" }) : apiError(res, status, `boom ${status} for ${TOKEN}`)));
      const { c } = client(s.url);
      const e = await failure(c.patch("/orgs/o1/sites/s1", { body: {} }));
      expect(e).toBeInstanceOf(cls);
      expect(e.status).toBe(status);
      expect(e.method).toBe("PATCH");
      expect(e.path).toBe("/v1/orgs/o1/sites/s1");
      expect(e.apiMessage).toContain(`boom ${status}`);
      expect(e.message).not.toContain(TOKEN);
      expect(s.seen.filter((r) => r.url !== "/v1/orgs/o1")).toHaveLength(1);
    });
  }

  // `destroy` and `refresh` configure the provider from the config recorded in state at the last `up`
  // (test/faults/everyFault.test.ts finishes a destroy stopped by a revoked token with --run-program).
  it("says, on a 401, that a changed token reaches destroy and refresh only with --run-program", async () => {
    const s = await serve((_req, res) => apiError(res, 401, "Invalid or revoked API token"));
    const { c } = client(s.url);
    const e = await failure(c.delete("/orgs/o1/sites/s1"));
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toMatch(/Invalid or revoked API token \(check gitbook:token or GITBOOK_TOKEN: .*`pulumi destroy`\/`pulumi refresh` with --run-program/);
  });

  it("treats DELETE 204, 205 and 404 as success", async () => {
    const statuses = [204, 205, 404];
    const s = await serve((_req, res, n) => (statuses[n - 1] === 404 ? apiError(res, 404, "gone") : json(res, statuses[n - 1]!, undefined)));
    const { c } = client(s.url);
    for (let i = 0; i < 3; i++) await c.delete("/orgs/o/sites/s");
    expect(s.seen).toHaveLength(3);
  });

  it("remembers a DELETE answered 204 or 205 as a fact (wasDeleted), and no other answer or request", async () => {
    const answers: Record<string, number> = { "/v1/x/deleted": 205, "/v1/x/absent": 204, "/v1/x/not-found": 404, "/v1/x/failed": 500, "/v1/x/read": 200 };
    const s = await serve((req, res) => (answers[req.url]! >= 400 ? apiError(res, answers[req.url]!, "no") : json(res, answers[req.url]!, req.method === "GET" ? {} : undefined)));
    const { c } = client(s.url);
    await c.delete("/x/deleted");
    await c.delete("/x/absent");
    await c.delete("/x/not-found");
    await failure(c.delete("/x/failed"));
    await c.get("/x/read");
    expect(["/x/deleted", "/x/absent", "/x/not-found", "/x/failed", "/x/read"].filter((p) => c.wasDeleted(p))).toEqual(["/x/deleted", "/x/absent"]);
  });
});

describe("retries", () => {
  for (const status of [408, 429, 502, 503, 504]) {
    it(`retries a GET after ${status} and succeeds`, async () => {
      const s = await serve((_req, res, n) => (n < 3 ? apiError(res, status, "later") : json(res, 200, { ok: true })));
      const { c, sleeps } = client(s.url);
      expect(await c.get("/x")).toEqual({ ok: true });
      expect(s.seen).toHaveLength(3);
      expect(sleeps).toHaveLength(2);
    });
  }

  it("does not retry a 500", async () => {
    const s = await serve((_req, res) => apiError(res, 500, "bug"));
    const { c } = client(s.url);
    expect(await failure(c.get("/x"))).toBeInstanceOf(ServerError);
    expect(s.seen).toHaveLength(1);
  });

  for (const method of ["PUT", "PATCH", "DELETE"] as const) {
    it(`retries ${method} after the connection is dropped`, async () => {
      const s = await serve((req, res, n) => (n === 1 ? req && res.socket!.destroy() : json(res, 200, { ok: 1 })));
      const { c } = client(s.url);
      await c.request(method, "/x", { body: {} });
      expect(s.seen).toHaveLength(2);
    });
  }

  it("uses capped exponential backoff with jitter", async () => {
    const s = await serve((_req, res) => apiError(res, 503, "down"));
    const { c, sleeps } = client(s.url, { random: () => 1, retry: { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 500 } });
    await failure(c.get("/x"));
    expect(sleeps).toEqual([100, 200, 400, 500, 500]);
    expect(s.seen).toHaveLength(6);
  });

  it("honours Retry-After in seconds", async () => {
    const s = await serve((_req, res, n) => (n === 1 ? apiError(res, 429, "slow", { "retry-after": "7" }) : json(res, 200, {})));
    const { c, sleeps } = client(s.url);
    await c.get("/x");
    expect(sleeps).toEqual([7000]);
  });

  it("honours Retry-After as an HTTP date", async () => {
    let at = 0;
    const s = await serve((_req, res, n) =>
      n === 1 ? apiError(res, 503, "slow", { "retry-after": new Date(at + 12_000).toUTCString() }) : json(res, 200, {}),
    );
    const k = client(s.url);
    at = k.now();
    await k.c.get("/x");
    expect(k.sleeps).toEqual([12_000]);
  });

  it("honours X-RateLimit-Reset (epoch seconds) when there is no Retry-After", async () => {
    let reset = 0;
    const s = await serve((_req, res, n) =>
      n === 1
        ? apiError(res, 429, "slow", { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) })
        : json(res, 200, {}),
    );
    const k = client(s.url);
    reset = Math.floor(k.now() / 1000) + 9;
    await k.c.get("/x");
    expect(k.sleeps).toEqual([reset * 1000 - 1_700_000_000_000]);
  });

  it("measures a reset or a Retry-After date from the answer's Date, GitBook's clock, whichever way this machine's is off", async () => {
    for (const skewMs of [-300_000, 0, 300_000]) {
      let served = 0;
      let serverNow = 0;
      const s = await serve((_req, res, n) => {
        if (n > 2) return json(res, 200, {});
        const date = new Date(serverNow).toUTCString();
        // Whole seconds, as GitBook sends them: the reset 9 s after the second the answer is dated in.
        const headers: Record<string, string> =
          n === 1 ? { date, "x-ratelimit-reset": String(Math.floor(serverNow / 1000) + 9) } : { date, "retry-after": new Date(Math.floor(serverNow / 1000) * 1000 + 4_000).toUTCString() };
        served++;
        apiError(res, 429, "slow", headers);
      });
      const k = client(s.url);
      // GitBook's clock, five minutes ahead of this machine's, equal, or behind; mid-second.
      serverNow = k.now() + skewMs + 400;
      await k.c.get("/x");
      expect(served).toBe(2);
      expect(k.sleeps, `GitBook's clock ${skewMs} ms from this machine's`).toEqual([9_000, 4_000]);
    }
  });

  it("backs off, rather than resending at once, while it is still rate-limited past the reset it was told (a clock ahead of GitBook's)", async () => {
    let reset = 0;
    const s = await serve((_req, res) => apiError(res, 429, "slow", { "x-ratelimit-reset": String(reset) }));
    const k = client(s.url, { random: () => 1, retry: { maxAttempts: 4, baseDelayMs: 100 } });
    // GitBook's second has not ended yet by its clock, and has by ours.
    reset = Math.floor(k.now() / 1000);
    await failure(k.c.get("/x"));
    expect(k.sleeps).toEqual([100, 200, 400]);
  });

  it("backs off after a Retry-After of 0 that is answered with another 429", async () => {
    const s = await serve((_req, res) => apiError(res, 429, "slow", { "retry-after": "0" }));
    const k = client(s.url, { random: () => 1, retry: { maxAttempts: 3, baseDelayMs: 100 } });
    await failure(k.c.get("/x"));
    expect(k.sleeps).toEqual([100, 200]);
  });

  it("says, after giving up on a rate limit, when it resets and what to do, once", async () => {
    let reset = 0;
    const s = await serve((_req, res) => apiError(res, 429, "Rate limit exceeded", { "x-ratelimit-reset": String(reset) }));
    const k = client(s.url, { random: () => 1, retry: { maxAttempts: 3, baseDelayMs: 100 } });
    reset = Math.floor(k.now() / 1000) + 2;
    const e = await failure(k.c.get("/x"));
    const at = new Date(reset * 1000).toISOString();
    expect(e.message).toBe(
      `GitBook API 429 on GET /v1/x: Rate limit exceeded; gave up after 3 attempts over 2.2 s. GitBook limits how many requests this token may make, and its limit resets at ${at}: ` +
        "run the command again after then, or with fewer resources at once (`pulumi up --parallel 4`)",
    );
  });

  it("gives up at once when the server asks for a wait beyond the deadline", async () => {
    let reset = 0;
    const s = await serve((_req, res) => apiError(res, 429, "slow", { "x-ratelimit-reset": String(reset) }));
    const k = client(s.url, { retry: { deadlineMs: 60_000 } });
    reset = Math.floor(k.now() / 1000) + 600;
    const e = await failure(k.c.get("/x"));
    expect(e).toBeInstanceOf(RateLimitError);
    expect((e as RateLimitError).resetAt).toBe(reset * 1000);
    expect(e.message).toContain(`; GitBook asked to wait 600 s, more than the 60 s one request may take. GitBook limits how many requests this token may make, and its limit resets at ${new Date(reset * 1000).toISOString()}: run the command again after then`);
    expect(k.sleeps).toEqual([]);
    expect(s.seen).toHaveLength(1);
  });

  it("stops retrying when the overall deadline is spent", async () => {
    const s = await serve((_req, res) => apiError(res, 502, "bad gateway"));
    const k = client(s.url, { random: () => 1, retry: { maxAttempts: 100, baseDelayMs: 1000, maxDelayMs: 4000, deadlineMs: 10_000 } });
    const e = await failure(k.c.get("/x"));
    expect(e).toBeInstanceOf(ServerError);
    // 1000 + 2000 + 4000 = 7000; another 4000 would pass 10 000.
    expect(k.sleeps).toEqual([1000, 2000, 4000]);
    expect(s.seen).toHaveLength(4);
  });

  it("times out a slow answer and retries a GET", async () => {
    // The first answer never comes; the timeout is long enough that the second, answered at once, is
    // never cut off on a loaded machine (150 ms was, at load 16: the test then timed out the retry too).
    const s = await serve((_req, res, n) => (n === 1 ? undefined : json(res, 200, { ok: true })));
    const { c } = client(s.url, { timeoutMs: 1500 });
    expect(await c.get("/x")).toEqual({ ok: true });
    expect(s.seen).toHaveLength(2);
  });
});

describe("non-idempotent requests", () => {
  it("retries a POST after 429 (the server did not process it)", async () => {
    const s = await serve((_req, res, n) => (n === 1 ? apiError(res, 429, "slow", { "retry-after": "1" }) : json(res, 201, { id: "a" })));
    const { c } = client(s.url);
    expect(await c.post("/x", { body: {} })).toEqual({ id: "a" });
    expect(s.seen).toHaveLength(2);
  });

  it("reports a POST whose connection dropped after sending as ambiguous, without resending", async () => {
    const s = await serve((_req, res) => res.socket!.destroy());
    const { c } = client(s.url);
    const e = await failure(c.post("/x", { body: { name: "n" } }));
    expect(e).toBeInstanceOf(AmbiguousRequestError);
    expect((e as AmbiguousRequestError).cause).toBeInstanceOf(ConnectionError);
    expect(s.seen).toHaveLength(1);
  });

  it("reports a POST answered 502/503/504 as ambiguous, without resending", async () => {
    const s = await serve((_req, res) => apiError(res, 503, "gateway"));
    const { c } = client(s.url);
    const e = await failure(c.post("/x", { body: {} }));
    expect(e).toBeInstanceOf(AmbiguousRequestError);
    expect(e.status).toBe(503);
    expect(s.seen).toHaveLength(1);
  });

  it("reports a POST that timed out as ambiguous", async () => {
    const s = await serve((_req, res) => setTimeout(() => json(res, 201, {}), 2000));
    const { c } = client(s.url, { timeoutMs: 150 });
    expect(await failure(c.post("/x", { body: {} }))).toBeInstanceOf(AmbiguousRequestError);
    expect(s.seen).toHaveLength(1);
  });

  it("treats a creating PUT marked non-idempotent like a POST", async () => {
    const s = await serve((_req, res) => res.socket!.destroy());
    const { c } = client(s.url);
    expect(await failure(c.put("/orgs/o/teams", { body: { title: "t" }, idempotent: false }))).toBeInstanceOf(AmbiguousRequestError);
    expect(s.seen).toHaveLength(1);
  });

  it("retries a POST whose connection was refused (it never reached the server)", async () => {
    const s = await serve(() => undefined);
    const closed = s.url;
    await Promise.all(servers.splice(0).map((x) => new Promise((r) => x.close(r))));
    const attempts: string[] = [];
    const { c } = client(closed, { retry: { maxAttempts: 3 }, onAttempt: (a) => attempts.push(a.error ?? "") });
    const e = await failure(c.post("/x", { body: {} }));
    expect(e).toBeInstanceOf(ConnectionError);
    expect((e as ConnectionError).code).toBe("ECONNREFUSED");
    expect(attempts).toEqual(["ECONNREFUSED", "ECONNREFUSED", "ECONNREFUSED"]);
  });
});

describe("pagination", () => {
  const items = Array.from({ length: 2345 }, (_, i) => ({ id: `i${i}` }));
  function pager() {
    return serve((req, res) => {
      const u = new URL(req.url, "http://x");
      const limit = Number(u.searchParams.get("limit"));
      const start = Number(u.searchParams.get("page") ?? 0);
      const slice = items.slice(start, start + limit);
      const next = start + limit < items.length ? { page: String(start + limit) } : undefined;
      json(res, 200, { items: slice, count: items.length, ...(next ? { next } : {}) });
    });
  }
  const Item = z.looseObject({ id: z.string() });

  it("follows next.page across several pages at limit 1000", async () => {
    const s = await pager();
    const { c } = client(s.url);
    const got: string[] = [];
    for await (const it of c.paginate("/orgs/o/sites/s/site-spaces", Item)) got.push(it.id);
    expect(got).toEqual(items.map((i) => i.id));
    expect(s.seen.map((r) => new URL(r.url, "http://x").searchParams.get("limit"))).toEqual(["1000", "1000", "1000"]);
  });

  /**
   * A server answering every request with one static page, whose `next` the test chooses. After 50
   * requests it stops pointing onward, so a client without the guards fails these tests instead of
   * hanging them.
   */
  function staticPage(next: (n: number) => string | undefined, pageItems: { id: string }[] = [{ id: "u1" }, { id: "u2" }], count: number | undefined = 2) {
    return serve((_req, res, n) => {
      const cursor = n < 50 ? next(n) : undefined;
      json(res, 200, { items: pageItems, ...(count !== undefined ? { count } : {}), ...(cursor ? { next: { page: cursor } } : {}) });
    });
  }
  async function listingFailure(url: string): Promise<GitbookError> {
    const { c } = client(url);
    return failure(c.listAll("/orgs/o/teams/t/members", Item));
  }

  it("stops a listing whose next.page cursor repeats, naming the path, after two requests", async () => {
    // The documented example page, served for every request: its cursor always points to itself.
    const s = await staticPage(() => "page-2");
    const e = await listingFailure(s.url);
    expect(e).toBeInstanceOf(ContractError);
    expect(e.message).toMatch(/^GitBook API GET \/v1\/orgs\/o\/teams\/t\/members failed: unexpected response shape: next\.page: the cursor "page-2" was already followed; stopped after 2 page requests/);
    expect(s.seen).toHaveLength(2);
  });

  it("stops a listing whose cursors cycle", async () => {
    const s = await staticPage((n) => (n % 2 ? "a" : "b"), [{ id: "u1" }], undefined);
    const e = await listingFailure(s.url);
    expect(e).toBeInstanceOf(ContractError);
    expect(e.message).toContain('the cursor "a" was already followed');
    expect(s.seen).toHaveLength(3);
  });

  it("stops a listing that yields more items than the count it reports, even with fresh cursors", async () => {
    const s = await staticPage((n) => `p${n + 1}`);
    const e = await listingFailure(s.url);
    expect(e).toBeInstanceOf(ContractError);
    expect(e.message).toContain("/v1/orgs/o/teams/t/members");
    expect(e.message).toContain("4 items were listed, more than the count of 2 the API reported");
    expect(s.seen).toHaveLength(2);
  });

  it("stops a run of empty pages that keep pointing to a next page", async () => {
    const s = await staticPage((n) => `p${n + 1}`, [], undefined);
    const e = await listingFailure(s.url);
    expect(e).toBeInstanceOf(ContractError);
    expect(e.message).toContain("3 pages in a row had no items yet pointed to another page");
    expect(s.seen).toHaveLength(3);
  });

  it("still follows an empty last page and a count that grows while listing", async () => {
    const s = await serve((req, res) => {
      const page = new URL(req.url, "http://x").searchParams.get("page");
      if (!page) json(res, 200, { items: [{ id: "a" }], count: 1, next: { page: "2" } });
      else if (page === "2") json(res, 200, { items: [{ id: "b" }], count: 2, next: { page: "3" } });
      else json(res, 200, { items: [], count: 2, next: null });
    });
    const { c } = client(s.url);
    expect((await c.listAll("/l", Item)).map((i) => i.id)).toEqual(["a", "b"]);
  });

  it("shares one listing among concurrent readers and drops it after a write", async () => {
    const s = await pager();
    const { c } = client(s.url);
    const lists = await Promise.all(Array.from({ length: 20 }, () => c.listAll("/l", Item)));
    expect(lists.every((l) => l.length === items.length)).toBe(true);
    expect(s.seen).toHaveLength(3);
    await c.listAll("/l", Item);
    expect(s.seen).toHaveLength(3);
    await c.patch("/l/i1", { body: {} }).catch(() => undefined);
    await c.listAll("/l", Item);
    expect(s.seen).toHaveLength(3 + 1 + 3);
  });

  it("fresh() sends again only its own client's listings, also nested in another client's guard()", async () => {
    const s = await pager();
    const [a, b] = [client(s.url).c, client(s.url).c];
    await Promise.all([a.listAll("/l", Item), b.listAll("/l", Item)]);
    expect(s.seen).toHaveLength(6);
    await a.fresh(() => Promise.all([a.listAll("/l", Item), b.listAll("/l", Item)]));
    expect(s.seen).toHaveLength(9);
    await b.guard("anything", () => a.fresh(() => Promise.all([a.listAll("/l", Item), b.listAll("/l", Item)])));
    expect(s.seen).toHaveLength(12);
  });

  it("keeps one AsyncLocalStorage for all clients: Node 20 walks each ever run on every new promise", async () => {
    const s = await pager();
    const run = vi.spyOn(AsyncLocalStorage.prototype, "run");
    try {
      for (let i = 0; i < 3; i++) await client(s.url).c.fresh(async () => undefined);
      expect(new Set(run.mock.contexts).size).toBe(1);
    } finally {
      run.mockRestore();
    }
  });
});

describe("the token", () => {
  it("appears in no error message or property raised in this suite", () => {
    expect(errorsSeen.length).toBeGreaterThan(15);
    for (const e of errorsSeen) {
      expect(JSON.stringify({ ...(e as object), message: (e as Error).message, stack: (e as Error).stack })).not.toContain(TOKEN);
    }
  });
});
