// In-memory state of the emulator. Records are plain mutable objects so tests can
// make out-of-band changes (e.g. `store.sites.get(id)!.hostname = "docs.acme.test"`);
// everything the API returns is derived from them at read time by the resource modules
// (resources/*.ts), so such edits show up in the next response without any cache to invalidate.

import { slugOf } from "../provider/slug";

export const ROLES = ["admin", "create", "review", "edit", "comment", "read"] as const;
export type Role = (typeof ROLES)[number];
export const TEAM_ROLES = ["owner", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** As GitBook's published spec lists them; a site created without a type is `ultimate` (`sponsored` in a community organization). */
export const SITE_TYPES = ["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"] as const;
export type SiteType = (typeof SITE_TYPES)[number];
export const SITE_VISIBILITIES = ["public", "unlisted", "share-link", "visitor-auth"] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];
export const AGENTS_CONTEXTS = ["excluded", "included"] as const;
export type AgentsContext = (typeof AGENTS_CONTEXTS)[number];
export const OPENAPI_VISIBILITIES = ["private", "public"] as const;
export type OpenApiVisibility = (typeof OPENAPI_VISIBILITIES)[number];
export type SpaceVisibility = "public" | "unlisted" | "share-link" | "visitor-auth" | "in-collection" | "private";
export const SPACE_EDIT_MODES = ["live", "locked"] as const;
export type SpaceEditMode = (typeof SPACE_EDIT_MODES)[number];
/** GitBook's `DefaultLevel` of a site, space or collection: a role, null (no access by default), or "inherit". */
export const DEFAULT_LEVELS = [...ROLES, "inherit"] as const;
export type DefaultLevel = (typeof DEFAULT_LEVELS)[number] | null;
/** As the spec lists them; a processing that failed is `complete` with a `lastProcessErrorCode`. */
export type OpenApiProcessingState = "pending" | "progress" | "complete";
export type OpenApiProcessErrorCode = "FETCH_TIMEOUT" | "FETCH_ERROR" | "PARSE_ERROR";
export type OpenApiSource = { url: string } | { text: string };

/** Every record carries `seq`, a store-wide creation counter: lists are ordered by it and page cursors point at it. */
export interface Base {
  id: string;
  seq: number;
  createdAt: string;
}

export interface OrgRecord extends Base {
  title: string;
  hostname: string;
  emailDomains: string[];
  /** GitBook's organization type; absent means `business`. Sites of a `community` organization default to `sponsored`. */
  type?: "business" | "community";
  /**
   * The organization's plan needs an upgrade before a site can go live: publishSite then answers with
   * a Stripe checkout session instead of publishing. The API cannot set it; tests may.
   */
  publishNeedsCheckout?: boolean;
  /** The Git providers whose GitBook app the organization's account has authorised in the app: a Git Sync installation of one starts authorised. */
  gitProviders?: GitProvider[];
}

export interface SpaceRecord extends Base {
  orgId: string;
  title: string;
  /** "" when the space shows no emoji (or shows an icon instead). */
  emoji: string;
  visibility: SpaceVisibility;
  updatedAt: string;
  revision: string;
  /** URL of the icon shown instead of an emoji. */
  icon?: string;
  /** ID of the collection holding the space; absent at the organization's top level. */
  parentId?: string;
  language?: string;
  /** Absent: `live`. */
  editMode?: SpaceEditMode;
  /** Absent: `inherit`. */
  defaultLevel?: DefaultLevel;
  /** Set while the space is in the trash: the API no longer shows it, and it can be restored for 7 days. */
  deletedAt?: string;
  /** Its content's pages, in order (listPages); absent: none. The trash keeps them, and a restore brings them back. */
  pages?: PageRecord[];
}

/**
 * A page of a space's content. GitBook dates a page only once it has been edited (the spec's
 * RevisionPageBase: `createdAt` and `updatedAt` "only present if page has been edited at least
 * once"), so the page a new space starts with has no dates until someone writes in it.
 */
export interface PageRecord {
  id: string;
  title: string;
  createdAt?: string;
  updatedAt?: string;
  /** Child pages. */
  pages?: PageRecord[];
}

/** An organization member; `id` is the user id, `createdAt` doubles as `joinedAt`. */
export interface MemberRecord extends Base {
  orgId: string;
  email: string;
  displayName: string;
  role: Role | null;
}

export interface SiteRecord extends Base {
  orgId: string;
  type: SiteType;
  title: string;
  /** Custom hostname; the API cannot set it, tests may (out of band). */
  hostname?: string;
  basename: string;
  visibility: SiteVisibility;
  /** Whether the site is live; only publishSite and unpublishSite change it (a new site is not). */
  published: boolean;
  agentsContext: AgentsContext;
  adaptiveContent: { enabled: boolean };
  /** The `host/path` the site is proxied from (SiteProxy's `origin`). */
  proxy?: string;
  /** Access every member has without an invitation; "inherit" while unset. */
  defaultLevel?: DefaultLevel;
  /** Pointer to the default section. When it dangles, the first section (in structure order) is the default. */
  defaultSectionId?: string;
  /** Pointer to the default root-level site space (same dangling rule). */
  defaultSiteSpaceId?: string;
}

export interface SectionRecord extends Base {
  siteId: string;
  /** null = follow the title of the space the section shows (a section created without a title). */
  title: string | null;
  /** The space the section was created with; its title is the fallback when the default site space is gone. */
  spaceId: string;
  path: string;
  description?: string;
  condition?: string;
  icon?: string;
  defaultSiteSpaceId?: string;
  /** Hidden from the published site (absent: live). */
  draft?: boolean;
}

export interface SectionGroupRecord extends Base {
  siteId: string;
  title: string;
  icon?: string;
  draft: boolean;
  /** The group it is nested in; absent at the site's top level. */
  parentId?: string;
  /** The sections it holds (membership only: their order is their position, see Store.positions). */
  sectionIds: string[];
}

/** A link to another website in a site's navigation, at the top level or in a section group. */
export interface ExternalLinkRecord extends Base {
  siteId: string;
  title: string;
  url: string;
  description?: string;
  icon?: string;
  /** The section group holding it; absent at the site's top level. */
  groupId?: string;
  draft: boolean;
  condition?: string;
}

/** An item of a site's section-based structure (what GET .../structure lists and a section group holds). */
export type StructureNode =
  | { type: "site-section"; record: SectionRecord }
  | { type: "site-section-group"; record: SectionGroupRecord }
  | { type: "site-external-link"; record: ExternalLinkRecord };

export interface SiteSpaceRecord extends Base {
  siteId: string;
  /** Absent for root-level site spaces. */
  sectionId?: string;
  spaceId: string;
  path: string;
  condition?: string;
  /** Hidden from the site's navigation (its pages still published). */
  hidden?: boolean;
  /** A draft: not live on the published site. */
  draft?: boolean;
}

export interface ShareLinkRecord extends Base {
  siteId: string;
  name: string;
  active: boolean;
  /** The secret put in the published URL as `?share=`. */
  key: string;
}

/** A redirect rule of a site: one per source and draft state (a source may have a live and a draft rule). */
export interface SiteRedirectRecord extends Base {
  siteId: string;
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  /** The spec's SiteRedirectDestination, as the API answers it. */
  destination: Record<string, unknown>;
  updatedAt?: string;
}

export interface TeamRecord extends Base {
  orgId: string;
  title: string;
}

/** Keyed in `Store.teamMembers` by `teamMemberKey(teamId, userId)`. */
export interface TeamMemberRecord extends Base {
  teamId: string;
  userId: string;
  role: TeamRole;
}

export interface SamlProviderRecord extends Base {
  orgId: string;
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeamId?: string;
  defaultRole: Role | null;
}

export interface OpenApiSpecRecord extends Base {
  orgId: string;
  slug: string;
  source: OpenApiSource;
  updatedAt: string;
  visibility: OpenApiVisibility;
  processingState: OpenApiProcessingState;
  /** GETs of the spec seen since the last POST/PUT while pending. */
  pendingReads: number;
  /** Per-spec freeze: stays "pending" whatever the reads (the global switch is `settings.openApiProcessingReads = Infinity`). */
  frozen?: boolean;
  lastVersionId?: string;
  lastProcessedAt?: string;
  /** Why the last processing failed; cleared when a new source is sent. */
  lastProcessErrorCode?: OpenApiProcessErrorCode;
  /** What the last processing found wrong (the spec's OpenAPIErrorObject). */
  lastProcessedErrors?: { message: string; code?: string }[];
}

export interface OpenApiVersionRecord extends Base {
  specId: string;
  url: string;
  /** The text uploaded, for `content/raw`; absent for a URL source, whose document the emulator never fetches. */
  text?: string;
}

/** A folder of the organization's content tree, holding spaces and other collections. */
export interface CollectionRecord extends Base {
  orgId: string;
  title: string;
  /** "" when none (the API's PATCH takes "" and no null). */
  description: string;
  /** ID of the collection holding this one; absent at the organization's top level. */
  parentId?: string;
  defaultLevel: DefaultLevel;
}

/** The visitor-claims schema of a site: at most one per site, so its `id` is the site's ID. */
export interface AdaptiveSchemaRecord extends Base {
  siteId: string;
  jsonSchema: Record<string, unknown>;
  updatedAt: string;
}

/** A site's customization settings, once set by a PUT (a site without one answers the defaults): by site ID. */
export interface SiteCustomizationRecord extends Base {
  siteId: string;
  /** The whole SiteCustomizationSettings object, as the last PUT gave it. */
  settings: Record<string, unknown>;
  updatedAt: string;
}

/** A site space's overrides of its site's customization (a partial settings object): by site space ID. */
export interface SiteSpaceCustomizationRecord extends Base {
  siteId: string;
  siteSpaceId: string;
  overrides: Record<string, unknown>;
  updatedAt: string;
}

/** What a permission is granted on: a site, a space or a collection. */
export const PERMISSION_TARGETS = ["site", "space", "collection"] as const;
export type PermissionTarget = (typeof PERMISSION_TARGETS)[number];

/**
 * A team's or a user's role on a site, space or collection, keyed in \`Store.permissions\` by
 * \`permissionKey\`. \`role\` null is a guest (the invite and the site listings allow it).
 */
export interface PermissionRecord extends Base {
  target: PermissionTarget;
  targetId: string;
  principal: "team" | "user";
  principalId: string;
  role: Role | null;
}

export const permissionKey = (target: PermissionTarget, targetId: string, principal: "team" | "user", principalId: string): string =>
  `${target}:${targetId}/${principal}:${principalId}`;

export const VISITOR_AUTH_BACKENDS = ["custom", "integration"] as const;
export type VisitorAuthBackend = (typeof VISITOR_AUTH_BACKENDS)[number];

/** A site's visitor-authentication settings: at most one per site, so its \`id\` is the site's ID; made on first read. */
export interface PublishingAuthRecord extends Base {
  backend: VisitorAuthBackend;
  /** The secret visitors' JWTs are signed with; regenerate replaces it. */
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
  /** The visitor-authentication integration installed on the site; the API cannot set it, tests may. */
  integration?: string;
}

export const CUSTOM_HOSTNAME_STATUSES = [
  "dns_passed",
  "dns_wrong_cname",
  "dns_no_cname",
  "dns_cloudflare_proxied",
  "dns_wrong_caa",
  "live",
  "ssl_unknown",
  "ssl_pending",
  "ssl_failed",
  "ssl_retry_expired",
  "invalid_domain",
  "internal_error",
] as const;
export type CustomHostnameStatus = (typeof CUSTOM_HOSTNAME_STATUSES)[number];

/**
 * A custom hostname (e.g. docs.acme.test) and what it points to: keyed by the hostname itself, which
 * is its \`id\`. GitBook's API cannot create one or re-point it (the app does); it reads one, retriggers
 * its DNS check and removes it. A site's \`hostname\` is kept in step by whoever changes either.
 */
export interface CustomHostnameRecord extends Base {
  targetType: "site" | "organization";
  targetId: string;
  isActive: boolean;
  /** Absent: GitBook has reported none yet. */
  status?: CustomHostnameStatus;
}

export const GIT_PROVIDERS = ["github", "gitlab"] as const;
export type GitProvider = (typeof GIT_PROVIDERS)[number];
export const GIT_PRIORITIES = ["git", "gitbook"] as const;
export type GitPriority = (typeof GIT_PRIORITIES)[number];

/**
 * A repository on GitHub (or a project on GitLab) as GitBook's app sees it through the provider's
 * app: keyed by the provider's numeric ID (as text). The API cannot add one; seeds and tests do.
 * `files` holds the files Git Sync reads, by `branch:path` (`refs/heads/main:docs/gitbook-docs.yaml`),
 * a site's `gitbook-docs.yaml` as its parsed GitSyncSiteConfig.
 */
export interface GitRepositoryRecord extends Base {
  provider: GitProvider;
  /** Full name, `owner/name`. */
  name: string;
  files: Record<string, unknown>;
}

/**
 * A Git Sync installation on a site or a space. `authorized` stands for the step only the app can do:
 * the user authorising GitBook's GitHub or GitLab app for the account (false: status
 * `unauthenticated`); an installation made while the organization has the provider in
 * `OrgRecord.gitProviders` starts authorised. Configured once it names a repository and a branch
 * (status `active`; `pending` before).
 */
export interface GitInstallationRecord extends Base {
  orgId: string;
  provider: GitProvider;
  targetType: "site" | "space";
  targetId: string;
  authorized: boolean;
  createdBy: string;
  updatedAt: string;
  repositoryId?: number;
  branch?: string;
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  priority?: GitPriority;
}

export interface StoreSettings {
  /** GETs of a pending spec that still answer "pending"; the next GET answers the outcome. Infinity freezes processing. */
  openApiProcessingReads: number;
}

export const teamMemberKey = (teamId: string, userId: string): string => `${teamId}/${userId}`;

/** A PRNG whose `state` can be read and set, so an exported emulator goes on with the same IDs. */
export interface Prng {
  (): number;
  state: number;
}

/** mulberry32: tiny, fast, good enough for test determinism. */
export function createPrng(seed: number): Prng {
  const next = (() => {
    next.state = (next.state + 0x6d2b79f5) >>> 0;
    let t = next.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }) as Prng;
  next.state = seed >>> 0;
  return next;
}

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * Every table of the store. Each is a Map from a record's \`id\` to the record, a plain JSON object:
 * export, import and out-of-band edits go through this list, so a new table is one line here.
 */
export const TABLES = [
  "orgs",
  "members",
  "spaces",
  "collections",
  "sites",
  "sections",
  "sectionGroups",
  "siteSpaces",
  "externalLinks",
  "shareLinks",
  "siteRedirects",
  "adaptiveSchemas",
  "siteCustomizations",
  "siteSpaceCustomizations",
  "teams",
  "teamMembers",
  "samlProviders",
  "openApiSpecs",
  "openApiVersions",
  "permissions",
  "publishingAuths",
  "customHostnames",
  "gitRepositories",
  "gitInstallations",
] as const satisfies readonly (keyof Store)[];
export type TableName = (typeof TABLES)[number];

/** The whole state of a store as JSON: what \`Store.snapshot\` writes and \`Store.restore\` reads. */
export interface StoreSnapshot {
  /** The last creation counter handed out, and the ID generator's state: a restored store goes on with the same IDs. */
  seq: number;
  prng: number;
  /** null stands for Infinity (frozen processing), which JSON cannot hold. */
  openApiProcessingReads: number | null;
  positions: Record<string, number>;
  tables: Record<TableName, Base[]>;
}

export class Store {
  readonly orgs = new Map<string, OrgRecord>();
  readonly spaces = new Map<string, SpaceRecord>();
  readonly collections = new Map<string, CollectionRecord>();
  readonly members = new Map<string, MemberRecord>();
  readonly sites = new Map<string, SiteRecord>();
  readonly sections = new Map<string, SectionRecord>();
  readonly sectionGroups = new Map<string, SectionGroupRecord>();
  readonly siteSpaces = new Map<string, SiteSpaceRecord>();
  readonly externalLinks = new Map<string, ExternalLinkRecord>();
  /**
   * Where an item of a site's structure (section, section group, external link, site space) sits among
   * its siblings: lower first. An item without an entry sits at its `seq`, so a site nothing was ever
   * sorted in lists in creation order, and a new item comes last. Set by sorting (which numbers the
   * siblings 0, 1, 2...) and by moving an item to another container (which puts it last there).
   */
  readonly positions = new Map<string, number>();
  readonly shareLinks = new Map<string, ShareLinkRecord>();
  readonly siteRedirects = new Map<string, SiteRedirectRecord>();
  readonly teams = new Map<string, TeamRecord>();
  readonly teamMembers = new Map<string, TeamMemberRecord>();
  readonly samlProviders = new Map<string, SamlProviderRecord>();
  readonly openApiSpecs = new Map<string, OpenApiSpecRecord>();
  readonly openApiVersions = new Map<string, OpenApiVersionRecord>();
  /** By site ID (one schema per site). */
  readonly adaptiveSchemas = new Map<string, AdaptiveSchemaRecord>();
  /** By site ID (one per site). */
  readonly siteCustomizations = new Map<string, SiteCustomizationRecord>();
  /** By site space ID (one per site space). */
  readonly siteSpaceCustomizations = new Map<string, SiteSpaceCustomizationRecord>();
  readonly permissions = new Map<string, PermissionRecord>();
  /** By site ID (one per site). */
  readonly publishingAuths = new Map<string, PublishingAuthRecord>();
  /** By hostname. */
  readonly customHostnames = new Map<string, CustomHostnameRecord>();
  /** By the provider's repository ID, as text. */
  readonly gitRepositories = new Map<string, GitRepositoryRecord>();
  readonly gitInstallations = new Map<string, GitInstallationRecord>();
  readonly settings: StoreSettings;

  private seqCounter = 0;
  private readonly rand: Prng;

  constructor(opts: { seed: number; openApiProcessingReads?: number }) {
    // A stream separate from the fault PRNGs, so creating objects never shifts fault decisions.
    this.rand = createPrng(opts.seed ^ 0x9e3779b9);
    this.settings = { openApiProcessingReads: opts.openApiProcessingReads ?? 1 };
  }

  /** Random-looking but unique id: prefix, 6 random chars, then the base-36 counter (never reused). */
  newId(prefix: string): { id: string; seq: number; createdAt: string } {
    const seq = ++this.seqCounter;
    return { id: `${prefix}_${this.randomString(6)}${seq.toString(36)}`, seq, createdAt: new Date(Date.now() + this.clockOffsetMs).toISOString() };
  }

  /** How far GitBook's clock is from this machine's, for the creation times it gives (tests of skewed clocks). */
  clockOffsetMs = 0;

  randomString(length: number): string {
    let s = "";
    for (let i = 0; i < length; i++) s += ALPHABET[Math.floor(this.rand() * ALPHABET.length)];
    return s;
  }

  /** A table by name (see TABLES). */
  table(name: TableName): Map<string, Base> {
    return this[name] as Map<string, Base>;
  }

  /** A deep copy of the whole state, as JSON. */
  snapshot(): StoreSnapshot {
    const reads = this.settings.openApiProcessingReads;
    return JSON.parse(
      JSON.stringify({
        seq: this.seqCounter,
        prng: this.rand.state,
        openApiProcessingReads: Number.isFinite(reads) ? reads : null,
        positions: Object.fromEntries(this.positions),
        tables: Object.fromEntries(TABLES.map((name) => [name, [...this.table(name).values()]])),
      }),
    ) as StoreSnapshot;
  }

  /** Replaces the whole state with a snapshot's (which \`checkSnapshot\` in ./state.ts has checked). */
  restore(snap: StoreSnapshot): void {
    this.seqCounter = snap.seq;
    this.rand.state = snap.prng;
    this.settings.openApiProcessingReads = snap.openApiProcessingReads ?? Infinity;
    this.positions.clear();
    for (const [id, n] of Object.entries(snap.positions)) this.positions.set(id, n);
    for (const name of TABLES) {
      const table = this.table(name);
      table.clear();
      for (const r of snap.tables[name] ?? []) table.set(r.id, structuredClone(r));
    }
  }

  /** Deletes a record the way GitBook does, with what goes with it: a space goes to the trash, a section takes its site spaces... */
  remove(name: TableName, id: string): boolean {
    switch (name) {
      case "spaces":
        return this.trashSpace(id);
      case "collections":
        return this.deleteCollection(id);
      case "sites":
        return this.deleteSite(id);
      case "sections":
        return this.deleteSection(id);
      case "sectionGroups":
        return this.deleteSectionGroup(id);
      case "siteSpaces":
        return this.deleteSiteSpace(id);
      case "teams":
        return this.deleteTeam(id);
      case "openApiSpecs":
        return this.deleteOpenApiSpec(id);
      case "customHostnames":
        return this.removeCustomHostname(id);
      default:
        return this.table(name).delete(id);
    }
  }

  // ---- site structure (ordered by position; default pointers resolved lazily) ----

  positionOf(r: Base): number {
    return this.positions.get(r.id) ?? r.seq;
  }

  /** Puts an item last among the siblings of the container it has just been moved to. */
  placeLast(id: string): void {
    this.positions.set(id, ++this.seqCounter);
  }

  /** Numbers siblings in the order given (the whole container, so no position is shared). */
  setOrder(ids: readonly string[]): void {
    ids.forEach((id, i) => this.positions.set(id, i));
  }

  /** The group holding each grouped section of a site. */
  private sectionGroupIndex(siteId: string): Map<string, string> {
    const index = new Map<string, string>();
    for (const g of this.sectionGroups.values()) if (g.siteId === siteId) for (const id of g.sectionIds) index.set(id, g.id);
    return index;
  }

  groupOfSection(section: SectionRecord): SectionGroupRecord | undefined {
    for (const g of this.sectionGroups.values()) if (g.siteId === section.siteId && g.sectionIds.includes(section.id)) return g;
    return undefined;
  }

  /** The items of the site's top level (`groupId` undefined) or of a section group, in order. */
  childrenOf(siteId: string, groupId: string | undefined, index = this.sectionGroupIndex(siteId)): StructureNode[] {
    const nodes: StructureNode[] = [];
    for (const s of this.sections.values()) if (s.siteId === siteId && index.get(s.id) === groupId) nodes.push({ type: "site-section", record: s });
    for (const g of this.sectionGroups.values()) if (g.siteId === siteId && g.parentId === groupId) nodes.push({ type: "site-section-group", record: g });
    for (const l of this.externalLinks.values()) if (l.siteId === siteId && l.groupId === groupId) nodes.push({ type: "site-external-link", record: l });
    return nodes.sort((a, b) => this.positionOf(a.record) - this.positionOf(b.record));
  }

  /** Moves a section into a section group (undefined: the site's top level), last there; nothing when it is there already. */
  setSectionGroup(section: SectionRecord, groupId: string | undefined): void {
    if (this.groupOfSection(section)?.id === groupId) return;
    for (const g of this.sectionGroups.values()) if (g.siteId === section.siteId) g.sectionIds = g.sectionIds.filter((id) => id !== section.id);
    if (groupId !== undefined) this.sectionGroups.get(groupId)?.sectionIds.push(section.id);
    this.placeLast(section.id);
  }

  /** Every section of the site in the order of its structure: depth first, a group's sections where the group is. */
  sectionsOf(siteId: string): SectionRecord[] {
    const memo = this.grouped ? this.sectionsRead : undefined;
    const known = memo?.get(siteId);
    if (known) return [...known];
    const index = this.sectionGroupIndex(siteId);
    const walk = (groupId: string | undefined): SectionRecord[] =>
      this.childrenOf(siteId, groupId, index).flatMap((n) => (n.type === "site-section" ? [n.record] : n.type === "site-section-group" ? walk(n.record.id) : []));
    const sections = walk(undefined);
    memo?.set(siteId, sections);
    return memo ? [...sections] : sections;
  }

  /**
   * Where a section sits in its site's structure, as a sort key: the positions of the groups holding it,
   * outermost first, then its own. Lists of sections and site spaces are served (and paged) in this order.
   */
  sectionKey(section: SectionRecord): number[] {
    const key = [this.positionOf(section)];
    const seen = new Set<string>();
    for (let g = this.groupOfSection(section); g && !seen.has(g.id); g = g.parentId ? this.sectionGroups.get(g.parentId) : undefined) {
      seen.add(g.id);
      key.unshift(this.positionOf(g));
    }
    return key;
  }

  /** Sort key of a site space: its section's key, then its position in the section (root-level ones after every section). */
  siteSpaceKey(ss: SiteSpaceRecord): number[] {
    const section = ss.sectionId ? this.sections.get(ss.sectionId) : undefined;
    return [...(section ? this.sectionKey(section) : [Number.MAX_SAFE_INTEGER]), this.positionOf(ss)];
  }

  /** Every site space of the site: section by section in structure order, each section's in order. */
  siteSpacesOf(siteId: string): SiteSpaceRecord[] {
    const bySection = new Map<string | undefined, SiteSpaceRecord[]>();
    for (const ss of this.siteSpaces.values()) {
      if (ss.siteId !== siteId) continue;
      const list = bySection.get(ss.sectionId) ?? [];
      if (list.length === 0) bySection.set(ss.sectionId, list);
      list.push(ss);
    }
    const ordered = (list: SiteSpaceRecord[] = []) => list.sort((a, b) => this.positionOf(a) - this.positionOf(b));
    return [...this.sectionsOf(siteId).flatMap((s) => ordered(bySection.get(s.id))), ...ordered(bySection.get(undefined))];
  }

  /** Site spaces by container, and each site's sections in order, while `reading` runs: see there. */
  private grouped: Map<string, SiteSpaceRecord[]> | undefined;
  private sectionsRead = new Map<string, SectionRecord[]>();
  private defaultsRead = new Map<string, SectionRecord | undefined>();

  /**
   * Runs `read`, which must change nothing, with every container's site spaces grouped once. A listing
   * of a site's sections or site spaces asks each item for its container's site spaces (embedded, or to
   * tell the default), and each section for its site's sections (to tell the default): walking them
   * each time made a listing of 1000 sections take seconds, and a bench that lists before each create
   * quadratic in the emulator.
   */
  reading<T>(read: () => T): T {
    if (this.grouped) return read();
    const grouped = new Map<string, SiteSpaceRecord[]>();
    for (const ss of this.siteSpaces.values()) {
      const key = `${ss.siteId}\0${ss.sectionId ?? ""}`;
      const list = grouped.get(key);
      if (list) list.push(ss);
      else grouped.set(key, [ss]);
    }
    for (const list of grouped.values()) list.sort((a, b) => this.positionOf(a) - this.positionOf(b));
    this.grouped = grouped;
    try {
      return read();
    } finally {
      this.grouped = undefined;
      this.sectionsRead.clear();
      this.defaultsRead.clear();
    }
  }

  /** Site spaces of one container: a section, or the root level when `sectionId` is undefined. */
  siteSpacesIn(siteId: string, sectionId: string | undefined): SiteSpaceRecord[] {
    if (this.grouped) return [...(this.grouped.get(`${siteId}\0${sectionId ?? ""}`) ?? [])];
    // A loop, not a copy of every site space filtered: each write's answer asks this a few times.
    const list: SiteSpaceRecord[] = [];
    for (const s of this.siteSpaces.values()) if (s.siteId === siteId && s.sectionId === sectionId) list.push(s);
    return list.sort((a, b) => this.positionOf(a) - this.positionOf(b));
  }

  defaultSection(site: SiteRecord): SectionRecord | undefined {
    // While `reading`, once per site: every section of a listing asks whether it is the default.
    if (this.grouped && this.defaultsRead.has(site.id)) return this.defaultsRead.get(site.id);
    const found =
      this.topLevelDefault(site) ??
      ((sections) => sections.find((s) => s.id === site.defaultSectionId) ?? sections[0])(this.sectionsOf(site.id));
    if (this.grouped) this.defaultsRead.set(site.id, found);
    return found;
  }

  /**
   * The default section without walking the whole structure (each write's answer asks): the pointed
   * section when it sits at the top level, else, with no pointer, the first top-level item when it is
   * a section; undefined when only the walk can tell (a grouped or dangling pointer, a group or link first).
   */
  private topLevelDefault(site: SiteRecord): SectionRecord | undefined {
    const pointed = site.defaultSectionId === undefined ? undefined : this.sections.get(site.defaultSectionId);
    if (pointed) return pointed.siteId === site.id && this.groupOfSection(pointed) === undefined ? pointed : undefined;
    if (site.defaultSectionId !== undefined) return undefined;
    // The first of childrenOf(site, top level): the least position, the earliest in its order on a tie.
    const index = this.sectionGroupIndex(site.id);
    let first: { record: Base; section?: SectionRecord } | undefined;
    const consider = (record: Base, section?: SectionRecord) => {
      if (first === undefined || this.positionOf(record) < this.positionOf(first.record)) first = section ? { record, section } : { record };
    };
    for (const s of this.sections.values()) if (s.siteId === site.id && !index.has(s.id)) consider(s, s);
    for (const g of this.sectionGroups.values()) if (g.siteId === site.id && g.parentId === undefined) consider(g);
    for (const l of this.externalLinks.values()) if (l.siteId === site.id && l.groupId === undefined) consider(l);
    return first?.section;
  }

  defaultSiteSpaceIn(site: SiteRecord, sectionId: string | undefined): SiteSpaceRecord | undefined {
    const pointer = sectionId === undefined ? site.defaultSiteSpaceId : this.sections.get(sectionId)?.defaultSiteSpaceId;
    // The pointer, when it names a site space of this container, is the one the list would find:
    // no need to gather the container (a pass over every site space, for each site space answered).
    const named = pointer === undefined ? undefined : this.siteSpaces.get(pointer);
    if (named && named.siteId === site.id && named.sectionId === sectionId) return named;
    const list = this.siteSpacesIn(site.id, sectionId);
    return list.find((s) => s.id === pointer) ?? list[0];
  }

  isDefaultSiteSpace(ss: SiteSpaceRecord): boolean {
    const site = this.sites.get(ss.siteId);
    return site !== undefined && this.defaultSiteSpaceIn(site, ss.sectionId)?.id === ss.id;
  }

  teamMembersOf(teamId: string): TeamMemberRecord[] {
    return bySeq([...this.teamMembers.values()].filter((m) => m.teamId === teamId));
  }

  findOpenApiSpec(orgId: string, slug: string): OpenApiSpecRecord | undefined {
    for (const s of this.openApiSpecs.values()) if (s.orgId === orgId && s.slug === slug) return s;
    return undefined;
  }

  /** Resolves a user reference the way team-membership bodies do: member id, or e-mail (case-insensitive). */
  findMember(orgId: string, ref: string): MemberRecord | undefined {
    const direct = this.members.get(ref);
    if (direct && direct.orgId === orgId) return direct;
    const email = ref.toLowerCase();
    for (const m of this.members.values()) if (m.orgId === orgId && m.email.toLowerCase() === email) return m;
    return undefined;
  }

  // ---- cascading deletes ----

  deleteSiteSpace(id: string): boolean {
    this.positions.delete(id);
    this.siteSpaceCustomizations.delete(id);
    return this.siteSpaces.delete(id);
  }

  deleteSection(id: string): boolean {
    const section = this.sections.get(id);
    if (!section) return false;
    for (const ss of this.siteSpacesIn(section.siteId, id)) this.deleteSiteSpace(ss.id);
    for (const g of this.sectionGroups.values()) g.sectionIds = g.sectionIds.filter((s) => s !== id);
    this.positions.delete(id);
    // The default pointer of the site may now dangle: defaultSection() then falls back to the first remaining section.
    return this.sections.delete(id);
  }

  /**
   * Deleting a section group keeps what it holds: its sections, groups and links take its place in
   * the container it was in, in their order. (GitBook's spec does not say; deleting the sections with
   * it would be the surprise a user could not undo.)
   */
  deleteSectionGroup(id: string): boolean {
    const group = this.sectionGroups.get(id);
    if (!group) return false;
    const index = this.sectionGroupIndex(group.siteId);
    const held = this.childrenOf(group.siteId, id, index);
    const siblings = this.childrenOf(group.siteId, group.parentId, index);
    const parent = group.parentId !== undefined ? this.sectionGroups.get(group.parentId) : undefined;
    for (const n of held) {
      if (n.type === "site-section") parent?.sectionIds.push(n.record.id);
      else if (n.type === "site-section-group") n.record.parentId = group.parentId;
      else n.record.groupId = group.parentId;
    }
    this.setOrder(siblings.flatMap((n) => (n.record.id === id ? held : [n])).map((n) => n.record.id));
    this.positions.delete(id);
    return this.sectionGroups.delete(id);
  }

  /** Pages a user writes in a space in the app, after those it has: dated, as GitBook dates an edited page. */
  writePages(spaceId: string, titles: readonly string[]): PageRecord[] {
    const space = this.spaces.get(spaceId);
    if (!space) throw new Error(`writePages: no space "${spaceId}"`);
    const at = new Date().toISOString();
    const before = space.pages ?? [];
    // Named after the space, not from the store's counter: writing pages shifts no other object's ID.
    const written = titles.map((title, i) => ({ id: `page_${space.id}_${before.length + i + 1}`, title, createdAt: at, updatedAt: at }));
    space.pages = [...before, ...written];
    return written;
  }

  /**
   * Moves a space to the trash. The site spaces showing it are removed from their sites (so listings
   * no longer show them) and do not come back if the space is restored: a site never shows a space
   * the API does not show. (GitBook's documents say only that a deleted space is restorable for 7 days.)
   */
  trashSpace(id: string): boolean {
    const space = this.spaces.get(id);
    if (!space || space.deletedAt) return false;
    space.deletedAt = new Date().toISOString();
    for (const ss of [...this.siteSpaces.values()]) {
      if (ss.spaceId !== id) continue;
      this.siteSpaces.delete(ss.id);
      this.siteSpaceCustomizations.delete(ss.id);
    }
    return true;
  }

  /** The collection and every collection below it, parents first. */
  collectionSubtree(id: string): CollectionRecord[] {
    const all = [...this.collections.values()];
    const out = all.filter((col) => col.id === id);
    for (let i = 0; i < out.length; i++) out.push(...all.filter((col) => col.parentId === out[i]!.id));
    return out;
  }

  /**
   * Deleting a collection deletes what it holds: the collections below it, and its spaces, which go
   * to the trash as a deleted space does (restorable for 7 days, at the top level once restored).
   */
  deleteCollection(id: string): boolean {
    const doomed = this.collectionSubtree(id);
    const ids = new Set(doomed.map((x) => x.id));
    for (const space of [...this.spaces.values()]) {
      if (space.parentId === undefined || !ids.has(space.parentId)) continue;
      this.trashSpace(space.id);
      delete space.parentId;
    }
    for (const x of doomed) {
      this.deletePermissionsOf("collection", x.id);
      this.collections.delete(x.id);
    }
    return doomed.length > 0;
  }

  deleteSite(id: string): boolean {
    if (!this.sites.has(id)) return false;
    for (const s of [...this.sections.values()]) if (s.siteId === id) this.deleteSection(s.id);
    for (const ss of [...this.siteSpaces.values()]) if (ss.siteId === id) this.deleteSiteSpace(ss.id);
    for (const g of [...this.sectionGroups.values()]) if (g.siteId === id) this.sectionGroups.delete(g.id);
    for (const l of [...this.externalLinks.values()]) if (l.siteId === id) this.externalLinks.delete(l.id);
    for (const l of [...this.shareLinks.values()]) if (l.siteId === id) this.shareLinks.delete(l.id);
    for (const r of [...this.siteRedirects.values()]) if (r.siteId === id) this.siteRedirects.delete(r.id);
    this.adaptiveSchemas.delete(id);
    this.siteCustomizations.delete(id);
    this.publishingAuths.delete(id);
    this.deletePermissionsOf("site", id);
    for (const h of [...this.customHostnames.values()]) if (h.targetType === "site" && h.targetId === id) this.customHostnames.delete(h.id);
    for (const g of [...this.gitInstallations.values()]) if (g.targetType === "site" && g.targetId === id) this.gitInstallations.delete(g.id);
    return this.sites.delete(id);
  }

  /** Removes a custom hostname: the site it served is published on the organization's hostname again. */
  removeCustomHostname(hostname: string): boolean {
    const h = this.customHostnames.get(hostname);
    if (!h) return false;
    const site = h.targetType === "site" ? this.sites.get(h.targetId) : undefined;
    if (site?.hostname === hostname) delete site.hostname;
    return this.customHostnames.delete(hostname);
  }

  deleteTeam(id: string): boolean {
    for (const m of this.teamMembersOf(id)) this.teamMembers.delete(m.id);
    for (const g of [...this.permissions.values()]) if (g.principal === "team" && g.principalId === id) this.permissions.delete(g.id);
    return this.teams.delete(id);
  }

  /** The grants on one site, space or collection, by principal kind, in creation order. */
  permissionsOn(target: PermissionTarget, targetId: string, principal: "team" | "user"): PermissionRecord[] {
    return bySeq([...this.permissions.values()].filter((g) => g.target === target && g.targetId === targetId && g.principal === principal));
  }

  /** A deleted site or collection takes its grants along (a trashed space keeps them, for a restore). */
  deletePermissionsOf(target: PermissionTarget, targetId: string): void {
    for (const g of [...this.permissions.values()]) if (g.target === target && g.targetId === targetId) this.permissions.delete(g.id);
  }

  deleteOpenApiSpec(id: string): boolean {
    for (const v of [...this.openApiVersions.values()]) if (v.specId === id) this.openApiVersions.delete(v.id);
    return this.openApiSpecs.delete(id);
  }
}

export function bySeq<T extends { seq: number }>(items: T[]): T[] {
  return items.sort((a, b) => a.seq - b.seq);
}

/** Lower-case ASCII slug of at most `max` characters; "untitled" when nothing is left. */
export function slugify(text: string, max = 100): string {
  return slugOf(text, max) || "untitled";
}

/** `base`, or `base-2`, `base-3`, ... : the first one not in `taken`, kept within `max` characters. */
export function uniqueSlug(base: string, taken: Iterable<string>, max = 100): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = base.slice(0, max - suffix.length) + suffix;
    if (!used.has(candidate)) return candidate;
  }
}
