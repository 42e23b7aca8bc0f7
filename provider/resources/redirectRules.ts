/**
 * What SiteRedirect (one rule) and SiteRedirects (a site's whole set) share: a rule's fields, its
 * wire form, and the checks a reviewer would want before any request.
 *
 * A rule sends visitors from a path of the site (its source) to a destination: another path of the
 * same site, a URL, a section, a site space, or a page of a site space. GitBook keeps at most one live
 * and one draft rule per source.
 *
 * A `path` destination is this provider's: GitBook's API takes a URL, so the path is sent as the
 * site's published URL followed by the path (the site must be published), and read back as the path
 * while the URL still starts with the site's address. It is what makes chains and loops decidable
 * before any request: a rule whose destination path is another rule's source sends visitors through
 * two redirects (a chain: /a → /b, then /b → /c), or round in circles (a loop: /a → /b → /a). A URL
 * destination is never taken for one of the site's paths (a site moving to another domain redirects
 * /a to https://new.example.com/a). Both are refused at preview, naming the rules: within a
 * SiteRedirects list (check), and across the SiteRedirect resources of one site in the program
 * (redirectDeclares, in the program's process).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { apiObject, p } from "../client";
import { httpUrl, id, text } from "../framework/fields";
import type { Ctx } from "../framework/resource";
import { resourceOf } from "../framework/shown";
import { sitePaths } from "./sitePaths";

/** Where GitBook answers for a site's redirect rules (both kinds). */
export const paths = {
  redirects: (org: string, site: string) => p`/orgs/${org}/sites/${site}/redirects`,
  redirect: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/redirects/${id}`,
};

export const ApiSiteRedirect = z.looseObject({
  object: z.literal("site-redirect"),
  id: z.string(),
  source: z.string(),
  draft: z.boolean(),
  captureWildcard: z.boolean(),
  permanent: z.boolean(),
  destination: z.looseObject({ kind: z.string() }),
  createdAt: z.string(),
});
export type ApiSiteRedirect = z.infer<typeof ApiSiteRedirect>;

/** The answer of the bulk PUT: one result per rule sent, in order. */
export const ApiSiteRedirectResults = z.looseObject({
  results: z.array(z.looseObject({ status: z.string(), source: z.string(), draft: z.boolean().optional(), id: z.string().optional(), error: z.string().optional() })),
});

// ---- Fields ----------------------------------------------------------------------------------------

/** GitBook's SiteRedirectSourcePath. */
export const SOURCE_PATTERN = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;

/** A path of the site without a wildcard: what a `path` destination is. */
export const PATH_PATTERN = /^\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*$/;

export const sourceField = () =>
  text({
    min: 2,
    max: 512,
    pattern: SOURCE_PATTERN,
    patternHint: "a path of the site: `/` then segments of letters, digits, `-._~+` or %-escapes, joined by single `/`, optionally ending in `/*` or `*` (e.g. `/guides/old` or `/blog/*`)",
  }).describe(
    "The path of the site the rule redirects from, at most 512 characters: `/` then segments of letters, digits, `-._~+` or %-escapes (e.g. `/guides/old`), optionally ending in a wildcard `/*` or `*` matching the rest of the path (`/blog/*`).",
  );

const destinationSchema = z
  .strictObject(
    {
      path: text({ min: 2, max: 512, pattern: PATH_PATTERN, patternHint: "a path of the site without wildcard, e.g. `/guides/new`" })
        .optional()
        .describe(
          "Another path of this site, e.g. `/guides/new` (no wildcard), at most 512 characters. Sent as the site's published URL followed by the path, so the site must be published (e.g. by a SitePublication the rule `dependsOn`). Chains and loops through paths are refused at preview.",
        ),
      url: httpUrl(2048).optional().describe("Any page on the web: an absolute http(s) URL, at most 2048 characters. Never taken for a path of this site by the chain and loop checks."),
      siteSectionId: id().optional().describe("A section of the site: pass the SiteSection's `id` output."),
      siteSpaceId: id()
        .optional()
        .describe("A site space of the site (its home page): pass the SiteSpace's `id` output. With `pageId`, the site space holding the page."),
      pageId: id().optional().describe("A page of the site space `siteSpaceId` names, by its GitBook page ID."),
    },
    { error: "must be an object with one of path, url, siteSectionId, siteSpaceId (with pageId for a page)" },
  )
  .superRefine((d, ctx) => {
    const kinds = (["path", "url", "siteSectionId", "siteSpaceId"] as const).filter((k) => d[k] !== undefined);
    if (kinds.length > 1 || (kinds.length === 0 && d.pageId === undefined)) {
      ctx.addIssue({ code: "custom", message: `must name exactly one destination: path, url, siteSectionId or siteSpaceId (got ${kinds.length === 0 ? "none" : kinds.join(" and ")})` });
    }
    if (d.pageId !== undefined && d.siteSpaceId === undefined) ctx.addIssue({ code: "custom", path: ["pageId"], message: "needs siteSpaceId, the site space holding the page" });
  });

export const destinationField = () =>
  destinationSchema.describe(
    "Where the rule sends visitors: exactly one of `path` (another path of this site), `url` (any web page), `siteSectionId` (a section of the site), `siteSpaceId` (a site space), or `siteSpaceId` with `pageId` (a page).",
  );

export const draftRuleField = () =>
  z
    .boolean({ error: "must be a boolean" })
    .default(false)
    .describe("Whether the rule is a draft, not yet applied to visitors. A source may have one live and one draft rule. Changing it replaces the rule.");

export const permanentField = () =>
  z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe("Whether the redirect is permanent: served as HTTP 308 to the public (307 otherwise). A rule created without it is temporary; removing it makes the rule temporary.");

export const captureWildcardField = () =>
  z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe("For a source ending in a wildcard: append what the wildcard matched to the destination URL. Off when absent; removing it turns it off.");

export type Destination = z.output<typeof destinationSchema>;

/** One rule as both resources hold it. */
export interface Rule {
  source: string;
  destination: Destination;
  draft?: boolean;
  permanent?: boolean;
  captureWildcard?: boolean;
}

// ---- Wire form -------------------------------------------------------------------------------------

/** GitBook's SiteRedirectDestination for a declared destination; `siteUrl`, the site's published URL, for a path. */
export function wireDestination(d: Destination, siteUrl?: string): Record<string, string> {
  if (d.path !== undefined) return { kind: "external", url: `${siteUrl}${d.path}` };
  if (d.url !== undefined) return { kind: "external", url: d.url };
  if (d.siteSectionId !== undefined) return { kind: "site-section", siteSectionId: d.siteSectionId };
  if (d.pageId !== undefined) return { kind: "site-page", siteSpaceId: d.siteSpaceId!, pageId: d.pageId };
  return { kind: "site-space", siteSpaceId: d.siteSpaceId! };
}

/**
 * A declared destination for GitBook's. `siteUrl`: the rule declares a path, and this is the site's
 * published URL: a URL under it reads as that path. Unknown kinds (a newer API) read as drift.
 */
export function liveDestination(d: { kind: string } & Record<string, unknown>, siteUrl?: string): Destination {
  const pick = (...keys: (keyof Destination)[]) => Object.fromEntries(keys.filter((k) => typeof d[k] === "string").map((k) => [k, d[k]])) as Destination;
  switch (d.kind) {
    case "external": {
      const url = typeof d.url === "string" ? d.url : "";
      const path = siteUrl !== undefined && url.startsWith(`${siteUrl}/`) ? url.slice(siteUrl.length) : undefined;
      return path !== undefined && PATH_PATTERN.test(path) ? { path } : pick("url");
    }
    case "site-section":
      return pick("siteSectionId");
    case "site-page":
      return pick("siteSpaceId", "pageId");
    case "site-space":
      return pick("siteSpaceId");
    default:
      return { url: `(a ${d.kind} destination this provider does not know)` };
  }
}

/**
 * The site's published URL (no trailing slash), for rules that declare a path; shared between
 * concurrent reads. Fails naming the field when the site is not published, as a path needs its address.
 */
export async function siteUrlFor(ctx: Ctx, org: string, site: string, kind: string): Promise<string> {
  const url = await publishedUrl(ctx, org, site);
  if (url === undefined) {
    throw new Error(
      `${kind}: destination.path: site ${site} has no published URL yet, and a path destination is sent as the site's URL followed by the path. Publish the site first (a SitePublication, with the rule \`dependsOn\` it), or give a \`url\`.`,
    );
  }
  return url;
}

/**
 * The site as a redirect reads it: its `urls`. Not the Site kind's ApiSite: site.ts loads the site-space
 * module, which loads this one (an import cycle).
 */
const ApiSiteUrls = apiObject("site", {});

/** The site's published URL without a trailing slash; undefined while it has none (what a read needs). */
export async function publishedUrl(ctx: Ctx, org: string, site: string): Promise<string | undefined> {
  const url = (await ctx.client.getShared(sitePaths.site(org, site), ApiSiteUrls)).urls?.published;
  return url ? url.replace(/\/+$/, "") : undefined;
}

export const usesPath = (rules: readonly { destination: Destination }[]) => rules.some((r) => r.destination.path !== undefined);

// ---- Checks ----------------------------------------------------------------------------------------

/** Whether a visitor on `path` is redirected by a rule from `source` (exactly, or by its wildcard). */
function matches(source: string, path: string): boolean {
  if (source.endsWith("/*")) return path.startsWith(source.slice(0, -1)) || path === source.slice(0, -2);
  if (source.endsWith("*")) return path.startsWith(source.slice(0, -1));
  return path === source;
}

/** The path of the site a destination leads to: a `path` destination's. */
const pathsOf = (d: Destination): string[] => (d.path === undefined ? [] : [d.path]);

/** A rule as the checks see it: where it is declared (for messages). */
export interface Placed {
  rule: Pick<Rule, "source" | "destination" | "draft">;
  /** e.g. `rules[2]` or `SiteRedirect "old-docs"`. */
  at: string;
}

/** The first rule another one leads to, by its destination path. */
function next(from: Placed, all: readonly Placed[]): Placed | undefined {
  const paths = pathsOf(from.rule.destination);
  // Itself included: a rule whose URL is its own source (or falls under its own wildcard) loops.
  return all.find((r) => !r.rule.draft === !from.rule.draft && paths.some((p) => matches(r.rule.source, p)));
}

/**
 * The problems of a set of rules of one site: a source given twice (per draft state), a rule whose
 * destination is its own source, a chain, a loop. Each problem names the rule it is reported on (`on`)
 * and the others by `at`, once per chain or loop.
 */
export function ruleProblems(all: readonly Placed[]): { on: Placed; field: "source" | "destination"; message: string }[] {
  const out: { on: Placed; field: "source" | "destination"; message: string }[] = [];
  const seen = new Map<string, Placed>();
  for (const r of all) {
    const key = `${r.rule.draft === true}:${r.rule.source}`;
    const first = seen.get(key);
    if (first) out.push({ on: r, field: "source", message: `redirects from ${r.rule.source} as ${first.at} already does${r.rule.draft ? " (both drafts)" : ""}; a source has one rule: keep one of them` });
    else seen.set(key, r);
  }
  // Loops first, each reported once on its first rule; then every other rule that leads to another.
  const inLoop = new Set<Placed>();
  for (const start of all) {
    if (inLoop.has(start)) continue;
    const path: Placed[] = [];
    let at: Placed | undefined = start;
    while (at && !path.includes(at) && !inLoop.has(at)) {
      path.push(at);
      at = next(at, all);
    }
    if (!at || inLoop.has(at)) continue;
    const loop = path.slice(path.indexOf(at));
    loop.forEach((r) => inLoop.add(r));
    const how = [...loop, loop[0]!].map((r) => `${r.rule.source} (${r.at})`).join(" → ");
    out.push({
      on: loop[0]!,
      field: "destination",
      message:
        loop.length === 1
          ? `sends visitors from ${loop[0]!.rule.source} back to ${loop[0]!.rule.source}, a loop: point it elsewhere or remove the rule`
          : `forms a loop, ${how}, so visitors never arrive: point one of these rules at the final page`,
    });
  }
  for (const r of all) {
    const to = inLoop.has(r) ? undefined : next(r, all);
    if (!to) continue;
    out.push({
      on: r,
      field: "destination",
      message: `leads to ${r.rule.destination.path}, which ${to.at} redirects again (a chain: ${r.rule.source} → ${to.rule.source} → …): point ${r.at} at the final destination directly, so visitors take one redirect`,
    });
  }
  return out;
}

// ---- In the program ----------------------------------------------------------------------------------

/**
 * What the program declared so far for one site: its SiteRedirect rules, its SiteRedirects if any,
 * and the sections and site spaces that redirect their old paths (which add rules of the site).
 */
interface SiteDecl {
  /** The SiteRedirect resources, each named; `rules` holds those whose rule is plain values. */
  singles: string[];
  rules: Placed[];
  set?: string;
  movers: string[];
}

const bySiteResource = new WeakMap<object, SiteDecl>();
const bySiteId = new Map<string, SiteDecl>();

/** The site an input names: the Site resource it came from, its literal ID, or undefined (untraceable). */
function siteDecl(siteId: unknown): SiteDecl | undefined {
  if (typeof siteId === "string") {
    if (!bySiteId.has(siteId)) bySiteId.set(siteId, { singles: [], rules: [], movers: [] });
    return bySiteId.get(siteId);
  }
  const site = resourceOf(siteId, "Site");
  if (!site) return undefined;
  if (!bySiteResource.has(site)) bySiteResource.set(site, { singles: [], rules: [], movers: [] });
  return bySiteResource.get(site);
}

/** A rule declared with plain values (an Output cannot be checked before it resolves). */
function plainRule(args: Record<string, unknown>): Placed["rule"] | undefined {
  const { source, destination, draft } = args;
  if (typeof source !== "string" || !destination || typeof destination !== "object" || pulumi.Output.isInstance(destination)) return undefined;
  const path = (destination as Record<string, unknown>).path;
  return { source, destination: typeof path === "string" ? { path } : {}, draft: draft === true };
}

/**
 * SiteRedirect and SiteRedirects, as the program constructs them: a site's rules are declared either
 * one by one or as one set, never both (the set would delete the single rules, and they would create
 * themselves again at every `up`); and the single rules of one site must not name one source twice,
 * chain or loop.
 */
export function redirectDeclares(kind: "SiteRedirect" | "SiteRedirects") {
  return (name: string, args: Record<string, unknown>): void => {
    const site = siteDecl(args.siteId);
    if (!site) return;
    const me = `${kind} "${name}"`;
    if (kind === "SiteRedirects") {
      if (site.movers[0]) {
        throw new pulumi.RunError(
          `${me}: ${site.movers[0]} sets redirectOldPath, which adds redirect rules to this site, and SiteRedirects holds every rule of the site, so each up would delete what the other adds. ` +
            `Remove redirectOldPath from ${site.movers[0]} and list the redirect from its old path in this SiteRedirects' rules instead.`,
        );
      }
      const other = site.set ?? site.singles[0];
      if (other) {
        throw new pulumi.RunError(
          `${me}: ${other} already declares redirects of this site. SiteRedirects holds every rule of the site and deletes the rules it does not list, so it cannot share a site with another SiteRedirects or with SiteRedirect resources: move those rules into one SiteRedirects' rules, or declare each rule as a SiteRedirect.`,
        );
      }
      site.set = me;
      return;
    }
    if (site.set) {
      throw new pulumi.RunError(
        `${me}: ${site.set} holds every redirect of this site and would delete this rule at every up: add the rule to its rules instead of declaring a SiteRedirect.`,
      );
    }
    // A rule given as Outputs is one of the site's all the same, whatever its values turn out to be.
    site.singles.push(me);
    const rule = plainRule(args);
    if (!rule) return;
    const placed: Placed = { rule, at: me };
    const problem = ruleProblems([...site.rules, placed]).find((p) => p.on === placed || p.message.includes(me));
    if (problem) {
      // Reported on an earlier rule, the problem is this one's source when an earlier rule leads to it (a chain).
      const mine = problem.on === placed ? problem.field : problem.message.startsWith("leads to") ? "source" : "destination";
      throw new pulumi.RunError(`${me}: ${mine}: ${problem.on === placed ? "" : `${problem.on.at} `}${problem.message}`);
    }
    site.rules.push(placed);
  };
}

/**
 * SiteSection and SiteSpace, as the program constructs them: one with `redirectOldPath` adds rules to
 * its site, which a SiteRedirects of the same site would delete at every up (and the section add back).
 */
export function redirectsOnMove(kind: "SiteSection" | "SiteSpace") {
  return (name: string, args: Record<string, unknown>): void => {
    if (args.redirectOldPath !== true) return;
    const site = siteDecl(args.siteId);
    if (!site) return;
    const me = `${kind} "${name}"`;
    if (site.set) {
      throw new pulumi.RunError(
        `${me}: redirectOldPath: ${site.set} holds every redirect of this site and would delete the rules redirectOldPath adds at every up. ` +
          `Remove redirectOldPath and list the redirect from the old path in the rules of ${site.set} instead.`,
      );
    }
    site.movers.push(me);
  };
}
