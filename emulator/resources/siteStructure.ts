// A site's structure: its navigation as one tree, and the one operation that orders it.
//
// A site made of sections lists its top-level sections, section groups and external links in order,
// each group with its `children` (sections, nested groups, links) in order, and each section with its
// site spaces in order. A site without sections lists its site spaces. The order is the store's
// (Store.positions): the lists of sections and site spaces are served in the same order, so every view
// of the site agrees.
//
// Sorting moves one item before or after a sibling (an item of the same container: the site's top
// level, a group, or a section for site spaces). It never moves an item between containers: that is
// the item's own update (a section's `siteSectionGroupId`, a link's `parent`, a group's
// `parentSectionGroupId`), which puts it last in its new container.
//
// The structure shows draft items and items behind a condition: it is the organization's view, not a
// visitor's (GitBook omits those only from the published site's structure).
import { invalid, obj, ok, oneOf, required, str, validate, type Router } from "../http";
import type { SectionGroupRecord, SiteRecord, SiteSpaceRecord, StructureNode } from "../store";
import { externalLinkView } from "./externalLinks";
import { child, compact, getSite, SITE, type Ctx, type Env } from "./resource";
import { sectionView } from "./siteSections";
import { siteSpaceView } from "./siteSpaces";

export function sectionGroupView(e: Env, g: SectionGroupRecord): Record<string, unknown> {
  const children = e.store.childrenOf(g.siteId, g.id);
  return compact({
    object: "site-section-group",
    id: g.id,
    title: g.title,
    icon: g.icon,
    draft: g.draft,
    sectionGroup: g.parentId,
    // Deprecated by GitBook in favour of `children`, and still required.
    sections: children.flatMap((n) => (n.type === "site-section" ? [sectionView(e, n.record)] : [])),
    children: children.map((n) => nodeView(e, n)),
  });
}

function nodeView(e: Env, n: StructureNode): unknown {
  switch (n.type) {
    case "site-section":
      return sectionView(e, n.record);
    case "site-section-group":
      return sectionGroupView(e, n.record);
    case "site-external-link":
      return externalLinkView(e, n.record);
  }
}

// ---------------------------------------------------------------- sorting

const POINTER_TYPES = ["site-space", "site-section", "site-section-group", "site-external-link"] as const;
type Item = StructureNode | { type: "site-space"; record: SiteSpaceRecord };

/** A SiteStructureItemPointer of the body: must name an item of this site, else 400 naming the field. */
function itemRef(c: Ctx, site: SiteRecord, pointer: Record<string, unknown>, field: string): Item {
  const p = validate(pointer, { type: required(oneOf(POINTER_TYPES)), id: required(str()) }, `${field}.`);
  const inSite = (r: { siteId: string }) => r.siteId === site.id;
  const found = (() => {
    switch (p.type) {
      case "site-space":
        return child(c.store.siteSpaces, p.id, inSite);
      case "site-section":
        return child(c.store.sections, p.id, inSite);
      case "site-section-group":
        return child(c.store.sectionGroups, p.id, inSite);
      case "site-external-link":
        return child(c.store.externalLinks, p.id, inSite);
    }
  })();
  return found ? ({ type: p.type, record: found } as Item) : invalid(field, `no ${p.type} "${p.id}" in this site`);
}

/** The items of the container `item` is in, in order, itself included. */
function siblingsOf(c: Ctx, site: SiteRecord, item: Item): Item[] {
  switch (item.type) {
    case "site-space":
      return c.store.siteSpacesIn(site.id, item.record.sectionId).map((record) => ({ type: "site-space", record }));
    case "site-section":
      return c.store.childrenOf(site.id, c.store.groupOfSection(item.record)?.id);
    case "site-section-group":
      return c.store.childrenOf(site.id, item.record.parentId);
    case "site-external-link":
      return c.store.childrenOf(site.id, item.record.groupId);
  }
}

function itemView(e: Env, item: Item): unknown {
  return item.type === "site-space" ? siteSpaceView(e, item.record) : nodeView(e, item);
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${SITE}/structure`, (c) => {
    const site = getSite(c);
    const top = c.store.childrenOf(site.id, undefined);
    if (top.length === 0) return ok({ type: "siteSpaces", structure: c.store.siteSpacesIn(site.id, undefined).map((ss) => siteSpaceView(c, ss)) });
    return ok({ type: "sections", structure: top.map((n) => nodeView(c, n)) });
  });

  r.add("PATCH", `${SITE}/structure/sort`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { item: required(obj()), position: required(obj()) });
    const item = itemRef(c, site, b.item, "item");
    const p = validate(b.position, { before: obj(), after: obj() }, "position.");
    // The spec leaves both optional; a move needs exactly one.
    if ((p.before === undefined) === (p.after === undefined)) invalid("position", "give exactly one of before or after");
    const where = p.before !== undefined ? "before" : "after";
    const anchor = itemRef(c, site, (p.before ?? p.after)!, `position.${where}`);
    const siblings = siblingsOf(c, site, item);
    if (!siblings.some((s) => s.type === anchor.type && s.record.id === anchor.record.id)) {
      invalid(
        `position.${where}`,
        `${anchor.type} "${anchor.record.id}" is not a sibling of ${item.type} "${item.record.id}": sorting changes sibling order only; move an item into or out of a group with its own update first`,
      );
    }
    if (anchor.record.id !== item.record.id) {
      const ids = siblings.map((s) => s.record.id).filter((id) => id !== item.record.id);
      ids.splice(ids.indexOf(anchor.record.id) + (where === "after" ? 1 : 0), 0, item.record.id);
      c.store.setOrder(ids);
    }
    return ok(itemView(c, item));
  });
}
