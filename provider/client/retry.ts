/**
 * When to retry and how long to wait. Kept apart from the transport so the rules are testable with a
 * fake clock.
 *
 * undici ships a RetryHandler, but it cannot express what this API needs: it ignores
 * `X-RateLimit-Reset`, has no overall deadline, and cannot tell a POST that never reached the server
 * (safe to resend) from one whose answer was lost (resending could create a duplicate).
 */

export interface RetryPolicy {
  /** Maximum attempts per request, the first included. */
  maxAttempts: number;
  /** First backoff step, doubled each attempt. */
  baseDelayMs: number;
  /** Cap on a single computed backoff (a server-given wait may be longer, within the deadline). */
  maxDelayMs: number;
  /** Overall budget for one logical request, retries and waits included. */
  deadlineMs: number;
  /**
   * Attempts, the first included, when no connection could be made at all (refused, unknown host,
   * unreachable network): a wrong `gitbook:apiUrl` or a host that is down does not come back within
   * a request's retry budget, so it fails within about a second instead of a minute of silence.
   */
  connectAttempts: number;
  /** Cap on each wait between such attempts. */
  connectMaxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  deadlineMs: 120_000,
  connectAttempts: 3,
  connectMaxDelayMs: 1_000,
};

/** Statuses after which any request may be resent: the server says it did not (or could not) do it. */
export const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);

/**
 * Transport errors where the request certainly never reached the server's application, so even a
 * POST can be resent.
 */
export const NOT_SENT_CODES = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** Full-jitter exponential backoff: uniform in [0, min(cap, base * 2^attempt)], at least 1ms. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.max(1, Math.round(random() * ceiling));
}

/**
 * The wait the server asked for, in ms, from `Retry-After` (delta-seconds or an HTTP date) or else
 * `X-RateLimit-Reset` (epoch seconds). Undefined when neither is present or parseable.
 *
 * A date or an epoch time is on the server's clock, so it is measured from the answer's own `Date`
 * header when it has one, and from `nowMs` (this machine's clock) only when it has none: with this
 * machine minutes behind GitBook, a reset a second away read as minutes (past the deadline: the
 * request failed), and with it ahead, as already passed. `Date` is whole seconds, truncated, so the
 * wait is at most a second longer than the server meant, never shorter.
 */
export function serverRequestedWaitMs(
  headers: Record<string, string | string[] | undefined>,
  nowMs: number,
): number | undefined {
  const dated = Date.parse(first(headers.date) ?? "");
  const serverNow = Number.isNaN(dated) ? nowMs : dated;
  const retryAfter = first(headers["retry-after"]);
  if (retryAfter !== undefined && retryAfter.trim() !== "") {
    const trimmed = retryAfter.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(0, date - serverNow);
  }
  const reset = first(headers["x-ratelimit-reset"]);
  if (reset !== undefined && /^\d+(\.\d+)?$/.test(reset.trim())) {
    return Math.max(0, Math.ceil(Number(reset.trim()) * 1000 - serverNow));
  }
  return undefined;
}

/** Epoch ms at which the rate limit resets, from `X-RateLimit-Reset`, if present. */
export function rateLimitResetAt(headers: Record<string, string | string[] | undefined>): number | undefined {
  const reset = first(headers["x-ratelimit-reset"]);
  if (reset === undefined || !/^\d+(\.\d+)?$/.test(reset.trim())) return undefined;
  return Number(reset.trim()) * 1000;
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
