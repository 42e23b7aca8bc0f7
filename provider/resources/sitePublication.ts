/**
 * SitePublication: whether a site is live, as a resource of its own, so that publishing can wait for
 * the site's content. A Site's own `published` input is applied with the Site, which every section and
 * site space depends on (they need its ID), so a site created published goes live empty. This resource
 * takes the site's ID and, given `dependsOn` its sections (DocsSite does that for its `site.published`),
 * publishes only once they exist.
 *
 * It manages one setting of an existing site: there is no object to create, so creating it reads the
 * site and sends the publish (or unpublish) call only when the site is not already in the declared
 * state, and deleting it sends nothing (the site stays as it is). Its ID is the site's. Declare
 * `published` in one place only: here or on the Site. The CRUD is framework/settingsObject.ts's, with
 * the publish call as its `call` write.
 */
import { z } from "zod";
import { resourceClass, type Inputs, type Outputs } from "../framework/define";
import { field, id, organizationIdField } from "../framework/fields";
import { defineSettingsObject } from "../framework/settingsObject";
import { setPublished } from "./site";
import { ApiSite } from "./site";
import { sitePaths } from "./sitePaths";
import { addressField, addressOf } from "./siteAddress";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id().describe("ID of the site: the Site's `id` output. Changing it manages the other site instead (the first is left as it is).").register(field, { change: "replace", import: { ref: "Site" } }),
  published: z
    .boolean({ error: "must be a boolean" })
    .describe(
      "`true` publishes the site (GitBook's publish call), `false` takes it offline (unpublish). Refresh shows a site published or unpublished in the app as drift. When the organization's plan needs an upgrade first, GitBook answers with a checkout instead of publishing, and `up` fails saying so.",
    )
    // A call of its own, never a PATCH field.
    .register(field, { change: "custom" }),
  address: addressField(),
});

const outputs = z.object({
  publishedUrl: z.string().optional().describe("Where readers find the site, once it is published."),
});

export type SitePublicationInputs = Inputs<typeof inputs>;
export type SitePublicationOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineSettingsObject({
  kind: "SitePublication",
  noun: "site publication",
  summary:
    "Whether a site is live, applied after what the resource depends on: DocsSite uses it for `site.published`, so a new site goes live once its sections exist. Creating it sends a call only when the site is not already in the declared state; deleting it leaves the site as it is. A site has one: a second SitePublication of the same site is refused at preview (the same site ID or `site.id` Output) or at create.",
  inputs,
  outputs,
  live: (site: ApiSite) => ({ published: site.published }),
  computed: (site) => (site.published && site.urls?.published ? { publishedUrl: site.urls.published } : {}),
  // Its URL is built on the site's address: a new basename or proxy is a change of this resource too.
  fromProgram: addressOf(),
  // The site's publication is the site's: removing the resource leaves it as it is. A site has one:
  // two declaring different states would publish and unpublish it on every run.
  target: { field: "siteId", noun: "site", within: (given) => `organization ${given.organizationId}`, wrongId: "the ID is wrong (pass the Site's id output)", one: true },
  path: (given) => sitePaths.site(given.organizationId, given.siteId),
  schema: ApiSite,
  write: { call: (ctx, given) => setPublished(ctx, given.organizationId, given.siteId, given.published) },
});

/** Whether a site is live, applied after the resources it depends on. */
export const SitePublication = resourceClass(definition);
export type SitePublication = InstanceType<typeof SitePublication>;
export type SitePublicationArgs = ConstructorParameters<typeof SitePublication>[1];
