/**
 * The segments a published URL is made of: a site's `basename` on the organization's hostname, a
 * section's `path` in its site, a site space's `path` in its section. Two objects of one container at
 * one path are both published at one URL, where a visitor reaches only one of them; a path GitBook
 * stores as written but a URL cannot hold as written (a space, a slash) deploys, and then is a
 * different address than the one declared. Both are refused at preview, before any request.
 *
 * What a segment may hold: GitBook's spec gives these fields only lengths (SiteSectionPath,
 * SiteSpacePath, SiteBasename: 1 to 100). The one pattern it gives for a site's paths is a redirect
 * rule's source (SiteRedirectSourcePath), whose segments are letters, digits, `-._~+` or %-escapes: a
 * segment here is one of those, without %-escapes (a path is stored as written and escaped into the
 * URL, so `%20` would be published as `%2520`) and neither `.` nor `..` (which a URL resolves away).
 * Every path GitBook derives from a title (lower-case letters, digits and hyphens) is one. It is also
 * what a redirect rule from the old path needs (redirectOldPath).
 *
 * Siblings are checked in the program's process, as the classes are constructed (ResourceSpec.inProgram):
 * a provider call sees one resource, and at preview not even its parent's ID. The program sees each
 * parent as the resource its ID comes from (`site.id` names the Site resource whether or not its ID is
 * known yet), or as the literal ID. A path or parent given as an Output not traced to one resource is
 * left alone (a literal ID and a resource's output may be one object: they are not compared either).
 * - A section's path is unique among the sections of its site, whatever group holds them: a group has
 *   no path, and a section in one is published at the site's top level all the same.
 * - A site space's path is unique among the site spaces of its section (the one its SiteSection was
 *   made with has no declared path, so it is not compared).
 * - A site's basename is unique among the sites of its organization (the resource's `organizationId`,
 *   else `gitbook:organizationId`).
 */
import * as pulumi from "@pulumi/pulumi";
import { text } from "../framework/fields";
import { programError } from "../framework/program";
import { resourceOf } from "../framework/shown";

/** One segment of a published URL (see the header). */
export const URL_SEGMENT = /^(?!\.\.?$)[A-Za-z0-9\-._~+]+$/;

/** A path segment field, 1 to `max` characters of URL_SEGMENT. */
export function urlSegment(max: number) {
  return text({
    min: 1,
    max,
    pattern: URL_SEGMENT,
    patternHint: "one segment of a URL: letters, digits and `-._~+` only (e.g. `change-log`: no space, slash, %-escape or other character), and not `.` or `..`",
  });
}

/** What the field's description says of its characters. */
export const URL_SEGMENT_RULE = "letters, digits and `-._~+` only (no space, slash or other character; not `.` or `..`)";

/** Where a kind's path segment must be unique. */
export interface PathScope {
  /** The field, e.g. `path`. */
  field: string;
  /** The input naming the container, and the kind of resource whose `id` it is. */
  parent: { field: string; kind: string };
  /** What the siblings share, e.g. `the same site`. */
  within: string;
  /** What the kind's objects are called, plural. */
  plural: string;
}

export const PATH_SCOPES: Readonly<Record<string, PathScope>> = {
  Site: { field: "basename", parent: { field: "organizationId", kind: "Organization" }, within: "the same organization", plural: "sites" },
  SiteSection: { field: "path", parent: { field: "siteId", kind: "Site" }, within: "the same site (a section group has no path of its own)", plural: "sections" },
  SiteSpace: { field: "path", parent: { field: "sectionId", kind: "SiteSection" }, within: "the same section", plural: "site spaces" },
};

/**
 * The container the args name: the resource its ID comes from, or the literal ID (tagged with its
 * kind); a Site without `organizationId`, the stack's default organization (as the provider's check
 * fills it in). Undefined when it cannot be traced.
 */
function containerOf(scope: PathScope, args: Record<string, unknown>): unknown {
  const ref = args[scope.parent.field];
  if (typeof ref === "string") return `${scope.parent.kind}:${ref}`;
  if (ref !== undefined || scope.parent.kind !== "Organization") return resourceOf(ref, scope.parent.kind);
  return `Organization:${new pulumi.Config("gitbook").get("organizationId") ?? process.env.GITBOOK_ORGANIZATION_ID ?? "(the stack's)"}`;
}

/** Per kind, per container, the declarer of each path. */
const taken = new Map<string, Map<unknown, Map<string, string>>>();

/** The inProgram check of a kind with a path segment: refuses a second resource at a path its container has already. */
export function uniquePath(kind: "Site" | "SiteSection" | "SiteSpace"): (name: string, args: Record<string, unknown>) => void {
  const scope = PATH_SCOPES[kind]!;
  return (name, args) => {
    const path = args[scope.field];
    const container = containerOf(scope, args);
    if (typeof path !== "string" || container === undefined) return;
    let byContainer = taken.get(kind);
    if (!byContainer) taken.set(kind, (byContainer = new Map()));
    let paths = byContainer.get(container);
    if (!paths) byContainer.set(container, (paths = new Map()));
    const first = paths.get(path);
    if (first !== undefined && first !== name) {
      throw programError(
        `${kind} "${name}": ${scope.field}: ${kind} "${first}" in ${scope.within} has the ${scope.field} ${JSON.stringify(path)} already: two ${scope.plural} at one URL, of which a visitor reaches only one. ` +
          `Give each its own ${scope.field}. Nothing was sent.`,
      );
    }
    paths.set(path, name);
  };
}
