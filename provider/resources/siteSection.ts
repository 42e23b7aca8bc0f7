/**
 * SiteSection: a top-level section of a docs site (a tab in the site's header), showing spaces.
 *
 * The API never creates an empty section: POST @SITE/sections takes a space and creates the section
 * together with that space's site space, the section's first and default one. That site space belongs
 * to this resource (its ID is the `siteSpaceId` output); further spaces of the section are SiteSpace
 * resources with `sectionId` set.
 *
 * There is no GET for a single section: reads find it in the site's section list, which the client
 * shares between concurrent reads, so refreshing many sections of one site costs one listing.
 */
import { z } from "zod";
import { apiObject } from "../client";
import type { HeldObject } from "../framework/cascade";
import { listFresh } from "../framework/lists";
import { defineResource, resourceClass, type Inputs, type Lookalikes, type Outputs } from "../framework/define";
import { draftField, field, forceDestroyField, id, localized, organizationIdField, text, wireShape } from "../framework/fields";
import { sitePaths, siteSpacePaths, sectionPaths } from "./sitePaths";
// Circular (siteSpace.ts imports this module's paths too): read only when a call runs.
import { findListed } from "../framework/lists";
import { finishCreate, patchAfterCreate, postBody, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import type { Ctx, Props } from "../framework/resource";
import { placedByGroupId } from "./placement";
import { forgetSection, learnSection } from "./siteContents";
import * as oldPaths from "./oldPathRedirects";
import { redirectsOnMove } from "./redirectRules";
import { uniquePath, URL_SEGMENT_RULE, urlSegment } from "./urlPaths";
import { settingsOf, type ImportRecord } from "../framework/discover";
import { navigationOf, SectionItem } from "./siteStructure";
import type { ApiSite } from "./site";
import { addressField, addressOf, declaresAddress } from "./siteAddress";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id().describe("ID of the site the section belongs to. Changing it replaces the section.").register(field, { change: "replace", import: { ref: "Site" } }),
  spaceId: id()
    .describe(
      "ID of the space the section is created with: it becomes the section's first (default) site space, managed by this resource and exposed as `siteSpaceId`. Do not declare a SiteSpace for this same space in this section. Changing it replaces the section.",
    )
    // The section's first site space cannot be swapped for another space through the section.
    .register(field, { change: "replace", create: "post", import: { ref: "Space" } }),
  title: text({ min: 2, max: 128 })
    .optional()
    .describe(
      "Title of the section, 2 to 128 characters. When omitted at creation the section shows the title of its space; removing it later leaves the current title in place (GitBook's API can change a section's title but not remove it).",
    )
    .register(field, { create: "post" }),
  icon: text({ max: 50 })
    .optional()
    .describe("Name of the icon shown next to the title, at most 50 characters (e.g. `book`). Removing it removes the icon.")
    .register(field, { remove: "clear", create: "post" }),
  path: urlSegment(100)
    .optional()
    .describe(
      `URL path segment of the section, 1 to 100 characters: ${URL_SEGMENT_RULE}. Unique among the sections of the site, whatever group holds them (a second one at the same path fails the preview, naming both). When omitted the API derives it from the title; removing it leaves the current path.`,
    )
    // POST takes only the space, title, icon and group: the rest follows in one PATCH.
    .register(field, { create: "patch" }),
  condition: text({ min: 1, max: 1024 })
    .optional()
    .describe("Adaptive-content expression deciding which visitors see the section, 1 to 1024 characters. Removing it shows the section to everyone.")
    .register(field, { remove: "clear", create: "patch" }),
  description: text({ max: 256 })
    .optional()
    .describe("Short description of the section, at most 256 characters. Removing it clears the description.")
    .register(field, { remove: "clear", create: "patch" }),
  localizedTitle: localized(128, "section title")
    .optional()
    .describe(
      "The section's title in other languages than the site's own, by language code (`fr`, `de`, `pt-br`...: GitBook's TranslationLanguage), each at most 128 characters, e.g. `{ fr: \"Guides\" }`. Compared and written whole. Removing it removes every translation.",
    )
    // GitBook's PATCH takes no null here: the empty record clears it.
    .register(field, { remove: { reset: {} }, create: "patch" }),
  draft: draftField("section"),
  groupId: id()
    .optional()
    .describe(
      "ID of the section group holding the section: pass the SiteSectionGroup's `id` output. A section's group has one source: a section with `groupId` must not be listed in a SiteSectionGroup's `sections`, nor name a group that declares `sections` (which hold every section of the group): the preview fails naming both. Refresh shows the section moved in the app, and the next `up` moves it back. Absent: the section is created at the top level, and this resource leaves its place to a SiteSectionGroup's `sections` or a SiteStructureOrder listing it (refresh shows a move there), or to the app when neither does. Changing it moves the section in place (last in its new container, until a SiteStructureOrder places it); removing it moves the section back to the top level.",
    )
    // null for the top level.
    .register(field, { wire: "siteSectionGroupId", remove: "clear", create: "post", import: { ref: "SiteSectionGroup" } }),
  default: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      "When true, this section is the site's default (the one shown at the site's root). False or absent leaves the choice alone: a site always has a default section, so setting it back to false does not move it.",
    )
    // Set on the site, not the section.
    .register(field, { change: "custom", import: { omit: false } }),
  forceDestroy: forceDestroyField("section", "every site space in it, the one it was created with and any other; the spaces they show stay"),
  ...oldPaths.inputs("section"),
  address: addressField(),
});

/**
 * What the section's own writes decide, nothing else: its published URL is not an output, since the
 * site's publication (a SitePublication, applied after the section), its basename and proxy (the
 * Site) and its custom hostname (the app) change it without this resource being applied again, so
 * state would hold a URL GitBook no longer has (issue 42).
 */
const outputs = z.object({
  siteSpaceId: z
    .string()
    .optional()
    .describe("The site space created with the section, showing `spaceId`; absent only if removed outside Pulumi."),
});

/** What GitBook answers for a section: its inputs (wireShape), and what the structure reads of it (its group, the site spaces it holds). */
export const ApiSiteSection = z.looseObject({ ...wireShape(inputs), ...SectionItem.shape });
export type ApiSiteSection = z.infer<typeof ApiSiteSection>;

export type SiteSectionInputs = Inputs<typeof inputs>;
export type SiteSectionOutputs = Outputs<typeof inputs, typeof outputs>;

/** The kind's API paths (in sitePaths.ts, beside those of the other kinds of a site, which use each other's). */
export const paths = sectionPaths;

// ---- CRUD ----------------------------------------------------------------------------------------

type ApiSiteSpaceOf = NonNullable<ApiSiteSection["siteSpaces"]>[number];

/**
 * The section's own site space: the recorded one, else the one showing the declared space. With none
 * recorded (adoption) and none showing the declared space, the section's first site space stands for
 * the space it was made from, so a mismatched adoption shows up as a spaceId change.
 */
function ownSiteSpace(section: ApiSiteSection, props: Props): ApiSiteSpaceOf | undefined {
  const spaces = section.siteSpaces ?? [];
  const own = spaces.find((ss) => ss.id === props.siteSpaceId) ?? spaces.find((ss) => ss.space.id === props.spaceId);
  return own ?? (props.siteSpaceId === undefined ? spaces[0] : undefined);
}

/** Every input the API reports, keyed like the inputs (`props` resolves what is only partly managed). */
function live(section: oldPaths.WithOldPaths<ApiSiteSection>, props: Props): Props {
  const out: Props = {
    ...oldPaths.liveOldPaths(section),
    title: section.title,
    icon: section.icon ?? undefined,
    path: section.path,
    condition: section.condition ?? undefined,
    description: section.description ?? undefined,
    localizedTitle: Object.keys(section.localizedTitle ?? {}).length > 0 ? section.localizedTitle : undefined,
    groupId: section.sectionGroup ?? undefined,
    draft: section.draft ?? false,
    // Only `default: true` is managed; a declared false must not read as drift when the section is the default.
    default: props.default === true ? section.default === true : props.default,
  };
  const own = ownSiteSpace(section, props);
  // Without its site space (removed outside Pulumi) the section no longer says which space it was made from.
  if (own) out.spaceId = own.space.id;
  return out;
}

/** The site as the default's PATCH answers it, of which nothing is read (site.ts's ApiSite would load the site-space module, which loads this one). */
const ApiSiteAnswer = apiObject("site", {});

async function makeDefault(ctx: Ctx, org: string, site: string, id: string): Promise<void> {
  await ctx.client.patch(sitePaths.site(org, site), { body: { defaultSiteSection: id }, schema: ApiSiteAnswer });
}

function lookalikes(ctx: Ctx, given: SiteSectionInputs): Lookalikes<ApiSiteSection> {
  const { organizationId: org, siteId: site, spaceId } = given;
  return {
    kind: "SiteSection",
    key: `${org}/${site}/${spaceId}`,
    what: `section of space ${spaceId}${given.title === undefined ? "" : ` titled ${JSON.stringify(given.title)}`} in site ${site}`,
    // After a lost answer, the section the POST made shows this space (and bears the declared title).
    candidates: async () =>
      (await ctx.client.listAll(paths.sections(org, site), ApiSiteSection)).filter(
        (s) => (s.siteSpaces ?? []).some((ss) => ss.space.id === spaceId) && (given.title === undefined || s.title === given.title),
      ),
    // Sections carry no creation time, and nothing stops a section made in the app from showing the
    // same space (GitBook's spec refuses no second section of a space; the emulator takes one): only
    // the listing before tells such a namesake from ours.
    before: "list",
  };
}

async function create(ctx: Ctx, given: SiteSectionInputs): Promise<{ id: string; outs: SiteSectionOutputs }> {
  const { organizationId: org, siteId: site } = given;
  const post = postBody(definition, given);
  const section = await createOnce(ctx, { ...lookalikes(ctx, given), send: () => ctx.client.post(paths.sections(org, site), { body: post, schema: ApiSiteSection }) });
  // SiteSpaces added to this new section then need no listing to know what it already shows.
  learnSection(ctx.client, org, site, section.id, section.siteSpaces);
  // The default is set on the site: one site PATCH after the section's own.
  const patch = (id: string, body: Props) => ctx.client.patch(paths.section(org, site, id), { body, schema: ApiSiteSection });
  return finishCreate(
    definition,
    given,
    section,
    patchAfterCreate(definition, given, patch, async (latest) => (given.default === true ? (await makeDefault(ctx, org, site, latest.id), { ...latest, default: true }) : undefined)),
  );
}

/** Who owns the section's old-path redirects, for oldPathRedirects.ts. */
const owner = (id: string, org: string, site: string, section: ApiSiteSection) => ({ id, what: `site section ${id}`, org, site, url: section.urls?.published });

async function read(ctx: Ctx, id: string, props: SiteSectionOutputs): Promise<SiteSectionOutputs | undefined> {
  const section = await findListed(ctx, paths.sections(props.organizationId, props.siteId), ApiSiteSection, id);
  return section && refreshed(definition, props, await oldPaths.readOwned(ctx, owner(id, props.organizationId, props.siteId, section), props, section));
}

async function update(ctx: Ctx, id: string, olds: SiteSectionOutputs, news: SiteSectionInputs, changed: readonly string[]): Promise<SiteSectionOutputs> {
  const { organizationId: org, siteId: site } = news;
  return (await oldPaths.updatePathOwner(ctx, definition, id, olds, news, changed, {
    patch: (body) => ctx.client.patch(paths.section(org, site, id), { body, schema: ApiSiteSection }),
    find: () => findListed(ctx, paths.sections(org, site), ApiSiteSection, id),
    where: ` in site ${site}`,
    makeDefault: () => makeDefault(ctx, org, site, id),
    defaultOf: "the site's default",
    owner: (section) => owner(id, org, site, section),
    outputs: (inputs, section) => definition.outputsOf(inputs, section, olds),
  })) as SiteSectionOutputs;
}

async function remove(ctx: Ctx, id: string, props: SiteSectionOutputs): Promise<void> {
  const { organizationId: org, siteId: site } = props;
  forgetSection(ctx.client, org, site, id);
  await ctx.client.delete(paths.section(org, site, id));
  await oldPaths.deleteOldPaths(ctx, org, site, oldPaths.ownedIn(props));
}

/**
 * What deleting the section takes along: its site spaces other than the one it was created with (its
 * `siteSpaceId`). A SiteSpace naming this section by its id output has been deleted by then, so one
 * still there is made in the app, or declared with a fixed sectionId, and would vanish unnoticed.
 * There is no GET for one section: the site's section list is read, fresh (never the client's shared
 * copy, which may predate an edit in the app).
 */
async function heldSiteSpaces(ctx: Ctx, id: string, props: Props): Promise<HeldObject[]> {
  const { organizationId: org, siteId: site } = props as SiteSectionOutputs;
  const sections = await listFresh(ctx, paths.sections(org, site), ApiSiteSection);
  const section = sections?.find((s) => s.id === id);
  // A site space whose DELETE GitBook answered 204 or 205 is gone for good (none is ever restored):
  // a listing sent before that DELETE may still show it (see `discountsDeleted` below).
  const gone = (ssId: string) => ctx.client.wasDeleted(siteSpacePaths.siteSpace(org, site, ssId));
  return (section?.siteSpaces ?? [])
    .filter((ss) => ss.id !== props.siteSpaceId && !gone(ss.id))
    .map((ss) => ({ kind: "SiteSpace", title: ss.title ?? ss.space.id, id: ss.id }));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteSection",
  // Part of its site's structure, which a site-level Git Sync installation owns when there is one.
  structure: true,
  adoptable: true,
  noun: "site section",
  summary:
    "A top-level section of a site (a tab in its header), created together with its first space. GitBook deletes a section with every site space in it: a delete that would take along a site space other than its own (made in the app, or a SiteSpace naming the section by a fixed ID) fails before deleting anything, listing it, unless `forceDestroy` is set.",
  inputs,
  outputs,
  // Section paths are unique within a site: a replacement with the same declared path would collide.
  deleteBeforeReplace: true,
  live,
  computed: (section: oldPaths.WithOldPaths<ApiSiteSection>, props) => {
    const siteSpaceId = ownSiteSpace(section, props)?.id;
    return { ...(siteSpaceId ? { siteSpaceId } : {}), ...oldPaths.ownedOldPaths(section) };
  },
  prepare: (given, olds) => ({ inputs: oldPaths.withOldPaths(given, olds) }),
  openWrites: oldPaths.openWrites,
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  cascade: { consequence: "GitBook deletes a section with every site space in it.", held: heldSiteSpaces, discountsDeleted: true },
  inProgram: (name, args) => {
    uniquePath("SiteSection")(name, args);
    redirectsOnMove("SiteSection")(name, args);
    const placed = placedByGroupId("SiteSection")(name, args);
    const path = declaresAddress("SiteSection", args);
    return (section) => {
      placed?.(section);
      path(section);
    };
  },
  // Its old-path rules lead to its published URL, built on the site's address.
  fromProgram: addressOf((args) => args.redirectOldPath === true),
  // Every section of a site, wherever it sits, in navigation order (a group's where the group is), from the site's structure.
  import: {
    read: {
      under: "Site",
      into: "sections",
      async find(ctx, site): Promise<ImportRecord[]> {
        const nav = await navigationOf(ctx, ctx.sourceOf<ApiSite>(site!));
        // `live` reads `default` only where the program declares it: the import declares it as it is. The
        // section's space is the generator's choice among its site spaces (the one it was made from).
        return nav.ofType("site-section", ApiSiteSection).map((s) => {
          const { spaceId: _chosenLater, ...settings } = settingsOf(definition, s);
          return ctx.keep({ ...settings, id: s.id, default: s.default === true }, s);
        });
      },
    },
    // A DocsSite's default entry; the generator writes what a section is made from (its first space, its site spaces) itself.
    navigation: { name: (s) => String(s.path), fallback: "section", docsSite: {} },
  },
});

/** A section of a GitBook docs site, created with its first space. */
export const SiteSection = resourceClass(definition);
export type SiteSection = InstanceType<typeof SiteSection>;
export type SiteSectionArgs = ConstructorParameters<typeof SiteSection>[1];
