// Share links: secret URLs opening a site whose visibility is `share-link`.
import { bool, created, deleted, LIMITS, list, notFound, ok, required, str, validate, type Router } from "../http";
import type { ShareLinkRecord } from "../store";
import { child, findSite, getSite, SITE, type Ctx, type Env } from "./resource";
import { sitePublishedUrl } from "./siteCommon";

export function shareLinkView(e: Env, l: ShareLinkRecord) {
  const site = e.store.sites.get(l.siteId);
  return {
    object: "share-link",
    id: l.id,
    createdAt: l.createdAt,
    name: l.name,
    active: l.active,
    urls: { published: `${site ? sitePublishedUrl(e, site) : ""}?share=${l.key}` },
  };
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${SITE}/share-links`, (c) => {
    const site = getSite(c);
    return list(
      c.query,
      [...c.store.shareLinks.values()].filter((l) => l.siteId === site.id),
      (l) => shareLinkView(c, l),
    );
  });

  r.add("POST", `${SITE}/share-links`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { name: required(str(LIMITS.shareLinkName)) });
    const link = { ...c.store.newId("shl"), siteId: site.id, name: b.name, active: true, key: c.store.randomString(24) };
    c.store.shareLinks.set(link.id, link);
    return created(shareLinkView(c, link));
  });

  r.add("PATCH", `${SITE}/share-links/:shareLink`, (c) => {
    const site = getSite(c);
    const link = child(c.store.shareLinks, c.params.shareLink!, (l) => l.siteId === site.id) ?? notFound("share link", c.params.shareLink!);
    const b = validate(c.body, { active: bool(), name: str(LIMITS.shareLinkName) });
    if (b.active !== undefined) link.active = b.active;
    if (b.name !== undefined) link.name = b.name;
    return ok(shareLinkView(c, link));
  });

  r.add("DELETE", `${SITE}/share-links/:shareLink`, (c) => {
    const site = findSite(c);
    const link = site && child(c.store.shareLinks, c.params.shareLink!, (l) => l.siteId === site.id);
    return deleted(link !== undefined && c.store.shareLinks.delete(link.id));
  });
}
