/**
 * SiteExternalLink: an entry of a site's navigation leading to another website (a blog, a status
 * page), at the site's top level or in a section group.
 *
 * GitBook has no GET for one link, nor a list of them: reads find the link in the site's structure,
 * which the client shares between concurrent reads, so refreshing every link of a site costs one GET.
 * A new link comes last in its container; its place among its siblings is a SiteStructureOrder's.
 *
 * GitBook takes links only in a site made of sections, so a top-level link declared beside the site's
 * first section races it: the engine may create the link first. Creating waits for the section rather
 * than fail (see untilMadeOfSections): declared independently, in either order, the two converge in one
 * `up`. `dependsOn: [section]` (what DocsSite gives its links) spares the wait.
 */
import { z } from "zod";
import { setTimeout as sleep } from "node:timers/promises";
import { GitbookError } from "../client";
import { defineResource, resourceClass, type Inputs, type Lookalikes, type Outputs } from "../framework/define";
import { draftField, field, httpUrl, id, organizationIdField, text, wireShape } from "../framework/fields";
import { structurePaths as siteStructurePaths, externalLinkPaths } from "./sitePaths";
import { finishCreate, patchChanged, postBody, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import type { Ctx, Props } from "../framework/resource";
import { placedByGroupId } from "./placement";
import { ApiSiteStructure, LinkItem, navigationOf, readStructure } from "./siteStructure";
import { settingsOf, type ImportRecord } from "../framework/discover";
import type { ApiSite } from "./site";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id().describe("ID of the site whose navigation shows the link. Changing it replaces the link.").register(field, { change: "replace", import: { ref: "Site" } }),
  title: text({ min: 2, max: 128 }).describe("Title of the link in the navigation, 2 to 128 characters.").register(field, { create: "post" }),
  url: httpUrl(2048).describe("Where the link leads: an absolute http(s) URL, at most 2048 characters.").register(field, { create: "post" }),
  description: text({ max: 256 })
    .optional()
    .describe("Short description shown with the link, at most 256 characters. Removing it clears the description.")
    .register(field, { remove: "clear", create: "post" }),
  icon: text({ max: 50 })
    .optional()
    .describe("Name of the icon shown next to the title, at most 50 characters (e.g. `rss`). Removing it removes the icon.")
    .register(field, { remove: "clear", create: "post" }),
  groupId: id()
    .optional()
    .describe(
      "ID of the section group holding the link: pass the SiteSectionGroup's `id` output. Absent: the site's top level. Changing it moves the link in place (last in its new container, until a SiteStructureOrder places it); removing it moves the link back to the top level.",
    )
    // null for the top level.
    .register(field, { wire: "parent", remove: "clear", create: "post", import: { ref: "SiteSectionGroup" } }),
  draft: draftField("link"),
  condition: text({ min: 1, max: 1024 })
    .optional()
    .describe("Adaptive-content expression deciding which visitors see the link, 1 to 1024 characters. Removing it shows the link to everyone.")
    .register(field, { remove: "clear", create: "post" }),
});

const outputs = z.object({});

/** What GitBook answers for a link: its inputs (wireShape), and what the structure reads of it. */
export const ApiSiteExternalLink = z.looseObject({ ...wireShape(inputs), ...LinkItem.shape });
export type ApiSiteExternalLink = z.infer<typeof ApiSiteExternalLink>;

export type SiteExternalLinkInputs = Inputs<typeof inputs>;
export type SiteExternalLinkOutputs = Outputs<typeof inputs, typeof outputs>;

/** The kind's API paths (in sitePaths.ts, beside those of the other kinds of a site, which use each other's). */
export const paths = externalLinkPaths;

// ---- CRUD ----------------------------------------------------------------------------------------

function live(link: ApiSiteExternalLink): Props {
  return {
    title: link.title,
    url: link.url,
    description: link.description ?? undefined,
    icon: link.icon ?? undefined,
    groupId: link.sectionGroup ?? undefined,
    draft: link.draft ?? false,
    condition: link.condition ?? undefined,
  };
}

/** The links of the site's structure, wherever they sit (undefined when the site is gone). */
async function linksOf(ctx: Ctx, org: string, site: string): Promise<ApiSiteExternalLink[] | undefined> {
  const tree = await readStructure(ctx, org, site);
  return tree && [...tree.byId.values()].filter((l) => l.type === "site-external-link").map((l) => ApiSiteExternalLink.parse(l.item));
}

async function findLink(ctx: Ctx, org: string, site: string, id: string): Promise<ApiSiteExternalLink | undefined> {
  return (await linksOf(ctx, org, site))?.find((l) => l.id === id);
}

function lookalikes(ctx: Ctx, given: SiteExternalLinkInputs): Lookalikes<ApiSiteExternalLink> {
  const { organizationId: org, siteId: site } = given;
  return {
    kind: "SiteExternalLink",
    key: `${org}/${site}/${given.title}/${given.url}`,
    what: `external link ${JSON.stringify(given.title)} to ${given.url} in site ${site}`,
    // Links carry no creation time: after a lost answer, the link the POST made has this title and URL,
    // and no other resource holds it.
    candidates: async () => ((await linksOf(ctx, org, site)) ?? []).filter((l) => l.title === given.title && l.url === given.url),
    before: "list",
  };
}

async function create(ctx: Ctx, given: SiteExternalLinkInputs): Promise<{ id: string; outs: SiteExternalLinkOutputs }> {
  const { organizationId: org, siteId: site } = given;
  // POST takes every setting.
  const body = postBody(definition, given);
  const once = () => createOnce(ctx, { ...lookalikes(ctx, given), send: () => ctx.client.post(paths.externalLinks(org, site), { body, schema: ApiSiteExternalLink }) });
  try {
    return finishCreate(definition, given, await once());
  } catch (e) {
    // A refusal of a top-level link may be a site without sections yet; in a group, the group is one.
    if (given.groupId !== undefined || !(e instanceof GitbookError) || (e.status !== 400 && e.status !== 422)) throw e;
    await untilMadeOfSections(ctx, org, site, e);
    return finishCreate(definition, given, await once());
  }
}

/** How long a top-level link waits for its site's first section, created alongside it in the same run (tests shorten it). */
export const sectionWait = { ms: 60_000 };

/**
 * Returns once the site is made of sections, looking at its structure (never the shared cache: the
 * section is created by another provider process) at doubling intervals; fails after sectionWait.ms,
 * saying what the link needs. A site already made of sections returns at once: the caller's one
 * retry then fails, or not, on its own.
 */
async function untilMadeOfSections(ctx: Ctx, org: string, site: string, refused: GitbookError): Promise<void> {
  for (let waited = 0, step = 250; ; waited += step, step = Math.min(step * 2, 4000)) {
    const structure = await ctx.client.get(siteStructurePaths.structure(org, site), { schema: ApiSiteStructure });
    if (structure.type === "sections") return;
    if (waited >= sectionWait.ms) break;
    await sleep(step);
  }
  throw new Error(
    `SiteExternalLink: GitBook takes external links only in a site made of sections, and site ${site} had none after ${sectionWait.ms / 1000} s (${refused.apiMessage}). ` +
      "Declare a SiteSection (or SiteSectionGroup) in this site, and give the link `dependsOn: [section]` so it is created after it; or put the link in a group (`groupId`).",
  );
}

async function read(ctx: Ctx, id: string, props: SiteExternalLinkOutputs): Promise<SiteExternalLinkOutputs | undefined> {
  const link = await findLink(ctx, props.organizationId, props.siteId, id);
  return link && refreshed(definition, props, link);
}

async function update(ctx: Ctx, id: string, olds: SiteExternalLinkOutputs, news: SiteExternalLinkInputs, changed: readonly string[]): Promise<SiteExternalLinkOutputs> {
  const { organizationId: org, siteId: site } = news;
  return patchChanged(definition, changed, news, {
    id,
    patch: (body) => ctx.client.patch(paths.externalLink(org, site, id), { body, schema: ApiSiteExternalLink }),
    find: () => findLink(ctx, org, site, id),
    where: ` in site ${site}`,
  });
}

async function remove(ctx: Ctx, id: string, props: SiteExternalLinkOutputs): Promise<void> {
  await ctx.client.delete(paths.externalLink(props.organizationId, props.siteId, id));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteExternalLink",
  // Part of its site's structure, which a site-level Git Sync installation owns when there is one.
  structure: true,
  adoptable: true,
  noun: "external link",
  summary:
    "A link to another website in a site's navigation, at its top level or in a section group. GitBook takes links only in a site made of sections: give a top-level link `dependsOn` a section of the site (see the example); one created before any section exists waits for the first (up to a minute), so the two may also be declared independently.",
  inputs,
  outputs,
  live,
  computed: () => ({}),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  inProgram: placedByGroupId("SiteExternalLink"),
  // Every link of a site in navigation order, from the site's structure.
  import: {
    read: {
      under: "Site",
      into: "externalLinks",
      async find(ctx, site): Promise<ImportRecord[]> {
        const nav = await navigationOf(ctx, ctx.sourceOf<ApiSite>(site!));
        return nav.ofType("site-external-link", ApiSiteExternalLink).map((l) => ({ ...settingsOf(definition, l), id: l.id }));
      },
    },
    navigation: { name: (l) => String(l.title), fallback: "link", docsSite: { type: "link" } },
  },
});

/** A link to another website in a GitBook site's navigation. */
export const SiteExternalLink = resourceClass(definition);
export type SiteExternalLink = InstanceType<typeof SiteExternalLink>;
export type SiteExternalLinkArgs = ConstructorParameters<typeof SiteExternalLink>[1];
