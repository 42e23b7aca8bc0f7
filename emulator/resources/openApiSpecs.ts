// OpenAPI specs and their versions, with a fake processor: a spec answers "pending" for a number
// of GETs after each POST/PUT (store.settings.openApiProcessingReads), then its outcome. The spec's
// processing states are pending, progress and complete: a processing that failed is `complete`
// with `lastProcessErrorCode` (and `lastProcessedErrors`) saying why, its last version unchanged.
import { checkString, created, deleted, fail, invalid, LIMITS, list, notFound, obj, ok, oneOf, required, str, validate, type Router } from "../http";
import { OPENAPI_VISIBILITIES, type OpenApiProcessErrorCode, type OpenApiSource, type OpenApiSpecRecord, type OpenApiVersionRecord } from "../store";
import { apiUrl, APP, child, compact, getOrg, now, ORG, type Ctx, type Env } from "./resource";

const SPEC = `${ORG}/openapi/:slug`;

function getSpec(c: Ctx): OpenApiSpecRecord {
  const org = getOrg(c);
  return c.store.findOpenApiSpec(org.id, c.params.slug!) ?? notFound("OpenAPI spec", c.params.slug!);
}

function startProcessing(spec: OpenApiSpecRecord, source: OpenApiSource): void {
  spec.source = source;
  spec.updatedAt = now();
  spec.processingState = "pending";
  spec.pendingReads = 0;
  delete spec.lastProcessErrorCode;
  delete spec.lastProcessedErrors;
}

/**
 * What processing a source ends with: text must look like OpenAPI or Swagger; a URL is fetched over
 * http(s) only, and the host invalid.example never answers.
 */
function processingError(source: OpenApiSource): { code: OpenApiProcessErrorCode; message: string } | undefined {
  if ("text" in source) {
    return /openapi|swagger/i.test(source.text) ? undefined : { code: "PARSE_ERROR", message: "The document is neither an OpenAPI nor a Swagger specification." };
  }
  const url = new URL(source.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") return { code: "FETCH_ERROR", message: `Cannot fetch ${url.protocol} URLs.` };
  if (url.hostname === "invalid.example") return { code: "FETCH_ERROR", message: `Could not fetch ${source.url}.` };
  return undefined;
}

/**
 * One GET of a spec is one tick of the fake processor: while pending, the first
 * `openApiProcessingReads` GETs answer "pending", the next one the outcome.
 */
function observeSpec(c: Ctx, spec: OpenApiSpecRecord): void {
  // Pending with an error code (set by a test): a failed attempt that only a new source restarts here.
  if (spec.processingState !== "pending" || spec.frozen || spec.lastProcessErrorCode) return;
  if (spec.pendingReads < c.store.settings.openApiProcessingReads) {
    spec.pendingReads++;
    return;
  }
  const source = spec.source;
  const failure = processingError(source);
  spec.processingState = "complete";
  if (failure) {
    // lastVersion keeps naming the last version that processed.
    spec.lastProcessErrorCode = failure.code;
    spec.lastProcessedErrors = [{ message: failure.message, code: failure.code }];
    spec.lastProcessedAt = now();
    return;
  }
  const v = c.store.newId("oasv");
  const url =
    "url" in source ? source.url : `https://api.gitbook.com/openapi/projects/${spec.orgId}/${spec.slug}/versions/${v.id}/openapi.json`;
  c.store.openApiVersions.set(v.id, { ...v, specId: spec.id, url, ...("text" in source ? { text: source.text } : {}) });
  spec.lastVersionId = v.id;
  spec.lastProcessedAt = v.createdAt;
}

function parseSource(raw: Record<string, unknown>): OpenApiSource {
  const hasUrl = raw.url !== undefined;
  const hasText = raw.text !== undefined;
  if (hasUrl === hasText) invalid("source", "must be either {url} or {text}");
  if (hasUrl) return { url: checkString("source.url", raw.url, LIMITS.openApiSourceURL) };
  return { text: checkString("source.text", raw.text, LIMITS.openApiSourceText) };
}

function getVersion(c: Ctx, spec: OpenApiSpecRecord) {
  const id = c.params.version === undefined ? spec.lastVersionId : c.params.version;
  const v = id === undefined ? undefined : child(c.store.openApiVersions, id, (x) => x.specId === spec.id);
  return v ?? notFound("OpenAPI spec version", id ?? "latest");
}

export function openApiSpecView(e: Env, s: OpenApiSpecRecord) {
  return compact({
    object: "openapi-spec",
    id: s.id,
    slug: s.slug,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    sourceURL: "url" in s.source ? s.source.url : undefined,
    processingState: s.processingState,
    visibility: s.visibility,
    lastVersion: s.lastVersionId,
    lastProcessedAt: s.lastProcessedAt,
    lastProcessErrorCode: s.lastProcessErrorCode,
    lastProcessedErrors: s.lastProcessedErrors,
    lastProcessedErrorCount: s.lastProcessedErrors?.length ?? 0,
    permissions: { view: true, edit: true },
    urls: compact({
      location: apiUrl(e, `/orgs/${s.orgId}/openapi/${s.slug}`),
      app: `${APP}/o/${s.orgId}/openapi/${s.slug}`,
      // Only a public spec is published.
      published: s.visibility === "public" ? `https://api.gitbook.com/openapi/projects/${s.orgId}/${s.slug}` : undefined,
    }),
  });
}

export function openApiVersionView(e: Env, spec: OpenApiSpecRecord, v: OpenApiVersionRecord) {
  return {
    object: "openapi-spec-version",
    id: v.id,
    createdAt: v.createdAt,
    url: v.url,
    urls: { location: apiUrl(e, `/orgs/${spec.orgId}/openapi/${spec.slug}/versions/${v.id}`) },
  };
}

/** A version's content: where its document is, and its public URL only while the spec is public. */
function openApiContentView(spec: OpenApiSpecRecord, v: OpenApiVersionRecord) {
  return { filesystem: {}, urls: { source: v.url, public: spec.visibility === "public" ? v.url : null } };
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${ORG}/openapi`, (c) => {
    const org = getOrg(c);
    return list(
      c.query,
      [...c.store.openApiSpecs.values()].filter((s) => s.orgId === org.id),
      (s) => openApiSpecView(c, s),
    );
  });

  r.add("POST", `${ORG}/openapi`, (c) => {
    const org = getOrg(c);
    const b = validate(c.body, { slug: required(str(LIMITS.openApiSlug)), source: required(obj()) });
    const source = parseSource(b.source);
    if (c.store.findOpenApiSpec(org.id, b.slug)) fail(409, `slug: an OpenAPI spec "${b.slug}" already exists in this organization`);
    const base = c.store.newId("oas");
    const spec: OpenApiSpecRecord = {
      ...base,
      orgId: org.id,
      slug: b.slug,
      source,
      updatedAt: base.createdAt,
      visibility: "private",
      processingState: "pending",
      pendingReads: 0,
    };
    startProcessing(spec, source);
    c.store.openApiSpecs.set(spec.id, spec);
    return created(openApiSpecView(c, spec));
  });

  r.add("GET", SPEC, (c) => {
    const spec = getSpec(c);
    observeSpec(c, spec);
    return ok(openApiSpecView(c, spec));
  });

  // Upsert: 201 when it created the spec, 200 when it updated one.
  r.add("PUT", SPEC, (c) => {
    const org = getOrg(c);
    const slug = checkString("slug", c.params.slug, LIMITS.openApiSlug);
    const b = validate(c.body, { source: required(obj()) });
    const source = parseSource(b.source);
    let spec = c.store.findOpenApiSpec(org.id, slug);
    const isNew = !spec;
    if (!spec) {
      const base = c.store.newId("oas");
      spec = { ...base, orgId: org.id, slug, source, updatedAt: base.createdAt, visibility: "private", processingState: "pending", pendingReads: 0 };
      c.store.openApiSpecs.set(spec.id, spec);
    }
    startProcessing(spec, source);
    return (isNew ? created : ok)(openApiSpecView(c, spec));
  });

  r.add("PATCH", SPEC, (c) => {
    const spec = getSpec(c);
    const b = validate(c.body, { visibility: required(oneOf(OPENAPI_VISIBILITIES)) });
    spec.visibility = b.visibility;
    spec.updatedAt = now();
    return ok(openApiSpecView(c, spec));
  });

  r.add("DELETE", SPEC, (c) => {
    const org = getOrg(c);
    const spec = c.store.findOpenApiSpec(org.id, c.params.slug!);
    return deleted(spec !== undefined && c.store.deleteOpenApiSpec(spec.id));
  });

  r.add("GET", `${SPEC}/versions`, (c) => {
    const spec = getSpec(c);
    return list(
      c.query,
      [...c.store.openApiVersions.values()].filter((v) => v.specId === spec.id),
      (v) => openApiVersionView(c, spec, v),
    );
  });
  // "latest" routes come first: the router takes the first match.
  r.add("GET", `${SPEC}/versions/latest`, (c) => {
    const spec = getSpec(c);
    return ok(openApiVersionView(c, spec, getVersion(c, spec)));
  });
  r.add("GET", `${SPEC}/versions/latest/content`, (c) => {
    const spec = getSpec(c);
    return ok(openApiContentView(spec, getVersion(c, spec)));
  });
  // The text as uploaded. A URL source's document is fetched by GitBook, which the emulator never does: none.
  r.add("GET", `${SPEC}/versions/latest/content/raw`, (c) => {
    const spec = getSpec(c);
    const v = getVersion(c, spec);
    if (v.text === undefined) notFound("OpenAPI spec raw content", v.id);
    return ok({ text: v.text, format: /^\s*[{[]/.test(v.text) ? "json" : "yaml" });
  });
  r.add("GET", `${SPEC}/versions/:version`, (c) => {
    const spec = getSpec(c);
    return ok(openApiVersionView(c, spec, getVersion(c, spec)));
  });
  r.add("GET", `${SPEC}/versions/:version/content`, (c) => {
    const spec = getSpec(c);
    return ok(openApiContentView(spec, getVersion(c, spec)));
  });
}
