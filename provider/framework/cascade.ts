/**
 * Deletes that take other objects along. GitBook deletes a collection with every collection and space
 * in it, a site with its sections, groups, links and share links, a section with its site spaces. The
 * engine deletes a resource's dependents first (children that name it by its `id` output), so what a
 * delete still finds inside the object is either not managed by this stack (made in the app, or by
 * another stack) or declared with a fixed ID: both would vanish without Pulumi knowing, and the second
 * would stay in state as if it still existed.
 *
 * So before such a DELETE the object's contents are read fresh from GitBook (never from what this
 * process saw earlier: each call may run in another process), and the delete fails, before anything is
 * deleted, listing them, unless the resource's `forceDestroy` (fields.ts) says to take them along.
 * `forceDestroy` is read from the outputs state recorded, which is why a change to it alone is an
 * update (with no request) rather than nothing.
 */
import type { Ctx, Props } from "./resource";

/** An object a delete would take along, as the error names it. */
export interface HeldObject {
  kind: string;
  title: string;
  id: string;
}

export interface Cascade {
  /** What GitBook does, as a sentence for the error: e.g. "GitBook deletes a section with every site space in it." */
  consequence: string;
  /** Reads fresh from GitBook what deleting the object would take along; empty when nothing (or the object is gone). */
  held(ctx: Ctx, id: string, props: Props): Promise<HeldObject[]>;
  /**
   * Set when `held` leaves out every object it finds whose DELETE this client saw answered 204 or 205
   * (GitbookClient.wasDeleted), and every kind it reports cannot come back under its ID once deleted:
   * its listings may then join one sent before such DELETEs settled ("joinPastDeletes").
   */
  discountsDeleted?: true;
}

/** The input that lets a delete take along what the object holds. */
export const FORCE_DESTROY = "forceDestroy";

/** Fails, before anything is deleted, when deleting the object would take along anything and `forceDestroy` is not set. */
export async function refuseCascade(def: { kind: string; cascade?: Cascade }, ctx: Ctx, id: string, props: Props): Promise<void> {
  if (!def.cascade || props[FORCE_DESTROY] === true) return;
  // The guard's listings may join ones of the same path already in flight (e.g. another section's
  // guard on the same site), never a completed or cached one, so what they show is at most one
  // listing's latency older than a listing sent now. Without it, deleting N sections of one site read
  // the site's N sections N times. Only one sent after every write this process saw settle: one sent
  // before could miss what a write made, or show what a write deleted (the site spaces Pulumi deleted
  // first) and refuse for nothing. Except, for a guard that discounts what this client saw deleted,
  // the DELETEs GitBook answered 204 or 205: those are facts, and when nothing else was written since
  // the listing was sent it shows what one sent now would (up to that latency), less what the guard
  // discounts. So parallel section deletes stop waiting for a listing sent after the last site space
  // deleted (bench/README.md, "Destroy's listings").
  const mode = def.cascade.discountsDeleted ? "joinPastDeletes" : "joinSinceWrites";
  const held = await ctx.client.listings(mode, () => def.cascade!.held(ctx, id, props));
  if (held.length === 0) return;
  const list = held.map((h) => `${h.kind} ${JSON.stringify(h.title)} (${h.id})`).join(", ");
  const them = held.length > 1 ? "them" : "it";
  throw new Error(
    `${def.kind}: deleting it (${id}) would also delete what it still holds, which this stack does not delete first ` +
      `(made outside this stack, or declared with a fixed ID instead of this ${def.kind}'s id output): ${list}. ${def.cascade.consequence} Nothing was deleted. ` +
      `Move or delete ${them} first (for a resource of this program: name this ${def.kind} by its id output, so that Pulumi handles it first), ` +
      `or, to delete ${them} with it, set forceDestroy: true on this ${def.kind} and run \`pulumi up\` before deleting it.`,
  );
}
