/**
 * The DocsSite topology: its TypeScript shape, its zod schema (field limits are the resources' own
 * schemas, stated once) and the check that runs when the component is constructed, naming each
 * mistake by its path (`sections[2].siteSpaces[0].path must be 1 to 100 characters`). Relations
 * between entries (unique keys, one default, share links needing a share-link site) are checked
 * here too. A value known only at deployment time (an Output or a Promise) is left to the
 * resource's own check; the structure (lists, keys, `default` flags) must be plain values.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { organizationIdField } from "../framework/fields";
import { definition as shareLink } from "../resources/shareLink";
import { definition as site, type SiteArgs } from "../resources/site";
import { definition as siteSection } from "../resources/siteSection";
import { definition as siteSpace } from "../resources/siteSpace";

type In<T> = pulumi.Input<T>;

export interface DocsSiteSiteSpace {
  key: string;
  spaceId: In<string>;
  path?: In<string>;
  condition?: In<string>;
  default?: boolean;
  adoptId?: In<string>;
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
  adoptId?: In<string>;
  siteSpaces?: DocsSiteSiteSpace[];
}

export interface DocsSiteShareLink {
  key: string;
  name: In<string>;
  active?: In<boolean>;
  adoptId?: In<string>;
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
  spaceId: siteSpace.schema.shape.spaceId,
  path: siteSpace.schema.shape.path,
  condition: siteSpace.schema.shape.condition,
  default: plainDefault("site space of its section (instead of the section's own space)"),
  adoptId: siteSpace.schema.shape.adoptId,
});

export const docsSiteSectionSchema = z.strictObject({
  key: key("section"),
  spaceId: siteSection.schema.shape.spaceId,
  title: siteSection.schema.shape.title,
  path: siteSection.schema.shape.path,
  icon: siteSection.schema.shape.icon,
  description: siteSection.schema.shape.description,
  condition: siteSection.schema.shape.condition,
  default: plainDefault("section of the site"),
  adoptId: siteSection.schema.shape.adoptId,
  siteSpaces: z
    .array(docsSiteSiteSpaceSchema, { error: "must be a list" })
    .optional()
    .describe("Further spaces the section shows (versions, languages, audiences), each a SiteSpace in this section."),
});

export const docsSiteShareLinkSchema = z.strictObject({
  key: key("share link").describe(
    "Stable identifier of the share link within the topology, required. The child resource's name is derived from it, not from `name`, so renaming the link updates it in place and its URL keeps working; changing the key replaces the link (a new URL).",
  ),
  name: shareLink.schema.shape.name,
  active: shareLink.schema.shape.active.optional(),
  adoptId: shareLink.schema.shape.adoptId,
});

export const docsSiteTopologySchema = z
  .strictObject({
    site: z
      .strictObject({ ...site.schema.shape, organizationId: organizationIdField.optional() })
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
