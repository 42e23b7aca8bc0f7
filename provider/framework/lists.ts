/**
 * Reading objects: a 404 as absence, an object the API only shows in a listing, and a listing read
 * now rather than from the client's shared copy.
 */
import type { z } from "zod";
import { NotFoundError, type Query } from "../client";
import type { Ctx } from "./resource";

/** GET that answers undefined for 404 instead of throwing. */
export async function getOrUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof NotFoundError) return undefined;
    throw e;
  }
}

/**
 * Each shared listing's items by ID, made at the first lookup: a refresh reads every section (and every
 * site space) from one shared listing, and scanning it once per resource grew with the square of the
 * site (4 million comparisons at 2000 sections). Keyed by the listing's array, so it goes with it.
 */
const indexes = new WeakMap<readonly { id: string }[], Map<string, { id: string }>>();

/** One object of a listing (the API has no GET for it); the client shares the listing between concurrent reads. Undefined when the list's parent is gone too. */
export async function findListed<T extends { id: string }>(ctx: Ctx, path: string, schema: z.ZodType<T>, id: string): Promise<T | undefined> {
  const all = await getOrUndefined(ctx.client.listAll(path, schema));
  if (!all) return undefined;
  let index = indexes.get(all);
  if (!index) {
    index = new Map();
    // The first of an ID wins, as find() took it.
    for (const x of all) if (!index.has(x.id)) index.set(x.id, x);
    indexes.set(all, index);
  }
  return index.get(id) as T | undefined;
}

/** The client's listNow (a listing sent now, or a guard's read inside client.guard), undefined when the list's parent is gone (404). */
export async function listFresh<T>(ctx: Ctx, path: string, item: z.ZodType<T>, query?: Query): Promise<T[] | undefined> {
  return getOrUndefined(ctx.client.listNow(path, item, query));
}
