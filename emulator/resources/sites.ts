// Sites. Their adaptive-content schema is in adaptiveSchema.ts, publishing in publishing.ts.
import { bool, created, deleted, invalid, LIMITS, list, nullable, obj, ok, oneOf, queryBool, required, str, strArray, validate, type Router } from "../http";
import { AGENTS_CONTEXTS, DEFAULT_LEVELS, SITE_TYPES, SITE_VISIBILITIES, slugify, uniqueSlug, type SiteRecord, type SiteSpaceRecord, type SiteType } from "../store";
import { apiUrl, APP, child, compact, findSite, getOrg, getSite, ORG, patchOptional, SITE, spaceRef, type Ctx, type Env } from "./resource";
import { addSiteSpace, sitePublishedUrl, siteSectionRef } from "./siteCommon";

const SITE_PATCH = {
  title: str(LIMITS.siteTitle),
  visibility: oneOf(SITE_VISIBILITIES),
  basename: str(LIMITS.siteBasename),
  // Not in GitBook's published spec (neither the PATCH body nor the Site object): kept as the
  // emulator has always modelled it, so programs that declare it keep working. The contract check
  // does not see fields a schema does not declare.
  agentsContext: oneOf(AGENTS_CONTEXTS),
  defaultSiteSpace: str(),
  defaultSiteSection: str(),
  proxy: nullable(str(LIMITS.siteProxy)),
  adaptiveContent: obj(),
  defaultLevel: nullable(oneOf(DEFAULT_LEVELS)),
};

/**
 * GitBook's SiteProxy: `origin` is the `host/path` the site was given (no scheme, as set), `target`
 * where GitBook serves the site for that proxy to forward to.
 */
function proxyView(s: SiteRecord) {
  return s.proxy === undefined ? undefined : { origin: s.proxy, target: `https://proxy.gitbook.site/sites/${s.id}` };
}

/** The plan each premium feature belongs to (the spec's SiteFeatureKey and SiteType). */
const FEATURE_PLANS = {
  "sites-sections": "ultimate",
  "sites-adaptive-content": "ultimate",
  "sites-visitor-authentication": "ultimate",
  "sites-custom-subdirectory": "ultimate",
  "sites-share-links": "premium",
  "sites-custom-domain": "premium",
} satisfies Record<string, SiteType>;

/** The premium features the site uses, as GitBook lists them (`frozen` would mean kept after a downgrade). */
function featuresOf(e: Env, s: SiteRecord) {
  const used: Record<keyof typeof FEATURE_PLANS, boolean> = {
    "sites-sections": e.store.sectionsOf(s.id).length > 0,
    "sites-adaptive-content": s.adaptiveContent.enabled,
    "sites-visitor-authentication": s.visibility === "visitor-auth",
    "sites-custom-subdirectory": s.proxy !== undefined,
    "sites-share-links": s.visibility === "share-link",
    "sites-custom-domain": s.hostname !== undefined,
  };
  return (Object.keys(used) as (keyof typeof FEATURE_PLANS)[]).filter((k) => used[k]).map((id) => ({ id, plan: FEATURE_PLANS[id], frozen: false }));
}

export function siteView(e: Env, s: SiteRecord) {
  const siteSpaces = e.store.siteSpacesOf(s.id).length;
  return compact({
    object: "site",
    id: s.id,
    type: s.type,
    // The type the site's features are served at; it differs only while a plan change is pending.
    appliedType: s.type,
    title: s.title,
    hostname: s.hostname,
    basename: s.basename,
    proxy: proxyView(s),
    visibility: s.visibility,
    // Unset, a site takes its members' access from the organization.
    defaultLevel: s.defaultLevel === undefined ? "inherit" : s.defaultLevel,
    // The emulator's token belongs to an organization admin.
    permissions: {
      view: true,
      access: true,
      edit: true,
      create: true,
      admin: true,
      installIntegration: true,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: true,
    },
    published: s.published,
    siteSpaces,
    createdAt: s.createdAt,
    adaptiveContent: { ...s.adaptiveContent },
    agentsContext: s.agentsContext,
    features: featuresOf(e, s),
    urls: {
      location: apiUrl(e, `/orgs/${s.orgId}/sites/${s.id}`),
      app: `${APP}/o/${s.orgId}/sites/${s.id}`,
      // "Only defined when site is published", says the spec.
      published: s.published ? sitePublishedUrl(e, s) : undefined,
      preview: `https://sites.gitbook.com/preview/${s.id}/`,
    },
  });
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${ORG}/sites`, (c) => {
    const org = getOrg(c);
    const space = c.query.get("space");
    const title = c.query.get("title")?.toLowerCase();
    const published = queryBool(c.query, "published");
    const sites = [...c.store.sites.values()].filter((s) => {
      if (s.orgId !== org.id) return false;
      const siteSpaces = c.store.siteSpacesOf(s.id);
      if (space !== null && !siteSpaces.some((ss) => ss.spaceId === space)) return false;
      if (title && !s.title.toLowerCase().includes(title)) return false;
      return published === undefined || published === s.published;
    });
    return list(c.query, sites, (s) => siteView(c, s));
  });

  r.add("POST", `${ORG}/sites`, (c) => {
    const org = getOrg(c);
    // `spaces` may also be an enum string asking for a new space; the emulator only supports ID lists.
    const b = validate(c.body, { type: oneOf(SITE_TYPES), title: str(LIMITS.siteTitle), visibility: oneOf(SITE_VISIBILITIES), spaces: strArray() });
    const spaces = (b.spaces ?? []).map((id) => spaceRef(c, org.id, id, "spaces"));
    const title = b.title ?? "Untitled site";
    const base = c.store.newId("site");
    const basenames = [...c.store.sites.values()].filter((s) => s.orgId === org.id).map((s) => s.basename);
    const site: SiteRecord = {
      ...base,
      orgId: org.id,
      type: b.type ?? (org.type === "community" ? "sponsored" : "ultimate"),
      title,
      basename: uniqueSlug(slugify(title), basenames),
      visibility: b.visibility ?? "public",
      published: false,
      agentsContext: "excluded",
      adaptiveContent: { enabled: false },
    };
    c.store.sites.set(site.id, site);
    for (const space of spaces) addSiteSpace(c, site, space, undefined);
    return created(siteView(c, site));
  });

  r.add("GET", SITE, (c) => ok(siteView(c, getSite(c))));

  r.add("PATCH", SITE, (c) => {
    const site = getSite(c);
    const b = validate(c.body, SITE_PATCH);
    const adaptive = b.adaptiveContent && validate(b.adaptiveContent, { enabled: required(bool()) }, "adaptiveContent.");
    // Resolve every reference before mutating, so a 400 leaves the site untouched.
    const newDefaultSection = b.defaultSiteSection === undefined ? undefined : siteSectionRef(c, site, b.defaultSiteSection, "defaultSiteSection");
    let newDefaultSiteSpace: SiteSpaceRecord | undefined;
    if (b.defaultSiteSpace !== undefined) {
      // With sections, this sets the default of the (possibly just changed) default section; without, the root default.
      const hasSections = c.store.sectionsOf(site.id).length > 0;
      const container = hasSections ? (newDefaultSection ?? c.store.defaultSection(site))?.id : undefined;
      newDefaultSiteSpace =
        child(c.store.siteSpaces, b.defaultSiteSpace, (s) => s.siteId === site.id && s.sectionId === container) ??
        invalid(
          "defaultSiteSpace",
          hasSections ? `no site space "${b.defaultSiteSpace}" in the default section` : `no root-level site space "${b.defaultSiteSpace}" in this site`,
        );
    }
    if (b.title !== undefined) site.title = b.title;
    if (b.visibility !== undefined) site.visibility = b.visibility;
    if (b.basename !== undefined) site.basename = b.basename;
    if (b.agentsContext !== undefined) site.agentsContext = b.agentsContext;
    patchOptional(site, "proxy", b.proxy);
    if (adaptive) site.adaptiveContent = { enabled: adaptive.enabled };
    if (b.defaultLevel !== undefined) site.defaultLevel = b.defaultLevel;
    if (newDefaultSection) site.defaultSectionId = newDefaultSection.id;
    if (newDefaultSiteSpace) {
      if (newDefaultSiteSpace.sectionId === undefined) site.defaultSiteSpaceId = newDefaultSiteSpace.id;
      else c.store.sections.get(newDefaultSiteSpace.sectionId)!.defaultSiteSpaceId = newDefaultSiteSpace.id;
    }
    return ok(siteView(c, site));
  });

  r.add("DELETE", SITE, (c) => {
    const site = findSite(c);
    return deleted(site !== undefined && c.store.deleteSite(site.id));
  });
}
