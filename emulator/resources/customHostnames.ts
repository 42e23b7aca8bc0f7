// Custom hostnames: the three routes GitBook's published spec has for one (`/custom-hostnames/{hostname}`,
// outside any organization). A GET reads it and what it points to (a site or the organization), a
// PATCH retriggers its DNS check, a DELETE removes it. Nothing here creates one or re-points it: the
// GitBook app does, and so do seeds and out-of-band edits (`emu.edit("customHostnames", ...)`).
//
// What the spec leaves to us: a PATCH of an inactive hostname answers 400, and of one whose status
// is not a failed DNS or SSL check answers 409 (there is nothing to revalidate while DNS passes and a
// certificate is live or being issued). A revalidation the emulator accepts finds the DNS fixed: the
// status becomes `ssl_pending` (the certificate is issued next). The PATCH answers 204 without a body.
import { deleted, fail, noContent, notFound, ok, type Router } from "../http";
import type { CustomHostnameRecord, CustomHostnameStatus } from "../store";
import { apiUrl, compact, type Ctx, type Env } from "./resource";

const HOSTNAME = "/v1/custom-hostnames/:hostname";

/** The statuses a DNS revalidation may change: a DNS check that failed, an SSL one that gave up, or an error. */
const REVALIDATABLE: readonly CustomHostnameStatus[] = [
  "dns_wrong_cname",
  "dns_no_cname",
  "dns_cloudflare_proxied",
  "dns_wrong_caa",
  "ssl_failed",
  "ssl_retry_expired",
  "invalid_domain",
  "internal_error",
];

export function customHostnameView(e: Env, h: CustomHostnameRecord) {
  return compact({
    object: "custom-hostname",
    hostname: h.id,
    target: h.targetType === "site" ? { type: "site", site: h.targetId } : { type: "organization", organization: h.targetId },
    isActive: h.isActive,
    status: h.status,
    urls: { location: apiUrl(e, `/custom-hostnames/${encodeURIComponent(h.id)}`) },
  });
}

function get(c: Ctx): CustomHostnameRecord {
  return c.store.customHostnames.get(c.params.hostname!) ?? notFound("custom hostname", c.params.hostname!);
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", HOSTNAME, (c) => ok(customHostnameView(c, get(c))));

  r.add("PATCH", HOSTNAME, (c) => {
    const h = get(c);
    if (!h.isActive) fail(400, `custom hostname "${h.id}" is inactive and cannot be revalidated`);
    if (h.status !== undefined && !REVALIDATABLE.includes(h.status)) fail(409, `custom hostname "${h.id}" has status ${h.status}, which does not allow DNS revalidation`);
    h.status = "ssl_pending";
    return noContent();
  });

  r.add("DELETE", HOSTNAME, (c) => deleted(c.store.removeCustomHostname(c.params.hostname!)));
}
