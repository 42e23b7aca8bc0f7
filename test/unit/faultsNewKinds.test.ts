/**
 * Every write of the kinds added for branding, redirects, access and visitor authentication, under
 * each fault the service shows: a 429 (with X-RateLimit-Reset, and with Retry-After), a 503 (retried),
 * a 500 (not retried: the run fails and the next converges), a lost answer (the request took effect,
 * the answer never came) and a reset connection (the request never took effect).
 *
 * The writes are not listed by hand: a fault-free run of each kind's lifecycle records every write
 * each step sends (create, update, the regenerate trigger, delete), and each one is then failed once,
 * in a fresh provider process, the way the engine would run the step. Afterwards:
 * - nothing was written twice where twice differs from once: as many objects as the fault-free run
 *   left (rules, grants), and the key regenerated once;
 * - state is true: a refresh reads what the step recorded, and the next plan shows nothing to do;
 * - an error, when a step fails, names the resource's kind.
 *
 * And a run killed after a create's writes, before the state write: `pulumi-gitbook recover` adopts
 * what it can prove the run made or drops the pending create, and the next `up` converges without a
 * second object or a write.
 *
 * The kinds come from the registry: a kind not covered here must be named in OLDER_KINDS (covered by
 * test/faults/* and provider/framework/recovery.test.ts) or the test listing the kinds fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultSpec } from "../../emulator/faults";
import { GitbookClient } from "../../provider/client";
import { resolveConfig } from "../../provider/config";
import { PartialFailure } from "../../provider/framework/failure";
import { planRecovery, type Exported } from "../../provider/recover/plan";
import type { Props } from "../../provider/framework/resource";
import { resources } from "../../provider/resources";
import { providerEnvPerFile, type ProviderEnv, type State } from "../support/provider";

let env: ProviderEnv;
providerEnvPerFile((e) => (env = e));

let n = 0;
const unique = (base: string) => `${base} ${++n}`;

type StepName = "create" | "update" | "regenerate" | "delete";

interface Scenario {
  kind: string;
  /** Fresh objects the resource is declared over, and the inputs of each step (the regenerate step's `from` is the state it starts in). */
  prepare(): Promise<Ctx>;
}

interface Ctx {
  create: Props;
  update: Props;
  /** For a kind with a trigger: the inputs the resource starts in, and the inputs that pull it. */
  regenerate?: { from: Props; to: Props };
  /** The objects GitBook holds that this resource manages (rules, grants): counted, so a duplicate shows. */
  count(): number;
  /** How many times a write replaced something that must change once (the visitor key), since prepare. */
  rewrites?(): number;
}

/**
 * Kinds covered elsewhere: every one is in the fault topology (test/faults/topology.ts) that each CLI
 * suite of test/faults/* runs under 429s, 5xx, lost answers, timeouts, kills and a revoked token, and
 * those that create through createOnce are in provider/framework/recovery.test.ts.
 */
const OLDER_KINDS = [
  "Site",
  "SiteSection",
  "SiteSpace",
  "SiteSectionGroup",
  "SiteExternalLink",
  "SiteStructureOrder",
  "SiteAdaptiveSchema",
  "SitePublication",
  "ShareLink",
  "Space",
  "Collection",
  "Team",
  "SamlProvider",
  "OpenApiSpec",
];

const site = async () => (await env.up("Site", { title: unique("Faulty Docs") })).state.id;
const team = async () => (await env.up("Team", { title: unique("Faulty Team") })).state.id;

const scenarios: Scenario[] = [
  {
    kind: "SiteCustomization",
    async prepare() {
      const siteId = await site();
      const primaryColor = { light: "#346ddb", dark: "#8fb3ff" };
      return {
        create: { siteId, styling: { primaryColor } },
        update: { siteId, styling: { primaryColor }, footer: { copyright: "© Acme Inc." } },
        count: () => (env.emu.store.siteCustomizations.has(siteId) ? 1 : 0),
      };
    },
  },
  {
    kind: "SiteSpaceCustomization",
    async prepare() {
      const siteId = await site();
      const section = await env.up("SiteSection", { siteId, spaceId: env.emu.seeded.spaceIds[0], title: "Guides" });
      const siteSpaceId = section.state.outs.siteSpaceId as string;
      const overrides = () => Object.keys(env.emu.store.siteSpaceCustomizations.get(siteSpaceId)?.overrides ?? {}).length;
      return { create: { siteId, siteSpaceId, title: "Guides FR" }, update: { siteId, siteSpaceId, title: "Guides DE" }, count: overrides };
    },
  },
  {
    kind: "SiteVisitorAuth",
    async prepare() {
      const siteId = await site();
      // Every regeneration assigns the record's key: counted through a setter.
      let regenerated = 0;
      const auth = () => env.emu.store.publishingAuths.get(siteId);
      const watch = () => {
        const rec = auth();
        if (!rec || Object.getOwnPropertyDescriptor(rec, "privateKey")?.set) return;
        let key = rec.privateKey;
        Object.defineProperty(rec, "privateKey", {
          enumerable: true,
          get: () => key,
          set: (v: string) => {
            regenerated++;
            key = v;
          },
        });
      };
      const base = { siteId, fallbackURL: "https://auth.acme.test/login" };
      return {
        create: base,
        update: { ...base, fallbackURL: "https://auth.acme.test/login2" },
        regenerate: { from: { ...base, regenerate: "2026-01" }, to: { ...base, regenerate: "2026-02" } },
        count: () => (watch(), auth() ? 1 : 0),
        rewrites: () => (watch(), regenerated),
      };
    },
  },
  {
    kind: "SiteCustomHostname",
    async prepare() {
      // A hostname set up for the site "in the app": create only reads it; the writes are the DNS
      // revalidation (a trigger added to the resource in state) and, with removeOnDestroy, the DELETE.
      const siteId = await site();
      const hostname = `docs-${siteId.toLowerCase().replace(/[^a-z0-9]/g, "")}.acme.test`;
      env.emu.store.customHostnames.set(hostname, { id: hostname, seq: 0, createdAt: new Date(0).toISOString(), targetType: "site", targetId: siteId, isActive: true, status: "dns_wrong_cname" });
      env.emu.store.sites.get(siteId)!.hostname = hostname;
      const base = { siteId, hostname, removeOnDestroy: true };
      return {
        create: base,
        update: { ...base, revalidate: "v1" },
        count: () => (env.emu.store.customHostnames.has(hostname) ? 1 : 0),
      };
    },
  },
  {
    kind: "GitSyncInstallation",
    async prepare() {
      // A repository GitBook's GitHub app sees, and the account authorised for it (the app's step).
      // Priority gitbook: each PATCH exports the site to the repository, needing no file there.
      const siteId = await site();
      const repo = 900_000 + ++n;
      env.emu.store.gitRepositories.set(String(repo), { id: String(repo), seq: 0, createdAt: new Date(0).toISOString(), provider: "github", name: `acme/docs-${repo}`, files: {} });
      env.emu.store.orgs.get(env.org)!.gitProviders = ["github"];
      const base = { siteId, provider: "github", repositoryId: repo, branch: "refs/heads/main", priority: "gitbook" };
      return {
        create: base,
        update: { ...base, commitMessageTemplate: "docs: sync" },
        count: () => [...env.emu.store.gitInstallations.values()].filter((g) => g.targetId === siteId).length,
      };
    },
  },
  {
    kind: "SiteRedirect",
    async prepare() {
      const siteId = await site();
      return {
        create: { siteId, source: "/old", destination: { url: "https://acme.test/new" } },
        update: { siteId, source: "/old", destination: { url: "https://acme.test/newer" }, permanent: true },
        count: () => [...env.emu.store.siteRedirects.values()].filter((r) => r.siteId === siteId).length,
      };
    },
  },
  {
    kind: "SiteRedirects",
    async prepare() {
      const siteId = await site();
      const rule = (source: string, url: string) => ({ source, destination: { url } });
      return {
        create: { siteId, rules: [rule("/a", "https://acme.test/a"), rule("/b", "https://acme.test/b")] },
        // One rule changed, one deleted, one added: all in one bulk PUT.
        update: { siteId, rules: [rule("/a", "https://acme.test/a2"), rule("/c", "https://acme.test/c")] },
        count: () => [...env.emu.store.siteRedirects.values()].filter((r) => r.siteId === siteId).length,
      };
    },
  },
  {
    kind: "Permission",
    async prepare() {
      const siteId = await site();
      const teamId = await team();
      return {
        create: { siteId, teamId, role: "read" },
        update: { siteId, teamId, role: "edit" },
        count: () => env.emu.store.permissionsOn("site", siteId, "team").length,
      };
    },
  },
  {
    kind: "AccessList",
    async prepare() {
      const siteId = await site();
      const [t1, t2] = [await team(), await team()];
      const [ada, bob] = env.emu.seeded.members.map((m) => m.id);
      return {
        create: { siteId, teams: [{ teamId: t1, role: "read" }], users: [{ userId: ada, role: "edit" }] },
        // A role changed (PATCH), a grant removed (DELETE), a grant added (POST).
        update: { siteId, teams: [{ teamId: t1, role: "admin" }, { teamId: t2, role: "read" }], users: [{ userId: bob, role: "edit" }] },
        count: () => (["team", "user"] as const).reduce((s, who) => s + env.emu.store.permissionsOn("site", siteId, who).length, 0),
      };
    },
  },
];

// ---- Driving a step the way the engine does ------------------------------------------------------------

interface Held {
  state?: State;
  inputs: Props;
}

/** One step, from `held`, in a new provider process; an error is kept as the engine keeps it (a partial failure records the resource). */
async function step(kind: string, name: StepName, held: Held, inputs: Props): Promise<{ held: Held; error?: Error }> {
  env.outOfBand();
  try {
    if (name === "delete") {
      await env.destroy(kind, held.state!);
      return { held: { inputs } };
    }
    const r = await env.up(kind, inputs, held.state);
    return { held: { state: r.state, inputs } };
  } catch (e) {
    if (e instanceof PartialFailure) return { held: { state: { id: e.id, outs: e.properties }, inputs: held.inputs }, error: e };
    return { held, error: e as Error };
  }
}

/** The state each step starts from, made fault-free. */
async function before(k: Scenario, c: Ctx, name: StepName): Promise<{ held: Held; inputs: Props }> {
  if (name === "create") return { held: { inputs: c.create }, inputs: c.create };
  const first = name === "regenerate" ? c.regenerate!.from : c.create;
  const made = await env.up(k.kind, first);
  const held = { state: made.state, inputs: first };
  if (name === "update") return { held, inputs: c.update };
  if (name === "regenerate") return { held, inputs: c.regenerate!.to };
  return { held, inputs: first };
}

interface Write {
  step: StepName;
  method: string;
  route: string;
}

/** Every write each step of the kind sends, from a fault-free run, with the objects and rewrites it leaves. */
async function writesOf(k: Scenario): Promise<{ writes: Write[]; after: Record<StepName, { count: number; rewrites: number }> }> {
  const writes: Write[] = [];
  const after = {} as Record<StepName, { count: number; rewrites: number }>;
  const names: StepName[] = ["create", "update", "delete"];
  if ((await k.prepare()).regenerate) names.splice(2, 0, "regenerate");
  for (const name of names) {
    const c = await k.prepare();
    const { held, inputs } = await before(k, c, name);
    const rewrites = c.rewrites?.() ?? 0;
    env.emu.log.reset();
    const r = await step(k.kind, name, held, inputs);
    expect(r.error).toBeUndefined();
    for (const e of env.emu.log.entries) {
      if (e.method !== "GET" && !writes.some((w) => w.step === name && w.method === e.method && w.route === e.route)) writes.push({ step: name, method: e.method, route: e.route });
    }
    after[name] = { count: c.count(), rewrites: (c.rewrites?.() ?? 0) - rewrites };
  }
  return { writes, after };
}

const faults: [string, FaultSpec][] = [
  // A reset one second past: the client takes its wait from the header (0 ms), where one at the coming
  // second slept up to a second per write (23 s of this file). Waiting out a reset: client.test.ts.
  ["a 429 with X-RateLimit-Reset", { rateLimit: { burst: 1, resetInSeconds: -1 } }],
  ["a 429 with Retry-After", { rateLimit: { burst: 1, retryAfterSeconds: 0 } }],
  ["a 503", { errorRate: 1, status: 503 }],
  ["a 500", { errorRate: 1, status: 500 }],
  ["a lost answer", { dropAfterProcess: true }],
  ["a reset connection", { dropBeforeProcess: true }],
];

/** Request counts per kind and fault, printed at the end for the record. */
const measured: string[] = [];
afterAll(() => {
  if (measured.length > 0) console.log(`requests per faulted step (first run + re-run, incl. reads):\n${measured.join("\n")}`);
});

it("covers every kind of the registry, or names the suite that does", () => {
  const covered = new Set([...scenarios.map((s) => s.kind), ...OLDER_KINDS]);
  expect(resources.map((r) => r.kind).filter((k) => !covered.has(k))).toEqual([]);
  expect(OLDER_KINDS.filter((k) => scenarios.some((s) => s.kind === k))).toEqual([]);
});

describe.each(scenarios)("$kind", (k) => {
  let found: Awaited<ReturnType<typeof writesOf>>;
  beforeAll(async () => {
    found = await writesOf(k);
  });

  it("sends writes the matrix fails (found by a fault-free run)", () => {
    expect(found.writes.length).toBeGreaterThan(0);
  });

  it.each(faults)("survives %s on each of its writes: nothing twice, state true, the next plan empty", async (what, fault) => {
    for (const w of found.writes) {
      const c = await k.prepare();
      const { held, inputs } = await before(k, c, w.step);
      const rewrites = c.rewrites?.() ?? 0;
      env.emu.log.reset();
      const handle = env.emu.faults.add({ ...fault, match: { method: w.method, route: w.route }, times: 1 });
      const where = `${k.kind} ${w.step}, ${what} on ${w.method} ${w.route}`;
      let r = await step(k.kind, w.step, held, inputs);
      expect(handle.hits, where).toBe(1);
      const firstError = r.error;
      if (firstError) {
        // The run failed: its error names the resource, and the next run converges.
        expect(firstError.message, where).toContain(k.kind);
        r = await step(k.kind, w.step, r.held, inputs);
      }
      expect(r.error?.message, where).toBeUndefined();
      measured.push(`${where}: ${env.emu.log.count()} requests${firstError ? " (the first run failed)" : ""}`);
      // Only a 500 on a write the client may not resend fails the run; everything else is survived in it.
      if (!what.includes("500")) expect(firstError?.message, where).toBeUndefined();

      expect(c.count(), `${where}: objects`).toBe(found.after[w.step].count);
      expect((c.rewrites?.() ?? 0) - rewrites, `${where}: rewrites`).toBe(found.after[w.step].rewrites);
      if (w.step === "delete") continue;
      // State is true: a refresh finds what it recorded, and the next plan has nothing to do.
      env.outOfBand();
      const refreshed = await env.refresh(k.kind, r.held.state!);
      expect(refreshed, where).toBeDefined();
      expect(refreshed!.state.outs, where).toEqual(r.held.state!.outs);
      const next = await env.up(k.kind, inputs, refreshed!.state);
      expect(next.step, where).toBe("same");
    }
  });
});

describe.each(scenarios)("$kind: a run killed after the create's writes, before the state write", (k) => {
  it("is resolved by recover (adopted, or dropped for the next up to converge), with nothing made twice and no write", async () => {
    const c = await k.prepare();
    // The killed run's create: its writes went through; its answer never reached the checkpoint.
    const made = await env.up(k.kind, c.create);
    const count = c.count();
    const kind = k.kind;
    const exported: Exported = {
      version: 3,
      deployment: {
        pending_operations: [
          {
            type: "creating",
            resource: { urn: `urn:pulumi:dev::docs::pulumi-nodejs:dynamic/gitbook:${kind}::killed`, custom: true, type: `pulumi-nodejs:dynamic/gitbook:${kind}`, inputs: { ...made.inputs, __provider: `with({ kind: "${kind}" }) { require("pulumi-gitbook/impl") }` } },
          },
        ],
      },
    };
    const client = new GitbookClient({ token: env.emu.token, apiUrl: env.emu.url });
    const ctx = { client, config: resolveConfig({ token: env.emu.token, apiUrl: env.emu.url }, {}) };
    const urnOf = exported.deployment.pending_operations![0]!.resource.urn;
    // Recover names what could be it, and takes it only by the user's word; a kind set by a PUT is dropped for the next up to send again.
    const p = await (async () => {
      const [first] = await planRecovery(ctx, exported, { adopt: new Map(), drop: new Set() });
      if (first!.action !== "undecided") return first;
      expect(first!.candidates.map((x) => x.id)).toEqual([made.state.id]);
      return (await planRecovery(ctx, exported, { adopt: new Map([[urnOf, [made.state.id]]]), drop: new Set() }))[0];
    })().finally(() => client.close());
    expect(["adopt", "drop"], JSON.stringify(p)).toContain(p!.action);
    env.outOfBand();
    env.emu.log.reset();
    // Adopted: the resource is in state as that object, and the next up has nothing to do. Dropped: the next up creates it again.
    const next = p!.action === "adopt" ? await env.up(k.kind, c.create, (await env.refresh(k.kind, { id: p!.id, outs: made.state.outs }))!.state) : await env.up(k.kind, c.create);
    if (p!.action === "adopt") expect(p!.id).toBe(made.state.id);
    expect(next.state.id).toBe(made.state.id);
    expect(env.emu.log.writes()).toBe(0);
    expect(c.count()).toBe(count);
  });
});
