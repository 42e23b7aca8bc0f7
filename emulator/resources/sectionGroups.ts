// Section groups: named groups of a site's sections; a section is in at most one.
import { created, deleted, LIMITS, list, notFound, nullable, ok, required, str, strArray, validate, type Router } from "../http";
import type { SectionGroupRecord, SiteRecord } from "../store";
import { child, compact, findSite, getSite, patchOptional, SITE, type Ctx, type Env } from "./resource";
import { siteSectionRef } from "./siteCommon";
import { sectionView } from "./siteSections";

export function sectionGroupView(e: Env, g: SectionGroupRecord) {
  const sections = g.sectionIds.map((id) => e.store.sections.get(id)).filter((s) => s !== undefined);
  return compact({
    object: "site-section-group",
    id: g.id,
    title: g.title,
    icon: g.icon,
    sections: sections.map((s) => sectionView(e, s)),
  });
}

/** A section belongs to at most one group: adding it to `groupId` takes it out of the others. */
function ungroupElsewhere(c: Ctx, site: SiteRecord, groupId: string, sectionIds: string[]): void {
  for (const g of c.store.sectionGroups.values()) {
    if (g.siteId === site.id && g.id !== groupId) g.sectionIds = g.sectionIds.filter((id) => !sectionIds.includes(id));
  }
}

function getGroup(c: Ctx, site: SiteRecord): SectionGroupRecord {
  return child(c.store.sectionGroups, c.params.group!, (g) => g.siteId === site.id) ?? notFound("section group", c.params.group!);
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
    const b = validate(c.body, { title: required(str(LIMITS.sectionGroupTitle)), icon: str(LIMITS.icon), sections: strArray() });
    const sectionIds = (b.sections ?? []).map((id) => siteSectionRef(c, site, id, "sections").id);
    const group: SectionGroupRecord = { ...c.store.newId("sitesg"), siteId: site.id, title: b.title, sectionIds: [...new Set(sectionIds)] };
    if (b.icon !== undefined) group.icon = b.icon;
    ungroupElsewhere(c, site, group.id, group.sectionIds);
    c.store.sectionGroups.set(group.id, group);
    return created(sectionGroupView(c, group));
  });

  r.add("PATCH", `${SITE}/section-groups/:group`, (c) => {
    const site = getSite(c);
    const group = getGroup(c, site);
    const b = validate(c.body, { title: str(LIMITS.sectionGroupTitle), icon: nullable(str(LIMITS.icon)) });
    if (b.title !== undefined) group.title = b.title;
    patchOptional(group, "icon", b.icon);
    return ok(sectionGroupView(c, group));
  });

  r.add("DELETE", `${SITE}/section-groups/:group`, (c) => {
    const site = findSite(c);
    const group = site && child(c.store.sectionGroups, c.params.group!, (g) => g.siteId === site.id);
    return deleted(group !== undefined && c.store.sectionGroups.delete(group.id));
  });

  r.add("POST", `${SITE}/section-groups/:group/sections`, (c) => {
    const site = getSite(c);
    const group = getGroup(c, site);
    const b = validate(c.body, { sectionId: required(str()) });
    const section = siteSectionRef(c, site, b.sectionId, "sectionId");
    ungroupElsewhere(c, site, group.id, [section.id]);
    if (!group.sectionIds.includes(section.id)) group.sectionIds.push(section.id);
    return ok(sectionGroupView(c, group));
  });

  r.add("DELETE", `${SITE}/section-groups/:group/sections/:section`, (c) => {
    const site = findSite(c);
    const group = site && child(c.store.sectionGroups, c.params.group!, (g) => g.siteId === site.id);
    const had = group !== undefined && group.sectionIds.includes(c.params.section!);
    if (group && had) group.sectionIds = group.sectionIds.filter((id) => id !== c.params.section);
    return deleted(had);
  });
}
