import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GitbookClient } from "../client";
import { REQUIRED_ID, UNKNOWN } from "../framework/check";
import { sectionWait } from "./siteExternalLink";
import { startProviderEnv, rejectsAtCheck, type BadInput, type ProviderEnv, type State } from "../../test/support/provider";
import { until } from "../../test/support/until";

let env: ProviderEnv;
let siteId: string;
let groupId: string;
beforeAll(async () => {
  env = await startProviderEnv();
  siteId = (await env.up("Site", { title: "Linked Docs" })).state.id;
  // External links need a site made of sections.
  await env.up("SiteSection", { siteId, spaceId: env.emu.seeded.spaceIds[0] });
  groupId = (await env.up("SiteSectionGroup", { siteId, title: "More" })).state.id;
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());
afterEach(() => vi.restoreAllMocks());

const LINKS = /\/external-links$/;
const STRUCTURE = /\/structure$/;
const BLOG = "https://blog.acme.test";

async function created(extra: Record<string, unknown> = {}): Promise<State> {
  return (await env.up("SiteExternalLink", { siteId, title: "Blog", url: BLOG, ...extra })).state;
}

/** Bodies the provider sent with `method`, observed at the client (the emulator logs no bodies). */
function spyBodies(method: string): () => unknown[] {
  const spy = vi.spyOn(GitbookClient.prototype, "request");
  return () => spy.mock.calls.filter((c) => c[0] === method).map((c) => (c[2] as { body?: unknown } | undefined)?.body);
}

describe("check", () => {
  const bad: BadInput[] = [
    ["title", { title: "B" }, /title must be 2 to 128 characters/],
    ["title", { title: "t".repeat(129) }, /title must be 2 to 128 characters/],
    ["url", { url: "blog.acme.test" }, /url must be an absolute http\(s\) URL/],
    ["url", { url: `https://a.test/${"x".repeat(2048)}` }, /url must be at most 2048 characters/],
    ["description", { description: "d".repeat(257) }, /description must be at most 256 characters/],
    ["icon", { icon: "i".repeat(51) }, /icon must be at most 50 characters/],
    ["condition", { condition: "" }, /condition must be 1 to 1024 characters/],
    ["groupId", { groupId: "" }, /groupId must not be empty/],
    ["draft", { draft: "no" }, /draft must be a boolean/],
  ];
  rejectsAtCheck(() => env, "SiteExternalLink", { siteId: "site_x", title: "Blog", url: BLOG }, bad);

  it("requires a site, a title and a URL, and fills nothing the program did not declare", async () => {
    const r = await env.check("SiteExternalLink", {});
    expect(r.failures).toEqual(
      expect.arrayContaining([
        { property: "siteId", reason: `siteId ${REQUIRED_ID}` },
        { property: "title", reason: "title is required" },
        { property: "url", reason: "url is required" },
      ]),
    );
    expect((await env.check("SiteExternalLink", { siteId: "site_x", title: "Blog", url: BLOG })).inputs).toEqual({ organizationId: env.org, siteId: "site_x", title: "Blog", url: BLOG });
    expect((await env.check("SiteExternalLink", { siteId: UNKNOWN, title: "Blog", url: BLOG, groupId: UNKNOWN })).failures).toBeUndefined();
  });
});

describe("diff", () => {
  let state: State;
  beforeAll(async () => {
    state = await created({ groupId });
  });
  const inputs = async (news: Record<string, unknown>) => (await env.check("SiteExternalLink", news)).inputs!;

  it("sees no change for the same program, without a request", async () => {
    env.emu.log.reset();
    expect((await env.diff("SiteExternalLink", state, await inputs({ siteId, title: "Blog", url: BLOG, groupId }))).changes).toBe(false);
    expect(env.emu.log.count()).toBe(0);
  });

  it("changes in place for every field but the site, which replaces", async () => {
    for (const change of [{ title: "News" }, { url: "https://news.acme.test" }, { groupId: undefined }, { draft: true }, { icon: "rss" }]) {
      expect(await env.diff("SiteExternalLink", state, await inputs({ siteId, title: "Blog", url: BLOG, groupId, ...change }))).toMatchObject({ changes: true, replaces: [] });
    }
    expect((await env.diff("SiteExternalLink", state, await inputs({ siteId: "site_other", title: "Blog", url: BLOG }))).replaces).toEqual(["siteId"]);
  });
});

describe("lifecycle", () => {
  it("creates with one POST carrying every declared setting, last in its container", async () => {
    env.emu.log.reset();
    const posts = spyBodies("POST");
    const s = await created({ title: "Status", url: "https://status.acme.test", description: "Uptime", icon: "signal", groupId, draft: true, condition: "visitor.claims.staff" });
    expect(env.emu.log.writes()).toBe(1);
    expect(posts()).toEqual([
      { title: "Status", url: "https://status.acme.test", description: "Uptime", icon: "signal", parent: groupId, draft: true, condition: "visitor.claims.staff" },
    ]);
    expect(env.emu.store.externalLinks.get(s.id)).toMatchObject({ siteId, title: "Status", groupId, draft: true, condition: "visitor.claims.staff" });
    expect(env.emu.store.childrenOf(siteId, groupId).at(-1)!.record.id).toBe(s.id);
    expect(s.outs).toEqual({
      organizationId: env.org,
      siteId,
      title: "Status",
      url: "https://status.acme.test",
      description: "Uptime",
      icon: "signal",
      groupId,
      draft: true,
      condition: "visitor.claims.staff",
    });
  });

  it("reads the link back from the site's structure", async () => {
    const s = await created({ title: "Readable", icon: "book" });
    env.emu.log.reset();
    const r = await env.refresh("SiteExternalLink", s);
    expect(r!.state).toEqual(s);
    expect(r!.inputs).toEqual({ organizationId: env.org, siteId, title: "Readable", url: BLOG, icon: "book" });
    expect(env.emu.log.byRoute()).toEqual({ "GET /v1/orgs/:org/sites/:site/structure": 1 });
  });

  it("updates only what changed, moves between containers in place, and sends nothing when nothing changed", async () => {
    const s = await created({ title: "Before", icon: "rss", groupId });
    env.emu.log.reset();
    expect((await env.up("SiteExternalLink", { siteId, title: "Before", url: BLOG, icon: "rss", groupId }, s)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    const patches = spyBodies("PATCH");
    const r = await env.up("SiteExternalLink", { siteId, title: "After", url: BLOG }, s);
    expect(r.step).toBe("update");
    // Removed: the icon is cleared, the link goes back to the top level.
    expect(patches()).toEqual([{ title: "After", icon: null, parent: null }]);
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.store.externalLinks.get(s.id)).toMatchObject({ title: "After" });
    expect(env.emu.store.externalLinks.get(s.id)).not.toHaveProperty("groupId");
    expect(r.state.id).toBe(s.id);
  });

  it("makes a draft live when draft is removed from the program", async () => {
    const s = await created({ draft: true });
    const patches = spyBodies("PATCH");
    await env.up("SiteExternalLink", { siteId, title: "Blog", url: BLOG }, s);
    expect(patches()).toEqual([{ draft: false }]);
    expect(env.emu.store.externalLinks.get(s.id)!.draft).toBe(false);
  });

  it("shows drift after refresh and converges it on the next up", async () => {
    const s = await created({ title: "Drift", groupId });
    const live = env.emu.store.externalLinks.get(s.id)!;
    live.url = "https://elsewhere.test";
    delete live.groupId;
    env.outOfBand();
    const refreshed = await env.refresh("SiteExternalLink", s);
    expect(refreshed!.inputs).toMatchObject({ url: "https://elsewhere.test" });
    expect(refreshed!.inputs).not.toHaveProperty("groupId");
    const r = await env.up("SiteExternalLink", { siteId, title: "Drift", url: BLOG, groupId }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(env.emu.store.externalLinks.get(s.id)).toMatchObject({ url: BLOG, groupId });
  });

  it("drops a link deleted outside Pulumi, or whose site is gone, at refresh; deletes idempotently", async () => {
    const s = await created();
    env.emu.store.externalLinks.delete(s.id);
    env.outOfBand();
    expect(await env.refresh("SiteExternalLink", s)).toBeUndefined();
    await env.destroy("SiteExternalLink", s);
    const site = (await env.up("Site", { title: "Short-lived" })).state;
    await env.up("SiteSection", { siteId: site.id, spaceId: env.emu.seeded.spaceIds[1] });
    const orphan = (await env.up("SiteExternalLink", { siteId: site.id, title: "Orphan", url: BLOG })).state;
    // Deleted in the app, with what it holds (the provider's own delete refuses to take the link along).
    env.emu.store.deleteSite(site.id);
    env.outOfBand();
    expect(await env.refresh("SiteExternalLink", orphan)).toBeUndefined();
  });

  it("deletes the link", async () => {
    const s = await created();
    await env.destroy("SiteExternalLink", s);
    expect(env.emu.store.externalLinks.has(s.id)).toBe(false);
  });

  it("adopts an existing link, converging only what the program declares", async () => {
    const existing = await created({ title: "Legacy", icon: "clock" });
    env.emu.log.reset();
    const r = await env.up("SiteExternalLink", { siteId, title: "Adopted", url: BLOG, adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.count({ method: "POST" })).toBe(0);
    expect(env.emu.store.externalLinks.get(existing.id)).toMatchObject({ title: "Adopted", icon: "clock" });
  });

  it("waits for the site's first section when created before it, then creates the link", async () => {
    const bare = (await env.up("Site", { title: "Raced" })).state.id;
    // As the engine may run them: the link's create starts first, the section's while it waits.
    const link = env.up("SiteExternalLink", { siteId: bare, title: "Blog", url: BLOG });
    await until(() => expect(env.emu.log.entries.some((e) => e.method === "POST" && LINKS.test(e.path) && e.status === 400)).toBe(true));
    await env.up("SiteSection", { siteId: bare, spaceId: env.emu.seeded.spaceIds[1] });
    const r = await link;
    expect(env.emu.store.externalLinks.get(r.state.id)).toMatchObject({ siteId: bare, title: "Blog" });
  });

  it("fails, saying what the link needs, when the site gets no section", async () => {
    const bare = (await env.up("Site", { title: "Bare" })).state.id;
    const wait = sectionWait.ms;
    sectionWait.ms = 0;
    try {
      await expect(env.up("SiteExternalLink", { siteId: bare, title: "Blog", url: BLOG })).rejects.toThrow(
        /GitBook takes external links only in a site made of sections, and site \S+ had none .*external links need a site made of sections.*dependsOn: \[section\]/,
      );
    } finally {
      sectionWait.ms = wait;
    }
  });

  it("recovers from a lost POST answer without creating the link twice", async () => {
    env.emu.log.reset();
    env.emu.faults.add({ match: { method: "POST", route: LINKS }, dropAfterProcess: true, times: 1 });
    const r = await env.up("SiteExternalLink", { siteId, title: "Lost answer", url: BLOG });
    expect([...env.emu.store.externalLinks.values()].filter((l) => l.title === "Lost answer").map((l) => l.id)).toEqual([r.state.id]);
    expect(env.emu.log.count({ method: "POST", route: LINKS })).toBe(1);
  });

  it("refreshes many links of a site with one GET of its structure", async () => {
    const states = await Promise.all(Array.from({ length: 20 }, (_, i) => created({ title: `Link ${i}` })));
    env.emu.log.reset();
    const refreshed = await Promise.all(states.map((s) => env.refresh("SiteExternalLink", s)));
    expect(refreshed.every((r) => r !== undefined)).toBe(true);
    expect(env.emu.log.count({ method: "GET", route: STRUCTURE })).toBe(1);
    expect(env.emu.log.count()).toBe(1);
  });
});

describe("links refreshed together when the site's structure cannot be read", () => {
  it("each fail naming their own resource: they share one read, and so one error", async () => {
    const a = (await env.up("SiteExternalLink", { siteId, title: "Aaa", url: "https://a.acme.test", __gitbookName: "linkA" })).state;
    const b = (await env.up("SiteExternalLink", { siteId, title: "Bbb", url: "https://b.acme.test", __gitbookName: "linkB" })).state;
    env.outOfBand();
    // A 500 is not retried: both reads share the one failed GET of the structure.
    env.emu.faults.add({ match: { method: "GET", route: "/v1/orgs/:org/sites/:site/structure" }, errorRate: 1, status: 500 });
    const failed = await Promise.allSettled([env.refresh("SiteExternalLink", a), env.refresh("SiteExternalLink", b)]);
    // Before: both said "SiteExternalLink linkA: ...".
    expect(failed.map((r) => (r.status === "rejected" ? (r.reason as Error).message.split(":")[0] : "ok"))).toEqual(["SiteExternalLink linkA", "SiteExternalLink linkB"]);
  });
});
