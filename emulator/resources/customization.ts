// A site's branding (getSiteCustomizationById, updateSiteCustomizationById) and the per-site-space
// overrides of it (getSiteSpaceCustomizationById, overrideSiteSpaceCustomizationById,
// deleteSiteSpaceCustomizationById).
//
// Every site has customization settings: a site nobody customized answers GitBook's defaults
// (DEFAULT_CUSTOMIZATION, a complete SiteCustomizationSettings), without `updatedAt` ("If missing,
// customization was not updated"). The PUT replaces the whole object, and its body must be the whole
// object (SiteCustomizationSettingsInput requires every group the spec lists as required).
//
// A site space's overrides are a partial object: the PATCH sets the fields it carries, descending into
// the groups the spec writes inline (`styling`, `styling.sidebar`, `header`...), and a null clears that
// override. GET answers the effective settings: the site's, with the overrides over them. DELETE drops
// every override (205), or answers 204 when there was none.
//
// Bodies are checked here against the spec's schemas (a mirror of the limits the provider must meet:
// colours, enums, lengths, URIs, required groups), answering 400 naming the path; the contract check
// (contract.ts) validates every exchange against the published document itself.
import { z } from "zod";
import { deleted, fail, isPlainObject, isUri, notFound, ok, type Router } from "../http";
import type { SiteSpaceRecord } from "../store";
import { child, findSite, getSite, now, SITE, type Ctx } from "./resource";

// ---------------------------------------------------------------- the spec's schemas, as far as checked

const color = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, "must be a hex colour (#abc or #aabbcc)");
const uri = z.string().max(2048).refine(isUri, "must be an absolute URI");
const themedColor = z.looseObject({ light: color, dark: color });
const themedUrl = z.looseObject({ light: uri, dark: uri });
const contentRef = z.looseObject({ kind: z.enum(["file", "url", "page", "anchor", "user", "collection", "space", "reusable-content", "tag", "openapi"]) });
const link = z.looseObject({ title: z.string().max(64), to: contentRef });
const LANGUAGES = ["en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"] as const;
export const localized = (max: number) => z.partialRecord(z.enum(LANGUAGES), z.string().max(max));
const defaultFonts = z.enum(["ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans", "SourceSansPro", "Lato", "Ubuntu", "Raleway", "Merriweather", "Overpass", "NotoSans", "IBMPlexSerif", "Poppins", "FiraSans"]);
const monoFonts = z.enum(["FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro", "RobotoMono", "SpaceMono", "DMMono", "Inconsolata"]);
const customFont = z.looseObject({
  id: z.string(),
  custom: z.boolean(),
  fontFamily: z.string().min(1).max(50),
  fontFaces: z.array(z.looseObject({ weight: z.int().min(1).max(1000), sources: z.array(z.looseObject({ url: uri, format: z.enum(["woff2", "woff"]).optional() })).min(1) })).min(1),
});
const codeTheme = z.looseObject({ light: z.string(), dark: z.string() });
const favicon = z.union([z.looseObject({ icon: themedUrl }), z.looseObject({ emoji: z.string().max(50) }), z.strictObject({})]);
const announcement = z.looseObject({ enabled: z.boolean(), message: z.string().min(2).max(128), style: z.enum(["info", "warning", "danger", "success"]), link: link.optional() });

/** Each group's fields; `required` for the whole object a PUT sends, all optional and nullable in a PATCH. */
function settings(whole: boolean) {
  const opt = <T extends z.ZodType>(t: T) => (whole ? t : t.nullable().optional());
  const may = <T extends z.ZodType>(t: T) => (whole ? t.optional() : t.nullable().optional());
  const group = <S extends z.ZodRawShape>(shape: S) => (whole ? z.looseObject(shape) : z.looseObject(shape).optional());
  return {
    title: may(z.string().min(2).max(128)),
    localizedTitle: may(localized(128)),
    styling: group({
      theme: opt(z.enum(["clean", "muted", "bold", "gradient"])),
      primaryColor: opt(themedColor),
      infoColor: opt(themedColor),
      successColor: opt(themedColor),
      warningColor: opt(themedColor),
      dangerColor: opt(themedColor),
      tint: may(z.looseObject({ color: themedColor })),
      corners: opt(z.enum(["straight", "rounded", "circular"])),
      depth: opt(z.enum(["subtle", "flat"])),
      links: opt(z.enum(["default", "accent"])),
      // A site space cannot override the fonts: the PATCH body has none.
      ...(whole ? { font: z.union([defaultFonts, customFont]), headingFont: z.union([defaultFonts, customFont]).nullable().optional(), monospaceFont: z.union([monoFonts, customFont]) } : {}),
      background: opt(z.enum(["plain", "match"])),
      icons: opt(z.enum(["regular", "solid", "duotone", "light", "thin"])),
      codeTheme: group({ default: opt(codeTheme), openapi: opt(codeTheme) }),
      sidebar: group({ background: opt(z.enum(["default", "filled"])), list: opt(z.enum(["default", "pill", "line"])) }),
      search: opt(z.enum(["prominent", "subtle"])),
    }),
    favicon: opt(favicon),
    header: group({ preset: opt(z.enum(["default", "bold", "contrast", "custom", "none"])), logo: may(themedUrl), primaryLink: may(contentRef), links: opt(z.array(z.looseObject({ title: z.string(), to: contentRef.nullable(), links: z.array(link) }))) }),
    footer: group({ logo: may(themedUrl), groups: opt(z.array(z.looseObject({ title: z.string(), links: z.array(link) }))), copyright: may(z.string().max(512)) }),
    announcement: announcement.optional(),
    themes: group({ default: opt(z.enum(["light", "dark", "system"])), toggeable: opt(z.boolean()) }),
    feedback: group({ enabled: opt(z.boolean()) }),
    externalLinks: group({ target: opt(z.enum(["self", "blank"])) }),
    pagination: group({ enabled: opt(z.boolean()) }),
    trademark: group({ enabled: opt(z.boolean()) }),
    privacyPolicy: group({ url: may(uri) }),
    socialPreview: group({ url: may(uri) }),
  };
}

/** SiteCustomizationSettingsInput: the whole object. */
const putBody = z.looseObject({
  ...settings(true),
  internationalization: z.looseObject({ locale: z.string() }),
  ai: z.looseObject({ mode: z.enum(["none", "search", "assistant"]), greeting: z.string().max(256).optional(), suggestions: z.array(z.string().min(3).max(64)).max(5).optional(), instructions: z.string().max(10000).optional() }),
  advancedCustomization: z.looseObject({ enabled: z.boolean() }),
  pageActions: z.looseObject({ items: z.array(z.enum(["assistant", "external-ai", "markdown", "mcp", "git", "pdf"])) }),
  socialAccounts: z.array(z.looseObject({ platform: z.string(), handle: z.string().min(1).max(128), display: z.looseObject({ footer: z.boolean(), header: z.boolean() }) })).max(10),
  insights: z.looseObject({ trackingCookie: z.boolean() }),
});

/** The body of overrideSiteSpaceCustomizationById. */
const patchBody = z.looseObject(settings(false));

function checked(schema: z.ZodType, body: unknown, at = ""): Record<string, unknown> {
  const r = schema.safeParse(body);
  if (r.success) return body as Record<string, unknown>;
  const issue = r.error.issues[0]!;
  const where = [at, ...issue.path.map(String)].filter(Boolean).join(".") || "body";
  return fail(400, `${where}: ${issue.message}`);
}

/** Refuses (400 naming the path from `at`) what a PUT of a site's customization would refuse. */
export const checkSiteCustomization = (body: unknown, at?: string) => checked(putBody, body, at);
/** Refuses (400 naming the path from `at`) what a PATCH of a site space's overrides would refuse. */
export const checkSiteSpaceOverrides = (body: unknown, at?: string) => checked(patchBody, body, at);

// ---------------------------------------------------------------- defaults and merging

/** What GitBook answers for a site nobody customized. */
export function defaultCustomization(siteTitle?: string): Record<string, unknown> {
  const same = (c: string) => ({ light: c, dark: c });
  const code = { light: "default-light", dark: "default-dark" };
  return {
    ...(siteTitle !== undefined && siteTitle.length >= 2 ? { title: siteTitle.slice(0, 128) } : {}),
    styling: {
      theme: "clean",
      primaryColor: same("#346DDB"),
      infoColor: same("#787878"),
      successColor: same("#00C950"),
      warningColor: same("#FE9A00"),
      dangerColor: same("#FB2C36"),
      corners: "rounded",
      depth: "subtle",
      links: "default",
      font: "Inter",
      monospaceFont: "IBMPlexMono",
      background: "plain",
      icons: "regular",
      codeTheme: { default: code, openapi: code },
      sidebar: { background: "default", list: "default" },
      search: "subtle",
    },
    internationalization: { locale: "en" },
    favicon: {},
    header: { preset: "default", links: [] },
    footer: { groups: [] },
    themes: { default: "system", toggeable: true },
    feedback: { enabled: false },
    ai: { mode: "search" },
    advancedCustomization: { enabled: true },
    pageActions: { items: ["markdown", "external-ai"] },
    externalLinks: { target: "self" },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}

/** The groups the spec writes inline in the PATCH body: a PATCH descends into them; anything else is one value. */
const GROUPS = new Set(["styling", "styling.sidebar", "styling.codeTheme", "header", "footer", "themes", "feedback", "externalLinks", "pagination", "trademark", "privacyPolicy", "socialPreview", "internationalization"]);

/** `base` with `patch` applied: groups merged key by key, null removing a key, anything else replaced. */
export function applyOverrides(base: Record<string, unknown>, patch: Record<string, unknown>, at = ""): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const path = at ? `${at}.${k}` : k;
    if (v === undefined) continue;
    if (v === null) delete out[k];
    else if (GROUPS.has(path) && isPlainObject(v)) {
      const merged = applyOverrides(isPlainObject(out[k]) ? out[k] : {}, v, path);
      if (Object.keys(merged).length > 0) out[k] = merged;
      else delete out[k];
    } else out[k] = v;
  }
  return out;
}

/** What the overrides are over: the site's own settings, with the overrides' defaults below them (a group's field an override cleared falls back to the site's). */
function effective(base: Record<string, unknown>, overrides: Record<string, unknown>, at = ""): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overrides)) {
    const path = at ? `${at}.${k}` : k;
    out[k] = GROUPS.has(path) && isPlainObject(v) && isPlainObject(base[k]) ? effective(base[k], v, path) : v;
  }
  return out;
}

// ---------------------------------------------------------------- routes

function siteSettings(c: Ctx, siteId: string, title: string): { settings: Record<string, unknown>; updatedAt?: string } {
  const rec = c.store.siteCustomizations.get(siteId);
  return rec ? { settings: rec.settings, updatedAt: rec.updatedAt } : { settings: defaultCustomization(title) };
}

function view(s: { settings: Record<string, unknown>; updatedAt?: string | undefined }) {
  return { ...s.settings, ...(s.updatedAt !== undefined ? { updatedAt: s.updatedAt } : {}) };
}

function getSiteSpace(c: Ctx, siteId: string): SiteSpaceRecord {
  return child(c.store.siteSpaces, c.params.siteSpace!, (ss) => ss.siteId === siteId) ?? notFound("site space", c.params.siteSpace!);
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${SITE}/customization`, (c) => {
    const site = getSite(c);
    return ok(view(siteSettings(c, site.id, site.title)));
  });

  r.add("PUT", `${SITE}/customization`, (c) => {
    const site = getSite(c);
    const body = checkSiteCustomization(c.body);
    // `updatedAt` is GitBook's to set: a body echoing a GET's is not stored as given.
    const { updatedAt: _ignored, ...settings } = body;
    const table = c.store.siteCustomizations;
    const rec = { ...(table.get(site.id) ?? { ...c.store.newId("sitecust"), id: site.id }), siteId: site.id, settings, updatedAt: now() };
    table.set(site.id, rec);
    return ok(view(rec));
  });

  const SITE_SPACE = `${SITE}/site-spaces/:siteSpace/customization`;

  r.add("GET", SITE_SPACE, (c) => {
    const site = getSite(c);
    const ss = getSiteSpace(c, site.id);
    const base = siteSettings(c, site.id, site.title);
    const over = c.store.siteSpaceCustomizations.get(ss.id);
    return ok(view(over ? { settings: effective(base.settings, over.overrides), updatedAt: over.updatedAt } : base));
  });

  r.add("PATCH", SITE_SPACE, (c) => {
    const site = getSite(c);
    const ss = getSiteSpace(c, site.id);
    const body = checkSiteSpaceOverrides(c.body);
    const table = c.store.siteSpaceCustomizations;
    const before = table.get(ss.id);
    const rec = { ...(before ?? { ...c.store.newId("sscust"), id: ss.id }), siteId: site.id, siteSpaceId: ss.id, overrides: applyOverrides(before?.overrides ?? {}, body), updatedAt: now() };
    table.set(ss.id, rec);
    return ok(view({ settings: effective(siteSettings(c, site.id, site.title).settings, rec.overrides), updatedAt: rec.updatedAt }));
  });

  r.add("DELETE", SITE_SPACE, (c) => {
    const site = findSite(c);
    const ss = site && child(c.store.siteSpaces, c.params.siteSpace!, (x) => x.siteId === site.id);
    const rec = ss && c.store.siteSpaceCustomizations.get(ss.id);
    if (!rec) return deleted(false);
    c.store.siteSpaceCustomizations.delete(rec.id);
    return deleted(Object.keys(rec.overrides).length > 0);
  });
}
