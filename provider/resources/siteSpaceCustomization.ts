/**
 * SiteSpaceCustomization: a site space's overrides of its site's branding (a language variant with its
 * own title, a version in another colour), the overrides the program declares and no others.
 *
 * Decisions that shape it:
 * - GitBook's PATCH sets the overrides it carries and a null clears one; its GET answers the effective
 *   settings (the site's, with the overrides over them). So a write sends the declared overrides that
 *   differ from what the site space shows, descending into groups (`styling.primaryColor` alone), and
 *   nothing when they all hold; refresh compares the declared settings with what the site space shows.
 *   At create, a declared value the site space shows as its site does may be inherited rather than an
 *   override: it is sent too (the site's settings read once, only then), or the next change of the
 *   site's branding would change the site space the program pins.
 * - Removing an override from the program clears it (null), and the site's value shows again.
 * - Deleting the resource clears the overrides it declares, one by one, and no others: GitBook's DELETE
 *   would also drop overrides made in the app that the program never declared.
 * - There is no object to create: the ID is the site space's, creating it sends the declared overrides
 *   (no `adoptId` needed: overrides already there are taken as they are), and sending them again after
 *   a lost answer does no harm (no createOnce).
 * - Only overrides the API can clear one by one are declared: not `announcement` (the PATCH takes no
 *   null for it), nor the fonts (the site's alone), nor the spec's deprecated settings.
 * - A site space has one set of overrides: a second SiteSpaceCustomization of it is refused.
 * All of it but what only the importer needs is framework/settingsObject.ts's `overrides` write.
 */
import equal from "fast-deep-equal";
import { z } from "zod";
import { ApiSiteCustomization, p } from "../client";
import { resourceClass, type Inputs, type Outputs } from "../framework/define";
import { field, id, organizationIdField } from "../framework/fields";
import { getOrUndefined } from "../framework/lists";
import type { Props } from "../framework/resource";
import { overridesPatch, settingsGroup } from "../framework/settings";
import { defineSettingsObject } from "../framework/settingsObject";
import { customizationView, siteSpaceSettings } from "./customization";
import { paths as siteCustomizationPaths } from "./siteCustomization";

/** Where GitBook answers for this kind. */
export const paths = {
  siteSpaceCustomization: (org: string, site: string, siteSpace: string) => p`/orgs/${org}/sites/${site}/site-spaces/${siteSpace}/customization`,
};

// ---- Schema --------------------------------------------------------------------------------------

const settings = settingsGroup(siteSpaceSettings, "The site space's overrides the program declares.");

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id().describe("ID of the site the site space belongs to: the Site's `id` output. Changing it replaces the resource.").register(field, { change: "replace", import: { ref: "Site" } }),
  siteSpaceId: id()
    .describe("ID of the site space whose overrides these are: the SiteSpace's `id` output (a SiteSection's `siteSpaceId` for its default one). Changing it replaces the resource: the old site space's declared overrides are cleared.")
    .register(field, { change: "replace", import: { ref: "SiteSpace" } }),
  ...settings.shape,
});

/**
 * No change time: GitBook answers the site's while the site space has no override of its own, so a
 * SiteCustomization applied in the same run would leave a recorded one stale (issue 42).
 */
const outputs = z.object({});

export type SiteSpaceCustomizationInputs = Inputs<typeof inputs>;
export type SiteSpaceCustomizationOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineSettingsObject({
  kind: "SiteSpaceCustomization",
  noun: "site space customization",
  summary:
    "A site space's overrides of its site's branding (a language variant's title, a version's colours), as far as the program declares them: each declared setting overrides the site's, a group's fields one by one (`styling.primaryColor` alone). " +
    "Refresh compares them with what the site space shows (GitBook answers its effective settings: the site's, with the overrides over them), so an app edit of a declared setting shows as drift. " +
    "Creating it sends only the declared settings the site space does not already show as overrides (a value it shows as its site does may be inherited, so it is sent, to be an override that a later change of the site's branding leaves as declared); removing a setting clears that override (the site's value shows again); deleting the resource clears the overrides it declares and leaves any other as it is. " +
    "`announcement`, the fonts and the spec's deprecated settings are not declared: the API cannot clear the first one by one, and the fonts are the site's. A site space has one: two of one site space are refused at preview or at create.",
  inputs,
  outputs,
  live: customizationView(settings).live,
  computed: () => ({}),
  target: {
    field: "siteSpaceId",
    noun: "site space",
    within: (given) => `site ${given.siteId}`,
    wrongId: "an ID is wrong (pass the SiteSpace's id and the Site's id outputs)",
    one: true,
  },
  path: (given) => paths.siteSpaceCustomization(given.organizationId, given.siteId, given.siteSpaceId),
  schema: ApiSiteCustomization,
  // What the overrides are over: a declared value the site space shows as its site does is sent at create, to be an override.
  write: { overrides: settings, over: (given) => siteCustomizationPaths.siteCustomization(given.organizationId as string, given.siteId as string) },
  import: {
    read: {
      under: "SiteSpace",
      into: "customization",
      one: true,
      async find(ctx, siteSpace) {
        const section = ctx.parentOf(siteSpace!)!;
        const site = ctx.parentOf(section)!;
        // Overrides tell a section's variants apart (a language, a version): only variants are read, one
        // GET each, so a site whose sections show one space each costs no request more.
        if ((section.siteSpaces as unknown[]).length < 2) return undefined;
        const [org, siteId, siteSpaceId] = [ctx.organizationId, site.id as string, siteSpace!.id as string];
        const [own, effective] = await Promise.all([
          ctx.get(siteCustomizationPaths.siteCustomization(org, siteId), ApiSiteCustomization),
          getOrUndefined(ctx.get(paths.siteSpaceCustomization(org, siteId, siteSpaceId), ApiSiteCustomization)),
        ]);
        const overrides = effective && overridesOf(own, effective);
        return overrides && { id: siteSpaceId, siteId, siteSpaceId, ...overrides };
      },
    },
    declare: { key: (_override, [siteSpace]) => `${String(siteSpace!.path)}-branding` },
  },
});

/**
 * What a site space shows that its site does not (GitBook answers the site's settings with the
 * overrides over them), as far as this kind declares it exactly: undefined when nothing. A value it
 * would declare otherwise (one it refuses, or holding fields it does not know) is left as it is.
 */
function overridesOf(site: Props, effective: Props): Props | undefined {
  const shape = settings.shape as Record<string, z.ZodType>;
  const out: Props = {};
  for (const [k, schema] of Object.entries(shape)) {
    const v = overridesPatch(schema, site[k], effective[k]);
    if (v === undefined || v === null) continue;
    const parsed = schema.safeParse(v);
    if (parsed.success && equal(parsed.data, v)) out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A site space's overrides of its site's branding. */
export const SiteSpaceCustomization = resourceClass(definition);
export type SiteSpaceCustomization = InstanceType<typeof SiteSpaceCustomization>;
export type SiteSpaceCustomizationArgs = ConstructorParameters<typeof SiteSpaceCustomization>[1];
