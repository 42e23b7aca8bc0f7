/**
 * What Space and Collection share: both sit in the organization's content tree (in a collection, or at
 * the top level), and both have a default level, the access every member gets without an invitation.
 *
 * Where an object sits is set when it is created (both POSTs take `parent`), but neither PATCH takes
 * `parent`: GitBook moves spaces and collections with their own move operations, so `parent` is a
 * custom field that moves the object in place rather than replacing it (a replaced space would lose
 * its content).
 */
import { z } from "zod";
import { ConflictError, Role } from "../client";
import type { Inputs, Outputs, Resource } from "../framework/define";
import { field, id, type FieldRule } from "../framework/fields";
import { changedBody } from "../framework/recipes";
import { PartialFailure } from "../framework/failure";
import type { Ctx } from "../framework/resource";
import { declared } from "../framework/state";

/** The spec's `DefaultLevel`: a member role or "inherit" (null, no access, is allowed beside them). */
export const DEFAULT_LEVELS = [...Role.options, "inherit"] as const;

/** `extra`: the rest of the field's rule, e.g. how a create sends it. */
export function defaultLevelField(noun: string, inheritsFrom: string, extra: FieldRule = {}) {
  return z
    .enum(DEFAULT_LEVELS, { error: `must be one of ${DEFAULT_LEVELS.join(", ")}, or null for no access` })
    .nullable()
    .optional()
    .describe(
      `Access every member of the organization has to the ${noun} without being invited: a role (\`admin\`, \`create\`, \`edit\`, \`review\`, \`comment\`, \`read\`), \`inherit\` (the level of ${inheritsFrom}), or \`null\` (no access: only the members and teams invited to it). When omitted a new ${noun} inherits (GitBook's default) and an adopted one keeps its level; removing it sets \`inherit\` again.`,
    )
    .register(field, { nullIsValue: true, remove: { reset: "inherit" }, ...extra });
}

export function parentField(noun: string) {
  return id()
    .optional()
    .describe(
      `ID of the collection holding the ${noun} (e.g. a \`Collection\` resource's \`id\`). When omitted the ${noun} is created at the organization's top level. Changing it moves the ${noun} there in place, with everything in it; removing it moves the ${noun} to the top level.`,
    )
    .register(field, { change: "custom", remove: "clear", import: { ref: "Collection" } });
}

/** Where the API has one space or collection. */
export interface TreePaths<T> {
  object: string;
  move: string;
  schema: z.ZodType<T>;
}

/**
 * Converges a space or collection: one PATCH for what changed, then one move when `parent` changed.
 * When the move fails after the PATCH went through, state records the PATCH and the old parent.
 */
export async function updateInTree<S extends z.ZodObject, OS extends z.ZodObject, T extends { id: string }>(
  ctx: Ctx,
  def: Resource<S, OS, T>,
  id: string,
  olds: Outputs<S, OS>,
  news: Inputs<S>,
  changed: readonly string[],
  at: TreePaths<T>,
): Promise<Outputs<S, OS>> {
  const body = changedBody(def, changed, news);
  let obj = Object.keys(body).length > 0 ? await ctx.client.patch(at.object, { body, schema: at.schema }) : undefined;
  if (changed.includes("parent")) {
    const parent = (news as { parent?: string }).parent ?? null;
    try {
      obj = await moveTo(ctx, at, parent);
    } catch (e) {
      if (!obj) throw e;
      throw new PartialFailure(id, def.outputsOf({ ...declared(news), parent: (olds as { parent?: string }).parent }, obj, olds), [
        `${def.noun} ${id} was updated but could not be moved ${parent === null ? "to the top level" : `into collection ${parent}`}: ${(e as Error).message}`,
      ], { cause: e, field: "parent" });
    }
  }
  obj ??= await ctx.client.get(at.object, { schema: at.schema });
  return def.outputsOf(declared(news), obj);
}

/** Moves the object under `parent` (null: the top level). Sending it again is harmless, so it is retried. */
async function moveTo<T>(ctx: Ctx, at: TreePaths<T>, parent: string | null): Promise<T> {
  try {
    return await ctx.client.post(at.move, { body: { parent }, schema: at.schema, idempotent: true });
  } catch (e) {
    // 409 "would not result in any update": it is there already (moved in the app since the last
    // refresh, or by an attempt whose answer was lost).
    if (e instanceof ConflictError) return ctx.client.get(at.object, { schema: at.schema });
    throw e;
  }
}
