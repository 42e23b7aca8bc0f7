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
import { ApiCollection } from "../client";
import { defineResource, resourceClass, type Inputs, type Outputs } from "../framework/define";
import { adoptIdField, allowReplacementField, field, organizationIdField, text } from "../framework/fields";
import { paths } from "../framework/paths";
import { finishCreate, refreshed } from "../framework/recipes";
import { createOnce, declared, getOrUndefined, patchBody, type Ctx } from "../framework/resource";
import { defaultLevelField, parentField, updateInTree, type TreePaths } from "./contentTree";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  title: text({ min: 1, max: 50 }).describe("Title of the collection, 1 to 50 characters."),
  // The API takes "" and answers without a description, so "" is not a value a program declares.
  description: text({ min: 1, max: 100 })
    .optional()
    .describe("Description of the collection, 1 to 100 characters. Removing it clears the description.")
    .register(field, { remove: { reset: "" } }),
  parent: parentField("collection"),
  defaultLevel: defaultLevelField("collection", "its parent collection, or of the organization at the top level"),
  adoptId: adoptIdField,
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

// ---- CRUD ----------------------------------------------------------------------------------------

const at = (id: string): TreePaths<ApiCollection> => ({ object: paths.collection(id), move: paths.collectionMove(id), schema: ApiCollection });

async function create(ctx: Ctx, given: CollectionInputs): Promise<{ id: string; outs: CollectionOutputs }> {
  const org = given.organizationId;
  const collection = await createOnce(ctx, {
    kind: "Collection",
    key: `${org}/${given.title}`,
    what: `collection ${JSON.stringify(given.title)}${given.parent ? ` in collection ${given.parent}` : ""}`,
    send: () => ctx.client.post(paths.collections(org), { body: declared({ title: given.title, parent: given.parent }), schema: ApiCollection }),
    candidates: async () =>
      (await ctx.client.listAll(paths.collections(org), ApiCollection)).filter((c) => c.title === given.title && (c.parent ?? undefined) === given.parent),
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

async function update(ctx: Ctx, id: string, olds: CollectionOutputs, news: CollectionInputs): Promise<CollectionOutputs> {
  return updateInTree(ctx, definition, id, olds, news, at(id));
}

async function remove(ctx: Ctx, id: string): Promise<void> {
  await ctx.client.delete(paths.collection(id));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "Collection",
  noun: "collection",
  holds: "the spaces and collections in it, and their pages,",
  summary:
    "A collection: a folder of the organization's content tree holding spaces and other collections (their `parent`). GitBook deletes a collection with everything still in it, so spaces and collections of the program inside it take its `id` as their `parent` (Pulumi then deletes or moves them first).",
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
  create,
  read,
  update,
  delete: remove,
});

/** A GitBook collection of spaces and collections. */
export const Collection = resourceClass(definition);
export type Collection = InstanceType<typeof Collection>;
export type CollectionArgs = ConstructorParameters<typeof Collection>[1];
