// Site redirects: rules sending visitors from a path of the site (the source) to another place (a
// section, a site space, a page, or any URL). A site has at most one live and one draft rule per
// source; the bulk PUT upserts and deletes them by source and intent.
import { ApiError, bool, checkString, created, deleted, fail, invalid, isPlainObject, LIMITS, list, notFound, ok, queryBool, required, str, obj, validate, type Router } from "../http";
import type { SiteRecord, SiteRedirectRecord } from "../store";
import { child, compact, findSite, getSite, now, SITE, type Ctx, type Env } from "./resource";
import { siteSectionRef, sitePublishedUrl } from "./siteCommon";

export function siteRedirectView(_e: Env, r: SiteRedirectRecord) {
  return compact({
    object: "site-redirect",
    id: r.id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: r.destination,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  });
}

/**
 * A destination as the API stores it (the spec's SiteRedirectDestination), checked against the site.
 * The create and bulk bodies also take `{kind: "path", spaceId, path}` (a page by its path in a space,
 * which GitBook resolves to a page); the emulator models no pages, so it refuses it.
 */
function destinationOf(c: Ctx, site: SiteRecord, value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) invalid(field, "must be an object");
  const siteSpace = (id: unknown, f: string) => {
    const ssId = checkString(f, id);
    return child(c.store.siteSpaces, ssId, (s) => s.siteId === site.id) ?? invalid(f, `no site space "${ssId}" in this site`);
  };
  switch (value.kind) {
    case "external":
      return { kind: "external", url: checkString(`${field}.url`, value.url, LIMITS.redirectUrl) };
    case "site-section":
      return { kind: "site-section", siteSectionId: siteSectionRef(c, site, checkString(`${field}.siteSectionId`, value.siteSectionId), `${field}.siteSectionId`).id };
    case "site-space":
      return { kind: "site-space", siteSpaceId: siteSpace(value.siteSpaceId, `${field}.siteSpaceId`).id };
    case "site-page":
      return { kind: "site-page", siteSpaceId: siteSpace(value.siteSpaceId, `${field}.siteSpaceId`).id, pageId: checkString(`${field}.pageId`, value.pageId, { min: 1, max: 512 }) };
    case "path":
      return invalid(`${field}.kind`, "the emulator models no pages, so it cannot resolve a page path; use site-page, site-space, site-section or external");
    default:
      return invalid(`${field}.kind`, "must be one of external, site-section, site-space, site-page, path");
  }
}

/** The site's rule from `source` in the given draft state. */
function bySource(c: Ctx, site: SiteRecord, source: string, draft: boolean): SiteRedirectRecord | undefined {
  return [...c.store.siteRedirects.values()].find((r) => r.siteId === site.id && r.source === source && r.draft === draft);
}

function taken(what: string, source: string): never {
  return fail(409, `source: a ${what} redirect from "${source}" already exists in this site`);
}

/** Where a visitor of the published site ends up. */
function targetOf(c: Ctx, site: SiteRecord, d: Record<string, unknown>): string {
  const base = sitePublishedUrl(c, site);
  if (d.kind === "external") return d.url as string;
  if (d.kind === "site-section") return `${base}/${c.store.sections.get(d.siteSectionId as string)?.path ?? ""}`;
  const ss = c.store.siteSpaces.get(d.siteSpaceId as string);
  const section = ss?.sectionId === undefined ? undefined : c.store.sections.get(ss.sectionId);
  const spaceUrl = [base, section?.path, ss?.path].filter((x) => x !== undefined).join("/");
  return d.kind === "site-page" ? `${spaceUrl}/~page/${d.pageId as string}` : spaceUrl;
}

const RULE_FIELDS = { source: str(LIMITS.redirectSource), captureWildcard: bool(), draft: bool(), permanent: bool(), destination: obj() };

type BulkResult = { status: string; source: string; draft: boolean; id?: string; error?: string };

/** One item of a bulk PUT, processed on its own: its problems are its result, not the request's. */
function bulkItem(c: Ctx, site: SiteRecord, item: unknown): BulkResult {
  const source = isPlainObject(item) && typeof item.source === "string" ? item.source : "";
  const intent = isPlainObject(item) ? item.intent : undefined;
  const draft = intent === "draft";
  try {
    if (!isPlainObject(item)) invalid("redirects[]", "must be an object");
    checkString("source", item.source, LIMITS.redirectSource);
    if (intent === "publish") {
      const d = bySource(c, site, source, true) ?? notFound("draft redirect", source);
      const live = bySource(c, site, source, false);
      c.store.siteRedirects.delete(d.id);
      if (live) {
        Object.assign(live, { captureWildcard: d.captureWildcard, permanent: d.permanent, destination: d.destination, updatedAt: now() });
        return { status: "published", source, draft: false, id: live.id };
      }
      const promoted = { ...d, draft: false, updatedAt: now() };
      c.store.siteRedirects.set(promoted.id, promoted);
      return { status: "published", source, draft: false, id: promoted.id };
    }
    if (intent !== undefined && intent !== "live" && intent !== "draft") invalid("intent", "must be one of live, draft, publish");
    const b = validate(item, { captureWildcard: bool(), permanent: bool() });
    if (!("destination" in item)) invalid("destination", "is required");
    const existing = bySource(c, site, source, draft);
    if (item.destination === null) {
      if (!existing) notFound("redirect", source);
      c.store.siteRedirects.delete(existing.id);
      return { status: "deleted", source, draft };
    }
    const destination = destinationOf(c, site, item.destination, "destination");
    if (existing) {
      Object.assign(existing, { destination, captureWildcard: b.captureWildcard ?? false, updatedAt: now() });
      if (b.permanent !== undefined) existing.permanent = b.permanent;
      return { status: "updated", source, draft, id: existing.id };
    }
    const r: SiteRedirectRecord = { ...c.store.newId("redir"), siteId: site.id, source, draft, captureWildcard: b.captureWildcard ?? false, permanent: b.permanent ?? false, destination };
    c.store.siteRedirects.set(r.id, r);
    return { status: "created", source, draft, id: r.id };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { status: "error", source, draft, error: e.message };
  }
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${SITE}/redirects`, (c) => {
    const site = getSite(c);
    const draft = queryBool(c.query, "draft") ?? false;
    const search = c.query.get("search");
    const orderBy = c.query.get("orderBy") ?? "createdAt";
    if (!["createdAt", "updatedAt", "source"].includes(orderBy)) invalid("orderBy", "must be one of createdAt, updatedAt, source");
    const rules = [...c.store.siteRedirects.values()].filter((x) => x.siteId === site.id && x.draft === draft && (search === null || x.source.includes(search)));
    // Newest first for the dates; by source, each rule's rank among the site's sources.
    const bySourceRank = [...rules].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.seq - b.seq));
    const keyOf =
      orderBy === "source"
        ? (x: SiteRedirectRecord) => [bySourceRank.indexOf(x)]
        : orderBy === "updatedAt"
          ? (x: SiteRedirectRecord) => [-Date.parse(x.updatedAt ?? x.createdAt), -x.seq]
          : (x: SiteRedirectRecord) => [-x.seq];
    return list(c.query, rules, (x) => siteRedirectView(c, x), keyOf);
  });

  r.add("POST", `${SITE}/redirects`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { ...RULE_FIELDS, source: required(RULE_FIELDS.source), destination: required(RULE_FIELDS.destination) });
    const draft = b.draft ?? false;
    if (bySource(c, site, b.source, draft)) taken(draft ? "draft" : "live", b.source);
    const destination = destinationOf(c, site, b.destination, "destination");
    const rule: SiteRedirectRecord = { ...c.store.newId("redir"), siteId: site.id, source: b.source, draft, captureWildcard: b.captureWildcard ?? false, permanent: b.permanent ?? false, destination };
    c.store.siteRedirects.set(rule.id, rule);
    return created(siteRedirectView(c, rule));
  });

  r.add("PUT", `${SITE}/redirects`, (c) => {
    const site = getSite(c);
    if (!isPlainObject(c.body)) invalid("body", "must be a JSON object");
    const items = c.body.redirects;
    if (!Array.isArray(items) || items.length < 1 || items.length > 500) invalid("redirects", "must be an array of 1 to 500 redirects");
    return ok({ results: items.map((item) => bulkItem(c, site, item)) });
  });

  r.add("PATCH", `${SITE}/redirects/:redirect`, (c) => {
    const site = getSite(c);
    const rule = child(c.store.siteRedirects, c.params.redirect!, (x) => x.siteId === site.id) ?? notFound("site redirect", c.params.redirect!);
    const b = validate(c.body, RULE_FIELDS);
    const source = b.source ?? rule.source;
    const draft = b.draft ?? rule.draft;
    const other = bySource(c, site, source, draft);
    if (other && other.id !== rule.id) taken(draft ? "draft" : "live", source);
    const destination = b.destination === undefined ? undefined : destinationOf(c, site, b.destination, "destination");
    Object.assign(rule, { source, draft, updatedAt: now() });
    if (b.captureWildcard !== undefined) rule.captureWildcard = b.captureWildcard;
    if (b.permanent !== undefined) rule.permanent = b.permanent;
    if (destination) rule.destination = destination;
    return ok(siteRedirectView(c, rule));
  });

  r.add("DELETE", `${SITE}/redirects/:redirect`, (c) => {
    const site = findSite(c);
    const rule = site && child(c.store.siteRedirects, c.params.redirect!, (x) => x.siteId === site.id);
    return deleted(rule !== undefined && c.store.siteRedirects.delete(rule.id));
  });

  r.add("GET", `${SITE}/redirect`, (c) => {
    const site = getSite(c);
    const source = checkString("source", c.query.get("source") ?? invalid("source", "is required"), LIMITS.redirectSource);
    const rule = bySource(c, site, source, false) ?? notFound("redirect", source);
    return ok({ redirect: siteRedirectView(c, rule), target: targetOf(c, site, rule.destination) });
  });
}
