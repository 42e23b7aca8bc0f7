/**
 * Provider configuration. The engine hands stack config to the dynamic-provider host, which calls
 * our `configure` once per serialized provider; the values live only in this process's memory, never
 * in resource inputs, so the token can never reach state.
 */
import { GitbookClient, DEFAULT_API_URL, type ClientOptions } from "./client";

export interface ProviderConfig {
  token?: string;
  apiUrl: string;
  organizationId?: string;
  /** Upper bound on waiting for an OpenAPI spec to finish processing. */
  openApiWaitSeconds: number;
  /** Per-request time limit. */
  requestTimeoutSeconds: number;
}

/** The subset of the host's config object we use: `get("gitbook:token")`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

let configured: Partial<ProviderConfig> = {};
let clientOverrides: Partial<ClientOptions> = {};
const clients = new Map<string, GitbookClient>();

function num(v: string | undefined): number | undefined {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Called from the provider's `configure` with the stack's config (namespaced keys, secrets unwrapped). */
export function configureFrom(source: ConfigSource | undefined): void {
  const get = (k: string) => {
    const v = source?.get(`gitbook:${k}`);
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const next: Partial<ProviderConfig> = {};
  const token = get("token");
  if (token) next.token = token;
  const apiUrl = get("apiUrl");
  if (apiUrl) next.apiUrl = apiUrl;
  const org = get("organizationId");
  if (org) next.organizationId = org;
  const wait = num(get("openApiWaitSeconds"));
  if (wait) next.openApiWaitSeconds = wait;
  const timeout = num(get("requestTimeoutSeconds"));
  if (timeout) next.requestTimeoutSeconds = timeout;
  configured = next;
}

/** Stack config first, then the environment. */
export function currentConfig(): ProviderConfig {
  const env = process.env;
  const out: ProviderConfig = {
    apiUrl: configured.apiUrl ?? env.GITBOOK_API_URL ?? DEFAULT_API_URL,
    openApiWaitSeconds: configured.openApiWaitSeconds ?? num(env.GITBOOK_OPENAPI_WAIT_SECONDS) ?? 300,
    requestTimeoutSeconds: configured.requestTimeoutSeconds ?? num(env.GITBOOK_REQUEST_TIMEOUT_SECONDS) ?? 30,
  };
  const token = configured.token ?? env.GITBOOK_TOKEN;
  if (token) out.token = token;
  const org = configured.organizationId ?? env.GITBOOK_ORGANIZATION_ID;
  if (org) out.organizationId = org;
  return out;
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

/** One client (one keep-alive pool, one list cache) per API URL and token, for the life of the process. */
export function getClient(): GitbookClient {
  const cfg = currentConfig();
  if (!cfg.token) throw new MissingTokenError();
  const key = `${cfg.apiUrl}\u0000${cfg.token}`;
  let c = clients.get(key);
  if (!c) {
    c = new GitbookClient({ token: cfg.token, apiUrl: cfg.apiUrl, timeoutMs: cfg.requestTimeoutSeconds * 1000, ...clientOverrides });
    clients.set(key, c);
  }
  return c;
}

/** For tests and benchmarks: options every new client gets (fast retries, an attempt hook). */
export function setClientOverrides(o: Partial<ClientOptions>): void {
  clientOverrides = o;
  resetClients();
}

/** Drops cached clients and provider config (tests use a fresh emulator per suite). */
export function resetClients(): void {
  for (const c of clients.values()) void c.close();
  clients.clear();
}

export function resetConfig(): void {
  configured = {};
  resetClients();
}
