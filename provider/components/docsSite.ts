/**
 * DocsSite: a whole docs site declared as one topology object — the site, its sections, the extra
 * spaces each section shows, and share links — created as child resources of one component.
 *
 * Decisions that shape it:
 * - Child names come from the keys in the topology (`<name>/<sectionKey>/<siteSpaceKey>`), never
 *   from positions, so reordering sections or site spaces in the program replaces nothing. Keys may
 *   not contain `/`, so derived names cannot collide.
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
 *   DocsSite without recreating anything (what `pulumi-gitbook import --style docs-site` writes).
 */
import * as pulumi from "@pulumi/pulumi";
import { ShareLink } from "../resources/shareLink";
import { Site, type SiteOutputs } from "../resources/site";
import { SiteSection } from "../resources/siteSection";
import { SiteSpace } from "../resources/siteSpace";
import { validateTopology, type DocsSiteTopology } from "./topology";

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
      throw new pulumi.RunError(`DocsSite "${name}": ${problems.map((p) => p.message).join("; ")}`);
    }
    super("gitbook:components:DocsSite", name, {}, opts);
    const parent = { parent: this };
    const org = topology.site.organizationId;
    const withOrg = org === undefined ? {} : { organizationId: org };

    this.site = new Site(name, topology.site, parent);
    const siteId = this.site.id;

    const sections: Record<string, SiteSection> = {};
    const siteSpaces: Record<string, SiteSpace> = {};
    for (const s of topology.sections) {
      const section = new SiteSection(
        `${name}/${s.key}`,
        {
          ...withOrg,
          siteId,
          spaceId: s.spaceId,
          ...defined({ title: s.title, path: s.path, icon: s.icon, description: s.description, condition: s.condition, adoptId: s.adoptId }),
          ...(s.default ? { default: true } : {}),
        },
        parent,
      );
      sections[s.key] = section;
      for (const ss of s.siteSpaces ?? []) {
        siteSpaces[`${s.key}/${ss.key}`] = new SiteSpace(
          `${name}/${s.key}/${ss.key}`,
          {
            ...withOrg,
            siteId,
            sectionId: section.id,
            spaceId: ss.spaceId,
            ...defined({ path: ss.path, condition: ss.condition, adoptId: ss.adoptId }),
            ...(ss.default ? { default: true } : {}),
          },
          parent,
        );
      }
    }

    const shareLinks: Record<string, ShareLink> = {};
    for (const l of topology.shareLinks ?? []) {
      shareLinks[l.key] = new ShareLink(`${name}/${l.key}`, { ...withOrg, siteId, name: l.name, ...defined({ active: l.active, adoptId: l.adoptId }) }, parent);
    }

    this.sections = sections;
    this.siteSpaces = siteSpaces;
    this.shareLinks = shareLinks;
    this.siteId = siteId;
    this.siteUrls = this.site.urls;
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
