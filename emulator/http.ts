// The three shared helpers of the emulator: errors, validation (driven by LIMITS) and
// list paging, plus the route-template router. Handlers never format errors or pages
// themselves.

// ---------------------------------------------------------------- errors

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** GitBook's error body shape, which the public spec leaves out. */
export function errorBody(status: number, message: string): { error: { code: number; message: string } } {
  return { error: { code: status, message } };
}

export function fail(status: number, message: string): never {
  throw new ApiError(status, message);
}

export function notFound(what: string, id: string): never {
  return fail(404, `${what} "${id}" not found`);
}

export function invalid(field: string, problem: string): never {
  return fail(400, `${field}: ${problem}`);
}

// ---------------------------------------------------------------- replies

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
/** GitBook answers 205 when a DELETE removed something and 204 when there was nothing to remove. */
export const deleted = (existed: boolean): Reply => ({ status: existed ? 205 : 204 });

// ---------------------------------------------------------------- limits table

export interface StringLimit {
  min?: number;
  max: number;
  pattern?: RegExp;
  /** Must be an absolute URI of any scheme, as the spec's `format: uri` says. */
  uri?: boolean;
}

/**
 * The Limits table of the API spec, as far as it concerns the emulated routes. Every
 * string length/pattern check goes through here; the table in limits.test.ts restates
 * the numbers independently so a wrong entry here makes a test fail.
 */
export const LIMITS = {
  siteTitle: { min: 2, max: 128 },
  siteBasename: { min: 1, max: 100 },
  // The proxy is given without a scheme: host then at least one path segment.
  siteProxy: { max: 512, pattern: /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/ },
  sectionTitle: { min: 2, max: 128 },
  sectionDescription: { max: 256 },
  /** Section and section-group icons (icon names). */
  icon: { max: 50 },
  /** Section and site space paths. */
  path: { min: 1, max: 100 },
  /** The spec's Expression: an empty one is allowed. */
  condition: { max: 1024 },
  shareLinkName: { max: 50 },
  teamTitle: { min: 1, max: 64 },
  samlLabel: { min: 1, max: 30 },
  samlEntityID: { max: 1024 },
  samlCertificate: { max: 10000 },
  samlSsoURL: { max: 2048, uri: true },
  openApiSlug: { min: 1, max: 100, pattern: /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/ },
  openApiSourceURL: { max: 2048, uri: true },
  /** Not in the spec's table: an inline spec text must be non-empty; the cap is the emulator's. */
  openApiSourceText: { min: 1, max: 5_000_000 },
  spaceTitle: { max: 50 },
  // The spec's `format: emoji` ("Unicode codepoint or character of the emoji"): one emoji, or its
  // codepoints in hex joined by "-" (e.g. 1f469-200d-1f4bb).
  emoji: { max: 50, pattern: new RegExp("^(?:\\p{RGI_Emoji}|[0-9a-fA-F]{2,6}(?:-[0-9a-fA-F]{2,6})*)$", "v") },
  spaceIcon: { max: 2048, uri: true },
  collectionTitle: { max: 50 },
  collectionDescription: { max: 100 },
  sectionGroupTitle: { min: 1, max: 100 },
  /** An external link's destination (the spec's URL: `format: uri`; see externalLinks.ts for the http(s) rule). */
  externalLinkUrl: { max: 2048, uri: true },
  /** The spec's SiteRedirectSourcePath: a path of the site, optionally ending in a wildcard (`/*` or `*`). */
  redirectSource: { max: 512, pattern: /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/ },
  /** The spec's SiteHostname: a DNS name of at least three labels, lowercase (e.g. docs.acme.test). */
  siteHostname: { max: 512, pattern: /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/ },
  /** A redirect's external destination (the spec's URL). */
  redirectUrl: { max: 2048, uri: true },
} satisfies Record<string, StringLimit>;

/**
 * `limit` query parameter of every list: max from the spec, default and min are GitBook's observed
 * behaviour (the spec allows 0, GitBook answers 400). The spec types it as a number, not an integer:
 * a fraction is taken down to whole items.
 */
export const LIST_LIMIT = { min: 1, max: 1000, default: 50 };

// ---------------------------------------------------------------- validation

/** Checks one string value against a limit; `field` is the name reported in the 400 message. */
export function checkString(field: string, value: unknown, limit?: StringLimit): string {
  if (typeof value !== "string") invalid(field, "must be a string");
  if (!limit) return value;
  const { min = 0, max } = limit;
  // JSON Schema's minLength and maxLength count characters (code points), not UTF-16 units: 🎉 is one.
  const length = [...value].length;
  if (length < min || length > max) {
    invalid(field, min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`);
  }
  if (limit.pattern && !limit.pattern.test(value)) invalid(field, `must match the pattern ${limit.pattern.source}`);
  if (limit.uri && !isUri(value)) invalid(field, "must be an absolute URI");
  return value;
}

/** A scheme, then what the URL parser accepts: the spec's `format: uri` (RFC 3986), as near as the parser gets. */
export function isUri(value: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value) || /\s/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

type Flags = { required?: boolean; nullable?: boolean };
export type FieldSpec = Flags &
  (
    | { kind: "string"; limit?: StringLimit }
    | { kind: "enum"; values: readonly string[] }
    | { kind: "boolean" }
    | { kind: "stringArray" }
    | { kind: "object" }
  );
export type BodySchema = Record<string, FieldSpec>;

type BaseType<F> = F extends { kind: "string" }
  ? string
  : F extends { kind: "enum"; values: readonly (infer V)[] }
    ? V
    : F extends { kind: "boolean" }
      ? boolean
      : F extends { kind: "stringArray" }
        ? string[]
        : F extends { kind: "object" }
          ? Record<string, unknown>
          : never;
type ValueType<F> = BaseType<F> | (F extends { nullable: true } ? null : never);
type Simplify<T> = { [K in keyof T]: T[K] };
/** Validated body: required fields present; optional ones may be absent (undefined = leave unchanged). */
export type Infer<S extends BodySchema> = Simplify<
  { [K in keyof S as S[K] extends { required: true } ? K : never]: ValueType<S[K]> } & {
    [K in keyof S as S[K] extends { required: true } ? never : K]?: ValueType<S[K]>;
  }
>;

export const str = (limit?: StringLimit) => ({ kind: "string" as const, limit });
export const oneOf = <V extends string>(values: readonly V[]) => ({ kind: "enum" as const, values });
export const bool = () => ({ kind: "boolean" as const });
export const strArray = () => ({ kind: "stringArray" as const });
export const obj = () => ({ kind: "object" as const });
export const required = <F extends FieldSpec>(f: F) => ({ ...f, required: true as const });
/** `null` is accepted and means "remove" (condition, icon, description, proxy, section title, ...). */
export const nullable = <F extends FieldSpec>(f: F) => ({ ...f, nullable: true as const });

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Validates a JSON body against a schema. Unknown fields are ignored (as GitBook does);
 * `undefined` and absent are the same; the first problem found is reported. `prefix`
 * names nested objects in messages (e.g. "adaptiveContent.").
 */
export function validate<S extends BodySchema>(body: unknown, schema: S, prefix = ""): Infer<S> {
  if (!isPlainObject(body)) invalid(prefix ? prefix.replace(/\.$/, "") : "body", "must be a JSON object");
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema)) {
    const field = prefix + name;
    const value = body[name];
    if (value === undefined) {
      if (spec.required) invalid(field, "is required");
      continue;
    }
    if (value === null) {
      if (!spec.nullable) invalid(field, spec.kind === "string" ? "must be a string" : "must not be null");
      out[name] = null;
      continue;
    }
    out[name] = checkField(field, value, spec);
  }
  return out as Infer<S>;
}

function checkField(field: string, value: unknown, spec: FieldSpec): unknown {
  switch (spec.kind) {
    case "string":
      return checkString(field, value, spec.limit);
    case "enum":
      if (typeof value !== "string" || !spec.values.includes(value)) invalid(field, `must be one of ${spec.values.join(", ")}`);
      return value;
    case "boolean":
      if (typeof value !== "boolean") invalid(field, "must be a boolean");
      return value;
    case "stringArray":
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) invalid(field, "must be an array of strings");
      return value;
    case "object":
      if (!isPlainObject(value)) invalid(field, "must be an object");
      return value;
  }
}

/** Boolean query parameter ("true"/"false"); undefined when absent. */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (v === "true") return true;
  if (v === "false") return false;
  return invalid(name, "must be true or false");
}

// ---------------------------------------------------------------- lists

export interface ListEnvelope<R> {
  items: R[];
  /** Total number of matching results across all pages. */
  count: number;
  next?: { page: string };
}

/**
 * The one paging helper. Cursors are opaque (base64url JSON holding the sort key of the last item
 * served), so deleting items between two page fetches neither skips nor repeats the others. `records`
 * must already be filtered; they are served by creation order (`seq`), or by the sort key `keyOf`
 * gives (numbers compared in turn, e.g. a section's place in its site's structure).
 */
export function paginate<T extends { seq: number }, R>(
  query: URLSearchParams,
  records: T[],
  render: (t: T) => R,
  keyOf: (t: T) => number[] = (t) => [t.seq],
): ListEnvelope<R> {
  const limit = parseLimit(query.get("limit"));
  const after = parseCursor(query.get("page"));
  const keyed = records.map((r) => ({ r, key: keyOf(r) })).sort((a, b) => compareKeys(a.key, b.key));
  const rest = after === undefined ? keyed : keyed.filter((k) => compareKeys(k.key, after) > 0);
  const page = rest.slice(0, limit);
  const env: ListEnvelope<R> = { items: page.map((k) => render(k.r)), count: keyed.length };
  if (rest.length > limit) env.next = { page: encodeCursor(page[page.length - 1]!.key) };
  return env;
}

export const list = <T extends { seq: number }, R>(query: URLSearchParams, records: T[], render: (t: T) => R, keyOf?: (t: T) => number[]): Reply =>
  ok(paginate(query, records, render, keyOf));

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function parseLimit(raw: string | null): number {
  if (raw === null) return LIST_LIMIT.default;
  const n = Math.floor(Number(raw));
  if (raw.trim() === "" || !Number.isFinite(n) || n < LIST_LIMIT.min || n > LIST_LIMIT.max) {
    invalid("limit", `must be a number from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`);
  }
  return n;
}

function encodeCursor(key: number[]): string {
  return Buffer.from(JSON.stringify({ after: key })).toString("base64url");
}

function parseCursor(raw: string | null): number[] | undefined {
  if (raw === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (isPlainObject(parsed) && Array.isArray(parsed.after) && parsed.after.length > 0 && parsed.after.every((n) => Number.isInteger(n))) return parsed.after as number[];
  } catch {
    // fall through to the 400 below
  }
  return invalid("page", "is not a page token returned by this list");
}

// ---------------------------------------------------------------- router

export interface RouteMatch<C> {
  template: string;
  params: Record<string, string>;
  handler: (ctx: C) => Reply;
}

interface RouteDef<C> {
  method: string;
  template: string;
  regex: RegExp;
  keys: string[];
  handler: (ctx: C) => Reply;
}

/** Matches paths against templates such as "/v1/orgs/:org/sites/:site"; first added wins. */
export class Router<C> {
  private readonly routes: RouteDef<C>[] = [];

  add(method: string, template: string, handler: (ctx: C) => Reply): this {
    const keys: string[] = [];
    const source = template
      .split("/")
      .map((seg) => {
        if (seg.startsWith(":")) {
          keys.push(seg.slice(1));
          return "([^/]+)";
        }
        return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    this.routes.push({ method, template, regex: new RegExp(`^${source}/?$`), keys, handler });
    return this;
  }

  match(method: string, path: string): RouteMatch<C> | undefined {
    for (const r of this.routes) {
      if (r.method !== method) continue;
      const m = r.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      try {
        r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1]!)));
      } catch {
        continue; // malformed percent-encoding: treat as no match
      }
      return { template: r.template, params, handler: r.handler };
    }
    return undefined;
  }

  templates(): string[] {
    return this.routes.map((r) => `${r.method} ${r.template}`);
  }
}
