/**
 * SiteStructureOrder: the order of a site's navigation, as the program lists it.
 *
 * GitBook orders a site's structure one move at a time (PATCH @SITE/structure/sort: put an item before
 * or after a sibling), and puts every new item last in its container. This resource lists, per
 * container, the IDs of the items it orders: the site's top level (`items`: sections, section groups,
 * external links), the inside of section groups (`groups`), and the site spaces of sections
 * (`sections`). Taking IDs, it depends on the items, so Pulumi runs it after they are created, moved
 * and updated, and runs it again when they change.
 *
 * - Only the listed items are ordered, relative to each other. An item not listed (made outside
 *   Pulumi, or left out) is never moved: it keeps its place next to the items around it, and a moved
 *   item goes right after the listed item before it (or, at the head of the list, right before the
 *   listed item after it), so an unlisted item may end up anywhere among the listed ones.
 * - Converging reads the structure once (one GET) and sends only the moves needed, fewest first: the
 *   items of a longest run already in the wanted order stay, every other listed item is moved once. An
 *   order already right sends no move; swapping two neighbours sends one.
 * - A list also says where its items are: a listed section, link or group found in another container
 *   (dragged there in the app) is moved back into the container it is listed in, one request each
 *   (GitBook puts it last there), before the sorting. The container must agree with the item's own
 *   declaration, if it has one (a SiteSection's `groupId` or a SiteSectionGroup's `sections`, a
 *   SiteExternalLink's `groupId`): the program's process refuses a program where they differ, naming
 *   both resources (placement.ts). Site spaces cannot move between sections: one listed in another
 *   section fails the update, naming it, and nothing is moved.
 * - Refresh reads the actual order of the listed items in their listed containers: a reorder made
 *   outside Pulumi, or an item moved to another container, shows as drift in the list it changed, and
 *   the next `up` puts the items back.
 * - Plans name what they list: the class, in the program's process, records beside the lists every
 *   listed item's title path and ID in the order the site shows them (`navigation`), from the
 *   resources whose `id` outputs the program passes. Shown in plans only: never compared, so a title
 *   changed anywhere never makes the order flap, and it costs no request.
 * - The order is not an object: delete sends nothing and leaves the items where they are. Its ID is the
 *   site's, and a site should have one SiteStructureOrder.
 */
import * as pulumi from "@pulumi/pulumi";
import equal from "fast-deep-equal";
import { z } from "zod";
import { isUnknown, propertyPath } from "../framework/check";
import { defineResource, resourceClass, type Inputs, type Outputs } from "../framework/define";
import { field, id, organizationIdField } from "../framework/fields";
import { refreshed } from "../framework/recipes";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import { entryText, nameOf, shownEntry } from "../framework/shown";
import { orderDeclares } from "./placement";
import {
  describeContainer,
  groupContainer,
  idsIn,
  movesFor,
  oneAtATime,
  readStructure,
  relocate,
  sectionContainer,
  sendMove,
  sendMoveInto,
  TOP_LEVEL,
  type ContainerKey,
  type SiteTree,
} from "./siteStructure";

// ---- Schema --------------------------------------------------------------------------------------

const groupOrder = z.object({
  groupId: id().describe("ID of the section group: the SiteSectionGroup's `id` output."),
  items: z.array(id()).describe("IDs of items the group holds (SiteSection, SiteSectionGroup, SiteExternalLink `id` outputs), in the order they should appear."),
});

const sectionOrder = z.object({
  sectionId: id().describe("ID of the section: the SiteSection's `id` output."),
  siteSpaces: z
    // A SiteSection's siteSpaceId is absent once its site space was removed outside Pulumi: a list
    // built in the program (a DocsSite's) cannot know that when it is constructed, and passes null.
    .preprocess((v) => (Array.isArray(v) ? v.filter((x) => x !== null) : v), z.array(id()))
    .describe(
      "IDs of site spaces of the section (its SiteSection's `siteSpaceId` output, SiteSpace `id` outputs), in the order they should appear. A null entry (a `siteSpaceId` whose site space was removed outside Pulumi) is left out.",
    ),
});

/** Where each listed ID is, for the checks: `items[2]`, `groups[0].items[1]`... */
function listed(v: { items?: string[]; groups?: z.output<typeof groupOrder>[]; sections?: z.output<typeof sectionOrder>[] }): { id: string; path: (string | number)[] }[] {
  return [
    ...(v.items ?? []).map((id, i) => ({ id, path: ["items", i] })),
    ...(v.groups ?? []).flatMap((g, j) => g.items.map((id, i) => ({ id, path: ["groups", j, "items", i] }))),
    ...(v.sections ?? []).flatMap((s, j) => s.siteSpaces.map((id, i) => ({ id, path: ["sections", j, "siteSpaces", i] }))),
  ];
}

const inputs = z
  .object({
    organizationId: organizationIdField,
    siteId: id().describe("ID of the site whose navigation is ordered. Changing it orders the other site instead (a replacement, which moves nothing back).").register(field, { change: "replace", import: { ref: "Site" } }),
    items: z
      .array(id())
      .optional()
      .describe(
        "IDs of items of the site's top level, in the order they should appear: SiteSection, SiteSectionGroup and SiteExternalLink `id` outputs. " +
          "Only listed items move, and only relative to each other: an item not listed (made outside Pulumi, or left out) is never moved and keeps its place next to the items around it, while a listed item that moves goes right after the listed item before it (the first ones, right before the listed item after them); so unlisted items may sit anywhere among the listed ones. " +
          "A listed item found in a group (moved there in the app) is moved back to the top level first, one request. Where the item declares its place itself (a SiteSection's `groupId`, a SiteSectionGroup's `sections`, a SiteExternalLink's `groupId`), it must be the same, else the preview fails naming both resources. " +
          "Refresh reads the actual order of the listed items at the top level (a reorder, or an item moved into a group, made outside Pulumi is drift). Removing it stops ordering the top level (nothing moves).",
      )
      .register(field, { change: "custom", shownBy: "navigation" }),
    groups: z
      .array(groupOrder)
      .optional()
      .describe(
        "The order inside section groups, one entry per group ordered: its items (sections, nested groups, links) as `items` orders the top level, and as there, a listed item found elsewhere is moved into the group first. Removing it (or a group's entry) stops ordering those groups (nothing moves).",
      )
      .register(field, { change: "custom" }),
    sections: z
      .array(sectionOrder)
      .optional()
      .describe(
        "The order of site spaces within sections, one entry per section ordered, as `items` orders the top level. A site space cannot move between sections: one listed here but found in another section fails the update, naming it. Removing it (or a section's entry) stops ordering those sections (nothing moves).",
      )
      .register(field, { change: "custom" }),
    // What a plan shows must never fail one: a value it cannot read is dropped, not refused.
    navigation: z
      .array(z.union([z.string(), shownEntry]))
      .optional()
      .catch(undefined)
      .describe(
        "Filled in by the class; shown in plans only, so that a reviewer reads names beside IDs. Every listed item in the order the site shows them (the top level, each group's and section's items right after it), as its title path and ID, e.g. `Reference / API reference (sitesc_…)`, or `(new)` in place of an ID not known before the item is created. " +
          "An item is named when the program lists the `id` output of its resource: by its title, or by the resource's name in the program while that title is not known; a literal ID, or a value computed from one, stands alone. " +
          "Never compared or sent: a title changed anywhere changes nothing here; refresh rewrites it in the order it finds.",
      )
      .register(field, { display: true }),
  })
  // An item has one place: listed twice, the two places could not both hold.
  .superRefine((v, ctx) => {
    const first = new Map<string, (string | number)[]>();
    for (const { id, path } of listed(v)) {
      if (isUnknown(id)) continue;
      const earlier = first.get(id);
      if (earlier) ctx.addIssue({ code: "custom", path, message: `lists ${id}, already listed at ${propertyPath(earlier)}: an item has one place` });
      else first.set(id, path);
    }
    const containers = [...(v.groups ?? []).map((g, j) => ({ id: g.groupId, path: ["groups", j, "groupId"] })), ...(v.sections ?? []).map((s, j) => ({ id: s.sectionId, path: ["sections", j, "sectionId"] }))];
    const seen = new Map<string, (string | number)[]>();
    for (const { id, path } of containers) {
      if (isUnknown(id)) continue;
      const earlier = seen.get(id);
      if (earlier) ctx.addIssue({ code: "custom", path, message: `orders ${id} again, already ordered at ${propertyPath(earlier)}` });
      else seen.set(id, path);
    }
    (v.groups ?? []).forEach((g, j) => {
      const i = g.items.indexOf(g.groupId);
      if (i >= 0 && !isUnknown(g.groupId)) ctx.addIssue({ code: "custom", path: ["groups", j, "items", i], message: `lists the group ${g.groupId} inside itself` });
    });
  });

const outputs = z.object({});

export type SiteStructureOrderInputs = Inputs<typeof inputs>;
export type SiteStructureOrderOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- What plans show ----------------------------------------------------------------------------

interface Lists<T> {
  items?: readonly T[];
  groups?: readonly { groupId: T; items: readonly T[] }[];
  sections?: readonly { sectionId: T; siteSpaces: readonly T[] }[];
}

/**
 * Every listed entry in the order the site shows them, with the containers it sits in: the top level
 * in its order, each group's and section's entries right after it; a container the top level does not
 * list follows the rest, with its entries. Entries are told apart by identity: IDs in the provider, in
 * the program the values it passes (a resource's `id` output is one object).
 */
function inSiteOrder<T>(lists: Lists<T>): { entry: T; path: T[] }[] {
  const out: { entry: T; path: T[] }[] = [];
  const inside = (c: T) => [
    ...(lists.groups ?? []).filter((g) => g.groupId === c).flatMap((g) => g.items),
    ...(lists.sections ?? []).filter((s) => s.sectionId === c).flatMap((s) => s.siteSpaces),
  ];
  const seen = new Set<T>();
  const visit = (entry: T, path: T[]) => {
    out.push({ entry, path });
    if (seen.has(entry)) return;
    seen.add(entry);
    for (const child of inside(entry)) visit(child, [...path, entry]);
  };
  for (const e of lists.items ?? []) visit(e, []);
  for (const c of [...(lists.groups ?? []).map((g) => g.groupId), ...(lists.sections ?? []).map((s) => s.sectionId)]) {
    if (seen.has(c)) continue;
    seen.add(c);
    for (const child of inside(c)) visit(child, [c]);
  }
  return out;
}

/** The class's `navigation` (see the field): from the lists the program passes as plain arrays. */
function shown(args: Props): Props {
  if (args.navigation !== undefined) return {};
  const plain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !pulumi.Output.isInstance(v);
  const lists: Lists<unknown> = {
    items: Array.isArray(args.items) ? args.items : undefined,
    groups: Array.isArray(args.groups) ? args.groups.filter(plain).flatMap((g) => (Array.isArray(g.items) ? [{ groupId: g.groupId, items: g.items }] : [])) : undefined,
    sections: Array.isArray(args.sections)
      ? args.sections.filter(plain).flatMap((s) => (Array.isArray(s.siteSpaces) ? [{ sectionId: s.sectionId, siteSpaces: s.siteSpaces }] : []))
      : undefined,
  };
  const entries = inSiteOrder(lists);
  if (entries.length === 0) return {};
  return {
    navigation: entries.map(({ entry, path }) => {
      const own = nameOf(entry);
      return { id: entry, path: own ? [...path.flatMap((c) => nameOf(c) ?? []), own] : [] };
    }),
  };
}

/** The ID an entry of the recorded navigation names. */
function entryId(text: string): string {
  return /\(([^()]*)\)$/.exec(text)?.[1] ?? text;
}

// ---- CRUD ----------------------------------------------------------------------------------------

/** Each declared list as the site has it: the listed items found in that container, in their actual order. */
function live(tree: SiteTree, props: Props): Props {
  const p = props as Partial<SiteStructureOrderInputs>;
  const inOrder = (container: ContainerKey, ids: readonly string[]) => idsIn(tree, container).filter((id) => ids.includes(id));
  const lists = {
    items: p.items && inOrder(TOP_LEVEL, p.items),
    groups: p.groups?.map((g) => ({ groupId: g.groupId, items: inOrder(groupContainer(g.groupId), g.items) })),
    sections: p.sections?.map((s) => ({ sectionId: s.sectionId, siteSpaces: inOrder(sectionContainer(s.sectionId), s.siteSpaces) })),
  };
  return { ...lists, navigation: navigationAsFound(p, lists, tree) };
}

/**
 * The navigation as refresh found it: as recorded when every list is; else laid out again in the
 * lists' live order, each item named by its title and its containers' in the structure just read (an
 * item no longer found in its list drops out).
 */
function navigationAsFound(recorded: Partial<SiteStructureOrderInputs>, lists: Lists<string>, tree: SiteTree): string[] | undefined {
  const nav = recorded.navigation?.map(entryText);
  const same = equal(JSON.parse(JSON.stringify(lists)), JSON.parse(JSON.stringify({ items: recorded.items, groups: recorded.groups, sections: recorded.sections })));
  if (!nav || same) return nav;
  const titleOf = (id: string) => tree.byId.get(id)?.item.title;
  return inSiteOrder(lists).map(({ entry, path }) => {
    const titles = [...path, entry].map(titleOf);
    return titles.every((t) => typeof t === "string") ? `${titles.join(" / ")} (${entry})` : (nav.find((e) => entryId(e) === entry) ?? entry);
  });
}

/**
 * Reads the structure once and checks it, then sends the moves: first each listed item found in
 * another container is moved into the one it is listed in (one request each, where GitBook puts it
 * last), then each container is sorted.
 */
async function arrange(ctx: Ctx, given: SiteStructureOrderInputs): Promise<void> {
  const { organizationId: org, siteId: site } = given;
  await oneAtATime(ctx.client, org, site, async () => {
    const tree = await readStructure(ctx, org, site);
    if (!tree) throw new Error(`SiteStructureOrder: site ${site} does not exist.`);
    const lists: { container: ContainerKey; ids: string[]; path: string }[] = [
      ...(given.items ? [{ container: TOP_LEVEL, ids: given.items, path: "items" }] : []),
      ...(given.groups ?? []).map((g, j) => ({ container: groupContainer(g.groupId), ids: g.items, path: `groups[${j}].items` })),
      ...(given.sections ?? []).map((s, j) => ({ container: sectionContainer(s.sectionId), ids: s.siteSpaces, path: `sections[${j}].siteSpaces` })),
    ];
    const moving: { id: string; container: ContainerKey }[] = [];
    const problems = [
      ...(given.groups ?? []).flatMap((g, j) => (tree.byId.get(g.groupId)?.type === "site-section-group" ? [] : [`groups[${j}].groupId: no section group ${g.groupId} in the site`])),
      ...(given.sections ?? []).flatMap((s, j) => (tree.byId.get(s.sectionId)?.type === "site-section" ? [] : [`sections[${j}].sectionId: no section ${s.sectionId} in the site`])),
      ...lists.flatMap(({ container, ids, path }) =>
        ids.flatMap((id, i) => {
          const at = tree.byId.get(id);
          if (!at) return [`${path}[${i}]: ${id} is not in the site's structure`];
          if (at.container === container) return [];
          // What holds sections, links and groups is the top level or a group; what holds site spaces, a section.
          if ((at.type === "site-space") !== container.startsWith("section:")) return [`${path}[${i}]: ${at.type} ${id} cannot be in ${describeContainer(container)}`];
          if (at.type === "site-space") {
            return [`${path}[${i}]: site space ${id} is in ${describeContainer(at.container)}, not in ${describeContainer(container)}, and a site space cannot move between sections (a SiteSpace's sectionId replaces it)`];
          }
          moving.push({ id, container });
          return [];
        }),
      ),
    ];
    if (problems.length > 0) throw new Error(`SiteStructureOrder: cannot order site ${site}, nothing was moved: ${problems.join("; ")}.`);
    for (const { id, container } of moving) {
      await sendMoveInto(ctx, org, site, tree.byId.get(id)!, container);
      relocate(tree, id, container);
    }
    for (const { container, ids } of lists) for (const move of movesFor(idsIn(tree, container), ids)) await sendMove(ctx, org, site, tree, move);
  });
}

async function create(ctx: Ctx, given: SiteStructureOrderInputs): Promise<{ id: string; outs: SiteStructureOrderOutputs }> {
  await arrange(ctx, given);
  return { id: given.siteId, outs: declared(given) as SiteStructureOrderOutputs };
}

async function read(ctx: Ctx, _id: string, props: SiteStructureOrderOutputs): Promise<SiteStructureOrderOutputs | undefined> {
  const tree = await readStructure(ctx, props.organizationId, props.siteId);
  return tree && refreshed(definition, props, tree);
}

async function update(ctx: Ctx, _id: string, _olds: SiteStructureOrderOutputs, news: SiteStructureOrderInputs): Promise<SiteStructureOrderOutputs> {
  // The moves are computed from the structure as it is, not from what was recorded.
  await arrange(ctx, news);
  return declared(news) as SiteStructureOrderOutputs;
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteStructureOrder",
  // Part of its site's structure, which a site-level Git Sync installation owns when there is one.
  structure: true,
  // Its ID is derived from what it declares: a replacement is the same object (define.ts).
  deleteBeforeReplace: true,
  noun: "site structure order",
  summary:
    "The order of a site's navigation, as the program lists it: its top-level sections, groups and links (`items`), what each section group holds (`groups`), and each section's site spaces (`sections`). " +
    "It takes the items' IDs, so Pulumi runs it after the items exist and again when they change. Converging reads the site's structure once and sends only the requests needed: one per listed item found in another container (moved back into the one listed), then the sorts: none when the order is right, one for two swapped neighbours, in general one per listed item outside a longest run already in order. " +
    "A check at preview refuses an item listed twice or in two places. An order is not an object: its ID is the site's (one per site), adoption does not apply, and delete sends nothing and leaves the items where they are.",
  inputs,
  outputs,
  live,
  computed: () => ({}),
  // The navigation the class sent, as plans show it.
  prepare: (given) => ({ inputs: given.navigation ? { ...given, navigation: (given as SiteStructureOrderInputs).navigation!.map(entryText) } : given }),
  shown,
  create,
  read,
  update,
  // The order is not an object: the items stay where they are.
  delete: async () => {},
  inProgram: orderDeclares,
});

/** The order of a GitBook site's navigation. */
export const SiteStructureOrder = resourceClass(definition);
export type SiteStructureOrder = InstanceType<typeof SiteStructureOrder>;
export type SiteStructureOrderArgs = ConstructorParameters<typeof SiteStructureOrder>[1];
