/**
 * SiteCustomization: a site's branding (GitBook's site customization: theme, colours, logo, favicon,
 * header and footer links, fonts, feedback, AI...), the settings the program declares and no others.
 *
 * Decisions that shape it:
 * - GitBook's PUT replaces the whole settings object, and every site has one. So every write reads
 *   the settings first, puts the declared ones in and sends the result (read, merge, write): whatever
 *   the program does not declare, down to a single field of `styling`, is sent back as GitBook had it.
 *   Nothing is sent when the declared settings already hold.
 * - A diff compares the declared settings only; refresh reads them alone, so an edit in the app to a
 *   declared setting shows as drift and any other edit shows as nothing.
 * - There is no object to create: creating the resource manages the site's settings as they are (a
 *   branded site is taken as it is, only the declared settings changed), so no `adoptId` is needed,
 *   and sending the PUT again after a lost answer does no harm (no createOnce). The ID is the site's.
 * - Deleting it (or removing a setting from the program) leaves the site's settings as they are:
 *   GitBook keeps no record of what they were before, and putting back guesses could undo edits made
 *   since. Nothing is sent.
 * - A site has one: a second SiteCustomization of the same site is refused (framework/singleton.ts).
 * All of it is framework/settingsObject.ts's `replace` write.
 */
import { z } from "zod";
import { ApiSiteCustomization, p } from "../client";
import { resourceClass, type Inputs, type Outputs } from "../framework/define";
import { field, id, organizationIdField } from "../framework/fields";
import { settingsGroup } from "../framework/settings";
import { defineSettingsObject } from "../framework/settingsObject";
import { customizationView, siteSettings } from "./customization";

/** Where GitBook answers for this kind. */
export const paths = {
  siteCustomization: (org: string, site: string) => p`/orgs/${org}/sites/${site}/customization`,
};

// ---- Schema --------------------------------------------------------------------------------------

/** The declared settings, as one group: what read compares and what a write merges in. */
const settings = settingsGroup(siteSettings, "The site's customization settings the program declares.");

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id()
    .describe("ID of the site whose branding this is: the Site's `id` output. A site has one; changing it manages the other site instead (the first keeps its settings as they are).")
    .register(field, { change: "replace" }),
  ...settings.shape,
});

const outputs = z.object({
  updatedAt: z.string().optional().describe("When the site's customization was last changed (by anyone); absent while it never was."),
});

/** The settings alone, as DocsSite's `branding` takes them. */
export const brandingSchema = settings;
export type SiteCustomizationSettings = z.input<typeof settings>;

export type SiteCustomizationInputs = Inputs<typeof inputs>;
export type SiteCustomizationOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineSettingsObject({
  kind: "SiteCustomization",
  import: {
    variableSuffix: "-branding",
    // The site's settings as GitBook returns them; without `updatedAt` nobody customized the site: GitBook's defaults, nothing to declare.
    read: {
      under: "Site",
      into: "customization",
      one: true,
      async find(ctx, site) {
        const settings = await ctx.get(paths.siteCustomization(ctx.organizationId, site!.id as string), ApiSiteCustomization);
        return typeof settings.updatedAt === "string" ? settings : undefined;
      },
    },
  },
  noun: "site customization",
  summary:
    "A site's branding: theme, colours, logo, favicon, header and footer links, fonts, announcement, feedback, AI and the rest of GitBook's site customization, as far as the program declares it. " +
    "GitBook replaces the whole settings object on every write, so each write reads it, puts the declared settings in and sends the rest back as it was: a program declaring three settings changes those three, and a group's undeclared fields (`styling.theme` beside a declared `styling.primaryColor`) stay as they are. " +
    "Refresh shows an app edit of a declared setting as drift, and nothing else. Creating it takes the site's settings as they are (no `adoptId` needed) and sends nothing when the declared ones already hold; " +
    "removing a setting, or deleting the resource, leaves the site's settings as they are (nothing is sent). A site has one: two SiteCustomization resources of one site are refused at preview (the same site ID or `site.id` Output) or at create.",
  inputs,
  outputs,
  ...customizationView(settings),
  target: { field: "siteId", noun: "site", within: (given) => `organization ${given.organizationId}`, wrongId: "the ID is wrong (pass the Site's id output)", one: true },
  path: (given) => paths.siteCustomization(given.organizationId, given.siteId),
  schema: ApiSiteCustomization,
  write: { replace: settings },
});

/** A site's branding: the customization settings the program declares. */
export const SiteCustomization = resourceClass(definition);
export type SiteCustomization = InstanceType<typeof SiteCustomization>;
export type SiteCustomizationArgs = ConstructorParameters<typeof SiteCustomization>[1];
