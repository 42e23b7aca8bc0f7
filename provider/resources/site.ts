/**
 * Site: a published docs site built from spaces.
 *
 * The site's default section and default site space are chosen by `default: true` on a SiteSection or
 * SiteSpace, never here: a Site input naming its own children would make a dependency cycle.
 *
 * Whether the site is live (`published`) is an input here rather than a resource of its own: the Site
 * object reports it, so refresh reads it with the rest of the site at no extra request, and the
 * outputs that follow from it (`urls.published`) are recorded by the resource that changed it. Its
 * cost is the order: a Site is applied before the sections that depend on it, so a site first
 * created published goes live before its content exists (GitBook publishes a site without content).
 *
 * One fact, one owner: `published` and `urls.published` are outputs only while this resource declares
 * `published`. Otherwise a SitePublication (DocsSite's `site.published`) or the app owns them, and the
 * Site, applied before the publication, would record a state that is stale once `up` ends.
 */
import { z } from "zod";
import { apiObject } from "../client";
import { ApiShareLink } from "./shareLink";
import type { HeldObject } from "../framework/cascade";
import { listFresh } from "../framework/lists";
import { defineResource, resourceClass, type Inputs, type Lookalikes, type Outputs } from "../framework/define";
import { field, forceDestroyField, organizationIdField, text, wireShape } from "../framework/fields";
import { shareLinkPaths, structurePaths as siteStructurePaths, sitePaths } from "./sitePaths";
import { changedBody, finishCreate, patchAfterCreate, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import { PartialFailure } from "../framework/failure";
import { getOrUndefined } from "../framework/lists";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import { defaultLevelField } from "./contentTree";
import { count, mapLimit, settingsOf, type ImportRead } from "../framework/discover";
import { ApiSiteStructure, navigationOf, TOP_LEVEL, type ApiStructureItem } from "./siteStructure";
import { siteSpaceRecord } from "./siteSpace";
import { declaresAddress } from "./siteAddress";
import type { SiteSnapshot } from "../importer/snapshot";
import { uniquePath, URL_SEGMENT_RULE, urlSegment } from "./urlPaths";

// ---- Schema --------------------------------------------------------------------------------------

/** GitBook's site types, as its published API spec lists them. */
export const SITE_TYPES = ["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"] as const;
export const SITE_VISIBILITIES = ["public", "unlisted", "share-link", "visitor-auth"] as const;
export type SiteType = (typeof SITE_TYPES)[number];
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

export const PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

const inputs = z.object({
  organizationId: organizationIdField,
  title: text({ min: 2, max: 128 }).describe("Title of the site, 2 to 128 characters."),
  type: z
    .enum(SITE_TYPES, { error: `must be one of ${SITE_TYPES.join(", ")}` })
    .optional()
    .describe(
      "Site type (plan): one of `basic`, `premium`, `ultimate`, `sponsored`, `legacy-basic`, `legacy-premium`. Sent and managed only when declared: a site created without it gets GitBook's default (`ultimate`, or `sponsored` in a community organization), and an adopted site keeps its own. The output is always the site's actual type. Declaring a type other than the site's replaces the site (the API cannot change it in place); removing it changes nothing.",
    )
    .register(field, { change: "replace", live: true }),
  visibility: z
    .enum(SITE_VISIBILITIES, { error: `must be one of ${SITE_VISIBILITIES.join(", ")}` })
    .optional()
    .describe(
      "Who can reach the published site: `public` (indexed by search engines), `unlisted` (not indexed), `share-link` (holders of a ShareLink URL), `visitor-auth` (visitors authenticated with a JWT). Managed only when declared: a site created without it is `public` (GitBook's default), an adopted site keeps its own, and removing it leaves the current value. The output is always the site's actual visibility.",
    )
    .register(field, { live: true }),
  published: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      "Whether the site is live: `true` publishes it (GitBook's publish call), `false` takes it offline (unpublish); its audience is `visibility`'s. Managed only when declared: a site created without it is not published (GitBook's default), an adopted site keeps its state, and removing it leaves the site as it is. While declared, the output is the site's actual state (refresh shows a site published or unpublished in the app as drift) and `urls.published` its address; undeclared, neither is an output of the Site (a SitePublication, or the app, owns them: read `publishedUrl` there). Publishing happens when the Site itself is applied (created or updated), which is before the sections and site spaces that depend on it: on the first `up` a site declared published goes live without content (GitBook publishes a site without content) and shows each section as it is added. To publish once the content exists, leave `published` out here and declare a SitePublication that `dependsOn` the sections (DocsSite does this for its `site.published`). When the organization's plan needs an upgrade first, GitBook answers with a checkout instead of publishing, and `up` fails saying so (the site stays unpublished and is kept in state).",
    )
    .register(field, { change: "custom", live: true }),
  basename: urlSegment(100)
    .optional()
    .describe(
      `Path segment the site is published under on the organization's hostname, 1 to 100 characters: ${URL_SEGMENT_RULE}. Unique among the sites of the organization (a second one fails the preview, naming both). When omitted the API derives it from the title; removing it leaves the current value.`,
    )
    .register(field, { create: "patch" }),
  agentsContext: z
    .enum(["excluded", "included"], { error: "must be excluded or included" })
    .optional()
    .describe(
      "Whether GitBook's AI agent may use this site as context: `included` or `excluded`. Removing it leaves the current value. Not part of GitBook's published API spec: it is sent as declared, but GitBook may ignore it, and drift is shown only when GitBook reports the field.",
    )
    .register(field, { create: "patch" }),
  proxy: text({ max: 512, pattern: PROXY_PATTERN, patternHint: "host/path, e.g. example.com/docs" })
    .optional()
    .describe("Serve the site under a subdirectory of your own domain, written `host/path` (e.g. `example.com/docs`), at most 512 characters. Removing it removes the proxy.")
    .register(field, { remove: "clear", create: "patch" }),
  adaptiveContent: z
    .object({ enabled: z.boolean().describe("Show or hide content per visitor from their claims.") })
    .optional()
    .describe("Adaptive content settings. Removing it disables adaptive content.")
    .register(field, { remove: { reset: { enabled: false } }, create: "patch" }),
  defaultLevel: defaultLevelField("site", "the organization", { create: "patch" }),
  forceDestroy: forceDestroyField(
    "site",
    "everything in its structure (its sections with their site spaces, its section groups and external links) and its share links; the spaces the site showed stay",
  ),
});

/**
 * What the site's own writes decide, nothing else (issue 42: a resource's outputs are written by its
 * own create, update and read alone, so a fact another resource writes later in the run would be stale
 * in state). Not outputs: how many site spaces it shows (its children, applied after it); whether it
 * is published, unless declared here (a SitePublication publishes it after it); its hostname, which
 * the app sets up and a SiteCustomHostname may remove (GitBook's API cannot assign one: read it from
 * the SiteCustomHostname); the URLs GitBook derives from other settings (visitor authentication's).
 */
const outputs = z.object({
  type: z.string().describe("The site's actual type (plan)."),
  published: z.boolean().optional().describe("Whether the site is live, its actual state, while this resource declares `published` (absent otherwise)."),
  visibility: z.string().describe("The site's actual visibility (one of the values of the input, or one GitBook added since)."),
  urls: z
    .object({
      location: z.string().optional().describe("API URL of the site."),
      app: z.string().optional().describe("URL of the site in the GitBook app."),
      published: z
        .string()
        .optional()
        .describe("URL of the published site, while this resource declares `published` and the site is published (otherwise see SitePublication's `publishedUrl`)."),
    })
    .describe("The site's URLs."),
  createdAt: z.string().describe("When the site was created."),
});

export type SiteInputs = Inputs<typeof inputs>;
export type SiteOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Wire ----------------------------------------------------------------------------------------

// What GitBook answers for this kind: loose objects (fields the API adds pass through), while a missing
// or mistyped field the kind uses fails with its name (ContractError).

/** A site: its inputs (wireShape), and what its sections, its publication, redirects and spaces read of it too. */
export const ApiSite = apiObject("site", {
  ...wireShape(inputs),
  type: z.string(),
  title: z.string(),
  visibility: z.string(),
  published: z.boolean(),
  siteSpaces: z.number().optional(),
  createdAt: z.string(),
  hostname: z.string().optional().nullable(),
  /** `origin`: the `host/path` the site is proxied from (no scheme); `target`: where GitBook serves it for the proxy. */
  proxy: z.looseObject({ origin: z.string().optional(), target: z.string().optional() }).optional().nullable(),
  adaptiveContent: z.looseObject({ enabled: z.boolean() }).optional().nullable(),
});
export type ApiSite = z.infer<typeof ApiSite>;

/** publishSite's other answer: the organization's plan needs an upgrade, paid through this Stripe checkout, before the site can go live. */
export const ApiPublishCheckout = z.looseObject({ type: z.literal("checkout"), sessionId: z.string() });

export const ApiPublishAnswer = z.union([ApiSite, ApiPublishCheckout]);
export type ApiPublishAnswer = z.infer<typeof ApiPublishAnswer>;

/** The kind's API paths (in sitePaths.ts, beside those of the other kinds of a site, which use each other's). */
export const paths = sitePaths;

// ---- CRUD ----------------------------------------------------------------------------------------

/**
 * The API returns the proxy as `{origin, target}`: `origin` is the `host/path` the site was set with
 * (the input), `target` where GitBook serves the site for the proxy to forward to.
 */
export function proxyInput(proxy: ApiSite["proxy"]): string | undefined {
  // The spec's origin has no scheme; one written with it still names the same host/path.
  return proxy?.origin ? proxy.origin.replace(/^https?:\/\//, "").replace(/\/+$/, "") : undefined;
}

/**
 * Takes the site live or offline; GitBook answers with the site as it now is. Publishing may instead
 * answer with a Stripe checkout the organization's plan needs first: that is an error, naming it.
 * Both calls set a state, so a retry cannot do harm.
 */
export async function setPublished(ctx: Ctx, org: string, id: string, published: boolean): Promise<ApiSite> {
  if (!published) return ctx.client.post(paths.siteUnpublish(org, id), { schema: ApiSite, idempotent: true });
  const answer = await ctx.client.post(paths.sitePublish(org, id), { schema: ApiPublishAnswer, idempotent: true });
  if (answer.type !== "checkout") return answer as ApiSite;
  throw new Error(
    `Site: published: GitBook did not publish site ${id}: the organization's plan needs an upgrade first (GitBook answered with Stripe checkout session ${String(answer.sessionId)} instead). ` +
      "Upgrade the plan in GitBook (or choose a site type it covers), then run `pulumi up` again; or remove `published` to leave the site unpublished.",
  );
}

function lookalikes(ctx: Ctx, given: SiteInputs): Lookalikes<ApiSite> {
  const org = given.organizationId;
  return {
    kind: "Site",
    key: `${org}/${given.title}`,
    what: `site ${JSON.stringify(given.title)}`,
    // A lost answer may still have created the site: one with this title that no other resource holds.
    candidates: async () =>
      (await ctx.client.listAll(paths.sites(org), ApiSite, { title: given.title })).filter((s) => s.title === given.title && (given.type === undefined || s.type === given.type)),
    before: "list",
    createdAt: (s) => s.createdAt,
  };
}

async function create(ctx: Ctx, given: SiteInputs): Promise<{ id: string; outs: SiteOutputs }> {
  const org = given.organizationId;
  const site = await createOnce(ctx, {
    ...lookalikes(ctx, given),
    // Only what the program declares: GitBook picks the type and visibility of a site created without them.
    send: () => ctx.client.post(paths.sites(org), { body: declared({ type: given.type, title: given.title, visibility: given.visibility }), schema: ApiSite }),
  });
  // POST accepts only type, title and visibility: the fields declared `create: "patch"` need a PATCH,
  // and publishing a call of its own.
  const patch = (id: string, body: Props) => ctx.client.patch(paths.site(org, id), { body, schema: ApiSite });
  const publish = async (latest: ApiSite) => (given.published !== undefined && given.published !== latest.published ? setPublished(ctx, org, latest.id, given.published) : undefined);
  return finishCreate(definition, given, site, patchAfterCreate(definition, given, patch, publish));
}

async function read(ctx: Ctx, id: string, props: SiteOutputs): Promise<SiteOutputs | undefined> {
  const site = await getOrUndefined(ctx.client.get(paths.site(props.organizationId, id), { schema: ApiSite }));
  return site && refreshed(definition, props, site);
}

async function update(ctx: Ctx, id: string, olds: SiteOutputs, news: SiteInputs, changed: readonly string[]): Promise<SiteOutputs> {
  const org = news.organizationId;
  const body = changedBody(definition, changed, news);
  let site = Object.keys(body).length > 0 ? await ctx.client.patch(paths.site(org, id), { body, schema: ApiSite }) : undefined;
  if (news.published !== undefined && changed.includes("published")) {
    try {
      site = await setPublished(ctx, org, id, news.published);
    } catch (e) {
      if (!site) throw e;
      // The PATCH went through: record it, with the site's publication as it still is.
      throw new PartialFailure(id, definition.outputsOf(declared(news), site), [`site ${id} was updated but its publication could not be changed: ${(e as Error).message}`], {
        cause: e,
        field: "published",
      });
    }
  }
  site ??= await ctx.client.get(paths.site(org, id), { schema: ApiSite });
  return definition.outputsOf(declared(news), site);
}

async function remove(ctx: Ctx, id: string, props: SiteOutputs): Promise<void> {
  await ctx.client.delete(paths.site(props.organizationId, id));
}

const KINDS: Record<string, string> = {
  "site-section": "SiteSection",
  "site-section-group": "SiteSectionGroup",
  "site-external-link": "SiteExternalLink",
  "site-space": "SiteSpace",
};

/** Every item of the structure, each group's children after it. */
function structureItems(items: readonly (ApiStructureItem | { object: string; id: string })[]): HeldObject[] {
  return items.flatMap((item) => {
    const x = item as { object: string; id: string; title?: unknown; children?: ApiStructureItem[] };
    const held = { kind: KINDS[x.object] ?? x.object, title: typeof x.title === "string" ? x.title : x.id, id: x.id };
    return [held, ...structureItems(x.children ?? [])];
  });
}

/**
 * What deleting the site takes along: what its structure holds (sections, section groups, external
 * links; site spaces in a site without sections) and its share links. Resources of this program that
 * name the site by its id output are deleted before it, so what is left was made outside this stack or
 * names the site by a fixed ID. Read fresh: the structure with a plain GET, the share links by listing.
 */
async function heldBySite(ctx: Ctx, id: string, props: Props): Promise<HeldObject[]> {
  const org = (props as SiteOutputs).organizationId;
  const [structure, links] = await Promise.all([
    getOrUndefined(ctx.client.get(siteStructurePaths.structure(org, id), { schema: ApiSiteStructure })),
    listFresh(ctx, shareLinkPaths.shareLinks(org, id), ApiShareLink),
  ]);
  return [
    ...structureItems(structure?.structure ?? []),
    ...(links ?? []).map((l) => ({ kind: "ShareLink", title: l.name ?? l.id, id: l.id })),
  ];
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "Site",
  adoptable: true,
  noun: "site",
  summary:
    "A published docs site built from spaces. Its outputs describe the site itself, whether it is published only while the Site declares `published` (a SitePublication, applied after it, owns that fact otherwise); how many site spaces it shows depends on its children (created after it), so it is not an output, which would be stale after every `up` and show as drift at every refresh. Nor is its hostname: a custom hostname (e.g. `docs.example.com`) is set up in the GitBook app (GitBook's API cannot assign one) and a SiteCustomHostname with `removeOnDestroy` may remove it; declare a SiteCustomHostname to check that it points to this site and read its status. GitBook deletes a site with its sections, section groups, external links and share links: a delete that would take along any that this program does not delete first fails before deleting anything, listing them, unless `forceDestroy` is set.",
  inputs,
  outputs,
  live: (site: ApiSite) => ({
    type: site.type,
    title: site.title,
    visibility: site.visibility,
    published: site.published,
    basename: site.basename ?? undefined,
    // Outside the spec: compared only when the API reports it, so a GitBook that ignores it shows no drift.
    ...(site.agentsContext !== undefined && { agentsContext: site.agentsContext }),
    proxy: proxyInput(site.proxy),
    adaptiveContent: site.adaptiveContent ? { enabled: site.adaptiveContent.enabled } : undefined,
    // Compared only when the API reports it (the spec requires it; an older answer may lack it).
    ...(site.defaultLevel !== undefined && { defaultLevel: site.defaultLevel }),
  }),
  // `props` are the inputs as declared (see refreshed), so `published` there means this resource owns it.
  computed: (site, props) => ({
    type: site.type,
    visibility: site.visibility,
    ...(props.published !== undefined ? { published: site.published } : {}),
    // The schema's URLs only: GitBook's others (visitor authentication's login and logout) follow other resources' writes.
    urls: { location: site.urls?.location, app: site.urls?.app, published: props.published !== undefined ? site.urls?.published : undefined },
    createdAt: site.createdAt,
  }),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  inProgram: (name, args) => {
    uniquePath("Site")(name, args);
    return declaresAddress("Site", args);
  },
  import: { read: importRead() },
  cascade: {
    consequence: "GitBook deletes a site with its sections (and their site spaces), section groups, external links and share links.",
    held: heldBySite,
  },
});

/**
 * How the importer finds sites: every site of the organization (or those --site names), each with its
 * navigation's top level in order, the items it has no resource for, and the site spaces outside any
 * section (which no resource can hold).
 */
function importRead(): ImportRead {
  const KNOWN_ITEMS = new Set(["site-section", "site-section-group", "site-external-link", "site-space"]);
  return {
    into: "sites",
    async find(ctx) {
      const sites = ctx.siteIds.length
        ? await mapLimit(ctx.siteIds, ctx.limit, (id) => ctx.get(paths.site(ctx.organizationId, id), ApiSite))
        : await ctx.list(paths.sites(ctx.organizationId), ApiSite);
      return sites.map((site) => ctx.keep({ ...settingsOf(definition, site), id: site.id, createdAt: site.createdAt }, site));
    },
    async complete(ctx, record) {
      const nav = await navigationOf(ctx, ctx.sourceOf<ApiSite>(record));
      Object.assign(record, {
        topLevel: nav.items.filter((l) => l.container === TOP_LEVEL && l.type !== "site-space").map((l) => l.id),
        unknownItems: nav.items.filter((l) => !KNOWN_ITEMS.has(l.type)).map((l) => ({ id: l.id, object: l.item.object })),
        rootSiteSpaces: nav.rootSiteSpaces.map((ss) => siteSpaceRecord(ctx, ss)),
      });
    },
    progress: {
      found: (sites) => `${count(sites.length, "site")} to read`,
      each: (r, done, of) => {
        const s = r as unknown as SiteSnapshot;
        const siteSpaces = s.sections.reduce((n, x) => n + x.siteSpaces.length, s.rootSiteSpaces.length);
        return (
          `site ${done}/${of} ${JSON.stringify(s.title)}: ${count(s.sections.length, "section")}, ${count(siteSpaces, "site space")}, ` +
          `${count(s.sectionGroups.length, "section group")}, ${count(s.externalLinks.length, "external link")}, ${count(s.shareLinks.length, "share link")}` +
          `${s.adaptiveSchema ? ", a visitor schema" : ""}`
        );
      },
    },
  };
}

/** A GitBook docs site. */
export const Site = resourceClass(definition);
export type Site = InstanceType<typeof Site>;
export type SiteArgs = ConstructorParameters<typeof Site>[1];
