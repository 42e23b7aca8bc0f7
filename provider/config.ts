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
  /** Upper bound on waiting for an OpenAPI spec to finish processing. */
  openApiWaitSeconds: number;
  /** Per-request time limit. */
  requestTimeoutSeconds: number;
  /** How often an OpenAPI spec's processing is polled: the first wait, doubling up to the cap. */
  openApiPoll: { firstMs: number; maxMs: number };
}

/** Polls soon at first (processing often takes a second or two), then back off to a few seconds. */
export const OPENAPI_POLL = { firstMs: 250, maxMs: 5_000 };

/** The subset of the host's config object we use: `get("gitbook:token")`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/** A setting that cannot be used, named as the user set it. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export type Raw = Partial<Record<"token" | "apiUrl" | "organizationId" | "openApiWaitSeconds" | "requestTimeoutSeconds", string>>;

const ENV: Record<keyof Raw, string> = {
  token: "GITBOOK_TOKEN",
  apiUrl: "GITBOOK_API_URL",
  organizationId: "GITBOOK_ORGANIZATION_ID",
  openApiWaitSeconds: "GITBOOK_OPENAPI_WAIT_SECONDS",
  requestTimeoutSeconds: "GITBOOK_REQUEST_TIMEOUT_SECONDS",
};

/** A setting's value and how to name it: stack config first, then the environment. */
function setting(configured: Raw, env: NodeJS.ProcessEnv, k: keyof Raw): { value: string; name: string } | undefined {
  if (configured[k] !== undefined) return { value: configured[k]!, name: `gitbook:${k}` };
  const v = env[ENV[k]];
  if (v !== undefined && v !== "") return { value: v, name: `${ENV[k]} (gitbook:${k} is not set)` };
  return undefined;
}

function seconds(s: { value: string; name: string } | undefined, fallback: number): number {
  if (!s) return fallback;
  const n = Number(s.value.trim());
  if (s.value.trim() === "" || !Number.isFinite(n) || n <= 0) {
    throw new ConfigError(`${s.name} is ${JSON.stringify(s.value)}, which is not a positive number of seconds; set it to e.g. ${fallback}, or unset it for the default (${fallback}).`);
  }
  return n;
}

/** A URL as an error may show it: user and password replaced. */
function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1***@");
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
      const fix = url.name.startsWith("gitbook:")
        ? "`pulumi config set gitbook:apiUrl <url>`, or `pulumi config rm gitbook:apiUrl` for the default"
        : `fix or unset ${ENV.apiUrl}, or set gitbook:apiUrl`;
      throw new ConfigError(
        `${url.name} is ${JSON.stringify(withoutCredentials(url.value))}, which ${problem}; it must be the API's base URL, e.g. ${DEFAULT_API_URL} (${fix}).`,
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
    openApiPoll: OPENAPI_POLL,
  };
  const token = get("token")?.value;
  if (token) out.token = token;
  const org = get("organizationId")?.value;
  if (org) out.organizationId = org;
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

export class MissingTokenError extends Error {
  constructor() {
    super(
      "No GitBook API token is configured. Set it with `pulumi config set --secret gitbook:token <token>` " +
        "or export GITBOOK_TOKEN=<token> in the environment that runs Pulumi.",
    );
    this.name = "MissingTokenError";
  }
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
  /** One client (one keep-alive pool, one list cache) per API URL, token and timeout. */
  private readonly clients = new Map<string, GitbookClient>();

  constructor(private readonly options: RuntimeOptions = {}) {}

  /** Called from the provider's `configure` with the stack's config (namespaced keys, secrets unwrapped). */
  configure(source: ConfigSource | undefined): void {
    this.settings = settingsFrom(source);
  }

  config(): ProviderConfig {
    const cfg = resolveConfig(this.settings, this.options.env ?? process.env);
    return this.options.openApiPoll ? { ...cfg, openApiPoll: this.options.openApiPoll } : cfg;
  }

  client(): GitbookClient {
    const cfg = this.config();
    if (!cfg.token) throw new MissingTokenError();
    const key = `${cfg.apiUrl}\u0000${cfg.token}\u0000${cfg.requestTimeoutSeconds}`;
    let c = this.clients.get(key);
    if (!c) {
      c = new GitbookClient({
        token: cfg.token,
        apiUrl: cfg.apiUrl,
        apiUrlSetting: cfg.apiUrlSetting,
        timeoutMs: cfg.requestTimeoutSeconds * 1000,
        onRetry: announceRetry,
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
