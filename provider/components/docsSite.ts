/**
 * DocsSite: a whole docs site declared as one topology object — the site, its navigation (sections,
 * section groups and external links, in order), the spaces each section shows (named by ID or created
 * here), share links and the visitor schema — created as child resources of one component.
 *
 * Decisions that shape it:
 * - Child names come from the keys in the topology (`<name>/<sectionKey>/<siteSpaceKey>`), never
 *   from positions, so reordering sections or site spaces in the program replaces nothing. Keys may
 *   not contain `/`, so derived names cannot collide.
 * - What holds pages is named by its own key alone: a created Space is `<name>/spaces/<key>` (the
 *   entry's key, or `space.key`), unique across the topology, so moving its entry to another section,
 *   into a group, or renaming the section around it keeps the same Space (its pages with it). Site
 *   space keys stay unique per section only (programs reuse `v1` across sections), so a SiteSpace moved
 *   to another section is a new SiteSpace showing the same Space: a pointer replaced, no page lost.
 * - Renames are aliases: `formerKeys` on any entry (and on `space`) lists the keys it had, and each
 *   child is registered with the names those keys gave it, so the engine updates it in place. Spaces
 *   created by earlier versions, named by their place (`<name>/<sectionKey>/space`,
 *   `<name>/<sectionKey>/<siteSpaceKey>/space`), are recognised the same way.
 * - The topology is checked with zod when the component is constructed, before anything is
 *   registered, and a mistake names its path (`sections[2].siteSpaces[0].path must be 1 to 100
 *   characters`). Field limits are the resources' own schemas, so they are stated once. A value known
 *   only at deployment time (an Output or a Promise) is left to the resource's own check.
 * - The structure (the lists, keys and `default` flags) must be plain values: the component has to
 *   know how many resources to register, and which one is the default, when it is constructed.
 * - Defaults are chosen with `default: true`: at most one section, and at most one site space per
 *   section. With none marked, GitBook keeps its own choice (the first section; a section's own space).
 * - Share links have a required `key`, independent of their name: the key names the resource, so
 *   renaming a link is an update of the same link, and the URL already handed out keeps working.
 * - Every child takes an `adoptId`, as its resource does, so an existing site can be declared as a
 *   DocsSite without recreating anything (what `pulumi-gitbook import --style docs-site` writes). The
 *   visitor schema's is `visitorSchemaAdoptId` (the redirects' `redirectsAdoptId`): explicit rather than the site's `adoptId`, because a
 *   site adopted without a schema has none to adopt when `visitorSchema` is added later.
 * - Order is the topology's: a SiteStructureOrder child lists the items' IDs per container, so a
 *   reorder in the program is a few sort requests, never a replacement (names come from keys, and a
 *   section moving into or out of a group keeps its name: membership is its `groupId`, updated in place).
 * - Publishing (`site.published`) goes to a SitePublication child that depends on every other child,
 *   not to the Site (whose children need its ID, so it could not wait for them): a new site goes live
 *   once its navigation is in place, never empty.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { programError } from "../framework/program";
import { nameAs, nameOf } from "../framework/shown";
import { ShareLink, definition as shareLinkDef } from "../resources/shareLink";
import { Site, type SiteOutputs } from "../resources/site";
import { SiteAdaptiveSchema } from "../resources/siteAdaptiveSchema";
import { AccessList } from "../resources/accessList";
import { SiteCustomHostname } from "../resources/siteCustomHostname";
import { GitSyncInstallation } from "../resources/gitSyncInstallation";
import { SiteCustomization } from "../resources/siteCustomization";
import { SiteExternalLink, definition as externalLinkDef } from "../resources/siteExternalLink";
import { SiteRedirects } from "../resources/siteRedirects";
import { SitePublication } from "../resources/sitePublication";
import { SiteSection, definition as sectionDef } from "../resources/siteSection";
import { SiteSectionGroup, definition as sectionGroupDef } from "../resources/siteSectionGroup";
import { SiteSpace, definition as siteSpaceDef } from "../resources/siteSpace";
import { SiteStructureOrder } from "../resources/siteStructureOrder";
import { SiteVisitorAuth } from "../resources/siteVisitorAuth";
import { Space } from "../resources/space";
import { validateTopology, type DocsSiteLink, type DocsSiteSection, type DocsSiteSpace, type DocsSiteTopology } from "./topology";

export * from "./topology";

// ---- Component -------------------------------------------------------------------------------------

/** A GitBook docs site with its sections, site spaces and share links, from one topology object. */
export class DocsSite extends pulumi.ComponentResource {
  /** The Site resource (for its other outputs, or to depend on it). */
  readonly site: Site;
  /** The SiteSection resources, by section key. */
  readonly sections: Readonly<Record<string, SiteSection>>;
  /** The SiteSpace resources, by `<sectionKey>/<siteSpaceKey>`. */
  readonly siteSpaces: Readonly<Record<string, SiteSpace>>;
  /** The ShareLink resources, by share link key. */
  readonly shareLinks: Readonly<Record<string, ShareLink>>;
  /** The SiteSectionGroup resources, by group key. */
  readonly groups: Readonly<Record<string, SiteSectionGroup>>;
  /** The SiteExternalLink resources, by link key. */
  readonly links: Readonly<Record<string, SiteExternalLink>>;
  /** The Space resources the topology creates, by `<sectionKey>` or `<sectionKey>/<siteSpaceKey>` (named `<name>/spaces/<key>`). */
  readonly spaces: Readonly<Record<string, Space>>;
  /** The SiteAdaptiveSchema resource, when the topology declares `visitorSchema`. */
  readonly visitorSchema?: SiteAdaptiveSchema;
  /** The SiteCustomization resource, when the topology declares `branding`. */
  readonly branding?: SiteCustomization;
  /** The SiteStructureOrder resource, unless `order` is `unmanaged`. */
  readonly order?: SiteStructureOrder;
  /** The SitePublication resource, when the topology declares `site.published`. */
  readonly publication?: SitePublication;
  /** The SiteRedirects child, when the topology lists `redirects`. */
  readonly redirects?: SiteRedirects;
  /** The AccessList child, when the topology declares `access`. */
  readonly access?: AccessList;
  /** The SiteVisitorAuth child, when the topology declares `visitorAuth` (its `privateKey` output is a secret). */
  readonly visitorAuth?: SiteVisitorAuth;
  /** The SiteCustomHostname child, when the topology declares `customHostname` (its `status` and `isActive` outputs say how GitBook serves it). */
  readonly customHostname?: SiteCustomHostname;
  /** The GitSyncInstallation child, when the topology declares `gitSync` (the navigation then comes from the repository). */
  readonly gitSync?: GitSyncInstallation;

  /** ID of the site. */
  readonly siteId: pulumi.Output<string>;
  /** The site's links; `published` is where readers find it. */
  readonly siteUrls: pulumi.Output<SiteOutputs["urls"]>;
  /** Section ID by section key. */
  readonly sectionIds: pulumi.Output<Record<string, string>>;
  /**
   * Site space ID by `<sectionKey>` (the space the section was created with) and by
   * `<sectionKey>/<siteSpaceKey>` (the section's other site spaces).
   */
  readonly siteSpaceIds: pulumi.Output<Record<string, string>>;
  /** Share link URL by key. A secret: each URL carries the key that opens the site. */
  readonly shareLinkUrls: pulumi.Output<Record<string, string>>;

  constructor(name: string, topology: DocsSiteTopology, opts?: pulumi.ComponentResourceOptions) {
    // Before registering anything: a wrong topology must not leave a half-registered component.
    const problems = validateTopology(topology);
    if (problems.length) {
      throw programError(`DocsSite "${name}": ${problems.map((p) => p.message).join("; ")}`);
    }
    const planned = plannedSpaces(name, topology);
    super("gitbook:components:DocsSite", name, {}, opts);
    const parent = { parent: this };
    const org = topology.site.organizationId;
    const withOrg = org === undefined ? {} : { organizationId: org };

    // Published last, by the SitePublication below, rather than with the Site (see the header).
    const { published, ...siteArgs } = topology.site;
    this.site = new Site(name, siteArgs, parent);
    const siteId = this.site.id;

    const sections: Record<string, SiteSection> = {};
    const siteSpaces: Record<string, SiteSpace> = {};
    const groups: Record<string, SiteSectionGroup> = {};
    const links: Record<string, SiteExternalLink> = {};
    const spaces: Record<string, Space> = {};
    /** The options of a child named `<name>/<key>` whose entry may have had other keys. */
    const renamable = (e: Keyed, prefix = ""): pulumi.CustomResourceOptions => ({ parent: this, ...aliased(formerNames(name, prefix, e)) });
    /** The space an entry shows: the given ID, or a Space child created for it (see plannedSpaces). */
    const spaceOf = (key: string, e: { spaceId?: pulumi.Input<string>; space?: DocsSiteSpace }): pulumi.Input<string> => {
      if (!e.space) return e.spaceId!;
      const plan = planned.get(key)!;
      const { key: _key, formerKeys: _former, retainOnDelete, ...args } = e.space;
      spaces[key] = new Space(plan.name, { ...withOrg, ...args }, { parent: this, ...aliased(plan.aliases), ...(retainOnDelete ? { retainOnDelete } : {}) });
      return spaces[key].id;
    };
    const addLink = (l: DocsSiteLink, groupId?: pulumi.Input<string>, after?: pulumi.Resource): SiteExternalLink =>
      (links[l.key] = new SiteExternalLink(
        `${name}/${l.key}`,
        { ...withOrg, siteId, title: l.title, url: l.url, ...passThrough(externalLinkDef, l), ...defined({ groupId }) },
        { ...renamable(l), ...(after ? { dependsOn: [after] } : {}) },
      ));
    /** The site-wide `redirectOldPaths`, for an entry that does not set its own `redirectOldPath`. */
    const movedPaths = (e: { redirectOldPath?: unknown }) => (topology.redirectOldPaths === true && e.redirectOldPath === undefined ? { redirectOldPath: true } : {});
    /** The space each section was created with, by section key: its own site space shows it. */
    const sectionSpaces: Record<string, pulumi.Input<string>> = {};
    const addSection = (s: DocsSiteSection, groupId?: pulumi.Input<string>): SiteSection => {
      const spaceId = (sectionSpaces[s.key] = spaceOf(s.key, s));
      const section = new SiteSection(
        `${name}/${s.key}`,
        {
          ...withOrg,
          siteId,
          spaceId,
          ...passThrough(sectionDef, s),
          ...movedPaths(s),
          ...defined({ groupId }),
          ...(s.default ? { default: true } : {}),
        },
        renamable(s),
      );
      sections[s.key] = section;
      for (const ss of s.siteSpaces ?? []) {
        siteSpaces[`${s.key}/${ss.key}`] = new SiteSpace(
          `${name}/${s.key}/${ss.key}`,
          {
            ...withOrg,
            siteId,
            sectionId: section.id,
            spaceId: spaceOf(`${s.key}/${ss.key}`, ss),
            ...passThrough(siteSpaceDef, ss),
            ...movedPaths(ss),
            ...(ss.default ? { default: true } : {}),
          },
          { parent: this, ...aliased(siteSpaceNames(name, s, ss).slice(1)) },
        );
      }
      return section;
    };

    // Declaration order is navigation order: each container's item IDs, in order, for the order child.
    const topItems: (() => pulumi.Output<string>)[] = [];
    const groupOrders: { groupId: pulumi.Output<string>; items: pulumi.Output<string>[] }[] = [];
    // GitBook takes external links only in a site made of sections: a top-level link waits for the
    // first section or group (a link in a group waits for its group already).
    const topLinks: DocsSiteLink[] = [];
    let firstContainer: pulumi.Resource | undefined;
    for (const e of topology.sections) {
      if (e.type === "group") {
        const group = new SiteSectionGroup(
          `${name}/${e.key}`,
          // The entry's `sections` are its children, not the group's `sections` input (their IDs).
          { ...withOrg, siteId, title: e.title, ...passThrough(sectionGroupDef, e, ["sections"]) },
          renamable(e),
        );
        groups[e.key] = group;
        firstContainer ??= group;
        topItems.push(() => group.id);
        const items = e.sections.map((item) => (item.type === "link" ? addLink(item, group.id) : addSection(item, group.id)).id);
        if (items.length > 0) groupOrders.push({ groupId: group.id, items });
      } else if (e.type === "link") {
        topLinks.push(e);
        topItems.push(() => links[e.key]!.id);
      } else {
        const section = addSection(e);
        firstContainer ??= section;
        topItems.push(() => section.id);
      }
    }
    for (const link of topLinks) addLink(link, undefined, firstContainer);

    if (topology.visitorSchema) {
      this.visitorSchema = new SiteAdaptiveSchema(
        `${name}/visitor-schema`,
        { ...withOrg, siteId, jsonSchema: topology.visitorSchema, ...defined({ adoptId: topology.visitorSchemaAdoptId }) },
        parent,
      );
    }

    if (topology.branding) this.branding = new SiteCustomization(`${name}/branding`, { ...withOrg, siteId, ...topology.branding }, parent);
    if (topology.access) this.access = new AccessList(`${name}/access`, { ...withOrg, siteId, ...topology.access }, parent);
    if (topology.visitorAuth) this.visitorAuth = new SiteVisitorAuth(`${name}/visitor-auth`, { ...withOrg, siteId, ...topology.visitorAuth }, parent);
    if (topology.customHostname) this.customHostname = new SiteCustomHostname(`${name}/hostname`, { ...withOrg, siteId, ...topology.customHostname }, parent);

    // The repository's gitbook-docs.yaml holds the navigation, its order too (validateTopology refused `sections` beside it).
    if (topology.gitSync) this.gitSync = new GitSyncInstallation(`${name}/git-sync`, { ...withOrg, siteId, ...topology.gitSync }, parent);

    if (topology.order !== "unmanaged" && !topology.gitSync) {
      // Each section's own space first, then its site spaces as declared.
      const sectionOrders = Object.entries(sections).flatMap(([key, section]) => {
        const own = Object.entries(siteSpaces).filter(([k]) => k.startsWith(`${key}/`));
        if (own.length === 0) return [];
        // A plain list of the resources' `id` outputs, so that plans name each by title (the order's
        // `navigation`); the section's own site space, absent once removed outside Pulumi, as null,
        // named by the space it shows (by the section's name when that space is given by ID).
        const ownSiteSpace = section.siteSpaceId.apply((x) => x ?? null) as pulumi.Output<string>;
        const ids = [nameAs(ownSiteSpace, nameOf(sectionSpaces[key]) ?? { name: `${name}/${key}` }), ...own.map(([, ss]) => ss.id)];
        return [{ sectionId: section.id, siteSpaces: ids }];
      });
      this.order = new SiteStructureOrder(
        `${name}/order`,
        { ...withOrg, siteId, items: topItems.map((id) => id()), ...(groupOrders.length ? { groups: groupOrders } : {}), ...(sectionOrders.length ? { sections: sectionOrders } : {}) },
        parent,
      );
    }

    const shareLinks: Record<string, ShareLink> = {};
    for (const l of topology.shareLinks ?? []) {
      shareLinks[l.key] = new ShareLink(`${name}/${l.key}`, { ...withOrg, siteId, name: l.name, ...passThrough(shareLinkDef, l) }, renamable(l));
    }

    // A plain boolean (validateTopology refuses an Output here): whether to manage publication at all is decided now.
    if (typeof published === "boolean") {
      const children: pulumi.Resource[] = [
        ...Object.values(sections),
        ...Object.values(siteSpaces),
        ...Object.values(groups),
        ...Object.values(links),
        ...Object.values(shareLinks),
        ...(this.order ? [this.order] : []),
        ...(this.visitorSchema ? [this.visitorSchema] : []),
        // Live once branded, not in GitBook's default look first.
        ...(this.branding ? [this.branding] : []),
        // Visitors are asked to authenticate as the declared backend says from the first moment.
        ...(this.visitorAuth ? [this.visitorAuth] : []),
        // Live once its navigation is synced from the repository.
        ...(this.gitSync ? [this.gitSync] : []),
      ];
      this.publication = new SitePublication(`${name}/publication`, { ...withOrg, siteId, published }, { parent: this, dependsOn: children });
    }

    // After the publication: a `path` destination is sent as the published site's URL followed by the path.
    if (topology.redirects !== undefined) {
      this.redirects = new SiteRedirects(`${name}/redirects`, { ...withOrg, siteId, rules: topology.redirects, ...defined({ adoptId: topology.redirectsAdoptId }) }, { parent: this, ...(this.publication ? { dependsOn: [this.publication] } : {}) });
    }

    this.sections = sections;
    this.siteSpaces = siteSpaces;
    this.shareLinks = shareLinks;
    this.groups = groups;
    this.links = links;
    this.spaces = spaces;
    this.siteId = siteId;
    // Where readers find the site is the publication's fact when a SitePublication owns it (see Site).
    const publishedUrl = this.publication?.publishedUrl;
    this.siteUrls = publishedUrl
      ? pulumi.all([this.site.urls, publishedUrl]).apply(([urls, published]) => ({ ...urls, ...(published ? { published } : {}) }))
      : this.site.urls;
    this.sectionIds = byKey(Object.entries(sections).map(([k, r]) => [k, r.id]));
    this.siteSpaceIds = byKey([
      ...Object.entries(sections).map(([k, r]) => [k, r.siteSpaceId] as const),
      ...Object.entries(siteSpaces).map(([k, r]) => [k, r.id] as const),
    ]);
    this.shareLinkUrls = pulumi.secret(byKey(Object.entries(shareLinks).map(([k, r]) => [k, r.url])));

    this.registerOutputs({
      siteId: this.siteId,
      siteUrls: this.siteUrls,
      sectionIds: this.sectionIds,
      siteSpaceIds: this.siteSpaceIds,
      shareLinkUrls: this.shareLinkUrls,
    });
  }
}

type Keyed = { key: string; formerKeys?: string[] };

const keysOf = (e: Keyed): string[] => [e.key, ...(e.formerKeys ?? [])];

/** `<name>/<prefix><former key>` for each former key of the entry. */
function formerNames(name: string, prefix: string, e: Keyed): string[] {
  return (e.formerKeys ?? []).map((k) => `${name}/${prefix}${k}`);
}

/** Every name a site space had, its current one first: each key its section had, with each key it had. */
function siteSpaceNames(name: string, section: Keyed, ss: Keyed): string[] {
  return keysOf(section).flatMap((a) => keysOf(ss).map((b) => `${name}/${a}/${b}`));
}

function aliased(names: readonly string[]): pulumi.CustomResourceOptions {
  return names.length ? { aliases: names.map((n) => ({ name: n })) } : {};
}

/**
 * The Space children, by `<sectionKey>` or `<sectionKey>/<siteSpaceKey>`: each named by its key alone
 * (`<name>/spaces/<key>`), with the names it had under former keys and where earlier versions put it
 * (named by its place). Computed before anything is registered, so two spaces claiming one old name
 * fail the construction instead of handing the engine an ambiguous alias.
 *
 * A site space's place in an earlier version named its section, and the entry may have moved to
 * another section in the very `up` that upgrades: its old name is then under a section it no longer
 * stands in, and without an alias the engine would delete that Space (its pages to the trash) and
 * create an empty one. So a created space of a site space is also known as `<sectionKey>/<key>/space`
 * under every other section key of the topology (current or former). Those names are only guesses
 * at where it stood: one claimed by another entry's own names, or by two such guesses (site-space
 * keys are unique only within a section), is left out rather than refused, and the move then needs
 * the first upgrade on its own, as before.
 */
function plannedSpaces(name: string, topology: DocsSiteTopology): Map<string, { name: string; aliases: string[] }> {
  const plan = new Map<string, { name: string; aliases: string[] }>();
  const guesses = new Map<string, string[]>();
  const sections: DocsSiteSection[] = topology.sections.flatMap((e) => (e.type === "group" ? e.sections.filter((i): i is DocsSiteSection => i.type !== "link") : e.type === "link" ? [] : [e]));
  const sectionKeys = sections.flatMap(keysOf);
  const add = (key: string, e: Keyed & { space?: DocsSiteSpace }, placed: string[]) => {
    if (!e.space) return;
    const own = e.space.key ?? e.key;
    const former = [...(e.space.formerKeys ?? []), ...(e.space.key === undefined ? (e.formerKeys ?? []) : [])];
    plan.set(key, { name: `${name}/spaces/${own}`, aliases: [...former.map((k) => `${name}/spaces/${k}`), ...placed.map((p) => `${p}/space`)] });
  };
  for (const s of sections) {
    add(s.key, s, keysOf(s).map((k) => `${name}/${k}`));
    for (const ss of s.siteSpaces ?? []) {
      add(`${s.key}/${ss.key}`, ss, siteSpaceNames(name, s, ss));
      if (ss.space) guesses.set(`${s.key}/${ss.key}`, sectionKeys.flatMap((a) => keysOf(ss).map((b) => `${name}/${a}/${b}/space`)));
    }
  }
  const owner = new Map<string, string>();
  for (const [key, p] of plan) {
    for (const n of [p.name, ...p.aliases]) {
      const other = owner.get(n);
      if (other !== undefined && other !== key) {
        throw programError(
          `DocsSite "${name}": the spaces created for ${other} and ${key} would both be known as "${n}" (a name or the name an earlier version gave it), so the engine could not tell which space is which; set a distinct \`space.key\` on one of them.`,
        );
      }
      owner.set(n, key);
    }
  }
  const guessedBy = new Map<string, Set<string>>();
  for (const [key, names] of guesses) for (const n of names) if (!owner.has(n)) guessedBy.set(n, (guessedBy.get(n) ?? new Set()).add(key));
  for (const [n, keys] of guessedBy) if (keys.size === 1) plan.get([...keys][0]!)!.aliases.push(n);
  return plan;
}

/** Keys to values; a key whose value is absent (a section's site space removed outside Pulumi) is left out. */
function byKey(entries: readonly (readonly [string, pulumi.Output<string | undefined>])[]): pulumi.Output<Record<string, string>> {
  return pulumi
    .all(entries.map(([, v]) => v))
    .apply((values) => Object.fromEntries(entries.flatMap(([k], i) => (values[i] === undefined ? [] : [[k, values[i]]]))));
}

/** The entries whose value is not undefined: an absent field must stay absent in the resource's inputs. */
function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * What an entry passes to its child: each setting it holds that the child's kind declares as an input,
 * so a field added to the kind passes through with no change here (the topology's schema, which takes
 * it from the kind's, lets it in). The component supplies the site, section, group, space and default
 * itself; `also` names further entry keys that mean something else on the entry.
 */
function passThrough(kind: { schema: z.ZodObject }, entry: object, also: readonly string[] = []): Record<string, unknown> {
  const supplied = ["organizationId", "siteId", "sectionId", "groupId", "spaceId", "default", ...also];
  return defined(Object.fromEntries(Object.entries(entry).filter(([k]) => k in kind.schema.shape && !supplied.includes(k))));
}
