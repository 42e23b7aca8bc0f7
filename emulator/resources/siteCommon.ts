// Helpers of the site modules (sites, siteSections, siteSpaces, shareLinks, sectionGroups) that
// more than one of them needs: where visitors reach a site, section references, adding a site space.
import { invalid } from "../http";
import { slugify, uniqueSlug, type SectionRecord, type SiteRecord, type SiteSpaceRecord, type SpaceRecord } from "../store";
import { child, type Ctx, type Env } from "./resource";

/** Where visitors reach the site: proxy target, custom hostname, or the org hostname plus basename. */
export function sitePublishedUrl(e: Env, site: SiteRecord): string {
  if (site.proxy) return site.proxy.target;
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

