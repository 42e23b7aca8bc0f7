/**
 * Answers that are not GitBook's API (a wrong `gitbook:apiUrl`, a proxy, a login page) are summarised:
 * status, content type and first line, bounded and free of terminal control characters, naming the
 * setting that chose the URL; and they never pass for "not found" or for a success.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import { ApiSiteSection } from "../resources/siteSection";
import { ContractError, displayable, GitbookClient, GitbookError, NotApiError, NotFoundError, ServerError } from "./index";

const TOKEN = "gb_secret_token_ABC123xyz";
const servers: http.Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A loopback server answering every request with `status`, `type` and `body`. */
async function serve(status: number, type: string | undefined, body: string): Promise<{ url: string; count: () => number }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    n++;
    req.resume();
    res.writeHead(status, type ? { "content-type": type } : {});
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => n };
}

function client(url: string) {
  return new GitbookClient({ token: TOKEN, apiUrl: url, apiUrlSetting: "gitbook:apiUrl", retry: { baseDelayMs: 1, maxDelayMs: 2 } });
}

async function failure(p: Promise<unknown>): Promise<GitbookError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!(e instanceof GitbookError)) throw new Error(`expected a GitbookError, got ${String(e)}`);
  return e;
}

const PAGE = `<!DOCTYPE html>\n<html><head><title>Not Found</title></head>\n<body>${"<p>lorem ipsum</p>".repeat(5000)}</body></html>\n`;

it("summarises an HTML 404 (status, content type, first line), names gitbook:apiUrl, and is no NotFoundError", async () => {
  const s = await serve(404, "text/html; charset=utf-8", PAGE);
  const c = client(s.url);
  const e = await failure(c.get("/orgs/org_1/sites/site_1"));
  expect(e).toBeInstanceOf(NotApiError);
  expect(e).not.toBeInstanceOf(NotFoundError);
  expect(e.message).toBe(
    `GitBook API 404 on GET /v1/orgs/org_1/sites/site_1: the answer is not from GitBook's API (HTTP 404, text/html; charset=utf-8, first line "<!DOCTYPE html>"); ` +
      `gitbook:apiUrl may be wrong: it is ${s.url}, and GitBook's API is https://api.gitbook.com`,
  );
  // A delete of what is not there succeeds on 404: never on a page that is not the API's.
  await expect(c.delete("/orgs/org_1/sites/site_1")).rejects.toBeInstanceOf(NotApiError);
  await c.close();
});

it("takes no HTML page answering 200 for a success", async () => {
  const s = await serve(200, "text/html", PAGE);
  const c = client(s.url);
  const e = await failure(c.post("/orgs/org_1/sites", { body: { title: "Docs" } }));
  expect(e).toBeInstanceOf(NotApiError);
  expect(e.message).toContain(`the answer is not from GitBook's API (HTTP 200, text/html, first line "<!DOCTYPE html>"); gitbook:apiUrl may be wrong`);
  await expect(c.get("/orgs/org_1/sites", { schema: z.object({ items: z.array(z.unknown()) }) })).rejects.toBeInstanceOf(NotApiError);
  await c.close();
});

it("summarises JSON that is not the API's error shape, and still retries a gateway's 502 page", async () => {
  const other = await serve(401, "application/json", `{"message":"Unauthorized","detail":"${"x".repeat(10_000)}"}`);
  const e = await failure(client(other.url).get("/orgs/org_1"));
  expect(e.message).toMatch(/the answer is not from GitBook's API \(HTTP 401, application\/json, first line "\{"message":"Unauthorized","detail":"x+…"\)/);
  expect(e.message.length).toBeLessThan(400);

  const gateway = await serve(502, "text/html", "<html><body>Bad Gateway</body></html>");
  const g = await failure(client(gateway.url).get("/orgs/org_1/sites"));
  expect(g).toBeInstanceOf(ServerError);
  expect(gateway.count()).toBeGreaterThan(1);
  expect(g.message).toContain('the answer is not from GitBook\'s API (HTTP 502, text/html, first line "<html><body>Bad Gateway</body></html>")');
});

it("never passes the server's control characters to the terminal, nor more than a bounded length, nor the token", async () => {
  const hostile = `\u001b[2J\u001b]0;pwned\u0007Gone ${TOKEN}\r\u202eevil\u2028next line\n` + "tail ".repeat(1000);
  const s = await serve(404, "text/plain", hostile);
  const e = await failure(client(s.url).get("/orgs/org_1/spaces"));
  // eslint-disable-next-line no-control-regex
  expect(e.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
  expect(e.message).not.toContain(TOKEN);
  expect(e.message).toContain("\\u001b[2J\\u001b]0;pwned\\u0007Gone [REDACTED]");
  expect(e.message.length).toBeLessThan(400);

  // Echoed in another case, or URL-encoded, it is the token all the same.
  for (const echoed of [TOKEN.toLowerCase(), TOKEN.toUpperCase(), encodeURIComponent(TOKEN)]) {
    const t = await serve(404, "text/plain", `no such token: ${echoed}`);
    const m = (await failure(client(t.url).get("/orgs/org_1/spaces"))).message;
    expect(m.toLowerCase()).not.toContain(TOKEN.toLowerCase());
    expect(m).toContain("no such token: [REDACTED]");
  }

  // The API's own messages go through the same filter.
  const api = await serve(404, "application/json", JSON.stringify({ error: { code: 404, message: `no site\u001b[31m ${"y".repeat(2000)}` } }));
  const a = await failure(client(api.url).get("/spaces/spc_1"));
  expect(a).toBeInstanceOf(NotFoundError);
  expect(a.apiMessage).toMatch(/^no site\\u001b\[31m y+…$/);
  expect(a.apiMessage.length).toBe(500);
});

it("displayable writes out what could steer a terminal and folds whitespace", () => {
  expect(displayable("a\u001b[1mb\tc\n\nd\u0085e\u202ef", 100)).toBe("a\\u001b[1mb c d\\u0085e\\u202ef");
  expect(displayable("abcdef", 4)).toBe("abc…");
});

it("takes a site space's embedded space whole, without copying it, and names the field when its id is missing", async () => {
  const space = { object: "space", id: "spc_1", title: "Guides", permissions: { edit: true } };
  const section = (sp: unknown) => ({ object: "site-section", id: "sitesc_1", title: "A", path: "a", siteSpaces: [{ object: "site-space", id: "sitesp_1", path: "a", space: sp }] });
  const good = await serve(200, "application/json", JSON.stringify({ items: [section(space)] }));
  const [listed] = await client(good.url).listNow("/orgs/org_1/sites/site_1/sections", ApiSiteSection);
  // Every field of the embedded space, the ones no schema names included (the importer reads its title).
  expect(listed!.siteSpaces![0]!.space).toEqual(space);
  const bad = await serve(200, "application/json", JSON.stringify({ items: [section({ object: "space", title: "Guides" })] }));
  const e = await failure(client(bad.url).listNow("/orgs/org_1/sites/site_1/sections", ApiSiteSection));
  expect(e).toBeInstanceOf(ContractError);
  expect(e.message).toContain("items.0.siteSpaces.0.space.id: expected a string");
});

it("takes a redirect for an answer that is not the API's, naming where it leads (without its query) and gitbook:apiUrl, and never follows it with the token", async () => {
  let followed = 0;
  const target = http.createServer((req, res) => (followed++, req.resume(), res.end("{}")));
  servers.push(target);
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  const to = `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1/orgs/org_1?key=${TOKEN}`;
  const server = http.createServer((req, res) => (req.resume(), res.writeHead(301, { location: to }), res.end()));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const c = client(url);
  const e = await failure(c.get("/orgs/org_1"));
  expect(e).toBeInstanceOf(NotApiError);
  expect(e.message).toBe(
    `GitBook API 301 on GET /v1/orgs/org_1: the answer is not from GitBook's API (HTTP 301, no content type, a redirect to ${to.replace(/\?.*/, "")}); ` +
      `gitbook:apiUrl may be wrong: it is ${url}, and GitBook's API is https://api.gitbook.com`,
  );
  expect(e.message).not.toContain(TOKEN);
  // Not a delete's "already gone" either.
  await expect(c.delete("/orgs/org_1/sites/site_1")).rejects.toBeInstanceOf(NotApiError);
  expect(followed).toBe(0);
  await c.close();
});
