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
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { organizationIdField } from "../framework/check";
import { ShareLink, shareLinkSchema } from "../resources/shareLink";
import { Site, siteSchema, type SiteArgs, type SiteOutputs } from "../resources/site";
import { SiteSection, siteSectionSchema } from "../resources/siteSection";
import { SiteSpace, siteSpaceSchema } from "../resources/siteSpace";

// ---- Topology --------------------------------------------------------------------------------------

type In<T> = pulumi.Input<T>;

export interface DocsSiteSiteSpace {
  key: string;
  spaceId: In<string>;
  path?: In<string>;
  condition?: In<string>;
  default?: boolean;
}

export interface DocsSiteSection {
  key: string;
  spaceId: In<string>;
  title?: In<string>;
  path?: In<string>;
  icon?: In<string>;
  description?: In<string>;
  condition?: In<string>;
  default?: boolean;
  siteSpaces?: DocsSiteSiteSpace[];
}

export interface DocsSiteShareLink {
  key: string;
  name: In<string>;
  active?: In<boolean>;
}

export interface DocsSiteTopology {
  site: SiteArgs;
  sections: DocsSiteSection[];
  shareLinks?: DocsSiteShareLink[];
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const key = (what: string) =>
  z
    .string({ error: "must be a string" })
    .regex(KEY_PATTERN, "must be 1 to 64 letters, digits, dots, hyphens or underscores, starting with a letter or digit")
    .describe(
      `Stable identifier of the ${what} within the topology. The child resource's name is derived from it, so keep it when reordering; changing it replaces the ${what}.`,
    );

const plainDefault = (what: string) =>
  z
    .boolean({ error: "must be a plain boolean (the component picks the default when it is constructed)" })
    .optional()
    .describe(`Makes this the default ${what}. At most one may be marked; with none, GitBook keeps its own choice.`);

export const docsSiteSiteSpaceSchema = z.strictObject({
  key: key("site space"),
  spaceId: siteSpaceSchema.shape.spaceId,
  path: siteSpaceSchema.shape.path,
  condition: siteSpaceSchema.shape.condition,
  default: plainDefault("site space of its section (instead of the section's own space)"),
});

export const docsSiteSectionSchema = z.strictObject({
  key: key("section"),
  spaceId: siteSectionSchema.shape.spaceId,
  title: siteSectionSchema.shape.title,
  path: siteSectionSchema.shape.path,
  icon: siteSectionSchema.shape.icon,
  description: siteSectionSchema.shape.description,
  condition: siteSectionSchema.shape.condition,
  default: plainDefault("section of the site"),
  siteSpaces: z
    .array(docsSiteSiteSpaceSchema, { error: "must be a list" })
    .optional()
    .describe("Further spaces the section shows (versions, languages, audiences), each a SiteSpace in this section."),
});

export const docsSiteShareLinkSchema = z.strictObject({
  key: key("share link").describe(
    "Stable identifier of the share link within the topology, required. The child resource's name is derived from it, not from `name`, so renaming the link updates it in place and its URL keeps working; changing the key replaces the link (a new URL).",
  ),
  name: shareLinkSchema.shape.name,
  active: shareLinkSchema.shape.active.optional(),
});

export const docsSiteTopologySchema = z
  .strictObject({
    site: z
      .strictObject({ ...siteSchema.shape, organizationId: organizationIdField.optional() })
      .describe("The Site's arguments (see Site)."),
    sections: z
      .array(docsSiteSectionSchema, { error: "must be a list" })
      .min(1, "must list at least one section")
      .describe("The site's sections, in the order they are declared."),
    shareLinks: z
      .array(docsSiteShareLinkSchema, { error: "must be a list" })
      .optional()
      .describe("Share links to the site, each with a stable `key`; the site's `visibility` must then be declared as `share-link`."),
  });

type Issue = { path: PropertyKey[]; message: string };

/** The object entries of a list with their positions (zod has already reported anything else). */
const entries = (v: unknown): [Record<string, unknown>, number][] =>
  Array.isArray(v) ? v.flatMap((x, i): [Record<string, unknown>, number][] => (x && typeof x === "object" ? [[x, i]] : [])) : [];

/**
 * The rules that relate entries to each other. They run on the raw topology, not inside zod, because
 * zod skips refinements once a field fails, and a field holding an Output fails the plain schema.
 */
function relations(t: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const issue = (path: PropertyKey[], message: string) => issues.push({ path, message });
  const firstAt = new Map<unknown, number>();
  let defaultSection: number | undefined;
  for (const [s, i] of entries(t.sections)) {
    // A missing or malformed key is zod's to report; only well-formed keys can collide.
    const prior = firstAt.get(s.key);
    if (prior !== undefined) issue(["sections", i, "key"], `"${String(s.key)}" is already the key of sections[${prior}]`);
    else if (typeof s.key === "string") firstAt.set(s.key, i);
    if (s.default === true) {
      if (defaultSection !== undefined) issue(["sections", i, "default"], `is true but sections[${defaultSection}] is already the default section`);
      else defaultSection = i;
    }
    const ssFirst = new Map<unknown, number>();
    // A section shows each space once: GitBook would add a second copy, and SiteSpace refuses to.
    const spaces = new Map<unknown, string>(typeof s.spaceId === "string" ? [[s.spaceId, `sections[${i}].spaceId (the section's own space)`]] : []);
    let defaultSs: number | undefined;
    for (const [ss, j] of entries(s.siteSpaces)) {
      const at = ["sections", i, "siteSpaces", j];
      const p = ssFirst.get(ss.key);
      if (p !== undefined) issue([...at, "key"], `"${String(ss.key)}" is already the key of sections[${i}].siteSpaces[${p}]`);
      else if (typeof ss.key === "string") ssFirst.set(ss.key, j);
      if (typeof ss.spaceId === "string") {
        const same = spaces.get(ss.spaceId);
        if (same) issue([...at, "spaceId"], `shows the same space as ${same}; a section shows each space once`);
        else spaces.set(ss.spaceId, `sections[${i}].siteSpaces[${j}].spaceId`);
      }
      if (ss.default === true) {
        if (defaultSs !== undefined) issue([...at, "default"], `is true but sections[${i}].siteSpaces[${defaultSs}] is already the default of this section`);
        else defaultSs = j;
      }
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
  const site = t.site && typeof t.site === "object" ? (t.site as Record<string, unknown>) : {};
  const visibility = site.visibility;
  if (links.length && (visibility === undefined || (typeof visibility === "string" && visibility !== "share-link"))) {
    issue(
      ["shareLinks"],
      `open only a site whose visibility is share-link, but site.visibility is ${visibility === undefined ? "not set (a new site is public)" : visibility}`,
    );
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
const STRUCTURAL = new Set<PropertyKey>(["site", "sections", "siteSpaces", "shareLinks", "key", "default"]);

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
  if (topology && typeof topology === "object") issues.push(...relations(topology as Record<string, unknown>));
  return issues.map((i) => {
    const path = pathText(i.path);
    return { path, message: path ? `${path} ${i.message}` : i.message };
  });
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const k of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

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
          ...defined({ title: s.title, path: s.path, icon: s.icon, description: s.description, condition: s.condition }),
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
            ...defined({ path: ss.path, condition: ss.condition }),
            ...(ss.default ? { default: true } : {}),
          },
          parent,
        );
      }
    }

    const shareLinks: Record<string, ShareLink> = {};
    for (const l of topology.shareLinks ?? []) {
      shareLinks[l.key] = new ShareLink(`${name}/${l.key}`, { ...withOrg, siteId, name: l.name, ...defined({ active: l.active }) }, parent);
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

function byKey(entries: readonly (readonly [string, pulumi.Output<string>])[]): pulumi.Output<Record<string, string>> {
  return pulumi.all(entries.map(([, v]) => v)).apply((values) => Object.fromEntries(entries.map(([k], i) => [k, values[i]!])));
}

/** The entries whose value is not undefined: an absent field must stay absent in the resource's inputs. */
function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
