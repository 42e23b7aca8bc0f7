import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GitbookClient } from "../client";
import { UNKNOWN } from "../framework/check";
import { SITE_TYPES } from "./site";
import { CheckFailed, startProviderEnv, type ProviderEnv, type State, rejectsAtCheck, type BadInput } from "../../test/support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());
afterEach(() => vi.restoreAllMocks());

/** Bodies the provider sent with `method`, observed at the client (the emulator logs no bodies). */
function spyBodies(method: string): () => unknown[] {
  const spy = vi.spyOn(GitbookClient.prototype, "request");
  return () => spy.mock.calls.filter((c) => c[0] === method).map((c) => (c[2] as { body?: unknown } | undefined)?.body);
}

const base = { title: "Acme Docs" };

async function created(extra: Record<string, unknown> = {}): Promise<State> {
  return (await env.up("Site", { ...base, ...extra })).state;
}

describe("check", () => {
  const bad: BadInput[] = [
    ["title", { title: "A" }, /title must be 2 to 128 characters/],
    ["title", { title: "x".repeat(129) }, /title must be 2 to 128 characters/],
    ["basename", { basename: "" }, /basename must be 1 to 100 characters/],
    ["basename", { basename: "b".repeat(101) }, /basename must be 1 to 100 characters/],
    ["visibility", { visibility: "secret" }, /visibility must be one of public, unlisted, share-link, visitor-auth/],
    ["agentsContext", { agentsContext: "maybe" }, /agentsContext must be excluded or included/],
    ["proxy", { proxy: "not a proxy" }, /proxy must match host\/path/],
    ["proxy", { proxy: `example.com/${"a".repeat(510)}` }, /proxy must be at most 512 characters/],
    ["type", { type: "Fancy Type" }, /type must be one of basic, premium, ultimate, sponsored, legacy-basic, legacy-premium/],
    ["type", { type: "enterprise" }, /type must be one of basic, premium, ultimate, sponsored, legacy-basic, legacy-premium/],
    ["adaptiveContent.enabled", { adaptiveContent: { enabled: "yes" } }, /adaptiveContent.enabled/],
    ["published", { published: "yes" }, /published must be a boolean/],
  ];
  rejectsAtCheck(() => env, "Site", base, bad);

  it("requires a title and says so", async () => {
    const r = await env.check("Site", {});
    expect(r.failures).toContainEqual({ property: "title", reason: "title is required" });
  });

  it("fills the organization from config, and no type or visibility the program did not declare", async () => {
    const r = await env.check("Site", base);
    expect(r.failures).toBeUndefined();
    expect(r.inputs).toEqual({ ...base, organizationId: env.org });
  });

  it("accepts every site type GitBook's spec lists", async () => {
    expect(SITE_TYPES).toEqual(["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"]);
    for (const type of SITE_TYPES) {
      const r = await env.check("Site", { ...base, type });
      expect(r.failures).toBeUndefined();
      expect(r.inputs!.type).toBe(type);
    }
  });

  it("skips values not known until apply", async () => {
    const r = await env.check("Site", { title: UNKNOWN, basename: UNKNOWN });
    expect(r.failures).toBeUndefined();
  });

  it("normalizes the known fields when another is unknown, adding nothing the program did not declare", async () => {
    const r = await env.check("Site", { ...base, agentsContext: UNKNOWN, adaptiveContent: { enabled: UNKNOWN } });
    expect(r.failures).toBeUndefined();
    expect(r.inputs).toEqual({ ...base, organizationId: env.org, agentsContext: UNKNOWN, adaptiveContent: { enabled: UNKNOWN } });
  });

  it("fails up with the property named", async () => {
    await expect(env.up("Site", { title: "A" })).rejects.toThrow(CheckFailed);
  });
});

describe("diff", () => {
  let state: State;
  beforeAll(async () => {
    state = await created({ basename: "acme", proxy: "acme.com/docs" });
  });
  const inputs = async (news: Record<string, unknown>) => (await env.check("Site", news)).inputs!;

  it("reports no change for the same program, without a request", async () => {
    env.emu.log.reset();
    const d = await env.diff("Site", state, await inputs({ ...base, basename: "acme", proxy: "acme.com/docs" }));
    expect(d.changes).toBe(false);
    expect(env.emu.log.count()).toBe(0);
  });

  it("updates in place for a title change", async () => {
    const d = await env.diff("Site", state, await inputs({ ...base, title: "New", basename: "acme", proxy: "acme.com/docs" }));
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });

  it("replaces for a type or organization change", async () => {
    const d = await env.diff("Site", state, await inputs({ ...base, basename: "acme", proxy: "acme.com/docs", type: "premium" }));
    expect(d.replaces).toEqual(["type"]);
    const d2 = await env.diff("Site", state, await inputs({ ...base, basename: "acme", proxy: "acme.com/docs", organizationId: "other" }));
    expect(d2.replaces).toEqual(["organizationId"]);
  });

  it("sees a removed optional field as a change", async () => {
    const d = await env.diff("Site", state, await inputs({ ...base, basename: "acme" }));
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });

  it("updates, never replaces, when a field that is not replace-only is unknown", async () => {
    for (const unknown of [{ agentsContext: UNKNOWN }, { visibility: UNKNOWN }, { proxy: UNKNOWN }, { adaptiveContent: { enabled: UNKNOWN } }, { title: UNKNOWN }]) {
      const checked = await env.check("Site", { ...base, basename: "acme", proxy: "acme.com/docs", ...unknown }, state.outs);
      expect(checked.failures).toBeUndefined();
      const d = await env.diff("Site", state, checked.inputs!);
      expect(d).toMatchObject({ changes: true, replaces: [] });
    }
  });

  it("sees no change when the program declares the type the site already has; stopping declaring it is a change of state alone", async () => {
    expect(state.outs.type).toBe("ultimate");
    expect((await env.diff("Site", state, await inputs({ ...base, basename: "acme", proxy: "acme.com/docs", type: "ultimate" }))).changes).toBe(false);
    const typed = (await env.up("Site", { ...base, type: "premium" })).state;
    // Released, not reset: the update sends nothing (the outputs stop listing it as declared, so refresh leaves it out).
    expect(await env.diff("Site", typed, await inputs(base))).toMatchObject({ changes: true, replaces: [] });
  });

  it("treats an unknown replace field as a possible replacement", async () => {
    const d = await env.diff("Site", state, { ...(await inputs({ ...base, basename: "acme", proxy: "acme.com/docs" })), type: UNKNOWN });
    expect(d.replaces).toEqual(["type"]);
  });

  it("ignores adoptId once the site is managed", async () => {
    const d = await env.diff("Site", state, await inputs({ ...base, basename: "acme", proxy: "acme.com/docs", adoptId: "site_x" }));
    expect(d.changes).toBe(false);
  });
});

describe("lifecycle", () => {
  it("creates with one POST and one PATCH for settings POST cannot take", async () => {
    env.emu.log.reset();
    const s = await created({ basename: "guides", agentsContext: "included", adaptiveContent: { enabled: true } });
    expect(env.emu.log.count({ method: "POST" })).toBe(1);
    expect(env.emu.log.count({ method: "PATCH" })).toBe(1);
    const live = env.emu.store.sites.get(s.id)!;
    expect(live).toMatchObject({ title: "Acme Docs", basename: "guides", agentsContext: "included", adaptiveContent: { enabled: true } });
    expect(s.outs).toMatchObject({ title: "Acme Docs", basename: "guides", createdAt: expect.any(String), type: "ultimate", visibility: "public" });
    expect(Object.values(s.outs)).not.toContain(undefined);
  });

  it("has no output that depends on the site's children (it would be stale after every up), nor publication it does not declare (a SitePublication's)", async () => {
    const s = await created();
    expect(s.outs).not.toHaveProperty("siteSpaces");
    expect(s.outs).not.toHaveProperty("published");
  });

  it("creates with a single POST when nothing else is declared, sending no type or visibility: GitBook's default applies", async () => {
    env.emu.log.reset();
    const posts = spyBodies("POST");
    const s = await created();
    expect(env.emu.log.writes()).toBe(1);
    expect(posts()).toEqual([{ title: "Acme Docs" }]);
    expect(env.emu.store.sites.get(s.id)).toMatchObject({ type: "ultimate", visibility: "public" });
    expect(s.outs).toMatchObject({ type: "ultimate", visibility: "public" });
  });

  it("sends a declared type and visibility with the POST", async () => {
    const posts = spyBodies("POST");
    const s = await created({ type: "premium", visibility: "unlisted" });
    expect(posts()).toEqual([{ title: "Acme Docs", type: "premium", visibility: "unlisted" }]);
    expect(env.emu.store.sites.get(s.id)).toMatchObject({ type: "premium", visibility: "unlisted" });
  });

  it("updates only what changed, and nothing when nothing changed", async () => {
    const s = await created({ basename: "one" });
    env.emu.log.reset();
    const same = await env.up("Site", { ...base, basename: "one" }, s);
    expect(same.step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    const changed = await env.up("Site", { ...base, basename: "two", visibility: "unlisted" }, s);
    expect(changed.step).toBe("update");
    const patch = env.emu.log.entries.filter((e) => e.method === "PATCH");
    expect(patch).toHaveLength(1);
    expect(env.emu.store.sites.get(s.id)).toMatchObject({ basename: "two", visibility: "unlisted" });
  });

  it("reads the proxy back as the host/path it was declared with, so refresh shows no drift", async () => {
    const program = { ...base, proxy: "www.acme.test/docs/v2" };
    const s = await created({ proxy: program.proxy });
    const refreshed = await env.refresh("Site", s);
    expect(refreshed!.inputs.proxy).toBe("www.acme.test/docs/v2");
    env.emu.log.reset();
    expect((await env.up("Site", program, refreshed!.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("keeps a declared agentsContext when GitBook does not report the field (it is outside the published spec)", async () => {
    const program = { ...base, agentsContext: "included" };
    const s = await created({ agentsContext: "included" });
    // A GitBook that ignores the field answers without it.
    delete (env.emu.store.sites.get(s.id) as { agentsContext?: string }).agentsContext;
    const refreshed = await env.refresh("Site", s);
    expect(refreshed!.inputs.agentsContext).toBe("included");
    env.emu.log.reset();
    expect((await env.up("Site", program, refreshed!.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("clears the proxy and disables adaptive content when removed, and leaves visibility as it is", async () => {
    const s = await created({ proxy: "acme.com/docs", visibility: "unlisted", adaptiveContent: { enabled: true } });
    expect(env.emu.store.sites.get(s.id)!.proxy).toBeDefined();
    const patches = spyBodies("PATCH");
    const r = await env.up("Site", base, s);
    expect(r.step).toBe("update");
    expect(patches()).toEqual([{ proxy: null, adaptiveContent: { enabled: false } }]);
    const live = env.emu.store.sites.get(s.id)!;
    expect(live.proxy).toBeUndefined();
    expect(live.visibility).toBe("unlisted");
    expect(live.adaptiveContent.enabled).toBe(false);
    expect(r.state.outs.proxy).toBeUndefined();
    expect(r.state.outs.visibility).toBe("unlisted");
  });

  it("manages defaultLevel: sent by the PATCH after the POST, null kept as a value, an app edit shown as drift, removing it sets inherit", async () => {
    const patches = spyBodies("PATCH");
    const s = await created({ defaultLevel: null });
    expect(patches()).toEqual([{ defaultLevel: null }]);
    expect(env.emu.store.sites.get(s.id)!.defaultLevel).toBeNull();
    env.emu.store.sites.get(s.id)!.defaultLevel = "read";
    const refreshed = await env.refresh("Site", s);
    expect(refreshed!.inputs.defaultLevel).toBe("read");
    const back = await env.up("Site", { ...base, defaultLevel: null }, refreshed!.state);
    expect(back.step).toBe("update");
    expect(env.emu.store.sites.get(s.id)!.defaultLevel).toBeNull();
    const removed = await env.up("Site", base, back.state);
    expect(removed.step).toBe("update");
    expect(env.emu.store.sites.get(s.id)!.defaultLevel).toBe("inherit");
  });

  it("replaces for a type change: a new site, the old one deleted", async () => {
    const s = await created();
    const r = await env.up("Site", { ...base, type: "premium" }, s);
    expect(r.step).toBe("replace");
    expect(r.state.id).not.toBe(s.id);
    expect(env.emu.store.sites.has(s.id)).toBe(false);
    expect(env.emu.store.sites.get(r.state.id)!.type).toBe("premium");
  });

  it("shows drift after refresh and converges it on the next up", async () => {
    const s = await created({ basename: "drift" });
    env.emu.store.sites.get(s.id)!.title = "Changed by hand";
    env.emu.store.sites.get(s.id)!.basename = "hand";
    const refreshed = await env.refresh("Site", s);
    expect(refreshed!.inputs).toMatchObject({ title: "Changed by hand", basename: "hand" });
    expect(refreshed!.inputs).not.toHaveProperty("proxy");
    const r = await env.up("Site", { ...base, basename: "drift" }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(env.emu.store.sites.get(s.id)).toMatchObject({ title: "Acme Docs", basename: "drift" });
  });

  it("drops a site deleted outside Pulumi at refresh, and deletes idempotently", async () => {
    const s = await created();
    await env.destroy("Site", s);
    expect(env.emu.store.sites.has(s.id)).toBe(false);
    expect(await env.refresh("Site", s)).toBeUndefined();
    await env.destroy("Site", s);
  });

  it("adopts an existing site and converges it to the program", async () => {
    const existing = await created({ basename: "legacy" });
    env.emu.log.reset();
    const r = await env.up("Site", { title: "Adopted Docs", basename: "legacy", adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.count({ method: "POST" })).toBe(0);
    expect(env.emu.store.sites.get(existing.id)!.title).toBe("Adopted Docs");
  });

  it("adopts a site without touching the type and visibility the program does not declare", async () => {
    const existing = await created({ visibility: "share-link" });
    expect(env.emu.store.sites.get(existing.id)!.type).toBe("ultimate");
    env.emu.log.reset();
    const r = await env.up("Site", { title: "Acme Docs", adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.sites.get(existing.id)).toMatchObject({ type: "ultimate", visibility: "share-link" });
    expect(r.state.outs).toMatchObject({ type: "ultimate", visibility: "share-link" });
    // And later runs leave them alone too.
    expect((await env.up("Site", { title: "Acme Docs" }, r.state)).step).toBe("same");
  });

  it("refuses to adopt a site whose type differs from a declared one, naming it", async () => {
    const existing = await created();
    env.emu.log.reset();
    await expect(env.up("Site", { ...base, type: "basic", adoptId: existing.id })).rejects.toThrow(/type="ultimate", which cannot change in place/);
    expect(env.emu.log.writes()).toBe(0);
  });

  it("fails clearly when adoptId names nothing", async () => {
    await expect(env.up("Site", { ...base, adoptId: "site_missing" })).rejects.toThrow(/adoptId "site_missing" names no existing object/);
  });

  it("recovers from a lost POST answer without creating the site twice", async () => {
    const title = "Lost Answer Docs";
    env.emu.faults.add({ match: { method: "POST", route: /\/sites$/ }, dropAfterProcess: true, times: 1 });
    const r = await env.up("Site", { title });
    const sites = [...env.emu.store.sites.values()].filter((x) => x.title === title);
    expect(sites.map((x) => x.id)).toEqual([r.state.id]);
  });

  it("keeps a created site in state when its settings fail to apply", async () => {
    env.emu.faults.add({ match: { method: "PATCH", route: /\/sites\/:site$/ }, errorRate: 1, status: 500 });
    const err = await env.up("Site", { ...base, basename: "partial" }).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure", id: expect.any(String) });
    expect(err.properties).toMatchObject({ title: "Acme Docs" });
    expect(err.properties.basename).not.toBe("partial");
    expect(env.emu.store.sites.has(err.id)).toBe(true);
    env.emu.faults.clear();
    const next = await env.up("Site", { ...base, basename: "partial" }, { id: err.id, outs: err.properties });
    expect(next.step).toBe("update");
    expect(env.emu.store.sites.get(err.id)!.basename).toBe("partial");
  });
});

describe("publishing", () => {
  const org = () => env.emu.store.orgs.get(env.org)!;
  afterEach(() => {
    delete org().publishNeedsCheckout;
  });
  const routes = () => env.emu.log.byRoute();
  const PUBLISH = "POST /v1/orgs/:org/sites/:site/publish";
  const UNPUBLISH = "POST /v1/orgs/:org/sites/:site/unpublish";

  it("creates a site unpublished without a publish call; declaring published then sends exactly the publish call", async () => {
    env.emu.log.reset();
    const s = await created();
    // The listing before the POST is what recovery from a lost answer compares with.
    expect(routes()).toEqual({ "GET /v1/orgs/:org/sites": 1, "POST /v1/orgs/:org/sites": 1 });
    expect(s.outs).not.toHaveProperty("published");
    expect((s.outs.urls as Record<string, unknown>).published).toBeUndefined();

    env.emu.log.reset();
    const r = await env.up("Site", { ...base, published: true }, s);
    expect(r.step).toBe("update");
    expect(routes()).toEqual({ [PUBLISH]: 1 });
    expect(env.emu.store.sites.get(s.id)!.published).toBe(true);
    expect(r.state.outs).toMatchObject({ published: true, urls: { published: expect.stringMatching(/^https:\/\//) } });

    env.emu.log.reset();
    expect((await env.up("Site", { ...base, published: true }, r.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("creates a site published, content or not: the POST, then the publish call", async () => {
    env.emu.log.reset();
    const s = await created({ published: true, basename: "live" });
    expect(routes()).toEqual({ "GET /v1/orgs/:org/sites": 1, "POST /v1/orgs/:org/sites": 1, "PATCH /v1/orgs/:org/sites/:site": 1, [PUBLISH]: 1 });
    expect(env.emu.store.sites.get(s.id)).toMatchObject({ published: true, basename: "live" });
    expect(s.outs).toMatchObject({ published: true, basename: "live" });
  });

  it("unpublishes with exactly the unpublish call, and leaves the site as it is when published is removed", async () => {
    const s = await created({ published: true });
    env.emu.log.reset();
    const off = await env.up("Site", { ...base, published: false }, s);
    expect(routes()).toEqual({ [UNPUBLISH]: 1 });
    expect(off.state.outs.published).toBe(false);

    const on = await env.up("Site", { ...base, published: true }, off.state);
    env.emu.log.reset();
    const removed = await env.up("Site", base, on.state);
    // A change of state alone: no request.
    expect(removed.step).toBe("update");
    expect(env.emu.log.count()).toBe(0);
    expect(env.emu.store.sites.get(s.id)!.published).toBe(true);
  });

  it("shows a site unpublished outside Pulumi as drift at refresh, and publishes it again on the next up", async () => {
    const s = await created({ published: true });
    env.emu.store.sites.get(s.id)!.published = false;
    const refreshed = await env.refresh("Site", s);
    expect(refreshed!.inputs.published).toBe(false);
    expect(refreshed!.state.outs.published).toBe(false);
    env.emu.log.reset();
    const r = await env.up("Site", { ...base, published: true }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(routes()).toEqual({ [PUBLISH]: 1 });
    expect(env.emu.store.sites.get(s.id)!.published).toBe(true);
  });

  it("leaves an undeclared publication alone: a change made in the app is only reported, never undone", async () => {
    const s = await created();
    env.emu.store.sites.get(s.id)!.published = true;
    const refreshed = await env.refresh("Site", s);
    // Not this resource's fact: neither an output nor an input (a plan would show it as removed).
    expect(refreshed!.state.outs).not.toHaveProperty("published");
    expect(refreshed!.inputs).not.toHaveProperty("published");
    env.emu.log.reset();
    expect((await env.up("Site", base, refreshed!.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("adopts a site keeping its publication unless the program declares one", async () => {
    const live = await created({ published: true });
    env.emu.log.reset();
    const kept = await env.up("Site", { ...base, adoptId: live.id });
    expect(env.emu.log.writes()).toBe(0);
    expect(kept.state.outs).not.toHaveProperty("published");
    expect(env.emu.store.sites.get(live.id)!.published).toBe(true);

    const other = await created({ published: true });
    env.emu.log.reset();
    const converged = await env.up("Site", { ...base, published: false, adoptId: other.id });
    expect(routes()).toMatchObject({ [UNPUBLISH]: 1 });
    expect(env.emu.log.writes()).toBe(1);
    expect(converged.state.outs.published).toBe(false);
  });

  it("fails clearly when the plan needs a checkout first, keeping a new site in state unpublished", async () => {
    org().publishNeedsCheckout = true;
    const err = await env.up("Site", { ...base, published: true }).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure", id: expect.any(String) });
    expect(err.message).toMatch(/^Site \S+: published: GitBook did not publish site \S+: the organization's plan needs an upgrade first \(GitBook answered with Stripe checkout session cs_\w+ instead\)/);
    expect(err.properties).toMatchObject({ published: false });
    expect(env.emu.store.sites.get(err.id)!.published).toBe(false);

    // Once the plan allows it, the next up publishes.
    delete org().publishNeedsCheckout;
    const next = await env.up("Site", { ...base, published: true }, { id: err.id, outs: err.properties });
    expect(next.step).toBe("update");
    expect(env.emu.store.sites.get(err.id)!.published).toBe(true);
  });

  it("records an update's PATCH when the publication after it needs a checkout", async () => {
    const s = await created();
    org().publishNeedsCheckout = true;
    const err = await env.up("Site", { ...base, title: "Renamed Docs", published: true }, s).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure", id: s.id });
    expect(err.message).toMatch(/published: GitBook did not publish/);
    expect(err.properties).toMatchObject({ title: "Renamed Docs", published: false });
    expect(env.emu.store.sites.get(s.id)).toMatchObject({ title: "Renamed Docs", published: false });
  });
});
