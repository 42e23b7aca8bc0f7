/**
 * OpenApiSpec: an OpenAPI document GitBook turns into API reference pages, addressed by its slug.
 *
 * The source is a URL GitBook fetches, or the document's text (typically read from a file in the
 * program's repository). A text source is kept out of the outputs: they hold its SHA-256, and the
 * diff hashes the program's text to compare, so editing the file updates the spec.
 *
 * GitBook processes a source asynchronously. Create and update wait for the outcome, up to
 * `gitbook:openApiWaitSeconds`; a failed or unfinished processing keeps the spec in state and fails
 * the step with the reason. A spec whose last processing failed diffs as a changed source, so the
 * next `up` sends the source again (e.g. once the document behind the URL is fixed).
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiOpenApiSpec, ConflictError, p } from "../client";
import { adoptIdField, httpUrl, isUnknown, organizationIdField, text } from "../framework/check";
import { changedFields, type DiffRules } from "../framework/diff";
import {
  createdSince,
  createOnce,
  declared,
  getOrUndefined,
  PartialFailure,
  refreshDeclared,
  resourceProps,
  type Ctx,
  type Props,
  type ResourceDef,
} from "../framework/resource";
import { providerFor } from "../shim";

// ---- Types ---------------------------------------------------------------------------------------

export type OpenApiSource = { url: string } | { text: string };
/** A source as outputs keep it: the URL, or the text's hash. */
export type StoredOpenApiSource = { url: string } | { textSha256: string };

export type OpenApiSpecInputs = {
  organizationId: string;
  slug: string;
  source: OpenApiSource;
  visibility: "private" | "public";
  adoptId?: string;
};

export type OpenApiSpecOutputs = Omit<OpenApiSpecInputs, "source"> & {
  source: StoredOpenApiSource;
  processingState: string;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: string;
  urls: { location?: string; app?: string; published?: string };
  createdAt: string;
  updatedAt: string;
};

// ---- Schema --------------------------------------------------------------------------------------

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const openApiSpecSchema = z.object({
  organizationId: organizationIdField,
  slug: text({ min: 1, max: 100, pattern: SLUG_PATTERN, patternHint: "lower-case letters and digits in words joined by single hyphens, e.g. payments-api" }).describe(
    "Identifier of the spec in the organization and in its URLs, 1 to 100 characters of lower-case letters and digits in words joined by single hyphens. Changing it replaces the spec.",
  ),
  source: z
    .looseObject(
      {
        url: httpUrl(2048).optional().describe("Public http(s) URL GitBook fetches the document from, at most 2048 characters."),
        text: z
          .string({ error: "must be a string" })
          .min(1, "must not be empty")
          .optional()
          .describe("The document itself (YAML or JSON), e.g. `fs.readFileSync(\"openapi.yaml\", \"utf8\")`. State keeps only its SHA-256."),
      },
      { error: "must be an object {url} or {text}" },
    )
    // One message per mistake: a strict object would also report a misspelt key as "neither url nor text".
    .superRefine((s, ctx) => {
      const unknown = Object.keys(s).filter((k) => k !== "url" && k !== "text");
      if (unknown.length) ctx.addIssue({ code: "custom", message: `has unknown field(s) ${unknown.join(", ")}: use url or text` });
      else if ((s.url === undefined) === (s.text === undefined)) ctx.addIssue({ code: "custom", message: "must set exactly one of url or text" });
    })
    .describe("Where the OpenAPI document comes from: `{url}` or `{text}`. Changing it (or the text) sends the new source and waits for processing."),
  visibility: z
    .enum(["private", "public"], { error: "must be private or public" })
    .default("private")
    .describe("`private` (members only) or `public` (anyone with the public link). Defaults to `private`; removing it returns the spec to `private`."),
  adoptId: adoptIdField.describe(
    "Slug or ID of an existing spec (with the same `slug`) to bring under management instead of creating it; its source and visibility are then converged to the program. Later changes to this field are ignored.",
  ),
});

// ---- Diff rules ----------------------------------------------------------------------------------

/** Recorded when the live spec has a text source whose content cannot be read back: equal to no real hash. */
const TEXT_NOT_KNOWN = "unknown";

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/** The source as state keeps it. */
function storedSource(source: unknown): unknown {
  if (!source || typeof source !== "object") return source;
  const s = source as Record<string, unknown>;
  return typeof s.text === "string" && !isUnknown(s.text) ? { textSha256: sha256(s.text) } : source;
}

function processingFailed(spec: { processingState?: unknown; lastProcessErrorCode?: unknown }): boolean {
  const state = spec.processingState;
  if (typeof state !== "string") return false;
  return FAILED_STATES.has(state) || (!IN_FLIGHT_STATES.has(state) && state !== "complete" && !!spec.lastProcessErrorCode);
}

export const openApiSpecDiff: DiffRules = {
  fields: ["organizationId", "slug", "source", "visibility"],
  // A new slug or organization is a new spec. Neither replacement collides with the old spec (the
  // slug is unique per organization, and one of the two differs), so the new one is created first.
  replaceOn: ["organizationId", "slug"],
  view: (props) => {
    const source = storedSource(props.source);
    // Only outputs carry a processing state: a failed one makes the next up resend the source.
    if (processingFailed(props) && source && typeof source === "object") return { ...props, source: { ...source, lastProcessingFailed: true } };
    return { ...props, source };
  },
};

// ---- Processing --------------------------------------------------------------------------------------

const IN_FLIGHT_STATES = new Set(["pending", "in-progress", "progress", "processing"]);
const FAILED_STATES = new Set(["failed", "error", "errored"]);

/** Poll intervals while waiting for processing: small first, doubling, capped. Tests shorten them. */
export const processingPoll = { firstMs: 250, maxMs: 5_000 };

export function nextPollDelay(previousMs: number): number {
  return Math.min(previousMs * 2, processingPoll.maxMs);
}

/** GETs the spec until its processing leaves the in-flight states or the configured wait runs out. */
async function waitForProcessing(ctx: Ctx, org: string, slug: string, spec: ApiOpenApiSpec): Promise<ApiOpenApiSpec> {
  const deadline = Date.now() + ctx.config.openApiWaitSeconds * 1000;
  let delay = processingPoll.firstMs;
  while (IN_FLIGHT_STATES.has(spec.processingState)) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await sleep(Math.min(delay, left));
    delay = nextPollDelay(delay);
    spec = await ctx.client.get(specPath(org, slug), { schema: ApiOpenApiSpec });
  }
  return spec;
}

/** Waits for processing; anything but success keeps the spec in state and fails the step with why. */
async function settle(ctx: Ctx, id: string, inputs: OpenApiSpecInputs, sent: ApiOpenApiSpec): Promise<ApiOpenApiSpec> {
  let spec: ApiOpenApiSpec;
  try {
    spec = await waitForProcessing(ctx, inputs.organizationId, inputs.slug, sent);
  } catch (e) {
    // The spec exists and has its source, whatever became of the polling: a plain error here would
    // leave a created spec out of state, and the next up would fail on its slug.
    throw new PartialFailure(id, outputs(declared(inputs), sent), [
      `OpenAPI spec "${inputs.slug}" was sent but its processing could not be followed: ${(e as Error).message}`,
    ], { cause: e });
  }
  const outs = () => outputs(declared(inputs), spec);
  if (IN_FLIGHT_STATES.has(spec.processingState)) {
    throw new PartialFailure(id, outs(), [
      `OpenAPI spec "${inputs.slug}" is still processing (${spec.processingState}) after ${ctx.config.openApiWaitSeconds}s; it is kept in state and a later refresh shows the outcome (raise gitbook:openApiWaitSeconds to wait longer)`,
    ]);
  }
  if (processingFailed(spec)) {
    throw new PartialFailure(id, outs(), [
      `OpenAPI spec "${inputs.slug}" failed to process: ${spec.lastProcessErrorCode ?? spec.processingState}; fix the source and run up again (the source is sent again)`,
    ], { field: "source" });
  }
  return spec;
}

// ---- CRUD ----------------------------------------------------------------------------------------

const specsPath = (org: string) => p`/orgs/${org}/openapi`;
const specPath = (org: string, slug: string) => p`/orgs/${org}/openapi/${slug}`;


/** Inputs the API reports. It echoes a URL source but never a text source. */
function liveInputs(spec: ApiOpenApiSpec, recorded: unknown): Props {
  let source: StoredOpenApiSource;
  if (spec.sourceURL) source = { url: spec.sourceURL };
  else if (recorded && typeof recorded === "object" && "textSha256" in recorded) source = recorded as StoredOpenApiSource;
  else source = { textSha256: TEXT_NOT_KNOWN };
  return { slug: spec.slug, visibility: spec.visibility ?? "private", source };
}

function outputs(declaredInputs: Partial<OpenApiSpecInputs> | Partial<OpenApiSpecOutputs>, spec: ApiOpenApiSpec): OpenApiSpecOutputs {
  return {
    ...(declaredInputs as OpenApiSpecOutputs),
    source: storedSource(declaredInputs.source) as StoredOpenApiSource,
    processingState: spec.processingState,
    lastVersion: spec.lastVersion ?? undefined,
    lastProcessedAt: spec.lastProcessedAt ?? undefined,
    lastProcessErrorCode: spec.lastProcessErrorCode ?? undefined,
    urls: { ...spec.urls },
    createdAt: spec.createdAt ?? "",
    updatedAt: spec.updatedAt ?? "",
  };
}

async function create(ctx: Ctx, inputs: OpenApiSpecInputs): Promise<{ id: string; outs: OpenApiSpecOutputs }> {
  const { organizationId: org, slug } = inputs;
  let spec: ApiOpenApiSpec;
  try {
    spec = await createOnce(
      () => ctx.client.post(specsPath(org), { body: { slug, source: inputs.source }, schema: ApiOpenApiSpec }),
      // The slug identifies the spec: one created since we sent is the one our lost POST created.
      async (sentAt) => {
        const found = await getOrUndefined(ctx.client.get(specPath(org, slug), { schema: ApiOpenApiSpec }));
        return found && (!found.createdAt || createdSince(found.createdAt, sentAt)) ? found : undefined;
      },
    );
  } catch (e) {
    if (e instanceof ConflictError) {
      throw new Error(`OpenApiSpec: organization ${org} already has a spec with slug "${slug}"; set adoptId: "${slug}" to manage it, or choose another slug.`);
    }
    throw e;
  }
  const id = spec.id;
  // POST takes no visibility; the API creates specs private.
  if (inputs.visibility !== (spec.visibility ?? "private")) {
    try {
      spec = await ctx.client.patch(specPath(org, slug), { body: { visibility: inputs.visibility }, schema: ApiOpenApiSpec });
    } catch (e) {
      throw new PartialFailure(id, outputs({ ...declared(inputs), visibility: (spec.visibility ?? "private") as OpenApiSpecInputs["visibility"] }, spec), [
        `OpenAPI spec "${slug}" was created but its visibility could not be set: ${(e as Error).message}`,
      ], { cause: e, field: "visibility" });
    }
  }
  spec = await settle(ctx, id, inputs, spec);
  return { id, outs: outputs(declared(inputs), spec) };
}

async function read(ctx: Ctx, id: string, props: OpenApiSpecOutputs): Promise<OpenApiSpecOutputs | undefined> {
  const spec = await getOrUndefined(ctx.client.get(specPath(props.organizationId, props.slug), { schema: ApiOpenApiSpec }));
  // Another spec now holding the slug is not ours (unless the id is the slug, as after adoption by slug).
  if (!spec || (spec.id !== id && spec.slug !== id)) return undefined;
  return outputs(refreshDeclared([...openApiSpecDiff.fields, "adoptId"], props, liveInputs(spec, props.source)), spec);
}

async function update(ctx: Ctx, id: string, olds: OpenApiSpecOutputs, news: OpenApiSpecInputs): Promise<OpenApiSpecOutputs> {
  const changed = changedFields(openApiSpecDiff, olds, news);
  const path = specPath(news.organizationId, news.slug);
  let spec: ApiOpenApiSpec | undefined;
  if (changed.includes("source")) spec = await ctx.client.put(path, { body: { source: news.source }, schema: ApiOpenApiSpec });
  if (changed.includes("visibility")) spec = await ctx.client.patch(path, { body: { visibility: news.visibility ?? "private" }, schema: ApiOpenApiSpec });
  spec ??= await ctx.client.get(path, { schema: ApiOpenApiSpec });
  if (changed.includes("source")) spec = await settle(ctx, id, news, spec);
  return outputs(declared(news), spec);
}

async function remove(ctx: Ctx, id: string, props: OpenApiSpecOutputs): Promise<void> {
  await ctx.client.delete(specPath(props.organizationId, props.slug));
}

export const definition: ResourceDef<OpenApiSpecInputs, OpenApiSpecOutputs> = {
  kind: "OpenApiSpec",
  schema: openApiSpecSchema,
  diff: openApiSpecDiff,
  create,
  read,
  update,
  delete: remove,
};

// ---- Resource class ------------------------------------------------------------------------------

export type OpenApiSpecArgs = {
  slug: pulumi.Input<string>;
  source: pulumi.Input<{ url: pulumi.Input<string> } | { text: pulumi.Input<string> }>;
  organizationId?: pulumi.Input<string>;
  visibility?: pulumi.Input<OpenApiSpecInputs["visibility"]>;
  adoptId?: pulumi.Input<string>;
};

/** An OpenAPI specification published through GitBook. */
export class OpenApiSpec extends pulumi.dynamic.Resource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly slug: pulumi.Output<string>;
  /** `{url}`, or `{textSha256}` for a text source. */
  declare readonly source: pulumi.Output<StoredOpenApiSource>;
  declare readonly visibility: pulumi.Output<OpenApiSpecInputs["visibility"]>;
  declare readonly processingState: pulumi.Output<string>;
  /** ID of the latest processed version. */
  declare readonly lastVersion: pulumi.Output<string | undefined>;
  declare readonly lastProcessedAt: pulumi.Output<string | undefined>;
  /** Why the last processing failed, when it did. */
  declare readonly lastProcessErrorCode: pulumi.Output<string | undefined>;
  declare readonly urls: pulumi.Output<OpenApiSpecOutputs["urls"]>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: OpenApiSpecArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("OpenApiSpec"),
      name,
      resourceProps(name, openApiSpecSchema, args, ["processingState", "lastVersion", "lastProcessedAt", "lastProcessErrorCode", "urls", "createdAt", "updatedAt"]),
      opts,
      "gitbook",
      "OpenApiSpec",
    );
  }
}
