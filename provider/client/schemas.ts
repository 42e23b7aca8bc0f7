/**
 * Response shapes of the GitBook API, as far as this package relies on them. Every object schema is
 * loose: fields the API adds later pass through untouched, while a missing or mistyped field we do
 * use fails with its name (see ContractError) instead of a TypeError somewhere later.
 */
import { z } from "zod";

const url = z.string();
const urls = z.looseObject({ location: url.optional(), app: url.optional(), published: url.optional() });

export function listEnvelope<T>(item: z.ZodType<T>) {
  return z.looseObject({
    items: z.array(item),
    count: z.number().optional(),
    next: z.looseObject({ page: z.string() }).optional().nullable(),
  });
}

export const Role = z.enum(["admin", "create", "review", "edit", "comment", "read"]);
export const TeamRole = z.enum(["owner", "member"]);

export const ApiUser = z.looseObject({ id: z.string(), displayName: z.string().optional(), email: z.string().optional() });
export const ApiMember = z.looseObject({ id: z.string(), role: Role.nullable().optional(), user: ApiUser });
export type ApiMember = z.infer<typeof ApiMember>;

export const ApiSite = z.looseObject({
  object: z.literal("site"),
  id: z.string(),
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
  /** Not in GitBook's published spec. */
  agentsContext: z.string().optional(),
  urls: urls.optional(),
});
export type ApiSite = z.infer<typeof ApiSite>;

export const ApiSiteSpace = z.looseObject({
  object: z.literal("site-space"),
  id: z.string(),
  path: z.string(),
  section: z.string().optional().nullable(),
  title: z.string().optional(),
  default: z.boolean().optional(),
  condition: z.string().optional().nullable(),
  space: z.looseObject({ id: z.string() }),
  urls: urls.optional(),
});
export type ApiSiteSpace = z.infer<typeof ApiSiteSpace>;

export const ApiSiteSection = z.looseObject({
  object: z.literal("site-section"),
  id: z.string(),
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
  urls: urls.optional(),
});
export type ApiSiteSection = z.infer<typeof ApiSiteSection>;

export const ApiShareLink = z.looseObject({
  object: z.literal("share-link"),
  id: z.string(),
  createdAt: z.string(),
  name: z.string().optional().nullable(),
  active: z.boolean().optional(),
  urls: urls.optional(),
});
export type ApiShareLink = z.infer<typeof ApiShareLink>;

export const ApiSiteRedirect = z.looseObject({
  object: z.literal("site-redirect"),
  id: z.string(),
  source: z.string(),
  draft: z.boolean(),
  captureWildcard: z.boolean(),
  permanent: z.boolean(),
  destination: z.looseObject({ kind: z.string() }),
  createdAt: z.string(),
});
export type ApiSiteRedirect = z.infer<typeof ApiSiteRedirect>;

/** The answer of the bulk PUT: one result per rule sent, in order. */
export const ApiSiteRedirectResults = z.looseObject({
  results: z.array(z.looseObject({ status: z.string(), source: z.string(), draft: z.boolean().optional(), id: z.string().optional(), error: z.string().optional() })),
});

export const ApiTeam = z.looseObject({
  object: z.literal("team"),
  id: z.string(),
  title: z.string().optional(),
  members: z.number().optional(),
  createdAt: z.string().optional(),
});
export type ApiTeam = z.infer<typeof ApiTeam>;

export const ApiTeamMember = z.looseObject({
  organization: ApiMember,
  team: z.looseObject({ role: TeamRole }),
});
export type ApiTeamMember = z.infer<typeof ApiTeamMember>;

export const ApiSamlProvider = z.looseObject({
  object: z.literal("saml-provider"),
  id: z.string(),
  label: z.string(),
  ssoURL: z.string().optional().nullable(),
  entityID: z.string().optional().nullable(),
  certificate: z.string().optional().nullable(),
  defaultTeam: z.looseObject({ id: z.string() }).optional().nullable(),
  defaultRole: Role.optional().nullable(),
  createdAt: z.string().optional(),
  status: z.string().optional(),
  service: z.looseObject({ acsURL: z.string().optional(), startURL: z.string().optional(), entityID: z.string().optional() }).optional(),
  urls: urls.optional(),
});
export type ApiSamlProvider = z.infer<typeof ApiSamlProvider>;

export const ApiOpenApiSpec = z.looseObject({
  object: z.literal("openapi-spec"),
  id: z.string(),
  slug: z.string(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  sourceURL: z.string().optional().nullable(),
  /** pending, progress or complete; a failed processing is one with a lastProcessErrorCode. */
  processingState: z.string(),
  visibility: z.string().optional(),
  lastVersion: z.string().optional().nullable(),
  lastProcessedAt: z.string().optional().nullable(),
  lastProcessErrorCode: z.string().optional().nullable(),
  lastProcessedErrors: z.array(z.looseObject({ message: z.string().optional(), code: z.string().optional() })).optional().nullable(),
  urls: urls.optional(),
});
export type ApiOpenApiSpec = z.infer<typeof ApiOpenApiSpec>;

export const ApiSpace = z.looseObject({
  object: z.literal("space"),
  id: z.string(),
  title: z.string(),
  /** "" (or absent) when the space shows no emoji. */
  emoji: z.string().optional().nullable(),
  visibility: z.string().optional(),
  createdAt: z.string(),
  /** Set on a space in the trash. */
  deletedAt: z.string().optional().nullable(),
  editMode: z.string().optional(),
  organization: z.string().optional(),
  parent: z.string().optional().nullable(),
  language: z.string().optional().nullable(),
  /** A role, "inherit", or null (no access by default). */
  defaultLevel: z.string().nullable().optional(),
  urls: urls.extend({ icon: url.optional() }).optional(),
});
export type ApiSpace = z.infer<typeof ApiSpace>;

export const ApiCollection = z.looseObject({
  object: z.literal("collection"),
  id: z.string(),
  title: z.string(),
  description: z.string().optional().nullable(),
  organization: z.string().optional(),
  parent: z.string().optional().nullable(),
  defaultLevel: z.string().nullable().optional(),
  urls: urls.optional(),
});
export type ApiCollection = z.infer<typeof ApiCollection>;

/** publishSite's other answer: the organization's plan needs an upgrade, paid through this Stripe checkout, before the site can go live. */
export const ApiPublishCheckout = z.looseObject({ type: z.literal("checkout"), sessionId: z.string() });
export const ApiPublishAnswer = z.union([ApiSite, ApiPublishCheckout]);
export type ApiPublishAnswer = z.infer<typeof ApiPublishAnswer>;

/** A site's visitor schema; `jsonSchema` is kept as GitBook returns it (the resource compares it whole). */
export const ApiSiteAdaptiveSchema = z.looseObject({
  object: z.literal("site-adaptive-schema"),
  jsonSchema: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
export type ApiSiteAdaptiveSchema = z.infer<typeof ApiSiteAdaptiveSchema>;

export const ApiSiteExternalLink = z.looseObject({
  object: z.literal("site-external-link"),
  id: z.string(),
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
