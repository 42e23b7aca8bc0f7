/**
 * SiteSection: a top-level section of a docs site (a tab in the site's header), showing spaces.
 *
 * The API never creates an empty section: POST @SITE/sections takes a space and creates the section
 * together with that space's site space, the section's first and default one. That site space belongs
 * to this resource (its ID is the `siteSpaceId` output); further spaces of the section are SiteSpace
 * resources with `sectionId` set.
 *
 * There is no GET for a single section: reads find it in the site's section list, which the client
 * shares between concurrent reads, so refreshing many sections of one site costs one listing.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiSite, ApiSiteSection, p } from "../client";
import { adoptIdField, organizationIdField, text } from "../framework/check";
import { claimsOf } from "../framework/claims";
import { changedFields, type DiffRules } from "../framework/diff";
import {
  createOnce,
  declared,
  getOrUndefined,
  PartialFailure,
  patchBody,
  refreshDeclared,
  resourceProps,
  settingsFailed,
  type Ctx,
  type PatchRules,
  type Props,
  type ResourceDef,
} from "../framework/resource";
import { providerFor } from "../shim";
import { forgetSection, learnSection, noteSectionDeleted } from "./siteContents";

// ---- Types ---------------------------------------------------------------------------------------

export type SiteSectionInputs = {
  organizationId: string;
  siteId: string;
  spaceId: string;
  title?: string;
  icon?: string;
  path?: string;
  condition?: string;
  description?: string;
  default?: boolean;
  adoptId?: string;
};

export type SiteSectionOutputs = SiteSectionInputs & {
  /** The site space created with the section, showing `spaceId`; absent only if removed outside Pulumi. */
  siteSpaceId?: string;
  urls: { published?: string };
};

// ---- Schema --------------------------------------------------------------------------------------

export const siteSectionSchema = z.object({
  organizationId: organizationIdField,
  siteId: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .describe("ID of the site the section belongs to. Changing it replaces the section."),
  spaceId: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .describe(
      "ID of the space the section is created with: it becomes the section's first (default) site space, managed by this resource and exposed as `siteSpaceId`. Do not declare a SiteSpace for this same space in this section. Changing it replaces the section.",
    ),
  title: text({ min: 2, max: 128 })
    .optional()
    .describe("Title of the section, 2 to 128 characters. When omitted (or removed) the section shows the title of its space."),
  icon: text({ max: 50 })
    .optional()
    .describe("Name of the icon shown next to the title, at most 50 characters (e.g. `book`). Removing it removes the icon."),
  path: text({ min: 1, max: 100 })
    .optional()
    .describe("URL path segment of the section, 1 to 100 characters. When omitted the API derives it from the title; removing it leaves the current path."),
  condition: text({ min: 1, max: 1024 })
    .optional()
    .describe("Adaptive-content expression deciding which visitors see the section, 1 to 1024 characters. Removing it shows the section to everyone."),
  description: text({ max: 256 })
    .optional()
    .describe("Short description of the section, at most 256 characters. Removing it clears the description."),
  default: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      "When true, this section is the site's default (the one shown at the site's root). False or absent leaves the choice alone: a site always has a default section, so setting it back to false does not move it.",
    ),
  adoptId: adoptIdField,
});

// ---- Diff rules ----------------------------------------------------------------------------------

export const siteSectionDiff: DiffRules = {
  fields: ["organizationId", "siteId", "spaceId", "title", "icon", "path", "condition", "description", "default"],
  // The section's first site space cannot be swapped for another space through the section.
  replaceOn: ["organizationId", "siteId", "spaceId"],
  // Section paths are unique within a site: a replacement with the same declared path would collide.
  deleteBeforeReplace: true,
};

const sectionPatch: PatchRules = {
  patchable: ["title", "icon", "path", "condition", "description"],
  // A null title makes the section follow its space's title again (the API default).
  nullable: ["title", "icon", "condition", "description"],
};

// ---- CRUD ----------------------------------------------------------------------------------------

const sitePath = (org: string, site: string) => p`/orgs/${org}/sites/${site}`;
const sectionsPath = (org: string, site: string) => p`/orgs/${org}/sites/${site}/sections`;
const sectionPath = (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/sections/${id}`;

type ApiSiteSpaceOf = NonNullable<ApiSiteSection["siteSpaces"]>[number];

/**
 * The section's own site space: the recorded one, else the one showing the declared space. With none
 * recorded (adoption) and none showing the declared space, the section's first site space stands for
 * the space it was made from, so a mismatched adoption shows up as a spaceId change.
 */
function ownSiteSpace(section: ApiSiteSection, props: Props): ApiSiteSpaceOf | undefined {
  const spaces = section.siteSpaces ?? [];
  const own = spaces.find((ss) => ss.id === props.siteSpaceId) ?? spaces.find((ss) => ss.space.id === props.spaceId);
  return own ?? (props.siteSpaceId === undefined ? spaces[0] : undefined);
}

/** Every input the API reports, keyed like the inputs (`props` resolves what is only partly managed). */
function liveInputs(section: ApiSiteSection, props: Props): Props {
  const live: Props = {
    title: section.title,
    icon: section.icon ?? undefined,
    path: section.path,
    condition: section.condition ?? undefined,
    description: section.description ?? undefined,
    // Only `default: true` is managed; a declared false must not read as drift when the section is the default.
    default: props.default === true ? section.default === true : props.default,
  };
  const own = ownSiteSpace(section, props);
  // Without its site space (removed outside Pulumi) the section no longer says which space it was made from.
  if (own) live.spaceId = own.space.id;
  return live;
}

function outputs(declaredInputs: Props, section: ApiSiteSection, siteSpaceId: string | undefined): SiteSectionOutputs {
  const out: SiteSectionOutputs = { ...(declaredInputs as unknown as SiteSectionInputs), urls: { ...section.urls } };
  if (siteSpaceId) out.siteSpaceId = siteSpaceId;
  return out;
}

async function findSection(ctx: Ctx, org: string, site: string, id: string): Promise<ApiSiteSection | undefined> {
  const sections = await getOrUndefined(ctx.client.listAll(sectionsPath(org, site), ApiSiteSection));
  return sections?.find((s) => s.id === id);
}

async function makeDefault(ctx: Ctx, org: string, site: string, id: string): Promise<void> {
  await ctx.client.patch(sitePath(org, site), { body: { defaultSiteSection: id }, schema: ApiSite });
}

async function create(ctx: Ctx, inputs: SiteSectionInputs): Promise<{ id: string; outs: SiteSectionOutputs }> {
  const { organizationId: org, siteId: site, spaceId } = inputs;
  const post: Props = { spaceId };
  if (inputs.title !== undefined) post.title = inputs.title;
  if (inputs.icon !== undefined) post.icon = inputs.icon;
  let section = await createOnce(ctx, {
    kind: "SiteSection",
    key: `${org}/${site}/${spaceId}`,
    what: `section of space ${spaceId}${inputs.title === undefined ? "" : ` titled ${JSON.stringify(inputs.title)}`} in site ${site}`,
    send: () => ctx.client.post(sectionsPath(org, site), { body: post, schema: ApiSiteSection }),
    // Sections carry no creation time: after a lost answer, the section the POST made shows this space
    // (and bears the declared title), and no other resource holds it.
    candidates: async () =>
      (await ctx.client.listAll(sectionsPath(org, site), ApiSiteSection)).filter(
        (s) => (s.siteSpaces ?? []).some((ss) => ss.space.id === spaceId) && (inputs.title === undefined || s.title === inputs.title),
      ),
  });
  const siteSpaceId = ownSiteSpace(section, { spaceId })?.id;
  // SiteSpaces added to this new section then need no listing to know what it already shows.
  learnSection(ctx.client, org, site, section.id, section.siteSpaces);
  // POST takes only the space, title and icon; the rest needs one PATCH, and the default one site PATCH.
  // (No nullable rule here: an undeclared field is simply not sent.)
  const rest = patchBody(["path", "condition", "description"], inputs, { patchable: sectionPatch.patchable });
  try {
    if (Object.keys(rest).length > 0) {
      section = await ctx.client.patch(sectionPath(org, site, section.id), { body: rest, schema: ApiSiteSection });
    }
    if (inputs.default === true) {
      await makeDefault(ctx, org, site, section.id);
      section = { ...section, default: true };
    }
  } catch (e) {
    const live = refreshDeclared(siteSectionDiff.fields, declared(inputs), liveInputs(section, { ...inputs, siteSpaceId }));
    throw settingsFailed("site section", section.id, outputs({ ...declared(inputs), ...live }, section, siteSpaceId), e);
  }
  return { id: section.id, outs: outputs(declared(inputs), section, siteSpaceId) };
}

async function read(ctx: Ctx, id: string, props: SiteSectionOutputs): Promise<SiteSectionOutputs | undefined> {
  const section = await findSection(ctx, props.organizationId, props.siteId, id);
  if (!section) return undefined;
  const live = refreshDeclared([...siteSectionDiff.fields, "adoptId"], props, liveInputs(section, props));
  return outputs(live, section, ownSiteSpace(section, props)?.id);
}

async function update(ctx: Ctx, id: string, olds: SiteSectionOutputs, news: SiteSectionInputs): Promise<SiteSectionOutputs> {
  const { organizationId: org, siteId: site } = news;
  const changed = changedFields(siteSectionDiff, olds, news);
  const body = patchBody(changed, news, sectionPatch);
  let section = Object.keys(body).length > 0 ? await ctx.client.patch(sectionPath(org, site, id), { body, schema: ApiSiteSection }) : undefined;
  if (changed.includes("default") && news.default === true) {
    try {
      await makeDefault(ctx, org, site, id);
    } catch (e) {
      if (!section) throw e;
      // The section PATCH went through: record it, with `default` as it still is.
      throw new PartialFailure(id, outputs({ ...declared(news), default: olds.default }, section, olds.siteSpaceId), [
        `site section ${id} was updated but could not be made the site's default: ${(e as Error).message}`,
      ], { cause: e, field: "default" });
    }
  }
  section ??= await findSection(ctx, org, site, id);
  if (!section) throw new Error(`SiteSection: section ${id} no longer exists in site ${site}; run \`pulumi refresh\` to drop it from state.`);
  return outputs(declared(news), section, ownSiteSpace(section, olds)?.id ?? olds.siteSpaceId);
}

async function remove(ctx: Ctx, id: string, props: SiteSectionOutputs): Promise<void> {
  const { organizationId: org, siteId: site } = props;
  // Deleting the section also deletes its site spaces, the one it was created with included. A SiteSpace
  // that depends on this section (sectionId: section.id) has been replaced or deleted by now; one the
  // program still declares here does not follow the section, and would vanish with state still listing it.
  const stranded = claimsOf(ctx.client)
    .declaredOf("SiteSpace")
    .filter(({ props: ss }) => ss.siteId === site && (ss.parentSectionId ?? ss.sectionId) === id);
  if (stranded.length > 0) {
    throw new Error(
      `SiteSection: section ${id} of site ${site} still holds ${stranded.map((s) => `site space ${s.id}`).join(", ")}, ` +
        `declared by a SiteSpace of this program whose sectionId does not come from this SiteSection; deleting the section would delete ${stranded.length > 1 ? "them" : "it"} too. ` +
        `Set that SiteSpace's sectionId to this SiteSection's id output (so Pulumi replaces or removes it with the section), or move or remove it first. Nothing was deleted.`,
    );
  }
  forgetSection(ctx.client, org, site, id);
  await ctx.client.delete(sectionPath(org, site, id));
  noteSectionDeleted(ctx.client, org, site, id);
}

export const definition: ResourceDef<SiteSectionInputs, SiteSectionOutputs> = {
  kind: "SiteSection",
  schema: siteSectionSchema,
  diff: siteSectionDiff,
  create,
  read,
  update,
  delete: remove,
};

// ---- Resource class ------------------------------------------------------------------------------

export type SiteSectionArgs = {
  [K in keyof Omit<SiteSectionInputs, "organizationId" | "siteId" | "spaceId">]?: pulumi.Input<SiteSectionInputs[K]>;
} & {
  organizationId?: pulumi.Input<string>;
  siteId: pulumi.Input<string>;
  spaceId: pulumi.Input<string>;
};

/** A section of a GitBook docs site, created with its first space. */
export class SiteSection extends pulumi.dynamic.Resource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly siteId: pulumi.Output<string>;
  declare readonly spaceId: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string | undefined>;
  declare readonly icon: pulumi.Output<string | undefined>;
  declare readonly path: pulumi.Output<string | undefined>;
  declare readonly condition: pulumi.Output<string | undefined>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly default: pulumi.Output<boolean | undefined>;
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** The site space created with the section, showing `spaceId`. */
  declare readonly siteSpaceId: pulumi.Output<string>;
  declare readonly urls: pulumi.Output<SiteSectionOutputs["urls"]>;

  constructor(name: string, args: SiteSectionArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("SiteSection"),
      name,
      resourceProps(name, siteSectionSchema, args, ["siteSpaceId", "urls"]),
      opts,
      "gitbook",
      "SiteSection",
    );
  }
}
