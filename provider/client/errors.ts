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

  /**
   * Records that the request was retried and says so in the message: how many attempts, over how long.
   * `beyond`: the wait the server asked for, when it was more than the request had left (`deadlineMs`).
   */
  gaveUpAfter(attempts: number, elapsedMs: number, beyond?: { waitMs: number; deadlineMs: number }): this {
    this.attempts = attempts;
    if (attempts > 1) this.message += `; gave up after ${attempts} attempts over ${(elapsedMs / 1000).toFixed(1)} s`;
    if (beyond) this.message += `; GitBook asked to wait ${seconds(beyond.waitMs)}, more than the ${seconds(beyond.deadlineMs)} one request may take`;
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

  /** Also says what the limit is and what to do: the API's words ("Rate limit exceeded") say neither. */
  override gaveUpAfter(attempts: number, elapsedMs: number, beyond?: { waitMs: number; deadlineMs: number }): this {
    super.gaveUpAfter(attempts, elapsedMs, beyond);
    const reset = this.resetAt !== undefined ? `, and its limit resets at ${new Date(this.resetAt).toISOString()}` : "";
    this.message += `. GitBook limits how many requests this token may make${reset}: run the command again after ${reset ? "then" : "a while"}, or with fewer resources at once (\`pulumi up --parallel 4\`)`;
    return this;
  }
}

/** `2.5 s`, `600 s`: whole seconds without a decimal. */
function seconds(ms: number): string {
  return Number.isInteger(ms / 1000) && ms >= 10_000 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
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
  /** The wait the server asked for before another attempt (a 503's Retry-After), if it asked. */
  readonly waitMs?: number;
  constructor(cause: GitbookError, settleMs = 0, waitMs?: number) {
    super(cause.status, `outcome unknown (the request may have been applied): ${cause.apiMessage}`, cause);
    this.cause = cause;
    this.settleMs = settleMs;
    if (waitMs !== undefined) this.waitMs = waitMs;
  }
}
/** The response did not match the API contract (a field missing or of the wrong type). */
export class ContractError extends GitbookError {
  constructor(detail: string, ctx: ErrorContext) {
    super(0, `unexpected response shape: ${detail}`, ctx);
  }
}

/**
 * The answer did not come from GitBook's API: an HTML page, or a body not shaped like the API's errors
 * (a proxy, a login page, a `gitbook:apiUrl` pointing somewhere else). Never a NotFoundError, even
 * for a 404: a page that is not the API's says nothing about whether an object exists.
 */
export class NotApiError extends GitbookError {}

/**
 * The organization a request was addressed to cannot be reached with this token (GitBook answered
 * 404 or 403 for the organization itself): a wrong `gitbook:organizationId`, or a token of another
 * organization. Never a NotFoundError: the objects under it may well exist.
 */
export class OrganizationError extends GitbookError {
  readonly organizationId: string;
  constructor(cause: GitbookError, organizationId: string, setting: string | undefined) {
    super(cause.status, cause.apiMessage, cause);
    this.organizationId = organizationId;
    const named = setting ? `${setting} is ${JSON.stringify(organizationId)}` : `organizationId is ${JSON.stringify(organizationId)}`;
    const fix = setting?.startsWith("gitbook:")
      ? `\`pulumi config set ${setting} <id>\``
      : setting
        ? `fix ${setting}`
        : "fix the resource's organizationId";
    this.message =
      `${named}, an organization GitBook does not show this token (${cause.status} ${shorten(cause.apiMessage, 120)}): ` +
      `set it to the ID after /o/ in your organization's address on app.gitbook.com (${fix}), and use a token of that organization ` +
      `(GitBook API ${cause.status} on ${cause.method} ${cause.path})`;
  }
}

/** At most `max` characters, cut with an ellipsis. */
function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Text from the server as it may be shown: control characters (terminal escapes, carriage returns),
 * bidirectional overrides and line separators written out as `\u001b` and so on, whitespace runs
 * folded, and at most `max` characters. What the server sends is data and never steers the terminal.
 */
export function displayable(text: string, max = 500): string {
  const visible = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/[\t\n ]+/g, " ")
    .trim();
  return shorten(visible, max);
}

/** The service's `error.message` from its `{"error":{"code","message"}}` body, or undefined for any other body. */
function apiErrorMessage(body: unknown): string | undefined {
  if (body && typeof body === "object" && "error" in body) {
    const err = (body as { error: unknown }).error;
    if (err && typeof err === "object" && typeof (err as { message?: unknown }).message === "string") {
      return (err as { message: string }).message;
    }
    if (typeof err === "string") return err;
  }
  return undefined;
}

/** Extracts `error.message` from the service's `{"error":{"code","message"}}` body, tolerating anything else. */
export function apiMessageOf(body: unknown, fallback: string): string {
  const message = apiErrorMessage(body);
  if (message !== undefined) return displayable(message);
  if (typeof body === "string" && body.trim()) return displayable(body, 200);
  return fallback;
}

/** What the client knows of an answer besides its status and parsed body. */
export interface AnswerDetails {
  resetAt?: number;
  /** The Content-Type header, as sent. */
  contentType?: string;
  /** The body as received (already redacted). */
  text?: string;
  /** A redirect's Location header, as sent (already redacted). */
  location?: string;
}

/**
 * An answer that is not the API's, summarised: its status, content type and first line (bounded and
 * made displayable), and the setting that chose where requests go. The whole body is never shown: an
 * HTML page would fill the screen and could carry terminal escapes.
 */
export function notApiSummary(status: number, details: AnswerDetails, ctx: ErrorContext): string {
  const firstLine = (details.text ?? "").split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const type = details.contentType ? displayable(details.contentType, 80) : "no content type";
  // Where a redirect leads, without its query or fragment (they can carry keys).
  const shown =
    details.location !== undefined
      ? `, a redirect to ${displayable(details.location.replace(/[?#].*$/s, ""), 200)}`
      : firstLine
        ? `, first line "${displayable(firstLine, 120)}"`
        : ", empty body";
  const where = ctx.target
    ? `; ${ctx.target.setting} may be wrong: it is ${ctx.target.apiUrl}, and GitBook's API is https://api.gitbook.com`
    : "";
  return `the answer is not from GitBook's API (HTTP ${status}, ${type}${shown})${where}`;
}

/** A body GitBook's API would not send: not empty, and not its JSON error shape. */
function foreignBody(body: unknown, details: AnswerDetails): boolean {
  if (apiErrorMessage(body) !== undefined) return false;
  return (details.text ?? "").trim() !== "";
}

/** The single mapping from an HTTP status to an error class. */
export function errorFromResponse(status: number, body: unknown, ctx: ErrorContext, headers: AnswerDetails = {}): GitbookError {
  // GitBook's API answers no redirect: one comes from a wrong gitbook:apiUrl (http for https, another
  // host), and is never followed, since that would send the token where it leads.
  if (status >= 300 && status < 400) return new NotApiError(status, notApiSummary(status, headers, ctx), ctx);
  if (foreignBody(body, headers)) {
    const summary = notApiSummary(status, headers, ctx);
    // Still retried like any overloaded server or gateway (a proxy's 502 page, a 429 page).
    if (status === 429) return new RateLimitError(summary, ctx, headers.resetAt);
    if (status === 408 || status >= 500) return new ServerError(status, summary, ctx);
    return new NotApiError(status, summary, ctx);
  }
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
  // A server may echo the token changed: lower- or upper-cased (a header name's value normalised),
  // or URL-encoded (a query it was put in by mistake). Each form is a secret as much as the token.
  const forms = [...new Set([secret, encodeURIComponent(secret)])].map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return text.replace(new RegExp(forms.join("|"), "gi"), "[REDACTED]");
}

/**
 * Takes each secret value out of an error's text and its causes' (message, the API's message, stack):
 * for values a resource keeps secret, which an answer of GitBook's might quote. Values shorter than
 * four characters are left, as `redact` leaves them. Answers the error, changed in place.
 */
export function redactSecrets<E>(e: E, secrets: readonly string[]): E {
  const known = secrets.filter((s) => s.length >= 4);
  let at: unknown = e;
  for (let depth = 0; at instanceof Error && depth < 8 && known.length > 0; depth++) {
    for (const field of ["message", "apiMessage", "stack"] as const) {
      const v = (at as unknown as Record<string, unknown>)[field];
      if (typeof v !== "string") continue;
      const clean = known.reduce((t, s) => redact(t, s), v);
      if (clean !== v) Object.defineProperty(at, field, { value: clean, writable: true, configurable: true, enumerable: field === "apiMessage" });
    }
    at = (at as { cause?: unknown }).cause;
  }
  return e;
}
