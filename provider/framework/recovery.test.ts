/**
 * Recovery from a lost create answer never takes an object another resource holds: not one another
 * create of this run made (names need not be unique), not one a resource in state holds, and where it
 * cannot tell which object is its own it stops naming the candidates instead of guessing.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AmbiguousRequestError, ConnectionError, type GitbookClient } from "../client";
import { startProviderEnv, type ProviderEnv } from "../../test/support/provider";
import { AmbiguousCreateError, createOnce, type Ctx } from "./resource";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());
beforeEach(() => {
  env.emu.faults.clear();
  env.emu.log.reset();
});

let n = 0;
const unique = (base: string) => `${base} ${++n}`;

interface Kind {
  kind: string;
  create: { method: string; route: string };
  list: string;
  inputs(): Promise<Record<string, unknown>>;
  /** IDs of the live objects the inputs describe. */
  live(inputs: Record<string, unknown>): string[];
}

const kinds: Kind[] = [
  {
    kind: "ShareLink",
    create: { method: "POST", route: "/v1/orgs/:org/sites/:site/share-links" },
    list: "/v1/orgs/:org/sites/:site/share-links",
    inputs: async () => ({ siteId: (await env.up("Site", { title: unique("Links") })).state.id, name: "Partner" }),
    live: (i) => [...env.emu.store.shareLinks.values()].filter((l) => l.siteId === i.siteId && l.name === i.name).map((l) => l.id),
  },
  {
    kind: "Site",
    create: { method: "POST", route: "/v1/orgs/:org/sites" },
    list: "/v1/orgs/:org/sites",
    inputs: async () => ({ title: unique("Twin Docs") }),
    live: (i) => [...env.emu.store.sites.values()].filter((s) => s.title === i.title).map((s) => s.id),
  },
  {
    kind: "Team",
    create: { method: "PUT", route: "/v1/orgs/:org/teams" },
    list: "/v1/orgs/:org/teams",
    inputs: async () => ({ title: unique("Twins") }),
    live: (i) => [...env.emu.store.teams.values()].filter((t) => t.title === i.title).map((t) => t.id),
  },
  {
    kind: "SamlProvider",
    create: { method: "POST", route: "/v1/orgs/:org/saml" },
    list: "/v1/orgs/:org/saml",
    inputs: async () => ({ label: unique("Twin") }),
    live: (i) => [...env.emu.store.samlProviders.values()].filter((p) => p.label === i.label).map((p) => p.id),
  },
];

describe.each(kinds)("$kind: two resources with the same name", (k) => {
  it("binds each to its own object when the first create's answer is lost and the second is made before it looks", async () => {
    const inputs = await k.inputs();
    env.emu.log.reset();
    env.emu.faults.add({ match: k.create, dropAfterProcess: true, times: 1 });
    // The lost create looks only once the second object exists, and its answer is on its way.
    env.emu.faults.add({ match: { method: "GET", route: k.list }, latencyMs: 300, times: 1 });
    const first = env.up(k.kind, inputs);
    await vi.waitFor(() => expect(env.emu.log.count(k.create)).toBe(1));
    const second = env.up(k.kind, inputs);
    const [a, b] = await Promise.all([first, second]);
    expect(a.state.id).not.toBe(b.state.id);
    expect(k.live(inputs).sort()).toEqual([a.state.id, b.state.id].sort());
    expect(env.emu.log.count(k.create)).toBe(2);
  });

  it("never takes the object a resource in state holds, once the run has reached that resource", async () => {
    const inputs = await k.inputs();
    const held = await env.up(k.kind, inputs);
    // A new run (a new provider process) reaches the existing resource, then creates a namesake whose
    // request is lost before the API saw it: the one object of that name is held, so the create is resent.
    env.outOfBand();
    expect((await env.diff(k.kind, held.state, (await env.check(k.kind, inputs)).inputs!)).changes).toBe(false);
    env.emu.faults.add({ match: k.create, dropBeforeProcess: true, times: 1 });
    const made = await env.up(k.kind, inputs);
    expect(made.state.id).not.toBe(held.state.id);
    expect(k.live(inputs).sort()).toEqual([held.state.id, made.state.id].sort());
  });
});

describe("ShareLink: where the lost create's object cannot be told apart", () => {
  const LINKS = { method: "POST", route: "/v1/orgs/:org/sites/:site/share-links" };
  const outOfBandLink = (siteId: string, name: string, ageMs = 0) => {
    const base = env.emu.store.newId("shl");
    const link = { ...base, createdAt: new Date(Date.now() - ageMs).toISOString(), siteId, name, active: true, key: "k".repeat(24) };
    env.emu.store.shareLinks.set(link.id, link);
    env.outOfBand();
    return link.id;
  };

  it("stops naming both candidates and adoptId when another namesake appeared meanwhile, resending nothing", async () => {
    const { siteId } = (await kinds[0]!.inputs()) as { siteId: string };
    const theirs = outOfBandLink(siteId, "Partner");
    env.emu.log.reset();
    env.emu.faults.add({ match: LINKS, dropAfterProcess: true, times: 1 });
    const err = await env.up("ShareLink", { siteId, name: "Partner" }).catch((e) => e);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    const ours = [...env.emu.store.shareLinks.values()].find((l) => l.siteId === siteId && l.id !== theirs)!.id;
    expect(err.candidates.sort()).toEqual([theirs, ours].sort());
    expect(err.message).toMatch(/share link "Partner" in site .* got no answer/);
    expect(err.message).toContain(theirs);
    expect(err.message).toContain(ours);
    expect(err.message).toMatch(/adoptId: "/);
    expect(env.emu.log.count(LINKS)).toBe(1);
  });

  it("stops, rather than adopt it or resend, when the only namesake was made shortly before the request", async () => {
    const { siteId } = (await kinds[0]!.inputs()) as { siteId: string };
    const older = outOfBandLink(siteId, "Partner", 60_000);
    env.emu.log.reset();
    env.emu.faults.add({ match: LINKS, dropBeforeProcess: true, times: 1 });
    const err = await env.up("ShareLink", { siteId, name: "Partner" }).catch((e) => e);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect(err.candidates).toEqual([older]);
    expect(err.message).toMatch(/created before the request was sent/);
    expect(env.emu.log.count(LINKS)).toBe(1);
    expect([...env.emu.store.shareLinks.values()].filter((l) => l.siteId === siteId).map((l) => l.id)).toEqual([older]);
  });

  it("ignores namesakes older than the clock allowance, and resends", async () => {
    const { siteId } = (await kinds[0]!.inputs()) as { siteId: string };
    const old = outOfBandLink(siteId, "Partner", 10 * 60_000);
    env.emu.faults.add({ match: LINKS, dropBeforeProcess: true, times: 1 });
    const made = await env.up("ShareLink", { siteId, name: "Partner" });
    expect(made.state.id).not.toBe(old);
    expect(env.emu.log.count(LINKS)).toBe(2);
  });
});

describe("createOnce", () => {
  const lost = () => new AmbiguousRequestError(new ConnectionError("UND_ERR_SOCKET", "other side closed", { method: "POST", path: "/v1/x" }));

  it("waits for the other creates of its key in flight before deciding, so an object about to be someone's is not taken", async () => {
    const ctx = { client: {} as GitbookClient, config: {} } as Ctx;
    const made: { id: string; createdAt: string }[] = [];
    const make = (id: string) => {
      const o = { id, createdAt: new Date().toISOString() };
      made.push(o);
      return o;
    };
    const spec = { kind: "Thing", key: "org/Partner", what: "thing", candidates: async () => [...made], createdAt: (o: { createdAt: string }) => o.createdAt };
    // B's object exists at once but its answer takes 100 ms; A's object exists and its answer is lost.
    const b = createOnce(ctx, { ...spec, send: async () => { const o = make("b1"); await sleep(100); return o; } });
    const a = createOnce(ctx, { ...spec, send: async () => { make("a1"); throw lost(); } });
    expect((await a).id).toBe("a1");
    expect((await b).id).toBe("b1");
  });
});
