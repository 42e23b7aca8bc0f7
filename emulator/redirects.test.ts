// Site redirects: one rule per source and draft state, the bulk PUT, resolving a source.
import { describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { call, emu, expectError, listAll, must, org, siteWithSection, type Json } from "../test/support/emulatorApi";
import { useEmulator } from "../test/support/emulatorApi";
import { Emulator } from "./emulator";
import { SeedError } from "./seed";

useEmulator();

const ext = (url: string) => ({ kind: "external", url });

describe("site redirects", () => {
  it("creates, lists (live by default, newest first), patches and deletes a rule (205, then 204)", async () => {
    const { site, section, base } = await siteWithSection();
    const a = await must("POST", `${base}/redirects`, { source: "/old", destination: ext("https://example.com/new") }, 201);
    expect(a).toEqual({
      object: "site-redirect",
      id: expect.any(String),
      source: "/old",
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: ext("https://example.com/new"),
      createdAt: expect.any(String),
    });
    const b = await must("POST", `${base}/redirects`, { source: "/guides/*", draft: true, captureWildcard: true, destination: { kind: "site-section", siteSectionId: section.id } }, 201);
    expect((await listAll(`${base}/redirects`)).map((r: Json) => r.id)).toEqual([a.id]);
    expect((await listAll(`${base}/redirects?draft=true`)).map((r: Json) => r.id)).toEqual([b.id]);
    await must("POST", `${base}/redirects`, { source: "/older", destination: ext("https://example.com/x") }, 201);
    expect((await listAll(`${base}/redirects?search=old&orderBy=source`)).map((r: Json) => r.source)).toEqual(["/old", "/older"]);
    expect((await listAll(`${base}/redirects`)).map((r: Json) => r.source)).toEqual(["/older", "/old"]);

    const patched = await must("PATCH", `${base}/redirects/${a.id}`, { source: "/old-2", permanent: true }, 200);
    expect(patched).toMatchObject({ source: "/old-2", permanent: true, destination: ext("https://example.com/new"), updatedAt: expect.any(String) });
    expect((await call("DELETE", `${base}/redirects/${a.id}`)).status).toBe(205);
    expect((await call("DELETE", `${base}/redirects/${a.id}`)).status).toBe(204);
    expect((await call("DELETE", `${org()}/sites/site_gone/redirects/${a.id}`)).status).toBe(204);
    expect(site.id).toBeTruthy();
  });

  it("refuses a malformed source or destination (400 naming the field) and a second rule for one source (409)", async () => {
    // The refused bodies break the spec, as they should.
    expectContractViolation(/createSiteRedirect request body \/source/);
    expectContractViolation(/createSiteRedirect request body \/destination/);
    const { base } = await siteWithSection();
    for (const source of ["old", "/", "/a b", "/*", "/a*/b", "/a//b", `/${"a".repeat(512)}`]) {
      expectError(await call("POST", `${base}/redirects`, { source, destination: ext("https://example.com") }), 400, "source");
    }
    expectError(await call("POST", `${base}/redirects`, { source: "/a", destination: ext("not a url") }), 400, "destination.url");
    expectError(await call("POST", `${base}/redirects`, { source: "/a", destination: { kind: "site-section", siteSectionId: "nope" } }), 400, "destination.siteSectionId");
    expectError(await call("POST", `${base}/redirects`, { source: "/a", destination: { kind: "site-space", siteSpaceId: "nope" } }), 400, "destination.siteSpaceId");
    expectError(await call("POST", `${base}/redirects`, { source: "/a", destination: { kind: "teleport" } }), 400, "destination.kind");
    expectError(await call("POST", `${base}/redirects`, { source: "/a" }), 400, "destination");
    await must("POST", `${base}/redirects`, { source: "/a", destination: ext("https://example.com") }, 201);
    expectError(await call("POST", `${base}/redirects`, { source: "/a", destination: ext("https://example.com/2") }), 409, "source");
    // The same source may have a draft rule beside the live one.
    const d = await must("POST", `${base}/redirects`, { source: "/a", draft: true, destination: ext("https://example.com/2") }, 201);
    expectError(await call("PATCH", `${base}/redirects/${d.id}`, { draft: false }), 409, "source");
    expectError(await call("PATCH", `${base}/redirects/nope`, { permanent: true }), 404);
  });

  it("upserts, deletes and publishes in bulk, each item on its own", async () => {
    const { base } = await siteWithSection();
    const first = await must(
      "PUT",
      `${base}/redirects`,
      {
        redirects: [
          { source: "/a", destination: ext("https://example.com/a") },
          { source: "/b", intent: "draft", destination: ext("https://example.com/b"), permanent: true },
          { source: "/c", destination: { kind: "site-space", siteSpaceId: "nope" } },
        ],
      },
      200,
    );
    expect(first.results).toEqual([
      { status: "created", source: "/a", draft: false, id: expect.any(String) },
      { status: "created", source: "/b", draft: true, id: expect.any(String) },
      { status: "error", source: "/c", draft: false, error: expect.stringContaining("destination.siteSpaceId") },
    ]);
    const second = await must(
      "PUT",
      `${base}/redirects`,
      {
        redirects: [
          { source: "/a", destination: ext("https://example.com/a2") },
          { source: "/b", intent: "publish" },
          { source: "/zz", destination: null },
        ],
      },
      200,
    );
    expect(second.results.map((r: Json) => r.status)).toEqual(["updated", "published", "error"]);
    expect((await listAll(`${base}/redirects`)).map((r: Json) => [r.source, r.destination.url, r.permanent])).toEqual([
      ["/b", "https://example.com/b", true],
      ["/a", "https://example.com/a2", false],
    ]);
    expect(await listAll(`${base}/redirects?draft=true`)).toEqual([]);
    expect((await must("PUT", `${base}/redirects`, { redirects: [{ source: "/a", destination: null }] }, 200)).results).toEqual([{ status: "deleted", source: "/a", draft: false }]);
    expectContractViolation(/bulkUpsertSiteRedirects request body \/redirects: must NOT have fewer than 1 items/);
    expectError(await call("PUT", `${base}/redirects`, { redirects: [] }), 400, "redirects");
  });

  it("resolves a live rule by its source, 404 when none; a deleted site takes its rules along", async () => {
    const { site, section, base } = await siteWithSection();
    const r = await must("POST", `${base}/redirects`, { source: "/old", destination: { kind: "site-section", siteSectionId: section.id } }, 201);
    expect(await must("GET", `${base}/redirect?source=%2Fold`, undefined, 200)).toEqual({
      redirect: expect.objectContaining({ id: r.id }),
      target: expect.stringMatching(new RegExp(`/${section.path}$`)),
    });
    expectError(await call("GET", `${base}/redirect?source=%2Fnone`), 404);
    await must("DELETE", `${org()}/sites/${site.id}`, undefined, 205);
    expect([...emu.store.siteRedirects.values()]).toEqual([]);
  });
});

describe("seeded redirects", () => {
  it("seeds a site's rules from a seed file, and export then import carries them", async () => {
    const seeded = await Emulator.start({
      seedFile: {
        organization: { title: "Acme" },
        sites: [{ key: "docs", title: "Docs", redirects: [{ key: "old", source: "/old", url: "https://x.test/new", permanent: true }, { source: "/d", url: "https://x.test/d", draft: true }] }],
      },
    });
    try {
      const base = `/v1/orgs/${seeded.seeded.organizationId}/sites/${seeded.seeded.ids.docs}`;
      const rules = await call("GET", `${base}/redirects`, undefined, seeded.token, seeded);
      expect(rules.body.items).toEqual([expect.objectContaining({ id: seeded.seeded.ids.old, source: "/old", permanent: true, destination: { kind: "external", url: "https://x.test/new" } })]);
      const other = await Emulator.start({});
      try {
        other.importState(JSON.parse(JSON.stringify(seeded.exportState())));
        expect([...other.store.siteRedirects.values()]).toEqual([...seeded.store.siteRedirects.values()]);
      } finally {
        await other.close();
      }
    } finally {
      await seeded.close();
    }
  });

  it("refuses a seeded rule with a malformed source, naming it", async () => {
    const e = await Emulator.start({ seedFile: { sites: [{ title: "Docs", redirects: [{ source: "old", url: "https://x.test" }] }] } }).catch((err: unknown) => err);
    expect((e as SeedError).problems.join("\n")).toMatch(/sites\[0\]\.redirects\[0\]\.source/);
  });
});

describe("site redirects to a site space or a page", () => {
  it("resolves a rule to a site space under its section's path, and a page under that with ~page/ID", async () => {
    const { section, base } = await siteWithSection();
    const [ss] = await listAll(`${base}/site-spaces`);
    expect(ss.section).toBe(section.id);
    await must("POST", `${base}/redirects`, { source: "/space", destination: { kind: "site-space", siteSpaceId: ss.id } }, 201);
    const page = await must("POST", `${base}/redirects`, { source: "/page", permanent: true, destination: { kind: "site-page", siteSpaceId: ss.id, pageId: "pg_1" } }, 201);
    expect(page.destination).toEqual({ kind: "site-page", siteSpaceId: ss.id, pageId: "pg_1" });
    const spaceTarget = (await must("GET", `${base}/redirect?source=%2Fspace`, undefined, 200)).target as string;
    expect(spaceTarget).toMatch(new RegExp(`^https?://.+/${section.path}/${ss.path}$`));
    expect((await must("GET", `${base}/redirect?source=%2Fpage`, undefined, 200)).target).toBe(`${spaceTarget}/~page/pg_1`);
    expectError(await call("POST", `${base}/redirects`, { source: "/p2", destination: { kind: "site-page", siteSpaceId: ss.id, pageId: "" } }), 400, "destination.pageId");
    expectError(await call("POST", `${base}/redirects`, { source: "/p3", destination: { kind: "site-page", siteSpaceId: "ss_nope", pageId: "pg_1" } }), 400, "destination.siteSpaceId");
    // A page by its path needs pages, which the emulator does not model: refused, naming what works instead.
    expectError(await call("POST", `${base}/redirects`, { source: "/p4", destination: { kind: "path", spaceId: "spc_x", path: "intro" } }), 400, "destination.kind");
  });

  it("publishes a draft over the live rule of its source: the live rule keeps its id and takes the draft's settings", async () => {
    const { base } = await siteWithSection();
    const live = await must("POST", `${base}/redirects`, { source: "/a", destination: ext("https://example.com/live") }, 201);
    await must("POST", `${base}/redirects`, { source: "/a", draft: true, permanent: true, captureWildcard: true, destination: ext("https://example.com/draft") }, 201);
    const r = await must("PUT", `${base}/redirects`, { redirects: [{ source: "/a", intent: "publish" }, { source: "/none", intent: "publish" }] }, 200);
    expect(r.results).toEqual([
      { status: "published", source: "/a", draft: false, id: live.id },
      { status: "error", source: "/none", draft: false, error: expect.stringMatching(/^draft redirect "\/none" not found/) },
    ]);
    expect(await listAll(`${base}/redirects`)).toEqual([
      expect.objectContaining({ id: live.id, permanent: true, captureWildcard: true, destination: ext("https://example.com/draft"), updatedAt: expect.any(String) }),
    ]);
    expect(await listAll(`${base}/redirects?draft=true`)).toEqual([]);
  });

  it("lists by last update, newest first, a rule never updated by its creation; refuses another order", async () => {
    const { base } = await siteWithSection();
    const rules: Json[] = [];
    for (const source of ["/a", "/b", "/c"]) rules.push(await must("POST", `${base}/redirects`, { source, destination: ext(`https://example.com${source}`) }, 201));
    // Dates set in the app, so that the order does not rest on the clock's resolution.
    emu.edit("siteRedirect", rules[0].id, { createdAt: "2030-01-01T00:00:00.000Z", updatedAt: "2030-01-05T00:00:00.000Z" });
    emu.edit("siteRedirect", rules[1].id, { createdAt: "2030-01-02T00:00:00.000Z" });
    emu.edit("siteRedirect", rules[2].id, { createdAt: "2030-01-03T00:00:00.000Z", updatedAt: "2030-01-04T00:00:00.000Z" });
    expect((await listAll(`${base}/redirects?orderBy=updatedAt`)).map((r: Json) => r.source)).toEqual(["/a", "/c", "/b"]);
    expect((await listAll(`${base}/redirects?orderBy=createdAt`)).map((r: Json) => r.source)).toEqual(["/c", "/b", "/a"]);
    expectContractViolation(/listSiteRedirects .*orderBy/);
    expectError(await call("GET", `${base}/redirects?orderBy=title`), 400, "orderBy");
  });
});
