/**
 * Recovery from a lost create answer never takes an object another resource holds: not one another
 * create of this run made (names need not be unique), not one a resource in state holds, and where it
 * cannot tell which object is its own it stops naming the candidates instead of guessing.
 */
import { setTimeout as sleep } from "node:timers/promises";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AmbiguousRequestError, ConnectionError, GitbookClient, ServerError } from "../client";
import { providerEnvPerFile, type ProviderEnv } from "../../test/support/provider";
import { AmbiguousCreateError, createOnce } from "./createOnce";
import type { Ctx } from "./resource";
import { PartialFailure } from "./failure";
import { unconfirmedIn } from "./state";
import { until } from "../../test/support/until";

let env: ProviderEnv;
providerEnvPerFile((e) => (env = e));

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
    await until(() => expect(env.emu.log.count(k.create)).toBe(1));
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

/**
 * Every kind that creates through createOnce, against an object someone made in the app before the
 * attempt with everything the kind's candidates are recognised by (title, label, name, space...).
 */
interface AppKind {
  kind: string;
  create: { method: string; route: string };
  inputs(): Promise<Record<string, unknown>>;
  /** The live objects the inputs describe, as the emulator holds them (ID -> record). */
  live(inputs: Record<string, unknown>): Map<string, unknown>;
  /**
   * How a create next to an app-made namesake ends when nothing is lost: "created" (a second object),
   * or the error it fails with (a unique slug, a space shown twice in one section), before or from the API.
   */
  beside: "created" | RegExp;
}

const filtered = <V extends { id: string }>(m: Map<string, V>, keep: (v: V) => boolean) => new Map([...m].filter(([, v]) => keep(v)));
const SITE = "/v1/orgs/:org/sites/:site";
const siteWithSection = async () => {
  const siteId = (await env.up("Site", { title: unique("App Docs") })).state.id;
  const sectionId = (await env.up("SiteSection", { siteId, spaceId: env.emu.seeded.spaceIds[0], title: "Guide" })).state.id;
  return { siteId, sectionId };
};

const appKinds: AppKind[] = [
  ...kinds.map((k) => ({ kind: k.kind, create: k.create, inputs: k.inputs, beside: "created" as const, live: (i: Record<string, unknown>) => new Map(k.live(i).map((id) => [id, find(k.kind, id)])) })),
  {
    kind: "Space",
    create: { method: "POST", route: "/v1/orgs/:org/spaces" },
    inputs: async () => ({ title: unique("Handbook") }),
    live: (i) => filtered(env.emu.store.spaces, (s) => s.title === i.title && !s.deletedAt),
    beside: "created",
  },
  {
    kind: "Collection",
    create: { method: "POST", route: "/v1/orgs/:org/collections" },
    inputs: async () => ({ title: unique("Guides") }),
    live: (i) => filtered(env.emu.store.collections, (c) => c.title === i.title),
    beside: "created",
  },
  {
    kind: "SiteSection",
    create: { method: "POST", route: `${SITE}/sections` },
    inputs: async () => ({ siteId: (await env.up("Site", { title: unique("App Docs") })).state.id, spaceId: env.emu.seeded.spaceIds[1], title: "Reference" }),
    live: (i) => filtered(env.emu.store.sections, (s) => s.siteId === i.siteId && s.spaceId === i.spaceId),
    beside: "created",
  },
  {
    kind: "SiteSpace",
    create: { method: "POST", route: `${SITE}/site-spaces` },
    inputs: async () => ({ ...(await siteWithSection()), spaceId: env.emu.seeded.spaceIds[2] }),
    live: (i) => filtered(env.emu.store.siteSpaces, (s) => s.siteId === i.siteId && s.sectionId === i.sectionId && s.spaceId === i.spaceId),
    beside: /already published in section .* set adoptId: "sitesp_/,
  },
  {
    kind: "SiteSectionGroup",
    create: { method: "POST", route: `${SITE}/section-groups` },
    inputs: async () => ({ siteId: (await siteWithSection()).siteId, title: "More" }),
    live: (i) => filtered(env.emu.store.sectionGroups, (g) => g.siteId === i.siteId && g.title === i.title),
    beside: "created",
  },
  {
    kind: "SiteExternalLink",
    create: { method: "POST", route: `${SITE}/external-links` },
    inputs: async () => ({ siteId: (await siteWithSection()).siteId, title: "Status", url: "https://status.example.com" }),
    live: (i) => filtered(env.emu.store.externalLinks, (l) => l.siteId === i.siteId && l.title === i.title),
    beside: "created",
  },
  {
    kind: "OpenApiSpec",
    create: { method: "POST", route: "/v1/orgs/:org/openapi" },
    inputs: async () => ({ slug: unique("app-api").replace(" ", "-"), source: { text: "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n" } }),
    live: (i) => filtered(env.emu.store.openApiSpecs, (s) => s.slug === i.slug),
    beside: /already has a spec with slug .* set adoptId/,
  },
];

/** The store record of an object of one of the first kinds, for comparing before and after. */
function find(kind: string, id: string): unknown {
  const st = env.emu.store;
  return { ShareLink: st.shareLinks, Site: st.sites, Team: st.teams, SamlProvider: st.samlProviders }[kind]!.get(id);
}

/** Makes the namesake the way the app would: not through this deployment (its claims and memory are dropped). */
async function appMade(k: AppKind, inputs: Record<string, unknown>): Promise<{ id: string; record: string }> {
  const { state } = await env.up(k.kind, inputs);
  env.outOfBand();
  return { id: state.id, record: JSON.stringify(k.live(inputs).get(state.id)) };
}

describe.each(appKinds)("$kind: recovery never adopts an app-made namesake", (k) => {
  const lostBefore: [string, Record<string, unknown>][] = [
    ["dropped before the API processed it", { dropBeforeProcess: true }],
    ["answered 503 by a gateway", { errorRate: 1, status: 503 }],
  ];
  it.each(lostBefore)("leaves the namesake alone when the create was %s", async (_, fault) => {
    const inputs = await k.inputs();
    const theirs = await appMade(k, inputs);
    env.emu.log.reset();
    env.emu.faults.add({ match: k.create, times: 1, ...fault } as never);
    const made = await env.up(k.kind, inputs).then(
      (r) => r.state.id,
      (e: Error) => e,
    );
    const live = k.live(inputs);
    // Untouched: the same object, with the same values.
    expect(JSON.stringify(live.get(theirs.id))).toBe(theirs.record);
    if (k.beside === "created") {
      // The lost create made nothing, so it was sent again and made the resource's own object.
      expect(made).not.toBeInstanceOf(Error);
      expect(made).not.toBe(theirs.id);
      expect([...live.keys()].sort()).toEqual([theirs.id, made as string].sort());
    } else {
      expect(made).toBeInstanceOf(Error);
      expect((made as Error).message).toMatch(k.beside);
      expect((made as Error).message).toContain(k.kind === "OpenApiSpec" ? String(inputs.slug) : theirs.id);
      expect([...live.keys()]).toEqual([theirs.id]);
    }
  });

  it("adopts the object a create dropped after the API processed it made, and makes no other", async () => {
    const inputs = await k.inputs();
    // A namesake the app made is there too, where the kind allows one.
    const theirs = k.beside === "created" ? await appMade(k, inputs) : undefined;
    env.emu.log.reset();
    env.emu.faults.add({ match: k.create, times: 1, dropAfterProcess: true });
    const made = await env.up(k.kind, inputs);
    expect(env.emu.log.count(k.create)).toBe(1);
    const live = k.live(inputs);
    expect([...live.keys()].sort()).toEqual([made.state.id, ...(theirs ? [theirs.id] : [])].sort());
    if (theirs) expect(JSON.stringify(live.get(theirs.id))).toBe(theirs.record);
  });
});

describe("ShareLink: where the lost create's object cannot be told apart", () => {
  const LINKS = { method: "POST", route: "/v1/orgs/:org/sites/:site/share-links" };
  /** `midRun`: made while the provider is at work, whose client (and its cached lists) must stay. */
  const outOfBandLink = (siteId: string, name: string, ageMs = 0, midRun = false) => {
    const base = env.emu.store.newId("shl");
    const link = { ...base, createdAt: new Date(Date.now() - ageMs).toISOString(), siteId, name, active: true, key: "k".repeat(24) };
    env.emu.store.shareLinks.set(link.id, link);
    if (!midRun) env.outOfBand();
    return link.id;
  };

  it("stops naming both candidates, kept as unconfirmed for recover, when another namesake appeared while the create was on its way, resending nothing", async () => {
    const { siteId } = (await kinds[0]!.inputs()) as { siteId: string };
    env.emu.log.reset();
    // Someone makes a "Partner" link while the create, whose answer will be lost, is on its way.
    let theirs = "";
    const record = env.emu.log.record.bind(env.emu.log);
    env.emu.log.record = (e) => {
      if (e.method === "GET" && !theirs) theirs = outOfBandLink(siteId, "Partner", 0, true);
      record(e);
    };
    env.emu.faults.add({ match: LINKS, dropAfterProcess: true, times: 1 });
    const err = await env.up("ShareLink", { siteId, name: "Partner" }).catch((e) => e);
    env.emu.log.record = record;
    // Kept in state as unconfirmed: one of them is likely this create's, and a re-run would list it
    // among those that were there before and make a third (before, the error left nothing in state).
    expect(err).toBeInstanceOf(PartialFailure);
    expect((err as PartialFailure).id).toMatch(/^unconfirmed-create-/);
    expect(unconfirmedIn((err as PartialFailure).properties)!.before).not.toContain(theirs);
    const ours = [...env.emu.store.shareLinks.values()].find((l) => l.siteId === siteId && l.id !== theirs)!.id;
    expect(err.message).toMatch(/share link "Partner" in site .* got no answer/);
    expect(err.message).toContain(`ShareLink "Partner" ${theirs} (created `);
    expect(err.message).toContain(ours);
    expect(err.message).toMatch(/none of them was taken\. The resource is kept in state as unconfirmed, .*recover --stack <stack>.*adopt the one it made/);
    expect(env.emu.log.count(LINKS)).toBe(1);
  });

  it("resends, never taking it, when the only namesake was made shortly before the request", async () => {
    const { siteId } = (await kinds[0]!.inputs()) as { siteId: string };
    const older = outOfBandLink(siteId, "Partner", 60);
    env.emu.log.reset();
    env.emu.faults.add({ match: LINKS, dropBeforeProcess: true, times: 1 });
    const made = await env.up("ShareLink", { siteId, name: "Partner" });
    expect(made.state.id).not.toBe(older);
    expect(env.emu.log.count(LINKS)).toBe(2);
    expect([...env.emu.store.shareLinks.values()].filter((l) => l.siteId === siteId).map((l) => l.id).sort()).toEqual([older, made.state.id].sort());
  });

  it("never takes a namesake GitBook dated before the request, even one the listing before missed", async () => {
    const { siteId } = (await kinds[0]!.inputs()) as { siteId: string };
    env.emu.log.reset();
    // A listing that lags behind: the link made (and dated) ten minutes ago shows only once the create is sent.
    let old = "";
    const record = env.emu.log.record.bind(env.emu.log);
    env.emu.log.record = (e) => {
      if (e.method === "POST" && !old) old = outOfBandLink(siteId, "Partner", 10 * 60_000, true);
      record(e);
    };
    env.emu.faults.add({ match: LINKS, dropBeforeProcess: true, times: 1 });
    const made = await env.up("ShareLink", { siteId, name: "Partner" });
    env.emu.log.record = record;
    expect(old).not.toBe("");
    expect(made.state.id).not.toBe(old);
    expect(env.emu.log.count(LINKS)).toBe(2);
  });

  it("refuses to take any candidate when the listing before could not be made", async () => {
    const ctx = { client: { fresh: (fn: () => unknown) => fn(), guard: (_since: unknown, fn: () => unknown) => fn(), clockLead: () => 0 } as unknown as GitbookClient, config: {} } as Ctx;
    const { NotFoundError } = await import("../client");
    let listings = 0;
    const spec = {
      kind: "Thing",
      key: "org/Partner",
      what: "thing",
      before: "list" as const,
      candidates: async () => {
        if (listings++ === 0) throw new NotFoundError(404, "not found", { method: "GET", path: "/v1/x" });
        return [{ id: "t1", title: "Partner" }];
      },
      send: async (): Promise<{ id: string; title: string }> => {
        throw new AmbiguousRequestError(new ConnectionError("UND_ERR_SOCKET", "other side closed", { method: "POST", path: "/v1/x" }));
      },
    };
    const err = await createOnce(ctx, spec).catch((e) => e);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect(err.message).toMatch(/could not list what existed before .*: Thing "Partner" t1\. Nothing was sent again/);
  });
});

describe("createOnce", () => {
  const lost = () => new AmbiguousRequestError(new ConnectionError("UND_ERR_SOCKET", "other side closed", { method: "POST", path: "/v1/x" }));

  it("waits for the other creates of its key in flight before deciding, so an object about to be someone's is not taken", async () => {
    const ctx = { client: { fresh: (fn: () => unknown) => fn(), guard: (_since: unknown, fn: () => unknown) => fn(), clockLead: () => 0 } as unknown as GitbookClient, config: {} } as Ctx;
    const made: { id: string; createdAt: string }[] = [];
    const make = (id: string) => {
      const o = { id, createdAt: new Date().toISOString() };
      made.push(o);
      return o;
    };
    const spec = { kind: "Thing", key: "org/Partner", what: "thing", candidates: async () => [...made], before: [], createdAt: (o: { createdAt: string }) => o.createdAt };
    // B's object exists at once but its answer takes 100 ms; A's object exists and its answer is lost.
    const b = createOnce<{ id: string; createdAt: string }>(ctx, { ...spec, send: async () => { const o = make("b1"); await sleep(100); return o; } });
    const a = createOnce<{ id: string; createdAt: string }>(ctx, { ...spec, send: async () => { make("a1"); throw lost(); } });
    expect((await a).id).toBe("a1");
    expect((await b).id).toBe("b1");
  });
});

describe("a lost create whose looking fails too", () => {
  it("says the object may exist, what to look for and how to adopt it, and sends nothing again (a space)", async () => {
    const list = { method: "GET", route: "/v1/orgs/:org/spaces" };
    const post = { method: "POST", route: "/v1/orgs/:org/spaces" };
    env.emu.faults.add({ match: post, latencyMs: 300, times: 1 });
    env.emu.faults.add({ match: post, dropAfterProcess: true, times: 1 });
    const title = unique("Lost Look");
    const run = env.up("Space", { title, __gitbookName: "handbook" }).then(
      () => undefined,
      (e: Error) => e,
    );
    // The listing before the create is answered; every one after it fails.
    await until(() => expect(env.emu.log.count(list)).toBe(1));
    env.emu.faults.add({ match: list, errorRate: 1, status: 503 });
    const e = await run;
    env.emu.faults.clear();
    const made = [...env.emu.store.spaces.values()].filter((s) => s.title === title).map((s) => s.id);
    expect(made).toHaveLength(1);
    expect(env.emu.log.count(post)).toBe(1);
    // Before: only the listing's 503, so nothing said a space may have been made, and the next run made a second.
    expect(e?.message).toMatch(
      new RegExp(
        `^Space handbook: the create of space "${title}" got no answer, so it may or may not have happened, and what it may have made could not be looked for ` +
          `\\(GitBook API 503 on GET /v1/orgs/[^/]+/spaces: .*\\)\\. Nothing was sent again; what it may have made dates from [0-9T:.-]+Z on\\. The resource is kept in state as unconfirmed, and every preview, up, refresh and destroy that reaches it fails, sending nothing, until it is decided: run \`npx pulumi-gitbook recover --stack <stack>\``,
      ),
    );
    // A partial failure: the engine keeps the resource under a placeholder, with when the create was
    // sent and what existed before it (the listing before the POST was answered).
    expect(e).toBeInstanceOf(PartialFailure);
    const placeholder = (e as PartialFailure).id;
    expect(placeholder).toMatch(/^unconfirmed-create-\d+-/);
    const outs = (e as PartialFailure).properties;
    const record = unconfirmedIn(outs)!;
    expect(Date.parse(record.sentAt)).toBeLessThanOrEqual(Date.now());
    // Listed before the POST (not null), when no space of that title existed.
    expect(record.before).toEqual([]);
    expect(outs.__provider).toBeDefined();

    // Until recover resolves it, every call on it refuses (a read too: an empty one would drop it), and nothing is sent.
    env.emu.log.reset();
    const state = { id: placeholder, outs };
    for (const call of [
      () => env.call("Space", "read", placeholder, outs),
      () => env.diff("Space", state, { title, __gitbookName: "handbook" }),
      () => env.call("Space", "update", placeholder, outs, { title, __gitbookName: "handbook", __provider: outs.__provider }),
      () => env.destroy("Space", state),
    ]) {
      await expect(call()).rejects.toThrow(/^Space handbook: its create, sent [0-9T:.-]+Z, got no answer, .* Nothing was sent\. .*pulumi-gitbook recover/);
    }
    expect(env.emu.log.count()).toBe(0);
  });

  it("keeps the object a replacement replaces while the replacement's create is unconfirmed: in the run that made it, and in a later one that reaches it (--continue-on-error)", async () => {
    const sites = "/v1/orgs/:org/sites";
    const name = { __gitbookName: "replaced" };
    const old = (await env.up("Site", { title: unique("Replaced"), type: "basic", ...name })).state;
    const news = (await env.check("Site", { title: old.outs.title, type: "premium", ...name }, old.outs)).inputs!;
    expect((await env.diff("Site", old, news)).replaces).toEqual(["type"]);
    // The replacement's POST never reaches GitBook, and every listing after the one before it fails.
    env.emu.faults.add({ match: { method: "POST", route: sites }, dropBeforeProcess: true, times: 1 });
    env.emu.faults.add({ match: { method: "GET", route: sites }, errorRate: 1, status: 500, after: 1 });
    const made = await env.call("Site", "create", { ...news, __provider: "p" }).catch((e: unknown) => e);
    env.emu.faults.clear();
    expect(made).toBeInstanceOf(PartialFailure);
    const placeholder = made as PartialFailure;
    // What the engine then does: it takes the partial failure as the replacement made, and deletes the old site.
    env.emu.log.reset();
    const refusal = new RegExp(`^Site replaced: ${old.id} is not deleted: the resource's replacement was created in this run, but its create is unconfirmed \\(kept in state as ${placeholder.id}\\), .*Nothing was sent\\. .*pulumi-gitbook recover`);
    await expect(env.destroy("Site", old)).rejects.toThrow(refusal);
    // Another resource of the kind is deleted as ever: the refusal is this resource's.
    const other = (await env.up("Site", { title: unique("Other"), __gitbookName: "other" })).state;
    await env.destroy("Site", other);
    expect(env.emu.store.sites.has(other.id)).toBe(false);
    // A later run (another process) that reaches the placeholder: its diff refuses, and so does the old site's delete after it.
    env.outOfBand();
    env.emu.log.reset();
    await expect(env.diff("Site", { id: placeholder.id, outs: placeholder.properties }, news)).rejects.toThrow(/its create, sent .* got no answer/);
    await expect(env.destroy("Site", old)).rejects.toThrow(refusal);
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.sites.has(old.id)).toBe(true);
  });

  it("passes on the looking's own refusal (more than one candidate) as it is", async () => {
    const ctx = { client: { fresh: (fn: () => unknown) => fn(), guard: (_since: unknown, fn: () => unknown) => fn(), clockLead: () => 0 } as unknown as GitbookClient, config: {} } as Ctx;
    const lost = new AmbiguousRequestError(new ConnectionError("UND_ERR_SOCKET", "other side closed", { method: "POST", path: "/v1/x" }));
    const base = { kind: "Thing", key: "k", what: "thing", before: [], send: async (): Promise<{ id: string }> => { throw lost; } };
    await expect(createOnce(ctx, { ...base, candidates: async () => [{ id: "t1" }, { id: "t2" }] })).rejects.toBeInstanceOf(AmbiguousCreateError);
    const down = new ServerError(503, "down", { method: "GET", path: "/v1/things" });
    await expect(createOnce(ctx, { ...base, candidates: async () => { throw down; } })).rejects.toThrow(/^Thing: the create of thing got no answer, .* could not be looked for \(GitBook API 503 on GET \/v1\/things: down\)\. Nothing was sent again/);
  });
});

describe("a create answered 503 with a Retry-After", () => {
  it("is looked for, then sent again only after the wait GitBook asked for", async () => {
    let posts = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      res.setHeader("content-type", "application/json");
      if (req.method === "GET") return res.end(JSON.stringify({ items: [] }));
      if (++posts === 1) return res.writeHead(503, { "retry-after": "7" }).end(JSON.stringify({ error: { code: 503, message: "overloaded" } }));
      res.end(JSON.stringify({ id: "t1" }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const sleeps: number[] = [];
    const client = new GitbookClient({ token: "gb_test_token", apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sleep: async (ms) => void sleeps.push(ms) });
    try {
      const made = await createOnce({ client, config: {} } as Ctx, {
        kind: "Thing",
        key: "things",
        what: "thing",
        before: [],
        send: () => client.post("/things", { body: {}, schema: z.object({ id: z.string() }) }),
        candidates: () => client.listNow("/things", z.object({ id: z.string() })),
      });
      expect(made.id).toBe("t1");
      expect(posts).toBe(2);
      // Before: sent again as soon as the listing showed nothing, whatever GitBook had asked.
      expect(sleeps).toEqual([7000]);
    } finally {
      await client.close();
      await new Promise((r) => (server.close(r), server.closeAllConnections()));
    }
  });
});
