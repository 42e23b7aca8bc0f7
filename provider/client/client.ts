import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import {
  AmbiguousRequestError,
  AuthError,
  ConnectionError,
  ContractError,
  errorFromResponse,
  GitbookError,
  NotApiError,
  NotFoundError,
  notApiSummary,
  OrganizationError,
  redact,
  type ErrorContext,
} from "./errors";
import { backoffMs, DEFAULT_RETRY, NOT_SENT_CODES, rateLimitResetAt, RETRY_STATUSES, serverRequestedWaitMs, type RetryPolicy } from "./retry";
import { listEnvelope } from "./schemas";

export const DEFAULT_API_URL = "https://api.gitbook.com";
/** The API's own cap on `limit`; asking for the most per page keeps listings at O(N/1000) requests. */
export const MAX_PAGE_SIZE = 1000;
/** Empty pages in a row that still point to a next page before a listing is taken to be endless. */
const MAX_EMPTY_PAGES = 3;

export type Query = Record<string, string | number | boolean | undefined>;

export interface ClientOptions {
  token: string;
  /** Base URL without `/v1`. */
  apiUrl?: string;
  /** Per-attempt time limit for headers and for the body. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** How long a fetched list stays fresh for reads (a write through this client ends it at once). */
  listCacheTtlMs?: number;
  /** A safety listing may have been answered less than this long before the write it guards (see Since); 0: only one still in flight. */
  guardMaxAgeMs?: number;
  dispatcher?: Dispatcher;
  /** Injected for tests: a fake clock makes retry timing observable without waiting. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** Called after every HTTP attempt; never given headers, so never the token. */
  onAttempt?: (a: AttemptInfo) => void;
  /** Called before each wait for a retry, so a long wait can be shown while it happens. */
  onRetry?: (r: RetryInfo) => void;
  /** How messages name where `apiUrl` came from, e.g. `gitbook:apiUrl`. */
  apiUrlSetting?: string;
  /** The configured organization and its setting, so an unreachable organization is named as the user set it. */
  organization?: { id: string; setting: string };
}

export interface RetryInfo {
  method: string;
  path: string;
  /** Why the attempt failed, e.g. `429 rate limited` or `ECONNREFUSED`. */
  reason: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** The most attempts this request may make. */
  maxAttempts: number;
  waitMs: number;
  /** Time spent on this request so far. */
  elapsedMs: number;
}

/** Why `url` cannot be an API base URL, or undefined when it can. */
export function apiUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "is not an absolute URL";
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return `has the scheme ${JSON.stringify(u.protocol.replace(/:$/, ""))}, not http or https`;
  if (!u.hostname) return "names no host";
  if (u.username || u.password) return "carries credentials (the token goes in gitbook:token)";
  if (u.search || u.hash) return "has a query or fragment";
  // The token goes in every request's Authorization header: over plain http it would cross the
  // network readable by anyone on the way. This machine (the emulator) is the one exception.
  if (u.protocol === "http:" && !LOOPBACK.test(u.hostname)) return `is plain http to ${u.hostname}, which would send the token unencrypted over the network (http is taken only for this machine: localhost, 127.0.0.1, [::1]); use https`;
  return undefined;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export interface AttemptInfo {
  method: string;
  path: string;
  status: number;
  ms: number;
  attempt: number;
  error?: string;
}

export interface RequestOptions<T> {
  query?: Query;
  body?: unknown;
  /** Parses the JSON response; unknown extra fields pass through. */
  schema?: z.ZodType<T>;
  /**
   * False when sending the request twice could create two objects. POST is non-idempotent by
   * default; `PUT /orgs/{id}/teams` creates a team and must say so.
   */
  idempotent?: boolean;
}

/** Builds a `/v1` path with every parameter URI-encoded: p`/orgs/${org}/sites/${id}`. */
export function p(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((acc, s, i) => acc + s + (i < values.length ? encodeURIComponent(values[i]!) : ""), "");
}

let cachedVersion: string | undefined;
/** This package's version, found by walking up from this file (works from source and from dist). */
export function packageVersion(): string {
  if (cachedVersion) return cachedVersion;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, "package.json");
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pulumi-gitbook" && pkg.version) return (cachedVersion = pkg.version);
    }
    dir = path.dirname(dir);
  }
  return (cachedVersion = "0.0.0");
}

type Undici = typeof import("undici");
let undiciModule: Undici | undefined;
/**
 * undici, loaded at the first request rather than with the package: a provider process that only
 * diffs (preview, a no-op up) sends nothing and need not load it.
 */
function undici(): Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (undiciModule ??= require("undici") as Undici);
}

/** A path under an organization: its ID, and the rest (absent for the organization itself). */
const ORG_PATH = /^\/orgs\/([^/]+)(\/.*)?$/;

/** GitBook's "no such object, or not for this token" (404, 403), as opposed to every other failure. */
function hiddenOrNotFound(e: unknown): e is GitbookError {
  return e instanceof NotFoundError || (e instanceof AuthError && e.status === 403);
}

/** Whether the token can see an organization: "yes", or why not: GitBook's answer (`hidden`: a 404 or 403 for it), or how asking failed. */
type Reach = "yes" | { error: unknown; hidden: boolean };
const REACHABLE: Promise<Reach> = Promise.resolve("yes");

/** A listing (or a shared GET) as this client took it, the latest of its key: see GitbookClient.snapshot. */
interface Snapshot {
  value: Promise<unknown>;
  /** When its answer arrived on this client's clock; undefined while it is in flight. */
  answeredAt?: number;
  /** writesSettled and otherWritesSettled when it was sent. */
  writes: number;
  otherWrites: number;
  /** Sent while a create given up on may still take effect (see unsettledUntil): never reused by a read. */
  unsettled: boolean;
}

/**
 * What a safety read (a guard: the listing a create compares with should its answer be lost, the
 * contents a delete would take along) may take instead of a listing sent now: one of the same key
 * answered less than the guard's maximum age ago (gitbook:listingMaxAgeSeconds), or still in flight,
 * whose answer the guard awaits like its own, so it always arrives before the write it guards. And:
 * - "anything": whatever this client wrote since (a create's "before": an object another create of
 *   this process made since is held by a resource, see claims.ts);
 * - "writes": only one sent after every write this client saw settle: one sent before a write may
 *   still show what that write removed (a delete guard would then refuse for a site space already
 *   deleted) or miss what it made;
 * - "writesButDeletes": as "writes", except that the writes settled since may include DELETEs that
 *   GitBook answered 204 or 205 (see wasDeleted): such a listing misses nothing this client made or
 *   moved, and may still show only what those DELETEs removed. So it is only for a guard that
 *   discounts every object wasDeleted names, and only for objects that cannot come back under their
 *   ID once deleted (a site space; never a space, which the trash restores).
 * The exposure is the maximum age: an edit made in the app that long before the write is not seen.
 */
export type Since = "anything" | "writes" | "writesButDeletes";

/** How listings are taken inside fresh() or guard(); outside both, a read's rule (see snapshot). */
type Reuse = "fresh" | { since: Since };

/**
 * Each client's Reuse inside its fresh() and guard() calls. One for all clients, not one per client:
 * Node 20 keeps every AsyncLocalStorage that ever ran in a list that each new promise walks, so that
 * one per client made every promise of the process cost as many steps as it had made clients (the
 * unit tests, which make thousands, spent most of their CPU there).
 */
const reuseScopes = new AsyncLocalStorage<ReadonlyMap<GitbookClient, Reuse>>();

/**
 * The one client for the GitBook API: bearer auth, JSON, typed errors, retries with jittered backoff
 * honouring Retry-After and X-RateLimit-Reset within a deadline, and async-iterable pagination.
 */
export class GitbookClient {
  readonly apiUrl: string;
  private readonly token: string;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  /** Given in the options, or made at the first request (see undici()). */
  private ownDispatcher: Dispatcher | undefined;
  private readonly givenDispatcher: Dispatcher | undefined;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  /**
   * Measures how old a listing is, and how long a given-up create may still take effect: a monotonic
   * clock (performance.now), so that the machine's clock set back (NTP, a user) cannot make an old
   * listing look fresh and widen the exposure the maximum age states. A test's `now` replaces it.
   */
  private readonly ticks: () => number;
  private readonly random: () => number;
  private readonly onAttempt?: (a: AttemptInfo) => void;
  private readonly onRetry?: (r: RetryInfo) => void;
  private readonly target: { apiUrl: string; setting: string };
  private readonly userAgent: string;
  private readonly listCacheTtlMs: number;
  private readonly guardMaxAgeMs: number;
  /**
   * The latest listing of each key (path and query), in flight or answered. Memory of this process
   * only: it saves requests and proves nothing another process needs (that one simply lists again).
   */
  private readonly snapshots = new Map<string, Snapshot>();
  /** How many writes (any method but GET) have settled: a listing sent since shows each of them. */
  private writesSettled = 0;
  /** How many of those were not a DELETE answered 204 or 205 (see wasDeleted). */
  private otherWritesSettled = 0;
  /** The paths of the DELETEs GitBook answered 204 or 205: nothing is there any more (see wasDeleted). */
  private readonly deleted = new Set<string>();
  private readonly organization?: { id: string; setting: string };
  /** Per organization ID: whether this token can see it (see organizationError). */
  private readonly orgReachable = new Map<string, Promise<Reach>>();
  /** Per organization ID: what checkOrganization found, asked once for the client's life. */
  private readonly orgChecked = new Map<string, Promise<unknown>>();
  /** Until then no list is cached: a create given up on may still take effect (see AmbiguousRequestError.settleMs). */
  private unsettledUntil = 0;
  /** See clockLead. */
  private lead: number | undefined;

  constructor(opts: ClientOptions) {
    if (!opts.token) throw new Error("GitbookClient: a token is required");
    this.token = opts.token;
    const problem = apiUrlProblem(opts.apiUrl ?? DEFAULT_API_URL);
    if (problem) throw new Error(`GitbookClient: apiUrl ${problem}`);
    this.apiUrl = (opts.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, "").replace(/\/v1$/, "");
    this.target = { apiUrl: this.apiUrl, setting: opts.apiUrlSetting ?? "apiUrl" };
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.policy = { ...DEFAULT_RETRY, ...opts.retry };
    this.givenDispatcher = opts.dispatcher;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = opts.now ?? Date.now;
    this.ticks = opts.now ?? (() => performance.now());
    this.random = opts.random ?? Math.random;
    if (opts.onAttempt) this.onAttempt = opts.onAttempt;
    if (opts.onRetry) this.onRetry = opts.onRetry;
    if (opts.organization) this.organization = opts.organization;
    this.userAgent = `pulumi-gitbook/${packageVersion()}`;
    this.listCacheTtlMs = opts.listCacheTtlMs ?? 30_000;
    this.guardMaxAgeMs = opts.guardMaxAgeMs ?? 1_000;
  }

  get<T>(path: string, opts: Omit<RequestOptions<T>, "body"> = {}): Promise<T> {
    return this.request("GET", path, opts);
  }
  post<T>(path: string, opts: RequestOptions<T> = {}): Promise<T> {
    return this.request("POST", path, opts);
  }
  put<T>(path: string, opts: RequestOptions<T> = {}): Promise<T> {
    return this.request("PUT", path, opts);
  }
  patch<T>(path: string, opts: RequestOptions<T> = {}): Promise<T> {
    return this.request("PATCH", path, opts);
  }
  /** Idempotent: success for 204 (was already gone), 205 (deleted), any 2xx, and 404. */
  async delete(path: string): Promise<void> {
    try {
      await this.request("DELETE", path, {});
    } catch (e) {
      if (e instanceof NotFoundError) return;
      throw e;
    }
  }

  /**
   * Yields every item of a list endpoint, following `next.page`, at the largest page size.
   *
   * A listing that cannot end is a broken contract, not a long list: a `next.page` cursor already
   * followed, more items than the `count` the API reported, or a run of empty pages that still point
   * to a next one fail with a ContractError naming the path, instead of requesting pages forever.
   */
  async *paginate<T>(path: string, item: z.ZodType<T>, query: Query = {}): AsyncGenerator<T> {
    for await (const page of this.pages(path, item, query)) yield* page;
  }

  /**
   * The pages of a listing (see paginate), each page's items whole: collecting a listing item by
   * item through an async generator cost a promise per item, 1000 per page.
   */
  private async *pages<T>(path: string, item: z.ZodType<T>, query: Query): AsyncGenerator<T[]> {
    const schema = listEnvelope(item);
    const ctx: ErrorContext = { method: "GET", path: `/v1${path}` };
    const followed = new Set<string>();
    let page: string | undefined;
    let pages = 0;
    let items = 0;
    let emptyRun = 0;
    do {
      const res = await this.get(path, { query: { ...query, limit: query.limit ?? MAX_PAGE_SIZE, page }, schema });
      pages++;
      items += res.items.length;
      yield res.items;
      const next = res.next?.page;
      if (!next) return;
      const stop = (why: string) => new ContractError(`next.page: ${why}; stopped after ${pages} page request${pages === 1 ? "" : "s"} rather than list forever`, ctx);
      if (next === page || followed.has(next)) throw stop(`the cursor "${next}" was already followed`);
      if (typeof res.count === "number" && items > res.count) throw stop(`${items} items were listed, more than the count of ${res.count} the API reported`);
      emptyRun = res.items.length === 0 ? emptyRun + 1 : 0;
      if (emptyRun >= MAX_EMPTY_PAGES) throw stop(`${emptyRun} pages in a row had no items yet pointed to another page`);
      if (page !== undefined) followed.add(page);
      page = next;
    } while (page);
  }

  /**
   * The whole list, shared by concurrent callers and kept for `listCacheTtlMs`: a refresh of N
   * objects that can only be read from their list costs one listing, not N. A listing sent before a
   * write through this client settled is not taken, so a read never misses its own writes.
   */
  listAll<T>(path: string, item: z.ZodType<T>, query: Query = {}): Promise<T[]> {
    return this.snapshot(`${path}?${JSON.stringify(query)}`, () => this.collect(path, item, query), this.listCacheTtlMs);
  }

  /**
   * The whole list read now, page by page: never an earlier copy (listAll's), which a read earlier in
   * this process may have left from before an edit in the app. Inside guard() it is the guard's read.
   */
  listNow<T>(path: string, item: z.ZodType<T>, query: Query = {}): Promise<T[]> {
    return this.snapshot(`${path}?${JSON.stringify(query)}`, () => this.collect(path, item, query), -1);
  }

  /** Runs `fn` with every listing it makes through this client (listAll, listNow, getShared) sent now, even inside a guard. */
  fresh<T>(fn: () => Promise<T>): Promise<T> {
    return this.within("fresh", fn);
  }

  /**
   * Runs `fn`, a safety read, with every listing it makes through this client taken as Since says,
   * without the code that lists knowing: the rule follows `fn`'s async calls (AsyncLocalStorage).
   */
  guard<T>(since: Since, fn: () => Promise<T>): Promise<T> {
    return this.within({ since }, fn);
  }

  private within<T>(reuse: Reuse, fn: () => Promise<T>): Promise<T> {
    return reuseScopes.run(new Map(reuseScopes.getStore()).set(this, reuse), fn);
  }

  private async collect<T>(path: string, item: z.ZodType<T>, query: Query): Promise<T[]> {
    let out: T[] | undefined;
    for await (const page of this.pages(path, item, query)) out = out === undefined ? page : out.concat(page);
    return out ?? [];
  }

  /**
   * A GET shared like a listing (see listAll): for an object that stands for many, such as a site's
   * structure, from which every external link of the site is read (GitBook has no GET for one).
   */
  getShared<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    return this.snapshot(`GET ${path}`, () => this.get(path, { schema }), this.listCacheTtlMs);
  }

  /**
   * The latest listing of `key` when the caller may take it, else one sent now (which becomes the
   * latest). Inside fresh(): always sent now. Inside guard(): see Since. Otherwise a read's rule: one
   * answered less than `readMaxAgeMs` ago (-1: none) and sent after every write this client saw settle,
   * or none at all while a create given up on may still take effect.
   */
  private snapshot<T>(key: string, fetch: () => Promise<T>, readMaxAgeMs: number): Promise<T> {
    const reuse = reuseScopes.getStore()?.get(this);
    const now = this.ticks();
    const last = this.snapshots.get(key);
    const since = reuse === undefined ? "writes" : reuse === "fresh" ? undefined : reuse.since;
    const maxAge = reuse === undefined ? readMaxAgeMs : reuse === "fresh" ? -1 : this.guardMaxAgeMs;
    const usable =
      last !== undefined &&
      since !== undefined &&
      (last.answeredAt === undefined ? maxAge >= 0 : now - last.answeredAt < maxAge) &&
      (reuse !== undefined || (!last.unsettled && now >= this.unsettledUntil)) &&
      (since === "anything" || (since === "writes" ? last.writes === this.writesSettled : last.otherWrites === this.otherWritesSettled));
    if (usable) return last.value as Promise<T>;
    const value = fetch();
    const entry: Snapshot = { value, writes: this.writesSettled, otherWrites: this.otherWritesSettled, unsettled: now < this.unsettledUntil };
    this.snapshots.set(key, entry);
    value.then(
      () => void (entry.answeredAt = this.ticks()),
      () => this.snapshots.get(key) === entry && this.snapshots.delete(key),
    );
    return value;
  }

  /**
   * Whether a DELETE of `path` through this client was answered 204 (nothing was there) or 205
   * (deleted): a fact GitBook stated, not a guess, so an object of a kind that cannot come back under
   * its ID is gone for good. A listing answered since may still show it (sent before the DELETE), so
   * a guard reading "writesButDeletes" discounts it. Memory of this process only: another process
   * knows fewer deletes, and its guard lists again rather than discounting.
   */
  wasDeleted(path: string): boolean {
    return this.deleted.has(path);
  }

  /** Waits `ms` on this client's clock (a test's fake one too): for a wait GitBook asked for that its caller honours (createOnce). */
  pause(ms: number): Promise<void> {
    return this.sleep(ms);
  }

  /**
   * A lower bound of how far the API's clock is ahead of this machine's (Date.now), in ms, from the
   * `Date` header of the latest answer: the answer was dated no earlier than that second and received
   * after it was dated. Undefined before any dated answer. So an object the API says it created
   * before `t + clockLead()` was created before this machine's time `t`, whatever the clocks' skew.
   */
  clockLead(): number | undefined {
    return this.lead;
  }

  async close(): Promise<void> {
    await this.ownDispatcher?.close();
  }

  private get dispatcher(): Dispatcher {
    return this.givenDispatcher ?? (this.ownDispatcher ??= new (undici().Agent)({ keepAliveTimeout: 10_000, connections: 32 }));
  }

  async request<T>(method: string, path: string, opts: RequestOptions<T> = {}): Promise<T> {
    let value: T;
    const answered = { status: 0 };
    try {
      value = await this.send(method, path, opts, answered);
    } catch (e) {
      throw (await this.organizationError(path, e)) ?? e;
    } finally {
      if (method !== "GET") this.writeSettled(method, path, answered.status);
    }
    // Any success under an organization shows the token can see it: no need to ask later.
    const org = ORG_PATH.exec(path)?.[1];
    if (org !== undefined) this.orgReachable.set(decodeURIComponent(org), REACHABLE);
    return value;
  }

  private writeSettled(method: string, path: string, status: number): void {
    this.writesSettled++;
    if (method === "DELETE" && (status === 204 || status === 205)) this.deleted.add(path);
    else this.otherWritesSettled++;
  }

  /**
   * A 404 or 403 under `/orgs/{org}` may be about the object or about the organization itself (a
   * wrong `gitbook:organizationId`, or a token of another organization); only the organization's own
   * answer tells. It is asked once per organization for the life of the client (checkOrganization may
   * have asked already), and not when an earlier request under it succeeded: a run whose organization
   * is right pays one request at most, and none once anything under it has succeeded.
   * Reads need it as much as writes: a 404 taken as "gone" under an organization the token cannot see
   * would drop every resource from state.
   */
  private async organizationError(path: string, e: unknown): Promise<OrganizationError | undefined> {
    if (!hiddenOrNotFound(e)) return undefined;
    const m = ORG_PATH.exec(path);
    if (!m) return undefined;
    const org = decodeURIComponent(m[1]!);
    if (!m[2]) return new OrganizationError(e, org, this.settingOf(org));
    const reach = await this.reach(org);
    return reach !== "yes" && reach.hidden ? new OrganizationError(e, org, this.settingOf(org)) : undefined;
  }

  /**
   * Whether the token can see organization `org`, before anything is sent under it (a check at
   * preview): undefined when it can; the OrganizationError naming the setting and the fix when GitBook
   * answers 404 or 403 for it; else why it could not be asked (no connection, a revoked token, an answer
   * not from GitBook's API), which every request under it would meet too. Asked at most once for the
   * client's life, a process's (one GET /orgs/{org}, with the retries any read has), and not at all once
   * anything under it has succeeded.
   */
  checkOrganization(org: string): Promise<unknown> {
    let checked = this.orgChecked.get(org);
    if (!checked) {
      checked = this.reach(org).then((r) => (r === "yes" ? undefined : r.hidden ? new OrganizationError(r.error as GitbookError, org, this.settingOf(org)) : r.error));
      this.orgChecked.set(org, checked);
    }
    return checked;
  }

  /** The setting the organization came from, when it is the configured one. */
  private settingOf(org: string): string | undefined {
    return this.organization?.id === org ? this.organization.setting : undefined;
  }

  /** Whether the token can see `org`: asked once (GET /orgs/{org}); only a definite answer is kept, so after a failed connection it is asked again next time. */
  private reach(org: string): Promise<Reach> {
    let known = this.orgReachable.get(org);
    if (!known) {
      const asked = this.send("GET", p`/orgs/${org}`, {}).then(
        (): Reach => "yes",
        (error: unknown): Reach => ({ error, hidden: hiddenOrNotFound(error) }),
      );
      this.orgReachable.set(org, (known = asked));
      void asked.then((r) => r !== "yes" && !r.hidden && this.orgReachable.delete(org));
    }
    return known;
  }

  /** `answered.status` is set to the status of the answer it returns (a success's). */
  private async send<T>(method: string, path: string, opts: RequestOptions<T>, answered?: { status: number }): Promise<T> {
    const idempotent = opts.idempotent ?? method !== "POST";
    const ctx: ErrorContext = { method, path: `/v1${path}`, target: this.target };
    const started = this.now();
    for (let attempt = 0; ; attempt++) {
      let outcome: { ok: true; value: T; status: number } | { ok: false; error: GitbookError; wait?: number; sent: boolean };
      try {
        outcome = await this.attempt(method, path, opts, ctx, attempt);
      } catch (e) {
        // attempt() turns HTTP answers into outcomes itself; what is thrown is either already typed
        // (a contract break: never retried) or a transport failure outside the request call.
        if (e instanceof GitbookError) throw e;
        const err = toConnectionError(e, ctx, this.token);
        outcome = { ok: false, error: err, sent: !NOT_SENT_CODES.has(err.code) };
      }
      if (outcome.ok) {
        if (answered) answered.status = outcome.status;
        return outcome.value;
      }
      const { error } = outcome;

      const serverSaysRetry = error.status !== 0 && RETRY_STATUSES.has(error.status);
      const connection = error instanceof ConnectionError;
      if (!serverSaysRetry && !connection) throw error;
      // A non-idempotent request may be resent only when the server certainly did not act on it:
      // a 429, or a connection that was never established.
      if (!idempotent && !(error.status === 429 || (connection && !outcome.sent))) {
        // A request given up on may still be running on the server: lists fetched meanwhile may
        // predate its effect, so none is cached until it has had time to settle.
        const settleMs = givenUp(error) ? 2 * this.timeoutMs + 1000 : 0;
        if (settleMs > 0) this.unsettledUntil = Math.max(this.unsettledUntil, this.ticks() + settleMs);
        throw new AmbiguousRequestError(error, settleMs, outcome.wait !== undefined && outcome.wait > 0 ? outcome.wait : undefined);
      }
      // No connection at all: a wrong URL or a host that is down, retried only briefly.
      const unreachable = connection && !outcome.sent;
      const maxAttempts = unreachable ? Math.min(this.policy.connectAttempts, this.policy.maxAttempts) : this.policy.maxAttempts;
      const elapsed = this.now() - started;
      if (attempt + 1 >= maxAttempts) throw error.gaveUpAfter(attempt + 1, elapsed);
      const policy = unreachable ? { ...this.policy, maxDelayMs: Math.min(this.policy.maxDelayMs, this.policy.connectMaxDelayMs) } : this.policy;
      // The server's wait, unless it is already over (a reset this clock has passed, a Retry-After of 0)
      // and the server still refused: resent at once, each attempt would be spent in a millisecond
      // while GitBook's clock has not reached the reset (ours running ahead of it).
      const told = outcome.wait !== undefined && outcome.wait > 0 ? outcome.wait : undefined;
      const wait = told ?? backoffMs(attempt, policy, this.random);
      if (elapsed + wait > this.policy.deadlineMs) {
        throw error.gaveUpAfter(attempt + 1, elapsed, told !== undefined ? { waitMs: told, deadlineMs: this.policy.deadlineMs } : undefined);
      }
      this.onRetry?.({ method, path: ctx.path, reason: retryReason(error, this.apiUrl), attempt: attempt + 1, maxAttempts, waitMs: wait, elapsedMs: elapsed });
      await this.sleep(wait);
    }
  }

  private async attempt<T>(
    method: string,
    path: string,
    opts: RequestOptions<T>,
    ctx: ErrorContext,
    attempt: number,
  ): Promise<{ ok: true; value: T; status: number } | { ok: false; error: GitbookError; wait?: number; sent: boolean }> {
    const url = new URL(`${this.apiUrl}/v1${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      accept: "application/json",
      "user-agent": this.userAgent,
    };
    // A 1000-section listing is 2.1 MB of JSON, 100 kB compressed. A write's answer is one object,
    // where decoding costs more than it saves.
    if (method === "GET") headers["accept-encoding"] = "br, gzip";
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] = "application/json";
    }
    // Loaded (the first time) before the clock starts: loading is no part of the server's time.
    const send = undici().request;
    const dispatcher = this.dispatcher;
    const t0 = performance.now();
    // undici runs its headers and body timeouts on a timer wheel of about a second, so a sub-second
    // limit (requestTimeoutSeconds 0.2) would really be a second or more: a native timer ends the
    // attempt on time, and undici's own timeouts stay as a backstop.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(Object.assign(new Error(`no answer within ${this.timeoutMs} ms`), { code: "ETIMEDOUT" })),
      this.timeoutMs,
    );
    let res: Dispatcher.ResponseData;
    try {
      res = await send(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        dispatcher,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: deadline.signal,
      });
    } catch (e) {
      clearTimeout(timer);
      const err = toConnectionError(e, ctx, this.token);
      this.onAttempt?.({ method, path: ctx.path, status: 0, ms: performance.now() - t0, attempt, error: err.code });
      return { ok: false, error: err, sent: !NOT_SENT_CODES.has(err.code) };
    }
    let text: string;
    try {
      text = await bodyText(res);
    } catch (e) {
      const err = toConnectionError(e, ctx, this.token);
      this.onAttempt?.({ method, path: ctx.path, status: 0, ms: performance.now() - t0, attempt, error: err.code });
      return { ok: false, error: err, sent: true };
    } finally {
      clearTimeout(timer);
    }
    this.onAttempt?.({ method, path: ctx.path, status: res.statusCode, ms: performance.now() - t0, attempt });
    const dated = Date.parse(String(res.headers.date ?? ""));
    if (!Number.isNaN(dated)) this.lead = dated - Date.now();
    const parsed = parseJson(text);
    const contentType = res.headers["content-type"] === undefined ? undefined : String(res.headers["content-type"]);
    if (res.statusCode >= 200 && res.statusCode < 300) {
      // A success that is not JSON (a login or landing page answering 200) is no success of the API's:
      // taken as one, a create or delete would report what never happened.
      if (typeof parsed === "string" && parsed === text) {
        throw new NotApiError(res.statusCode, notApiSummary(res.statusCode, { contentType, text: redact(text, this.token) }, ctx), ctx);
      }
      if (!opts.schema) return { ok: true, value: parsed as T, status: res.statusCode };
      const result = opts.schema.safeParse(parsed);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        const field = issue.path.length ? issue.path.join(".") : "(body)";
        throw new ContractError(`${field}: ${issue.message}`, ctx);
      }
      return { ok: true, value: result.data, status: res.statusCode };
    }
    const safeBody = typeof parsed === "string" ? redact(parsed, this.token) : redactDeep(parsed, this.token);
    const resetAt = rateLimitResetAt(res.headers);
    const location = res.headers.location === undefined ? undefined : String(res.headers.location);
    const error = errorFromResponse(res.statusCode, safeBody, ctx, {
      ...(resetAt !== undefined ? { resetAt } : {}),
      ...(contentType !== undefined ? { contentType } : {}),
      ...(location !== undefined ? { location: redact(location, this.token) } : {}),
      text: redact(text, this.token),
    });
    const wait = res.statusCode === 429 || res.statusCode === 503 ? serverRequestedWaitMs(res.headers, this.now()) : undefined;
    return wait !== undefined ? { ok: false, error, wait, sent: true } : { ok: false, error, sent: true };
  }
}

/**
 * Our time limit (or undici's) ran out: the server may not have finished. A gateway's 504 may mean
 * the same, but how long its upstream goes on is not ours to know, so it is looked for once like
 * any other lost answer.
 */
function givenUp(error: GitbookError): boolean {
  return error instanceof ConnectionError && ["ETIMEDOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"].includes(error.code);
}

/** A short reason for a retry line: the status or transport code, without the full message. */
function retryReason(error: GitbookError, apiUrl: string): string {
  if (error instanceof ConnectionError) return `${error.code} from ${apiUrl}`;
  if (error.status === 429) return "429 rate limited";
  return `${error.status} ${error.apiMessage.slice(0, 80)}`;
}

/**
 * The answer's body as text, decoded as its content-encoding says (undici's request() does not).
 * Synchronously: zlib's async calls cost a thread-pool round trip each, more than decoding a page.
 */
async function bodyText(res: Dispatcher.ResponseData): Promise<string> {
  const encoding = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (encoding === "" || encoding === "identity") return res.body.text();
  const decode = encoding === "gzip" ? zlib.gunzipSync : encoding === "br" ? zlib.brotliDecompressSync : undefined;
  if (!decode) throw Object.assign(new Error(`an answer in content-encoding "${encoding}", which was not asked for`), { code: "EENCODING" });
  return decode(Buffer.from(await res.body.arrayBuffer())).toString("utf8");
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function redactDeep(v: unknown, token: string): unknown {
  return JSON.parse(redact(JSON.stringify(v ?? null), token));
}

function toConnectionError(e: unknown, ctx: ErrorContext, token: string): ConnectionError {
  if (e instanceof ConnectionError) return e;
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err?.code ?? err?.cause?.code ?? "ECONNECTION";
  const detail = err?.cause?.message ?? err?.message ?? String(e);
  return new ConnectionError(code, redact(detail, token), ctx);
}

