// What the resource modules share: the context a handler gets, the shape the registry lists,
// the route prefixes, and the lookups that turn path parameters and body references into records.
// HTTP plumbing (errors, validation, paging, matching) is in ../http.ts.
import { invalid, notFound, type Router } from "../http";
import type { MemberRecord, OrgRecord, SiteRecord, SpaceRecord, Store } from "../store";

/** What rendering an API object needs: the state, and the emulator's base URL (for `urls.location`). */
export interface Env {
  store: Store;
  /** "http://127.0.0.1:PORT", without /v1. */
  baseUrl: string;
}

/** What a handler gets. Handlers are synchronous: they validate, mutate the store and return a Reply; errors are thrown through ../http.ts. */
export interface Ctx extends Env {
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; `{}` for an empty body. */
  body: unknown;
}

/** One resource module, as the registry (./index.ts) lists it. */
export interface Resource {
  /** Adds the resource's routes; within a module, the first matching route wins. */
  routes(r: Router<Ctx>): void;
}

export const ORG = "/v1/orgs/:org";
export const SITE = `${ORG}/sites/:site`;

/** Where GitBook's web app lives; `urls.app` of the API objects point there. */
export const APP = "https://app.gitbook.com";

export const now = () => new Date().toISOString();

export function apiUrl(e: Env, path: string): string {
  return `${e.baseUrl}/v1${path}`;
}

/**
 * Drops keys whose value is undefined, so "absent when none" fields really are absent in JSON. A copy
 * of the defined keys, not `delete` on the object: a deleted key turns an object into a slow
 * dictionary, and a 1000-section listing renders and serializes some 5000 of these.
 */
export function compact<T extends Record<string, unknown>>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  return out as T;
}

// ---------------------------------------------------------------- lookups
// GETs/PATCHes of something missing answer 404. DELETEs answer 204 when the object (or
// one of its parents below the organization) is missing, so deleting in any order works;
// an unknown organization is still a 404.

export function getOrg(c: Ctx): OrgRecord {
  return c.store.orgs.get(c.params.org!) ?? notFound("organization", c.params.org!);
}

/** The record `id` of `map`, if it belongs where the path says (`belongs`). */
export function child<T>(map: Map<string, T>, id: string, belongs: (t: T) => boolean): T | undefined {
  const t = map.get(id);
  return t !== undefined && belongs(t) ? t : undefined;
}

export function getSite(c: Ctx): SiteRecord {
  const org = getOrg(c);
  return child(c.store.sites, c.params.site!, (s) => s.orgId === org.id) ?? notFound("site", c.params.site!);
}

/** The site of the path for a DELETE: undefined when missing. */
export function findSite(c: Ctx): SiteRecord | undefined {
  const org = getOrg(c);
  return child(c.store.sites, c.params.site!, (s) => s.orgId === org.id);
}

/** A space referenced from a body: must exist in the organization (not in the trash), else 400 naming the field. */
export function spaceRef(c: Ctx, orgId: string, id: string, field: string): SpaceRecord {
  return child(c.store.spaces, id, (s) => s.orgId === orgId && !s.deletedAt) ?? invalid(field, `no space "${id}" in this organization`);
}

/** A user referenced from a body by member id or e-mail: must be a member of the organization, else 400 naming the field. */
export function memberRef(c: Ctx, orgId: string, ref: string, field: string): MemberRecord {
  return c.store.findMember(orgId, ref) ?? invalid(field, `unknown user "${ref}" (not a member of this organization)`);
}

/** Sets an optional field from a PATCH value: undefined leaves it, null removes it. */
export function patchOptional<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | null | undefined): void {
  if (value === undefined) return;
  if (value === null) delete target[key];
  else target[key] = value;
}
