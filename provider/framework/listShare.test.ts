/**
 * Concurrent creates in one container share the listing each takes before its POST (one request, not
 * one per create), while the listing after a lost answer is always sent anew: one sent before the
 * failure could miss what the lost POST made, and resending would duplicate it.
 *
 * A listing is held in flight by a gate in the client's transport (not by time): requests the gate
 * holds reach the emulator only once it is opened.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Agent, type Dispatcher } from "undici";
import { GitbookClient } from "../client";
import { ApiShareLink } from "../resources/shareLink";
import { startProviderEnv, type ProviderEnv } from "../../test/support/provider";
import { refuseCascade } from "./cascade";
import { createOnce } from "./createOnce";
import { listFresh } from "./lists";
import { paths as shareLinkPaths } from "../resources/shareLink";
import { ApiSiteSection } from "../resources/siteSection";
import { definition as siteSection, paths as sectionPaths } from "../resources/siteSection";
import { paths as siteSpacePaths } from "../resources/siteSpace";
import type { Ctx } from "./resource";
import { until } from "../../test/support/until";

let env: ProviderEnv;
let client: GitbookClient;
let ctx: Ctx;
/**
 * While set, GETs whose path contains `holding.path` wait for `holding.open` before they are sent; or,
 * with `answers`, are sent at once (the API answers with what it holds then) and their answers are
 * held until `open`: a listing that arrives after later writes, showing what was there before them.
 */
let holding: { path: string; open: Promise<void>; held: number; answers?: boolean; answered: number } | undefined;

function hold(path: string, answers = false): () => void {
  let open!: () => void;
  holding = { path, open: new Promise<void>((r) => (open = r)), held: 0, answers, answered: 0 };
  return () => {
    holding = undefined;
    open();
  };
}

/** A handler whose answer callbacks wait for `h.open`; `h.answered` counts answers that reached it. */
function heldAnswers(h: NonNullable<typeof holding>, handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler {
  let first = true;
  return new Proxy(handler, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== "function") return v;
      // undici's handlers keep private fields: every method runs on the handler itself, not the proxy.
      if (typeof prop !== "string" || !/^on(Response|Headers|Data|Complete|Error)/.test(prop)) return (v as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        if (first) h.answered++;
        first = false;
        void h.open.then(() => (v as (...a: unknown[]) => unknown).apply(target, args));
        return true;
      };
    },
  });
}

beforeAll(async () => {
  env = await startProviderEnv();
  const gated = new Agent().compose((dispatch) => (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
    const h = holding;
    if (h && opts.method === "GET" && String(opts.path).includes(h.path)) {
      h.held++;
      if (h.answers) return dispatch(opts, heldAnswers(h, handler));
      void h.open.then(() => dispatch(opts, handler));
      return true;
    }
    return dispatch(opts, handler);
  });
  client = new GitbookClient({ token: env.emu.token, apiUrl: env.emu.url, dispatcher: gated, retry: { baseDelayMs: 2, maxDelayMs: 20 } });
  ctx = { client, config: {} } as unknown as Ctx;
});
afterAll(async () => {
  await client.close();
  await env.close();
});
beforeEach(() => {
  env.emu.faults.clear();
  env.emu.log.reset();
  holding = undefined;
});

const LIST = { method: "GET", route: "/v1/orgs/:org/sites/:site/share-links" };
const POST = { method: "POST", route: "/v1/orgs/:org/sites/:site/share-links" };

async function newSite(title: string): Promise<{ site: string; path: string }> {
  const site = (await env.up("Site", { title })).state.id;
  env.emu.log.reset();
  return { site, path: shareLinkPaths.shareLinks(env.org, site) };
}

/** A share-link create through createOnce; `started` is set once its candidates are first asked for. */
function create(path: string, name: string, before: "list" | [] = "list", on = client) {
  const seen = { started: false };
  const made = createOnce({ client: on, config: {} } as unknown as Ctx, {
    kind: "ShareLink",
    key: `${path}/${name}`,
    what: `share link ${JSON.stringify(name)}`,
    before,
    candidates: async () => {
      seen.started = true;
      return (await on.listAll(path, ApiShareLink)).filter((l) => l.name === name);
    },
    send: () => on.post(path, { body: { name }, schema: ApiShareLink }),
  });
  return { made, seen };
}

describe("the listing before a create", () => {
  it("is one request for two creates of the same container started concurrently", async () => {
    const { path } = await newSite("Shared Listing");
    const open = hold(path);
    const a = create(path, "Partner A");
    await until(() => expect(a.seen.started).toBe(true));
    const b = create(path, "Partner B");
    // B asks for its listing while A's is still held in flight (the gate is not open yet).
    await until(() => expect(b.seen.started).toBe(true));
    open();
    const [x, y] = await Promise.all([a.made, b.made]);
    expect([x.name, y.name]).toEqual(["Partner A", "Partner B"]);
    expect(env.emu.log.count(LIST)).toBe(1);
    expect(env.emu.log.count(POST)).toBe(2);
  });

  it("takes one answered at most the maximum age ago, and lists again once it is older", async () => {
    const { path } = await newSite("Answered Listing");
    let t = 0;
    const aged = new GitbookClient({ token: env.emu.token, apiUrl: env.emu.url, now: () => t, guardMaxAgeMs: 1000 });
    try {
      await aged.listAll(path, ApiShareLink);
      t = 999;
      await create(path, "Partner A", "list", aged).made;
      expect(env.emu.log.count(LIST)).toBe(1);
      // Written since (by this create), which a create's "before" need not show (claims.ts), but older now.
      t = 2000;
      await create(path, "Partner B", "list", aged).made;
      expect(env.emu.log.count(LIST)).toBe(2);
    } finally {
      await aged.close();
    }
  });

  it("measures a listing's age on a monotonic clock, not the machine's, which may be set back or forward", async () => {
    const { path } = await newSite("Clock Moved");
    // Spied before the client is made, which keeps the Date.now it finds.
    const shifted = vi.spyOn(Date, "now");
    const real = new GitbookClient({ token: env.emu.token, apiUrl: env.emu.url, guardMaxAgeMs: 60_000 });
    try {
      await real.listAll(path, ApiShareLink);
      // The machine's clock set an hour forward: the listing, a moment old, is still within its age.
      // (Its age taken from that clock, set back instead, would never end.)
      const t = Date.now();
      shifted.mockReturnValue(t + 3_600_000);
      await create(path, "Partner", "list", real).made;
      expect(env.emu.log.count(LIST)).toBe(1);
    } finally {
      shifted.mockRestore();
      await real.close();
    }
  });

  it("with a maximum age of 0, takes only a listing still in flight", async () => {
    const { path } = await newSite("No Age");
    const strict = new GitbookClient({ token: env.emu.token, apiUrl: env.emu.url, guardMaxAgeMs: 0, now: () => 0 });
    try {
      await strict.listAll(path, ApiShareLink);
      await create(path, "Partner", "list", strict).made;
      expect(env.emu.log.count(LIST)).toBe(2);
    } finally {
      await strict.close();
    }
  });
});

describe("the listing after a lost create answer", () => {
  it("is sent anew, never joined to one sent before the failure, even inside a joining caller", async () => {
    const { site, path } = await newSite("Lost Answer");
    // A listing sent before the POST, held in flight: it cannot show what the POST makes.
    const open = hold(path);
    const early = client.listNow(path, ApiShareLink);
    await until(() => expect(holding?.held).toBe(1));
    const stale = holding!;
    // Further listings pass the gate; only the early one stays held.
    holding = { ...stale, path: "\0" };
    env.emu.faults.add({ match: POST, dropAfterProcess: true, times: 1 });
    const made = await client.guard("anything", () => create(path, "Partner", []).made);
    // Adopted from a listing of its own, while the early one is still held: one POST, one object.
    expect(env.emu.log.count(POST)).toBe(1);
    expect([...env.emu.store.shareLinks.values()].filter((l) => l.siteId === site && l.name === "Partner").map((l) => l.id)).toEqual([made.id]);
    open();
    expect((await early).map((l) => l.id)).toContain(made.id);
    // Joined to the early listing, the create would wait for the gate, opened only after it: it would hang.
  }, 10_000);
});

describe("listFresh", () => {
  it("joins a listing in flight only inside a guard", async () => {
    const { path } = await newSite("Fresh Listing");
    const open = hold(path);
    const first = client.listNow(path, ApiShareLink);
    const joined = client.guard("anything", () => listFresh(ctx, path, ApiShareLink));
    const own = listFresh(ctx, path, ApiShareLink);
    await until(() => expect(holding?.held).toBe(2));
    open();
    await Promise.all([first, joined, own]);
    expect(env.emu.log.count(LIST)).toBe(2);
  });
});

describe("the cascade guard", () => {
  it("sends one listing for two deletes of one container guarded together", async () => {
    const { path } = await newSite("Guarded Deletes");
    let started = 0;
    const def = {
      kind: "Thing",
      cascade: {
        consequence: "",
        held: async (c: Ctx) => {
          started++;
          return ((await listFresh(c, path, ApiShareLink)) ?? []).map((l) => ({ kind: "ShareLink", title: l.id, id: l.id }));
        },
      },
    };
    const open = hold(path);
    const first = refuseCascade(def, ctx, "a", {});
    await until(() => expect(started).toBe(1));
    const second = refuseCascade(def, ctx, "b", {});
    await until(() => expect(started).toBe(2));
    open();
    await Promise.all([first, second]);
    expect(env.emu.log.count(LIST)).toBe(1);
  });

  it("does not join a listing sent before a write settled: it could still show what that write deleted, and refuse for nothing", async () => {
    const { path } = await newSite("Guard After A Write");
    const { path: other } = await newSite("Somewhere Else");
    env.emu.log.reset();
    const def = {
      kind: "Thing",
      cascade: { consequence: "", held: async (c: Ctx) => ((await listFresh(c, path, ApiShareLink)) ?? []).map((l) => ({ kind: "ShareLink", title: l.id, id: l.id })) },
    };
    const open = hold(path);
    const first = refuseCascade(def, ctx, "a", {});
    await until(() => expect(holding?.held).toBe(1));
    // A write settles while the first guard's listing is still in flight (here a share link made elsewhere).
    await client.request("POST", other, { body: { name: "written meanwhile" } });
    const second = refuseCascade(def, ctx, "b", {});
    await until(() => expect(holding?.held).toBe(2));
    open();
    await Promise.all([first, second]);
    expect(env.emu.log.count(LIST)).toBe(2);
  });

  it("without discountsDeleted, does not join a listing sent before even a DELETE GitBook answered 205", async () => {
    const { site, path } = await newSite("Guard After A Delete");
    const link = (await client.post<{ id: string }>(path, { body: { name: "deleted meanwhile" } })).id;
    env.emu.log.reset();
    const held = async (c: Ctx) => ((await listFresh(c, path, ApiShareLink)) ?? []).map((l) => ({ kind: "ShareLink", title: l.id, id: l.id }));
    const strict = { kind: "Thing", cascade: { consequence: "", held } };
    const open = hold(path);
    const first = refuseCascade(strict, ctx, "a", {});
    await until(() => expect(holding?.held).toBe(1));
    await client.delete(shareLinkPaths.shareLink(env.org, site, link));
    expect(client.wasDeleted(shareLinkPaths.shareLink(env.org, site, link))).toBe(true);
    // A guard that does not discount deletes (a space's: the trash gives one back) lists anew.
    const second = refuseCascade(strict, ctx, "b", {});
    await until(() => expect(holding?.held).toBe(2));
    open();
    await Promise.all([first, second]);
    expect(env.emu.log.count(LIST)).toBe(2);
  });
});

describe("a section's delete guard (SiteSection)", () => {
  const SECTIONS = { method: "GET", route: "/v1/orgs/:org/sites/:site/sections" };

  /** A site with one section, and a site space in that section besides the section's own. */
  async function sectionWithSiteSpace(title: string) {
    const site = (await env.up("Site", { title })).state.id;
    const section = (await env.up("SiteSection", { siteId: site, spaceId: env.emu.seeded.spaceIds[0], title: "Guides" })).state;
    const siteSpaceState = (await env.up("SiteSpace", { siteId: site, sectionId: section.id, spaceId: env.emu.seeded.spaceIds[1] })).state;
    env.emu.log.reset();
    return { site, section, siteSpace: siteSpaceState.id, siteSpaceState, path: sectionPaths.sections(env.org, site) };
  }

  it("sees a site space made in the app more than the maximum age before the delete, and only within it takes the earlier listing", async () => {
    const site = (await env.up("Site", { title: "Edited Before The Delete" })).state.id;
    const section = (await env.up("SiteSection", { siteId: site, spaceId: env.emu.seeded.spaceIds[0], title: "Guides" })).state;
    let t = 0;
    const aged = new GitbookClient({ token: env.emu.token, apiUrl: env.emu.url, now: () => t, guardMaxAgeMs: 1000 });
    const actx = { client: aged, config: {} } as unknown as Ctx;
    try {
      await aged.listAll(sectionPaths.sections(env.org, site), ApiSiteSection);
      // Made in the app (another client) after that listing was answered.
      const made = (await env.up("SiteSpace", { siteId: site, sectionId: section.id, spaceId: env.emu.seeded.spaceIds[1] })).state.id;
      // The stated exposure: a listing answered up to the maximum age before the delete is taken.
      t = 999;
      await expect(refuseCascade(siteSection, actx, section.id, section.outs)).resolves.toBeUndefined();
      t = 1000;
      await expect(refuseCascade(siteSection, actx, section.id, section.outs)).rejects.toThrow(made);
    } finally {
      await aged.close();
    }
  });

  it("joins a listing sent before its site space's DELETE was answered, and does not count that site space as held", async () => {
    const { site, section, siteSpace, path } = await sectionWithSiteSpace("Stale Listing");
    // Sent and answered by GitBook now, while the site space is there; the answer arrives after the DELETE.
    const open = hold(path, true);
    const early = client.listNow(path, ApiSiteSection);
    await until(() => expect(holding?.answered).toBe(1));
    // Pulumi deletes the site space first (it names the section by its id output); GitBook answers 205.
    await client.delete(siteSpacePaths.siteSpace(env.org, site, siteSpace));
    const listNow = vi.spyOn(client, "listNow");
    const guard = refuseCascade(siteSection, ctx, section.id, section.outs);
    await until(() => expect(listNow).toHaveBeenCalledTimes(1));
    listNow.mockRestore();
    open();
    await guard;
    // The listing it joined still showed the deleted site space: discounted, not refused for.
    expect((await early).find((s) => s.id === section.id)?.siteSpaces?.map((ss) => ss.id)).toContain(siteSpace);
    expect(env.emu.log.count(SECTIONS)).toBe(1);
  });

  it("does not join a listing sent before this client made a site space in the section, and refuses for it", async () => {
    const { site, section, siteSpace, path } = await sectionWithSiteSpace("Made Meanwhile");
    await client.delete(siteSpacePaths.siteSpace(env.org, site, siteSpace));
    const open = hold(path, true);
    const early = client.listNow(path, ApiSiteSection);
    await until(() => expect(holding?.answered).toBe(1));
    // Made after that listing was answered: a listing sent before it cannot show it.
    const made = await client.post<{ id: string }>(siteSpacePaths.siteSpaces(env.org, site), { body: { spaceId: env.emu.seeded.spaceIds[2], sectionId: section.id } });
    const guard = refuseCascade(siteSection, ctx, section.id, section.outs).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    await until(() => expect(holding?.answered).toBe(2));
    open();
    await early;
    expect((await guard)?.message).toContain(made.id);
    expect(env.emu.log.count(SECTIONS)).toBe(2);
    expect(env.emu.store.siteSpaces.has(made.id)).toBe(true);
  });

  it("still refuses for a site space another client deleted: only this client's answered DELETEs are discounted", async () => {
    const { section, siteSpace, siteSpaceState, path } = await sectionWithSiteSpace("Deleted Elsewhere");
    const open = hold(path, true);
    const early = client.listNow(path, ApiSiteSection);
    await until(() => expect(holding?.answered).toBe(1));
    // Deleted through another client (another provider process): this one has no answer to go by.
    await env.destroy("SiteSpace", siteSpaceState);
    const listNow = vi.spyOn(client, "listNow");
    const guard = refuseCascade(siteSection, ctx, section.id, section.outs).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    await until(() => expect(listNow).toHaveBeenCalledTimes(1));
    listNow.mockRestore();
    open();
    await early;
    // Refused for nothing, never deleted blind: the next run (another process) lists anew and goes ahead.
    expect((await guard)?.message).toContain(siteSpace);
    const next = new GitbookClient({ token: env.emu.token, apiUrl: env.emu.url });
    try {
      await refuseCascade(siteSection, { client: next, config: {} } as unknown as Ctx, section.id, section.outs);
    } finally {
      await next.close();
    }
  });
});
