/**
 * A token revoked in the middle of a run, and every class of fault the service shows, through the real
 * CLI on the whole fault topology, on one stack and the SAME runs (issue 40: four engine runs where the
 * two files took six):
 * 1. an `up` stopped by the token revoked right after the first site's create (every other write held
 *    until then, so exactly that site is made): the error names the token, never shows it, and the site
 *    is in state;
 * 2. the `up` with a new token that converges from there, every class of fault below armed side by side
 *    on different routes, each keeping its own assertions, exact per object made in that run; the next
 *    plan, made in this process, sends no write;
 * 3. a `destroy --refresh` whose refresh loses nothing though the first read on every route answers too
 *    late, then stopped by the token revoked right after its first DELETE: exactly that object left
 *    state;
 * 4. what finishes it: `destroy --run-program` with the new token (`destroy` configures the provider
 *    from the config recorded in state at the last `up`, its refresh too, so only --run-program brings a
 *    new token; the 401's message says so, provider/client/client.test.ts), through the delete faults.
 * The classes of fault:
 * - lost answers: the API does the write and the answer never arrives. A create resent blindly would
 *   make a second object; an update or delete resent is harmless. Every lost create is recovered by
 *   finding what it made, never by sending it again.
 * - 429s with X-RateLimit-Reset or Retry-After: the request was not carried out, so anything may be
 *   resent, creates included, but only once the announced time has come; the wait is written to the
 *   host's stderr, which the engine relays to the display.
 * - 5xx: a 502/503/504 says the request was not done and is resent; a 500 is a bug on the API's side
 *   and is not resent blindly (a create answered 500 is looked for, then resent; a read answered 500
 *   ending the run: test/unit/readAnswered500.test.ts, in process).
 * - answers slower than `gitbook:requestTimeoutSeconds`: the provider gives up while the API is still
 *   working; a read or an idempotent write is sent again, a create only once the provider has made sure
 *   the first one made nothing.
 * After every run the emulator holds exactly what state names (no duplicate, no orphan) and the
 * organization's spaces are untouched; no token appears in any file, output or error.
 * Every write of the newer kinds under each fault is covered in process (test/unit/faultsNewKinds.test.ts);
 * what stays here is what only the engine shows: the provider host's retries inside a real `pulumi up`,
 * parallel steps, partial failure in the checkpoint, and the config a `destroy` configures from.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { FaultHandle } from "../../emulator/faults";
import type { LogEntry, RouteFilter } from "../../emulator/log";
import { describeDeployments, type Deployment } from "../support/lifecycle";
import { deploy, expectConverged, expectNothingLeft, expectStateMatchesEmulator, expectTokenNowhere, topology } from "./topology";

/**
 * The timeout holds for every request of these runs, the 429s' answers included: at 0.2 s, a refusal
 * answered while the machine was busy reached the provider after it had given up on the request (seen
 * once in five runs, load average 14), so its resend rightly came before the reset. At 1 s, the
 * destroy failed in two of three full suite runs on 2 cores (never alone): a resource's DELETEs,
 * some answered after the provider had given up on them and the rest among the 502s, spent all eight
 * attempts. At 2 s, once revokedToken.test.ts's runs joined these, the check that each resend after a
 * 429 waits for its reset failed in two of five runs at load average 11 to 14 (a refusal reaching the
 * provider after it had given up, again). Three seconds keep the other classes' answers in time on a
 * machine that busy.
 */
const TIMEOUT = { "gitbook:requestTimeoutSeconds": "3" };
/** Beyond the 3 s timeout, but not so far that a test waits long for the API to finish. */
const SLOW_MS = 3300;

const org = (p: string) => `/v1/orgs/:org${p}`;
const SITE = org("/sites/:site");

/** "METHOD route" of each write route, each fault class owning its own (so one class's counts are not another's). */
const route = (key: string) => key.split(" ") as [string, string];

/** Creates whose answer is always lost (team creation is a PUT on the collection: as unsafe to resend as a POST). */
const LOST_CREATES = [`POST ${org("/sites")}`, `POST ${SITE}/sections`, `POST ${SITE}/share-links`, `POST ${org("/openapi")}`, `PUT ${org("/teams")}`];
/** Updates and membership writes whose first answer is lost: resending those is safe. */
const LOST_FIRST_UPDATES = [
  `PATCH ${SITE}`,
  `PATCH ${SITE}/sections/:section`,
  `PATCH ${SITE}/share-links/:shareLink`,
  `PUT ${org("/openapi/:slug")}`,
  `PUT ${org("/teams/:team/members")}`,
  `PUT ${org("/teams/:team/members/:user")}`,
  // Publishing is a POST that may be resent.
  `POST ${SITE}/publish`,
];
/** The SSO create is refused: twice with X-RateLimit-Reset, then once with Retry-After. */
const RATE_LIMITED = `POST ${org("/saml")}`;
/** A create answered 503 (not done: resent) and one answered 500 (looked for, then resent). */
const CREATE_503 = `POST ${org("/collections")}`;
const CREATE_500 = `POST ${SITE}/section-groups`;
const CLAIMED = new Set([...LOST_CREATES, ...LOST_FIRST_UPDATES, RATE_LIMITED, CREATE_503, CREATE_500]);
/** Every other write's first request answers too late: the site spaces, spaces, links and the visitor schema among them. */
const SLOW_CREATES = [`POST ${SITE}/site-spaces`, `POST ${org("/spaces")}`, `POST ${SITE}/external-links`, `PUT ${SITE}/adaptive-schema`];

/** Deletes: the sites' refused (timed by the reset), these lose their first answer, the rest answer their first too late. */
const DELETE_RATE_LIMITED = `DELETE ${SITE}`;
const DELETE_LOST = [`DELETE ${SITE}/sections/:section`, `DELETE ${SITE}/site-spaces/:siteSpace`, `DELETE ${SITE}/share-links/:shareLink`, `DELETE ${org("/teams/:team")}`, `DELETE ${org("/openapi/:slug")}`, "DELETE /v1/spaces/:space"];
const DELETE_SLOW = ["DELETE /v1/collections/:collection", `DELETE ${org("/saml/:saml")}`, `DELETE ${SITE}/section-groups/:group`, `DELETE ${SITE}/external-links/:link`];

/** Every route but the organization's own (GET /v1/orgs/:org), by its template and by its path. */
const NOT_ORG = /^(?!\/v1\/orgs\/[^/]+$)/;

describeDeployments("a revoked token and every class of fault, on different routes of the same runs", () => {
  let d: Deployment;
  /** Every request as it arrived, in the emulator's clock (the one its reset headers are computed from). */
  const arrivals: { method: string; route: string; path: string; status: number; at: number }[] = [];
  const tokens: string[] = [];
  const errors: string[] = [];
  beforeAll(async () => {
    d = await deploy();
    tokens.push(d.emu.token);
    d.emu.log.onRecord((e) => arrivals.push({ method: e.method, route: e.route, path: e.path, status: e.status, at: Date.now() - e.ms }));
  });
  afterAll(async () => d?.close());

  const add = (key: string, fault: Record<string, unknown>) => {
    const [method, r] = route(key);
    return d.emu.faults.add({ match: { method, route: r }, ...fault } as Parameters<typeof d.emu.faults.add>[0]);
  };
  /** The first request of these methods on every route not otherwise claimed answers too late. */
  const slowFirst = (methods: string[], claimed: ReadonlySet<string>): FaultHandle[] =>
    d.emu
      .routes()
      .filter((key) => methods.includes(route(key)[0]) && !claimed.has(key))
      .map((key) => add(key, { latencyMs: SLOW_MS, times: 1 }));
  const keyOf = (f: FaultHandle) => `${f.spec.match!.method} ${String(f.spec.match!.route)}`;
  /** Each request refused with 429 since `from`, with the next request to its path: that resend waits for the reset. */
  const expectResendsWaited = (from: number, method: string, expected: number, resetOf: (at: number) => number) => {
    const since = arrivals.slice(from);
    const refused = since
      .map((a, i) => ({ a, next: since.slice(i + 1).find((b) => b.method === a.method && b.path === a.path) }))
      .filter(({ a }) => a.status === 429 && a.method === method);
    expect(refused).toHaveLength(expected);
    for (const { a, next } of refused) {
      expect(next).toMatchObject({ method, path: a.path });
      expect(next!.at, since.map((b) => `${b.at - a.at}ms ${b.method} ${b.status} ${b.path}`).join("\n")).toBeGreaterThanOrEqual(resetOf(a.at) - 5);
    }
  };

  /**
   * Holds every request matching `held` until the API has answered one matching `when`, then revokes the
   * token and lets the held ones through (each answered 401): what was made before the revocation is
   * exactly that one request's object, whatever order the engine sends in.
   */
  const revokeAfter = (when: (e: LogEntry) => boolean, held: RouteFilter[] = []): (() => void) => {
    const gates = held.map((match) => d.emu.gate(match, { every: true }));
    const release = () => {
      off();
      for (const g of gates) g.open();
    };
    const off = d.emu.log.onRecord((e) => {
      if (!when(e)) return;
      d.emu.revokeToken();
      release();
    });
    return release;
  };
  /** "DELETE route" of the one object the stopped destroy deleted. */
  let revokedRoute = "";
  const rotate = () => {
    d.emu.token = `gb_emu_rotated_${tokens.length}_0123456789abcdef`;
    tokens.push(d.emu.token);
  };
  /** How many requests since `from` were sent with this method to this route. */
  const sent = (from: number, method: string, r: string) => arrivals.slice(from).filter((a) => a.method === method && a.route === r).length;
  /** How many objects of each lost create's route GitBook holds. */
  const lostCreateObjects = () => {
    const st = d.emu.store;
    return [st.sites.size, st.sections.size, st.shareLinks.size, st.openApiSpecs.size, st.teams.size];
  };

  it("stops an up with an error naming the revoked token, keeping the object made before the revocation in state", async () => {
    const SITES = org("/sites");
    const release = revokeAfter(
      (e) => e.method === "POST" && e.route === SITES && e.status < 400,
      [{ method: "POST", route: /^(?!\/v1\/orgs\/[^/]+\/sites$)/ }, { method: "PUT" }, { method: "PATCH" }, { method: "DELETE" }],
    );
    try {
      const r = await d.run("up", topology(d.emu));
      errors.push(r.error ?? "", r.stdout);
      expect(r.error).toMatch(/GitBook API 401 on \w+ \/v1\/\S+: Invalid or revoked API token \(check gitbook:token or GITBOOK_TOKEN/);
    } finally {
      release();
    }
    // One site was made before the revocation, nothing else, and it is in state.
    expect(lostCreateObjects()).toEqual([1, 0, 0, 0, 0]);
    expect(d.state().resources.filter((x) => x.type.endsWith(":Site")).map((x) => x.id)).toEqual([...d.emu.store.sites.keys()]);
    expectStateMatchesEmulator(d);
  });

  it("converges with a new token from where the revoked run stopped, with exactly the declared objects, each class of fault on its own creates and updates; the next plan sends no write", async () => {
    rotate();
    const decls = topology(d.emu);
    const from = arrivals.length;
    const before = lostCreateObjects();
    // Lost answers: every create on these routes, forever; each must be recovered by finding the object.
    const lostCreates = LOST_CREATES.map((k) => add(k, { dropAfterProcess: true }));
    const lostFirst = LOST_FIRST_UPDATES.map((k) => add(k, { dropAfterProcess: true, times: 1 }));
    // 429s: the SSO create twice with a reset header, then once with Retry-After; and the first reads
    // (a 429 on a listing before a create, which recovery compares with).
    const resetLimited = add(RATE_LIMITED, { rateLimit: { burst: 2, resetInSeconds: 1 } });
    const retryAfter = add(RATE_LIMITED, { rateLimit: { burst: 1, retryAfterSeconds: 2 } });
    // Not on the question whether the token sees the organization: the run's first GET, sent once per
    // process, it would meet the whole storm alone (8 refusals are the client's 8 attempts).
    const readStorm = d.emu.faults.add({ match: { method: "GET", route: NOT_ORG }, rateLimit: { burst: 8, resetInSeconds: 1 } });
    // 5xx: 30% of reads answered 503, 4 in all (as the DELETEs' 502s below: a read left alone at the
    // end of the run would draw them in a row, and a read has 8 attempts); a create answered 503, another 500.
    const reads503 = d.emu.faults.add({ match: { method: "GET", route: NOT_ORG }, errorRate: 0.3, status: 503, times: 4 });
    const create503 = add(CREATE_503, { errorRate: 1, status: 503, times: 1 });
    const create500 = add(CREATE_500, { errorRate: 1, status: 500, times: 1 });
    // Time-outs: the first request of every other write route. (Writes only: a slow listing would hide
    // a create resent too early, the listing itself would wait.)
    const slow = slowFirst(["POST", "PUT", "PATCH"], CLAIMED);

    const r = await d.run("up", decls, { config: TIMEOUT });
    errors.push(r.error ?? "", r.stdout);
    expect(r.error).toBeUndefined();

    // Lost answers. One per object those POSTs create in this run: 2 sites (one made by the revoked
    // run), 5 sections, 3 share links, 1 spec; and the team's PUT. None was sent twice: as many
    // requests as lost answers.
    expect(lostCreates.map((f) => f.hits)).toEqual(lostCreateObjects().map((n, i) => n - before[i]!));
    expect(lostCreates.map((f) => f.hits)).toEqual([1, 5, 3, 1, 1]);
    for (const [i, k] of LOST_CREATES.entries()) expect(sent(from, ...route(k)), `${k} sent again`).toBe(lostCreates[i]!.hits);
    expect(lostFirst.filter((f) => f.hits === 1).map(keyOf)).toEqual(expect.arrayContaining([
      `PATCH ${SITE}`,
      `PATCH ${SITE}/sections/:section`,
      `PATCH ${SITE}/share-links/:shareLink`,
      `PUT ${org("/teams/:team/members")}`,
      `POST ${SITE}/publish`,
    ]));

    // 429s: every refusal spent, each resend of the SSO create after the announced time.
    expect([resetLimited.hits, retryAfter.hits, readStorm.hits]).toEqual([2, 1, 8]);
    const saml = arrivals.slice(from).filter((a) => a.method === "POST" && a.route === org("/saml"));
    expect(saml.slice(0, 3).map((a) => a.status)).toEqual([429, 429, 429]);
    expect(saml[3]!.status).toBeLessThan(400);
    // X-RateLimit-Reset is whole epoch seconds: ceil(arrival) + 1 s; Retry-After: 2 s after the answer.
    for (let i = 0; i < 2; i++) expect(saml[i + 1]!.at).toBeGreaterThanOrEqual((Math.ceil(saml[i]!.at / 1000) + 1) * 1000 - 5);
    expect(saml[3]!.at - saml[2]!.at).toBeGreaterThanOrEqual(2000 - 5);
    // The wait is written to the host's stderr, which the engine relays to the display.
    expect(fs.readFileSync(d.hostLog, "utf8")).toMatch(
      /pulumi-gitbook: POST \/v1\/orgs\/[^/]+\/saml: 429 rate limited; retrying in 2\.0 s \(attempt \d of at most 8, \d+\.\d s so far\)/,
    );

    // 5xx: reads resent; the create answered 503 resent, the one answered 500 looked for and resent.
    expect(reads503.hits).toBe(4);
    expect([create503.hits, create500.hits]).toEqual([1, 1]);
    expect(sent(from, "POST", org("/collections"))).toBe(2);
    expect(sent(from, "POST", `${SITE}/section-groups`)).toBe(3);

    // Time-outs: every kind of create on those routes timed out once, and the API finished each after
    // the provider gave up; yet each object exists once (above).
    expect(slow.filter((f) => f.hits === 1).map(keyOf)).toEqual(expect.arrayContaining(SLOW_CREATES));
    await expectConverged(d, decls, { lateDuplicates: true });
  });

  it("`destroy --refresh` refreshes, losing nothing, when the first read on every route is too slow, then stops with the same clear error when the token is revoked, exactly the object deleted before the revocation gone from state", async () => {
    d.emu.faults.clear();
    const managed = d.state().resources.filter((x) => x.custom);
    // The refresh and the destroy in one run. A resource read as gone would leave state and its object
    // would be left behind, which expectNothingLeft after the next destroy would see.
    const reads = slowFirst(["GET"], new Set());
    // No DELETE is held here: the state's 3 s timeout would give a held one up, and its resends. The
    // revocation is synchronous with the first DELETE carried out: every request after it is refused.
    const release = revokeAfter((e) => e.method === "DELETE" && e.status < 400 && !!(revokedRoute = `DELETE ${e.route}`));
    try {
      const r = await d.run("destroy", undefined, { flags: ["--refresh"] });
      errors.push(r.error ?? "", r.stdout);
      // The first request refused may be a delete's own read (any method).
      expect(r.error).toMatch(/GitBook API 401 on \w+ \/v1\/\S+: Invalid or revoked API token/);
      // The refresh: nothing read as gone though the first read on every route timed out.
      expect(r.steps.filter((s) => s.op === "read-gone")).toEqual([]);
    } finally {
      release();
    }
    expect(reads.filter((f) => f.hits === 1).length).toBeGreaterThanOrEqual(6);
    expectStateMatchesEmulator(d);
    // Exactly the deleted object left state, besides resources whose delete sends no DELETE (an order
    // and a publication send nothing; a visitor schema is put back to GitBook's default).
    const left = new Set(d.state().resources.map((x) => x.name));
    const noDelete = /:(SiteStructureOrder|SitePublication|SiteAdaptiveSchema)$/;
    expect(managed.filter((x) => !left.has(x.name) && !noDelete.test(x.type))).toHaveLength(1);
  });

  it("with a new token, `destroy --run-program` finishes the stopped destroy through refused, lost, slow and 502-answered DELETEs", async () => {
    d.emu.faults.clear();
    rotate();
    const from = arrivals.length;
    const sites = add(DELETE_RATE_LIMITED, { rateLimit: { burst: 2, resetInSeconds: 1 } });
    const lost = DELETE_LOST.map((k) => add(k, { dropAfterProcess: true, times: 1 }));
    const slow = DELETE_SLOW.map((k) => add(k, { latencyMs: SLOW_MS, times: 1 }));
    // 30% of every DELETE, whatever else is armed on its route (the 502 answers first: the other fault
    // waits for the resend), 4 in all: a site's DELETE may also meet 2 refusals and a lost answer, and
    // the client makes 8 attempts. Uncapped, a DELETE left alone at the end of the run drew 7 502s in a
    // row once (the draws follow arrival order, which the machine's load moves) and rightly gave up.
    const bad = d.emu.faults.add({ match: { method: "DELETE" }, errorRate: 0.3, status: 502, times: 4 });
    // `destroy` configures the provider from the config recorded in state at the last `up`, so the new
    // token reaches it only when the program runs again (the 401's message says so:
    // provider/client/client.test.ts).
    const r = await d.run("destroy", undefined, { config: TIMEOUT, flags: ["--run-program"] });
    errors.push(r.error ?? "", r.stdout);
    // On a failure, every DELETE the emulator answered, in order: which attempts a route got, and when.
    const deletes = () => arrivals.slice(from).filter((a) => a.method === "DELETE").map((a) => `${a.at - arrivals[from]!.at}ms ${a.status} ${a.path}`).join("\n");
    expect(r.error, deletes()).toBeUndefined();
    expect(sites.hits).toBe(2);
    // The engine deletes independent resources at once: a refused DELETE's resend is the next request to its path.
    expectResendsWaited(from, "DELETE", 2, (at) => (Math.ceil(at / 1000) + 1) * 1000);
    // One lost answer and one late answer per kind of object deleted: every kind, but the one whose
    // object the stopped destroy deleted when that was the last of its kind.
    const once = (keys: string[]) => keys.map((k) => (k === revokedRoute && sent(from, ...route(k)) === 0 ? 0 : 1));
    expect(lost.map((f) => f.hits)).toEqual(once(DELETE_LOST));
    expect(slow.map((f) => f.hits)).toEqual(once(DELETE_SLOW));
    expect(bad.hits).toBeGreaterThanOrEqual(1);
    expectNothingLeft(d);
  });

  it("never showed any of the tokens: not in state, host log, output, reports or errors", () => {
    expect(tokens).toHaveLength(3);
    expectTokenNowhere(d, tokens, errors);
  });
});
