/**
 * What the importer knows about an organization: the settings of every object it adopts, in the form
 * the resources declare them, and nothing else. Each kind's declaration says how its records are
 * found and where they go (`import.read`, framework/discover.ts), and the reader (read.ts) walks them;
 * the generator (generate.ts) turns the snapshot into a program without any request. The interfaces
 * below name what the generator reads itself; a kind's settings need no line here.
 *
 * Each object's settings are keyed like its kind's inputs (`Settings`): the generator writes those the
 * kind's fields let it (see argsOf in generate.ts), so a setting a kind gains reaches the program
 * without a change here. Secrets never enter it: a share link is its ID, name and state (its URL carries the share key),
 * and no token or URL of the API's answers is kept. What cannot reach the snapshot cannot reach the
 * generated program.
 */
import type { SiteRedirectsInputs } from "../resources/siteRedirects";

/** An object's settings, keyed like its kind's inputs, beside what the generator reads itself (IDs, times, navigation). */
export interface Settings {
  [input: string]: unknown;
}

export interface OrgSnapshot {
  organizationId: string;
  /** The API the organization was read from, when not GitBook's default (it goes into the stack file). */
  apiUrl?: string;
  /** `sites` when `--site` narrowed the import to some sites: teams, SSO and specs were then not read. */
  scope: "organization" | "sites";
  sites: SiteSnapshot[];
  /** The spaces the sites show (each once), with their settings. */
  spaces: SpaceSnapshot[];
  /** The collections those spaces are in, and the collections holding those, up to the top level. */
  collections: CollectionSnapshot[];
  teams: TeamSnapshot[];
  samlProviders: SamlProviderSnapshot[];
  openApiSpecs: OpenApiSpecSnapshot[];
  /** The grants of the sites, spaces and collections read, for each one that has any. */
  access?: AccessSnapshot[];
}

/** Who has access to one site, space or collection: IDs and roles (null: a guest). */
export interface AccessSnapshot {
  on: "site" | "space" | "collection";
  id: string;
  /** For names only. */
  title: string;
  teams: { teamId: string; role: string | null }[];
  users: { userId: string; role: string | null }[];
}

export interface SiteSnapshot extends Settings {
  id: string;
  title: string;
  type: string;
  visibility: string;
  basename?: string;
  agentsContext?: string;
  /** `host/path`, the way the Site input is written. */
  proxy?: string;
  adaptiveContent?: { enabled: boolean };
  published: boolean;
  /** Its visitor authentication settings, never its private key; absent when nothing about them is set (custom backend, no URLs, a site not `visitor-auth`). */
  visitorAuth?: { backend: string; fallbackURL?: string; logoutURL?: string };
  /**
   * The custom hostname the site reports, once read from GitBook's custom-hostname route: `unavailable`
   * says why it cannot be declared (it is not there, points elsewhere, or the token may not read it).
   */
  customHostname?: { hostname: string; unavailable?: string };
  /** The visitor schema, as GitBook returns it; absent when the site has none (404). */
  adaptiveSchema?: Record<string, unknown>;
  /** The site's customization settings as GitBook returns them; absent when nobody customized the site (GitBook's defaults). */
  customization?: Record<string, unknown>;
  createdAt: string;
  /** The IDs of the navigation's top level (sections, section groups, external links), in its order. */
  topLevel: string[];
  /** Every section, wherever it sits, in navigation order (a group's where the group is). */
  sections: SectionSnapshot[];
  /** Every section group, in navigation order. */
  sectionGroups: SectionGroupSnapshot[];
  /** Every external link, in navigation order. */
  externalLinks: ExternalLinkSnapshot[];
  /** Items of the navigation of a kind the importer does not know, by where they sit. */
  unknownItems: { id: string; object: string }[];
  shareLinks: ShareLinkSnapshot[];
  /** The site's redirect rules, live and draft, as a SiteRedirects lists them; absent when it has none. */
  redirects?: SiteRedirectsInputs["rules"];
  /** Site spaces outside any section (a site without sections): no resource can hold them. */
  rootSiteSpaces: SiteSpaceSnapshot[];
}

export interface SpaceRef {
  id: string;
  /** For names and comments only. */
  title?: string;
}

export interface SectionSnapshot extends Settings {
  id: string;
  title: string;
  path: string;
  icon?: string;
  condition?: string;
  description?: string;
  default: boolean;
  /** The group holding it, as the section reports it. */
  groupId?: string;
  /** Hidden from the published site; SiteSection has no input for it. */
  draft?: boolean;
  /** In the section's order; the first is the one the section was created with. */
  siteSpaces: SiteSpaceSnapshot[];
}

export interface SiteSpaceSnapshot extends Settings {
  id: string;
  path: string;
  condition?: string;
  default: boolean;
  space: SpaceRef;
}

export interface SectionGroupSnapshot extends Settings {
  id: string;
  title: string;
  icon?: string;
  draft: boolean;
  /** The group it is nested in, if any. */
  groupId?: string;
  /** What it holds (sections, groups, links), by ID, in order. */
  itemIds: string[];
}

export interface ExternalLinkSnapshot extends Settings {
  id: string;
  title: string;
  url: string;
  description?: string;
  icon?: string;
  draft: boolean;
  condition?: string;
  /** The group holding it, as the link reports it. */
  groupId?: string;
}

export interface SpaceSnapshot extends Settings {
  id: string;
  title: string;
  emoji?: string;
  /** URL of the image shown instead of an emoji. */
  icon?: string;
  /** The collection holding it. */
  parent?: string;
  language?: string;
  editMode?: string;
  /** null: no access without an invitation; absent when the API does not say. */
  defaultLevel?: string | null;
  createdAt: string;
}

export interface CollectionSnapshot extends Settings {
  id: string;
  title: string;
  description?: string;
  parent?: string;
  /** null: no access without an invitation; absent when the API does not say. */
  defaultLevel?: string | null;
}

export interface ShareLinkSnapshot extends Settings {
  id: string;
  /** Absent when the link has none (the ShareLink resource requires one). */
  name?: string;
  active: boolean;
  createdAt: string;
}

export interface TeamSnapshot extends Settings {
  id: string;
  title: string;
  createdAt?: string;
  /** `user` is the member's e-mail address, or their user ID when the API shows no address. */
  members: { user: string; role: "owner" | "member" }[];
}

export interface SamlProviderSnapshot extends Settings {
  id: string;
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeamId?: string;
  /** null: new SSO users join as guests. */
  defaultRole: string | null;
  createdAt?: string;
}

export interface OpenApiSpecSnapshot extends Settings {
  id: string;
  slug: string;
  visibility: string;
  createdAt?: string;
  processingState: string;
  lastProcessErrorCode?: string;
  /**
   * `url`: GitBook fetches the document from there. `text`: it was uploaded, and the API never gives
   * the upload back; `document` is the last processed version when it could be downloaded.
   */
  source: { url: string } | { text: { document?: { content: string; format: "json" | "yaml" }; unavailable?: string } };
}
