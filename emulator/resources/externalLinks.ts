// External links: entries of a site's navigation that lead to another website, at the site's top level
// or in a section group (never inside a section). There is no GET for one link, nor a list of them:
// they are read through the site's structure (siteStructure.ts).
import { bool, created, deleted, invalid, LIMITS, notFound, nullable, ok, required, str, validate, type Router } from "../http";
import type { ExternalLinkRecord, SiteRecord } from "../store";
import { child, compact, findSite, getSite, patchOptional, SITE, type Ctx, type Env } from "./resource";
import { sectionBased, sectionGroupRef } from "./siteCommon";

export function externalLinkView(_e: Env, l: ExternalLinkRecord) {
  return compact({
    object: "site-external-link",
    id: l.id,
    title: l.title,
    description: l.description,
    icon: l.icon,
    url: l.url,
    sectionGroup: l.groupId,
    draft: l.draft,
    condition: l.condition,
  });
}

const LINK_FIELDS = {
  title: str(LIMITS.sectionTitle),
  description: nullable(str(LIMITS.sectionDescription)),
  icon: nullable(str(LIMITS.icon)),
  url: str(LIMITS.externalLinkUrl),
  draft: bool(),
  condition: nullable(str(LIMITS.condition)),
};

/** GitBook: "The destination must be an absolute HTTP or HTTPS URL", narrower than the schema's `format: uri`. */
function httpDestination(url: string | undefined): void {
  if (url !== undefined && !/^https?:\/\/[^/?#\s]/i.test(url)) invalid("url", "must be a valid absolute http(s) URL");
}

function getLink(c: Ctx, site: SiteRecord): ExternalLinkRecord {
  return child(c.store.externalLinks, c.params.link!, (l) => l.siteId === site.id) ?? notFound("external link", c.params.link!);
}

export function routes(r: Router<Ctx>): void {
  r.add("POST", `${SITE}/external-links`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { ...LINK_FIELDS, title: required(LINK_FIELDS.title), url: required(LINK_FIELDS.url), parent: str() });
    httpDestination(b.url);
    // GitBook: "External links require a section-based site structure".
    if (!sectionBased(c, site)) invalid("parent", "external links need a site made of sections; this site has none");
    const group = b.parent === undefined ? undefined : sectionGroupRef(c, site, b.parent, "parent");
    const link: ExternalLinkRecord = { ...c.store.newId("sitel"), siteId: site.id, title: b.title, url: b.url, draft: b.draft ?? false };
    if (group) link.groupId = group.id;
    if (b.description != null) link.description = b.description;
    if (b.icon != null) link.icon = b.icon;
    if (b.condition != null) link.condition = b.condition;
    c.store.externalLinks.set(link.id, link);
    return created(externalLinkView(c, link));
  });

  r.add("PATCH", `${SITE}/external-links/:link`, (c) => {
    const site = getSite(c);
    const link = getLink(c, site);
    const b = validate(c.body, { ...LINK_FIELDS, parent: nullable(str()) });
    httpDestination(b.url);
    const group = b.parent == null ? undefined : sectionGroupRef(c, site, b.parent, "parent");
    if (b.title !== undefined) link.title = b.title;
    if (b.url !== undefined) link.url = b.url;
    if (b.draft !== undefined) link.draft = b.draft;
    patchOptional(link, "description", b.description);
    patchOptional(link, "icon", b.icon);
    patchOptional(link, "condition", b.condition);
    // A link moved to another container comes last there ("use the generic structure sort operation
    // after changing the parent", says GitBook).
    if (b.parent !== undefined && group?.id !== link.groupId) {
      if (group) link.groupId = group.id;
      else delete link.groupId;
      c.store.placeLast(link.id);
    }
    return ok(externalLinkView(c, link));
  });

  r.add("DELETE", `${SITE}/external-links/:link`, (c) => {
    const site = findSite(c);
    const link = site && child(c.store.externalLinks, c.params.link!, (l) => l.siteId === site.id);
    if (link) c.store.positions.delete(link.id);
    return deleted(link !== undefined && c.store.externalLinks.delete(link.id));
  });
}
