/**
 * Response shapes of the GitBook API that several kinds share: the list envelope, roles, a site, and
 * the items of a site's structure (sections, site spaces, section groups, external links), which one
 * GET of the structure answers together. A kind's own object schema lives in its module
 * (provider/resources/<kind>.ts). Every object schema is loose: fields the API adds later pass
 * through untouched, while a missing or mistyped field we do use fails with its name (see
 * ContractError) instead of a TypeError somewhere later.
 */
import { z } from "zod";

/** The `urls` of an API object. */
export const apiUrls = z.looseObject({ location: z.string().optional(), app: z.string().optional(), published: z.string().optional() });

/**
 * An object of a kind: its \`object\` tag and \`id\`, the kind's own fields (\`shape\`), and the usual
 * \`urls\` unless the shape gives its own.
 */
export function apiObject<O extends string, S extends z.core.$ZodLooseShape>(object: O, shape: S) {
  return z.looseObject({ object: z.literal(object), id: z.string(), urls: apiUrls.optional(), ...shape });
}

function envelopeOf<T>(item: z.ZodType<T>) {
  return z.looseObject({
    items: z.array(item),
    count: z.number().optional(),
    next: z.looseObject({ page: z.string() }).optional().nullable(),
  });
}

// One envelope per item schema: zod compiles a schema's fast path on its first parse, so an envelope
// built per listing paid that compilation on every listing (hundreds per converge).
const envelopes = new WeakMap<z.ZodType, ReturnType<typeof envelopeOf>>();

export function listEnvelope<T>(item: z.ZodType<T>): ReturnType<typeof envelopeOf<T>> {
  let env = envelopes.get(item);
  if (!env) envelopes.set(item, (env = envelopeOf(item)));
  return env as ReturnType<typeof envelopeOf<T>>;
}

export const Role = z.enum(["admin", "create", "review", "edit", "comment", "read"]);

/**
 * An object embedded whole in another (a site space's `space`) of which only `id` is relied on: the
 * embedded object itself, not a copy. A loose object schema copies every key it does not know, and a
 * site's section listing embeds a whole space (some 20 keys) in each of its site spaces: that copy was
 * half of parsing a 1000-section listing, which creates and deletes read again and again.
 */
const embeddedRef = z.custom<{ id: string; [k: string]: unknown }>().superRefine((v, ctx) => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) ctx.addIssue({ code: "custom", message: "expected an object" });
  else if (typeof (v as { id?: unknown }).id !== "string") ctx.addIssue({ code: "custom", path: ["id"], message: "expected a string" });
});

/** A site: the Site kind's object, which its sections, its publication, its redirects and spaces shown on it read too. */
export const ApiSite = apiObject("site", {
  type: z.string(),
  title: z.string(),
  visibility: z.string(),
  published: z.boolean(),
  siteSpaces: z.number().optional(),
  createdAt: z.string(),
  hostname: z.string().optional().nullable(),
  basename: z.string().optional().nullable(),
  /** `origin`: the `host/path` the site is proxied from (no scheme); `target`: where GitBook serves it for the proxy. */
  proxy: z.looseObject({ origin: z.string().optional(), target: z.string().optional() }).optional().nullable(),
  adaptiveContent: z.looseObject({ enabled: z.boolean() }).optional().nullable(),
  /** A role, "inherit", or null (no access by default). */
  defaultLevel: z.string().nullable().optional(),
  /** Not in GitBook's published spec. */
  agentsContext: z.string().optional(),
});
export type ApiSite = z.infer<typeof ApiSite>;

export const ApiSiteSpace = apiObject("site-space", {
  path: z.string(),
  section: z.string().optional().nullable(),
  title: z.string().optional(),
  default: z.boolean().optional(),
  condition: z.string().optional().nullable(),
  hidden: z.boolean().optional(),
  draft: z.boolean().optional(),
  space: embeddedRef,
});
export type ApiSiteSpace = z.infer<typeof ApiSiteSpace>;

export const ApiSiteSection = apiObject("site-section", {
  title: z.string(),
  description: z.string().optional().nullable(),
  default: z.boolean().optional(),
  path: z.string(),
  condition: z.string().optional().nullable(),
  sectionGroup: z.string().optional().nullable(),
  icon: z.string().optional().nullable(),
  /** Hidden from the published site. */
  draft: z.boolean().optional(),
  siteSpaces: z.array(ApiSiteSpace).optional(),
});
export type ApiSiteSection = z.infer<typeof ApiSiteSection>;

/**
 * A site's (or a site space's effective) customization settings, kept as GitBook returns them: the
 * resources read the settings their program declares from it, and a PUT sends the rest back unchanged.
 */
export const ApiSiteCustomization = z.record(z.string(), z.unknown());
export type ApiSiteCustomization = z.infer<typeof ApiSiteCustomization>;

export const ApiSiteExternalLink = apiObject("site-external-link", {
  title: z.string(),
  url: z.string(),
  description: z.string().optional().nullable(),
  icon: z.string().optional().nullable(),
  sectionGroup: z.string().optional().nullable(),
  draft: z.boolean().optional(),
  condition: z.string().optional().nullable(),
});
export type ApiSiteExternalLink = z.infer<typeof ApiSiteExternalLink>;

/** An item of a site's structure or of a group's `children`: a section, a group, a link, or a kind GitBook adds later. */
export type ApiStructureItem = ApiSiteSection | ApiSiteSectionGroup | ApiSiteExternalLink | { object: string; id: string };

export interface ApiSiteSectionGroup {
  object: "site-section-group";
  id: string;
  title: string;
  icon?: string | null;
  draft?: boolean;
  /** The group this one is nested in. */
  sectionGroup?: string | null;
  /** Deprecated by GitBook for `children`: the sections it holds. */
  sections?: { id: string }[];
  /** What it holds, in order. */
  children?: ApiStructureItem[];
  [k: string]: unknown;
}

const KNOWN_ITEMS = ["site-section", "site-section-group", "site-external-link"];

// Not through apiObject: spreading the shape would read the `children` getter, which must stay lazy (recursion).
export const ApiSiteSectionGroup: z.ZodType<ApiSiteSectionGroup> = z.looseObject({
  object: z.literal("site-section-group"),
  id: z.string(),
  title: z.string(),
  icon: z.string().optional().nullable(),
  draft: z.boolean().optional(),
  sectionGroup: z.string().optional().nullable(),
  sections: z.array(z.looseObject({ id: z.string() })).optional(),
  get children() {
    return z.array(ApiStructureItem).optional();
  },
});

export const ApiStructureItem: z.ZodType<ApiStructureItem> = z.union([
  ApiSiteSection,
  z.lazy(() => ApiSiteSectionGroup),
  ApiSiteExternalLink,
  // Kinds of item this package does not know yet pass through; a known kind must have its fields.
  z.looseObject({ object: z.string().refine((o) => !KNOWN_ITEMS.includes(o), "is a known kind whose fields are missing"), id: z.string() }),
]);

/** A site's navigation: made of sections (with groups and links), or, in a site without sections, of site spaces. */
export const ApiSiteStructure = z.looseObject({
  type: z.string(),
  structure: z.array(z.union([ApiStructureItem, ApiSiteSpace])),
});
export type ApiSiteStructure = z.infer<typeof ApiSiteStructure>;

/**
 * A Git Sync installation (GitBook's GitSyncInstallation): the GitSyncInstallation kind's object, which
 * the structure kinds read too, to know whether Git Sync owns their site's structure. GitHub names the
 * repository `repositoryId`, GitLab the project `projectId`.
 */
export const ApiGitSyncInstallation = apiObject("git-sync-installation", {
  provider: z.string(),
  providerConfiguration: z.looseObject({ repositoryId: z.number().optional(), projectId: z.number().optional(), branch: z.string().optional() }).optional(),
  projectDirectory: z.string().optional(),
  commitMessageTemplate: z.string().optional(),
  previewExternalBranches: z.boolean().optional(),
  priority: z.string().optional(),
  target: z.union([z.looseObject({ type: z.literal("site"), siteId: z.string() }), z.looseObject({ type: z.literal("space"), spaceId: z.string(), siteId: z.string().optional() })]),
  status: z.string(),
  repositoryConnection: z.looseObject({ repositoryName: z.string().optional(), repositoryUrl: z.string().optional() }).optional(),
  createdAt: z.string().optional(),
});
export type ApiGitSyncInstallation = z.infer<typeof ApiGitSyncInstallation>;

/** GitBook's listing of a site's Git Sync installations (its own and its spaces'): one page, `items` only, and no paging parameter. */
export const ApiGitSyncInstallations = z.looseObject({ items: z.array(ApiGitSyncInstallation) });
