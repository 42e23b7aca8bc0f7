// Site sections: the tabs of a site, each created with its first space.
import { bool, created, deleted, invalid, LIMITS, list, notFound, nullable, obj, ok, required, str, validate, type Router } from "../http";
import { slugify, uniqueSlug, type SectionRecord } from "../store";
import { child, compact, findSite, getSite, patchOptional, SITE, spaceRef, type Ctx, type Env } from "./resource";
import { addSiteSpace, sectionGroupRef, sitePublishedUrl } from "./siteCommon";
import { siteSpaceView } from "./siteSpaces";
import { localized } from "./customization";

// What this module keeps of a section beyond the store's record: a field is the handler's to hold.
declare module "../store" {
  interface SectionRecord {
    /** The title by language code; the PATCH's empty record removes every translation. */
    localizedTitle?: Record<string, string>;
  }
}

// A section created without a title shows its space's; once given one, the PATCH can only change it
// (the spec's title is a 2-character string, never null).
const SECTION_PATCH = {
  title: str(LIMITS.sectionTitle),
  path: str(LIMITS.path),
  defaultSiteSpace: str(),
  condition: nullable(str(LIMITS.condition)),
  icon: nullable(str(LIMITS.icon)),
  description: nullable(str(LIMITS.sectionDescription)),
  siteSectionGroupId: nullable(str()),
  draft: bool(),
  localizedTitle: obj(),
};

export function sectionTitle(e: Env, sec: SectionRecord): string {
  if (sec.title !== null) return sec.title;
  const site = e.store.sites.get(sec.siteId);
  const def = site && e.store.defaultSiteSpaceIn(site, sec.id);
  return e.store.spaces.get(def?.spaceId ?? sec.spaceId)?.title ?? "Untitled";
}

export function sectionView(e: Env, sec: SectionRecord) {
  const site = e.store.sites.get(sec.siteId);
  const group = [...e.store.sectionGroups.values()].find((g) => g.siteId === sec.siteId && g.sectionIds.includes(sec.id));
  return compact({
    object: "site-section",
    id: sec.id,
    title: sectionTitle(e, sec),
    description: sec.description,
    localizedTitle: sec.localizedTitle,
    default: site !== undefined && e.store.defaultSection(site)?.id === sec.id,
    // The POST's `draft` defaults to false: live.
    draft: sec.draft === true,
    path: sec.path,
    condition: sec.condition,
    sectionGroup: group?.id,
    icon: sec.icon,
    siteSpaces: e.store.siteSpacesIn(sec.siteId, sec.id).map((ss) => siteSpaceView(e, ss)),
    // "Only defined when site is published", says the spec.
    urls: { published: site?.published ? `${sitePublishedUrl(e, site)}/${encodeURIComponent(sec.path)}` : undefined },
  });
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${SITE}/sections`, (c) => {
    const site = getSite(c);
    return c.store.reading(() => list(c.query, c.store.sectionsOf(site.id), (s) => sectionView(c, s), (s) => c.store.sectionKey(s)));
  });

  r.add("POST", `${SITE}/sections`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, {
      spaceId: required(str()),
      title: nullable(str(LIMITS.sectionTitle)),
      icon: nullable(str(LIMITS.icon)),
      siteSectionGroupId: str(),
      draft: bool(),
    });
    const space = spaceRef(c, site.orgId, b.spaceId, "spaceId");
    const group = b.siteSectionGroupId === undefined ? undefined : sectionGroupRef(c, site, b.siteSectionGroupId, "siteSectionGroupId");
    const title = b.title ?? null;
    const taken = c.store.sectionsOf(site.id).map((s) => s.path);
    const section: SectionRecord = {
      ...c.store.newId("sitesc"),
      siteId: site.id,
      title,
      spaceId: space.id,
      path: uniqueSlug(slugify(title ?? space.title), taken),
    };
    if (b.icon) section.icon = b.icon;
    if (b.draft) section.draft = true;
    c.store.sections.set(section.id, section);
    if (group) group.sectionIds.push(section.id);
    // A section never exists without content: its space becomes its first, default site space.
    section.defaultSiteSpaceId = addSiteSpace(c, site, space, section.id).id;
    return created(sectionView(c, section));
  });

  r.add("PATCH", `${SITE}/sections/:section`, (c) => {
    const site = getSite(c);
    const section = child(c.store.sections, c.params.section!, (s) => s.siteId === site.id) ?? notFound("site section", c.params.section!);
    const b = validate(c.body, SECTION_PATCH);
    const def =
      b.defaultSiteSpace === undefined
        ? undefined
        : (child(c.store.siteSpaces, b.defaultSiteSpace, (s) => s.siteId === site.id && s.sectionId === section.id) ??
          invalid("defaultSiteSpace", `no site space "${b.defaultSiteSpace}" in this section`));
    const group = b.siteSectionGroupId == null ? undefined : sectionGroupRef(c, site, b.siteSectionGroupId, "siteSectionGroupId");
    const titles = b.localizedTitle === undefined ? undefined : localized(LIMITS.sectionTitle.max).safeParse(b.localizedTitle);
    if (titles?.success === false) invalid("localizedTitle", titles.error.issues[0]!.message);
    if (b.title !== undefined) section.title = b.title;
    if (b.path !== undefined) section.path = b.path;
    patchOptional(section, "condition", b.condition);
    patchOptional(section, "icon", b.icon);
    patchOptional(section, "description", b.description);
    if (titles?.data) patchOptional(section, "localizedTitle", Object.keys(titles.data).length > 0 ? (titles.data as Record<string, string>) : null);
    if (b.draft !== undefined) section.draft = b.draft;
    if (def) section.defaultSiteSpaceId = def.id;
    // Into a group, or back to the site's top level (null): last there.
    if (b.siteSectionGroupId !== undefined) c.store.setSectionGroup(section, group?.id);
    return ok(sectionView(c, section));
  });

  r.add("DELETE", `${SITE}/sections/:section`, (c) => {
    const site = findSite(c);
    const section = site && child(c.store.sections, c.params.section!, (s) => s.siteId === site.id);
    return deleted(section !== undefined && c.store.deleteSection(section.id));
  });
}
