/**
 * ShareLink: a secret URL that opens a site whose visibility is `share-link`.
 *
 * The published URL carries the secret share key, so it is the one output that is a secret: the
 * resource class marks `url` with `additionalSecretOutputs`, and the API's `urls` object (which holds
 * the same URL) is deliberately not passed through.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiShareLink, p } from "../client";
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

export type ShareLinkInputs = {
  organizationId: string;
  siteId: string;
  name: string;
  active?: boolean;
  adoptId?: string;
};

/** `active` is always the link's live state (managed only when declared). */
export type ShareLinkOutputs = ShareLinkInputs & {
  active: boolean;
  /** Published URL including the secret share key. */
  url: string;
  createdAt: string;
};

// ---- Schema --------------------------------------------------------------------------------------

export const shareLinkSchema = z.object({
  organizationId: organizationIdField,
  siteId: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .describe("ID of the site the link opens. Changing it replaces the share link (a new secret URL)."),
  name: text({ min: 1, max: 50 }).describe(
    "Name of the share link, 1 to 50 characters, to tell links apart (e.g. the audience it was given to). Names need not be unique.",
  ),
  active: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      "Whether the link opens the site. Set false to revoke access without losing the URL. Managed only when declared: a link created without it is active, an adopted link keeps its state, and removing it leaves the current state (a revoked link stays revoked). The output is always the link's actual state.",
    ),
  adoptId: adoptIdField,
});

// ---- Diff rules ----------------------------------------------------------------------------------

export const shareLinkDiff: DiffRules = {
  fields: ["organizationId", "siteId", "name", "active"],
  // A share link belongs to one site for life. Names are not unique, so a replacement never collides.
  replaceOn: ["organizationId", "siteId"],
  liveFields: ["active"],
};

const shareLinkPatch: PatchRules = {
  patchable: ["name", "active"],
};

// ---- CRUD ----------------------------------------------------------------------------------------

const linksPath = (org: string, site: string) => p`/orgs/${org}/sites/${site}/share-links`;
const linkPath = (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/share-links/${id}`;


function liveInputs(link: ApiShareLink): Record<string, unknown> {
  return { name: link.name ?? undefined, active: link.active ?? true };
}

function outputs(declaredInputs: Record<string, unknown>, link: ApiShareLink): ShareLinkOutputs {
  return {
    ...(declaredInputs as unknown as ShareLinkInputs),
    active: link.active ?? true,
    url: link.urls?.published ?? "",
    createdAt: link.createdAt,
  };
}

/** There is no GET for one link: it is found in the site's list (one listing serves every link of the site). */
async function findLink(ctx: Ctx, org: string, site: string, id: string): Promise<ApiShareLink | undefined> {
  const links = await getOrUndefined(ctx.client.listAll(linksPath(org, site), ApiShareLink));
  return links?.find((l) => l.id === id);
}

async function create(ctx: Ctx, inputs: ShareLinkInputs): Promise<{ id: string; outs: ShareLinkOutputs }> {
  const { organizationId: org, siteId: site } = inputs;
  const created = await createOnce(ctx, {
    kind: "ShareLink",
    key: `${org}/${site}/${inputs.name}`,
    what: `share link ${JSON.stringify(inputs.name)} in site ${site}`,
    send: () => ctx.client.post(linksPath(org, site), { body: { name: inputs.name }, schema: ApiShareLink }),
    // Names are not unique: a lost POST made a link of this name that no other resource holds.
    candidates: async () => (await ctx.client.listAll(linksPath(org, site), ApiShareLink)).filter((l) => l.name === inputs.name),
    createdAt: (l) => l.createdAt,
  });
  // POST takes only the name; a link starts active, so a declared inactive one needs a PATCH.
  if (inputs.active === undefined || (created.active ?? true) === inputs.active) return { id: created.id, outs: outputs(declared(inputs), created) };
  try {
    const link = await ctx.client.patch(linkPath(org, site, created.id), { body: { active: inputs.active }, schema: ApiShareLink });
    return { id: link.id, outs: outputs(declared(inputs), link) };
  } catch (e) {
    const live = refreshDeclared(shareLinkDiff.fields, declared(inputs), liveInputs(created));
    throw settingsFailed("share link", created.id, outputs({ ...declared(inputs), ...live }, created), e);
  }
}

async function read(ctx: Ctx, id: string, props: ShareLinkOutputs): Promise<ShareLinkOutputs | undefined> {
  const link = await findLink(ctx, props.organizationId, props.siteId, id);
  if (!link) return undefined;
  return outputs(refreshDeclared([...shareLinkDiff.fields, "adoptId"], props, liveInputs(link)), link);
}

async function update(ctx: Ctx, id: string, olds: ShareLinkOutputs, news: ShareLinkInputs): Promise<ShareLinkOutputs> {
  const { organizationId: org, siteId: site } = news;
  const body = patchBody(changedFields(shareLinkDiff, olds, news), news, shareLinkPatch);
  const link =
    Object.keys(body).length > 0
      ? await ctx.client.patch(linkPath(org, site, id), { body, schema: ApiShareLink })
      : await findLink(ctx, org, site, id);
  if (!link) throw new Error(`ShareLink: share link ${id} no longer exists in site ${site}; run \`pulumi refresh\` to drop it from state.`);
  return outputs(declared(news), link);
}

async function remove(ctx: Ctx, id: string, props: ShareLinkOutputs): Promise<void> {
  await ctx.client.delete(linkPath(props.organizationId, props.siteId, id));
}

export const definition: ResourceDef<ShareLinkInputs, ShareLinkOutputs> = {
  kind: "ShareLink",
  schema: shareLinkSchema,
  diff: shareLinkDiff,
  create,
  read,
  update,
  delete: remove,
};

// ---- Resource class ------------------------------------------------------------------------------

export type ShareLinkArgs = {
  organizationId?: pulumi.Input<string>;
  siteId: pulumi.Input<string>;
  name: pulumi.Input<string>;
  active?: pulumi.Input<boolean>;
  adoptId?: pulumi.Input<string>;
};

/** A secret link to a site whose visibility is `share-link`. Its `url` output is a secret. */
export class ShareLink extends pulumi.dynamic.Resource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly siteId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly active: pulumi.Output<boolean>;
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** Published URL carrying the share key: a secret. */
  declare readonly url: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: ShareLinkArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("ShareLink"),
      name,
      resourceProps(name, shareLinkSchema, args, ["url", "createdAt"]),
      // The URL holds the share key: keep it encrypted in state and masked in previews, whatever else the user marked.
      { ...opts, additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), "url"])] },
      "gitbook",
      "ShareLink",
    );
  }
}
