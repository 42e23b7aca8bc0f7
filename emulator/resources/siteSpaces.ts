// Site spaces: a space shown in a site, at a path of a section (or of the site's root level).
import { bool, created, deleted, invalid, LIMITS, list, notFound, nullable, ok, queryBool, required, str, validate, type Router } from "../http";
import { slugify, type PageRecord, type SectionRecord, type SiteRecord, type SiteSpaceRecord, type SpaceRecord } from "../store";
import { spaceView } from "./spaces";
import { child, compact, findSite, getSite, patchOptional, SITE, spaceRef, type Ctx, type Env } from "./resource";
import { addSiteSpace, sitePublishedUrl, siteSectionRef } from "./siteCommon";

// What this module keeps of a site space beyond the store's record: a field is the handler's to hold.
declare module "../store" {
  interface SiteSpaceRecord {
    /** A page of its space rendered at the site space's root instead of the space's landing page. */
    pageId?: string;
  }
}

const hasPage = (pages: readonly PageRecord[] | undefined, id: string): boolean => (pages ?? []).some((p) => p.id === id || hasPage(p.pages, id));

/**
 * What GitBook does when a site space is added to a site without sections: it first creates a section
 * named after the site (GitBook's API notes call it a wrapper), holding the site's root-level site
 * spaces (there is no root level next to sections), which becomes the default section.
 */
function wrapInSection(c: Ctx, site: SiteRecord, adding: SpaceRecord): SectionRecord {
  const root = c.store.siteSpacesIn(site.id, undefined);
  const rootDefault = c.store.defaultSiteSpaceIn(site, undefined);
  const section: SectionRecord = {
    ...c.store.newId("sitesc"),
    siteId: site.id,
    title: site.title,
    spaceId: rootDefault?.spaceId ?? adding.id,
    path: slugify(site.title),
  };
  c.store.sections.set(section.id, section);
  for (const ss of root) ss.sectionId = section.id;
  if (rootDefault) section.defaultSiteSpaceId = rootDefault.id;
  delete site.defaultSiteSpaceId;
  site.defaultSectionId = section.id;
  return section;
}

export function siteSpaceView(e: Env, ss: SiteSpaceRecord) {
  const site = e.store.sites.get(ss.siteId);
  const space = e.store.spaces.get(ss.spaceId);
  const section = ss.sectionId ? e.store.sections.get(ss.sectionId) : undefined;
  const prefix = site ? sitePublishedUrl(e, site) + (section ? `/${encodeURIComponent(section.path)}` : "") : "";
  return compact({
    object: "site-space",
    id: ss.id,
    path: ss.path,
    section: ss.sectionId,
    title: space?.title ?? "Untitled",
    default: e.store.isDefaultSiteSpace(ss),
    draft: ss.draft === true,
    condition: ss.condition,
    hidden: ss.hidden === true,
    pageId: ss.pageId,
    space: space ? spaceView(e, space) : undefined,
    // Paths are free text (1 to 100 characters in the spec): a URL carries them encoded. "Only defined
    // when site is published", says the spec.
    urls: { published: site?.published ? `${prefix}/${encodeURIComponent(ss.path)}` : undefined },
  });
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${SITE}/site-spaces`, (c) => {
    const site = getSite(c);
    const wantDefault = queryBool(c.query, "default");
    return c.store.reading(() => {
      const items = c.store.siteSpacesOf(site.id).filter((ss) => wantDefault === undefined || c.store.isDefaultSiteSpace(ss) === wantDefault);
      return list(c.query, items, (ss) => siteSpaceView(c, ss), (ss) => c.store.siteSpaceKey(ss));
    });
  });

  r.add("POST", `${SITE}/site-spaces`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { spaceId: required(str()), sectionId: str(), draft: bool() });
    const space = spaceRef(c, site.orgId, b.spaceId, "spaceId");
    // Omitted section: the default section; a site without sections gets one named after the site first.
    const section =
      b.sectionId !== undefined ? siteSectionRef(c, site, b.sectionId, "sectionId") : (c.store.defaultSection(site) ?? wrapInSection(c, site, space));
    const ss = addSiteSpace(c, site, space, section.id);
    if (b.draft) ss.draft = true;
    return created(siteSpaceView(c, ss));
  });

  r.add("PATCH", `${SITE}/site-spaces/:siteSpace`, (c) => {
    const site = getSite(c);
    const ss = child(c.store.siteSpaces, c.params.siteSpace!, (s) => s.siteId === site.id) ?? notFound("site space", c.params.siteSpace!);
    const b = validate(c.body, { path: str(LIMITS.path), condition: nullable(str(LIMITS.condition)), spaceId: str(), hidden: bool(), draft: bool(), pageId: nullable(str()) });
    const space = b.spaceId === undefined ? undefined : spaceRef(c, site.orgId, b.spaceId, "spaceId");
    // A custom home page is a page of the space the site space shows after this PATCH.
    const shown = space ?? c.store.spaces.get(ss.spaceId);
    if (typeof b.pageId === "string" && !hasPage(shown?.pages, b.pageId)) invalid("pageId", `"${b.pageId}" is not a page of space ${shown?.id ?? ss.spaceId}`);
    if (b.path !== undefined) ss.path = b.path;
    patchOptional(ss, "condition", b.condition);
    // Showing another space drops the custom home page, unless the PATCH names one (the spec's pageId).
    if (space && space.id !== ss.spaceId && b.pageId === undefined) delete ss.pageId;
    patchOptional(ss, "pageId", b.pageId);
    if (space) ss.spaceId = space.id;
    if (b.hidden !== undefined) ss.hidden = b.hidden;
    if (b.draft !== undefined) ss.draft = b.draft;
    return ok(siteSpaceView(c, ss));
  });

  r.add("DELETE", `${SITE}/site-spaces/:siteSpace`, (c) => {
    const site = findSite(c);
    const ss = site && child(c.store.siteSpaces, c.params.siteSpace!, (s) => s.siteId === site.id);
    return deleted(ss !== undefined && c.store.deleteSiteSpace(ss.id));
  });
}
