// Section groups: named groups in a site's navigation, holding sections, links and other groups.
//
// A section joins a group as GitBook's spec says: at the group's creation (`sections`), when the section
// is created (`siteSectionGroupId` of POST .../sections), or by updating the section
// (`siteSectionGroupId` of PATCH .../sections/{id}; null takes it back to the site's top level). A
// section is in at most one group. What a group holds, and in which order, is in its `children`
// (see siteStructure.ts, which renders groups).
import { bool, created, deleted, invalid, LIMITS, list, notFound, nullable, ok, required, str, strArray, validate, type Router } from "../http";
import type { SectionGroupRecord, SiteRecord } from "../store";
import { child, findSite, getSite, patchOptional, SITE, type Ctx } from "./resource";
import { sectionGroupRef, siteSectionRef } from "./siteCommon";
import { sectionGroupView } from "./siteStructure";

function getGroup(c: Ctx, site: SiteRecord): SectionGroupRecord {
  return child(c.store.sectionGroups, c.params.group!, (g) => g.siteId === site.id) ?? notFound("section group", c.params.group!);
}

/** Whether `ancestor` is `group` or holds it, however deep. */
function holds(c: Ctx, ancestor: SectionGroupRecord, group: SectionGroupRecord): boolean {
  for (let g: SectionGroupRecord | undefined = group; g; g = g.parentId !== undefined ? c.store.sectionGroups.get(g.parentId) : undefined) {
    if (g.id === ancestor.id) return true;
  }
  return false;
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${SITE}/section-groups`, (c) => {
    const site = getSite(c);
    return list(
      c.query,
      [...c.store.sectionGroups.values()].filter((g) => g.siteId === site.id),
      (g) => sectionGroupView(c, g),
    );
  });

  r.add("POST", `${SITE}/section-groups`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, {
      title: required(str(LIMITS.sectionGroupTitle)),
      icon: nullable(str(LIMITS.icon)),
      sections: strArray(),
      parent: str(),
      draft: bool(),
    });
    const sections = (b.sections ?? []).map((id) => siteSectionRef(c, site, id, "sections"));
    const parent = b.parent === undefined ? undefined : sectionGroupRef(c, site, b.parent, "parent");
    const group: SectionGroupRecord = { ...c.store.newId("sitesg"), siteId: site.id, title: b.title, draft: b.draft ?? false, sectionIds: [] };
    if (b.icon != null) group.icon = b.icon;
    if (parent) group.parentId = parent.id;
    c.store.sectionGroups.set(group.id, group);
    // Taken from wherever they were, in the order given.
    for (const s of sections) c.store.setSectionGroup(s, group.id);
    return created(sectionGroupView(c, group));
  });

  r.add("PATCH", `${SITE}/section-groups/:group`, (c) => {
    const site = getSite(c);
    const group = getGroup(c, site);
    const b = validate(c.body, {
      title: str(LIMITS.sectionGroupTitle),
      icon: nullable(str(LIMITS.icon)),
      draft: bool(),
      parentSectionGroupId: nullable(str()),
    });
    const parent = b.parentSectionGroupId == null ? undefined : sectionGroupRef(c, site, b.parentSectionGroupId, "parentSectionGroupId");
    if (parent && holds(c, group, parent)) invalid("parentSectionGroupId", `group "${parent.id}" is this group or inside it`);
    if (b.title !== undefined) group.title = b.title;
    if (b.draft !== undefined) group.draft = b.draft;
    patchOptional(group, "icon", b.icon);
    if (b.parentSectionGroupId !== undefined && parent?.id !== group.parentId) {
      if (parent) group.parentId = parent.id;
      else delete group.parentId;
      c.store.placeLast(group.id);
    }
    return ok(sectionGroupView(c, group));
  });

  r.add("DELETE", `${SITE}/section-groups/:group`, (c) => {
    const site = findSite(c);
    const group = site && child(c.store.sectionGroups, c.params.group!, (g) => g.siteId === site.id);
    return deleted(group !== undefined && c.store.deleteSectionGroup(group.id));
  });
}
