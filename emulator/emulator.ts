// A stateful, in-memory emulator of the parts of GitBook's public API (/v1) that the
// pulumi-gitbook resources use, with deterministic fault injection. node:http only.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import * as zlib from "node:zlib";

import type { Contract, ContractViolation } from "./contract";
import { Faults } from "./faults";
import { ApiError, errorBody, fail, type Reply, type RouteMatch } from "./http";
import { matchesFilter, RequestLog, UNKNOWN_ROUTE, type RouteFilter } from "./log";
import { buildRouter } from "./resources";
import type { Ctx } from "./resources/resource";
import { ADMIN_PREFIX, checkState, deleteRecord, editRecord, parseEdit, STATE_FORMAT, type EmulatorState } from "./admin";
import { applySeed, checkSeed, DEFAULT_SEED, readSeedFile, type SeedFile, type Seeded } from "./seed";
import { Store } from "./store";

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: "127.0.0.1";
  /** The valid bearer token; random ("gb_emu_" + hex) by default. */
  token?: string;
  /** Seed of every PRNG (fault decisions, ids, share keys). Default 0x5eed. */
  seed?: number;
  /** GETs of a spec that still answer "pending" after POST/PUT; default 1. Infinity freezes processing. */
  openApiProcessingReads?: number;
  /**
   * Check every request and response against GitBook's published OpenAPI spec and record what breaks
   * it (see `takeContractViolations`). Needs the packages `@gitbook/api` and `ajv` (devDependencies of
   * pulumi-gitbook). Default: on when GITBOOK_EMULATOR_CONTRACT=1, or after checkContractsInProcess()
   * (the test suite's).
   */
  contract?: boolean;
  /**
   * What the emulator holds at start: a seed file's content, or its path (see examples/emulator/seed.json).
   * Checked whole first: a bad one throws a SeedError naming each path into it. Default: one
   * organization with six spaces and five members.
   */
  seedFile?: SeedFile | string;
  /** Start from an exported state (`exportState()`, `pulumi-gitbook emulator export`) instead of a seed. */
  state?: EmulatorState;
}

/** What broke GitBook's published spec, across every emulator of this process, since last taken. */
const violations: ContractViolation[] = [];

let contractsInProcess = false;

/**
 * Checks the contract of every emulator this process starts from now on (see EmulatorOptions.contract):
 * the test suite's switch. Unlike GITBOOK_EMULATOR_CONTRACT, no child process inherits it: an emulator
 * a test spawns would record its violations in a process whose violations nothing reads, and spend
 * about a second of CPU loading the spec and compiling validators.
 */
export function checkContractsInProcess(): void {
  contractsInProcess = true;
}

/** Takes (and clears) the contract violations recorded so far; the test suite fails the test that caused any. */
export function takeContractViolations(): ContractViolation[] {
  return violations.splice(0);
}

const DEFAULT_PRNG_SEED = 0x5eed;

export class Emulator {
  /** "http://127.0.0.1:PORT", without /v1. */
  readonly url: string;
  /** The bearer token currently accepted (unless revoked); may be reassigned by tests. */
  token: string;
  /** What the seed created (organization, spaces, members, the ID of each key); replaced by `importState`. */
  seeded: Seeded;
  /** The records behind every API object. Internal: its shape follows the emulator's needs, not a promise. */
  readonly store: Store;
  readonly log = new RequestLog();
  faults: Faults;
  /** Open gates (see `gate`), each with the requests it holds. */
  private readonly gates = new Set<{ match: RouteFilter; every: boolean; arrived: () => void; opened: Promise<void> }>();

  private readonly revoked = new Set<string>();
  private readonly contract: Contract | undefined;
  private readonly router = buildRouter();

  private constructor(
    private readonly server: http.Server,
    url: string,
    opts: EmulatorOptions,
    contract: Contract | undefined,
    initial: { state: EmulatorState } | { seed: SeedFile },
  ) {
    const seed = opts.seed ?? DEFAULT_PRNG_SEED;
    this.contract = contract;
    this.url = url;
    this.token = opts.token ?? `gb_emu_${randomBytes(16).toString("hex")}`;
    this.store = new Store({ seed, openApiProcessingReads: opts.openApiProcessingReads ?? 1 });
    if ("state" in initial) {
      this.store.restore(initial.state.store);
      this.seeded = initial.state.seeded;
    } else {
      this.seeded = applySeed(this.store, initial.seed);
    }
    this.faults = new Faults(seed);
  }

  static async start(opts: EmulatorOptions = {}): Promise<Emulator> {
    // Loaded only when asked for: the shipped emulator runs without the spec's packages. A dynamic
    // import, not require(): under vitest a native require cannot load the TypeScript source.
    const contract = (opts.contract ?? (contractsInProcess || process.env.GITBOOK_EMULATOR_CONTRACT === "1")) ? (await import("./contract")).Contract.load() : undefined;
    // A bad seed file or state fails here, before a port is taken.
    const initial =
      opts.state !== undefined
        ? { state: checkState(opts.state) }
        : { seed: typeof opts.seedFile === "string" ? readSeedFile(opts.seedFile) : checkSeed(opts.seedFile ?? DEFAULT_SEED, "seedFile") };
    const host = opts.host ?? "127.0.0.1";
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const emu = new Emulator(server, `http://${host}:${port}`, opts, contract, initial);
    server.on("request", (req, res) => {
      emu.handle(req, res).catch((e: unknown) => {
        // Never let a bug in the emulator crash the test process; surface it as a 500 instead. Only
        // before the answer: `send` is the last thing a request does, and a client gone needs none.
        if (!res.headersSent && !res.destroyed) send(res, { status: 500, body: errorBody(500, `Emulator bug: ${String(e)}`) });
      });
    });
    return emu;
  }

  /**
   * Cuts every connection at once, as the death of all its clients would: a request already sent but not
   * yet read is never processed, and no answer leaves. Connections the server has not accepted yet are
   * cut too: the listening socket is closed, which resets its accept queue, and opened again on the same
   * port, so connections made after this call are served as before.
   */
  dropConnections(): void {
    const { address, port } = this.server.address() as AddressInfo;
    this.server.close();
    this.server.closeAllConnections();
    this.server.listen(port, address);
  }

  /** From now on the current token answers 401 (assign a new `token` to recover). */
  revokeToken(): void {
    this.revoked.add(this.token);
  }

  /** Shortcut for `store.settings.openApiProcessingReads` (Infinity freezes every pending spec). */
  get openApiProcessingReads(): number {
    return this.store.settings.openApiProcessingReads;
  }
  set openApiProcessingReads(n: number) {
    this.store.settings.openApiProcessingReads = n;
  }

  /** The whole state, as JSON: `importState` (in this or another emulator, after a restart) makes it again. */
  exportState(): EmulatorState {
    return { format: STATE_FORMAT, seeded: structuredClone(this.seeded), store: this.store.snapshot() };
  }

  /** Replaces the whole state with an exported one (checked first: a bad one changes nothing). */
  importState(state: unknown): void {
    const checked = checkState(state);
    this.store.restore(checked.store);
    this.seeded = checked.seeded;
  }

  /**
   * Changes an object out of band, as an edit in GitBook's app would: `kind` is a table of the store
   * (`site`, `section`, `space`...), `set` maps fields of its record (store.ts) to values; text is read
   * as the field's type. Answers the record as it now is.
   */
  edit(kind: string, id: string, set: Record<string, unknown>): object {
    return editRecord(this.store, kind, id, set);
  }

  /** Deletes an object out of band, with what goes with it, as the app does. */
  delete(kind: string, id: string): void {
    deleteRecord(this.store, kind, id);
  }

  /**
   * Holds the first matching request, before faults and processing, until `open()`; `arrived` resolves
   * when it comes (later ones pass; with `every`, they are held too). For tests that make something
   * happen while a client is mid-way, or that let only chosen requests through until then.
   */
  gate(match: RouteFilter, opts: { every?: boolean } = {}): { arrived: Promise<void>; open(): void } {
    let arrived!: () => void;
    let open!: () => void;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    const entry = { match, every: !!opts.every, arrived, opened: new Promise<void>((resolve) => (open = resolve)) };
    this.gates.add(entry);
    return {
      arrived: first,
      open: () => {
        this.gates.delete(entry);
        open();
      },
    };
  }

  /** Every "METHOD template" the emulator serves. */
  routes(): string[] {
    return this.router.templates();
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", "http://emulator.invalid");
    const path = url.pathname;
    let raw: string;
    try {
      raw = await readBody(req);
    } catch {
      req.socket.destroy();
      return;
    }
    if (path.startsWith(ADMIN_PREFIX)) {
      send(res, this.guarded(req, () => this.admin(method, path, raw)));
      return;
    }
    // Checked as received, before any fault: a request the spec refuses is the client's bug even if it is dropped.
    this.checked(this.contract?.checkRequest({ method, path, query: url.searchParams, headers: req.headers as Record<string, string>, body: raw.trim() === "" ? undefined : safeJson(raw) }));
    const match = this.router.match(method, path);
    const route = match?.template ?? UNKNOWN_ROUTE;
    const record = (status: number) => this.log.record({ method, route, path, status, ms: performance.now() - started });

    for (const g of [...this.gates].filter((x) => matchesFilter(x.match, method, route, path))) {
      if (!g.every) this.gates.delete(g);
      g.arrived();
      await g.opened;
    }
    const plan = this.faults.plan(method, route, path);
    if (plan.latencyMs > 0) await delay(plan.latencyMs);
    if (plan.dropBefore) {
      record(0);
      req.socket.destroy();
      return;
    }
    const reply: Reply = plan.reject
      ? { status: plan.reject.status, body: errorBody(plan.reject.status, plan.reject.message), headers: plan.reject.headers }
      : this.process(req, method, path, url.searchParams, raw, match);
    if (plan.dropAfter && !plan.reject) {
      record(0);
      req.socket.destroy();
      return;
    }
    record(reply.status);
    // Injected faults are answers GitBook gives too (429, 5xx): they are checked like any other.
    this.checked(this.contract?.checkResponse({ method, path }, { status: reply.status, body: reply.body === undefined ? undefined : JSON.parse(JSON.stringify(reply.body)), contentType: "application/json" }));
    send(res, reply, req.headers["accept-encoding"]);
  }

  private checked(v: ContractViolation | undefined): void {
    if (v) violations.push(v);
  }

  private process(
    req: http.IncomingMessage,
    method: string,
    path: string,
    query: URLSearchParams,
    raw: string,
    match: RouteMatch<Ctx> | undefined,
  ): Reply {
    return this.guarded(req, () => {
      if (!match) fail(404, `No route for ${method} ${path}`);
      const body = method === "GET" || method === "DELETE" ? undefined : parseJson(raw);
      return match.handler({ params: match.params, query, body, store: this.store, baseUrl: this.url });
    });
  }

  /** Authenticates, then answers; errors thrown through ./http.ts become GitBook's error bodies. */
  private guarded(req: http.IncomingMessage, answer: () => Reply): Reply {
    try {
      // Authentication is checked before routing, as GitBook does: a bad token never learns which routes exist.
      const auth = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
      if (!auth) fail(401, "Missing bearer token in the Authorization header");
      if (auth[1] !== this.token || this.revoked.has(auth[1]!)) fail(401, "Invalid or revoked API token");
      return answer();
    } catch (e) {
      if (e instanceof ApiError) return { status: e.status, body: errorBody(e.status, e.message), headers: e.headers };
      const message = e instanceof Error ? e.stack ?? e.message : String(e);
      return { status: 500, body: errorBody(500, `Emulator bug: ${message}`) };
    }
  }

  /** The routes of ./admin.ts: outside GitBook's API, so never faulted, logged or checked against its spec. */
  private admin(method: string, path: string, raw: string): Reply {
    const route = `${method} ${path.slice(ADMIN_PREFIX.length)}`;
    switch (route) {
      case "GET state":
        return { status: 200, body: this.exportState() };
      case "PUT state":
        this.importState(parseJson(raw));
        return { status: 200, body: { seeded: this.seeded } };
      case "POST edit": {
        const b = parseEdit(parseJson(raw));
        return { status: 200, body: this.edit(b.kind, b.id, b.set ?? {}) };
      }
      case "POST delete": {
        const b = parseEdit(parseJson(raw));
        this.delete(b.kind, b.id);
        return { status: 205, body: undefined };
      }
      default:
        return fail(404, `No route for ${method} ${path} (the emulator's own: GET|PUT ${ADMIN_PREFIX}state, POST ${ADMIN_PREFIX}edit, POST ${ADMIN_PREFIX}delete)`);
    }
  }
}

/** The body as the spec sees it: JSON, or the raw text when it is not (the spec then says what is wrong). */
function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function parseJson(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return fail(400, "body: must be valid JSON");
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * Sends the reply, compressed as GitBook's API answers when the client accepts it (bodies over 1 kB;
 * brotli at a dynamic-content quality, or gzip, whichever the client names first), so that a bench
 * through the emulator measures what a client decoding real answers costs.
 */
function send(res: http.ServerResponse, reply: Reply, acceptEncoding?: string): void {
  const headers: Record<string, string | number> = { ...reply.headers };
  if (reply.body === undefined) {
    // 204 must not carry Content-Length; 205 must announce its empty body.
    if (reply.status !== 204) headers["Content-Length"] = 0;
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  // Encoded once: Buffer.byteLength and then end(text) went over a 1 MB listing twice.
  let bytes = Buffer.from(JSON.stringify(reply.body), "utf8");
  const encoding = bytes.length > 1024 ? acceptEncoding?.split(",").map((e) => e.split(";")[0]!.trim().toLowerCase()).find((e) => e === "br" || e === "gzip") : undefined;
  if (encoding) {
    bytes = encoding === "br" ? zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }) : zlib.gzipSync(bytes, { level: 4 });
    headers["Content-Encoding"] = encoding;
    headers["Vary"] = "Accept-Encoding";
  }
  headers["Content-Type"] = "application/json; charset=utf-8";
  headers["Content-Length"] = bytes.length;
  res.writeHead(reply.status, headers);
  res.end(bytes);
}
