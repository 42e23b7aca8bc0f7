/**
 * Provider configuration. The engine hands stack config to the dynamic-provider host, which calls
 * our `configure` once per serialized provider; the values live only in this process's memory, never
 * in resource inputs, so the token can never reach state.
 *
 * A malformed setting fails every provider call, naming the setting (and the environment variable
 * it came from): a bad `gitbook:apiUrl` must never fall back to the default API with the token.
 */
import { apiUrlProblem, GitbookClient, DEFAULT_API_URL, type ClientOptions, type RetryInfo } from "./client";

export interface ProviderConfig {
  token?: string;
  apiUrl: string;
  /** Where `apiUrl` came from, as a user would look for it: `gitbook:apiUrl`, `GITBOOK_API_URL`, or the default. */
  apiUrlSetting: string;
  organizationId?: string;
  /** Where `organizationId` came from: `gitbook:organizationId` or `GITBOOK_ORGANIZATION_ID`. */
  organizationIdSetting?: string;
  /** Upper bound on waiting for an OpenAPI spec to finish processing. */
  openApiWaitSeconds: number;
  /** Per-request time limit. */
  requestTimeoutSeconds: number;
  /** How long before a write a safety listing may have been answered (client.ts, Since); 0: only one in flight. */
  listingMaxAgeSeconds: number;
  /** How often an OpenAPI spec's processing is polled: the first wait, doubling up to the cap. */
  openApiPoll: { firstMs: number; maxMs: number };
}

/** Polls soon at first (processing often takes a second or two), then back off to a few seconds. */
export const OPENAPI_POLL = { firstMs: 250, maxMs: 5_000 };

/** The subset of the host's config object we use: `get("gitbook:token")`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/**
 * A setting that cannot be used, named as the user set it.
 *
 * The SDK's dynamic-provider host writes `${e}: ${e.stack}` to stderr for an error thrown from check,
 * diff, read or delete, and the engine shows that beside the error it shows with the resource: the
 * message twice, then a stack trace that says nothing about the setting. So the host's line is a
 * fixed pointer, and the message is shown once, with the resource.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
    Object.defineProperty(this, "stack", { value: "the setting and how to fix it are in the resource's error", writable: true, configurable: true });
  }

  override toString(): string {
    return "pulumi-gitbook: configuration error";
  }
}

export type Raw = Partial<Record<"token" | "apiUrl" | "organizationId" | "openApiWaitSeconds" | "requestTimeoutSeconds" | "listingMaxAgeSeconds", string>>;

const ENV: Record<keyof Raw, string> = {
  token: "GITBOOK_TOKEN",
  apiUrl: "GITBOOK_API_URL",
  organizationId: "GITBOOK_ORGANIZATION_ID",
  openApiWaitSeconds: "GITBOOK_OPENAPI_WAIT_SECONDS",
  requestTimeoutSeconds: "GITBOOK_REQUEST_TIMEOUT_SECONDS",
  listingMaxAgeSeconds: "GITBOOK_LISTING_MAX_AGE_SECONDS",
};

const ENV_NAMES = Object.values(ENV);

interface Found {
  key: keyof Raw;
  value: string;
  /** As a user would look for it: `gitbook:apiUrl`, or `GITBOOK_API_URL (gitbook:apiUrl is not set)`. */
  name: string;
}

/** A setting's value and how to name it: stack config first, then the environment. */
function setting(configured: Raw, env: NodeJS.ProcessEnv, k: keyof Raw): Found | undefined {
  if (configured[k] !== undefined) return { key: k, value: configured[k]!, name: `gitbook:${k}` };
  const v = env[ENV[k]];
  if (v !== undefined && v !== "") return { key: k, value: v, name: `${ENV[k]} (gitbook:${k} is not set)` };
  return undefined;
}

/** The command that fixes a setting, where the user set it. */
function howToFix(s: Found, example: string, opts: { secret?: boolean; hasDefault?: boolean } = {}): string {
  const key = `gitbook:${s.key}`;
  if (!s.name.startsWith("gitbook:")) return `fix or unset ${ENV[s.key]}, or set ${key}`;
  const set = `\`pulumi config set ${opts.secret ? "--secret " : ""}${key} ${example}\``;
  return opts.hasDefault === false ? set : `${set}, or \`pulumi config rm ${key}\` for the default`;
}

function seconds(s: Found | undefined, fallback: number, zero = false): number {
  if (!s) return fallback;
  const n = Number(s.value.trim());
  if (s.value.trim() === "" || !Number.isFinite(n) || n < 0 || (n === 0 && !zero)) {
    const what = zero ? "a number of seconds, 0 or more" : "a positive number of seconds";
    throw new ConfigError(`${s.name} is ${JSON.stringify(s.value)}, which is not ${what} (${howToFix(s, String(fallback))}; the default is ${fallback}).`);
  }
  return n;
}

/** A URL as an error may show it: user and password replaced. */
function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1***@");
}

/**
 * An organization ID is opaque, but never holds spaces or slashes: such a value is most often the
 * organization's URL pasted whole (`https://app.gitbook.com/o/<id>/home`), whose ID is then suggested.
 */
function organizationId(s: Found | undefined): string | undefined {
  if (!s) return undefined;
  if (!/[\s/\\]/.test(s.value)) return s.value;
  const fromUrl = /\/o\/([^/?#\s]+)/.exec(s.value)?.[1];
  const shown = JSON.stringify(s.value.length > 120 ? `${s.value.slice(0, 120)}…` : s.value);
  throw new ConfigError(
    `${s.name} is ${shown}, which is not an organization ID (it has spaces or slashes); ` +
      `the ID is the part after /o/ in the organization's address on app.gitbook.com (${howToFix(s, fromUrl ?? "<id>", { hasDefault: false })}).`,
  );
}

/**
 * A token is sent in a header as it is, and GitBook's are ASCII: whitespace, a control character or
 * anything outside ASCII in it is a copying mistake (a trailing newline, typographic quotes), which
 * undici would refuse at every request as if the connection had failed. Never shown.
 */
function token(s: Found | undefined): string | undefined {
  if (!s) return undefined;
  if (/[^\x21-\x7e]/.test(s.value)) {
    throw new ConfigError(
      `${s.name} holds whitespace, a control character or a character outside ASCII (often a trailing newline, or typographic quotes, from where it was copied), so it cannot be sent; ` +
        `set it again without them (${howToFix(s, "<token>", { secret: true, hasDefault: false })}). The value is not shown.`,
    );
  }
  return s.value;
}

/** The stack's settings, resolved: stack config first, then the environment. Throws a ConfigError naming a malformed setting. */
export function resolveConfig(configured: Raw, env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  const get = (k: keyof Raw) => setting(configured, env, k);
  const url = get("apiUrl");
  let apiUrl = DEFAULT_API_URL;
  let apiUrlSetting = "gitbook:apiUrl (not set: the default)";
  if (url) {
    const problem = apiUrlProblem(url.value);
    if (problem) {
      throw new ConfigError(
        `${url.name} is ${JSON.stringify(withoutCredentials(url.value))}, which ${problem}; it must be the API's base URL, e.g. ${DEFAULT_API_URL} (${howToFix(url, "<url>")}).`,
      );
    }
    apiUrl = url.value;
    apiUrlSetting = url.name.split(" ")[0]!;
  }
  const out: ProviderConfig = {
    apiUrl,
    apiUrlSetting,
    openApiWaitSeconds: seconds(get("openApiWaitSeconds"), 300),
    requestTimeoutSeconds: seconds(get("requestTimeoutSeconds"), 30),
    listingMaxAgeSeconds: seconds(get("listingMaxAgeSeconds"), 1, true),
    openApiPoll: OPENAPI_POLL,
  };
  const t = token(get("token"));
  if (t) out.token = t;
  const org = get("organizationId");
  const orgId = organizationId(org);
  if (orgId) {
    out.organizationId = orgId;
    out.organizationIdSetting = org!.name.split(" ")[0]!;
  }
  return out;
}

/** The stack's `gitbook:*` settings, as the host's config object hands them over. */
export function settingsFrom(source: ConfigSource | undefined): Raw {
  const next: Raw = {};
  for (const k of Object.keys(ENV) as (keyof Raw)[]) {
    const v = source?.get(`gitbook:${k}`);
    if (typeof v === "string" && v !== "") next[k] = v;
  }
  return next;
}

/** How to set the token, as every message about a missing one says it. */
const SET_TOKEN = "set it with `pulumi config set --secret gitbook:token <token>`, or export GITBOOK_TOKEN=<token> where Pulumi runs";

/** No token in `gitbook:token` nor GITBOOK_TOKEN, and a request is needed. */
export class MissingTokenError extends ConfigError {
  constructor() {
    super(`No GitBook API token: gitbook:token is not set, nor GITBOOK_TOKEN; ${SET_TOKEN}.`);
    this.name = "MissingTokenError";
  }
}

/** What a preview without a token says, once: it passes, and what needs one will not. */
export const NO_TOKEN_WARNING =
  "pulumi-gitbook: no GitBook API token (gitbook:token is not set, nor GITBOOK_TOKEN): this preview compares the program with state only, " +
  `and \`pulumi up\`, \`pulumi refresh\` and \`npx pulumi-gitbook import\` will fail; ${SET_TOKEN}.`;

/** What the program's process finds in the stack's settings before anything is registered. */
export interface ProgramConfigVerdict {
  /** Fails the run: a malformed setting, or no token for a run that sends requests. */
  error?: string;
  /** Said once, and the run goes on. */
  warning?: string;
}

/**
 * The settings as the program's process sees them (the same stack config and environment the
 * provider's process gets), judged before the first resource is registered: a malformed setting
 * fails preview and up with its message, once, and no provider call is made; a missing token is a
 * warning for a preview (which needs no request) and an error for anything else, before any write.
 */
export function judgeProgramConfig(source: ConfigSource, env: NodeJS.ProcessEnv, dryRun: boolean): ProgramConfigVerdict {
  let cfg: ProviderConfig;
  try {
    cfg = resolveConfig(settingsFrom(source), env);
  } catch (e) {
    if (e instanceof ConfigError) return { error: e.message };
    throw e;
  }
  if (cfg.token) return {};
  return dryRun ? { warning: NO_TOKEN_WARNING } : { error: new MissingTokenError().message };
}

/** Retry waits shorter than this, early in a request, pass silently; longer ones are announced. */
const ANNOUNCE_WAIT_MS = 1000;
const ANNOUNCE_AFTER_MS = 5000;

/**
 * Says on stderr that a request is being retried and how long it waits. The dynamic-provider host's
 * stderr is relayed by the Pulumi engine to the display as it arrives (as it does for no other
 * provider plugin), so a long wait is explained while it happens instead of looking like a hang.
 */
export function announceRetry(r: RetryInfo): void {
  if (r.waitMs < ANNOUNCE_WAIT_MS && r.elapsedMs < ANNOUNCE_AFTER_MS) return;
  process.stderr.write(`${retryLine(r)}\n`);
}

export function retryLine(r: RetryInfo): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `pulumi-gitbook: ${r.method} ${r.path}: ${r.reason}; retrying in ${s(r.waitMs)} (attempt ${r.attempt + 1} of at most ${r.maxAttempts}, ${s(r.elapsedMs)} so far)`;
}

export interface RuntimeOptions {
  /** Options every client of this runtime gets (tests and benchmarks: fast retries, an attempt hook). */
  clientOverrides?: Partial<ClientOptions>;
  /** Where unset settings are looked up; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** OpenAPI processing poll timing (tests poll every few milliseconds). */
  openApiPoll?: { firstMs: number; maxMs: number };
}

/**
 * One provider process's configuration and clients. The host configures each serialized provider
 * once; the settings are kept even when malformed, so every later call fails with the same message
 * rather than a provider running on the defaults (the host never configures it again).
 */
export class ProviderRuntime {
  private settings: Raw = {};
  private resolved?: { settings: Raw; env: (string | undefined)[]; cfg: ProviderConfig };
  /** One client (one keep-alive pool, one list cache) per API URL, token and timeout. */
  private readonly clients = new Map<string, GitbookClient>();

  constructor(private readonly options: RuntimeOptions = {}) {}

  /** Called from the provider's `configure` with the stack's config (namespaced keys, secrets unwrapped). */
  configure(source: ConfigSource | undefined): void {
    this.settings = settingsFrom(source);
  }

  config(): ProviderConfig {
    // Every provider call asks (some three times), and resolving parses the API URL: kept while the
    // settings and the environment variables it reads are unchanged. A malformed setting is not
    // kept, so it throws again on every call.
    // configure() replaces the settings object, so it is compared by identity (a key made with
    // JSON.stringify on every call was 2 % of a refresh's reads).
    const env = this.options.env ?? process.env;
    const values = ENV_NAMES.map((name) => env[name]);
    const r = this.resolved;
    if (r && r.settings === this.settings && r.env.every((v, i) => v === values[i])) return r.cfg;
    const cfg = resolveConfig(this.settings, env);
    const out = this.options.openApiPoll ? { ...cfg, openApiPoll: this.options.openApiPoll } : cfg;
    this.resolved = { settings: this.settings, env: values, cfg: out };
    return out;
  }

  client(): GitbookClient {
    const cfg = this.config();
    if (!cfg.token) throw new MissingTokenError();
    const key = `${cfg.apiUrl}\u0000${cfg.token}\u0000${cfg.requestTimeoutSeconds}\u0000${cfg.listingMaxAgeSeconds}\u0000${cfg.organizationId ?? ""}`;
    let c = this.clients.get(key);
    if (!c) {
      c = new GitbookClient({
        token: cfg.token,
        apiUrl: cfg.apiUrl,
        apiUrlSetting: cfg.apiUrlSetting,
        timeoutMs: cfg.requestTimeoutSeconds * 1000,
        guardMaxAgeMs: cfg.listingMaxAgeSeconds * 1000,
        onRetry: announceRetry,
        ...(cfg.organizationId ? { organization: { id: cfg.organizationId, setting: cfg.organizationIdSetting! } } : {}),
        ...this.options.clientOverrides,
      });
      this.clients.set(key, c);
    }
    return c;
  }

  /** Drops the clients and what they cached (tests, after changing the emulator behind the provider's back). */
  resetClients(): void {
    for (const c of this.clients.values()) void c.close();
    this.clients.clear();
  }
}
