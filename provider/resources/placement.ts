/**
 * Where an item of a site's navigation sits (the site's top level or a section group), checked across
 * resources in the program's process, before anything is registered.
 *
 * Each provider call sees one resource, and at preview not even the IDs of the others, so it cannot
 * see that two resources declare the same section's group. The program's process can: the resource
 * classes are constructed there, one after the other, and an input given as another resource's output
 * (`sec.id`, `group.id`) carries that resource. Each class records what it declares, keyed by the
 * resource objects, and refuses a declaration that contradicts an earlier one, naming both resources:
 *
 * - A section's group has one source: its SiteSection `groupId`, or the `sections` of one
 *   SiteSectionGroup. Two sources fight (each `up` moves the section the other's way, or ends with
 *   state and GitBook disagreeing), even when they agree today, so two are refused.
 * - A group's `sections` is the whole of what it holds: a section whose `groupId` names a group that
 *   declares `sections` contradicts that list whether it is listed (two sources) or not (the group
 *   takes it out at every up, its groupId puts it back), so it is refused too. External links are
 *   not sections: a group's `sections` never moves them, and a link's groupId is no contradiction.
 * - A SiteStructureOrder lists items in containers (and puts them there): the container it lists an
 *   item in must be the one the item's own source names. A section without a source (no `groupId`, in
 *   no group's `sections`) is placed by the order alone.
 *
 * The resource a reference names is known only when it is passed as an output of a resource of this
 * program (or a value computed from one); a literal ID cannot be traced, and is left to the reader.
 * A group is also known by the literal ID its `adoptId` gives, so that a section naming that ID is
 * checked against the group's `sections`. A literal ID naming a group this program creates is not:
 * the program runs before the ID exists, at preview and at `up` alike.
 */
import * as pulumi from "@pulumi/pulumi";
import { resourcesOf } from "../framework/shown";

/** The top level of a site, as a container. */
const TOP = "the site's top level";

/** A section group resource, a literal group ID, or the top level. */
type Container = object | string;

interface Item {
  kind: string;
  name: string;
}

interface Claim {
  /** What declares it, e.g. `SiteSection "api"'s groupId`. */
  by: string;
  /** The declaring resource's field, e.g. `groupId`. */
  field: string;
  /** A membership (groupId, a group's sections) rather than a listing in an order. */
  membership: boolean;
  /** Where it puts the item; undefined when it cannot be traced. */
  container?: Container;
}

const items = new WeakMap<object, Item>();
const claims = new WeakMap<object, Claim[]>();

const named = (i: Item) => `${i.kind} "${i.name}"`;

/** The groups whose `sections` the program declares (see groupDeclares), by the group resource and by a literal adoptId: the group's name. */
const listing = new Map<Container, string>();
/** The SiteSections whose groupId names a group by a literal ID, with that ID: a group adopted under it may be constructed after them. */
const namingLiteral = new Map<string, { section: object; owner: string }[]>();

/** Why a section naming a group by its groupId contradicts the group's `sections`, which do not list it; with the fix. */
function outsideList(section: string, group: string): string {
  return (
    `${group}'s sections list every section the group holds, and not ${section}, whose groupId names the group: each up would take the section out of the group and its groupId put it back, or end with state and GitBook disagreeing. ` +
    `List ${section} in ${group}'s sections and remove its groupId, or remove the group's sections and give each of its sections a groupId. Nothing was sent.`
  );
}


/** The resources of the given kinds an input (a value, an Output, or a list of them) refers to. */
function itemsIn(v: unknown, kinds: readonly string[]): object[] {
  const all = Array.isArray(v) ? v.flatMap(resourcesOf) : resourcesOf(v);
  return [...new Set(all)].filter((r) => kinds.includes(items.get(r)?.kind ?? ""));
}

/** The container a group reference names: the group resource, the literal ID, or undefined. */
function containerOf(groupId: unknown): Container | undefined {
  if (typeof groupId === "string") return groupId;
  const groups = itemsIn(groupId, ["SiteSectionGroup"]);
  return groups.length === 1 ? groups[0] : undefined;
}

function describe(c: Container): string {
  if (c === TOP) return TOP;
  if (typeof c === "string") return `section group ${c}`;
  return named(items.get(c)!);
}

/** Both containers traced and different (a group resource and a literal ID cannot be compared). */
function differ(a: Container | undefined, b: Container | undefined): boolean {
  if (a === undefined || b === undefined || a === b) return false;
  return a === TOP || b === TOP || typeof a === typeof b;
}

/** Why `claim` contradicts what `item` already has, with the fix; undefined when it does not. */
function conflict(item: Item, claim: Claim, earlier: Claim[]): string | undefined {
  for (const e of earlier) {
    if (claim.membership && e.membership) {
      return (
        `its ${claim.field} set the group of ${named(item)}, which ${e.by} already sets. A section's group has one source, else the two fight at every refresh and up: ` +
        `keep either the SiteSection's groupId or one SiteSectionGroup's sections, and remove the other.`
      );
    }
    if (differ(claim.container, e.container)) {
      const source = [claim, e].find((c) => c.membership);
      const fix = source ? `list it in the order under the container ${source.by} names, or change that` : "list it in one place";
      return `its ${claim.field} put ${named(item)} in ${describe(claim.container!)}, but ${e.by} puts it in ${describe(e.container!)}. An item has one place: ${fix}.`;
    }
  }
  return undefined;
}

/**
 * Records each claim on its item, or throws, naming `declarer`, when one contradicts an earlier claim;
 * everything is checked before anything is recorded.
 */
function claimAll(declarer: string, targets: { item: object; claim: Claim }[]): () => void {
  for (const { item, claim } of targets) {
    const why = conflict(items.get(item)!, claim, claims.get(item) ?? []);
    if (why) throw new pulumi.RunError(`${declarer}: ${why}`);
  }
  return () => {
    for (const { item, claim } of targets) claims.set(item, [...(claims.get(item) ?? []), claim]);
  };
}

const claimOf = (owner: string, field: string, membership: boolean, container: Container | undefined): Claim => ({
  by: `${owner}'s ${field}`,
  field,
  membership,
  ...(container === undefined ? {} : { container }),
});

/**
 * A SiteSection or SiteExternalLink: its `groupId`, when declared, is its membership. A section's may
 * not name a group whose `sections` the program declares (no such list can hold the section yet).
 */
export function placedByGroupId(kind: "SiteSection" | "SiteExternalLink") {
  return (name: string, args: Record<string, unknown>) => {
    const me = `${kind} "${name}"`;
    const declared = args.groupId !== undefined && args.groupId !== null;
    const container = declared ? containerOf(args.groupId) : undefined;
    const group = kind === "SiteSection" && container !== undefined ? listing.get(container) : undefined;
    if (group) throw new pulumi.RunError(`${me}: groupId: ${outsideList(me, group)}`);
    return (resource: pulumi.Resource) => {
      items.set(resource, { kind, name });
      // Nothing can reference the resource before it exists: there is nothing else to contradict yet.
      if (declared) claims.set(resource, [claimOf(me, "groupId", true, container)]);
      if (kind === "SiteSection" && typeof container === "string") namingLiteral.set(container, [...(namingLiteral.get(container) ?? []), { section: resource, owner: me }]);
    };
  };
}

/** A SiteSectionGroup: each section its `sections` lists is a membership. */
export function groupDeclares(name: string, args: Record<string, unknown>): (resource: pulumi.Resource) => void {
  const owner = `SiteSectionGroup "${name}"`;
  const sections = args.sections === undefined ? [] : itemsIn(args.sections, ["SiteSection"]);
  // The group's own object does not exist yet: checked with a stand-in, recorded with the group.
  const standIn = {};
  items.set(standIn, { kind: "SiteSectionGroup", name });
  claimAll(owner, sections.map((item) => ({ item, claim: claimOf(owner, "sections", true, standIn) })));
  const adopted = typeof args.adoptId === "string" ? args.adoptId : undefined;
  if (args.sections !== undefined && adopted !== undefined) {
    // Sections naming the adopted group's ID before it: those it lists are two sources (claimAll, above).
    const outside = (namingLiteral.get(adopted) ?? []).find((n) => !sections.includes(n.section));
    if (outside) throw new pulumi.RunError(`${owner}: sections: ${outsideList(outside.owner, owner)}`);
  }
  return (resource) => {
    items.set(resource, { kind: "SiteSectionGroup", name });
    claimAll(owner, sections.map((item) => ({ item, claim: claimOf(owner, "sections", true, resource) })))();
    if (args.sections === undefined) return;
    for (const key of [resource, ...(adopted === undefined ? [] : [adopted])]) listing.set(key, owner);
  };
}

/** A SiteStructureOrder: each item it lists is placed in the container it is listed in. */
export function orderDeclares(name: string, args: Record<string, unknown>): void {
  const owner = `SiteStructureOrder "${name}"`;
  const kinds = ["SiteSection", "SiteExternalLink", "SiteSectionGroup"];
  const targets = itemsIn(args.items, kinds).map((item) => ({ item, claim: claimOf(owner, "items", false, TOP) }));
  if (Array.isArray(args.groups)) {
    args.groups.forEach((g: unknown, j) => {
      if (!g || typeof g !== "object" || pulumi.Output.isInstance(g)) return;
      const { groupId, items: listed } = g as Record<string, unknown>;
      const container = containerOf(groupId);
      for (const item of itemsIn(listed, kinds)) targets.push({ item, claim: claimOf(owner, `groups[${j}].items`, false, container) });
    });
  }
  claimAll(owner, targets)();
}
