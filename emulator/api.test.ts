// The emulator's HTTP behaviour shared by every route: authentication, 404s, idempotent DELETE, paging, the request log.
import { describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { Emulator } from "./emulator";
import { useEmulator, siteWithSection, call, org, space, must, createSite, createSection, expectError, emu, type Json } from "../test/support/emulatorApi";

useEmulator();

// ------------------------------------------------------------------ auth

describe("authentication", () => {
  it("answers 401 {error} without a token, with a wrong one, and after revokeToken", async () => {
    // /v1/nowhere is no path of the spec: checked as received, before authentication.
    expectContractViolation(/GET \/v1\/nowhere: no operation of the spec has this path/);
    expectError(await call("GET", "/v1/orgs", undefined, null), 401);
    expectError(await call("GET", "/v1/orgs", undefined, "gb_emu_wrong"), 401);
    // Authentication comes before routing.
    expectError(await call("GET", "/v1/nowhere", undefined, null), 401);
    const good = await call("GET", "/v1/orgs");
    expect(good.status).toBe(200);
    expect(good.body.items.map((o: Json) => o.id)).toEqual([emu.seeded.organizationId]);

    const old = emu.token;
    emu.revokeToken();
    expectError(await call("GET", "/v1/orgs", undefined, old), 401);
    emu.token = "gb_emu_fresh";
    expect((await call("GET", "/v1/orgs", undefined, "gb_emu_fresh")).status).toBe(200);
    expectError(await call("GET", "/v1/orgs", undefined, old), 401);
  });

  it("uses the token given in the options, and a random gb_emu_ token otherwise", async () => {
    expect(emu.token).toMatch(/^gb_emu_[0-9a-f]{32}$/);
    const other = await Emulator.start({ token: "fixed-token" });
    try {
      expect((await call("GET", "/v1/orgs", undefined, "fixed-token", other)).status).toBe(200);
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await other.close();
    }
  });
});

// ------------------------------------------------------------------ 404

describe("not found", () => {
  it("answers 404 {error} for unknown ids and routes", async () => {
    // Unknown routes are no paths of the spec; unknown ids are valid requests.
    expectContractViolation(/GET \/v1\/nowhere: no operation of the spec has this path/);
    expectContractViolation(/POST \/v1\/orgs\/[^ ]+\/unknown: no operation of the spec has this path/);
    const site = await createSite();
    const s = `${org()}/sites/${site.id}`;
    const cases: [string, string, unknown?][] = [
      ["GET", "/v1/orgs/org_nope"],
      ["GET", "/v1/orgs/org_nope/sites"],
      ["GET", `${org()}/sites/site_nope`],
      ["PATCH", `${org()}/sites/site_nope`, { title: "Whatever" }],
      ["PATCH", `${s}/sections/sec_nope`, { title: "Whatever" }],
      ["PATCH", `${s}/site-spaces/ss_nope`, { path: "x" }],
      ["PATCH", `${s}/share-links/shl_nope`, { name: "x" }],
      ["GET", `/v1/spaces/spc_nope`],
      ["GET", `${org()}/members/usr_nope`],
      ["GET", `${org()}/teams/team_nope`],
      ["GET", `${org()}/saml/saml_nope`],
      ["GET", `${org()}/openapi/nope`],
      ["GET", `${org()}/openapi/nope/versions/latest`],
      ["GET", "/v1/nowhere"],
      ["POST", `${org()}/sites/${site.id}/unknown`, {}],
    ];
    for (const [method, path, body] of cases) {
      const r = await call(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expectError(r, 404);
    }
    // A site of this org is not reachable through another org id.
    expectError(await call("GET", `/v1/orgs/org_other/sites/${site.id}`), 404);
  });
});

// ------------------------------------------------------------------ DELETE

describe("idempotent DELETE", () => {
  it("answers 205 when something was deleted and 204 when it was already gone, everywhere", async () => {
    const { site, base, section } = await siteWithSection();
    const ss = await must("POST", `${base}/site-spaces`, { spaceId: space(1) }, 201);
    const link = await must("POST", `${base}/share-links`, { name: "L" }, 201);
    const group = await must("POST", `${base}/section-groups`, { title: "G" }, 201);
    const team = await must("PUT", `${org()}/teams`, { title: "T", members: [emu.seeded.members[1]!.id] }, 201);
    const saml = await must("POST", `${org()}/saml`, { label: "Okta" }, 201);
    await must("POST", `${org()}/openapi`, { slug: "petstore", source: { text: "openapi: 3.0.0" } }, 201);

    const paths = [
      `${base}/site-spaces/${ss.id}`,
      `${base}/share-links/${link.id}`,
      `${base}/section-groups/${group.id}`,
      `${base}/sections/${section.id}`,
      base,
      `${org()}/teams/${team.id}/members/${emu.seeded.members[1]!.id}`,
      `${org()}/teams/${team.id}`,
      `${org()}/saml/${saml.id}`,
      `${org()}/openapi/petstore`,
    ];
    for (const p of paths) {
      const first = await call("DELETE", p);
      expect(first.status, p).toBe(205);
      expect(first.body).toBeUndefined();
      expect((await call("DELETE", p)).status, p).toBe(204);
    }
    expect((await call("GET", base)).status).toBe(404);
    // Children of a deleted site are gone too, and deleting them afterwards is a no-op.
    expect([...emu.store.sections.values()].filter((s) => s.siteId === site.id)).toEqual([]);
    expect((await call("DELETE", `${base}/sections/${section.id}`)).status).toBe(204);
    // An unknown organization is still an error.
    expectError(await call("DELETE", `/v1/orgs/org_nope/sites/${site.id}`), 404);
  });

  it("deleting a site removes its sections, site spaces and share links", async () => {
    const { site, base } = await siteWithSection();
    await must("POST", `${base}/share-links`, { name: "L" }, 201);
    expect((await call("DELETE", base)).status).toBe(205);
    const left = [...emu.store.siteSpaces.values(), ...emu.store.shareLinks.values(), ...emu.store.sections.values()].filter(
      (r) => r.siteId === site.id,
    );
    expect(left).toEqual([]);
  });
});

// ------------------------------------------------------------------ pagination

describe("pagination", () => {
  it("walks every page with opaque cursors, in creation order", async () => {
    const titles = Array.from({ length: 7 }, (_, i) => `Team ${i + 1}`);
    for (const title of titles) await must("PUT", `${org()}/teams`, { title }, 201);

    const seen: string[] = [];
    let page: string | undefined;
    const sizes: number[] = [];
    do {
      const r = await must("GET", `${org()}/teams?limit=3${page ? `&page=${encodeURIComponent(page)}` : ""}`, undefined, 200);
      expect(r.count).toBe(7);
      sizes.push(r.items.length);
      seen.push(...r.items.map((t: Json) => t.title));
      page = r.next?.page;
      if (page !== undefined) expect(typeof page).toBe("string");
    } while (page !== undefined);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(titles);

    const all = await must("GET", `${org()}/teams`, undefined, 200);
    expect(all.items).toHaveLength(7);
    expect(all).not.toHaveProperty("next");
    expect((await must("GET", `${org()}/teams?limit=1000`, undefined, 200)).items).toHaveLength(7);
    const exact = await must("GET", `${org()}/teams?limit=7`, undefined, 200);
    expect(exact).not.toHaveProperty("next");
  });

  it("is stable when items are deleted between pages", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await must("PUT", `${org()}/teams`, { title: `T${i}` }, 201)).id);
    const p1 = await must("GET", `${org()}/teams?limit=2`, undefined, 200);
    await call("DELETE", `${org()}/teams/${ids[1]}`);
    await call("DELETE", `${org()}/teams/${ids[2]}`);
    const p2 = await must("GET", `${org()}/teams?limit=2&page=${p1.next.page}`, undefined, 200);
    expect(p2.items.map((t: Json) => t.id)).toEqual([ids[3], ids[4]]);
    expect(p2).not.toHaveProperty("next");
  });

  it("defaults to 50 and rejects limits outside 1..1000 and foreign page tokens", async () => {
    for (let i = 0; i < 51; i++) await must("PUT", `${org()}/teams`, { title: `T${i}` }, 201);
    const first = await must("GET", `${org()}/teams`, undefined, 200);
    expect(first.items).toHaveLength(50);
    expect(first.count).toBe(51);
    expect(first.next.page).toEqual(expect.any(String));
    // The spec's limit is a number from 0 to 1000; GitBook refuses 0 as well (LIST_LIMIT).
    expectContractViolation(/listTeamsInOrganizationById query \/limit: must be <= 1000/);
    expectContractViolation(/listTeamsInOrganizationById query \/limit: must be >= 0/);
    expectContractViolation(/listTeamsInOrganizationById query \/limit: must be number/);
    for (const limit of ["1001", "0", "-1", "abc", ""]) {
      expectError(await call("GET", `${org()}/teams?limit=${limit}`), 400, "limit: ");
    }
    // A fraction is a number: whole items are served.
    expect((await must("GET", `${org()}/teams?limit=2.5`, undefined, 200)).items).toHaveLength(2);
    expect((await call("GET", `${org()}/teams?limit=1000`)).status).toBe(200);
    expectError(await call("GET", `${org()}/teams?page=not-a-token`), 400, "page: ");
  });

  it("every list route uses the envelope", async () => {
    const { base } = await siteWithSection();
    const team = await must("PUT", `${org()}/teams`, { title: "T", members: [emu.seeded.members[0]!.id] }, 201);
    await must("POST", `${org()}/openapi`, { slug: "s", source: { text: "swagger: '2.0'" } }, 201);
    const lists = [
      "/v1/orgs",
      `${org()}/members`,
      `${org()}/sites`,
      `${base}/sections`,
      `${base}/section-groups`,
      `${base}/site-spaces`,
      `${base}/share-links`,
      `${org()}/teams`,
      `${org()}/teams/${team.id}/members`,
      `${org()}/saml`,
      `${org()}/openapi`,
      `${org()}/openapi/s/versions`,
    ];
    expectContractViolation(/query \/limit: must be <= 1000/);
    for (const path of lists) {
      const r = await must("GET", `${path}?limit=1`, undefined, 200);
      expect(Object.keys(r).sort(), path).toEqual(r.next ? ["count", "items", "next"] : ["count", "items"]);
      expect(r.items.length, path).toBeLessThanOrEqual(1);
      expectError(await call("GET", `${path}?limit=1001`), 400, "limit: ");
    }
  });
});

// ------------------------------------------------------------------ request log

describe("request log", () => {
  it("records every request with its route template", async () => {
    const site = await createSite();
    await createSection(site.id, { spaceId: space(0) });
    await createSection(site.id, { spaceId: space(1) });
    await call("GET", `${org()}/sites/${site.id}/sections`);
    expectContractViolation(/GET \/v1\/nowhere: no operation of the spec has this path/);
    await call("GET", "/v1/nowhere");
    await call("GET", "/v1/orgs", undefined, null);

    const log = emu.log;
    expect(log.count()).toBe(6);
    expect(log.count({ method: "post" })).toBe(3);
    expect(log.count({ route: "/v1/orgs/:org/sites/:site/sections" })).toBe(3);
    expect(log.count({ method: "GET", route: /sections$/ })).toBe(1);
    expect(log.writes()).toBe(3);
    expect(log.byRoute()).toEqual({
      "POST /v1/orgs/:org/sites": 1,
      "POST /v1/orgs/:org/sites/:site/sections": 2,
      "GET /v1/orgs/:org/sites/:site/sections": 1,
      "GET *": 1,
      "GET /v1/orgs": 1,
    });
    expect(log.entries.map((e) => e.status)).toEqual([201, 201, 201, 200, 404, 401]);
    expect(log.entries[0]!.path).toBe(`${org()}/sites`);
    expect(log.entries.every((e) => e.ms >= 0)).toBe(true);
    log.reset();
    expect(log.count()).toBe(0);
    expect(log.byRoute()).toEqual({});
  });

  it("ids are unique and never reused", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const t = await must("PUT", `${org()}/teams`, { title: `T${i}` }, 201);
      ids.add(t.id);
      await call("DELETE", `${org()}/teams/${t.id}`);
    }
    expect(ids.size).toBe(20);
  });
});
