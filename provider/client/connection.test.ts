/**
 * An API that cannot be reached: a closed port or an unknown host fails within about a second, with
 * a message naming the URL, the setting it came from, and how many attempts were made over how long;
 * and every retry is reported (onRetry) before its wait, so a long wait can be shown as it happens.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionError, GitbookClient, RateLimitError, type RetryInfo } from "./index";
import { announceRetry, retryLine } from "../config";
import { closedPort } from "../../test/support/net";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

describe("an unreachable API", () => {
  it("fails a closed port within about a second, naming the URL, the setting, the attempts and the time", async () => {
    const url = await closedPort();
    const retries: RetryInfo[] = [];
    const c = new GitbookClient({ token: "t0ken-xyz", apiUrl: url, apiUrlSetting: "gitbook:apiUrl", onRetry: (r) => retries.push(r) });
    const e = await c.get("/orgs/o/sites").then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ConnectionError);
    expect((e as ConnectionError).code).toBe("ECONNREFUSED");
    expect((e as Error).message).toMatch(
      new RegExp(`^GitBook API GET /v1/orgs/o/sites failed: ECONNREFUSED: .* \\(could not connect to ${url.replace(/\./g, "\\.")}, set by gitbook:apiUrl: check that setting and the network\\); gave up after 3 attempts over \\d+\\.\\d s$`),
    );
    expect((e as ConnectionError).attempts).toBe(3);
    // Three attempts, not the whole retry budget (25 to 48 s a closed port used to take); timing is the bench's.
    expect(retries.map((r) => [r.attempt, r.maxAttempts])).toEqual([
      [1, 3],
      [2, 3],
    ]);
    expect(retries.every((r) => r.waitMs <= 1000 && r.reason === `ECONNREFUSED from ${url}`)).toBe(true);
  });

  it("fails an unknown host after three attempts, naming the environment variable it came from", async () => {
    // No DNS query leaves the machine: undici's mock agent answers every request with the lookup error.
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get("https://docs-api.invalid");
    const lookupFailed = () => Object.assign(new Error("getaddrinfo ENOTFOUND docs-api.invalid"), { code: "ENOTFOUND" });
    for (let i = 0; i < 5; i++) pool.intercept({ path: /.*/, method: "POST" }).replyWithError(lookupFailed());
    const sleeps: number[] = [];
    const c = new GitbookClient({
      token: "t0ken-xyz",
      apiUrl: "https://docs-api.invalid",
      apiUrlSetting: "GITBOOK_API_URL",
      dispatcher: agent,
      sleep: async (ms) => void sleeps.push(ms),
    });
    const e = await c.post("/orgs/o/sites", { body: { title: "Docs" } }).then(
      () => undefined,
      (err: unknown) => err as ConnectionError,
    );
    expect(e).toBeInstanceOf(ConnectionError);
    expect(e!.code).toBe("ENOTFOUND");
    expect(e!.message).toContain("could not connect to https://docs-api.invalid, set by GITBOOK_API_URL");
    expect(e!.message).toMatch(/gave up after 3 attempts over \d+\.\d s$/);
    expect(sleeps).toHaveLength(2);
    expect(sleeps.every((ms) => ms <= 1000)).toBe(true);
    await agent.close();
  });

  it("says how many attempts a rate-limited request made over how long", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "0" });
      res.end(JSON.stringify({ error: { code: 429, message: "Too many requests" } }));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const retries: RetryInfo[] = [];
    const c = new GitbookClient({ token: "t0ken-xyz", apiUrl: url, retry: { maxAttempts: 4, baseDelayMs: 5 }, onRetry: (r) => retries.push(r) });
    const e = await c.get("/x").then(
      () => undefined,
      (err: unknown) => err as RateLimitError,
    );
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e!.message).toMatch(
      /^GitBook API 429 on GET \/v1\/x: Too many requests; gave up after 4 attempts over \d+\.\d s\. GitBook limits how many requests this token may make: run the command again after a while, or with fewer resources at once \(`pulumi up --parallel 4`\)$/,
    );
    expect(retries.map((r) => r.reason)).toEqual(["429 rate limited", "429 rate limited", "429 rate limited"]);
  });
});

describe("retry announcements", () => {
  const info = (over: Partial<RetryInfo>): RetryInfo => ({ method: "POST", path: "/v1/orgs/o/sites", reason: "429 rate limited", attempt: 1, maxAttempts: 8, waitMs: 12_000, elapsedMs: 300, ...over });

  it("say what is retried, why, how long the wait is and which attempt comes next", () => {
    expect(retryLine(info({}))).toBe("pulumi-gitbook: POST /v1/orgs/o/sites: 429 rate limited; retrying in 12.0 s (attempt 2 of at most 8, 0.3 s so far)");
  });

  it("go to stderr (which the engine relays from the dynamic-provider host) for waits of a second or more, or requests slower than 5 s", () => {
    const lines: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      announceRetry(info({ waitMs: 200, elapsedMs: 100 }));
      announceRetry(info({ waitMs: 1000 }));
      announceRetry(info({ waitMs: 50, elapsedMs: 31_000, reason: "ETIMEDOUT from https://api.gitbook.com" }));
    } finally {
      process.stderr.write = write;
    }
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("retrying in 1.0 s");
    expect(lines[1]).toContain("ETIMEDOUT from https://api.gitbook.com; retrying in 0.1 s (attempt 2 of at most 8, 31.0 s so far)");
  });
});
