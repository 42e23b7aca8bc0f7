import { createRequire } from "node:module";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GitbookClient } from "../client";
import { REQUIRED_ID, UNKNOWN } from "../framework/check";
import { ShareLink } from "./shareLink";
import { CheckFailed, startProviderEnv, type ProviderEnv, type State, rejectsAtCheck, type BadInput } from "../../test/support/provider";

let env: ProviderEnv;
let siteId: string;
beforeAll(async () => {
  env = await startProviderEnv();
  siteId = (await env.up("Site", { title: "Share Docs", visibility: "share-link" })).state.id;
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());
afterEach(() => vi.restoreAllMocks());

const LINKS = /\/share-links$/;

async function created(extra: Record<string, unknown> = {}): Promise<State> {
  return (await env.up("ShareLink", { siteId, name: "Partners", ...extra })).state;
}

/** Bodies the provider sent with `method`, observed at the client (the emulator logs no bodies). */
function spyBodies(method: string): () => unknown[] {
  const spy = vi.spyOn(GitbookClient.prototype, "request");
  return () => spy.mock.calls.filter((c) => c[0] === method).map((c) => (c[2] as { body?: unknown } | undefined)?.body);
}

describe("check", () => {
  const bad: BadInput[] = [
    // "" is a name GitBook's spec allows (ShareLinkName: minLength 0): see importer/adopt.test.ts.
    ["name", { name: "n".repeat(51) }, /name must be at most 50 characters/],
    ["name", { name: 42 }, /name must be a string/],
    ["active", { active: "yes" }, /active must be a boolean/],
    ["siteId", { siteId: "" }, /siteId must not be empty/],
  ];
  rejectsAtCheck(() => env, "ShareLink", { siteId: "site_x", name: "Partners" }, bad);

  it("requires a site and a name and says so", async () => {
    const r = await env.check("ShareLink", {});
    expect(r.failures).toEqual(
      expect.arrayContaining([
        { property: "siteId", reason: `siteId ${REQUIRED_ID}` },
        { property: "name", reason: "name is required" },
      ]),
    );
  });

  it("fills the organization, and no active the program did not declare", async () => {
    const r = await env.check("ShareLink", { siteId: "site_x", name: "Partners" });
    expect(r.inputs).toEqual({ organizationId: env.org, siteId: "site_x", name: "Partners" });
  });

  it("skips values not known until apply", async () => {
    const r = await env.check("ShareLink", { siteId: UNKNOWN, name: UNKNOWN });
    expect(r.failures).toBeUndefined();
  });

  it("fails up with the property named", async () => {
    await expect(env.up("ShareLink", { siteId, name: "n".repeat(51) })).rejects.toThrow(CheckFailed);
  });
});

describe("diff", () => {
  let state: State;
  beforeAll(async () => {
    state = await created({ active: false });
  });
  const inputs = async (news: Record<string, unknown>) => (await env.check("ShareLink", news)).inputs!;

  it("reports no change for the same program, without a request", async () => {
    env.emu.log.reset();
    const d = await env.diff("ShareLink", state, await inputs({ siteId, name: "Partners", active: false }));
    expect(d.changes).toBe(false);
    expect(env.emu.log.count()).toBe(0);
  });

  it("updates in place for a name or active change", async () => {
    expect(await env.diff("ShareLink", state, await inputs({ siteId, name: "Other", active: false }))).toMatchObject({ changes: true, replaces: [] });
    expect(await env.diff("ShareLink", state, await inputs({ siteId, name: "Partners", active: true }))).toMatchObject({ changes: true, replaces: [] });
  });

  it("replaces for another site or organization, without deleting first", async () => {
    const d = await env.diff("ShareLink", state, await inputs({ siteId: "site_other", name: "Partners", active: false }));
    expect(d).toMatchObject({ replaces: ["siteId"], deleteBeforeReplace: false });
    const d2 = await env.diff("ShareLink", state, await inputs({ organizationId: "org_other", siteId, name: "Partners", active: false }));
    expect(d2.replaces).toEqual(["organizationId"]);
  });

  it("sees a change of state alone when active is removed: it is managed only while declared", async () => {
    const d = await env.diff("ShareLink", state, await inputs({ siteId, name: "Partners" }));
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });

  it("treats unknown values as possible changes", async () => {
    const d = await env.diff("ShareLink", state, { ...(await inputs({ siteId, name: "Partners", active: false })), name: UNKNOWN });
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const d2 = await env.diff("ShareLink", state, { ...(await inputs({ siteId, name: "Partners", active: false })), siteId: UNKNOWN });
    expect(d2.replaces).toEqual(["siteId"]);
  });
});

describe("lifecycle", () => {
  it("creates with one POST; the share URL is the only output carrying the key", async () => {
    env.emu.log.reset();
    const s = await created();
    expect(env.emu.log.writes()).toBe(1);
    const live = env.emu.store.shareLinks.get(s.id)!;
    expect(live).toMatchObject({ siteId, name: "Partners", active: true });
    expect(s.outs).toEqual({
      organizationId: env.org,
      siteId,
      name: "Partners",
      active: true,
      url: expect.stringContaining(live.key),
      createdAt: live.createdAt,
      __gitbookDeclared: [],
    });
    const carriers = Object.entries(s.outs).filter(([, v]) => JSON.stringify(v).includes(live.key));
    expect(carriers.map(([k]) => k)).toEqual(["url"]);
  });

  it("creates an inactive link with a POST then one PATCH", async () => {
    env.emu.log.reset();
    const patches = spyBodies("PATCH");
    const s = await created({ active: false });
    expect(env.emu.log.count({ method: "POST" })).toBe(1);
    expect(patches()).toEqual([{ active: false }]);
    expect(env.emu.store.shareLinks.get(s.id)!.active).toBe(false);
    expect(s.outs.active).toBe(false);
  });

  it("reads the link back from the site's list", async () => {
    const s = await created({ name: "Readable" });
    const r = await env.refresh("ShareLink", s);
    expect(r!.state).toEqual(s);
    // `active` is left to GitBook here: an output, never an input a plan could show as removed.
    expect(r!.inputs).toEqual({ organizationId: env.org, siteId, name: "Readable" });
    expect(r!.state.outs.active).toBe(true);
  });

  it("updates only what changed, and nothing when nothing changed", async () => {
    const s = await created({ name: "Before" });
    env.emu.log.reset();
    const same = await env.up("ShareLink", { siteId, name: "Before" }, s);
    expect(same.step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    const patches = spyBodies("PATCH");
    const r = await env.up("ShareLink", { siteId, name: "After" }, s);
    expect(r.step).toBe("update");
    expect(patches()).toEqual([{ name: "After" }]);
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.store.shareLinks.get(s.id)!.name).toBe("After");
    expect(r.state.outs).toMatchObject({ name: "After", url: s.outs.url, createdAt: s.outs.createdAt });
  });

  it("leaves a revoked link revoked when active is removed from the program", async () => {
    const s = await created({ active: false });
    env.emu.log.reset();
    const r = await env.up("ShareLink", { siteId, name: "Partners" }, s);
    // A change of state alone: no request.
    expect(r.step).toBe("update");
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.shareLinks.get(s.id)!.active).toBe(false);
    expect(r.state.outs.active).toBe(false);
  });

  it("shows drift after refresh and converges it on the next up", async () => {
    const s = await created({ name: "Drift" });
    const live = env.emu.store.shareLinks.get(s.id)!;
    live.name = "Renamed by hand";
    live.active = false;
    env.outOfBand();
    const refreshed = await env.refresh("ShareLink", s);
    expect(refreshed!.inputs).toMatchObject({ name: "Renamed by hand" });
    // Undeclared, `active` is reported in the outputs only; the program below declares it, so up converges it.
    expect(refreshed!.inputs).not.toHaveProperty("active");
    expect(refreshed!.state.outs.active).toBe(false);
    const r = await env.up("ShareLink", { siteId, name: "Drift", active: true }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(env.emu.store.shareLinks.get(s.id)).toMatchObject({ name: "Drift", active: true });
  });

  it("drops a link deleted outside Pulumi at refresh, and deletes idempotently", async () => {
    const s = await created();
    env.emu.store.shareLinks.delete(s.id);
    env.outOfBand();
    expect(await env.refresh("ShareLink", s)).toBeUndefined();
    await env.destroy("ShareLink", s);
  });

  it("deletes the link", async () => {
    const s = await created();
    await env.destroy("ShareLink", s);
    expect(env.emu.store.shareLinks.has(s.id)).toBe(false);
  });

  it("drops a link whose site is gone at refresh", async () => {
    const site = (await env.up("Site", { title: "Short-lived" })).state;
    const s = (await env.up("ShareLink", { siteId: site.id, name: "Orphan" })).state;
    // Deleted in the app, with what it holds (the provider's own delete refuses to take the link along).
    env.emu.store.deleteSite(site.id);
    env.outOfBand();
    expect(await env.refresh("ShareLink", s)).toBeUndefined();
  });

  it("replaces for another site: a new link there, the old one deleted", async () => {
    const s = await created({ name: "Moving" });
    const other = (await env.up("Site", { title: "Other Site" })).state.id;
    const r = await env.up("ShareLink", { siteId: other, name: "Moving" }, s);
    expect(r.step).toBe("replace");
    expect(env.emu.store.shareLinks.has(s.id)).toBe(false);
    expect(env.emu.store.shareLinks.get(r.state.id)!.siteId).toBe(other);
  });

  it("adopts an existing link and converges it to the program", async () => {
    const existing = await created({ name: "Legacy" });
    env.emu.log.reset();
    const r = await env.up("ShareLink", { siteId, name: "Adopted", active: false, adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.count({ method: "POST" })).toBe(0);
    expect(env.emu.store.shareLinks.get(existing.id)).toMatchObject({ name: "Adopted", active: false });
    expect(r.state.outs).toMatchObject({ adoptId: existing.id, url: existing.outs.url });
  });

  it("adopts a revoked link without re-activating it when the program does not declare active", async () => {
    const existing = await created({ name: "Revoked", active: false });
    env.emu.log.reset();
    const r = await env.up("ShareLink", { siteId, name: "Revoked", adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.shareLinks.get(existing.id)!.active).toBe(false);
    expect(r.state.outs.active).toBe(false);
  });

  it("fails clearly when adoptId names nothing", async () => {
    await expect(env.up("ShareLink", { siteId, name: "X", adoptId: "shl_missing" })).rejects.toThrow(/adoptId "shl_missing" names no existing object/);
  });

  it("recovers from a lost POST answer without creating the link twice", async () => {
    const name = "Lost answer";
    env.emu.faults.add({ match: { method: "POST", route: LINKS }, dropAfterProcess: true, times: 1 });
    const r = await env.up("ShareLink", { siteId, name });
    const links = [...env.emu.store.shareLinks.values()].filter((l) => l.name === name);
    expect(links.map((l) => l.id)).toEqual([r.state.id]);
    expect(env.emu.log.count({ method: "POST", route: LINKS })).toBe(1);
  });

  it("keeps a created link in state when it cannot be deactivated", async () => {
    env.emu.faults.add({ match: { method: "PATCH", route: /\/share-links\/:shareLink$/ }, errorRate: 1, status: 500 });
    const err = await env.up("ShareLink", { siteId, name: "Half", active: false }).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure", id: expect.any(String) });
    expect(err.properties).toMatchObject({ name: "Half", active: true });
    env.emu.faults.clear();
    const next = await env.up("ShareLink", { siteId, name: "Half", active: false }, { id: err.id, outs: err.properties });
    expect(next.step).toBe("update");
    expect(env.emu.store.shareLinks.get(err.id)!.active).toBe(false);
  });

  it("refreshes many links with one listing", async () => {
    const site = (await env.up("Site", { title: "Many Links" })).state.id;
    const states = await Promise.all(Array.from({ length: 30 }, (_, i) => env.up("ShareLink", { siteId: site, name: `L${i}` })));
    env.emu.log.reset();
    const refreshed = await Promise.all(states.map((s) => env.refresh("ShareLink", s.state)));
    expect(refreshed.every((r) => r !== undefined)).toBe(true);
    expect(env.emu.log.count({ method: "GET", route: LINKS })).toBe(1);
    expect(env.emu.log.count()).toBe(1);
  });
});

describe("resource class", () => {
  /** What the class hands the engine: `registerResource(res, parent, type, name, custom, remote, dep, props, opts)`. */
  function registered(make: () => unknown): { type: string; props: Record<string, unknown>; opts: pulumi.CustomResourceOptions } {
    pulumi.runtime.setMocks({ newResource: (a) => ({ id: "id", state: a.inputs }), call: () => ({}) });
    const runtime = createRequire(__filename)("@pulumi/pulumi/runtime/resource");
    const spy = vi.spyOn(runtime, "registerResource").mockImplementation(() => undefined);
    make();
    const [, , type, , , , , props, opts] = spy.mock.calls.at(-1)!;
    spy.mockRestore();
    return { type: type as string, props: props as Record<string, unknown>, opts: opts as pulumi.CustomResourceOptions };
  }

  it("marks url secret, keeping the secret outputs the user asked for", () => {
    const r = registered(() => new ShareLink("l", { siteId: "site_1", name: "n" }, { additionalSecretOutputs: ["name"], protect: true }));
    expect(r.type).toBe("pulumi-nodejs:dynamic/gitbook:ShareLink");
    expect(r.opts).toMatchObject({ protect: true });
    expect([...r.opts.additionalSecretOutputs!].sort()).toEqual(["name", "url"]);
    expect(registered(() => new ShareLink("m", { siteId: "site_1", name: "n" })).opts.additionalSecretOutputs).toEqual(["url"]);
  });

  it("passes the declared inputs, what check fills in, every output key, and no urls", () => {
    const { props } = registered(() => new ShareLink("l", { siteId: "site_1", name: "n" }));
    for (const k of ["organizationId", "siteId", "name", "url", "createdAt"]) expect(props).toHaveProperty(k);
    // Undeclared inputs are not registered (each registered property costs the SDK's promise wrapping).
    expect(props).not.toHaveProperty("adoptId");
    expect(props).not.toHaveProperty("urls");
  });
});
