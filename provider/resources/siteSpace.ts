/**
 * SiteSpace: a further space published in a section of a docs site (a section's site spaces are its
 * variants, e.g. versions or languages).
 *
 * The section is always named (`sectionId`), and should be the SiteSection's `id` output: deleting a
 * section deletes what it holds, so a site space must depend on its section for Pulumi to replace or
 * remove it with the section. Placed implicitly (GitBook puts a site space without a section into the
 * site's default section, or, in a site with no sections, into a new section it names after the site),
 * it would live in a section Pulumi does not know it depends on, and vanish with it unnoticed.
 *
 * A SiteSection creates the site space of the space it is created with; that one is managed through
 * the SiteSection (its `siteSpaceId` output), never through a SiteSpace. Creating a SiteSpace for a
 * space already shown in the target section fails rather than adding a second copy: set `adoptId` to
 * the existing site space to manage it here instead.
 *
 * There is no GET for a single site space: reads find it in the site's site-space list, which the
 * client shares between concurrent reads, so refreshing many site spaces of one site costs one listing.
 */
import { z } from "zod";
import { defineResource, resourceClass, type Inputs, type Outputs, type Lookalikes } from "../framework/define";
import { draftField, field, id, organizationIdField, text, wireShape } from "../framework/fields";
import { sectionPaths as siteSectionPaths, siteSpacePaths } from "./sitePaths";
import { findListed } from "../framework/lists";
import { finishCreate, patchAfterCreate, postBody, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import type { Ctx, Props } from "../framework/resource";
import { forgetSection, knownContents } from "./siteContents";
import * as oldPaths from "./oldPathRedirects";
import { redirectsOnMove } from "./redirectRules";
import { uniquePath, URL_SEGMENT_RULE, urlSegment } from "./urlPaths";
import { settingsOf, type Discovery, type ImportRecord } from "../framework/discover";
import { navigationOf, SiteSpaceItem } from "./siteStructure";
import { addressField, addressOf } from "./siteAddress";
import { ApiSiteSection } from "./siteSection";
import type { ApiSite } from "./site";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id().describe("ID of the site to publish the space in. Changing it replaces the site space.").register(field, { change: "replace", import: { ref: "Site" } }),
  sectionId: id()
    .describe(
      "ID of the section to add the space to: pass the SiteSection's `id` output (e.g. `guides.id`), so that replacing or removing the section replaces or removes this site space with it (with a fixed ID, deleting that section fails while this site space is in it, as GitBook would delete it too). Required: without it GitBook would put the space in the site's default section (or, in a site without sections, in a new section it names after the site), which deletes it when that section goes, without Pulumi knowing. The space a SiteSection was created with already has its site space there: manage that one through the SiteSection. Changing it replaces the site space.",
    )
    .register(field, { change: "replace", import: { ref: "SiteSection" } }),
  spaceId: id()
    .describe("ID of the space whose content the site space shows. Changing it repoints the site space in place (its path and URL stay).")
    .register(field, { import: { ref: "Space" } }),
  path: urlSegment(100)
    .optional()
    .describe(
      `URL path segment of the site space within its section, 1 to 100 characters: ${URL_SEGMENT_RULE}. Unique among the site spaces of the section (a second one at the same path fails the preview, naming both). When omitted the API derives it from the space title; removing it leaves the current path.`,
    )
    // POST takes only the space and section: path and condition follow in one PATCH.
    .register(field, { create: "patch" }),
  condition: text({ min: 1, max: 1024 })
    .optional()
    .describe("Adaptive-content expression deciding which visitors see this site space, 1 to 1024 characters. Removing it shows the site space to everyone.")
    .register(field, { remove: "clear", create: "patch" }),
  hidden: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      "Whether the site space is hidden from the site's navigation (its version or language menu); its pages stay published at their URL. A site space created without it is shown; removing it shows the site space again.",
    )
    .register(field, { remove: { reset: false }, create: "patch", import: { omit: false } }),
  draft: draftField("site space"),
  pageId: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .optional()
    .describe(
      "ID of a page of the space, shown at the site space's root instead of the space's own landing page (a custom home page). Removing it shows the landing page again. A page belongs to its space: GitBook drops the home page when `spaceId` changes, so change `pageId` to a page of the new space in the same update.",
    )
    .register(field, { remove: "clear", create: "patch" }),
  default: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      "When true, this site space is the default of its section. False or absent leaves the choice alone: a section always has a default, so setting it back to false does not move it.",
    )
    // Set on the section, not the site space.
    .register(field, { change: "custom", import: { omit: false } }),
  ...oldPaths.inputs("site space"),
  address: addressField(),
});

/**
 * What the site space's own writes decide, nothing else: its title is its space's (a Space renamed in
 * the same run changes it), and its published URL follows the site's publication, basename, proxy and
 * hostname and its section's path, all written by other resources: as outputs they would be stale
 * after the `up` that changed them (issue 42).
 */
const outputs = z.object({
  parentSectionId: z.string().optional().describe("The section holding the site space, as GitBook reports it."),
});

/** What GitBook answers for a site space: its inputs (wireShape), and what the structure reads of it. */
export const ApiSiteSpace = z.looseObject({ ...wireShape(inputs), ...SiteSpaceItem.shape });
export type ApiSiteSpace = z.infer<typeof ApiSiteSpace>;

export type SiteSpaceInputs = Inputs<typeof inputs>;
export type SiteSpaceOutputs = Outputs<typeof inputs, typeof outputs>;

/** The kind's API paths (in sitePaths.ts, beside those of the other kinds of a site, which use each other's). */
export const paths = siteSpacePaths;

// ---- CRUD ----------------------------------------------------------------------------------------

function live(ss: oldPaths.WithOldPaths<ApiSiteSpace>, props: Props): Props {
  return {
    ...oldPaths.liveOldPaths(ss),
    spaceId: ss.space.id,
    sectionId: ss.section ?? undefined,
    path: ss.path,
    condition: ss.condition ?? undefined,
    hidden: ss.hidden ?? false,
    draft: ss.draft ?? false,
    pageId: ss.pageId ?? undefined,
    // Only `default: true` is managed; a declared false must not read as drift when it is the default.
    default: props.default === true ? ss.default === true : props.default,
  };
}

function listSiteSpaces(ctx: Ctx, org: string, site: string): Promise<ApiSiteSpace[]> {
  return ctx.client.listAll(paths.siteSpaces(org, site), ApiSiteSpace);
}

/**
 * The site spaces of one section, from the site's section listing, which embeds each section's site
 * spaces: it holds one item per section where the site-space listing holds one per site space, so a
 * site of 1000 sections with a second site space each lists in one page instead of two (the listing
 * runs before every create, see lookalikes). A section listed without its site spaces falls back to
 * the site-space listing, since reading it as empty would make a lost create look absent.
 */
async function siteSpacesIn(ctx: Ctx, org: string, site: string, section: string): Promise<SiteSpaceItem[]> {
  const listed = (await ctx.client.listAll(siteSectionPaths.sections(org, site), ApiSiteSection)).find((s) => s.id === section);
  if (listed?.siteSpaces) return listed.siteSpaces.filter((ss) => (ss.section ?? section) === section);
  return (await listSiteSpaces(ctx, org, site)).filter((ss) => ss.section === section);
}

/** The section's default site space is set on the section. */
async function makeDefault(ctx: Ctx, org: string, site: string, section: string, ss: ApiSiteSpace): Promise<void> {
  await ctx.client.patch(siteSectionPaths.section(org, site, section), { body: { defaultSiteSpace: ss.id }, schema: ApiSiteSection });
}

/** Site spaces showing this space in this section: before the POST, none may; after a lost answer, one that does is the POST's. */
function lookalikes(ctx: Ctx, inputs: SiteSpaceInputs): Lookalikes<ApiSiteSpace> {
  const { organizationId: org, siteId: site, spaceId, sectionId: container } = inputs;
  return {
    kind: "SiteSpace",
    key: `${org}/${site}/${container}/${spaceId}`,
    what: `site space of space ${spaceId} in section ${container} of site ${site}`,
    candidates: async () => (await siteSpacesIn(ctx, org, site, container)).filter((ss) => ss.space.id === spaceId).map((ss) => ApiSiteSpace.parse(ss)),
    before: "list",
  };
}

async function create(ctx: Ctx, inputs: SiteSpaceInputs): Promise<{ id: string; outs: SiteSpaceOutputs }> {
  const { organizationId: org, siteId: site, spaceId, sectionId: container } = inputs;
  const same = lookalikes(ctx, inputs);
  // The API would happily show the same space twice in one section; that is never what a program means.
  // A section this deployment created is known without a request (see siteContents.ts); others are listed.
  const known = knownContents(ctx.client, org, site, container);
  const listed = known ? undefined : await same.candidates();
  const existing = known ? (known.has(spaceId) ? { id: known.get(spaceId) } : undefined) : listed![0];
  if (existing && existing.id === undefined) {
    throw new Error(`SiteSpace: space ${spaceId} is declared twice for section ${container} of site ${site} in this program; declare it once.`);
  }
  if (existing) {
    throw new Error(
      `SiteSpace: space ${spaceId} is already published in section ${container} of site ${site} as site space ${existing.id}. ` +
        `If a SiteSection was created with this space, that site space is managed by the SiteSection (its siteSpaceId output); ` +
        `otherwise set adoptId: "${existing.id}" to manage it with this resource.`,
    );
  }
  // Nothing showed this space in the section before we sent, so after a lost answer one that does is
  // ours (unless another resource of this deployment holds it).
  // Reserved before sending, so a second SiteSpace for this space and section fails instead of racing this one.
  known?.set(spaceId, undefined);
  let ss: ApiSiteSpace;
  try {
    ss = await createOnce(ctx, {
      ...same,
      send: () => ctx.client.post(paths.siteSpaces(org, site), { body: { ...postBody(definition, inputs), spaceId, sectionId: container }, schema: ApiSiteSpace }),
      // The guard's listing, when it made one, is the listing before (it found none). What this process
      // remembers of a section it created is not proof, so then createOnce lists: GitBook's spec does
      // not refuse a space shown twice in a section (the emulator takes it), so a site space made in
      // the app meanwhile would look like ours.
      before: listed ?? "list",
    });
  } catch (e) {
    // Whether the space is now shown there is unknown: later SiteSpaces for this section list instead.
    forgetSection(ctx.client, org, site, container);
    throw e;
  }
  known?.set(spaceId, ss.id);
  // The default is set on the section: one PATCH after the site space's own.
  const patch = (id: string, body: Props) => ctx.client.patch(paths.siteSpace(org, site, id), { body, schema: ApiSiteSpace });
  return finishCreate(
    definition,
    inputs,
    ss,
    patchAfterCreate(definition, inputs, patch, async (latest) =>
      inputs.default === true ? (await makeDefault(ctx, org, site, latest.section ?? container, latest), { ...latest, default: true }) : undefined,
    ),
  );
}

/** Who owns the site space's old-path redirects, for oldPathRedirects.ts. */
const owner = (id: string, org: string, site: string, ss: ApiSiteSpace) => ({ id, what: `site space ${id}`, org, site, url: ss.urls?.published });

async function read(ctx: Ctx, id: string, props: SiteSpaceOutputs): Promise<SiteSpaceOutputs | undefined> {
  const ss = await findListed(ctx, paths.siteSpaces(props.organizationId, props.siteId), ApiSiteSpace, id);
  return ss && refreshed(definition, props, await oldPaths.readOwned(ctx, owner(id, props.organizationId, props.siteId, ss), props, ss));
}

async function update(ctx: Ctx, id: string, olds: SiteSpaceOutputs, news: SiteSpaceInputs, changed: readonly string[]): Promise<SiteSpaceOutputs> {
  const { organizationId: org, siteId: site } = news;
  // Repointing changes which space the section shows.
  if (changed.includes("spaceId")) forgetSection(ctx.client, org, site, olds.parentSectionId ?? olds.sectionId);
  return (await oldPaths.updatePathOwner(ctx, definition, id, olds, news, changed, {
    patch: (body) => ctx.client.patch(paths.siteSpace(org, site, id), { body, schema: ApiSiteSpace }),
    find: () => findListed(ctx, paths.siteSpaces(org, site), ApiSiteSpace, id),
    where: ` in site ${site}`,
    makeDefault: (ss) => makeDefault(ctx, org, site, ss.section ?? news.sectionId, ss),
    defaultOf: "its section's default",
    owner: (ss) => owner(id, org, site, ss),
    outputs: (inputs, ss) => definition.outputsOf(inputs, ss),
  })) as SiteSpaceOutputs;
}

async function remove(ctx: Ctx, id: string, props: SiteSpaceOutputs): Promise<void> {
  forgetSection(ctx.client, props.organizationId, props.siteId, props.parentSectionId ?? props.sectionId);
  await ctx.client.delete(paths.siteSpace(props.organizationId, props.siteId, id));
  await oldPaths.deleteOldPaths(ctx, props.organizationId, props.siteId, oldPaths.ownedIn(props));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteSpace",
  // Part of its site's structure, which a site-level Git Sync installation owns when there is one.
  structure: true,
  adoptable: true,
  noun: "site space",
  summary:
    "A further space shown in a section (a version, a language, an audience); it names its section through the SiteSection's `id` output, so it is replaced and removed with it.",
  inputs,
  outputs,
  // A site space cannot outlive the section it is replaced with (deleting a section deletes what it
  // holds), and a replacement landing where the old one is would be refused as showing the space twice.
  deleteBeforeReplace: true,
  // State written before sectionId was required may lack it: the section the site space is in stands
  // for it, so declaring that section now changes nothing.
  view: (props) => ({ ...props, sectionId: props.sectionId ?? props.parentSectionId }),
  live,
  computed: (ss: oldPaths.WithOldPaths<ApiSiteSpace>) => ({ ...(ss.section ? { parentSectionId: ss.section } : {}), ...oldPaths.ownedOldPaths(ss) }),
  prepare: (given, olds) => ({ inputs: oldPaths.withOldPaths(given, olds) }),
  openWrites: oldPaths.openWrites,
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  inProgram: (name, args) => {
    uniquePath("SiteSpace")(name, args);
    redirectsOnMove("SiteSpace")(name, args);
  },
  // Its old-path rules lead to its published URL, built on the site's address and its section's path.
  fromProgram: addressOf((args) => args.redirectOldPath === true),
  // Every site space of a section, the one it was made from first (the importer's SiteSection takes that one).
  import: {
    read: {
      under: "SiteSection",
      into: "siteSpaces",
      async find(ctx, section) {
        const nav = await navigationOf(ctx, ctx.sourceOf<ApiSite>(ctx.parentOf(section!)!));
        return nav.siteSpacesOf(ctx.sourceOf<ApiSiteSection>(section!)).map((ss) => siteSpaceRecord(ctx, ss));
      },
    },
  },
});

/** A site space as the importer records it: the space it shows by ID, and by title for names. */
export function siteSpaceRecord(ctx: Discovery, item: SiteSpaceItem): ImportRecord {
  const ss = ApiSiteSpace.parse(item);
  const title = (ss.space as { title?: unknown }).title;
  // `live` reads `default` only where the program declares it: the import declares it as it is.
  return ctx.keep({ ...settingsOf(definition, ss), id: ss.id, default: ss.default === true, space: { id: ss.space.id, ...(typeof title === "string" ? { title } : {}) } }, ss);
}

/** A further space in a section of a GitBook docs site. */
export const SiteSpace = resourceClass(definition);
export type SiteSpace = InstanceType<typeof SiteSpace>;
export type SiteSpaceArgs = ConstructorParameters<typeof SiteSpace>[1];
