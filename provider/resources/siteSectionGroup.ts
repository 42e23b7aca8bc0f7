/**
 * SiteSectionGroup: a named group of a site's sections in its navigation (e.g. "Products" holding one
 * section per product).
 *
 * A section joins a group in one of two ways, one per section:
 * - the group's `sections` (authoritative: the group holds exactly those sections; GitBook takes them
 *   in when the group is created, and afterwards each one that joins or leaves is one PATCH of that
 *   section's `siteSectionGroupId`, GitBook's only way to change a group's sections);
 * - each SiteSection's `groupId`, the group's `sections` left out.
 * Both for one section (or two groups' `sections` listing it) would fight at every refresh and up, so
 * the program's process refuses it before anything is sent, naming both resources (placement.ts).
 *
 * GitBook has no GET for one group: reads find it in the site's structure, which the client shares
 * between concurrent reads, so refreshing every group, link and order of a site costs one GET. The
 * order of what a group holds is a SiteStructureOrder's.
 */
import { z } from "zod";
import { isUnknown } from "../framework/check";
import { defineResource, resourceClass, type Inputs, type Outputs, type Lookalikes } from "../framework/define";
import { draftField, field, id, organizationIdField, text, wireShape } from "../framework/fields";
import { sectionPaths as siteSectionPaths, sectionGroupPaths } from "./sitePaths";
import { changedBody, finishCreate, patchChanged, postBody, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import { PartialFailure } from "../framework/failure";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import { groupDeclares } from "./placement";
import { groupContainer, groupItem, groupItemShape, type ApiStructureItem, idsIn, missingItems, navigationOf, oneAtATime, readStructure, sectionsOfGroup, type SiteTree } from "./siteStructure";
import { ApiSiteSection } from "./siteSection";
import { defined, settingsOf, type ImportRecord } from "../framework/discover";
import type { ApiSite } from "./site";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id().describe("ID of the site whose navigation holds the group. Changing it replaces the group.").register(field, { change: "replace", import: { ref: "Site" } }),
  title: text({ min: 1, max: 100 }).describe("Title of the group in the navigation, 1 to 100 characters.").register(field, { create: "post" }),
  icon: text({ max: 50 })
    .optional()
    .describe("Name of the icon shown next to the title, at most 50 characters (e.g. `box`). Removing it removes the icon.")
    .register(field, { remove: "clear", create: "post" }),
  draft: draftField("group"),
  sections: z
    .array(id())
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((s, i) => {
        if (isUnknown(s)) return;
        if (seen.has(s)) ctx.addIssue({ code: "custom", path: [i], message: `lists section ${s} twice` });
        seen.add(s);
      });
    })
    .optional()
    .describe(
      "IDs of the sections the group holds: pass SiteSection `id` outputs. When declared, the group holds exactly these: a section added outside Pulumi shows as drift and is taken back to the site's top level, one removed is brought back. Their order does not matter here (a SiteStructureOrder orders them). A section added is moved in place from wherever it was; a section removed goes back to the site's top level (last there). Leave it out to manage membership with SiteSection `groupId` instead: a section listed here must not declare `groupId`, nor be listed by another group, and no other section may name this group by its `groupId` (the preview fails naming both resources). Applied whole or not at all: a listed ID that is no section of the site fails the `up` naming it before anything is written (the group's own settings included), and a move failing part way is recorded as the sections the group then holds. Removing it leaves the sections where they are.",
    )
    // GitBook takes them in at creation; afterwards each section that joins or leaves is a PATCH of that section.
    .register(field, { change: "custom", create: "post", authoritative: true }),
});

const outputs = z.object({});

/** What GitBook answers for a group: its inputs (wireShape), and what the structure reads of it (what it holds, the group it is nested in). */
const groupShape = { ...wireShape(inputs), ...groupItemShape };
export type ApiSiteSectionGroup = z.output<z.ZodObject<typeof groupShape, z.core.$loose>> & { children?: ApiStructureItem[] };
export const ApiSiteSectionGroup: z.ZodType<ApiSiteSectionGroup> = groupItem(groupShape);

export type SiteSectionGroupInputs = Inputs<typeof inputs>;
export type SiteSectionGroupOutputs = Outputs<typeof inputs, typeof outputs>;

/** The kind's API paths (in sitePaths.ts, beside those of the other kinds of a site, which use each other's). */
export const paths = sectionGroupPaths;

// ---- CRUD ----------------------------------------------------------------------------------------

/** The group as the structure shows it, with the sections it holds (in order). */
type Group = ApiSiteSectionGroup & { held: string[] };

function live(group: Group): Props {
  return { title: group.title, icon: group.icon ?? undefined, draft: group.draft ?? false, sections: group.held };
}

function groupIn(tree: SiteTree, id: string): Group | undefined {
  const found = tree.byId.get(id);
  if (found?.type !== "site-section-group") return undefined;
  return { ...ApiSiteSectionGroup.parse(found.item), held: sectionsOfGroup(tree, id) };
}

async function findGroup(ctx: Ctx, org: string, site: string, id: string): Promise<Group | undefined> {
  const tree = await readStructure(ctx, org, site);
  return tree && groupIn(tree, id);
}

/** What a POST or PATCH answered, with the sections it says the group holds. */
function answered(group: ApiSiteSectionGroup): Group {
  const held = group.children ? group.children.filter((c) => c.object === "site-section").map((c) => c.id) : (group.sections ?? []).map((s) => s.id);
  return { ...group, held };
}

/** Sorted, so a `sections` list in another order compares equal: membership is a set. */
const asSet = (ids: unknown) => (Array.isArray(ids) ? [...ids].sort() : ids);

function lookalikes(ctx: Ctx, given: SiteSectionGroupInputs): Lookalikes<ApiSiteSectionGroup> {
  const { organizationId: org, siteId: site } = given;
  return {
    kind: "SiteSectionGroup",
    key: `${org}/${site}/${given.title}`,
    what: `section group ${JSON.stringify(given.title)} in site ${site}`,
    // Groups carry no creation time: after a lost answer, the group the POST made has this title, and no
    // other resource holds it.
    candidates: async () => (await ctx.client.listAll(paths.sectionGroups(org, site), ApiSiteSectionGroup)).filter((g) => g.title === given.title),
    before: "list",
  };
}

async function create(ctx: Ctx, given: SiteSectionGroupInputs): Promise<{ id: string; outs: SiteSectionGroupOutputs }> {
  const { organizationId: org, siteId: site } = given;
  const body = postBody(definition, given);
  const group = await createOnce(ctx, { ...lookalikes(ctx, given), send: () => ctx.client.post(paths.sectionGroups(org, site), { body, schema: ApiSiteSectionGroup }) });
  return finishCreate(definition, given, answered(group));
}

async function read(ctx: Ctx, id: string, props: SiteSectionGroupOutputs): Promise<SiteSectionGroupOutputs | undefined> {
  const group = await findGroup(ctx, props.organizationId, props.siteId, id);
  return group && refreshed(definition, props, group);
}

/**
 * The site's structure (undefined when the site is gone), refusing sections listed that it does not
 * have: each is one PATCH, so the sections listed before it would have moved when it failed. A list
 * is applied whole or not at all.
 */
async function structureHolding(ctx: Ctx, org: string, site: string, wanted: readonly string[]): Promise<SiteTree | undefined> {
  const found = await missingItems(ctx, org, site, wanted.map((id, i) => ({ id, type: "site-section" as const, at: `sections[${i}]` })));
  const unknown = (found?.missing ?? []).map((m) => `${m.at} ${JSON.stringify(m.id)}`);
  if (unknown.length === 0) return found?.tree;
  throw new Error(
    `SiteSectionGroup: ${unknown.join(", ")}: no section of site ${site} has ${unknown.length === 1 ? "this ID" : "these IDs"}, so the group's sections cannot be applied whole. ` +
      "Pass the `id` outputs of SiteSections of this site, or remove the entry. Nothing was changed.",
  );
}

/**
 * Brings the group to hold exactly `wanted`: each section missing joins it, and each section still in it
 * that is not wanted goes back to the top level. Run one at a time per site, on a fresh read, which
 * also finds every section listed before the first move (structureHolding): a section leaving this
 * group may be joining another group in the same run, and must not be sent back to the top level
 * after it has. A move failing part way is a partial failure recording the sections the group holds
 * then (read again, or failing that, as the moves before answered), whatever else the update changed.
 */
async function converge(ctx: Ctx, news: SiteSectionGroupInputs, id: string, wanted: readonly string[]): Promise<Group | undefined> {
  const { organizationId: org, siteId: site } = news;
  return oneAtATime(ctx.client, org, site, async () => {
    const tree = await structureHolding(ctx, org, site, wanted);
    const before = tree && groupIn(tree, id);
    if (!before) return undefined;
    const joining = wanted.filter((s) => !before.held.includes(s));
    const leaving = before.held.filter((s) => !wanted.includes(s));
    let held = before.held;
    try {
      for (const [section, group] of [...joining.map((s) => [s, id] as const), ...leaving.map((s) => [s, null] as const)]) {
        await ctx.client.patch(siteSectionPaths.section(org, site, section), { body: { siteSectionGroupId: group }, schema: ApiSiteSection });
        // Each section that joins comes last in the group.
        held = group ? [...held, section] : held.filter((s) => s !== section);
      }
    } catch (e) {
      const now = (await findGroup(ctx, org, site, id).catch(() => undefined)) ?? { ...before, held };
      throw new PartialFailure(id, definition.outputsOf({ ...declared(news), sections: now.held }, now), [
        `section group ${id} holds ${now.held.length} section${now.held.length === 1 ? "" : "s"} (${now.held.join(", ") || "none"}), not the ${wanted.length} listed: a section's move failed: ${(e as Error).message}`,
      ], { cause: e, field: "sections" });
    }
    return { ...before, held };
  });
}

async function update(ctx: Ctx, id: string, olds: SiteSectionGroupOutputs, news: SiteSectionGroupInputs, changed: readonly string[]): Promise<SiteSectionGroupOutputs> {
  const { organizationId: org, siteId: site } = news;
  const sections = changed.includes("sections") ? news.sections : undefined;
  // The sections are checked before the first write: converge's own read does it when it writes first;
  // before the group's own PATCH, one more read (shared with converge's while nothing is written between).
  if (sections && Object.keys(changedBody(definition, changed, news)).length > 0) await structureHolding(ctx, org, site, sections);
  return patchChanged(definition, changed, news, {
    id,
    patch: async (body) => answered(await ctx.client.patch(paths.sectionGroup(org, site, id), { body, schema: ApiSiteSectionGroup })),
    find: () => findGroup(ctx, org, site, id),
    where: ` in site ${site}`,
    then: async (group) => {
      if (!sections) return group;
      try {
        return await converge(ctx, news, id, sections);
      } catch (e) {
        if (e instanceof PartialFailure || !group) throw e;
        // The group's own PATCH went through, and no section moved: record it, with its sections as they were.
        throw new PartialFailure(id, definition.outputsOf({ ...declared(news), sections: olds.sections }, group), [
          `section group ${id} was updated but its sections could not be changed: ${(e as Error).message}`,
        ], { cause: e, field: "sections" });
      }
    },
  });
}

async function remove(ctx: Ctx, id: string, props: SiteSectionGroupOutputs): Promise<void> {
  // GitBook's spec does not say what becomes of the sections of a deleted group; the emulator keeps them,
  // in the group's place.
  await ctx.client.delete(paths.sectionGroup(props.organizationId, props.siteId, id));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteSectionGroup",
  // Part of its site's structure, which a site-level Git Sync installation owns when there is one.
  structure: true,
  adoptable: true,
  noun: "section group",
  summary: "A named group of sections in a site's navigation; it holds the sections its `sections` lists (or those naming it as their `groupId`).",
  inputs,
  outputs,
  view: (props) => ({ ...props, sections: asSet(props.sections) }),
  live,
  computed: () => ({}),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  inProgram: groupDeclares,
  // Every group of a site in navigation order, with what it holds, from the site's structure.
  import: {
    read: {
      under: "Site",
      into: "sectionGroups",
      async find(ctx, site): Promise<ImportRecord[]> {
        const nav = await navigationOf(ctx, ctx.sourceOf<ApiSite>(site!));
        // What the group holds is its `itemIds`, in order (the order's business), not its `sections`, which `live` leaves out without them.
        return nav.ofType("site-section-group", ApiSiteSectionGroup).map((g) => ({
          ...settingsOf(definition, g),
          id: g.id,
          ...defined({ groupId: g.sectionGroup ?? undefined }),
          itemIds: idsIn(nav.tree, groupContainer(g.id)),
        }));
      },
    },
    navigation: {
      name: (g) => String(g.title),
      fallback: "group",
      docsSite: { type: "group", holds: "itemIds" },
      comments: (g, quote) => (g.groupId === undefined ? [] : [`It is nested in section group ${quote(String(g.groupId))}; SiteSectionGroup has no input for that, so it stays where it is.`]),
    },
  },
});

/** A group of sections in a GitBook site's navigation. */
export const SiteSectionGroup = resourceClass(definition);
export type SiteSectionGroup = InstanceType<typeof SiteSectionGroup>;
export type SiteSectionGroupArgs = ConstructorParameters<typeof SiteSectionGroup>[1];
