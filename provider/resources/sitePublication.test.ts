import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProviderEnv, type ProviderEnv, type State } from "../../test/support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());

const PUBLISH = { method: "POST", route: "/v1/orgs/:org/sites/:site/publish" };
const UNPUBLISH = { method: "POST", route: "/v1/orgs/:org/sites/:site/unpublish" };

async function site(): Promise<State> {
  return (await env.up("Site", { title: "Acme Docs" })).state;
}

describe("SitePublication", () => {
  it("publishes an unpublished site with exactly the publish call, and a no-op sends nothing", async () => {
    const s = await site();
    env.emu.log.reset();
    const r = await env.up("SitePublication", { siteId: s.id, published: true });
    expect(r.state.id).toBe(s.id);
    expect(env.emu.store.sites.get(s.id)!.published).toBe(true);
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.count(PUBLISH)).toBe(1);
    expect(r.state.outs.publishedUrl).toMatch(/^https?:\/\//);
    env.emu.log.reset();
    expect((await env.up("SitePublication", { siteId: s.id, published: true }, r.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("adopts a site already in the declared state without a write", async () => {
    const s = await site();
    env.emu.log.reset();
    await env.up("SitePublication", { siteId: s.id, published: false });
    expect(env.emu.log.writes()).toBe(0);
  });

  it("shows an unpublish made in the app as drift, and the next up publishes again", async () => {
    const s = await site();
    const { state } = await env.up("SitePublication", { siteId: s.id, published: true });
    env.emu.store.sites.get(s.id)!.published = false;
    env.outOfBand();
    const refreshed = await env.refresh("SitePublication", state);
    expect(refreshed!.inputs.published).toBe(false);
    env.emu.log.reset();
    const r = await env.up("SitePublication", { siteId: s.id, published: true }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(env.emu.log.count(PUBLISH)).toBe(1);
    expect(env.emu.log.writes()).toBe(1);
  });

  it("takes the site offline when declared false, and deleting the resource leaves the site as it is", async () => {
    const s = await site();
    const { state } = await env.up("SitePublication", { siteId: s.id, published: true });
    env.emu.log.reset();
    const r = await env.up("SitePublication", { siteId: s.id, published: false }, state);
    expect(env.emu.log.count(UNPUBLISH)).toBe(1);
    env.emu.log.reset();
    await env.destroy("SitePublication", r.state);
    expect(env.emu.log.count()).toBe(0);
    expect(env.emu.store.sites.has(s.id)).toBe(true);
  });

  it("is dropped at refresh once its site is gone", async () => {
    const s = await site();
    const { state } = await env.up("SitePublication", { siteId: s.id, published: true });
    await env.destroy("Site", s);
    env.outOfBand();
    expect(await env.refresh("SitePublication", state)).toBeUndefined();
  });
});

describe("SitePublication of a site that does not exist", () => {
  it("fails naming siteId, and sends nothing but the read", async () => {
    env.emu.log.reset();
    await expect(env.up("SitePublication", { siteId: "site_nope", published: true })).rejects.toThrow(/siteId: no site site_nope/);
    expect(env.emu.log.writes()).toBe(0);
  });
});
