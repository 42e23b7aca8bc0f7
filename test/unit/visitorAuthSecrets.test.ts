/**
 * SiteVisitorAuth's private key is a secret: a secret output of the kind (encrypted in state, masked
 * in plans: siteVisitorAuth.test.ts; the CLI suite test/lifecycle/everyKind.test.ts (a site's address and its key) reads the
 * state and every log file),
 * and never in an error's text nor anything printed, whatever goes wrong: each read and write answered
 * 5xx, cut off, or refused with a 4xx whose message echoes the key (an API may quote what it holds),
 * and the emulator's request log as a failing test prints it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FaultSpec } from "../../emulator/faults";
import type { Reply } from "../../emulator/http";
import { startProviderEnv, type ProviderEnv, type State } from "../support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());

/** Everything printed while a test runs: console and the process's own streams. */
let printed: string[] = [];
const restore: (() => void)[] = [];
beforeEach(() => {
  env.emu.faults.clear();
  env.emu.log.reset();
  printed = [];
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => (printed.push(String(chunk)), write(chunk as never, ...(rest as [])))) as typeof stream.write;
    restore.push(() => (stream.write = write));
  }
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const f = console[level];
    console[level] = (...args: unknown[]) => (printed.push(args.map(String).join(" ")), f(...args));
    restore.push(() => (console[level] = f));
  }
});
afterEach(() => {
  while (restore.length) restore.pop()!();
});

const AUTH = "/v1/orgs/:org/sites/:site/publishing/auth";
const REGENERATE = `${AUTH}/regenerate`;

/** Every key each site has had. */
const keysOf = new Map<string, Set<string>>();
function keys(site: string): string[] {
  const rec = env.emu.store.publishingAuths.get(site);
  const set = keysOf.get(site) ?? new Set();
  if (rec) set.add(rec.privateKey);
  keysOf.set(site, set);
  return [...set];
}

/** All the text an error carries, through its causes: message, stack, reasons, and its own fields. */
function textOf(e: unknown, depth = 0): string {
  if (!(e instanceof Error) || depth > 5) return String(e);
  const own = JSON.stringify(e, (k, v) => (k === "cause" ? undefined : v));
  return [e.message, e.stack ?? "", own, textOf((e as { cause?: unknown }).cause, depth + 1)].join("\n");
}

/**
 * The emulator answers the route's next request with a 4xx whose message quotes the site's current
 * key, as an API echoing what it holds would (the route otherwise behaves as it does).
 */
function echoKeyOnce(method: string, route: string, status: number): void {
  const router = (env.emu as unknown as { router: { match(m: string, p: string): { template: string; handler: (c: unknown) => Reply } | undefined } }).router;
  const match = router.match.bind(router);
  router.match = (m, p) => {
    const found = match(m, p);
    if (!found || m !== method || found.template !== route) return found;
    router.match = match;
    return {
      ...found,
      handler: (c) => {
        const site = (c as { params: { site: string } }).params.site;
        const key = env.emu.store.publishingAuths.get(site)?.privateKey;
        return { status, body: { error: { code: status, message: `backend "custom" requires a private key; the site has ${key}` } } };
      },
    };
  };
}

type Step = "create" | "update" | "regenerate" | "read";

/** One step of the lifecycle on a new site, after `fail` is set; the error it ends with, if any. */
async function attempt(step: Step, fail: () => void): Promise<{ site: string; error?: unknown }> {
  const site = (await env.up("Site", { title: "Private Docs" })).state.id;
  const base = { siteId: site, fallbackURL: "https://login.acme.test/", regenerate: "v1" };
  let state: State | undefined;
  if (step !== "create") state = (await env.up("SiteVisitorAuth", base)).state;
  // The site's settings exist from its first read (GitBook makes them with the site): read once, so a key is there to leak.
  await fetch(`${env.emu.url}/v1/orgs/${env.org}/sites/${site}/publishing/auth`, { headers: { authorization: `Bearer ${env.emu.token}` } });
  keys(site);
  env.outOfBand();
  fail();
  try {
    if (step === "read") await env.refresh("SiteVisitorAuth", state!);
    else await env.up("SiteVisitorAuth", step === "update" ? { ...base, fallbackURL: "https://login2.acme.test/" } : step === "regenerate" ? { ...base, regenerate: "v2" } : base, state);
    return { site };
  } catch (error) {
    return { site, error };
  }
}

function expectNowhere(site: string, error: unknown): void {
  const all = keys(site);
  expect(all.length).toBeGreaterThan(0);
  const texts = { error: textOf(error), printed: printed.join(""), "request log": JSON.stringify(env.emu.log.entries) };
  for (const key of all) for (const [where, text] of Object.entries(texts)) expect(text, `the key in ${where}`).not.toContain(key);
}

const routes: [Step, string, string][] = [
  ["create", "GET", AUTH],
  ["create", "PATCH", AUTH],
  ["update", "PATCH", AUTH],
  ["regenerate", "GET", AUTH],
  ["regenerate", "POST", REGENERATE],
  ["read", "GET", AUTH],
];

const faults: [string, FaultSpec][] = [
  ["a 500", { errorRate: 1, status: 500 }],
  ["a 503 every time", { errorRate: 1, status: 503 }],
  ["a lost answer every time", { dropAfterProcess: true }],
];

describe.each(routes)("%s: %s %s", (step, method, route) => {
  it.each(faults)("on %s, has no key in the error, the output or the request log", async (what, fault) => {
    const { site, error } = await attempt(step, () => env.emu.faults.add({ ...fault, match: { method, route } }));
    // A lost regenerate answer is recovered from (the key is read again); everything else fails the step.
    if (what.includes("lost") && route === REGENERATE) expect(error).toBeUndefined();
    else expect(textOf(error)).toContain("SiteVisitorAuth");
    expectNowhere(site, error);
  });

  // The first read of a create has seen no key: GitBook's words are shown whole (see Keys in siteVisitorAuth.ts).
  it.skipIf(step === "create" && method === "GET").each([400, 403, 422])("fails on a %i quoting the key, with the key taken out of the error", async (status) => {
    const { site, error } = await attempt(step, () => echoKeyOnce(method, route, status));
    expect(error).toBeDefined();
    expect(textOf(error)).toContain("requires a private key; the site has [REDACTED]");
    expectNowhere(site, error);
  });
});
