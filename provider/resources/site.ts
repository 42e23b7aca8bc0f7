/**
 * Site: a published docs site built from spaces.
 *
 * The site's default section and default site space are chosen by `default: true` on a SiteSection or
 * SiteSpace, never here: a Site input naming its own children would make a dependency cycle.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiSite, p } from "../client";
import { adoptIdField, organizationIdField, text } from "../framework/check";
import { changedFields, type DiffRules } from "../framework/diff";
import {
  createOnce,
  declared,
  getOrUndefined,
  patchBody,
  refreshDeclared,
  resourceProps,
  settingsFailed,
  type Ctx,
  type PatchRules,
  type ResourceDef,
} from "../framework/resource";
import { providerFor } from "../shim";

// ---- Types ---------------------------------------------------------------------------------------

/** GitBook's site types, as its published API spec lists them. */
export const SITE_TYPES = ["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"] as const;
export type SiteType = (typeof SITE_TYPES)[number];
export type SiteVisibility = "public" | "unlisted" | "share-link" | "visitor-auth";

export type SiteInputs = {
  organizationId: string;
  type?: SiteType;
  title: string;
  visibility?: SiteVisibility;
  basename?: string;
  agentsContext?: "excluded" | "included";
  proxy?: string;
  adaptiveContent?: { enabled: boolean };
  adoptId?: string;
};

/**
 * `type` and `visibility` are always the site's live values (managed only when declared). What depends
 * on the site's children (whether it is published, how many site spaces it shows) is not an output:
 * the site's own steps run before its children's, so such a value would be stale after every `up`.
 */
export type SiteOutputs = Omit<SiteInputs, "type" | "visibility"> & {
  type: string;
  visibility: SiteVisibility;
  hostname: string;
  urls: { location?: string; app?: string; published?: string };
  createdAt: string;
};

// ---- Schema --------------------------------------------------------------------------------------

export const PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

export const siteSchema = z.object({
  organizationId: organizationIdField,
  type: z
    .enum(SITE_TYPES, { error: `must be one of ${SITE_TYPES.join(", ")}` })
    .optional()
    .describe(
      "Site type (plan): one of `basic`, `premium`, `ultimate`, `sponsored`, `legacy-basic`, `legacy-premium`. Sent and managed only when declared: a site created without it gets GitBook's default (`ultimate`, or `sponsored` in a community organization), and an adopted site keeps its own. The output is always the site's actual type. Declaring a type other than the site's replaces the site (the API cannot change it in place); removing it changes nothing.",
    ),
  title: text({ min: 2, max: 128 }).describe("Title of the site, 2 to 128 characters."),
  visibility: z
    .enum(["public", "unlisted", "share-link", "visitor-auth"], {
      error: "must be one of public, unlisted, share-link, visitor-auth",
    })
    .optional()
    .describe(
      "Who can reach the published site: `public` (indexed by search engines), `unlisted` (not indexed), `share-link` (holders of a ShareLink URL), `visitor-auth` (visitors authenticated with a JWT). Managed only when declared: a site created without it is `public` (GitBook's default), an adopted site keeps its own, and removing it leaves the current value. The output is always the site's actual visibility.",
    ),
  basename: text({ min: 1, max: 100 })
    .optional()
    .describe("Path segment the site is published under on the organization's hostname, 1 to 100 characters. When omitted the API derives it from the title; removing it leaves the current value."),
  agentsContext: z
    .enum(["excluded", "included"], { error: "must be excluded or included" })
    .optional()
    .describe("Whether GitBook's AI agent may use this site as context: `included` or `excluded`. Removing it leaves the current value."),
  proxy: text({ max: 512, pattern: PROXY_PATTERN, patternHint: "host/path, e.g. example.com/docs" })
    .optional()
    .describe("Serve the site under a subdirectory of your own domain, written `host/path` (e.g. `example.com/docs`), at most 512 characters. Removing it removes the proxy."),
  adaptiveContent: z
    .object({ enabled: z.boolean().describe("Show or hide content per visitor from their claims.") })
    .optional()
    .describe("Adaptive content settings. Removing it disables adaptive content."),
  adoptId: adoptIdField,
});

// ---- Diff rules ----------------------------------------------------------------------------------

export const siteDiff: DiffRules = {
  fields: ["organizationId", "type", "title", "visibility", "basename", "agentsContext", "proxy", "adaptiveContent"],
  replaceOn: ["organizationId", "type"],
  liveFields: ["type", "visibility"],
};

const sitePatch: PatchRules = {
  patchable: ["title", "visibility", "basename", "agentsContext", "proxy", "adaptiveContent"],
  nullable: ["proxy"],
  onRemove: { adaptiveContent: { enabled: false } },
};

// ---- CRUD ----------------------------------------------------------------------------------------

const sitesPath = (org: string) => p`/orgs/${org}/sites`;
const sitePath = (org: string, id: string) => p`/orgs/${org}/sites/${id}`;

/** The API returns the proxy as `{origin, target}`; the input is the `host/path` string it was set with. */
function proxyString(proxy: ApiSite["proxy"]): string | undefined {
  const target = proxy?.target ?? proxy?.origin;
  return target ? target.replace(/^https?:\/\//, "").replace(/\/+$/, "") : undefined;
}

/** Every input the API reports, keyed like the inputs. */
function liveInputs(site: ApiSite): Record<string, unknown> {
  return {
    type: site.type,
    title: site.title,
    visibility: site.visibility,
    basename: site.basename ?? undefined,
    agentsContext: site.agentsContext,
    proxy: proxyString(site.proxy),
    adaptiveContent: site.adaptiveContent ? { enabled: site.adaptiveContent.enabled } : undefined,
  };
}

function outputs(declaredInputs: Record<string, unknown>, site: ApiSite): SiteOutputs {
  return {
    ...(declaredInputs as unknown as SiteInputs),
    type: site.type,
    visibility: site.visibility as SiteVisibility,
    hostname: site.hostname ?? "",
    urls: { ...site.urls },
    createdAt: site.createdAt,
  };
}

async function create(ctx: Ctx, inputs: SiteInputs): Promise<{ id: string; outs: SiteOutputs }> {
  const org = inputs.organizationId;
  const created = await createOnce(ctx, {
    kind: "Site",
    key: `${org}/${inputs.title}`,
    what: `site ${JSON.stringify(inputs.title)}`,
    // Only what the program declares: GitBook picks the type and visibility of a site created without them.
    send: () => ctx.client.post(sitesPath(org), { body: declared({ type: inputs.type, title: inputs.title, visibility: inputs.visibility }), schema: ApiSite }),
    // A lost answer may still have created the site: one with this title that no other resource holds.
    candidates: async () =>
      (await ctx.client.listAll(sitesPath(org), ApiSite, { title: inputs.title })).filter((s) => s.title === inputs.title && (inputs.type === undefined || s.type === inputs.type)),
    createdAt: (s) => s.createdAt,
  });
  // POST accepts only type, title and visibility; the rest needs a PATCH.
  const rest = patchBody(["basename", "agentsContext", "proxy", "adaptiveContent"], inputs, { patchable: sitePatch.patchable });
  if (Object.keys(rest).length === 0) return { id: created.id, outs: outputs(declared(inputs), created) };
  try {
    const site = await ctx.client.patch(sitePath(org, created.id), { body: rest, schema: ApiSite });
    return { id: site.id, outs: outputs(declared(inputs), site) };
  } catch (e) {
    const live = refreshDeclared(siteDiff.fields, declared(inputs), liveInputs(created));
    throw settingsFailed("site", created.id, outputs({ ...declared(inputs), ...live }, created), e);
  }
}

async function read(ctx: Ctx, id: string, props: SiteOutputs): Promise<SiteOutputs | undefined> {
  const site = await getOrUndefined(ctx.client.get(sitePath(props.organizationId, id), { schema: ApiSite }));
  if (!site) return undefined;
  return outputs(refreshDeclared([...siteDiff.fields, "adoptId"], props, liveInputs(site)), site);
}

async function update(ctx: Ctx, id: string, olds: SiteOutputs, news: SiteInputs): Promise<SiteOutputs> {
  const body = patchBody(changedFields(siteDiff, olds, news), news, sitePatch);
  const site =
    Object.keys(body).length > 0
      ? await ctx.client.patch(sitePath(news.organizationId, id), { body, schema: ApiSite })
      : await ctx.client.get(sitePath(news.organizationId, id), { schema: ApiSite });
  return outputs(declared(news), site);
}

async function remove(ctx: Ctx, id: string, props: SiteOutputs): Promise<void> {
  await ctx.client.delete(sitePath(props.organizationId, id));
}

export const definition: ResourceDef<SiteInputs, SiteOutputs> = {
  kind: "Site",
  schema: siteSchema,
  diff: siteDiff,
  create,
  read,
  update,
  delete: remove,
};

// ---- Resource class ------------------------------------------------------------------------------

export type SiteArgs = {
  [K in keyof Omit<SiteInputs, "organizationId" | "type" | "visibility">]?: pulumi.Input<SiteInputs[K]>;
} & {
  title: pulumi.Input<string>;
  organizationId?: pulumi.Input<string>;
  type?: pulumi.Input<SiteType>;
  visibility?: pulumi.Input<SiteVisibility>;
};

/** A GitBook docs site. */
export class Site extends pulumi.dynamic.Resource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string>;
  declare readonly visibility: pulumi.Output<SiteVisibility>;
  declare readonly basename: pulumi.Output<string | undefined>;
  declare readonly agentsContext: pulumi.Output<string | undefined>;
  declare readonly proxy: pulumi.Output<string | undefined>;
  declare readonly adaptiveContent: pulumi.Output<{ enabled: boolean } | undefined>;
  declare readonly hostname: pulumi.Output<string>;
  declare readonly urls: pulumi.Output<SiteOutputs["urls"]>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: SiteArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("Site"),
      name,
      resourceProps(name, siteSchema, args, ["hostname", "urls", "createdAt"]),
      opts,
      "gitbook",
      "Site",
    );
  }
}
