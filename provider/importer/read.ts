/**
 * Reads an organization into an OrgSnapshot: every list the import needs, each read once at the
 * largest page size (the client's `listAll` follows the pages), several sites and teams at a time.
 *
 * What it reads, per site: the site, its sections (which carry their site spaces), its section groups
 * and its share links; the site's own site-space list only when the sections do not account for
 * every site space the site reports (site spaces outside a section) or do not list theirs. For the organization: teams and
 * each team's members, SAML providers, OpenAPI specs, and for a spec uploaded as text its last
 * processed document (the API never gives an upload back).
 */
import { z } from "zod";
import {
  ApiOpenApiSpec,
  ApiSamlProvider,
  ApiShareLink,
  ApiSite,
  ApiSiteSection,
  ApiSiteSpace,
  ApiTeam,
  ApiTeamMember,
  NotFoundError,
  p,
  type GitbookClient,
} from "../client";
// The same reading as the Site resource's, so the declared value is what it compares with.
import { proxyInput } from "../resources/site";
import type {
  OpenApiSpecSnapshot,
  OrgSnapshot,
  SamlProviderSnapshot,
  SectionGroupSnapshot,
  SiteSnapshot,
  SiteSpaceSnapshot,
  TeamSnapshot,
} from "./snapshot";

export interface ReadOptions {
  organizationId: string;
  /** Only these sites (and then nothing organization-wide); every site when empty. */
  siteIds?: readonly string[];
  /** One line per finished piece of work, for the terminal. */
  onProgress?: (line: string) => void;
  /** How many sites (or teams) are read at once. */
  concurrency?: number;
  /** Downloads a processed OpenAPI document; injected by tests. */
  download?: (url: string) => Promise<string>;
}

/** A section group as the API lists it; the import needs only which sections it holds. */
const ApiSectionGroup = z.looseObject({
  id: z.string().describe("ID of the section group."),
  title: z.string().describe("Title shown above its sections."),
  icon: z.string().optional().nullable().describe("Icon shown next to the title."),
  sections: z
    .array(z.looseObject({ id: z.string().describe("ID of a section in the group.") }))
    .optional()
    .describe("The sections of the group, in its order."),
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
  const siteSnapshots = await mapLimit(sites, limit, async (site) => {
    const s = await readSite(client, org, site);
    done++;
    const siteSpaces = s.sections.reduce((n, x) => n + x.siteSpaces.length, s.rootSiteSpaces.length);
    progress(
      `site ${done}/${sites.length} ${JSON.stringify(s.title)}: ${count(s.sections.length, "section")}, ${count(siteSpaces, "site space")}, ` +
        `${count(s.sectionGroups.length, "section group")}, ${count(s.shareLinks.length, "share link")}`,
    );
    return s;
  });

  const snapshot: OrgSnapshot = { organizationId: org, scope: narrowed ? "sites" : "organization", sites: siteSnapshots, teams: [], samlProviders: [], openApiSpecs: [] };
  if (narrowed) return snapshot;

  const teams = await client.listAll(p`/orgs/${org}/teams`, ApiTeam);
  snapshot.teams = await mapLimit(teams, limit, (t) => readTeam(client, org, t));
  progress(`${count(snapshot.teams.length, "team")}, ${count(snapshot.teams.reduce((n, t) => n + t.members.length, 0), "membership")}`);

  snapshot.samlProviders = (await client.listAll(p`/orgs/${org}/saml`, ApiSamlProvider)).map(samlSnapshot);
  progress(count(snapshot.samlProviders.length, "SAML provider"));

  const download = opts.download ?? downloadDocument;
  const specs = await client.listAll(p`/orgs/${org}/openapi`, ApiOpenApiSpec);
  snapshot.openApiSpecs = await mapLimit(specs, limit, (s) => readSpec(client, org, s, download));
  progress(count(snapshot.openApiSpecs.length, "OpenAPI spec"));
  return snapshot;
}

// ---- Sites ---------------------------------------------------------------------------------------

async function readSite(client: GitbookClient, org: string, site: ApiSite): Promise<SiteSnapshot> {
  const sitePath = p`/orgs/${org}/sites/${site.id}`;
  const [sections, groups, links] = await Promise.all([
    client.listAll(`${sitePath}/sections`, ApiSiteSection),
    // An API without section groups answers 404: the site then has none.
    orEmpty(client.listAll(`${sitePath}/section-groups`, ApiSectionGroup)),
    client.listAll(`${sitePath}/share-links`, ApiShareLink),
  ]);
  // The sections carry their site spaces. Only a site reporting more than they hold has some outside
  // a section, and only an answer without them (the field is optional) leaves the sections' unknown:
  // then, and only then, the site's own list is read.
  const embedded = sections.every((s) => s.siteSpaces !== undefined);
  const inSections = sections.reduce((n, s) => n + (s.siteSpaces?.length ?? 0), 0);
  const listed = !embedded || (site.siteSpaces ?? 0) > inSections ? await client.listAll(`${sitePath}/site-spaces`, ApiSiteSpace) : undefined;
  const siteSpacesOf = (section: ApiSiteSection) => section.siteSpaces ?? listed?.filter((ss) => ss.section === section.id) ?? [];
  return {
    id: site.id,
    title: site.title,
    type: site.type,
    visibility: site.visibility,
    ...defined({
      basename: site.basename ?? undefined,
      agentsContext: site.agentsContext,
      proxy: proxyInput(site.proxy),
      adaptiveContent: site.adaptiveContent ? { enabled: site.adaptiveContent.enabled } : undefined,
    }),
    createdAt: site.createdAt,
    sections: sections.map((s) => ({
      id: s.id,
      title: s.title,
      path: s.path,
      ...defined({ icon: s.icon ?? undefined, condition: s.condition ?? undefined, description: s.description ?? undefined }),
      default: s.default === true,
      siteSpaces: siteSpacesOf(s).map(siteSpaceSnapshot),
    })),
    sectionGroups: groups.map(
      (g): SectionGroupSnapshot => ({ id: g.id, title: g.title, ...defined({ icon: g.icon ?? undefined }), sectionIds: (g.sections ?? []).map((s) => s.id) }),
    ),
    // The link's URL (which carries the share key) is deliberately left behind.
    shareLinks: links.map((l) => ({ id: l.id, ...defined({ name: l.name ?? undefined }), active: l.active ?? true, createdAt: l.createdAt })),
    rootSiteSpaces: (listed ?? []).filter((ss) => !ss.section).map(siteSpaceSnapshot),
  };
}

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

async function readSpec(client: GitbookClient, org: string, spec: ApiOpenApiSpec, download: (url: string) => Promise<string>): Promise<OpenApiSpecSnapshot> {
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
 * The last processed version of a spec uploaded as text, fetched from the URL the API gives for it
 * (without the token, which goes to the API only); why not, when it cannot be had.
 */
async function processedDocument(
  client: GitbookClient,
  org: string,
  spec: ApiOpenApiSpec,
  download: (url: string) => Promise<string>,
): Promise<{ document?: { content: string; format: "json" | "yaml" }; unavailable?: string }> {
  let url: string | undefined;
  try {
    url = (await client.get(p`/orgs/${org}/openapi/${spec.slug}/versions/latest/content`, { schema: ApiOpenApiContent })).urls?.source;
  } catch (e) {
    if (e instanceof NotFoundError) return { unavailable: "GitBook has no processed version of it" };
    throw e;
  }
  if (!url) return { unavailable: "the API gave no URL for its processed version" };
  try {
    const content = await download(url);
    if (content.trim() === "") return { unavailable: `its processed version at ${url} is empty` };
    return { document: { content, format: /^\s*[{[]/.test(content) ? "json" : "yaml" } };
  } catch (e) {
    // fetch says only "fetch failed"; the cause says why (ENOTFOUND, ECONNREFUSED, ...).
    const why = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    return { unavailable: `its processed version could not be downloaded from ${url} (${why})` };
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

// ---- Helpers -------------------------------------------------------------------------------------

async function orEmpty<T>(list: Promise<T[]>): Promise<T[]> {
  try {
    return await list;
  } catch (e) {
    if (e instanceof NotFoundError) return [];
    throw e;
  }
}

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

/** The entries whose value is not undefined, so absent settings stay absent. */
function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
