/**
 * Space: a container of documentation (pages, files, revisions), which sites show through their
 * sections and site spaces: `spaceId: space.id` on a SiteSection or SiteSpace, so a whole site can be
 * declared from nothing.
 *
 * The POST takes the title, emoji, parent collection, language and edit mode; an icon and a default
 * level need a PATCH after it. Emoji and icon are alternatives (the PATCH takes one or the other), so
 * a program declares at most one of them. Deleting a space sends it to GitBook's trash, from which it
 * can be restored for 7 days.
 */
import { z } from "zod";
import { p, apiObject, apiUrls } from "../client";
import { ApiSiteSpace } from "./siteSpace";
import type { HeldObject } from "../framework/cascade";
import { isUnknown } from "../framework/check";
import { defineResource, resourceClass, type Inputs, type Outputs, type Lookalikes } from "../framework/define";
import { allowReplacementField, field, forceDestroyField, httpUrl, organizationIdField, text, TRANSLATION_LANGUAGES, wireShape } from "../framework/fields";
import { ApiSite } from "./site";
import { sitePaths, siteSpacePaths } from "./sitePaths";
import { finishCreate, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import { getOrUndefined, listFresh } from "../framework/lists";
import { patchBody } from "../framework/patch";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import { mapLimit, settingsOf, type ImportRead } from "../framework/discover";
import type { SiteSnapshot } from "../importer/snapshot";
import { defaultLevelField, parentField, updateInTree, type TreePaths } from "./contentTree";

// ---- Schema --------------------------------------------------------------------------------------

export const SPACE_EDIT_MODES = ["live", "locked"] as const;

// The spec's `format: emoji`, "Unicode codepoint or character of the emoji": one emoji (a single
// character or a sequence such as 👩‍💻), or its codepoints in hex joined by "-" (1f469-200d-1f4bb).
// Built at its first check: parsing the RGI_Emoji set takes V8 about 10 ms, which every program
// and provider host paid at load whether or not it checks an emoji.
let oneEmoji: RegExp | undefined;
const isOneEmoji = (v: string) => (oneEmoji ??= new RegExp("^\\p{RGI_Emoji}$", "v")).test(v);
const CODEPOINTS = /^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i;

/** The emoji as codepoints, without variation selectors: both spellings of one emoji compare equal. */
function emojiKey(emoji: string): string {
  const points = CODEPOINTS.test(emoji) ? emoji.split("-").map((h) => parseInt(h, 16)) : [...emoji].map((c) => c.codePointAt(0)!);
  return points
    .filter((cp) => cp !== 0xfe0f)
    .map((cp) => cp.toString(16))
    .join("-");
}

/** The spec's `Emoji`: one emoji, as the character or its codepoints, at most 50 characters. */
export function emojiText() {
  return text({ max: 50 }).refine((v) => isOneEmoji(v) || CODEPOINTS.test(v), "must be one emoji, as the character (🎉) or its Unicode codepoints in hex (1f389)");
}

const inputs = z
  .object({
    organizationId: organizationIdField,
    // GitBook's SpaceTitle has no minimum: a space titled "" is one a program can adopt.
    title: text({ max: 50 }).describe("Title of the space, at most 50 characters; GitBook allows it empty."),
    emoji: emojiText()
      .optional()
      .describe(
        "Emoji shown with the title: one emoji, as the character (`🎉`) or its Unicode codepoints in hex (`1f389`), at most 50 characters; GitBook's answer in either spelling matches. Not with `icon`. Removing it removes the emoji.",
      )
      .register(field, { remove: "clear" }),
    icon: httpUrl(2048)
      .optional()
      .describe("URL of an image shown with the title instead of an emoji, an http(s) URL of at most 2048 characters. Not with `emoji`. Removing it removes the icon.")
      .register(field, { remove: "clear" }),
    parent: parentField("space"),
    language: z
      .enum(TRANSLATION_LANGUAGES, { error: `must be one of ${TRANSLATION_LANGUAGES.join(", ")}` })
      .optional()
      .describe(
        `Language of the space's content: one of ${TRANSLATION_LANGUAGES.map((l) => `\`${l}\``).join(", ")}. Removing it leaves the current language (the API cannot unset it).`,
      ),
    editMode: z
      .enum(SPACE_EDIT_MODES, { error: "must be live or locked" })
      .optional()
      .describe(
        "How the space can be edited: `live` (members with edit access edit it directly) or `locked` (every edit is locked). Managed only when declared: a space created without it is `live`, an adopted space keeps its mode, and removing it leaves the current mode. The output is always the space's actual mode.",
      )
      .register(field, { live: true }),
    defaultLevel: defaultLevelField("space", "its collection, or of the organization at the top level"),
    forceDestroy: forceDestroyField(
      "space",
      "the space's pages (to its trash, restorable for 7 days; a refused delete counts them) and every site space still showing it, on any site (the sites and their other site spaces stay)",
    ),
    allowReplacement: allowReplacementField,
  })
  .superRefine((v, ctx) => {
    // The PATCH sets an emoji or an icon, never both; with either unknown at preview, apply decides.
    if (v.emoji !== undefined && v.icon !== undefined && !isUnknown(v.emoji) && !isUnknown(v.icon)) {
      ctx.addIssue({ code: "custom", path: ["icon"], message: "cannot be declared with emoji: a space shows an emoji or an icon; remove one of them" });
    }
  });

const outputs = z.object({
  editMode: z.string().describe("The space's actual edit mode: `live` or `locked`."),
  visibility: z.string().describe("Who can open the space in GitBook (e.g. `private`, `in-collection`). Visitors reach it through the sites showing it."),
  urls: z
    .object({
      location: z.string().optional().describe("API URL of the space."),
      app: z.string().optional().describe("URL of the space in the GitBook app."),
      published: z.string().optional().describe("URL of the published space, when it is published."),
    })
    .describe("The space's URLs."),
  createdAt: z.string().describe("When the space was created."),
});

export type SpaceInputs = Inputs<typeof inputs>;
export type SpaceOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Wire ----------------------------------------------------------------------------------------

// What GitBook answers for this kind: loose objects (fields the API adds pass through), while a missing
// or mistyped field the kind uses fails with its name (ContractError).

export const ApiSpace = apiObject("space", {
  ...wireShape(inputs),
  title: z.string(),
  /** "" (or absent) when the space shows no emoji. */
  emoji: z.string().optional().nullable(),
  visibility: z.string().optional(),
  createdAt: z.string(),
  /** Set on a space in the trash. */
  deletedAt: z.string().optional().nullable(),
  organization: z.string().optional(),
  urls: apiUrls.extend({ icon: z.string().optional() }).optional(),
});
export type ApiSpace = z.infer<typeof ApiSpace>;

/** The kind's API paths (the `p` tag encodes each ID as one path segment). */
export const paths = {
  spaces: (org: string) => p`/orgs/${org}/spaces`,
  space: (id: string) => p`/spaces/${id}`,
  spaceMove: (id: string) => p`/spaces/${id}/move`,
  spacePages: (id: string) => p`/spaces/${id}/content/pages`,
};

/** A page of listPages (the spec's RevisionPage), as far as counting reads it: GitBook dates a page only once it is edited. */
type ApiPage = { id: string; createdAt?: string | undefined; updatedAt?: string | undefined; pages?: ApiPage[] | undefined };
const ApiPage: z.ZodType<ApiPage> = z.lazy(() =>
  z.looseObject({ id: z.string(), createdAt: z.string().optional(), updatedAt: z.string().optional(), pages: z.array(ApiPage).optional() }),
);
const ApiPages = z.looseObject({ pages: z.array(ApiPage) });

// ---- CRUD ----------------------------------------------------------------------------------------

const at = (id: string): TreePaths<ApiSpace> => ({ object: paths.space(id), move: paths.spaceMove(id), schema: ApiSpace });

/** Every input the API reports. An emoji GitBook spells differently from the program reads as the program's. */
function live(space: ApiSpace, props: Props): Props {
  const emoji = space.emoji || undefined;
  const declaredEmoji = typeof props.emoji === "string" ? props.emoji : undefined;
  return {
    ...(space.organization ? { organizationId: space.organization } : {}),
    title: space.title,
    emoji: emoji !== undefined && declaredEmoji !== undefined && emojiKey(emoji) === emojiKey(declaredEmoji) ? declaredEmoji : emoji,
    icon: space.urls?.icon ?? undefined,
    parent: space.parent ?? undefined,
    language: space.language ?? undefined,
    editMode: space.editMode,
    defaultLevel: space.defaultLevel,
  };
}

function lookalikes(ctx: Ctx, given: SpaceInputs): Lookalikes<ApiSpace> {
  const org = given.organizationId;
  return {
    kind: "Space",
    key: `${org}/${given.title}`,
    what: `space ${JSON.stringify(given.title)}${given.parent ? ` in collection ${given.parent}` : ""}`,
    // A lost answer may still have made the space: one of this title, where it was to go, created since
    // the request and held by no other resource (titles are not unique).
    candidates: async () =>
      (await ctx.client.listAll(paths.spaces(org), ApiSpace)).filter((s) => s.title === given.title && (s.parent ?? undefined) === given.parent),
    before: "list",
    createdAt: (s) => s.createdAt,
  };
}

async function create(ctx: Ctx, given: SpaceInputs): Promise<{ id: string; outs: SpaceOutputs }> {
  const org = given.organizationId;
  // Only what the program declares: GitBook's defaults apply to the rest.
  const post = declared({ title: given.title, emoji: given.emoji, parent: given.parent, language: given.language, editMode: given.editMode });
  const space = await createOnce(ctx, { ...lookalikes(ctx, given), send: () => ctx.client.post(paths.spaces(org), { body: post, schema: ApiSpace }) });
  return finishCreate(definition, given, space, async (created, advance) => {
    // Only declared values (null is a default level of its own): nothing is cleared on a new space.
    const rest = patchBody(["icon", "defaultLevel"], given, { patchable: definition.patch.patchable, nullValues: definition.patch.nullValues });
    if (Object.keys(rest).length > 0) advance(await ctx.client.patch(paths.space(created.id), { body: rest, schema: ApiSpace }));
  });
}

async function read(ctx: Ctx, id: string, props: SpaceOutputs): Promise<SpaceOutputs | undefined> {
  const space = await getOrUndefined(ctx.client.get(paths.space(id), { schema: ApiSpace }));
  // A space in the trash is gone for this resource (restore it in GitBook, then adopt it to manage it again).
  return space && !space.deletedAt ? refreshed(definition, props, space) : undefined;
}

async function update(ctx: Ctx, id: string, olds: SpaceOutputs, news: SpaceInputs, changed: readonly string[]): Promise<SpaceOutputs> {
  return updateInTree(ctx, definition, id, olds, news, changed, at(id));
}

/**
 * The site spaces showing the space, on any site of the organization: GitBook takes them off their
 * sites with the space. The engine deletes the program's SiteSpaces and SiteSections that take the
 * space's `id` first, so what is still here was made in the app, by another stack, or names the space
 * by a fixed ID. The sites' listing filtered by space names the few sites to read.
 */
async function heldSiteSpaces(ctx: Ctx, id: string, props: Props): Promise<HeldObject[]> {
  const org = (props as SpaceOutputs).organizationId;
  const sites = (await listFresh(ctx, sitePaths.sites(org), ApiSite, { space: id })) ?? [];
  const held: HeldObject[] = [];
  for (const site of sites) {
    const shown = (await listFresh(ctx, siteSpacePaths.siteSpaces(org, site.id), ApiSiteSpace)) ?? [];
    for (const ss of shown) if (ss.space.id === id) held.push({ kind: "SiteSpace", title: `${site.title} / ${ss.title ?? ss.path}`, id: ss.id });
  }
  return held;
}

/**
 * How many pages the space holds, child pages included (listPages, one request; 0 when the space is
 * gone). A space GitBook has just made holds one page that nobody has edited: the spec dates a page
 * (`createdAt`, `updatedAt`) only once it has been edited, so one undated page with no child is that
 * page, and counts as none. Any other content counts whole, dated or not (an import or a Git sync may
 * bring pages no one edited in GitBook).
 */
export async function spacePages(ctx: Ctx, id: string): Promise<number> {
  const content = await getOrUndefined(ctx.client.get(paths.spacePages(id), { query: { metadata: false, computed: false }, schema: ApiPages }));
  const all: ApiPage[] = [];
  const walk = (pages: readonly ApiPage[]) => pages.forEach((p) => (all.push(p), walk(p.pages ?? [])));
  walk(content?.pages ?? []);
  const untouched = all.length === 1 && all[0]!.createdAt === undefined && all[0]!.updatedAt === undefined;
  return untouched ? 0 : all.length;
}

async function remove(ctx: Ctx, id: string): Promise<void> {
  await ctx.client.delete(paths.space(id));
}

// ---- Import --------------------------------------------------------------------------------------

/**
 * The spaces the imported sites show, each once, from the objects their site spaces embed (GitBook's
 * SiteSpace carries the whole Space): no request, unless an answer embeds less than a space, which is
 * then read alone. Only spaces a site shows: the others are content, not the structure of a site.
 */
function importRead(): ImportRead {
  return {
    after: ["Site"],
    into: "spaces",
    async find(ctx) {
      const sites = ctx.snapshot.sites as SiteSnapshot[];
      const shown = sites.flatMap((s) => [...s.sections.flatMap((x) => x.siteSpaces), ...s.rootSiteSpaces]).map((ss) => ctx.sourceOf<ApiSiteSpace>(ss).space);
      const byId = new Map<string, ApiSiteSpace["space"]>();
      for (const s of shown) if (!byId.has(s.id) || !ApiSpace.safeParse(byId.get(s.id)).success) byId.set(s.id, s);
      const spaces = await mapLimit([...byId.values()], ctx.limit, async (s) => {
        const embedded = ApiSpace.safeParse(s);
        return embedded.success ? embedded.data : ctx.get(paths.space(s.id), ApiSpace);
      });
      return spaces.map((s) => ({ ...settingsOf(definition, s), id: s.id, createdAt: s.createdAt }));
    },
  };
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "Space",
  import: { variableSuffix: "-space", read: importRead() },
  adoptable: true,
  noun: "space",
  summary:
    "A space: a container of documentation, shown on sites by the SiteSection and SiteSpace resources (`spaceId: space.id`), so a site can be declared from nothing. Destroying it (or removing it from the program) deletes the space with its content: GitBook keeps a deleted space in its trash, from which it can be restored in the app for 7 days, then removes it for good. The sections and site spaces showing a space go before it (Pulumi deletes them first when they take its `id`): a delete that would still take a site space off a site (made in the app, by another stack, or naming the space by a fixed ID), or trash pages, fails before deleting anything, listing the site spaces and counting the pages, unless `forceDestroy` is set. That holds whatever deletes it: removing it from the program, a DocsSite key renamed without `formerKeys`, `pulumi destroy`, or a replacement (refused at preview). The one page GitBook puts in a new space, never edited, is not counted.",
  holds: "its pages",
  inputs,
  outputs,
  live,
  computed: (space: ApiSpace) => ({
    editMode: space.editMode ?? "live",
    visibility: space.visibility ?? "private",
    urls: { location: space.urls?.location, app: space.urls?.app, published: space.urls?.published },
    createdAt: space.createdAt,
  }),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  cascade: { consequence: "GitBook takes every site space showing a space off its site when the space is deleted.", held: heldSiteSpaces, pages: spacePages, docsSiteEntry: "space" },
});

/** A GitBook space. Deleting it sends it to GitBook's trash, restorable for 7 days. */
export const Space = resourceClass(definition);
export type Space = InstanceType<typeof Space>;
export type SpaceArgs = ConstructorParameters<typeof Space>[1];
