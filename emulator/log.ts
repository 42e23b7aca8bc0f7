/** Selects requests by method and route. Shared by the request log and the faults. */
export interface RouteFilter {
  /** Case-insensitive HTTP method. */
  method?: string;
  /**
   * A string must equal the route template (e.g. "/v1/orgs/:org/sites") or the concrete path;
   * a RegExp matches if it matches either of them.
   */
  route?: string | RegExp;
}

/** Route recorded for requests that matched no route. */
export const UNKNOWN_ROUTE = "*";

export function matchesFilter(filter: RouteFilter | undefined, method: string, route: string, path: string): boolean {
  if (!filter) return true;
  if (filter.method !== undefined && filter.method.toUpperCase() !== method.toUpperCase()) return false;
  const r = filter.route;
  if (r === undefined) return true;
  if (typeof r === "string") return r === route || r === path;
  r.lastIndex = 0;
  if (r.test(route)) return true;
  r.lastIndex = 0;
  return r.test(path);
}

export interface LogEntry {
  method: string;
  /** Route template, e.g. "/v1/orgs/:org/sites/:site/sections"; "*" when no route matched. */
  route: string;
  path: string;
  /** 0 when the socket was dropped without a response. */
  status: number;
  /** Time from request arrival to response (or drop), injected latency included. */
  ms: number;
}

export class RequestLog {
  readonly entries: LogEntry[] = [];
  private readonly listeners = new Set<(entry: LogEntry) => void>();

  /** Entries are recorded before the response is written, so a client that got its answer always finds its entry. */
  record(entry: LogEntry): void {
    this.entries.push(entry);
    for (const listener of this.listeners) listener(entry);
  }

  /** Calls `listener` with each entry as it is recorded (e.g. to print requests as they arrive); returns the unsubscribe function. */
  onRecord(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  count(filter?: RouteFilter): number {
    return this.entries.filter((e) => matchesFilter(filter, e.method, e.route, e.path)).length;
  }

  /** Number of non-GET requests (faulted ones included). */
  writes(): number {
    return this.entries.filter((e) => e.method !== "GET").length;
  }

  /** Counts keyed "METHOD route", e.g. "POST /v1/orgs/:org/sites". */
  byRoute(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const e of this.entries) {
      const key = `${e.method} ${e.route}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }

  reset(): void {
    this.entries.length = 0;
  }
}
