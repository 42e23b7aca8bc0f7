// Helpers of the site modules (sites, siteSections, siteSpaces, shareLinks, sectionGroups, externalLinks,
// siteStructure) that more than one of them needs: where visitors reach a site, section and group references, adding a site space.
import { invalid } from "../http";
import { slugify, uniqueSlug, type SectionGroupRecord, type SectionRecord, type SiteRecord, type SiteSpaceRecord, type SpaceRecord } from "../store";
import { child, type Ctx, type Env } from "./resource";

/** Where visitors reach the site: the proxy's origin, custom hostname, or the org hostname plus basename. */
export function sitePublishedUrl(e: Env, site: SiteRecord): string {
  if (site.proxy) return `https://${site.proxy}`;
  if (site.hostname) return `https://${site.hostname}`;
  const org = e.store.orgs.get(site.orgId);
  return `https://${org?.hostname ?? "unknown.gitbook.io"}/${site.basename}`;
}

export function siteSectionRef(c: Ctx, site: SiteRecord, id: string, field: string): SectionRecord {
  return child(c.store.sections, id, (s) => s.siteId === site.id) ?? invalid(field, `no section "${id}" in this site`);
}

export function addSiteSpace(c: Ctx, site: SiteRecord, space: SpaceRecord, sectionId: string | undefined): SiteSpaceRecord {
  const taken = c.store.siteSpacesIn(site.id, sectionId).map((s) => s.path);
  const ss: SiteSpaceRecord = {
    ...c.store.newId("sitesp"),
    siteId: site.id,
    spaceId: space.id,
    path: uniqueSlug(slugify(space.title), taken),
  };
  if (sectionId !== undefined) ss.sectionId = sectionId;
  c.store.siteSpaces.set(ss.id, ss);
  return ss;
}


export function sectionGroupRef(c: Ctx, site: SiteRecord, id: string, field: string): SectionGroupRecord {
  return child(c.store.sectionGroups, id, (g) => g.siteId === site.id) ?? invalid(field, `no section group "${id}" in this site`);
}

/** Whether the site's structure is made of sections (with groups and links), rather than of site spaces alone. */
export function sectionBased(c: Ctx, site: SiteRecord): boolean {
  const ofSite = (m: Map<string, { siteId: string }>) => [...m.values()].some((r) => r.siteId === site.id);
  return ofSite(c.store.sections) || ofSite(c.store.sectionGroups) || ofSite(c.store.externalLinks);
}
