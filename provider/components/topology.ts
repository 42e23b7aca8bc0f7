/**
 * The DocsSite topology: its TypeScript shape, its zod schema (field limits are the resources' own
 * schemas, stated once) and the check that runs when the component is constructed, naming each
 * mistake by its path (`sections[2].siteSpaces[0].path must be 1 to 100 characters`). Relations
 * between entries (unique keys, one default, one space per entry, share links needing a share-link
 * site, conditions naming only claims the visitor schema declares) are checked here too. A value known only at deployment time (an Output or a Promise) is left to the
 * resource's own check; the structure (lists, keys, `default` flags) must be plain values.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { organizationIdField } from "../framework/fields";
import { definition as shareLink, type ShareLinkArgs } from "../resources/shareLink";
import { definition as site, type SiteArgs } from "../resources/site";
import { definition as siteSection, type SiteSectionArgs } from "../resources/siteSection";
import { definition as siteSpace, type SiteSpaceArgs } from "../resources/siteSpace";
import { definition as space, type SpaceArgs } from "../resources/space";
import { definition as sectionGroup, type SiteSectionGroupArgs } from "../resources/siteSectionGroup";
import { definition as externalLink, type SiteExternalLinkArgs } from "../resources/siteExternalLink";
import { definition as adaptiveSchema, type SiteAdaptiveSchemaInputs } from "../resources/siteAdaptiveSchema";
import { brandingSchema, type SiteCustomizationSettings } from "../resources/siteCustomization";
import { definition as siteRedirects, type SiteRedirectsArgs } from "../resources/siteRedirects";
import { definition as accessList, type AccessListArgs } from "../resources/accessList";
import { definition as visitorAuth, type SiteVisitorAuthArgs } from "../resources/siteVisitorAuth";
import { definition as customHostname, type SiteCustomHostnameArgs } from "../resources/siteCustomHostname";
import { definition as gitSyncInstallation, type GitSyncInstallationArgs } from "../resources/gitSyncInstallation";
import { checkConditions, type ClaimsSchema, type ConditionToCheck } from "../resources/conditions";

type In<T> = pulumi.Input<T>;

/**
 * What an entry does not take of its kind's fields: what DocsSite gives the resource itself (the
 * organization, the site, the section or group the entry stands in), what the provider sets (`names`,
 * `oldPathRedirects`, `address`), and `forceDestroy`, not offered: a DocsSite section's delete never takes along
 * what the app put in it (a created `space` takes it, and `retainOnDelete`: see spaceSchema). Every other field of its kind, an entry takes as the kind declares it
 * (type, limits, description), so a field added to a kind reaches DocsSite with no line here.
 */
const SUPPLIED = ["organizationId", "siteId", "sectionId", "groupId", "names", "oldPathRedirects", "address", "forceDestroy"] as const;
type Supplied = (typeof SUPPLIED)[number];

/** The kind's arguments an entry takes. */
type EntryArgs<A> = Omit<A, Supplied>;

/** The kind's fields but `but`, as the kind declares them. */
function fieldsBut<Sh extends Record<string, z.ZodType>, K extends string>(shape: Sh, but: readonly K[]): Omit<Sh, K> {
  return Object.fromEntries(Object.entries(shape).filter(([k]) => !(but as readonly string[]).includes(k))) as Omit<Sh, K>;
}

/** The kind's fields an entry takes, as the kind declares them. */
const entryFields = <Sh extends Record<string, z.ZodType>>(shape: Sh) => fieldsBut(shape, SUPPLIED);

/**
 * A space the component creates (a Space child) instead of naming one by ID: the Space's arguments,
 * and the key that names it (`<name>/spaces/<key>`: the entry's key unless given here).
 */
export type DocsSiteSpace = Omit<SpaceArgs, "organizationId"> & {
  /** The Space child's `retainOnDelete` resource option: removed, it is dropped from the stack and left in GitBook with its pages. */
  retainOnDelete?: boolean;
  /** Names the Space child (`<name>/spaces/<key>`); the entry's own key when absent. Unique among the spaces the topology creates. */
  key?: string;
  /** Keys the space was named by before (its `key`, or its entry's key): the Space is kept, not replaced. */
  formerKeys?: string[];
};

/** Keys an entry had before: its child resources keep their identity (Pulumi aliases) instead of being replaced. */
interface Renamable {
  formerKeys?: string[];
}

/** A further site space of a section (a SiteSpace child): the SiteSpace's arguments but those DocsSite supplies. */
export interface DocsSiteSiteSpace extends Renamable, Omit<EntryArgs<SiteSpaceArgs>, "spaceId" | "default"> {
  key: string;
  /** The space shown, by ID; or `space` to create it. */
  spaceId?: In<string>;
  space?: DocsSiteSpace;
  default?: boolean;
}

/** A section (a SiteSection child): the SiteSection's arguments but those DocsSite supplies. */
export interface DocsSiteSection extends Renamable, Omit<EntryArgs<SiteSectionArgs>, "spaceId" | "default"> {
  type?: "section";
  key: string;
  /** The section's own space, by ID; or `space` to create it. */
  spaceId?: In<string>;
  space?: DocsSiteSpace;
  default?: boolean;
  siteSpaces?: DocsSiteSiteSpace[];
}

/** An external link (a SiteExternalLink child): its arguments but those DocsSite supplies. */
export interface DocsSiteLink extends Renamable, EntryArgs<SiteExternalLinkArgs> {
  type: "link";
  key: string;
}

/** A section group (a SiteSectionGroup child): its arguments but those DocsSite supplies, its sections entries. */
export interface DocsSiteGroup extends Renamable, Omit<EntryArgs<SiteSectionGroupArgs>, "sections"> {
  type: "group";
  key: string;
  /** The group's sections and links, in order. */
  sections: (DocsSiteSection | DocsSiteLink)[];
}

/** An item of the site's navigation: a section (the default `type`), a section group, or an external link. */
export type DocsSiteEntry = DocsSiteSection | DocsSiteGroup | DocsSiteLink;

/** A share link (a ShareLink child): its arguments but those DocsSite supplies. */
export interface DocsSiteShareLink extends Renamable, EntryArgs<ShareLinkArgs> {
  key: string;
}

export interface DocsSiteTopology {
  site: SiteArgs;
  /** The navigation; empty with `gitSync`, whose gitbook-docs.yaml holds it. */
  sections: DocsSiteEntry[];
  /** The site's Git Sync installation (a GitSyncInstallation child): the navigation then comes from the repository. */
  gitSync?: Omit<GitSyncInstallationArgs, "siteId" | "spaceId" | "organizationId">;
  shareLinks?: DocsSiteShareLink[];
  /** The site's redirect rules, authoritative (a SiteRedirects child). */
  redirects?: SiteRedirectsArgs["rules"];
  /** The site's ID, to take over the rules the site already has (the SiteRedirects' `adoptId`). */
  redirectsAdoptId?: In<string>;
  /** The site's visitor schema (a SiteAdaptiveSchema child); conditions are checked against it. */
  visitorSchema?: SiteAdaptiveSchemaInputs["jsonSchema"];
  /** The site's ID, to adopt the schema the site already has (the SiteAdaptiveSchema's `adoptId`). */
  visitorSchemaAdoptId?: In<string>;
  /** The site's branding (a SiteCustomization child): only the settings declared are managed. */
  branding?: SiteCustomizationSettings;
  /** Who has access to the site (an AccessList child): teams and users with their roles, authoritative per list. */
  access?: Pick<AccessListArgs, "teams" | "users" | "adoptId">;
  /** The site's visitor authentication (a SiteVisitorAuth child): only the settings declared are managed. */
  visitorAuth?: Omit<SiteVisitorAuthArgs, "siteId" | "organizationId">;
  /** The site's custom hostname, set up in the GitBook app (a SiteCustomHostname child). */
  customHostname?: Omit<SiteCustomHostnameArgs, "siteId" | "organizationId">;
  /** `declared` (the default): the navigation follows the order of `sections`; `unmanaged`: left to the app. */
  order?: "declared" | "unmanaged";
  /** `redirectOldPath` for every section and site space that does not set its own. */
  redirectOldPaths?: boolean;
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const key = (what: string) =>
  z
    .string({ error: "must be a string" })
    .regex(KEY_PATTERN, "must be 1 to 64 letters, digits, dots, hyphens or underscores, starting with a letter or digit")
    .describe(
      `Stable identifier of the ${what} within the topology. The child resource's name is derived from it, not from its place, so reordering or moving it updates it in place; to rename the key without replacing the ${what}, list the old key in \`formerKeys\`.`,
    );

const formerKeys = (what: string) =>
  z
    .array(z.string({ error: "must be a string" }).regex(KEY_PATTERN, "must be 1 to 64 letters, digits, dots, hyphens or underscores, starting with a letter or digit"), {
      error: "must be a list of keys",
    })
    .optional()
    .describe(
      `Keys this ${what} had before (plain strings): its child resources are recognised under their old names (Pulumi aliases), so a renamed key updates them in place instead of replacing them. A former key may not be another entry's key; keep it listed until every stack has run \`up\` with the new key.`,
    );

const plainDefault = (what: string) =>
  z
    .boolean({ error: "must be a plain boolean (the component picks the default when it is constructed)" })
    .optional()
    .describe(`Makes this the default ${what}. At most one may be marked; with none, GitBook keeps its own choice.`);

const spaceSchema = z
  .strictObject({
    // Every field of a Space, `forceDestroy` included, but the organization (the site's) and `names` (set by the provider).
    ...fieldsBut(space.schema.shape, ["organizationId", "names"]),
    retainOnDelete: z
      .boolean({ error: "must be a plain boolean (a resource option, read when the component is constructed)" })
      .optional()
      .describe(
        "The Space child's `retainOnDelete` resource option: when its entry leaves the topology (or its key changes without `formerKeys`), or on `pulumi destroy`, Pulumi drops the Space from the stack and leaves it in GitBook with its pages. Recorded by an `up`: set it in the run before the one that removes the entry.",
      ),
    key: key("created space")
      .optional()
      .describe(
        "Names the Space child (`<name>/spaces/<key>`), the entry's own key when absent. Unique among the spaces the topology creates, whatever their place: moving the entry to another section, or into a group, keeps the same Space (its pages with it).",
      ),
    formerKeys: formerKeys("created space"),
  })
  .optional()
  .describe(
    "A space to create for this entry (a Space child named `<name>/spaces/<key>`, its `key` or the entry's), instead of `spaceId`: give exactly one of the two. Its identity does not depend on where the entry stands: moving the entry keeps the space. A Space created by an earlier version under `<name>/<sectionKey>/space` or `<name>/<sectionKey>/<siteSpaceKey>/space` is recognised by that name (an alias), so upgrading replaces nothing, also when the same `up` moves a site space's entry to another section (provided its old section is still declared, under its key or in `formerKeys`, and no other entry could have stood there under the same key; else upgrade first, then move).",
  );

const spaceIdOf = (what: string) => siteSpace.schema.shape.spaceId.optional().describe(`ID of the space the ${what} shows; or declare \`space\` to create it. Exactly one of the two.`);

export const docsSiteSiteSpaceSchema = z.strictObject({
  key: key("site space"),
  formerKeys: formerKeys("site space"),
  ...entryFields(siteSpace.schema.shape),
  spaceId: spaceIdOf("site space"),
  space: spaceSchema,
  default: plainDefault("site space of its section (instead of the section's own space)"),
});

export const docsSiteSectionSchema = z.strictObject({
  type: z.literal("section").optional().describe("`section` (the default when absent), `group` or `link`."),
  key: key("section"),
  formerKeys: formerKeys("section"),
  ...entryFields(siteSection.schema.shape),
  spaceId: spaceIdOf("section first"),
  space: spaceSchema,
  default: plainDefault("section of the site"),
  siteSpaces: z
    .array(docsSiteSiteSpaceSchema, { error: "must be a list" })
    .optional()
    .describe("Further spaces the section shows (versions, languages, audiences), each a SiteSpace in this section, in this order."),
});

export const docsSiteLinkSchema = z.strictObject({
  type: z.literal("link").describe("`link`: an external link (a SiteExternalLink child)."),
  key: key("external link"),
  formerKeys: formerKeys("external link"),
  ...entryFields(externalLink.schema.shape),
});

const groupItem = z.discriminatedUnion("type", [docsSiteSectionSchema, docsSiteLinkSchema], {
  error: "must be a section (no `type`, or `type: \"section\"`) or a link (`type: \"link\"`)",
});

export const docsSiteGroupSchema = z.strictObject({
  type: z.literal("group").describe("`group`: a section group (a SiteSectionGroup child) holding sections and links."),
  key: key("section group"),
  formerKeys: formerKeys("section group"),
  ...entryFields(sectionGroup.schema.shape),
  sections: z.array(groupItem, { error: "must be a list" }).describe("The group's sections and external links, in the order the navigation shows them."),
});

const entrySchema = z.discriminatedUnion("type", [docsSiteSectionSchema, docsSiteGroupSchema, docsSiteLinkSchema], {
  error: "must be a section (no `type`, or `type: \"section\"`), a group (`type: \"group\"`) or a link (`type: \"link\"`)",
});

export const docsSiteShareLinkSchema = z.strictObject({
  key: key("share link").describe(
    "Stable identifier of the share link within the topology, required. The child resource's name is derived from it, not from `name`, so renaming the link updates it in place and its URL keeps working; changing the key replaces the link (a new URL) unless the old key is listed in `formerKeys`.",
  ),
  formerKeys: formerKeys("share link"),
  ...entryFields(shareLink.schema.shape),
  active: shareLink.schema.shape.active.optional(),
});

export const docsSiteTopologySchema = z.strictObject({
  site: z
    .strictObject({ ...site.schema.shape, organizationId: organizationIdField.optional() })
    .describe(
      "The Site's arguments (see Site), except that a declared `published` (a plain boolean here) is applied by a SitePublication child after every other child, so a new site goes live once its navigation exists.",
    ),
  sections: z
    .array(entrySchema, { error: "must be a list" })
    .describe(
      "The site's navigation, in order: sections (no `type`), section groups (`type: \"group\"`, holding sections and links) and external links (`type: \"link\"`). With `order` left as `declared`, the site shows them in this order. At least one entry, unless `gitSync` is set: then `[]` (the repository's gitbook-docs.yaml holds the navigation).",
    ),
  gitSync: z
    .strictObject({
      provider: gitSyncInstallation.schema.shape.provider,
      repositoryId: gitSyncInstallation.schema.shape.repositoryId,
      branch: gitSyncInstallation.schema.shape.branch,
      projectDirectory: gitSyncInstallation.schema.shape.projectDirectory,
      commitMessageTemplate: gitSyncInstallation.schema.shape.commitMessageTemplate,
      priority: gitSyncInstallation.schema.shape.priority,
      previewExternalBranches: gitSyncInstallation.schema.shape.previewExternalBranches,
      adoptId: gitSyncInstallation.schema.shape.adoptId,
    })
    .optional()
    .describe(
      "The site's Git Sync installation (a GitSyncInstallation child, see there): `provider`, `repositoryId`, `branch` and the rest. The site's structure (sections, site spaces, groups, links, order) then comes from `gitbook-docs.yaml` in the repository, so `sections` must be empty and no order is managed; everything else the topology declares (branding, access, redirects, visitor authentication, share links, publishing, hostname) stays managed here.",
    ),
  shareLinks: z
    .array(docsSiteShareLinkSchema, { error: "must be a list" })
    .optional()
    .describe("Share links to the site, each with a stable `key`; the site's `visibility` must then be declared as `share-link`."),
  redirects: siteRedirects.schema.shape.rules
    .optional()
    .describe(
      "The site's redirect rules (a SiteRedirects child, see there), checked when the component is constructed (malformed paths, a source named twice, chains, loops): authoritative, so rules added in the app are deleted by the next `up` after a refresh. Applied after the site is published, when the topology publishes it, so `path` destinations resolve against its address.",
    ),
  redirectsAdoptId: siteRedirects.schema.shape.adoptId.describe(
    "The site's ID, to take over the redirect rules the site already has (the SiteRedirects child's `adoptId`): without it, a site that has any rule refuses the child, naming them. Only with `redirects`. Used only at the child's first creation.",
  ),
  visitorSchema: adaptiveSchema.schema.shape.jsonSchema
    .optional()
    .describe(
      "The site's visitor schema (a SiteAdaptiveSchema child, see there): the claims visitors carry. Every `condition` in the topology is checked against it when the component is constructed: a condition naming a claim it does not declare fails, naming the condition and the claim.",
    ),
  visitorSchemaAdoptId: adaptiveSchema.schema.shape.adoptId.describe(
    "The site's ID, to bring the visitor schema the site already has under management (the SiteAdaptiveSchema child's `adoptId`): it is read and replaced only if it differs from `visitorSchema`. Only with `visitorSchema`, and only for a site that has a schema (adopting one it does not have fails): leave it out to set the schema. Used only at the child's first creation.",
  ),
  branding: brandingSchema
    .optional()
    .describe(
      "The site's branding (a SiteCustomization child, see there for every setting): theme, colours, logo, favicon, header, footer and the rest. Only the settings declared are managed; every other stays as the site has it, and removing `branding` leaves the site's settings as they are.",
    ),
  access: z
    .strictObject({ teams: accessList.schema.shape.teams, users: accessList.schema.shape.users, adoptId: accessList.schema.shape.adoptId })
    .refine((a) => a.teams !== undefined || a.users !== undefined, { message: "must declare teams, users or both (an empty list removes every grant of its kind)" })
    .optional()
    .describe(
      "Who has access to the site (an AccessList child, see there): `teams` and `users`, each with its role, checked like the AccessList's (one team or user listed twice fails, naming both entries). Each list declared is authoritative: a grant made in the app on the site that it does not list is removed by the next `up`. Over a site that already has grants, set `adoptId` to the site's ID to take them over (else the first `up` refuses, listing them).",
    ),
  visitorAuth: z
    .strictObject(entryFields(visitorAuth.schema.shape))
    .optional()
    .describe(
      "The site's visitor authentication (a SiteVisitorAuth child, see there): `backend`, `fallbackURL`, `logoutURL`, and `regenerate`, a trigger for a new private key. Only the settings declared are sent; the private key is the child's `privateKey` output, a Pulumi secret. Applied before the site is published, when the topology publishes it. Removing it leaves the settings as they are; whether visitors must authenticate is `site.visibility` (`visitor-auth`).",
    ),
  customHostname: z
    .strictObject(entryFields(customHostname.schema.shape))
    .optional()
    .describe(
      "The site's custom hostname (a SiteCustomHostname child, see there), e.g. `{ hostname: \"docs.example.com\" }`: it must already be set up in the GitBook app as this site's custom domain (GitBook's API cannot set one up), and the child only proves that it points to the site, reads its status, retriggers its DNS check when `revalidate` changes, and removes it on delete only with `removeOnDestroy: true`.",
    ),
  order: z
    .enum(["declared", "unmanaged"], { error: "must be declared or unmanaged" })
    .optional()
    .describe(
      "`declared` (the default): the navigation follows the topology's order, at the top level, in groups, and of each section's site spaces (its own space first), through a SiteStructureOrder child; reordering entries moves them in place (the fewest sort requests) and replaces nothing. `unmanaged`: the order is left to the app.",
    ),
  redirectOldPaths: z
    .boolean({ error: "must be a plain boolean" })
    .optional()
    .describe(
      "`redirectOldPath` (see SiteSection) for every section and site space that does not set its own: a change of a declared `path` adds a redirect from the old path to the new one. Not with `redirects`, which holds every rule of the site (refused when the component is constructed).",
    ),
});

type Issue = { path: PropertyKey[]; message: string };

/** The object entries of a list with their positions (zod has already reported anything else). */
const entries = (v: unknown): [Record<string, unknown>, number][] =>
  Array.isArray(v) ? v.flatMap((x, i): [Record<string, unknown>, number][] => (x && typeof x === "object" ? [[x, i]] : [])) : [];

/** Every section and link of the navigation, top level and inside groups, with its path; groups too. */
function navigation(t: Record<string, unknown>): { entry: Record<string, unknown>; at: PropertyKey[] }[] {
  const out: { entry: Record<string, unknown>; at: PropertyKey[] }[] = [];
  for (const [e, i] of entries(t.sections)) {
    out.push({ entry: e, at: ["sections", i] });
    if (e.type === "group") for (const [g, j] of entries(e.sections)) out.push({ entry: g, at: ["sections", i, "sections", j] });
  }
  return out;
}

/**
 * The rules that relate entries to each other. They run on the raw topology, not inside zod, because
 * zod skips refinements once a field fails, and a field holding an Output fails the plain schema.
 */
function relations(t: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const issue = (path: PropertyKey[], message: string) => issues.push({ path, message });
  // Keys name the child resources (`<name>/<key>`), so they are unique across the whole navigation.
  const firstAt = new Map<unknown, string>();
  let defaultSection: string | undefined;
  const conditions: ConditionToCheck[] = [];
  const conditionAt = new Map<string, PropertyKey[]>();
  const condition = (at: PropertyKey[], v: unknown) => {
    if (typeof v !== "string") return;
    const where = pathText([...at, "condition"]);
    conditionAt.set(where, [...at, "condition"]);
    conditions.push({ where, condition: v });
  };
  // Created spaces are named by key alone (`<name>/spaces/<key>`), so their keys are unique across
  // the whole topology, whatever section or group each entry stands in.
  const spaceKeys: { key: unknown; at: PropertyKey[]; own: boolean; former: unknown[] }[] = [];
  const spaceChoice = (e: Record<string, unknown>, at: PropertyKey[]) => {
    // Outputs are allowed for spaceId, so only "both" or "neither" of two plain absences is certain.
    if (e.spaceId !== undefined && e.space !== undefined) issue([...at, "space"], "cannot be declared with spaceId: give the ID of an existing space or a space to create, not both");
    else if (e.spaceId === undefined && e.space === undefined) issue([...at, "spaceId"], "is required (or declare `space` to create one)");
    if (e.space && typeof e.space === "object") {
      const sp = e.space as Record<string, unknown>;
      const own = sp.key !== undefined;
      spaceKeys.push({ key: own ? sp.key : e.key, at: [...at, "space"], own, former: Array.isArray(sp.formerKeys) ? sp.formerKeys : [] });
    }
  };
  // Former keys name old resources (aliases): one old name must lead to one entry, and never to an entry that has it now.
  const formers: { at: PropertyKey[]; keys: unknown[]; current: Map<unknown, string>; what: string }[] = [];
  const formerOf = (e: Record<string, unknown>, at: PropertyKey[], current: Map<unknown, string>, what: string) => {
    if (Array.isArray(e.formerKeys)) formers.push({ at: [...at, "formerKeys"], keys: e.formerKeys, current, what });
  };
  for (const { entry: s, at } of navigation(t)) {
    const kind = s.type === "group" ? "group" : s.type === "link" ? "link" : "section";
    const prior = firstAt.get(s.key);
    if (prior !== undefined) issue([...at, "key"], `"${String(s.key)}" is already the key of ${prior}`);
    else if (typeof s.key === "string") firstAt.set(s.key, pathText(at));
    formerOf(s, at, firstAt, "navigation entry");
    if (kind === "link") condition(at, s.condition);
    if (kind !== "section") continue;
    spaceChoice(s, at);
    condition(at, s.condition);
    if (s.default === true) {
      if (defaultSection !== undefined) issue([...at, "default"], `is true but ${defaultSection} is already the default section`);
      else defaultSection = pathText(at);
    }
    const ssFirst = new Map<unknown, number>();
    const ssKeysOf = new Map<unknown, string>();
    for (const [ss, j] of entries(s.siteSpaces)) if (typeof ss.key === "string" && !ssKeysOf.has(ss.key)) ssKeysOf.set(ss.key, pathText([...at, "siteSpaces", j]));
    // A section shows each space once: GitBook would add a second copy, and SiteSpace refuses to.
    const spaces = new Map<unknown, string>(typeof s.spaceId === "string" ? [[s.spaceId, `${pathText(at)}.spaceId (the section's own space)`]] : []);
    let defaultSs: number | undefined;
    for (const [ss, j] of entries(s.siteSpaces)) {
      const ssAt = [...at, "siteSpaces", j];
      const p = ssFirst.get(ss.key);
      if (p !== undefined) issue([...ssAt, "key"], `"${String(ss.key)}" is already the key of ${pathText(at)}.siteSpaces[${p}]`);
      else if (typeof ss.key === "string") ssFirst.set(ss.key, j);
      formerOf(ss, ssAt, ssKeysOf, "site space of this section");
      spaceChoice(ss, ssAt);
      if (typeof ss.spaceId === "string") {
        const same = spaces.get(ss.spaceId);
        if (same) issue([...ssAt, "spaceId"], `shows the same space as ${same}; a section shows each space once`);
        else spaces.set(ss.spaceId, `${pathText(ssAt)}.spaceId`);
      }
      if (ss.default === true) {
        if (defaultSs !== undefined) issue([...ssAt, "default"], `is true but ${pathText(at)}.siteSpaces[${defaultSs}] is already the default of this section`);
        else defaultSs = j;
      }
      condition(ssAt, ss.condition);
    }
  }
  const linkFirst = new Map<unknown, number>();
  const links = entries(t.shareLinks);
  for (const [l, i] of links) {
    // A missing key is zod's to report (see missingShareLinkKey).
    if (l.key === undefined) continue;
    const p = linkFirst.get(l.key);
    if (p !== undefined) issue(["shareLinks", i, "key"], `"${String(l.key)}" is already the key of shareLinks[${p}]`);
    else if (typeof l.key === "string") linkFirst.set(l.key, i);
  }
  const shareKeys = new Map<unknown, string>(links.flatMap(([l, i]): [unknown, string][] => (typeof l.key === "string" ? [[l.key, `shareLinks[${i}]`]] : [])));
  for (const [l, i] of links) formerOf(l, ["shareLinks", i], shareKeys, "share link");
  const spaceAt = new Map<unknown, string>();
  for (const sp of spaceKeys) {
    const where = `${pathText(sp.at)}${sp.own ? ".key" : " (named by its entry's key)"}`;
    const prior = spaceAt.get(sp.key);
    if (prior !== undefined) {
      issue(
        [...sp.at, ...(sp.own ? ["key"] : [])],
        `creates a space keyed "${String(sp.key)}", as ${prior} does: created spaces are named by key across the whole topology (\`<name>/spaces/<key>\`), whatever their section; set a distinct \`space.key\` on one of them (listing the key it had, if any, in \`space.formerKeys\`)`,
      );
    } else if (typeof sp.key === "string") spaceAt.set(sp.key, where);
  }
  for (const sp of spaceKeys) if (sp.former.length) formers.push({ at: [...sp.at, "formerKeys"], keys: sp.former, current: spaceAt, what: "created space" });
  // Former keys claimed so far, per scope (the map of current keys they live beside).
  const claimed = new Map<Map<unknown, string>, Map<string, string>>();
  for (const f of formers) {
    const scope = claimed.get(f.current) ?? claimed.set(f.current, new Map()).get(f.current)!;
    f.keys.forEach((k, i) => {
      if (typeof k !== "string") return;
      const now = f.current.get(k);
      if (now !== undefined) return issue([...f.at, i], `"${k}" is the key of ${now} now; a former key names what an entry was called before, never another entry's key`);
      const twice = scope.get(k);
      if (twice !== undefined) return issue([...f.at, i], `"${k}" is already a former key of ${twice}: one old name can lead to one entry`);
      scope.set(k, pathText(f.at.slice(0, -1)));
    });
  }
  const site = t.site && typeof t.site === "object" ? (t.site as Record<string, unknown>) : {};
  if (site.published !== undefined && typeof site.published !== "boolean") {
    issue(["site", "published"], "must be a plain boolean: DocsSite publishes the site after its navigation (a SitePublication child), and decides whether to when it is constructed");
  }
  const visibility = site.visibility;
  if (links.length && (visibility === undefined || (typeof visibility === "string" && visibility !== "share-link"))) {
    issue(
      ["shareLinks"],
      `open only a site whose visibility is share-link, but site.visibility is ${visibility === undefined ? "not set (a new site is public)" : visibility}`,
    );
  }
  if (t.redirectsAdoptId !== undefined && t.redirects === undefined) issue(["redirectsAdoptId"], "needs redirects: it adopts the rules redirects declares");
  if (t.visitorSchemaAdoptId !== undefined && t.visitorSchema === undefined) issue(["visitorSchemaAdoptId"], "needs visitorSchema: it adopts the schema visitorSchema declares");
  // Beyond GitBook, which accepts any expression: a condition naming a claim the site's visitors
  // never carry would hide its entry from everyone.
  if (t.visitorSchema && typeof t.visitorSchema === "object" && !isDeferred(t.visitorSchema)) {
    for (const p of checkConditions(t.visitorSchema as ClaimsSchema, conditions)) {
      const hint = p.nearest ? `; nearest declared claim: ${p.nearest}` : "";
      issue(conditionAt.get(p.where)!, `${JSON.stringify(p.condition)} names the claim ${p.claim}, but visitorSchema declares no ${p.missing}${hint}`);
    }
  }
  return issues;
}

/**
 * Why a share link needs a key, and the key version 0.1.0 derived from its name when none was given
 * (the name in lower case with hyphens), so a program written for it keeps its links.
 */
function missingShareLinkKey(link: unknown): string {
  const name = link && typeof link === "object" ? (link as Record<string, unknown>).name : undefined;
  const was = typeof name === "string" ? name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "link" : undefined;
  return (
    "is required: it names the share link's resource, so renaming the link updates it instead of replacing it (and its URL)" +
    (was ? `; to keep a link created without a key by pulumi-gitbook 0.1.0, set key: "${was}"` : "")
  );
}

function isDeferred(v: unknown): boolean {
  return pulumi.Output.isInstance(v) || v instanceof Promise;
}

/** Fields that shape what gets registered: they must be plain values, never Outputs. */
const STRUCTURAL = new Set<PropertyKey>(["site", "sections", "gitSync", "siteSpaces", "shareLinks", "key", "formerKeys", "default", "type", "space", "visitorSchema", "order", "retainOnDelete"]);

/** Whether the issue at `path` lies in a field given as an Output or a Promise that may hold one. */
function deferredOnPath(root: unknown, path: readonly PropertyKey[]): boolean {
  let cur = root;
  for (const k of path) {
    if (cur === null || typeof cur !== "object" || isDeferred(cur)) return false;
    cur = (cur as Record<PropertyKey, unknown>)[k];
    if (isDeferred(cur)) return typeof k === "string" && !STRUCTURAL.has(k);
  }
  return false;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, k) => (typeof k === "number" ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), "");
}

export interface TopologyProblem {
  /** e.g. `sections[2].siteSpaces[0].path`; empty for the topology itself. */
  path: string;
  /** The whole sentence, starting with the path. */
  message: string;
}

/**
 * Every mistake in a topology (an empty list when there is none). Exported so programs can check a
 * topology built from configuration and report it against their own config key.
 */
export function validateTopology(topology: unknown): TopologyProblem[] {
  const result = docsSiteTopologySchema.safeParse(topology);
  const issues: Issue[] = [];
  for (const i of result.error?.issues ?? []) {
    if (deferredOnPath(topology, i.path)) continue;
    let reason = i.message;
    if (i.code === "unrecognized_keys") reason = `has unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.join(", ")}`;
    else if (i.code === "invalid_type" && valueAt(topology, i.path) === undefined) {
      const isLinkKey = i.path.length === 3 && i.path[0] === "shareLinks" && i.path[2] === "key";
      reason = isLinkKey ? missingShareLinkKey(valueAt(topology, i.path.slice(0, 2))) : "is required";
    }
    issues.push({ path: [...i.path], message: reason });
  }
  if (topology && typeof topology === "object") issues.push(...relations(topology as Record<string, unknown>), ...navigationSource(topology as Record<string, unknown>));
  return issues.map((i) => {
    const path = pathText(i.path);
    return { path, message: path ? `${path} ${i.message}` : i.message };
  });
}

/** One source of the navigation: `sections`, or the Git Sync installation's gitbook-docs.yaml, never both nor neither. */
function navigationSource(t: Record<string, unknown>): Issue[] {
  const listed = Array.isArray(t.sections) ? t.sections.length : 0;
  if (t.gitSync === undefined) return Array.isArray(t.sections) && listed === 0 ? [{ path: ["sections"], message: "must list at least one section (or set gitSync, whose gitbook-docs.yaml then holds the navigation)" }] : [];
  if (listed === 0) return [];
  return [
    {
      path: ["sections"],
      message: `must be empty with gitSync: the Git Sync installation syncs the site's navigation from gitbook-docs.yaml, so the ${listed} entr${listed === 1 ? "y" : "ies"} here would undo each sync and be undone by the next. Declare them in gitbook-docs.yaml and remove them here, or remove gitSync to declare the navigation here`,
    },
  ];
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const k of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}
