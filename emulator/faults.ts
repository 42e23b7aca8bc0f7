// Fault injection. Everything is deterministic: no Math.random, no clocks in decisions.
import { createPrng } from "./store";
import { matchesFilter, type RouteFilter } from "./log";

interface FaultCommon {
  match?: RouteFilter;
  /** Maximum number of requests this fault affects; unlimited when absent. */
  times?: number;
  /**
   * How many matching requests it lets through untouched before it affects any (default 0): e.g. a
   * create's listing before its POST answered, the listings after it failing, with no race.
   */
  after?: number;
  /** PRNG seed for errorRate; defaults to the emulator's seed. */
  seed?: number;
}

/** Delay before answering (summed when several latency faults match). */
export interface LatencyFault extends FaultCommon {
  latencyMs: number;
}

/**
 * Answers a fraction of matching requests with a 5xx `{error}` body, without processing them.
 * Exactness beats independence here: in every window of ERROR_WINDOW consecutive matching
 * requests exactly round(ERROR_WINDOW * errorRate) fail, at positions drawn by the seeded PRNG.
 */
export interface ErrorRateFault extends FaultCommon {
  errorRate: number;
  /** Default 503. */
  status?: 500 | 502 | 503 | 504;
}

/** The next `burst` matching requests answer 429 with X-RateLimit-* headers (and Retry-After when given). */
export interface RateLimitFault extends FaultCommon {
  rateLimit: {
    burst: number;
    /** X-RateLimit-Reset = now + this, in epoch seconds. Default 1. */
    resetInSeconds?: number;
    retryAfterSeconds?: number;
    /** Value of X-RateLimit-Limit. Default 60. */
    limit?: number;
  };
}

/** The request is processed (the write happens), then the socket is destroyed without a response. */
export interface DropAfterProcessFault extends FaultCommon {
  dropAfterProcess: true;
}

/** The socket is destroyed without processing the request. */
export interface DropBeforeProcessFault extends FaultCommon {
  dropBeforeProcess: true;
}

export type FaultSpec = LatencyFault | ErrorRateFault | RateLimitFault | DropAfterProcessFault | DropBeforeProcessFault;

export interface FaultHandle {
  readonly spec: FaultSpec;
  /** How many requests this fault has affected so far. */
  readonly hits: number;
  remove(): void;
}

/** What the emulator must do to one request. */
export interface FaultPlan {
  latencyMs: number;
  dropBefore: boolean;
  reject?: { status: number; message: string; headers: Record<string, string> };
  dropAfter: boolean;
}

export const ERROR_WINDOW = 100;

type Kind = "latency" | "errorRate" | "rateLimit" | "dropAfter" | "dropBefore";

function kindOf(spec: FaultSpec): Kind {
  const kinds: Kind[] = [];
  if ("latencyMs" in spec) kinds.push("latency");
  if ("errorRate" in spec) kinds.push("errorRate");
  if ("rateLimit" in spec) kinds.push("rateLimit");
  if ("dropAfterProcess" in spec) kinds.push("dropAfter");
  if ("dropBeforeProcess" in spec) kinds.push("dropBefore");
  if (kinds.length !== 1) throw new Error(`a fault needs exactly one of latencyMs, errorRate, rateLimit, dropAfterProcess, dropBeforeProcess (got ${kinds.join(", ") || "none"})`);
  return kinds[0]!;
}

class ActiveFault implements FaultHandle {
  hits = 0;
  removed = false;
  /** Matching requests let through so far under `after`. */
  private passed = 0;
  private readonly limit: number;
  private readonly prng: () => number;
  private windowPos = 0;
  private failing = new Set<number>();

  constructor(
    readonly spec: FaultSpec,
    readonly kind: Kind,
    seed: number,
    private readonly owner: Faults,
  ) {
    const times = spec.times ?? Infinity;
    this.limit = "rateLimit" in spec ? Math.min(times, spec.rateLimit.burst) : times;
    this.prng = createPrng(spec.seed ?? seed);
  }

  get active(): boolean {
    return !this.removed && this.hits < this.limit;
  }

  remove(): void {
    this.removed = true;
    this.owner.forget(this);
  }

  /** Whether this matching request is one of the first `after`, let through untouched (counted here). */
  letsThrough(): boolean {
    if (this.passed >= (this.spec.after ?? 0)) return false;
    this.passed++;
    return true;
  }

  /** Advances the error window by one request; true when this request must fail. */
  drawError(rate: number): boolean {
    if (this.windowPos % ERROR_WINDOW === 0) {
      // Partial Fisher-Yates: choose exactly k distinct positions of the coming window.
      const k = Math.round(ERROR_WINDOW * rate);
      const positions = Array.from({ length: ERROR_WINDOW }, (_, i) => i);
      for (let i = 0; i < k; i++) {
        const j = i + Math.floor(this.prng() * (ERROR_WINDOW - i));
        [positions[i], positions[j]] = [positions[j]!, positions[i]!];
      }
      this.failing = new Set(positions.slice(0, k));
    }
    const fails = this.failing.has(this.windowPos % ERROR_WINDOW);
    this.windowPos++;
    return fails;
  }
}

export class Faults {
  private faults: ActiveFault[] = [];

  constructor(private readonly seed: number) {}

  add(spec: FaultSpec): FaultHandle {
    const kind = kindOf(spec);
    if (spec.after !== undefined && !(Number.isInteger(spec.after) && spec.after >= 0)) throw new Error("after must be a whole number of requests, 0 or more");
    if ("errorRate" in spec && !(spec.errorRate >= 0 && spec.errorRate <= 1)) throw new Error("errorRate must be within 0..1");
    if ("errorRate" in spec && spec.status !== undefined && ![500, 502, 503, 504].includes(spec.status)) {
      throw new Error("errorRate status must be 500, 502, 503 or 504");
    }
    const fault = new ActiveFault(spec, kind, this.seed, this);
    this.faults.push(fault);
    return fault;
  }

  clear(): void {
    for (const f of this.faults) f.removed = true;
    this.faults = [];
  }

  /** Faults still able to affect requests. */
  list(): FaultHandle[] {
    return this.faults.filter((f) => f.active);
  }

  /** @internal */
  forget(f: ActiveFault): void {
    this.faults = this.faults.filter((x) => x !== f);
  }

  /**
   * Decides the fate of one request, consuming `times` as it goes. Order: latency (all
   * matching, summed), dropBeforeProcess, errorRate, rateLimit, dropAfterProcess; the
   * first of the last four that fires ends the evaluation.
   */
  plan(method: string, route: string, path: string): FaultPlan {
    const plan: FaultPlan = { latencyMs: 0, dropBefore: false, dropAfter: false };
    const matching = this.faults.filter((f) => f.active && matchesFilter(f.spec.match, method, route, path) && !f.letsThrough());
    const of = (kind: Kind) => matching.filter((f) => f.kind === kind && f.active);

    for (const f of of("latency")) {
      f.hits++;
      plan.latencyMs += (f.spec as LatencyFault).latencyMs;
    }
    const dropBefore = of("dropBefore")[0];
    if (dropBefore) {
      dropBefore.hits++;
      plan.dropBefore = true;
      return plan;
    }
    for (const f of of("errorRate")) {
      const spec = f.spec as ErrorRateFault;
      if (f.drawError(spec.errorRate)) {
        f.hits++;
        const status = spec.status ?? 503;
        plan.reject = { status, message: `Injected fault: the service answered ${status}`, headers: {} };
        return plan;
      }
    }
    const rateLimited = of("rateLimit")[0];
    if (rateLimited) {
      rateLimited.hits++;
      const rl = (rateLimited.spec as RateLimitFault).rateLimit;
      const headers: Record<string, string> = {
        "X-RateLimit-Limit": String(rl.limit ?? 60),
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": String(Math.ceil(Date.now() / 1000) + (rl.resetInSeconds ?? 1)),
      };
      if (rl.retryAfterSeconds !== undefined) headers["Retry-After"] = String(rl.retryAfterSeconds);
      plan.reject = { status: 429, message: "Rate limit exceeded, retry later", headers };
      return plan;
    }
    const dropAfter = of("dropAfter")[0];
    if (dropAfter) {
      dropAfter.hits++;
      plan.dropAfter = true;
    }
    return plan;
  }
}
