/**
 * Response shapes of the GitBook API that several kinds share: the list envelope, roles, an embedded
 * object, a site's customization. A kind's own object schema lives in its module
 * (provider/resources/<kind>.ts), derived from its inputs (framework/fields.ts wireShape), and the
 * items of a site's structure in resources/siteStructure.ts. Every object schema is loose: fields the API adds later pass
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
export const embeddedRef = z.custom<{ id: string; [k: string]: unknown }>().superRefine((v, ctx) => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) ctx.addIssue({ code: "custom", message: "expected an object" });
  else if (typeof (v as { id?: unknown }).id !== "string") ctx.addIssue({ code: "custom", path: ["id"], message: "expected a string" });
});

/**
 * A site's (or a site space's effective) customization settings, kept as GitBook returns them: the
 * resources read the settings their program declares from it, and a PUT sends the rest back unchanged.
 */
export const ApiSiteCustomization = z.record(z.string(), z.unknown());
export type ApiSiteCustomization = z.infer<typeof ApiSiteCustomization>;

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
