/**
 * SiteRedirect: one redirect rule of a site, from a path of the site (its source) to a URL, a
 * section, a site space or a page.
 *
 * GitBook has no GET for one rule: reads find it in the site's rule listing (live or draft), which
 * the client shares between concurrent reads, so refreshing every rule of a site costs one listing per
 * draft state. A site keeps one live and one draft rule per source, so after a lost create answer the
 * rule the POST made is the one from this source (see lookalikes).
 *
 * Checks across resources (a source declared twice, chains, loops, a SiteRedirects on the same site)
 * run in the program's process: see redirectRules.ts.
 */
import { z } from "zod";
import { GitbookError } from "../client";
import { defineResource, resourceClass, type Inputs, type Lookalikes, type Outputs } from "../framework/define";
import { field, id, organizationIdField } from "../framework/fields";
import { changedBody, finishCreate, goneFromState, postBody, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import {
  ApiSiteRedirect,
  paths,
  captureWildcardField,
  destinationField,
  draftRuleField,
  liveDestination,
  permanentField,
  publishedUrl,
  redirectDeclares,
  siteUrlFor,
  sourceField,
  wireDestination,
} from "./redirectRules";
import { addressField, addressOf } from "./siteAddress";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id().describe("ID of the site the rule belongs to: pass the Site's `id` output. Changing it replaces the rule.").register(field, { change: "replace" }),
  source: sourceField().register(field, { create: "post" }),
  // Sent in its wire form by create and update (see wireDestination).
  destination: destinationField().register(field, { change: "custom" }),
  draft: draftRuleField().register(field, { change: "replace", create: "post" }),
  permanent: permanentField().register(field, { remove: { reset: false }, create: "post" }),
  captureWildcard: captureWildcardField().register(field, { remove: { reset: false }, create: "post" }),
  address: addressField(),
});

const outputs = z.object({
  createdAt: z.string().describe("When the rule was created."),
});

export type SiteRedirectInputs = Inputs<typeof inputs>;
export type SiteRedirectOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- CRUD ----------------------------------------------------------------------------------------

/** A rule as read, with the site's published URL when the rule declares a path destination. */
type RuleView = ApiSiteRedirect & { siteUrl?: string };

function live(r: RuleView): Props {
  return {
    source: r.source,
    destination: liveDestination(r.destination, r.siteUrl),
    draft: r.draft,
    permanent: r.permanent,
    captureWildcard: r.captureWildcard,
  };
}

/** The site's rules in one draft state (undefined when the site is gone). */
async function rulesOf(ctx: Ctx, org: string, site: string, draft: boolean): Promise<ApiSiteRedirect[] | undefined> {
  try {
    return await ctx.client.listAll(paths.redirects(org, site), ApiSiteRedirect, { draft });
  } catch (e) {
    if (e instanceof GitbookError && e.status === 404) return undefined;
    throw e;
  }
}

/** The rule, looked for first among the rules of its recorded draft state (the app may have published it since). */
async function findRule(ctx: Ctx, org: string, site: string, ruleId: string, draft: boolean): Promise<ApiSiteRedirect | undefined> {
  for (const d of [draft, !draft]) {
    const found = (await rulesOf(ctx, org, site, d))?.find((r) => r.id === ruleId);
    if (found) return found;
  }
  return undefined;
}

/** The site's URL when the rule's destination is a path of the site (see redirectRules.ts). */
const siteUrlOf = (ctx: Ctx, given: SiteRedirectInputs) => (given.destination.path === undefined ? undefined : siteUrlFor(ctx, given.organizationId, given.siteId, "SiteRedirect"));

function lookalikes(ctx: Ctx, given: SiteRedirectInputs): Lookalikes<ApiSiteRedirect> {
  const { organizationId: org, siteId: site, source, draft } = given;
  return {
    kind: "SiteRedirect",
    key: `${org}/${site}/${draft}/${source}`,
    what: `${draft ? "draft " : ""}redirect from ${source} in site ${site}`,
    // One rule per source and draft state: after a lost answer, the rule the POST made is the one from this source.
    candidates: async () => ((await ctx.client.listNow(paths.redirects(org, site), ApiSiteRedirect, { draft, search: source })) ?? []).filter((r) => r.source === source && r.draft === draft),
    before: "list",
    createdAt: (r) => r.createdAt,
  };
}

async function create(ctx: Ctx, given: SiteRedirectInputs): Promise<{ id: string; outs: SiteRedirectOutputs }> {
  const { organizationId: org, siteId: site } = given;
  const siteUrl = await siteUrlOf(ctx, given);
  const body = { ...postBody(definition, given), destination: wireDestination(given.destination, siteUrl) };
  try {
    const rule = await createOnce(ctx, { ...lookalikes(ctx, given), send: () => ctx.client.post(paths.redirects(org, site), { body, schema: ApiSiteRedirect }) });
    return finishCreate(definition, given, { ...rule, ...(siteUrl && { siteUrl }) });
  } catch (e) {
    if (!(e instanceof GitbookError) || e.status !== 409) throw e;
    // No cause attached: the failure's message would lead with the API's words instead of the fix.
    const existing = (await rulesOf(ctx, org, site, given.draft))?.find((r) => r.source === given.source);
    throw new Error(
      `SiteRedirect: source: site ${site} already has a ${given.draft ? "draft " : ""}redirect from ${given.source}${existing ? ` (${existing.id})` : ""}, made outside this resource. ` +
        `Adopt it with adoptId${existing ? ` "${existing.id}"` : ""} (the declared settings are then applied to it), or delete it in the GitBook app. Nothing was created.`,
    );
  }
}

async function read(ctx: Ctx, ruleId: string, props: SiteRedirectOutputs): Promise<SiteRedirectOutputs | undefined> {
  const rule = await findRule(ctx, props.organizationId, props.siteId, ruleId, props.draft === true);
  if (!rule) return undefined;
  const siteUrl = props.destination?.path === undefined ? undefined : await publishedUrl(ctx, props.organizationId, props.siteId);
  return refreshed(definition, props, { ...rule, ...(siteUrl && { siteUrl }) });
}

async function update(ctx: Ctx, ruleId: string, _olds: SiteRedirectOutputs, news: SiteRedirectInputs, changed: readonly string[]): Promise<SiteRedirectOutputs> {
  const { organizationId: org, siteId: site } = news;
  const body = changedBody(definition, changed, news);
  // A path destination is sent as the site's URL followed by the path: a new address sends it again.
  const resend = changed.includes("destination") || (changed.includes("address") && news.destination.path !== undefined);
  const siteUrl = resend ? await siteUrlOf(ctx, news) : undefined;
  if (resend) body.destination = wireDestination(news.destination, siteUrl);
  const rule =
    Object.keys(body).length > 0
      ? await ctx.client.patch(paths.redirect(org, site, ruleId), { body, schema: ApiSiteRedirect })
      : await findRule(ctx, org, site, ruleId, news.draft);
  if (!rule) throw goneFromState(definition, ruleId, ` in site ${site}`);
  return definition.outputsOf(declared(news), { ...rule, ...(siteUrl && { siteUrl }) });
}

async function remove(ctx: Ctx, ruleId: string, props: SiteRedirectOutputs): Promise<void> {
  await ctx.client.delete(paths.redirect(props.organizationId, props.siteId, ruleId));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteRedirect",
  // A second one where these are the same collides with the first (a forced `up --replace`).
  deleteBeforeReplace: ["siteId", "organizationId"],
  adoptable: true,
  noun: "redirect",
  summary:
    "One redirect rule of a site: visitors of the source path are sent to a URL, a section, a site space or a page. Checked at preview: the source's format, and, across the SiteRedirect resources of one site in the program, one rule per source, no chain (a → b, b → c) and no loop (a → b → a). A site's rules are declared either as SiteRedirect resources or as one SiteRedirects, not both.",
  inputs,
  outputs,
  live,
  computed: (r: RuleView) => ({ createdAt: r.createdAt }),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  inProgram: redirectDeclares("SiteRedirect"),
  // A path destination is sent built on the site's address.
  fromProgram: addressOf(),
});

/** One redirect rule of a GitBook site. */
export const SiteRedirect = resourceClass(definition);
export type SiteRedirect = InstanceType<typeof SiteRedirect>;
export type SiteRedirectArgs = ConstructorParameters<typeof SiteRedirect>[1];
