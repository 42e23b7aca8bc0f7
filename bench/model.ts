/**
 * The request model of the benchmark: for each phase, the fewest requests the GitBook API needs to do
 * what the phase asks, derived from the topology and the API's contract (api-spec.md), never from the
 * provider's code, so the ratio measured against it says something about the provider.
 */

export interface Topology {
  sections: number;
  /** SiteSpace resources per section, besides the site space each section is created with. */
  siteSpacesPerSection: number;
  shareLinks: number;
}

export type Phase = "converge" | "noop" | "preview" | "refresh" | "change" | "destroy";

export type MethodCounts = Record<string, number>;

export interface PhaseModel {
  /** Minimal requests by method. */
  min: MethodCounts;
  /** Requests on the longest chain of requests that must happen one after another. */
  chain: number;
  /** Concurrent provider operations the engine allows in this phase. */
  parallelism: number;
  /** Why this is the minimum, for the printed table and the JSON. */
  why: string;
}

/** The API's cap on `limit`: a listing of n items costs ceil(n / 1000) requests (at least one). */
export const PAGE = 1000;
const pages = (n: number) => Math.max(1, Math.ceil(n / PAGE));

export function resourceCount(t: Topology): number {
  return 1 + t.sections + t.sections * t.siteSpacesPerSection + t.shareLinks;
}

export const total = (c: MethodCounts) => Object.values(c).reduce((a, b) => a + b, 0);

/**
 * `parallel` is `pulumi`'s `--parallel`; `pulumi destroy` deletes every resource whose dependents are
 * gone in parallel, so its chain is the dependency depth.
 *
 * The safety listings count (README "Safety"): a write that a lost answer or a cascade could make
 * unsafe follows a listing of its container answered less than `gitbook:listingMaxAgeSeconds` before
 * it. Creates and deletes of one container may share one, so the floor is one listing per container
 * listed; a phase that takes longer than the maximum age needs more, which this floor leaves out.
 */
export function model(t: Topology, phase: Phase, parallel: number): PhaseModel {
  const N = t.sections;
  const M = t.sections * t.siteSpacesPerSection;
  const L = t.shareLinks;
  switch (phase) {
    case "converge": {
      // POST @SITE/site-spaces takes only spaceId and sectionId, so each declared path is one PATCH;
      // POST share-links creates an active link, so the revoked one is one PATCH. Titles and the
      // site's visibility ride on their POSTs.
      // A POST whose answer may be lost must be preceded by a listing of what could be mistaken for
      // its object, or a lost answer could not be told from a namesake made meanwhile: the
      // organization's sites for the site, the site's sections for a section and for a site space (the
      // section listing embeds each section's site spaces), the site's share links for a link. One
      // each at least, on the chain before the first POST in that container (a page each: the
      // listing that serves the first creates is taken before the site holds anything).
      const revoked = L > 0 ? 1 : 0;
      const posts = 1 + N + M + L;
      return {
        // And, before the first section's create, whether Git Sync owns the site's structure (README "Safety").
        min: { GET: 1 + (N > 0 ? 2 : 0) + (L > 0 ? 1 : 0), POST: posts, PATCH: M + revoked },
        // site GET and POST, then section GET and POST, then site-space POST and PATCH (the section listing serves it); or the link's.
        chain: 2 + Math.max(N > 0 ? 2 + (M > 0 ? 2 : 0) : 0, L > 0 ? 2 + revoked : 0),
        parallelism: parallel,
        why: "one POST per object, after a listing of its container that proves what a lost answer made (one per container at least); a PATCH only for what POST cannot carry (site-space path, inactive link)",
      };
    }
    case "noop":
      return { min: {}, chain: 0, parallelism: parallel, why: "diff compares saved state with the program: nothing to ask the API" };
    case "preview":
      // A plan that will change something first asks whether the token sees the organization, once per
      // run, so that a wrong one fails the preview once rather than every resource's write (README
      // "Configuration"): like the safety listings, a read the guarantee needs.
      // The change is a section's: whether Git Sync owns its site's structure is asked too, once.
      return { min: { GET: 2 }, chain: 1, parallelism: parallel, why: "the questions whether the token sees the organization and whether Git Sync owns the site's structure; diff compares saved state with the program" };
    case "refresh":
      // The site has a GET by ID; sections, site spaces and share links have no single GET, only their
      // site's list, so one listing per kind serves every resource of that kind. (A tighter bound
      // exists: the section list embeds each section's site spaces, which would spare the site-space
      // listing; we count it because a SiteSpace can also live at the site's root, where only that
      // listing shows it.)
      return {
        min: { GET: 1 + (N > 0 ? pages(N) : 0) + (N + M > 0 ? pages(N + M) : 0) + (L > 0 ? pages(L) : 0) },
        chain: Math.max(1, pages(N + M)),
        parallelism: parallel,
        why: "GET the site; one paginated listing each of sections, site spaces, share links",
      };
    case "change":
      return { min: { GET: 2, PATCH: 1 }, chain: 2, parallelism: parallel, why: "the two questions of a plan changing a section (see preview), then one section title: one PATCH" };
    case "destroy": {
      // Deleting the site cascades to everything under it, but the engine calls Delete on every
      // resource (dependents first) and a Delete cannot know whether its parent is about to go too:
      // `pulumi destroy --target`, or removing one resource from the program, must remove exactly
      // that object. So the floor is one DELETE per resource. A delete that GitBook carries out on
      // other objects too must first read what it would take along (README "Safety"): each section,
      // the site's section list (no GET for one section; one page while at most 1000 sections are
      // left, which is the fewest it can take); the site, its structure and its share-link list. The
      // sections' guards may share one listing (a guard discounts the site spaces this run deleted).
      const reads = (N > 0 ? 1 : 0) + 2;
      // Site spaces go before their section, sections and links before the site; a section's and the
      // site's DELETE each wait for their read (the site's two reads run together).
      const depth = 2 + Math.max(N > 0 ? 2 : 0, L > 0 ? 1 : 0) + (M > 0 ? 1 : 0);
      return {
        min: { GET: reads, DELETE: resourceCount(t) },
        chain: depth,
        parallelism: parallel,
        why: "one DELETE per resource (Pulumi deletes each; see README), in parallel down the dependency depth; a listing of what the sections (one shared) and the site would take along",
      };
    }
  }
}

/**
 * Lower bound on wall time from requests alone: the longest chain, or all requests spread over the
 * allowed parallelism, whichever is longer, times the injected latency per request.
 */
export function criticalPathMs(m: PhaseModel, latencyMs: number): number {
  return Math.max(m.chain, Math.ceil(total(m.min) / m.parallelism)) * latencyMs;
}
