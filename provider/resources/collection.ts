/**
 * Collection: a folder of the organization's content tree, holding spaces and other collections.
 *
 * The POST takes only the title and the parent; a description and a default level need a PATCH after
 * it. The PATCH takes a description as a string only (no null), so removing it sends "".
 *
 * Collections carry no creation time, so after a lost create answer the collection the request made is
 * recognised as the one of this title, in this parent, that no resource of this deployment holds.
 */
import { z } from "zod";
import { p, apiObject } from "../client";
import { ApiSpace, spacePages } from "./space";
import type { HeldObject } from "../framework/cascade";
import { listFresh } from "../framework/lists";
import { defineResource, resourceClass, type Inputs, type Lookalikes, type Outputs } from "../framework/define";
import { allowReplacementField, field, forceDestroyField, organizationIdField, text, wireShape } from "../framework/fields";
import { finishCreate, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import { getOrUndefined } from "../framework/lists";
import { patchBody } from "../framework/patch";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import { count, mapLimit, settingsOf, type ImportRead, type ImportRecord } from "../framework/discover";
import type { SpaceSnapshot } from "../importer/snapshot";
import { defaultLevelField, parentField, updateInTree, type TreePaths } from "./contentTree";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  // GitBook's CollectionTitle has no minimum: a collection titled "" is one a program can adopt.
  title: text({ max: 50 }).describe("Title of the collection, at most 50 characters; GitBook allows it empty."),
  // The API takes "" and answers without a description, so "" is not a value a program declares.
  description: text({ min: 1, max: 100 })
    .optional()
    .describe("Description of the collection, 1 to 100 characters. Removing it clears the description.")
    .register(field, { remove: { reset: "" } }),
  parent: parentField("collection"),
  defaultLevel: defaultLevelField("collection", "its parent collection, or of the organization at the top level"),
  forceDestroy: forceDestroyField(
    "collection",
    "every collection and space in it and everything in those (the spaces go to GitBook's trash, restorable there for 7 days, then gone with their pages)",
  ),
  allowReplacement: allowReplacementField,
});

const outputs = z.object({
  urls: z
    .object({
      location: z.string().optional().describe("API URL of the collection."),
      app: z.string().optional().describe("URL of the collection in the GitBook app."),
    })
    .describe("The collection's URLs."),
});

export type CollectionInputs = Inputs<typeof inputs>;
export type CollectionOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Wire ----------------------------------------------------------------------------------------

// What GitBook answers for this kind: loose objects (fields the API adds pass through), while a missing
// or mistyped field the kind uses fails with its name (ContractError).

export const ApiCollection = apiObject("collection", {
  ...wireShape(inputs),
  title: z.string(),
  organization: z.string().optional(),
});
export type ApiCollection = z.infer<typeof ApiCollection>;

/** The kind's API paths (the `p` tag encodes each ID as one path segment). */
export const paths = {
  collections: (org: string) => p`/orgs/${org}/collections`,
  collection: (id: string) => p`/collections/${id}`,
  collectionMove: (id: string) => p`/collections/${id}/move`,
  collectionSpaces: (id: string) => p`/collections/${id}/spaces`,
};

// ---- CRUD ----------------------------------------------------------------------------------------

const at = (id: string): TreePaths<ApiCollection> => ({ object: paths.collection(id), move: paths.collectionMove(id), schema: ApiCollection });

function lookalikes(ctx: Ctx, given: CollectionInputs): Lookalikes<ApiCollection> {
  const org = given.organizationId;
  return {
    kind: "Collection",
    key: `${org}/${given.title}`,
    what: `collection ${JSON.stringify(given.title)}${given.parent ? ` in collection ${given.parent}` : ""}`,
    candidates: async () =>
      (await ctx.client.listAll(paths.collections(org), ApiCollection)).filter((c) => c.title === given.title && (c.parent ?? undefined) === given.parent),
    // Collections carry no creation time: only the listing before tells an app-made namesake from ours.
    before: "list",
  };
}

async function create(ctx: Ctx, given: CollectionInputs): Promise<{ id: string; outs: CollectionOutputs }> {
  const org = given.organizationId;
  const collection = await createOnce(ctx, {
    ...lookalikes(ctx, given),
    send: () => ctx.client.post(paths.collections(org), { body: declared({ title: given.title, parent: given.parent }), schema: ApiCollection }),
  });
  return finishCreate(definition, given, collection, async (created, advance) => {
    // Only declared values (null is a default level of its own): nothing is cleared on a new collection.
    const rest = patchBody(["description", "defaultLevel"], given, { patchable: definition.patch.patchable, nullValues: definition.patch.nullValues });
    if (Object.keys(rest).length > 0) advance(await ctx.client.patch(paths.collection(created.id), { body: rest, schema: ApiCollection }));
  });
}

async function read(ctx: Ctx, id: string, props: CollectionOutputs): Promise<CollectionOutputs | undefined> {
  const collection = await getOrUndefined(ctx.client.get(paths.collection(id), { schema: ApiCollection }));
  return collection && refreshed(definition, props, collection);
}

async function update(ctx: Ctx, id: string, olds: CollectionOutputs, news: CollectionInputs, changed: readonly string[]): Promise<CollectionOutputs> {
  return updateInTree(ctx, definition, id, olds, news, changed, at(id));
}

async function remove(ctx: Ctx, id: string): Promise<void> {
  await ctx.client.delete(paths.collection(id));
}

/**
 * What deleting the collection takes along: the spaces in it (its own listing, the cheapest the spec
 * offers) and the collections in it (the organization's listing, nested included, filtered by parent:
 * the spec has no listing per collection). Each of those holds the rest, so naming them is enough.
 * Spaces and collections of this program whose `parent` is this collection's id output are deleted or
 * moved before it; what is left was made outside this stack or names the collection by a fixed ID.
 * A space's pages are counted (spacePages), so the refusal says what the trash would take.
 */
async function heldByCollection(ctx: Ctx, id: string, props: Props): Promise<HeldObject[]> {
  const org = (props as CollectionOutputs).organizationId;
  const [spaces, collections] = await Promise.all([
    listFresh(ctx, paths.collectionSpaces(id), ApiSpace),
    listFresh(ctx, paths.collections(org), ApiCollection),
  ]);
  // Each space with its pages counted (only when something is held, so only when the delete is refused).
  const held = await mapLimit(
    (spaces ?? []).filter((s) => !s.deletedAt),
    8,
    async (s) => ({ kind: "Space", title: s.title, id: s.id, pages: await spacePages(ctx, s.id) }),
  );
  return [...held, ...(collections ?? []).filter((c) => c.parent === id).map((c) => ({ kind: "Collection", title: c.title, id: c.id }))];
}

// ---- Import --------------------------------------------------------------------------------------

/** The collections holding the imported spaces, and those holding them, up to the top level: one listing of every collection, only when a space is in one. */
function importRead(): ImportRead {
  return {
    after: ["Space"],
    into: "collections",
    async find(ctx) {
      const spaces = ctx.snapshot.spaces as SpaceSnapshot[];
      if (!spaces.some((s) => s.parent !== undefined)) return [];
      const all = new Map((await ctx.list(paths.collections(ctx.organizationId), ApiCollection)).map((c) => [c.id, c]));
      const wanted = new Map<string, ImportRecord>();
      for (const space of spaces) {
        for (let c = space.parent === undefined ? undefined : all.get(space.parent); c && !wanted.has(c.id); c = c.parent ? all.get(c.parent) : undefined) {
          wanted.set(c.id, { ...settingsOf(definition, c), id: c.id });
        }
      }
      return [...wanted.values()];
    },
    progress: { done: (collections, ctx) => `${count((ctx.snapshot.spaces as unknown[]).length, "space")} shown, in ${count(collections.length, "collection")}` },
  };
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "Collection",
  import: { variableSuffix: "-collection", read: importRead() },
  adoptable: true,
  noun: "collection",
  holds: "the spaces and collections in it, and their pages,",
  summary:
    "A collection: a folder of the organization's content tree holding spaces and other collections (their `parent`). GitBook deletes a collection with everything still in it (its spaces to the trash), so spaces and collections of the program inside it take its `id` as their `parent` (Pulumi then deletes or moves them first). A delete that would still take anything along (made in the app, or naming the collection by a fixed ID) fails before deleting anything, listing it, unless `forceDestroy` is set.",
  inputs,
  outputs,
  live: (c: ApiCollection) => ({
    ...(c.organization ? { organizationId: c.organization } : {}),
    title: c.title,
    description: c.description || undefined,
    parent: c.parent ?? undefined,
    defaultLevel: c.defaultLevel,
  }),
  computed: (c) => ({ urls: { location: c.urls?.location, app: c.urls?.app } }),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  cascade: {
    consequence: "GitBook deletes a collection with every collection and space in it (the spaces go to its trash, restorable for 7 days).",
    held: heldByCollection,
  },
});

/** A GitBook collection of spaces and collections. */
export const Collection = resourceClass(definition);
export type Collection = InstanceType<typeof Collection>;
export type CollectionArgs = ConstructorParameters<typeof Collection>[1];
