/**
 * SiteSpace: a further space published in a section of a docs site (a section's site spaces are its
 * variants, e.g. versions or languages).
 *
 * The section is always named (`sectionId`), and should be the SiteSection's `id` output: deleting a
 * section deletes what it holds, so a site space must depend on its section for Pulumi to replace or
 * remove it with the section. Placed implicitly (GitBook puts a site space without a section into the
 * site's default section, or, in a site with no sections, into a new section it names after the site),
 * it would live in a section Pulumi does not know it depends on, and vanish with it unnoticed.
 *
 * A SiteSection creates the site space of the space it is created with; that one is managed through
 * the SiteSection (its `siteSpaceId` output), never through a SiteSpace. Creating a SiteSpace for a
 * space already shown in the target section fails rather than adding a second copy: set `adoptId` to
 * the existing site space to manage it here instead.
 *
 * There is no GET for a single site space: reads find it in the site's site-space list, which the
 * client shares between concurrent reads, so refreshing many site spaces of one site costs one listing.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiSiteSection, ApiSiteSpace, p } from "../client";
import { adoptIdField, organizationIdField, text } from "../framework/check";
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
import { forgetSection, knownContents, sectionDeletedHere } from "./siteContents";

// ---- Types ---------------------------------------------------------------------------------------

export type SiteSpaceInputs = {
  organizationId: string;
  siteId: string;
  spaceId: string;
  sectionId: string;
  path?: string;
  condition?: string;
  default?: boolean;
  adoptId?: string;
};

export type SiteSpaceOutputs = SiteSpaceInputs & {
  /** The section holding the site space, as GitBook reports it. */
  parentSectionId?: string;
  /** Title shown for the site space: its space's title. */
  title: string;
  urls: { published?: string };
};

// ---- Schema --------------------------------------------------------------------------------------

export const siteSpaceSchema = z.object({
  organizationId: organizationIdField,
  siteId: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .describe("ID of the site to publish the space in. Changing it replaces the site space."),
  spaceId: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .describe("ID of the space whose content the site space shows. Changing it repoints the site space in place (its path and URL stay)."),
  sectionId: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .describe(
      "ID of the section to add the space to: pass the SiteSection's `id` output (e.g. `guides.id`), so that replacing or removing the section replaces or removes this site space with it. Required: without it GitBook would put the space in the site's default section (or, in a site without sections, in a new section it names after the site), which deletes it when that section goes, without Pulumi knowing. The space a SiteSection was created with already has its site space there: manage that one through the SiteSection. Changing it replaces the site space.",
    ),
  path: text({ min: 1, max: 100 })
    .optional()
    .describe("URL path segment of the site space within its section, 1 to 100 characters. When omitted the API derives it from the space title; removing it leaves the current path."),
  condition: text({ min: 1, max: 1024 })
    .optional()
    .describe("Adaptive-content expression deciding which visitors see this site space, 1 to 1024 characters. Removing it shows the site space to everyone."),
  default: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      "When true, this site space is the default of its section. False or absent leaves the choice alone: a section always has a default, so setting it back to false does not move it.",
    ),
  adoptId: adoptIdField,
});

// ---- Diff rules ----------------------------------------------------------------------------------

export const siteSpaceDiff: DiffRules = {
  fields: ["organizationId", "siteId", "spaceId", "sectionId", "path", "condition", "default"],
  replaceOn: ["organizationId", "siteId", "sectionId"],
  // A site space cannot outlive the section it is replaced with (deleting a section deletes what it
  // holds), and a replacement landing where the old one is would be refused as showing the space twice.
  deleteBeforeReplace: true,
  // State written before sectionId was required may lack it: the section the site space is in stands
  // for it, so declaring that section now changes nothing.
  view: (props) => ({ ...props, sectionId: props.sectionId ?? props.parentSectionId }),
};

const siteSpacePatch: PatchRules = {
  patchable: ["spaceId", "path", "condition"],
  nullable: ["condition"],
};

// ---- CRUD ----------------------------------------------------------------------------------------

const sectionPath = (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/sections/${id}`;
const siteSpacesPath = (org: string, site: string) => p`/orgs/${org}/sites/${site}/site-spaces`;
const siteSpacePath = (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/site-spaces/${id}`;

function liveInputs(ss: ApiSiteSpace, props: Props): Props {
  return {
    spaceId: ss.space.id,
    sectionId: ss.section ?? undefined,
    path: ss.path,
    condition: ss.condition ?? undefined,
    // Only `default: true` is managed; a declared false must not read as drift when it is the default.
    default: props.default === true ? ss.default === true : props.default,
  };
}

function outputs(declaredInputs: Props, ss: ApiSiteSpace): SiteSpaceOutputs {
  const out: SiteSpaceOutputs = {
    ...(declaredInputs as unknown as SiteSpaceInputs),
    title: ss.title ?? "",
    urls: { ...ss.urls },
  };
  if (ss.section) out.parentSectionId = ss.section;
  return out;
}

function listSiteSpaces(ctx: Ctx, org: string, site: string): Promise<ApiSiteSpace[]> {
  return ctx.client.listAll(siteSpacesPath(org, site), ApiSiteSpace);
}

async function findSiteSpace(ctx: Ctx, org: string, site: string, id: string): Promise<ApiSiteSpace | undefined> {
  const all = await getOrUndefined(listSiteSpaces(ctx, org, site));
  return all?.find((ss) => ss.id === id);
}

/** The section's default site space is set on the section. */
async function makeDefault(ctx: Ctx, org: string, site: string, section: string, ss: ApiSiteSpace): Promise<void> {
  await ctx.client.patch(sectionPath(org, site, section), { body: { defaultSiteSpace: ss.id }, schema: ApiSiteSection });
}

async function create(ctx: Ctx, inputs: SiteSpaceInputs): Promise<{ id: string; outs: SiteSpaceOutputs }> {
  const { organizationId: org, siteId: site, spaceId, sectionId: container } = inputs;
  if (sectionDeletedHere(ctx.client, org, site, container)) {
    throw new Error(
      `SiteSpace: section ${container} of site ${site} was deleted earlier in this run (its SiteSection was replaced or removed), and the site spaces it held with it. ` +
        `Set sectionId to the SiteSection's id output (e.g. sectionId: guides.id) rather than a fixed ID, so that Pulumi replaces the site space together with its section.`,
    );
  }
  const inContainer = async () => (await listSiteSpaces(ctx, org, site)).filter((ss) => ss.space.id === spaceId && ss.section === container);
  // The API would happily show the same space twice in one section; that is never what a program means.
  // A section this deployment created is known without a request (see siteContents.ts); others are listed.
  const known = knownContents(ctx.client, org, site, container);
  const existing = known ? (known.has(spaceId) ? { id: known.get(spaceId) } : undefined) : (await inContainer())[0];
  if (existing && existing.id === undefined) {
    throw new Error(`SiteSpace: space ${spaceId} is declared twice for section ${container} of site ${site} in this program; declare it once.`);
  }
  if (existing) {
    throw new Error(
      `SiteSpace: space ${spaceId} is already published in section ${container} of site ${site} as site space ${existing.id}. ` +
        `If a SiteSection was created with this space, that site space is managed by the SiteSection (its siteSpaceId output); ` +
        `otherwise set adoptId: "${existing.id}" to manage it with this resource.`,
    );
  }
  // Nothing showed this space in the section before we sent, so after a lost answer one that does is
  // ours (unless another resource of this deployment holds it).
  // Reserved before sending, so a second SiteSpace for this space and section fails instead of racing this one.
  known?.set(spaceId, undefined);
  let ss: ApiSiteSpace;
  try {
    ss = await createOnce(ctx, {
      kind: "SiteSpace",
      key: `${org}/${site}/${container}/${spaceId}`,
      what: `site space of space ${spaceId} in section ${container} of site ${site}`,
      send: () => ctx.client.post(siteSpacesPath(org, site), { body: { spaceId, sectionId: container }, schema: ApiSiteSpace }),
      candidates: inContainer,
    });
  } catch (e) {
    // Whether the space is now shown there is unknown: later SiteSpaces for this section list instead.
    forgetSection(ctx.client, org, site, container);
    throw e;
  }
  known?.set(spaceId, ss.id);
  // POST takes only the space and section; path and condition need one PATCH, the default another.
  // (No nullable rule here: an undeclared field is simply not sent.)
  const rest = patchBody(["path", "condition"], inputs, { patchable: siteSpacePatch.patchable });
  try {
    if (Object.keys(rest).length > 0) ss = await ctx.client.patch(siteSpacePath(org, site, ss.id), { body: rest, schema: ApiSiteSpace });
    if (inputs.default === true) {
      await makeDefault(ctx, org, site, ss.section ?? container, ss);
      ss = { ...ss, default: true };
    }
  } catch (e) {
    const live = refreshDeclared(siteSpaceDiff.fields, declared(inputs), liveInputs(ss, inputs));
    throw settingsFailed("site space", ss.id, outputs({ ...declared(inputs), ...live }, ss), e);
  }
  return { id: ss.id, outs: outputs(declared(inputs), ss) };
}

async function read(ctx: Ctx, id: string, props: SiteSpaceOutputs): Promise<SiteSpaceOutputs | undefined> {
  const ss = await findSiteSpace(ctx, props.organizationId, props.siteId, id);
  if (!ss) return undefined;
  return outputs(refreshDeclared([...siteSpaceDiff.fields, "adoptId"], props, liveInputs(ss, props)), ss);
}

async function update(ctx: Ctx, id: string, olds: SiteSpaceOutputs, news: SiteSpaceInputs): Promise<SiteSpaceOutputs> {
  const { organizationId: org, siteId: site } = news;
  const changed = changedFields(siteSpaceDiff, olds, news);
  const body = patchBody(changed, news, siteSpacePatch);
  // Repointing changes which space the section shows.
  if (body.spaceId !== undefined) forgetSection(ctx.client, org, site, olds.parentSectionId ?? olds.sectionId);
  let ss = Object.keys(body).length > 0 ? await ctx.client.patch(siteSpacePath(org, site, id), { body, schema: ApiSiteSpace }) : undefined;
  const patched = ss !== undefined;
  ss ??= await findSiteSpace(ctx, org, site, id);
  if (!ss) throw new Error(`SiteSpace: site space ${id} no longer exists in site ${site}; run \`pulumi refresh\` to drop it from state.`);
  if (changed.includes("default") && news.default === true) {
    try {
      await makeDefault(ctx, org, site, ss.section ?? news.sectionId, ss);
    } catch (e) {
      if (!patched) throw e;
      throw new PartialFailure(id, outputs({ ...declared(news), default: olds.default }, ss), [
        `site space ${id} was updated but could not be made the default: ${(e as Error).message}`,
      ], { cause: e, field: "default" });
    }
  }
  return outputs(declared(news), ss);
}

async function remove(ctx: Ctx, id: string, props: SiteSpaceOutputs): Promise<void> {
  forgetSection(ctx.client, props.organizationId, props.siteId, props.parentSectionId ?? props.sectionId);
  await ctx.client.delete(siteSpacePath(props.organizationId, props.siteId, id));
}

/**
 * The section this site space is in was deleted earlier in this run (a SiteSection replaced or removed
 * while the site space did not follow it, e.g. its sectionId is a fixed ID): the site space went with
 * it, so it is replaced rather than called unchanged (its create then says what to change).
 */
function replacedBy(ctx: Ctx, _id: string, olds: SiteSpaceOutputs): string[] {
  const section = olds.parentSectionId ?? olds.sectionId;
  return sectionDeletedHere(ctx.client, olds.organizationId, olds.siteId, section) ? ["sectionId"] : [];
}

export const definition: ResourceDef<SiteSpaceInputs, SiteSpaceOutputs> = {
  kind: "SiteSpace",
  schema: siteSpaceSchema,
  diff: siteSpaceDiff,
  create,
  read,
  update,
  delete: remove,
  replacedBy,
};

// ---- Resource class ------------------------------------------------------------------------------

export type SiteSpaceArgs = {
  [K in keyof Omit<SiteSpaceInputs, "organizationId" | "siteId" | "spaceId" | "sectionId">]?: pulumi.Input<SiteSpaceInputs[K]>;
} & {
  organizationId?: pulumi.Input<string>;
  siteId: pulumi.Input<string>;
  spaceId: pulumi.Input<string>;
  /** The SiteSection's `id` output, so the site space is replaced and removed with its section. */
  sectionId: pulumi.Input<string>;
};

/** A further space in a section of a GitBook docs site. */
export class SiteSpace extends pulumi.dynamic.Resource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly siteId: pulumi.Output<string>;
  declare readonly spaceId: pulumi.Output<string>;
  declare readonly sectionId: pulumi.Output<string>;
  declare readonly path: pulumi.Output<string | undefined>;
  declare readonly condition: pulumi.Output<string | undefined>;
  declare readonly default: pulumi.Output<boolean | undefined>;
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** The section holding the site space, as GitBook reports it. */
  declare readonly parentSectionId: pulumi.Output<string | undefined>;
  declare readonly title: pulumi.Output<string>;
  declare readonly urls: pulumi.Output<SiteSpaceOutputs["urls"]>;

  constructor(name: string, args: SiteSpaceArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("SiteSpace"),
      name,
      resourceProps(name, siteSpaceSchema, args, ["parentSectionId", "title", "urls"]),
      opts,
      "gitbook",
      "SiteSpace",
    );
  }
}
