/**
 * OpenApiSpec: an OpenAPI document GitBook turns into API reference pages, addressed by its slug.
 *
 * The source is a URL GitBook fetches, a file the provider reads when it sends the source, or the
 * document's text. Pulumi keeps every input in state, so a text source lands there whole; a file
 * source puts only its path and SHA-256 there (the hash is computed at check, so editing the file
 * shows as a change in preview). The diff compares documents by their hash, whichever form holds
 * them, so moving a document from `text` to a file with the same content changes nothing.
 *
 * GitBook processes a source asynchronously. Create and update wait for the outcome, up to
 * `gitbook:openApiWaitSeconds`; a failed or unfinished processing keeps the spec in state and fails
 * the step with the reason. A spec whose last processing failed diffs as a changed source, so the
 * next `up` sends the source again (e.g. once the document behind the URL is fixed). So does one
 * whose last version is not the one recorded: a document uploaded in the app, which refresh shows.
 *
 * GitBook's processing states are `pending`, `progress` and `complete`; none says "failed". A failed
 * processing carries `lastProcessErrorCode` (FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR), whether the
 * state is then `complete` or still `pending`.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { ConflictError, p, apiObject } from "../client";
import { isUnknown } from "../framework/check";
import { claimsOf } from "../framework/claims";
import { defineResource, resourceClass, type Inputs, type Outputs, type Lookalikes } from "../framework/define";
import { field, httpUrl, organizationIdField, text, wireShape } from "../framework/fields";
import { refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import { PartialFailure } from "../framework/failure";
import { getOrUndefined } from "../framework/lists";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import { count, defined, mapLimit, type Discovery, type ImportRead } from "../framework/discover";

// ---- Schema --------------------------------------------------------------------------------------

// GitBook's OpenAPISpecSlug: capitals allowed, so a spec made in the app or by another tool as `Payments-API` can be declared and adopted.
export const SLUG_PATTERN = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;

const inputs = z.object({
  organizationId: organizationIdField,
  slug: text({ min: 1, max: 100, pattern: SLUG_PATTERN, patternHint: "letters and digits in words joined by single hyphens, e.g. payments-api" }).describe(
    "Identifier of the spec in the organization and in its URLs, 1 to 100 characters of letters and digits in words joined by single hyphens. Changing it replaces the spec.",
  )
    // A new slug or organization is a new spec. Neither replacement collides with the old spec (the
    // slug is unique per organization, and one of the two differs), so the new one is created first.
    .register(field, { change: "replace" }),
  source: z
    .looseObject(
      {
        url: httpUrl(2048).optional().describe("Public http(s) URL GitBook fetches the document from, at most 2048 characters."),
        file: z
          .string({ error: "must be a string" })
          .min(1, "must not be empty")
          .optional()
          .describe(
            "Path of a file holding the document (YAML or JSON), relative to the program's working directory (the folder of the project's `main`, or of Pulumi.yaml without one: where `fs.readFileSync` in the program resolves it too), or absolute. The provider reads it at check, where a file it cannot read fails `preview` naming this field, and reads it again when it sends the source. State keeps only the path and the SHA-256 of the content; editing the file shows as a change.",
          ),
        text: z
          .string({ error: "must be a string" })
          .min(1, "must not be empty")
          .optional()
          .describe(
            "The document itself (YAML or JSON). Pulumi keeps every input in state, so the whole text is stored there, unencrypted, in the resource's inputs (the outputs keep only its SHA-256). Use `file` (or `url`) to keep the document out of state.",
          ),
      },
      { error: "must be an object {url}, {file} or {text}" },
    )
    // One message per mistake: a strict object would also report a misspelt key as "none of url, file or text".
    .superRefine((s, ctx) => {
      // `sha256` is what check adds to a file source; given with one, it is recomputed.
      const unknown = Object.keys(s).filter((k) => k !== "url" && k !== "text" && k !== "file" && !(k === "sha256" && s.file !== undefined));
      if (unknown.length) ctx.addIssue({ code: "custom", message: `has unknown field(s) ${unknown.join(", ")}: use url, file or text` });
      else if ([s.url, s.file, s.text].filter((v) => v !== undefined).length !== 1) ctx.addIssue({ code: "custom", message: "must set exactly one of url, file or text" });
    })
    .describe(
      "Where the OpenAPI document comes from: `{url}` (GitBook fetches it), `{file}` (the provider reads it; state keeps its path and hash) or `{text}` (state keeps the whole text in the inputs). A changed URL, or a changed document in a file or text, sends the source again and waits for processing; the same document moved between `file` and `text` changes nothing. A document uploaded in the app (GitBook's last version is not the one this provider made) shows as drift at refresh, and the next `up` sends the declared source again.",
    )
    // Sent with PUT, then processing is awaited.
    .register(field, { change: "custom" }),
  visibility: z
    .enum(["private", "public"], { error: "must be private or public" })
    .optional()
    .describe(
      "`private` (members only) or `public` (anyone with the public link). Managed only when declared: a spec created without it is `private`, an adopted spec keeps its own, and removing it leaves the current value. The output is always the spec's actual visibility.",
    )
    .register(field, { change: "custom", live: true }),
});

const storedSourceSchema = z
  .union([
    z.object({ url: z.string() }),
    z.object({ textSha256: z.string() }),
    z.object({ file: z.string(), sha256: z.string() }),
  ])
  .describe("`{url}`, `{file, sha256}` for a file source, or `{textSha256}` for a text source: never the document itself.");

const outputs = z.object({
  source: storedSourceSchema,
  visibility: z.string().describe("The spec's actual visibility: `private` or `public` (or a value GitBook added since)."),
  processingState: z
    .string()
    .describe("Where GitBook is in processing the last source sent: `pending`, `progress` or `complete`. A processing that failed is `complete` (or left `pending`) with `lastProcessErrorCode` set."),
  lastVersion: z.string().optional().describe("ID of the latest successfully processed version."),
  lastProcessedAt: z.string().optional().describe("When the last processing finished."),
  lastProcessErrorCode: z.string().optional().describe("Why the last processing failed, when it did: `FETCH_TIMEOUT`, `FETCH_ERROR` or `PARSE_ERROR`."),
  urls: z
    .object({
      location: z.string().optional().describe("API URL of the spec."),
      app: z.string().optional().describe("URL of the spec in the GitBook app."),
      published: z.string().optional().describe("Public URL of the spec, when it is public."),
    })
    .describe("The spec's URLs."),
  createdAt: z.string().describe("When the spec was created."),
  updatedAt: z.string().describe("When the spec was last updated."),
});

/** A source as the program gives it; after check, a file source also holds its content's `sha256`. */
export type OpenApiSource = OpenApiSpecInputs["source"];
/** A source as outputs keep it: the URL, the text's hash, or the file's path and its content's hash. */
export type StoredOpenApiSource = z.output<typeof storedSourceSchema>;
export type OpenApiSpecInputs = Inputs<typeof inputs>;
export type OpenApiSpecOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Diff ----------------------------------------------------------------------------------------

/** Recorded when the live spec has a text source whose content cannot be read back: equal to no real hash. */
const TEXT_NOT_KNOWN = "unknown";

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/**
 * Whether GitBook's last processed version of the spec is not the one state recorded after the
 * source this provider sent was processed. While that processing was still under way when recorded
 * (an `up` that stopped waiting), the next version is expected to be its own.
 */
function uploadedElsewhere(spec: ApiOpenApiSpec, props: Props): boolean {
  if (props.processingState !== "complete" || typeof props.lastVersion !== "string") return false;
  return !!spec.lastVersion && spec.lastVersion !== props.lastVersion;
}

/** The source as state keeps it. */
function storedSource(source: unknown): StoredOpenApiSource {
  const s = source as Record<string, unknown>;
  return (typeof s?.text === "string" && !isUnknown(s.text) ? { textSha256: sha256(s.text) } : source) as StoredOpenApiSource;
}

/** What the diff compares: the URL, or the document's hash whichever form holds it. */
function comparableSource(source: unknown): unknown {
  if (!source || typeof source !== "object") return source;
  const s = source as Record<string, unknown>;
  if (typeof s.text === "string") return isUnknown(s.text) ? source : { sha256: sha256(s.text) };
  if (typeof s.textSha256 === "string") return { sha256: s.textSha256 };
  if (typeof s.file === "string" && typeof s.sha256 === "string") return { sha256: s.sha256 };
  return source;
}

/** Where a file source is read from: the path as given, against the working directory the program and the provider share. */
export function sourceFilePath(file: string): string {
  return path.resolve(process.cwd(), file);
}

/** The content of a file source, or why it cannot be read (naming the path and the folder it was looked for in). */
export function readSourceFile(file: string): { text: string } | { problem: string } {
  const where = sourceFilePath(file);
  const shown = path.isAbsolute(file) ? JSON.stringify(file) : `${JSON.stringify(file)} (looked for as ${where})`;
  let text: string;
  try {
    text = fs.readFileSync(where, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === "ENOENT" ? "no such file" : err.code === "EISDIR" ? "a directory, not a file" : err.code === "EACCES" ? "permission denied" : err.message;
    return { problem: `cannot read ${shown}: ${why}` };
  }
  if (text.trim() === "") return { problem: `${shown} is empty` };
  return { text };
}

/**
 * At check: a file source gets the SHA-256 of the file's content beside its path, so the inputs
 * (and state) hold the hash rather than the text, and an edited file diffs as a changed source.
 */
function prepare(inputs: Props): { inputs: Props } | { failures: { property: string; reason: string }[] } {
  const source = inputs.source as Record<string, unknown> | undefined;
  if (!source || typeof source.file !== "string" || isUnknown(source.file)) return { inputs };
  const read = readSourceFile(source.file);
  if ("problem" in read) return { failures: [{ property: "source.file", reason: `source.file ${read.problem}` }] };
  return { inputs: { ...inputs, source: { file: source.file, sha256: sha256(read.text) } } };
}

/**
 * The source as the API takes it, and as the outputs then keep it. A file is read now, when it is
 * sent; the outputs record the hash of what was sent.
 */
function apiSource(source: OpenApiSource): { body: { url: string } | { text: string }; stored: StoredOpenApiSource } {
  // Check let through exactly one of the three.
  if (source.url !== undefined) return { body: { url: source.url }, stored: { url: source.url } };
  if (source.text !== undefined) return { body: { text: source.text }, stored: { textSha256: sha256(source.text) } };
  const file = source.file!;
  const read = readSourceFile(file);
  if ("problem" in read) throw new Error(`source.file ${read.problem}`);
  return { body: { text: read.text }, stored: { file, sha256: sha256(read.text) } };
}

/** The last processing failed: it has an error code and is not running (again). */
export function processingFailed(spec: { processingState?: unknown; lastProcessErrorCode?: unknown }): boolean {
  return typeof spec.processingState === "string" && spec.processingState !== "progress" && !!spec.lastProcessErrorCode;
}

/** GitBook is still working on the source: queued or running, and not already failed. */
function processing(spec: ApiOpenApiSpec): boolean {
  return IN_FLIGHT_STATES.has(spec.processingState) && !processingFailed(spec);
}

/** What the diff compares: the document's hash whichever form holds it; a failed processing makes the next up resend the source. */
function comparable(props: Props): Props {
  const source = comparableSource(props.source);
  // Only outputs carry a processing state.
  if (processingFailed(props) && source && typeof source === "object") return { ...props, source: { ...source, lastProcessingFailed: true } };
  return { ...props, source };
}

// ---- Processing --------------------------------------------------------------------------------------

const IN_FLIGHT_STATES = new Set(["pending", "progress"]);

/** The wait after `previousMs`: doubling, capped (timing from the provider's config, see OPENAPI_POLL). */
export function nextPollDelay(previousMs: number, maxMs: number): number {
  return Math.min(previousMs * 2, maxMs);
}

/** GETs the spec until its processing leaves the in-flight states or the configured wait runs out. */
async function waitForProcessing(ctx: Ctx, org: string, slug: string, spec: ApiOpenApiSpec): Promise<ApiOpenApiSpec> {
  const deadline = Date.now() + ctx.config.openApiWaitSeconds * 1000;
  const poll = ctx.config.openApiPoll;
  let delay = poll.firstMs;
  while (processing(spec)) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await sleep(Math.min(delay, left));
    delay = nextPollDelay(delay, poll.maxMs);
    spec = await ctx.client.get(paths.openApiSpec(org, slug), { schema: ApiOpenApiSpec });
  }
  return spec;
}

/** Waits for processing; anything but success keeps the spec in state and fails the step with why. */
async function settle(ctx: Ctx, id: string, inputs: OpenApiSpecInputs, stored: StoredOpenApiSource, sent: ApiOpenApiSpec): Promise<ApiOpenApiSpec> {
  const outputsFor = (spec: ApiOpenApiSpec) => definition.outputsOf(declared(inputs), spec, { ...declared(inputs), source: stored });
  let spec: ApiOpenApiSpec;
  try {
    spec = await waitForProcessing(ctx, inputs.organizationId, inputs.slug, sent);
  } catch (e) {
    // The spec exists and has its source, whatever became of the polling: a plain error here would
    // leave a created spec out of state, and the next up would fail on its slug.
    throw new PartialFailure(id, outputsFor(sent), [
      `OpenAPI spec "${inputs.slug}" was sent but its processing could not be followed: ${(e as Error).message}`,
    ], { cause: e });
  }
  const outs = () => outputsFor(spec);
  if (processing(spec)) {
    throw new PartialFailure(id, outs(), [
      `OpenAPI spec "${inputs.slug}" is still processing (${spec.processingState}) after ${ctx.config.openApiWaitSeconds}s; it is kept in state and a later refresh shows the outcome (raise gitbook:openApiWaitSeconds to wait longer)`,
    ]);
  }
  if (processingFailed(spec)) {
    const why = spec.lastProcessedErrors?.[0]?.message;
    throw new PartialFailure(id, outs(), [
      `OpenAPI spec "${inputs.slug}" failed to process: ${spec.lastProcessErrorCode}${why ? ` (${why})` : ""}; fix the source and run up again (the source is sent again)`,
    ], { field: "source" });
  }
  return spec;
}

// ---- Wire ----------------------------------------------------------------------------------------

// What GitBook answers for this kind: loose objects (fields the API adds pass through), while a missing
// or mistyped field the kind uses fails with its name (ContractError).

export const ApiOpenApiSpec = apiObject("openapi-spec", {
  ...wireShape(inputs),
  slug: z.string(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  sourceURL: z.string().optional().nullable(),
  /** pending, progress or complete; a failed processing is one with a lastProcessErrorCode. */
  processingState: z.string(),
  lastVersion: z.string().optional().nullable(),
  lastProcessedAt: z.string().optional().nullable(),
  lastProcessErrorCode: z.string().optional().nullable(),
  lastProcessedErrors: z.array(z.looseObject({ message: z.string().optional(), code: z.string().optional() })).optional().nullable(),
});
export type ApiOpenApiSpec = z.infer<typeof ApiOpenApiSpec>;

/** The kind's API paths (the `p` tag encodes each ID as one path segment). */
export const paths = {
  openApiSpecs: (org: string) => p`/orgs/${org}/openapi`,
  openApiSpec: (org: string, slug: string) => p`/orgs/${org}/openapi/${slug}`,
};

// ---- CRUD ----------------------------------------------------------------------------------------

function lookalikes(ctx: Ctx, given: OpenApiSpecInputs): Lookalikes<ApiOpenApiSpec> {
  const { organizationId: org, slug } = given;
  return {
    kind: "OpenApiSpec",
    key: `${org}/${slug}`,
    what: `OpenAPI spec "${slug}"`,
    // The slug identifies the spec: one created since we sent, and held by no resource here (by ID or
    // slug), is the one our lost POST created.
    candidates: async () => {
      const found = await getOrUndefined(ctx.client.get(paths.openApiSpec(org, slug), { schema: ApiOpenApiSpec }));
      return found && !claimsOf(ctx.client).holds("OpenApiSpec", found.slug) ? [found] : [];
    },
    // The slug is unique, so a spec found after a lost answer is ours or was there before (and our POST
    // was refused): only the GET before, which normally answers 404, tells them apart.
    before: "list",
    createdAt: (s) => s.createdAt,
  };
}

async function create(ctx: Ctx, given: OpenApiSpecInputs): Promise<{ id: string; outs: OpenApiSpecOutputs }> {
  const { organizationId: org, slug } = given;
  const source = apiSource(given.source);
  const outputsFor = (spec: ApiOpenApiSpec) => definition.outputsOf(declared(given), spec, { ...declared(given), source: source.stored });
  let spec: ApiOpenApiSpec;
  try {
    spec = await createOnce(ctx, {
      ...lookalikes(ctx, given),
      send: () => ctx.client.post(paths.openApiSpecs(org), { body: { slug, source: source.body }, schema: ApiOpenApiSpec }),
    });
  } catch (e) {
    if (e instanceof ConflictError) {
      throw new Error(`OpenApiSpec: organization ${org} already has a spec with slug "${slug}"; set adoptId: "${slug}" to manage it, or choose another slug.`);
    }
    throw e;
  }
  const id = spec.id;
  // POST takes no visibility; the API creates specs private, so a declared public one needs a PATCH.
  if (given.visibility !== undefined && given.visibility !== (spec.visibility ?? "private")) {
    try {
      spec = await ctx.client.patch(paths.openApiSpec(org, slug), { body: { visibility: given.visibility }, schema: ApiOpenApiSpec });
    } catch (e) {
      // The outputs record the spec's actual (private) visibility, so the next up sends the declared one.
      throw new PartialFailure(id, outputsFor(spec), [
        `OpenAPI spec "${slug}" was created but its visibility could not be set: ${(e as Error).message}`,
      ], { cause: e, field: "visibility" });
    }
  }
  spec = await settle(ctx, id, given, source.stored, spec);
  return { id, outs: outputsFor(spec) };
}

async function read(ctx: Ctx, id: string, props: OpenApiSpecOutputs): Promise<OpenApiSpecOutputs | undefined> {
  const spec = await getOrUndefined(ctx.client.get(paths.openApiSpec(props.organizationId, props.slug), { schema: ApiOpenApiSpec }));
  // Another spec now holding the slug is not ours (unless the id is the slug, as after adoption by slug).
  if (!spec || (spec.id !== id && spec.slug !== id)) return undefined;
  return refreshed(definition, props, spec);
}

async function update(ctx: Ctx, id: string, olds: OpenApiSpecOutputs, news: OpenApiSpecInputs, changed: readonly string[]): Promise<OpenApiSpecOutputs> {
  const path = paths.openApiSpec(news.organizationId, news.slug);
  // A source not sent keeps what the outputs say was sent (the same document, maybe from another form).
  const source = changed.includes("source") ? apiSource(news.source) : undefined;
  const stored = source ? source.stored : storedSource(news.source);
  let spec: ApiOpenApiSpec | undefined;
  if (source) spec = await ctx.client.put(path, { body: { source: source.body }, schema: ApiOpenApiSpec });
  // A changed visibility is a declared one: an absent visibility is never a change.
  if (changed.includes("visibility")) spec = await ctx.client.patch(path, { body: { visibility: news.visibility }, schema: ApiOpenApiSpec });
  spec ??= await ctx.client.get(path, { schema: ApiOpenApiSpec });
  if (changed.includes("source")) spec = await settle(ctx, id, news, stored, spec);
  return definition.outputsOf(declared(news), spec, { ...declared(news), source: stored });
}

async function remove(ctx: Ctx, id: string, props: OpenApiSpecOutputs): Promise<void> {
  await ctx.client.delete(paths.openApiSpec(props.organizationId, props.slug));
}

// ---- Import --------------------------------------------------------------------------------------

/** What `versions/latest/content/raw` answers: the text of the spec as it was uploaded. */
const ApiOpenApiRawContent = z.looseObject({
  text: z.string().describe("The text, exactly as uploaded."),
  format: z.string().optional().describe("json or yaml."),
});

/** What `versions/latest/content` answers: where the processed document can be fetched. */
const ApiOpenApiContent = z.looseObject({
  urls: z
    .looseObject({ source: z.string().optional().describe("URL of the processed document.") })
    .optional()
    .describe("Where the version's document is."),
});

/**
 * Every spec of the organization. A spec GitBook holds by URL stays a URL: never fetched. For one
 * uploaded as text, its document as the API gives it (`versions/latest/content/raw`); the processed
 * version of an upload lives at a URL outside the API, downloaded from there only when the caller
 * allows it (`ctx.download`, the command's --fetch-spec-urls) and the API has no text for it.
 */
function importRead(): ImportRead {
  return {
    organizationWide: true,
    into: "openApiSpecs",
    async find(ctx) {
      const specs = await ctx.list(paths.openApiSpecs(ctx.organizationId), ApiOpenApiSpec);
      return mapLimit(specs, ctx.limit, async (spec) => {
        const base = {
          id: spec.id,
          slug: spec.slug,
          visibility: spec.visibility ?? "private",
          processingState: spec.processingState,
          ...defined({ createdAt: spec.createdAt, lastProcessErrorCode: spec.lastProcessErrorCode ?? undefined }),
        };
        if (spec.sourceURL) return { ...base, source: { url: spec.sourceURL } };
        return { ...base, source: { text: await processedDocument(ctx, spec) } };
      });
    },
    progress: { done: (specs) => count(specs.length, "OpenAPI spec") },
  };
}

/**
 * The document of a spec uploaded as text: its text as the API gives it. Where the API has none, its
 * last processed version lives at a URL outside the API, downloaded (without the token, which goes to
 * the API only) only when `ctx.download` is given; why not, when it cannot be had.
 */
async function processedDocument(ctx: Discovery, spec: ApiOpenApiSpec): Promise<{ document?: { content: string; format: "json" | "yaml" }; unavailable?: string }> {
  const latest = `${paths.openApiSpec(ctx.organizationId, spec.slug)}/versions/latest`;
  const raw = await getOrUndefined(ctx.get(`${latest}/content/raw`, ApiOpenApiRawContent));
  if (raw) {
    if (raw.text.trim() === "") return { unavailable: "the API gives its text empty" };
    return { document: { content: raw.text, format: raw.format === "json" || (raw.format === undefined && /^\s*[{[]/.test(raw.text)) ? "json" : "yaml" } };
  }
  const content = await getOrUndefined(ctx.get(`${latest}/content`, ApiOpenApiContent));
  if (!content) return { unavailable: "GitBook has no processed version of it" };
  const url = content.urls?.source;
  if (!url) return { unavailable: "the API gives neither its text nor a URL for its processed version" };
  if (!ctx.download) {
    return { unavailable: `the API does not give its text; its processed version is at ${JSON.stringify(url)}, outside the API: download it from there, or import again with --fetch-spec-urls` };
  }
  try {
    const text = await ctx.download(url);
    if (text.trim() === "") return { unavailable: `its processed version at ${JSON.stringify(url)} is empty` };
    return { document: { content: text, format: /^\s*[{[]/.test(text) ? "json" : "yaml" } };
  } catch (e) {
    // fetch says only "fetch failed"; the cause says why (ENOTFOUND, ECONNREFUSED, ...).
    const why = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    return { unavailable: `its processed version could not be downloaded from ${JSON.stringify(url)} (${why})` };
  }
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "OpenApiSpec",
  // A second one where these are the same collides with the first (a forced `up --replace`).
  deleteBeforeReplace: ["slug", "organizationId"],
  import: { variableSuffix: "-spec", read: importRead() },
  adoptable: "Slug or ID of an existing spec (with the same `slug`) to bring under management instead of creating it. Used only when the resource is not yet in state: the spec's source is then sent (a text source cannot be read back to compare), and its visibility changed only when declared. Once the resource is in state the field is ignored, so a change to it does nothing and a replacement creates a new spec.",
  noun: "OpenAPI spec",
  summary: "An OpenAPI document GitBook turns into API reference pages.",
  inputs,
  outputs,
  view: comparable,
  prepare,
  /** Inputs the API reports. It echoes a URL source but never a text (or file) source. */
  live: (spec: ApiOpenApiSpec, props) => {
    const recorded = props.source;
    let source: StoredOpenApiSource;
    if (spec.sourceURL) source = { url: spec.sourceURL };
    // A text or file source cannot be read back; the version GitBook made of it can. Another version
    // than the one recorded is a document sent from elsewhere (the app, another tool): its content is
    // not known, so it differs from the declared one and the next `up` sends that again.
    else if (recorded && typeof recorded === "object" && ("textSha256" in recorded || "sha256" in recorded) && !uploadedElsewhere(spec, props))
      source = recorded as StoredOpenApiSource;
    else source = { textSha256: TEXT_NOT_KNOWN };
    return { slug: spec.slug, visibility: spec.visibility ?? "private", source };
  },
  computed: (spec, props) => ({
    source: storedSource(props.source),
    visibility: spec.visibility ?? "private",
    processingState: spec.processingState,
    lastVersion: spec.lastVersion ?? undefined,
    lastProcessedAt: spec.lastProcessedAt ?? undefined,
    lastProcessErrorCode: spec.lastProcessErrorCode ?? undefined,
    urls: { ...spec.urls },
    createdAt: spec.createdAt ?? "",
    updatedAt: spec.updatedAt ?? "",
  }),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
});

/** An OpenAPI specification published through GitBook. */
export const OpenApiSpec = resourceClass(definition);
export type OpenApiSpec = InstanceType<typeof OpenApiSpec>;
export type OpenApiSpecArgs = ConstructorParameters<typeof OpenApiSpec>[1];
