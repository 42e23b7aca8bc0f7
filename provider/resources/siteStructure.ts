/**
 * A site's structure (its navigation), as the resources under a site read and order it.
 *
 * GitBook has no GET for one external link or one section group: they are read from the site's
 * structure (GET @SITE/structure), which the client shares between concurrent reads like a listing
 * (GitbookClient.getShared), so refreshing every link, group and the order of one site costs one
 * request. The structure is the organization's view: it shows draft items and items behind a condition
 * (GitBook leaves those out of the published site only).
 *
 * A structure is made of containers, each holding items in order: the site's top level (sections,
 * section groups, external links), each section group (the same kinds), and each section (its site
 * spaces). Sorting (PATCH @SITE/structure/sort) moves one item before or after a sibling of the same
 * container; `movesFor` says which moves put a container in a declared order with the fewest requests.
 */
import { z } from "zod";
import { apiObject, embeddedRef, type GitbookClient, p } from "../client";
import type { Discovery } from "../framework/discover";
import { externalLinkPaths as siteExternalLinkPaths, sectionPaths as siteSectionPaths, sectionGroupPaths as siteSectionGroupPaths, structurePaths } from "./sitePaths";
import { getOrUndefined } from "../framework/lists";
import type { Ctx } from "../framework/resource";

// ---- Wire ----------------------------------------------------------------------------------------

// What the structure is made of, as every reader of it relies on: the items' kinds and IDs, where each
// is, what it holds, and what GitBook always answers of it. Each kind's module adds its inputs to its
// item (wireShape): the kind declares its fields, and this module, which every kind reads the
// structure through, imports none of them.

/** A site space, as a section or a site without sections holds it. */
export const SiteSpaceItem = apiObject("site-space", {
  path: z.string(),
  section: z.string().optional().nullable(),
  title: z.string().optional(),
  space: embeddedRef,
});
export type SiteSpaceItem = z.infer<typeof SiteSpaceItem>;

export const SectionItem = apiObject("site-section", {
  title: z.string(),
  path: z.string(),
  sectionGroup: z.string().optional().nullable(),
  siteSpaces: z.array(SiteSpaceItem).optional(),
});
export type SectionItem = z.infer<typeof SectionItem>;

export const LinkItem = apiObject("site-external-link", {
  title: z.string(),
  url: z.string(),
  sectionGroup: z.string().optional().nullable(),
});

/** A group but what it holds (`children`, recursive: see groupItem). */
export const groupItemShape = {
  object: z.literal("site-section-group"),
  id: z.string(),
  title: z.string(),
  /** The group this one is nested in. */
  sectionGroup: z.string().optional().nullable(),
  /** Deprecated by GitBook for `children`: the sections it holds. */
  sections: z.array(z.looseObject({ id: z.string() })).optional(),
};

/** A group's own fields (`shape`, a group's or the kind's) and what it holds, in order: lazily, as it holds groups. */
export function groupItem<Sh extends z.core.$ZodLooseShape>(shape: Sh) {
  // Not through apiObject: spreading the shape would read the `children` getter, which must stay lazy (recursion).
  return z.looseObject({
    ...shape,
    get children(): z.ZodOptional<z.ZodArray<z.ZodType<ApiStructureItem>>> {
      return z.array(ApiStructureItem).optional();
    },
  });
}
export type GroupItem = z.output<z.ZodObject<typeof groupItemShape, z.core.$loose>> & { children?: ApiStructureItem[] };
const GroupItem: z.ZodType<GroupItem> = groupItem(groupItemShape);

/** An item of a site's structure or of a group's `children`: a section, a group, a link, or a kind GitBook adds later. */
export type ApiStructureItem = SectionItem | GroupItem | z.infer<typeof LinkItem> | { object: string; id: string };

const KNOWN_ITEMS = ["site-section", "site-section-group", "site-external-link"];

export const ApiStructureItem: z.ZodType<ApiStructureItem> = z.union([
  SectionItem,
  z.lazy(() => GroupItem),
  LinkItem,
  // Kinds of item this package does not know yet pass through; a known kind must have its fields.
  z.looseObject({ object: z.string().refine((o) => !KNOWN_ITEMS.includes(o), "is a known kind whose fields are missing"), id: z.string() }),
]);

/** A site's navigation: made of sections (with groups and links), or, in a site without sections, of site spaces. */
export const ApiSiteStructure = z.looseObject({
  type: z.string(),
  structure: z.array(z.union([ApiStructureItem, SiteSpaceItem])),
});
export type ApiSiteStructure = z.infer<typeof ApiSiteStructure>;

/** The kinds of item a sort request names (GitBook's SiteStructureItemPointer). */
export type ItemType = "site-space" | "site-section" | "site-section-group" | "site-external-link";

/** Where an item sits: "" for the site's top level, `group:<id>` or `section:<id>`. */
export type ContainerKey = string;

export const TOP_LEVEL: ContainerKey = "";
export const groupContainer = (id: string): ContainerKey => `group:${id}`;
export const sectionContainer = (id: string): ContainerKey => `section:${id}`;

export interface Located {
  id: string;
  type: ItemType;
  container: ContainerKey;
  /** The item as the structure shows it. */
  item: { id: string; object: string; [k: string]: unknown };
}

/** A structure taken apart: every item by ID, and every container's items in order. */
export interface SiteTree {
  byId: Map<string, Located>;
  containers: Map<ContainerKey, Located[]>;
}

/** The site's structure, shared between concurrent reads; undefined when the site is gone. */
/** The kind's API paths (in sitePaths.ts, beside those of the other kinds of a site, which use each other's). */
export const paths = structurePaths;

export async function readStructure(ctx: Ctx, org: string, site: string): Promise<SiteTree | undefined> {
  const structure = await getOrUndefined(ctx.client.getShared(paths.structure(org, site), ApiSiteStructure));
  return structure && treeOf(structure);
}

/**
 * The site's structure, and the references among `refs` that name no item of their type in it: what a
 * list's writes would have GitBook refuse after the writes before them. Read shared, and again fresh
 * before any is called missing, so that an item made moments ago is found. Undefined when the site is gone.
 */
export async function missingItems<R extends { id: string; type: ItemType }>(ctx: Ctx, org: string, site: string, refs: readonly R[]): Promise<{ tree: SiteTree; missing: R[] } | undefined> {
  const missing = (tree: SiteTree) => refs.filter((r) => tree.byId.get(r.id)?.type !== r.type);
  const shared = await readStructure(ctx, org, site);
  if (!shared || missing(shared).length === 0) return shared && { tree: shared, missing: [] };
  const fresh = await ctx.client.fresh(() => readStructure(ctx, org, site));
  return fresh && { tree: fresh, missing: missing(fresh) };
}

const isGroup = (item: { object: string }): item is GroupItem => item.object === "site-section-group";
const isSection = (item: { object: string }): item is SectionItem => item.object === "site-section";

export function treeOf(structure: ApiSiteStructure): SiteTree {
  const tree: SiteTree = { byId: new Map(), containers: new Map() };
  const place = (item: Located["item"], container: ContainerKey) => {
    const located: Located = { id: item.id, type: item.object as ItemType, container, item };
    tree.byId.set(item.id, located);
    const siblings = tree.containers.get(container) ?? [];
    if (siblings.length === 0) tree.containers.set(container, siblings);
    siblings.push(located);
  };
  const walk = (items: readonly ApiStructureItem[], container: ContainerKey) => {
    for (const item of items) {
      place(item, container);
      if (isGroup(item)) walk(item.children ?? [], groupContainer(item.id));
      if (isSection(item)) for (const ss of item.siteSpaces ?? []) place(ss, sectionContainer(item.id));
    }
  };
  walk(structure.structure as ApiStructureItem[], TOP_LEVEL);
  return tree;
}

/** The IDs a container holds, in order (none for a container the structure does not have). */
export function idsIn(tree: SiteTree, container: ContainerKey): string[] {
  return (tree.containers.get(container) ?? []).map((l) => l.id);
}

/** The IDs of the sections a group holds, in order. */
export function sectionsOfGroup(tree: SiteTree, groupId: string): string[] {
  return (tree.containers.get(groupContainer(groupId)) ?? []).filter((l) => l.type === "site-section").map((l) => l.id);
}

/** How a message names a container. */
export function describeContainer(container: ContainerKey): string {
  if (container === TOP_LEVEL) return "the site's top level";
  const [kind, id] = [container.slice(0, container.indexOf(":")), container.slice(container.indexOf(":") + 1)];
  return kind === "group" ? `section group ${id}` : `section ${id}`;
}

// ---- Ordering ----------------------------------------------------------------------------------

export interface Move {
  id: string;
  /** Where the item goes relative to `anchor`, a sibling already in its wanted place. */
  position: "before" | "after";
  anchor: string;
}

/**
 * The moves that put `wanted` (IDs, each in `current`) in that relative order, fewest first: the items
 * of a longest run of `wanted` that `current` already has in order stay, and every other one moves,
 * right after the wanted item before it (or, ahead of the first staying item, right before the wanted
 * item after it). Items of `current` not in `wanted` never move. No moves when already in order.
 */
export function movesFor(current: readonly string[], wanted: readonly string[]): Move[] {
  const at = new Map(current.map((id, i) => [id, i]));
  const stays = longestIncreasing(wanted.map((id) => at.get(id)!));
  const first = wanted.findIndex((_, i) => stays.has(i));
  const moves: Move[] = [];
  for (let i = first - 1; i >= 0; i--) moves.push({ id: wanted[i]!, position: "before", anchor: wanted[i + 1]! });
  for (let i = first + 1; i < wanted.length; i++) if (!stays.has(i)) moves.push({ id: wanted[i]!, position: "after", anchor: wanted[i - 1]! });
  return moves;
}

/** Indices of a longest strictly increasing subsequence of `xs` (patience sorting, O(n log n)). */
export function longestIncreasing(xs: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array<number>(xs.length).fill(-1);
  for (let i = 0; i < xs.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[tails[mid]!]! < xs[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out = new Set<number>();
  for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i]!) out.add(i);
  return out;
}

// ---- Moving between containers -----------------------------------------------------------------

/**
 * Sends the one request that moves an item into another container, where GitBook puts it last: a
 * section's `siteSectionGroupId`, a link's `parent`, a group's `parentSectionGroupId` (null for the top
 * level). Site spaces cannot move between sections (a SiteSpace's section is replaced, not moved), and
 * nothing moves into a section but site spaces: those are the caller's to refuse.
 */
export async function sendMoveInto(ctx: Ctx, org: string, site: string, item: Located, container: ContainerKey): Promise<void> {
  const group = container === TOP_LEVEL ? null : container.slice("group:".length);
  if (item.type === "site-section") await ctx.client.patch(siteSectionPaths.section(org, site, item.id), { body: { siteSectionGroupId: group } });
  else if (item.type === "site-external-link") await ctx.client.patch(siteExternalLinkPaths.externalLink(org, site, item.id), { body: { parent: group } });
  else if (item.type === "site-section-group") await ctx.client.patch(siteSectionGroupPaths.sectionGroup(org, site, item.id), { body: { parentSectionGroupId: group } });
  else throw new Error(`cannot move ${item.type} ${item.id} into ${describeContainer(container)}`);
}

/** The tree after `sendMoveInto`: the item last in its new container. */
export function relocate(tree: SiteTree, id: string, container: ContainerKey): void {
  const item = tree.byId.get(id)!;
  const from = tree.containers.get(item.container) ?? [];
  from.splice(from.indexOf(item), 1);
  item.container = container;
  const to = tree.containers.get(container) ?? [];
  if (to.length === 0) tree.containers.set(container, to);
  to.push(item);
}

/** Sends one move: the item and its anchor are named with their types, as GitBook's sort wants them. */
export async function sendMove(ctx: Ctx, org: string, site: string, tree: SiteTree, move: Move): Promise<void> {
  const pointer = (id: string) => ({ type: tree.byId.get(id)!.type, id });
  await ctx.client.patch(paths.structureSort(org, site), { body: { item: pointer(move.id), position: { [move.position]: pointer(move.anchor) } } });
}

// ---- Writes to one site's structure, one at a time -----------------------------------------------

const queues = new WeakMap<GitbookClient, Map<string, Promise<unknown>>>();

/**
 * Runs `fn` after every earlier `fn` of the same site (in this provider process) has settled: for
 * writes that read the structure first and must not interleave with another resource's, such as a
 * group taking back to the top level only the sections still in it, while another group takes one in.
 */
export function oneAtATime<T>(client: GitbookClient, org: string, site: string, fn: () => Promise<T>): Promise<T> {
  let bySite = queues.get(client);
  if (!bySite) queues.set(client, (bySite = new Map()));
  const key = `${org}\u0000${site}`;
  const run = (bySite.get(key) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => undefined);
  bySite.set(key, tail);
  void tail.then(() => {
    if (bySite.get(key) === tail) bySite.delete(key);
  });
  return run;
}

// ---- Import --------------------------------------------------------------------------------------

/** A site's navigation as the importer reads it (once per site, whichever kind asks first). */
export interface Navigation {
  tree: SiteTree;
  /** Every item in navigation order, but the site spaces of sections: those come with their section. */
  items: Located[];
  /** The items of one type, as `schema` reads them. */
  ofType<T>(type: ItemType, schema: z.ZodType<T>): T[];
  /** A section's site spaces, in its order. */
  siteSpacesOf(section: SectionItem): SiteSpaceItem[];
  /** Site spaces outside any section (a site without sections). */
  rootSiteSpaces: SiteSpaceItem[];
}

/**
 * A site's navigation, from its structure (one GET). The sections carry their site spaces. Only a
 * site reporting more than the structure holds has some it does not show, and only an answer without
 * them (the field is optional) leaves the sections' unknown: then, and only then, the site's own list
 * of site spaces is read.
 */
export function navigationOf(ctx: Discovery, site: { id: string; siteSpaces?: number | undefined }): Promise<Navigation> {
  return ctx.memo(`navigation ${site.id}`, async () => {
    const sitePath = p`/orgs/${ctx.organizationId}/sites/${site.id}`;
    const tree = treeOf(await ctx.get(paths.structure(ctx.organizationId, site.id), ApiSiteStructure));
    const items = [...tree.byId.values()].filter((l) => l.type !== "site-space" || l.container === TOP_LEVEL);
    const ofType = <T>(type: ItemType, schema: z.ZodType<T>) => items.filter((l) => l.type === type).map((l) => schema.parse(l.item));
    const sections = ofType("site-section", SectionItem);
    // A site without sections has its site spaces for a structure.
    const structureRoot = ofType("site-space", SiteSpaceItem);
    const embedded = sections.every((s) => s.siteSpaces !== undefined);
    const inStructure = sections.reduce((n, s) => n + (s.siteSpaces?.length ?? 0), structureRoot.length);
    const listed = !embedded || (site.siteSpaces ?? 0) > inStructure ? await ctx.list(`${sitePath}/site-spaces`, SiteSpaceItem) : undefined;
    return {
      tree,
      items,
      ofType,
      siteSpacesOf: (section) => section.siteSpaces ?? listed?.filter((ss) => ss.section === section.id) ?? [],
      rootSiteSpaces: listed ? listed.filter((ss) => !ss.section) : structureRoot,
    };
  });
}
