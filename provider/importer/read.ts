/**
 * Reads an organization into an OrgSnapshot: every list the import needs, each read once at the
 * largest page size (the client's `listAll` follows the pages), several sites and teams at a time.
 *
 * What it reads, per site: the site; its structure (one GET: the navigation in order, its sections with
 * their site spaces, section groups and external links, and the spaces those site spaces show); its
 * share links; its visitor schema (404: none). The site's own site-space list only when the sections do
 * not account for every site space the site reports (site spaces outside a section) or do not list
 * theirs. Then the collections holding the spaces shown, when any space is in one (one listing). For
 * the organization: teams and each team's members, SAML providers, OpenAPI specs, and for a spec
 * uploaded as text its document, as the API gives it (`versions/latest/content/raw`).
 *
 * It talks to the configured API only. A spec GitBook holds by URL stays a URL: never fetched. The
 * processed version of an upload lives at a URL outside the API; it is downloaded from there only
 * when the caller allows it (`fetchSpecUrls`, the command's --fetch-spec-urls) and the API has no
 * text for it.
 */
import { z } from "zod";
import { ApiSiteCustomization, ApiSiteExternalLink, ApiSiteSection, ApiSiteSectionGroup, ApiSiteSpace, ApiSiteStructure, AuthError, NotFoundError, p, type GitbookClient } from "../client";
import { ApiCollection } from "../resources/collection";
import { ApiOpenApiSpec } from "../resources/openApiSpec";
import { ApiSamlProvider } from "../resources/samlProvider";
import { ApiShareLink } from "../resources/shareLink";
import { ApiSite } from "../resources/site";
import { ApiSiteAdaptiveSchema } from "../resources/siteAdaptiveSchema";
import { ApiCustomHostname, hostnamePath } from "../resources/siteCustomHostname";
import { ApiSpace } from "../resources/space";
import { ApiTeam, ApiTeamMember } from "../resources/team";
// Each object's settings are read as its resource reads them (its `live`), so the program declares what the resource compares with.
import { definition as siteDefinition } from "../resources/site";
import { definition as linkDefinition } from "../resources/siteExternalLink";
import { definition as shareLinkDefinition } from "../resources/shareLink";
import { definition as spaceDefinition } from "../resources/space";
import { definition as collectionDefinition } from "../resources/collection";
import type { Resource } from "../framework/define";
import { ruleOf } from "../framework/fields";
import { ApiSiteRedirect } from "../resources/redirectRules";
import type {
  AccessSnapshot,
  CollectionSnapshot,
  ExternalLinkSnapshot,
  ShareLinkSnapshot,
  OpenApiSpecSnapshot,
  OrgSnapshot,
  SamlProviderSnapshot,
  SectionGroupSnapshot,
  SiteSnapshot,
  SiteSpaceSnapshot,
  SpaceSnapshot,
  TeamSnapshot,
} from "./snapshot";
import { getOrUndefined } from "../framework/lists";
import { groupContainer, idsIn, treeOf, TOP_LEVEL } from "../resources/siteStructure";
import { liveDestination } from "../resources/redirectRules";

export interface ReadOptions {
  organizationId: string;
  /** Only these sites (and then nothing organization-wide); every site when empty. */
  siteIds?: readonly string[];
  /** One line per finished piece of work, for the terminal. */
  onProgress?: (line: string) => void;
  /** How many sites (or teams) are read at once. */
  concurrency?: number;
  /**
   * Whether a document may be downloaded from outside the API: the processed version of a spec
   * uploaded as text, when the API has no text for it. Off: nothing but the API is ever reached.
   */
  fetchSpecUrls?: boolean;
  /** Downloads a processed OpenAPI document; injected by tests. */
  download?: (url: string) => Promise<string>;
}

/** What `versions/latest/content/raw` answers: the text of the spec as it was uploaded. */
const ApiOpenApiRawContent = z.looseObject({
  text: z.string().describe("The text, exactly as uploaded."),
  format: z.string().optional().describe("json or yaml."),
});

/** What `versions/latest/content` answers: where the processed document can be fetched. */
const ApiOpenApiContent = z.looseObject({
  urls: z
    .looseObject({ source: z.string().optional().describe("URL of the processed document.") })
    .optional()
    .describe("Where the version's document is."),
});

const DEFAULT_CONCURRENCY = 4;
const DOWNLOAD_TIMEOUT_MS = 15_000;

export async function readOrganization(client: GitbookClient, opts: ReadOptions): Promise<OrgSnapshot> {
  const org = opts.organizationId;
  const progress = opts.onProgress ?? (() => {});
  const limit = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const narrowed = (opts.siteIds?.length ?? 0) > 0;

  const sites = narrowed
    ? await mapLimit(opts.siteIds!, limit, (id) => client.get(p`/orgs/${org}/sites/${id}`, { schema: ApiSite }))
    : await client.listAll(p`/orgs/${org}/sites`, ApiSite);
  progress(`${sites.length} site${sites.length === 1 ? "" : "s"} to read`);
  let done = 0;
  const read = await mapLimit(sites, limit, async (site) => {
    const r = await readSite(client, org, site);
    const s = r.site;
    done++;
    const siteSpaces = s.sections.reduce((n, x) => n + x.siteSpaces.length, s.rootSiteSpaces.length);
    progress(
      `site ${done}/${sites.length} ${JSON.stringify(s.title)}: ${count(s.sections.length, "section")}, ${count(siteSpaces, "site space")}, ` +
        `${count(s.sectionGroups.length, "section group")}, ${count(s.externalLinks.length, "external link")}, ${count(s.shareLinks.length, "share link")}` +
        `${s.adaptiveSchema ? ", a visitor schema" : ""}`,
    );
    return r;
  });

  const spaces = await readSpaces(client, read.flatMap((r) => r.shown), limit);
  const collections = spaces.some((s) => s.parent !== undefined) ? await readCollections(client, org, spaces) : [];
  progress(`${count(spaces.length, "space")} shown, in ${count(collections.length, "collection")}`);

  const snapshot: OrgSnapshot = {
    organizationId: org,
    scope: narrowed ? "sites" : "organization",
    sites: read.map((r) => r.site),
    spaces,
    collections,
    teams: [],
    samlProviders: [],
    openApiSpecs: [],
  };
  snapshot.access = await readAccess(client, org, snapshot, limit);
  progress(`${count(snapshot.access.length, "object")} with access grants`);
  if (narrowed) return snapshot;

  const teams = await client.listAll(p`/orgs/${org}/teams`, ApiTeam);
  snapshot.teams = await mapLimit(teams, limit, (t) => readTeam(client, org, t));
  progress(`${count(snapshot.teams.length, "team")}, ${count(snapshot.teams.reduce((n, t) => n + t.members.length, 0), "membership")}`);

  snapshot.samlProviders = (await client.listAll(p`/orgs/${org}/saml`, ApiSamlProvider)).map(samlSnapshot);
  progress(count(snapshot.samlProviders.length, "SAML provider"));

  const download = opts.download ?? downloadDocument;
  const specs = await client.listAll(p`/orgs/${org}/openapi`, ApiOpenApiSpec);
  const fetch = opts.fetchSpecUrls === true ? download : undefined;
  snapshot.openApiSpecs = await mapLimit(specs, limit, (s) => readSpec(client, org, s, fetch));
  progress(count(snapshot.openApiSpecs.length, "OpenAPI spec"));
  return snapshot;
}

// ---- Sites ---------------------------------------------------------------------------------------

/** A site, and the spaces its site spaces show as the API embeds them (read into SpaceSnapshots once per organization). */
async function readSite(client: GitbookClient, org: string, site: ApiSite): Promise<{ site: SiteSnapshot; shown: ApiSiteSpace["space"][] }> {
  const sitePath = p`/orgs/${org}/sites/${site.id}`;
  const [structure, links, schema, customization, liveRules, draftRules, customHostname] = await Promise.all([
    client.get(`${sitePath}/structure`, { schema: ApiSiteStructure }),
    client.listAll(`${sitePath}/share-links`, ApiShareLink),
    // 404: the site has no visitor schema.
    getOrUndefined(client.get(`${sitePath}/adaptive-schema`, { schema: ApiSiteAdaptiveSchema })),
    client.get(`${sitePath}/customization`, { schema: ApiSiteCustomization }),
    client.listAll(`${sitePath}/redirects`, ApiSiteRedirect, { draft: false }),
    client.listAll(`${sitePath}/redirects`, ApiSiteRedirect, { draft: true }),
    site.hostname ? readCustomHostname(client, site.id, site.hostname) : undefined,
  ]);
  const redirects = [...liveRules, ...draftRules].map((r) => ({
    source: r.source,
    destination: liveDestination(r.destination),
    ...(r.draft ? { draft: true } : {}),
    ...(r.permanent ? { permanent: true } : {}),
    ...(r.captureWildcard ? { captureWildcard: true } : {}),
  }));
  const tree = treeOf(structure);
  // Every item in navigation order, but the site spaces of sections: those come with their section.
  const navigation = [...tree.byId.values()].filter((l) => l.type !== "site-space" || l.container === TOP_LEVEL);
  const ofType = <T>(type: string, schema: z.ZodType<T>) => navigation.filter((l) => l.type === type).map((l) => schema.parse(l.item));
  const sections = ofType("site-section", ApiSiteSection);
  // A site without sections has its site spaces for a structure.
  const structureRoot = ofType("site-space", ApiSiteSpace);
  // The sections carry their site spaces. Only a site reporting more than the structure holds has some
  // it does not show, and only an answer without them (the field is optional) leaves the sections'
  // unknown: then, and only then, the site's own list is read.
  const embedded = sections.every((s) => s.siteSpaces !== undefined);
  const inStructure = sections.reduce((n, s) => n + (s.siteSpaces?.length ?? 0), structureRoot.length);
  const listed = !embedded || (site.siteSpaces ?? 0) > inStructure ? await client.listAll(`${sitePath}/site-spaces`, ApiSiteSpace) : undefined;
  const siteSpacesOf = (section: ApiSiteSection) => section.siteSpaces ?? listed?.filter((ss) => ss.section === section.id) ?? [];
  const rootSiteSpaces = listed ? listed.filter((ss) => !ss.section) : structureRoot;
  const snapshot: SiteSnapshot = {
    ...settingsOf<SiteSnapshot>(siteDefinition, site),
    id: site.id,
    ...defined({ adaptiveSchema: schema?.jsonSchema, customHostname }),
    // Without `updatedAt` nobody customized the site: GitBook's defaults, nothing to declare.
    ...defined({ customization: typeof customization.updatedAt === "string" ? customization : undefined }),
    createdAt: site.createdAt,
    topLevel: navigation.filter((l) => l.container === TOP_LEVEL && l.type !== "site-space").map((l) => l.id),
    sections: sections.map((s) => ({
      id: s.id,
      title: s.title,
      path: s.path,
      ...defined({ icon: s.icon ?? undefined, condition: s.condition ?? undefined, description: s.description ?? undefined }),
      default: s.default === true,
      ...defined({ groupId: s.sectionGroup ?? undefined, draft: s.draft === true ? true : undefined }),
      siteSpaces: siteSpacesOf(s).map(siteSpaceSnapshot),
    })),
    sectionGroups: ofType("site-section-group", ApiSiteSectionGroup).map(
      (g): SectionGroupSnapshot => ({
        id: g.id,
        title: g.title,
        ...defined({ icon: g.icon ?? undefined }),
        draft: g.draft === true,
        ...defined({ groupId: g.sectionGroup ?? undefined }),
        itemIds: idsIn(tree, groupContainer(g.id)),
      }),
    ),
    externalLinks: ofType("site-external-link", ApiSiteExternalLink).map((l) => ({ ...settingsOf<ExternalLinkSnapshot>(linkDefinition, l), id: l.id })),
    unknownItems: navigation.filter((l) => !KNOWN_ITEMS.has(l.type)).map((l) => ({ id: l.id, object: l.item.object })),
    // The link's URL (which carries the share key) is deliberately left behind.
    shareLinks: links.map((l) => ({ ...settingsOf<ShareLinkSnapshot>(shareLinkDefinition, l), id: l.id, createdAt: l.createdAt })),
    ...defined({ redirects: redirects.length > 0 ? redirects : undefined }),
    rootSiteSpaces: rootSiteSpaces.map(siteSpaceSnapshot),
  };
  const shown = [...sections.flatMap(siteSpacesOf), ...rootSiteSpaces].map((ss) => ss.space);
  return { site: snapshot, shown };
}

/** A site's custom hostname (one GET), and why it cannot be declared when it cannot. */
async function readCustomHostname(client: GitbookClient, siteId: string, hostname: string): Promise<NonNullable<SiteSnapshot["customHostname"]>> {
  try {
    const h = await getOrUndefined(client.get(hostnamePath(hostname), { schema: ApiCustomHostname }));
    if (!h) return { hostname, unavailable: `GitBook has no custom hostname ${hostname}, though the site names it` };
    if (h.target.type !== "site" || h.target.site !== siteId) return { hostname, unavailable: `custom hostname ${hostname} points to ${h.target.type === "site" ? `site ${h.target.site}` : "the organization's content"}` };
    return { hostname };
  } catch (e) {
    // GitBook's spec marks the route for its own tokens: the rest of the import goes on without it.
    if (e instanceof AuthError) return { hostname, unavailable: `the token may not read custom hostnames (GitBook answered ${e.status})` };
    throw e;
  }
}

const KNOWN_ITEMS = new Set(["site-section", "site-section-group", "site-external-link", "site-space"]);

function siteSpaceSnapshot(ss: ApiSiteSpace): SiteSpaceSnapshot {
  const title = (ss.space as { title?: unknown }).title;
  return {
    id: ss.id,
    path: ss.path,
    ...defined({ condition: ss.condition ?? undefined }),
    default: ss.default === true,
    space: { id: ss.space.id, ...(typeof title === "string" ? { title } : {}) },
  };
}

// ---- Organization-wide objects -------------------------------------------------------------------

async function readTeam(client: GitbookClient, org: string, team: ApiTeam): Promise<TeamSnapshot> {
  const members = await client.listAll(p`/orgs/${org}/teams/${team.id}/members`, ApiTeamMember);
  return {
    id: team.id,
    title: team.title ?? team.id,
    ...defined({ createdAt: team.createdAt }),
    members: members.map((m) => ({ user: m.organization.user.email ?? m.organization.user.id, role: m.team.role })),
  };
}

function samlSnapshot(s: ApiSamlProvider): SamlProviderSnapshot {
  return {
    id: s.id,
    label: s.label,
    // The API answers an empty string for what the provider does not have (as the SamlProvider resource reads it).
    ...defined({
      entityID: s.entityID || undefined,
      certificate: s.certificate || undefined,
      ssoURL: s.ssoURL || undefined,
      defaultTeamId: s.defaultTeam?.id,
      createdAt: s.createdAt,
    }),
    defaultRole: s.defaultRole ?? null,
  };
}

/** `download`: how to fetch a document outside the API, when allowed (--fetch-spec-urls). */
type Download = ((url: string) => Promise<string>) | undefined;

async function readSpec(client: GitbookClient, org: string, spec: ApiOpenApiSpec, download: Download): Promise<OpenApiSpecSnapshot> {
  const base = {
    id: spec.id,
    slug: spec.slug,
    visibility: spec.visibility ?? "private",
    processingState: spec.processingState,
    ...defined({ createdAt: spec.createdAt, lastProcessErrorCode: spec.lastProcessErrorCode ?? undefined }),
  };
  if (spec.sourceURL) return { ...base, source: { url: spec.sourceURL } };
  return { ...base, source: { text: await processedDocument(client, org, spec, download) } };
}

/**
 * The document of a spec uploaded as text: its text as the API gives it. Where the API has none, its
 * last processed version lives at a URL outside the API, downloaded (without the token, which goes to
 * the API only) only when `download` is given; why not, when it cannot be had.
 */
async function processedDocument(
  client: GitbookClient,
  org: string,
  spec: ApiOpenApiSpec,
  download: Download,
): Promise<{ document?: { content: string; format: "json" | "yaml" }; unavailable?: string }> {
  const latest = p`/orgs/${org}/openapi/${spec.slug}/versions/latest`;
  try {
    const raw = await client.get(`${latest}/content/raw`, { schema: ApiOpenApiRawContent });
    if (raw.text.trim() === "") return { unavailable: "the API gives its text empty" };
    return { document: { content: raw.text, format: raw.format === "json" || (raw.format === undefined && /^\s*[{[]/.test(raw.text)) ? "json" : "yaml" } };
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
  }
  let url: string | undefined;
  try {
    url = (await client.get(`${latest}/content`, { schema: ApiOpenApiContent })).urls?.source;
  } catch (e) {
    if (e instanceof NotFoundError) return { unavailable: "GitBook has no processed version of it" };
    throw e;
  }
  if (!url) return { unavailable: "the API gives neither its text nor a URL for its processed version" };
  if (!download) {
    return { unavailable: `the API does not give its text; its processed version is at ${JSON.stringify(url)}, outside the API: download it from there, or import again with --fetch-spec-urls` };
  }
  try {
    const content = await download(url);
    if (content.trim() === "") return { unavailable: `its processed version at ${JSON.stringify(url)} is empty` };
    return { document: { content, format: /^\s*[{[]/.test(content) ? "json" : "yaml" } };
  } catch (e) {
    // fetch says only "fetch failed"; the cause says why (ENOTFOUND, ECONNREFUSED, ...).
    const why = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    return { unavailable: `its processed version could not be downloaded from ${JSON.stringify(url)} (${why})` };
  }
}

/** GETs a processed document, without the token (which goes to the API only). */
export async function downloadDocument(url: string): Promise<string> {
  const u = new URL(url);
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error(`not an http(s) URL`);
  const res = await fetch(u, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

// ---- Access --------------------------------------------------------------------------------------

const ApiGrant = z.looseObject({ permission: z.string().nullable(), team: z.looseObject({ id: z.string() }).optional(), user: z.looseObject({ id: z.string() }).optional() });
const ApiVisitorAuth = z.looseObject({ backend: z.string(), fallbackURL: z.string().optional(), logoutURL: z.string().optional() });

/**
 * The grants of every site, space and collection read (two listings each), and each site's visitor
 * authentication (one GET), of which only the settings are kept: the private key never enters the snapshot.
 */
async function readAccess(client: GitbookClient, org: string, snapshot: OrgSnapshot, limit: number): Promise<AccessSnapshot[]> {
  const objects: { on: AccessSnapshot["on"]; id: string; title: string; base: string }[] = [
    ...snapshot.sites.map((s) => ({ on: "site" as const, id: s.id, title: s.title, base: p`/orgs/${org}/sites/${s.id}/permissions` })),
    ...snapshot.spaces.map((s) => ({ on: "space" as const, id: s.id, title: s.title, base: p`/spaces/${s.id}/permissions` })),
    ...snapshot.collections.map((c) => ({ on: "collection" as const, id: c.id, title: c.title, base: p`/collections/${c.id}/permissions` })),
  ];
  const found = await mapLimit(objects, limit, async (o): Promise<AccessSnapshot> => ({
    on: o.on,
    id: o.id,
    title: o.title,
    teams: (await client.listAll(`${o.base}/teams`, ApiGrant)).flatMap((g) => (g.team ? [{ teamId: g.team.id, role: g.permission }] : [])),
    users: (await client.listAll(`${o.base}/users`, ApiGrant)).flatMap((g) => (g.user ? [{ userId: g.user.id, role: g.permission }] : [])),
  }));
  await mapLimit(snapshot.sites, limit, async (site) => {
    const auth = await client.get(p`/orgs/${org}/sites/${site.id}/publishing/auth`, { schema: ApiVisitorAuth });
    if (auth.backend === "custom" && auth.fallbackURL === undefined && auth.logoutURL === undefined && site.visibility !== "visitor-auth") return;
    site.visitorAuth = { backend: auth.backend, ...defined({ fallbackURL: auth.fallbackURL, logoutURL: auth.logoutURL }) };
  });
  return found.filter((a) => a.teams.length > 0 || a.users.length > 0);
}

// ---- Spaces and collections ----------------------------------------------------------------------

/**
 * The spaces shown, each once, from the objects the site spaces embed (GitBook's SiteSpace carries
 * the whole Space): no request, unless an answer embeds less than a space, which is then read alone.
 */
async function readSpaces(client: GitbookClient, shown: readonly ApiSiteSpace["space"][], limit: number): Promise<SpaceSnapshot[]> {
  const byId = new Map<string, ApiSiteSpace["space"]>();
  for (const s of shown) if (!byId.has(s.id) || !ApiSpace.safeParse(byId.get(s.id)).success) byId.set(s.id, s);
  const spaces = await mapLimit([...byId.values()], limit, async (s) => {
    const embedded = ApiSpace.safeParse(s);
    return embedded.success ? embedded.data : client.get(p`/spaces/${s.id}`, { schema: ApiSpace });
  });
  return spaces.map((s) => ({ ...settingsOf<SpaceSnapshot>(spaceDefinition, s), id: s.id, createdAt: s.createdAt }));
}

/** The collections holding the spaces, and those holding them, up to the top level: one listing of every collection. */
async function readCollections(client: GitbookClient, org: string, spaces: readonly SpaceSnapshot[]): Promise<CollectionSnapshot[]> {
  const all = new Map((await client.listAll(p`/orgs/${org}/collections`, ApiCollection)).map((c) => [c.id, c]));
  const wanted = new Map<string, CollectionSnapshot>();
  for (const space of spaces) {
    for (let c = space.parent === undefined ? undefined : all.get(space.parent); c && !wanted.has(c.id); c = c.parent ? all.get(c.parent) : undefined) {
      wanted.set(c.id, { ...settingsOf<CollectionSnapshot>(collectionDefinition, c), id: c.id });
    }
  }
  return [...wanted.values()];
}

// ---- Helpers -------------------------------------------------------------------------------------

/** Maps with at most `limit` calls in flight, keeping the input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * An object's settings as its kind's resource reads them (its `live`), as the snapshot's `T`: what
 * GitBook does not show stays absent, and so do the fields the importer never writes (FieldRule.import).
 */
function settingsOf<T>(def: Resource, obj: unknown): T {
  const shape = def.schema.shape as Record<string, z.ZodType>;
  const live = defined((def.live as (o: unknown, props: Record<string, unknown>) => Record<string, unknown>)(obj, {}));
  return Object.fromEntries(Object.entries(live).filter(([k]) => shape[k] === undefined || ruleOf(shape[k]).import !== false)) as T;
}

/** The entries whose value is not undefined, so absent settings stay absent. */
function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
