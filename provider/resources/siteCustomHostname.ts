/**
 * SiteCustomHostname: a site's custom hostname (e.g. docs.example.com), as far as GitBook's API lets a
 * client have it. The published spec has three routes for one, `GET`, `PATCH` (retrigger its DNS
 * check) and `DELETE /custom-hostnames/{hostname}`, and none that sets one up or points it at a site:
 * the GitBook app does that. So this kind manages a claim about an object it cannot create:
 * - creating it reads the hostname and proves that it exists and points to the declared site, and
 *   writes nothing; when it does not, the create fails saying to set it up in the app;
 * - its outputs are what GitBook reports: whether it is active, its DNS/SSL status, its target;
 * - `revalidate` is a trigger for the DNS check, sent only when its value changes on a resource
 *   already in state (never at creation, so declaring or importing a hostname writes nothing);
 * - deleting it forgets it (the site stays on its hostname) unless `removeOnDestroy` says to remove it.
 * Its ID is the hostname. Changing `hostname` or `siteId` replaces it: a claim about another object.
 */
import { claimOnly, onePerTarget } from "../framework/singleton";
import { z } from "zod";
import { AuthError, ConflictError, GitbookError, p, ValidationError } from "../client";
import { defineResource, resourceClass, type Inputs, type Outputs } from "../framework/define";
import { PartialFailure } from "../framework/failure";
import { field, id, organizationIdField, text, triggerField, triggerFired, wireShape } from "../framework/fields";
import { getOrUndefined } from "../framework/lists";
import { refreshed } from "../framework/recipes";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import type { ApiSite } from "./site";

// ---- Schema --------------------------------------------------------------------------------------

/** GitBook's SiteHostname: lowercase labels, at least three of them (a subdomain of a registered domain). */
export const HOSTNAME_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

const inputs = z.object({
  organizationId: organizationIdField,
  hostname: text({ min: 1, max: 512 })
    .regex(HOSTNAME_PATTERN, "must be a lowercase DNS name of at least three labels, each of letters, digits and inner '-' (GitBook's SiteHostname), e.g. docs.example.com")
    .describe(
      "The custom hostname, e.g. `docs.example.com`: a lowercase DNS name of at least three labels, up to 512 characters (GitBook's SiteHostname). It must already be set up in the GitBook app as the custom domain of the site `siteId` names: GitBook's API cannot assign one. Changing it replaces the resource.",
    )
    .register(field, { change: "replace" }),
  siteId: id()
    .describe(
      "ID of the site the hostname must point to: the Site's `id` output. Creating the resource fails when the hostname points elsewhere (another site, or the organization's content), since GitBook's API cannot re-point it. Changing it replaces the resource; refresh shows a hostname re-pointed in the app as a change of it.",
    )
    // The importer writes it itself (a site written as a DocsSite has no Site variable).
    .register(field, { change: "replace" }),
  revalidate: triggerField(
    "A trigger for GitBook's DNS check of the hostname: any text, e.g. a date. When its value changes, or it is added to a resource already in state, `up` asks GitBook to check the hostname's DNS records again (after a CNAME was fixed, say) and records the status GitBook then reports. Setting it on a new resource, removing it, or leaving it unchanged sends nothing: creating the resource never writes. GitBook refuses to revalidate an inactive hostname, or one whose status allows no revalidation (e.g. `live`); `up` then fails saying so, nothing changes, and the next `up` tries again unless the trigger is put back. Never read from GitBook.",
  ),
  removeOnDestroy: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      "What deleting the resource (removing it from the program, a replacement, or `pulumi destroy`) does to the hostname. Without it (the default) nothing is sent: the resource is forgotten, GitBook keeps the hostname and the site stays on it. `true` sends GitBook's remove call, which takes the custom domain off the site, but only while the hostname still points to `siteId`'s site (one re-pointed in the app, or moved to another site by a replacement, is left as it is). The delete reads this setting from state, so set it with an `up` before the run that deletes. Never sent to GitBook: changing it sends no request. A forced replacement of the same hostname and site (`pulumi up --replace`) removes it too, after the new resource has checked it (Pulumi creates that one first, and GitBook's API cannot set a hostname up again): unset it with an `up` before forcing one.",
    )
    .register(field, { local: true }),
});

const outputs = z.object({
  isActive: z.boolean().describe("Whether GitBook serves the site on the hostname."),
  status: z
    .string()
    .optional()
    .describe(
      "GitBook's status of the hostname: a DNS check (`dns_passed`, `dns_wrong_cname`, `dns_no_cname`, `dns_cloudflare_proxied`, `dns_wrong_caa`), its certificate (`live`, `ssl_unknown`, `ssl_pending`, `ssl_failed`, `ssl_retry_expired`), or an error (`invalid_domain`, `internal_error`). Absent while GitBook reports none. Refresh shows it as it is now.",
    ),
  target: z
    .object({
      type: z.enum(["site", "organization"]).describe("`site` while the hostname serves a site, `organization` while it serves the organization's content."),
      id: z.string().describe("ID of that site, or of the organization."),
    })
    .describe("What the hostname points to, as GitBook reports it: `{ type: \"site\", id }` while it serves a site, `{ type: \"organization\", id }` for the organization's content."),
});

export type SiteCustomHostnameInputs = Inputs<typeof inputs>;
export type SiteCustomHostnameOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- CRUD ----------------------------------------------------------------------------------------

export const ApiCustomHostname = z.looseObject({
  object: z.literal("custom-hostname"),
  ...wireShape(inputs),
  hostname: z.string(),
  target: z.union([z.looseObject({ type: z.literal("site"), site: z.string() }), z.looseObject({ type: z.literal("organization"), organization: z.string() })]),
  isActive: z.boolean(),
  // Read as text: a status GitBook adds later must not make every read fail.
  status: z.string().optional(),
});
export type ApiCustomHostname = z.infer<typeof ApiCustomHostname>;

export const hostnamePath = (hostname: string) => p`/custom-hostnames/${hostname}`;

/** The site a hostname serves, or undefined when it serves the organization's content. */
const siteOf = (h: ApiCustomHostname): string | undefined => (h.target.type === "site" ? h.target.site : undefined);

const SET_UP_IN_APP = "GitBook's API cannot set up or re-point a custom hostname: do it in the GitBook app (the site's settings, custom domain), then run `up` again.";

/** The hostname as GitBook has it, undefined when there is none. */
async function find(ctx: Ctx, hostname: string): Promise<ApiCustomHostname | undefined> {
  try {
    return await getOrUndefined(ctx.client.get(hostnamePath(hostname), { schema: ApiCustomHostname }));
  } catch (e) {
    // GitBook's spec marks these routes for its own tokens: a token lacking the right is told why.
    if (e instanceof AuthError) {
      throw new Error(
        `SiteCustomHostname: hostname: GitBook refused to read custom hostname ${hostname} (${e.status}: ${e.apiMessage}). Its API lets only some tokens read custom hostnames (the published spec marks these routes internal); use a token that may, or leave the hostname out of the program. Nothing was written.`,
        { cause: e },
      );
    }
    throw e;
  }
}

/** The hostname, proven to exist and to serve `siteId`'s site; fails with the way to fix it otherwise. */
async function mustServe(ctx: Ctx, hostname: string, siteId: string): Promise<ApiCustomHostname> {
  const h = await find(ctx, hostname);
  if (!h) throw new Error(`SiteCustomHostname: hostname: GitBook has no custom hostname ${hostname}, so site ${siteId} is not published on it. ${SET_UP_IN_APP} Nothing was written.`);
  const serves = siteOf(h);
  if (serves !== siteId) {
    const where = serves ? `site ${serves}` : `the content of organization ${h.target.type === "organization" ? h.target.organization : "?"}`;
    throw new Error(
      `SiteCustomHostname: siteId: custom hostname ${hostname} points to ${where}, not to site ${siteId}. ${SET_UP_IN_APP} Or declare siteId as the site it points to. Nothing was written.`,
    );
  }
  return h;
}

async function create(ctx: Ctx, given: SiteCustomHostnameInputs): Promise<{ id: string; outs: SiteCustomHostnameOutputs }> {
  // A read only: a `revalidate` given at creation is recorded, not sent (see its description).
  const h = await mustServe(ctx, given.hostname, given.siteId);
  claimOnly(ctx, "SiteCustomHostname", given.hostname, "hostname");
  return { id: given.hostname, outs: definition.outputsOf(declared(given), h) };
}

async function read(ctx: Ctx, _id: string, props: SiteCustomHostnameOutputs): Promise<SiteCustomHostnameOutputs | undefined> {
  const h = await find(ctx, props.hostname);
  return h && refreshed(definition, props, h);
}

async function update(ctx: Ctx, _id: string, olds: SiteCustomHostnameOutputs, news: SiteCustomHostnameInputs): Promise<SiteCustomHostnameOutputs> {
  const { hostname, siteId } = news;
  // Only a new value asks for a check; removing the trigger sends nothing.
  if (!triggerFired("revalidate", olds, news)) {
    const outs: Props = { ...olds };
    for (const f of Object.keys(inputs.shape)) delete outs[f];
    return { ...outs, ...declared(news) } as SiteCustomHostnameOutputs;
  }
  // Never revalidate a hostname that no longer serves the declared site: it is not this program's.
  const before = await mustServe(ctx, hostname, siteId);
  try {
    await ctx.client.patch(hostnamePath(hostname));
  } catch (e) {
    if (!(e instanceof ValidationError || e instanceof ConflictError)) throw e;
    // The client resends a PATCH whose answer was lost; GitBook then refuses the second because the
    // first moved the status on. A status other than the one read before means it was revalidated.
    const now = await find(ctx, hostname);
    if (now && siteOf(now) === siteId && now.status !== before.status) return definition.outputsOf(declared(news), now);
    throw refusedRevalidation(hostname, now ?? before, olds.revalidate, e);
  }
  // The revalidation went out: state records the trigger as fired even when the status cannot be
  // read now, so the next `up` does not send it again (a refresh reads the status).
  let after: ApiCustomHostname | undefined;
  try {
    after = await find(ctx, hostname);
  } catch (e) {
    throw new PartialFailure(hostname, definition.outputsOf(declared(news), before), [`the DNS of ${hostname} was revalidated, but its new status could not be read: ${(e as Error).message}`], { cause: e });
  }
  if (!after) throw new Error(`SiteCustomHostname: hostname: custom hostname ${hostname} was removed while it was being revalidated. ${SET_UP_IN_APP}`);
  return definition.outputsOf(declared(news), after);
}

function refusedRevalidation(hostname: string, h: ApiCustomHostname, previous: string | undefined, e: GitbookError): Error {
  const state = h.isActive ? `its status is ${h.status ?? "not reported"}` : "it is inactive";
  const back = previous === undefined ? "remove revalidate" : `put revalidate back to ${JSON.stringify(previous)}`;
  return new Error(
    `SiteCustomHostname: revalidate: GitBook refused to revalidate the DNS of ${hostname} (it answered ${e.status}): ${state}, and GitBook revalidates only an active hostname whose DNS or SSL check failed. Nothing changed: ${back} to leave it as it is, or run \`up\` again once its status allows it.`,
    { cause: e },
  );
}

async function remove(ctx: Ctx, _id: string, props: SiteCustomHostnameOutputs): Promise<void> {
  if (props.removeOnDestroy !== true) return;
  // Removed only while it serves the recorded site: after a re-pointing (in the app, or by the
  // replacement that now claims it for another site) it is no longer this resource's to remove.
  // A refresh that found it serving the organization recorded no siteId: never a match.
  const h = await find(ctx, props.hostname);
  const serves = h && siteOf(h);
  if (serves === undefined || serves !== props.siteId) return;
  await ctx.client.delete(hostnamePath(props.hostname));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteCustomHostname",
  import: {
    variableSuffix: "-hostname",
    // Read only for a site that names a hostname (one GET), to prove it points there; one that cannot be
    // declared is recorded with why, and the generator writes a note instead (a 401/403: GitBook's spec
    // marks the route for its own tokens, so the rest of the import goes on without it).
    read: {
      under: "Site",
      into: "customHostname",
      one: true,
      async find(ctx, site) {
        const siteId = site!.id as string;
        const hostname = ctx.sourceOf<ApiSite>(site!).hostname;
        if (!hostname) return undefined;
        try {
          const h = await getOrUndefined(ctx.get(hostnamePath(hostname), ApiCustomHostname));
          if (!h) return { hostname, unavailable: `GitBook has no custom hostname ${hostname}, though the site names it` };
          if (siteOf(h) !== siteId) return { hostname, unavailable: `custom hostname ${hostname} points to ${h.target.type === "site" ? `site ${h.target.site}` : "the organization's content"}` };
          return { hostname };
        } catch (e) {
          if (e instanceof AuthError) return { hostname, unavailable: `the token may not read custom hostnames (GitBook answered ${e.status})` };
          throw e;
        }
      },
    },
  },
  noun: "custom hostname",
  summary:
    "A site's custom hostname (e.g. `docs.example.com`), as far as GitBook's API allows: it cannot set one up or point it at a site (the GitBook app does), so creating the resource reads the hostname, fails unless it points to the declared site, and writes nothing. Its outputs are GitBook's status (active, DNS and SSL checks, target), refreshed like any other; `revalidate` retriggers the DNS check; deleting the resource forgets the hostname unless `removeOnDestroy` is set. A hostname has one: two SiteCustomHostname resources of one hostname are refused at preview (the same hostname) or at create.",
  inputs,
  outputs,
  // `revalidate` and `removeOnDestroy` are absent: GitBook has no such settings, so refresh keeps what state recorded.
  live: (h: ApiCustomHostname) => ({ hostname: h.hostname, siteId: siteOf(h) }),
  computed: (h) => ({
    isActive: h.isActive,
    ...(h.status !== undefined ? { status: h.status } : {}),
    target: h.target.type === "site" ? { type: "site" as const, id: h.target.site } : { type: "organization" as const, id: h.target.organization },
  }),
  create,
  inProgram: onePerTarget("SiteCustomHostname", "hostname", "hostname"),
  read,
  update,
  delete: remove,
});

/** A GitBook site's custom hostname: proven to point to the site, its DNS and SSL status read, its DNS check retriggered on demand. */
export const SiteCustomHostname = resourceClass(definition);
export type SiteCustomHostname = InstanceType<typeof SiteCustomHostname>;
export type SiteCustomHostnameArgs = ConstructorParameters<typeof SiteCustomHostname>[1];
