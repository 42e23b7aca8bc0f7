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
import type { Ctx } from "./resource";

let env: ProviderEnv;
let client: GitbookClient;
let ctx: Ctx;
/** While set, GETs whose path contains `holding.path` wait for `holding.open` before they are sent. */
let holding: { path: string; open: Promise<void>; held: number } | undefined;

function hold(path: string): () => void {
  let open!: () => void;
  holding = { path, open: new Promise<void>((r) => (open = r)), held: 0 };
  return () => {
    holding = undefined;
    open();
  };
}

beforeAll(async () => {
  env = await startProviderEnv();
  const gated = new Agent().compose((dispatch) => (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
    const h = holding;
    if (h && opts.method === "GET" && String(opts.path).includes(h.path)) {
      h.held++;
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
function create(path: string, name: string, before: "list" | [] = "list") {
  const seen = { started: false };
  const made = createOnce(ctx, {
    kind: "ShareLink",
    key: `${path}/${name}`,
    what: `share link ${JSON.stringify(name)}`,
    before,
    candidates: async () => {
      seen.started = true;
      return (await client.listAll(path, ApiShareLink)).filter((l) => l.name === name);
    },
    send: () => client.post(path, { body: { name }, schema: ApiShareLink }),
  });
  return { made, seen };
}

describe("the listing before a create", () => {
  it("is one request for two creates of the same container started concurrently", async () => {
    const { path } = await newSite("Shared Listing");
    const open = hold(path);
    const a = create(path, "Partner A");
    await vi.waitFor(() => expect(a.seen.started).toBe(true));
    const b = create(path, "Partner B");
    // B asks for its listing while A's is still held in flight (the gate is not open yet).
    await vi.waitFor(() => expect(b.seen.started).toBe(true));
    open();
    const [x, y] = await Promise.all([a.made, b.made]);
    expect([x.name, y.name]).toEqual(["Partner A", "Partner B"]);
    expect(env.emu.log.count(LIST)).toBe(1);
    expect(env.emu.log.count(POST)).toBe(2);
  });

  it("never takes a listing that has already been answered", async () => {
    const { path } = await newSite("Answered Listing");
    await client.listAll(path, ApiShareLink);
    await create(path, "Partner").made;
    expect(env.emu.log.count(LIST)).toBe(2);
  });
});

describe("the listing after a lost create answer", () => {
  it("is sent anew, never joined to one sent before the failure, even inside a joining caller", async () => {
    const { site, path } = await newSite("Lost Answer");
    // A listing sent before the POST, held in flight: it cannot show what the POST makes.
    const open = hold(path);
    const early = client.listNow(path, ApiShareLink);
    await vi.waitFor(() => expect(holding?.held).toBe(1));
    const stale = holding!;
    // Further listings pass the gate; only the early one stays held.
    holding = { ...stale, path: "\0" };
    env.emu.faults.add({ match: POST, dropAfterProcess: true, times: 1 });
    const made = await client.listings("joinInFlight", () => create(path, "Partner", []).made);
    // Adopted from a listing of its own, while the early one is still held: one POST, one object.
    expect(env.emu.log.count(POST)).toBe(1);
    expect([...env.emu.store.shareLinks.values()].filter((l) => l.siteId === site && l.name === "Partner").map((l) => l.id)).toEqual([made.id]);
    open();
    expect((await early).map((l) => l.id)).toContain(made.id);
    // Joined to the early listing, the create would wait for the gate, opened only after it: it would hang.
  }, 10_000);
});

describe("listFresh", () => {
  it("joins a listing in flight only inside the joining mode (the cascade guard)", async () => {
    const { path } = await newSite("Fresh Listing");
    const open = hold(path);
    const first = client.listNow(path, ApiShareLink);
    const joined = client.listings("joinInFlight", () => listFresh(ctx, path, ApiShareLink));
    const own = listFresh(ctx, path, ApiShareLink);
    await vi.waitFor(() => expect(holding?.held).toBe(2));
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
    await vi.waitFor(() => expect(started).toBe(1));
    const second = refuseCascade(def, ctx, "b", {});
    await vi.waitFor(() => expect(started).toBe(2));
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
    await vi.waitFor(() => expect(holding?.held).toBe(1));
    // A write settles while the first guard's listing is still in flight (here a share link made elsewhere).
    await client.request("POST", other, { body: { name: "written meanwhile" } });
    const second = refuseCascade(def, ctx, "b", {});
    await vi.waitFor(() => expect(holding?.held).toBe(2));
    open();
    await Promise.all([first, second]);
    expect(env.emu.log.count(LIST)).toBe(2);
  });
});
