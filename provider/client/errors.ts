/**
 * Typed errors for every way a GitBook API call can fail. One factory (`errorFromResponse`) maps an
 * HTTP answer to its class, so callers branch on `instanceof` instead of status numbers.
 *
 * No error ever carries the API token: messages are built from the method, the path and the API's
 * own `error.message`, and `redact` scrubs the token out of anything the server echoes back.
 */

import { NOT_SENT_CODES } from "./retry";

export interface ErrorContext {
  method: string;
  /** Path without query string (query strings can carry share keys). */
  path: string;
  /** The API base URL and the setting it came from, for messages about failed connections. */
  target?: { apiUrl: string; setting: string };
}

export class GitbookError extends Error {
  /** HTTP status, or 0 when no response was received. */
  readonly status: number;
  readonly method: string;
  readonly path: string;
  /** The API's `error.message` (or a description of the transport failure). */
  readonly apiMessage: string;
  /** Attempts made before giving up (1 when the request was not retried). */
  attempts = 1;

  constructor(status: number, apiMessage: string, ctx: ErrorContext) {
    const where = `${ctx.method} ${ctx.path}`;
    super(status ? `GitBook API ${status} on ${where}: ${apiMessage}` : `GitBook API ${where} failed: ${apiMessage}`);
    this.name = new.target.name;
    this.status = status;
    this.method = ctx.method;
    this.path = ctx.path;
    this.apiMessage = apiMessage;
  }

  /** Records that the request was retried and says so in the message: how many attempts, over how long. */
  gaveUpAfter(attempts: number, elapsedMs: number): this {
    this.attempts = attempts;
    if (attempts > 1) this.message += `; gave up after ${attempts} attempts over ${(elapsedMs / 1000).toFixed(1)} s`;
    return this;
  }
}

/** 404: the object does not exist (or the token cannot see it). */
export class NotFoundError extends GitbookError {}
/** 400 or 422: the API rejected the body or query. */
export class ValidationError extends GitbookError {}
/** 401 or 403: token missing, invalid, revoked, or lacking permission. */
export class AuthError extends GitbookError {}
/** 409: the object already exists (e.g. an OpenAPI spec slug) or a concurrent change conflicted. */
export class ConflictError extends GitbookError {}
/** 429: rate limited past what the retry budget allows. */
export class RateLimitError extends GitbookError {
  /** Epoch milliseconds when the API said the limit resets, if it said. */
  readonly resetAt?: number;
  constructor(apiMessage: string, ctx: ErrorContext, resetAt?: number) {
    super(429, apiMessage, ctx);
    if (resetAt !== undefined) this.resetAt = resetAt;
  }
}
/** 5xx (and 408): the service failed. For a POST this is ambiguous: see `AmbiguousRequestError`. */
export class ServerError extends GitbookError {}
/** Any other unexpected status. */
export class UnexpectedStatusError extends GitbookError {}
/** No response: connection refused, reset, or timed out. */
export class ConnectionError extends GitbookError {
  /** Low-level code, e.g. ECONNREFUSED, UND_ERR_SOCKET, UND_ERR_HEADERS_TIMEOUT. */
  readonly code: string;
  constructor(code: string, detail: string, ctx: ErrorContext) {
    super(0, `${code}: ${detail}${connectionHint(code, ctx)}`, ctx);
    this.code = code;
  }
}

const TIMEOUT_CODES = new Set(["ETIMEDOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** What the user can check: the URL the request went to and the setting it came from. */
function connectionHint(code: string, ctx: ErrorContext): string {
  const t = ctx.target;
  if (!t) return "";
  if (NOT_SENT_CODES.has(code)) return ` (could not connect to ${t.apiUrl}, set by ${t.setting}: check that setting and the network)`;
  if (TIMEOUT_CODES.has(code)) return ` (no answer from ${t.apiUrl}, set by ${t.setting}, in time: raise gitbook:requestTimeoutSeconds for a slow link)`;
  return ` (the connection to ${t.apiUrl}, set by ${t.setting}, failed)`;
}
/**
 * A non-idempotent request (POST, or a PUT that creates) was sent and no trustworthy answer came back:
 * the server may or may not have applied it. The resource layer must look for what it may have created
 * before trying again, so a retry never leaves a duplicate.
 */
export class AmbiguousRequestError extends GitbookError {
  override readonly cause: GitbookError;
  /**
   * How long the API may still be working on the request: non-zero when our time limit ran out
   * before any answer (rather than the request being answered or cut off), so its effect may appear
   * only later.
   */
  readonly settleMs: number;
  constructor(cause: GitbookError, settleMs = 0) {
    super(cause.status, `outcome unknown (the request may have been applied): ${cause.apiMessage}`, cause);
    this.cause = cause;
    this.settleMs = settleMs;
  }
}
/** The response did not match the API contract (a field missing or of the wrong type). */
export class ContractError extends GitbookError {
  constructor(detail: string, ctx: ErrorContext) {
    super(0, `unexpected response shape: ${detail}`, ctx);
  }
}

/** Extracts `error.message` from the service's `{"error":{"code","message"}}` body, tolerating anything else. */
export function apiMessageOf(body: unknown, fallback: string): string {
  if (body && typeof body === "object" && "error" in body) {
    const err = (body as { error: unknown }).error;
    if (err && typeof err === "object" && typeof (err as { message?: unknown }).message === "string") {
      return (err as { message: string }).message;
    }
    if (typeof err === "string") return err;
  }
  if (typeof body === "string" && body.trim()) return body.trim().slice(0, 500);
  return fallback;
}

/** The single mapping from an HTTP status to an error class. */
export function errorFromResponse(
  status: number,
  body: unknown,
  ctx: ErrorContext,
  headers: { resetAt?: number } = {},
): GitbookError {
  const message = apiMessageOf(body, `HTTP ${status}`);
  if (status === 404) return new NotFoundError(status, message, ctx);
  if (status === 400 || status === 422) return new ValidationError(status, message, ctx);
  if (status === 401 || status === 403) {
    const hint =
      status === 401
        ? // Pulumi records the stack config a dynamic provider was configured with in state, and
          // `destroy` and `refresh` configure it from there: a token changed since the last `up`
          // reaches them only with --run-program.
          " (check gitbook:token or GITBOOK_TOKEN: the token is missing, invalid or revoked; after changing it, run `pulumi up`, or `pulumi destroy`/`pulumi refresh` with --run-program, since those otherwise use the token recorded at the last `up`)"
        : " (the token lacks permission for this object)";
    return new AuthError(status, message + hint, ctx);
  }
  if (status === 409) return new ConflictError(status, message, ctx);
  if (status === 429) return new RateLimitError(message, ctx, headers.resetAt);
  if (status === 408 || status >= 500) return new ServerError(status, message, ctx);
  return new UnexpectedStatusError(status, message, ctx);
}

/** Replaces every occurrence of `secret` (and its bearer header form) with a marker. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join("[REDACTED]");
}
