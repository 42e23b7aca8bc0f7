/**
 * ShareLink: a secret URL that opens a site whose visibility is `share-link`.
 *
 * The published URL carries the secret share key, so it is the one output that is a secret, and the
 * API's `urls` object (which holds the same URL) is deliberately not passed through.
 *
 * There is no GET for one link: it is found in the site's list, which the client shares between
 * concurrent reads (one listing serves every link of the site).
 */
import { z } from "zod";
import { apiObject } from "../client";
import { defineResource, resourceClass, type Inputs, type Outputs, type Lookalikes } from "../framework/define";
import { field, id, organizationIdField, text, wireShape } from "../framework/fields";
import { findListed } from "../framework/lists";
import { finishCreate, patchChanged, postBody, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import { settingsOf, type ImportRecord } from "../framework/discover";
import type { Ctx } from "../framework/resource";
import { shareLinkPaths } from "./sitePaths";
import { addressField, addressOf } from "./siteAddress";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id()
    .describe("ID of the site the link opens. Changing it replaces the share link (a new secret URL).")
    // A share link belongs to one site for life. Names are not unique, so a replacement never collides.
    .register(field, { change: "replace", import: { ref: "Site" } }),
  // GitBook's ShareLinkName is 0 to 50 characters: a link named "" is one it holds, and so one a program can adopt.
  name: text({ max: 50 })
    .describe("Name of the share link, at most 50 characters, to tell links apart (e.g. the audience it was given to); GitBook allows it empty. Names need not be unique.")
    .register(field, { create: "post" }),
  active: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      "Whether the link opens the site. Set false to revoke access without losing the URL. Managed only when declared: a link created without it is active, an adopted link keeps its state, and removing it leaves the current state (a revoked link stays revoked). The output is always the link's actual state.",
    )
    .register(field, { live: true }),
  address: addressField(),
});

const outputs = z.object({
  active: z.boolean().describe("Whether the link opens the site: its actual state."),
  url: z.string().describe("Published URL, carrying the secret share key.").register(field, { secret: true }),
  createdAt: z.string().describe("When the link was created."),
});

export type ShareLinkInputs = Inputs<typeof inputs>;
export type ShareLinkOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Wire ----------------------------------------------------------------------------------------

// What GitBook answers for this kind: loose objects (fields the API adds pass through), while a missing
// or mistyped field the kind uses fails with its name (ContractError).

export const ApiShareLink = apiObject("share-link", {
  ...wireShape(inputs),
  createdAt: z.string(),
});
export type ApiShareLink = z.infer<typeof ApiShareLink>;

/** The kind's API paths (in sitePaths.ts, beside those of the other kinds of a site, which use each other's). */
export const paths = shareLinkPaths;

// ---- CRUD ----------------------------------------------------------------------------------------

function lookalikes(ctx: Ctx, given: ShareLinkInputs): Lookalikes<ApiShareLink> {
  const { organizationId: org, siteId: site } = given;
  return {
    kind: "ShareLink",
    key: `${org}/${site}/${given.name}`,
    what: `share link ${JSON.stringify(given.name)} in site ${site}`,
    // Names are not unique: a lost POST made a link of this name that no other resource holds.
    candidates: async () => (await ctx.client.listAll(paths.shareLinks(org, site), ApiShareLink)).filter((l) => l.name === given.name),
    before: "list",
    createdAt: (l) => l.createdAt,
  };
}

async function create(ctx: Ctx, given: ShareLinkInputs): Promise<{ id: string; outs: ShareLinkOutputs }> {
  const { organizationId: org, siteId: site } = given;
  const link = await createOnce(ctx, { ...lookalikes(ctx, given), send: () => ctx.client.post(paths.shareLinks(org, site), { body: postBody(definition, given), schema: ApiShareLink }) });
  // POST takes only the name; a link starts active, so a declared inactive one needs a PATCH.
  return finishCreate(definition, given, link, async (created, advance) => {
    if (given.active === undefined || (created.active ?? true) === given.active) return;
    advance(await ctx.client.patch(paths.shareLink(org, site, created.id), { body: { active: given.active }, schema: ApiShareLink }));
  });
}

async function read(ctx: Ctx, id: string, props: ShareLinkOutputs): Promise<ShareLinkOutputs | undefined> {
  const link = await findListed(ctx, paths.shareLinks(props.organizationId, props.siteId), ApiShareLink, id);
  return link && refreshed(definition, props, link);
}

async function update(ctx: Ctx, id: string, olds: ShareLinkOutputs, news: ShareLinkInputs, changed: readonly string[]): Promise<ShareLinkOutputs> {
  const { organizationId: org, siteId: site } = news;
  return patchChanged(definition, changed, news, {
    id,
    patch: (body) => ctx.client.patch(paths.shareLink(org, site, id), { body, schema: ApiShareLink }),
    find: () => findListed(ctx, paths.shareLinks(org, site), ApiShareLink, id),
    where: ` in site ${site}`,
  });
}

async function remove(ctx: Ctx, id: string, props: ShareLinkOutputs): Promise<void> {
  await ctx.client.delete(paths.shareLink(props.organizationId, props.siteId, id));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "ShareLink",
  adoptable: true,
  noun: "share link",
  summary: "A secret URL opening a site whose visibility is `share-link`.",
  inputs,
  outputs,
  live: (link: ApiShareLink) => ({ name: link.name ?? undefined, active: link.active ?? true }),
  computed: (link) => ({ active: link.active ?? true, url: link.urls?.published ?? "", createdAt: link.createdAt }),
  // Its URL is built on the site's address: a new basename or proxy is a change of this resource too.
  fromProgram: addressOf(),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  // The link's URL (which carries the share key) is deliberately left behind.
  import: {
    variableSuffix: "-link",
    read: {
      under: "Site",
      into: "shareLinks",
      async find(ctx, site): Promise<ImportRecord[]> {
        const links = await ctx.list(paths.shareLinks(ctx.organizationId, site!.id as string), ApiShareLink);
        return links.map((l) => ({ ...settingsOf(definition, l), id: l.id, createdAt: l.createdAt }));
      },
    },
  },
});

/** A secret link to a site whose visibility is `share-link`. Its `url` output is a secret. */
export const ShareLink = resourceClass(definition);
export type ShareLink = InstanceType<typeof ShareLink>;
export type ShareLinkArgs = ConstructorParameters<typeof ShareLink>[1];
