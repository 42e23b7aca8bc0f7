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
 *
 * Pages are held the same way: a space's content, written in GitBook and declared by no program, goes
 * to GitBook's trash with the space (or with the collection it is in). Whatever the path to the delete
 * (removed from the program, a DocsSite key renamed without `formerKeys`, `pulumi destroy`, a
 * replacement), it is refused, naming their count and the fixes, unless `forceDestroy` says so. The
 * check is made at the delete: for a resource the program no longer declares the engine calls nothing
 * else, not even at preview. A replacement is the one delete a diff sees coming, and the engine makes
 * the new object before it deletes the old, so its pages are also checked at the diff (preview, and
 * before any write of the `up`): unlike what `held` finds, nothing the engine does earlier in the run
 * can take them out.
 */
import { count } from "./discover";
import type { Ctx, Props } from "./resource";

/** An object a delete would take along, as the error names it. */
export interface HeldObject {
  kind: string;
  title: string;
  id: string;
  /** The pages it holds (a space in a collection), when any: they go to the trash with it. */
  pages?: number;
}

export interface Cascade {
  /** What GitBook does, as a sentence for the error: e.g. "GitBook deletes a section with every site space in it." */
  consequence: string;
  /** Reads fresh from GitBook what deleting the object would take along; empty when nothing (or the object is gone). */
  held(ctx: Ctx, id: string, props: Props): Promise<HeldObject[]>;
  /** How many pages the object holds itself (a space's), read fresh; 0 when none, or the object is gone. */
  pages?(ctx: Ctx, id: string): Promise<number>;
  /** The DocsSite entry field whose `forceDestroy` and `retainOnDelete` reach a child of this kind (`space`), for the fix the refusal names. */
  docsSiteEntry?: string;
  /**
   * Set when `held` leaves out every object it finds whose DELETE this client saw answered 204 or 205
   * (GitbookClient.wasDeleted), and every kind it reports cannot come back under its ID once deleted:
   * its listings may then be one sent before such DELETEs settled (Since "writesButDeletes").
   */
  discountsDeleted?: true;
}

/** The input that lets a delete take along what the object holds. */
export const FORCE_DESTROY = "forceDestroy";

/** Fails, before anything is deleted, when deleting the object would take along anything (objects, pages) and `forceDestroy` is not set. */
export async function refuseCascade(def: { kind: string; cascade?: Cascade }, ctx: Ctx, id: string, props: Props): Promise<void> {
  const cascade = def.cascade;
  if (!cascade || props[FORCE_DESTROY] === true) return;
  // The guard's listings may be ones of the same path answered at most gitbook:listingMaxAgeSeconds
  // ago or still in flight (e.g. another section's guard on the same site): without it, deleting N
  // sections of one site read the site's N sections N times. Only one sent after every write this
  // process saw settle: one sent before could miss what a write made, or show what a write deleted
  // (the site spaces Pulumi deleted first) and refuse for nothing. Except, for a guard that discounts
  // what this client saw deleted, the DELETEs GitBook answered 204 or 205: those are facts, so
  // parallel section deletes do not wait for a listing sent after the last site space deleted.
  const since = cascade.discountsDeleted ? "writesButDeletes" : "writes";
  const [held, pages] = await Promise.all([ctx.client.guard(since, () => cascade.held(ctx, id, props)), cascade.pages?.(ctx, id) ?? 0]);
  if (held.length === 0 && pages === 0) return;
  const would: string[] = [];
  if (pages > 0) would.push(`send the ${count(pages, "page")} it holds to GitBook's trash (${TRASH}), content written in GitBook that no program declares`);
  if (held.length > 0) {
    const list = held.map((h) => `${h.kind} ${JSON.stringify(h.title)} (${h.id}${h.pages ? `, ${count(h.pages, "page")}` : ""})`).join(", ");
    would.push(
      `also delete what it still holds, which this stack does not delete first (made outside this stack, or declared with a fixed ID instead of this ${def.kind}'s id output): ${list}. ${cascade.consequence}`,
    );
  }
  const them = held.length > 1 ? "them" : "it";
  const move = held.length > 0 ? `Move or delete ${them} first (for a resource of this program: name this ${def.kind} by its id output, so that Pulumi handles it first), or, to delete ${them} with it, ` : "To delete it with its pages, ";
  throw new Error(
    `${def.kind}: deleting it (${id}) would ${would.join(", and would ")}${held.length === 0 ? "." : ""} Nothing was deleted. ` +
      // The engine makes what a rename names anew before it deletes the old: once that is in state, an
      // alias added then no longer takes the old one's place (seen on 3.248), so the old name comes back first.
      `If it was renamed rather than removed, put its old name back (in a DocsSite, the entry's old key) and run \`pulumi up\`, which deletes what a refused run made under the new name, ` +
      `then rename it keeping the old name as an alias (in a DocsSite, listed in the entry's \`formerKeys\`; otherwise the \`aliases\` resource option). ` +
      `${move}set forceDestroy: true on this ${def.kind}${entry(cascade, "forceDestroy")} and run \`pulumi up\` before deleting it (declared again for that \`up\` if the program no longer declares it). ` +
      `To leave it in GitBook and drop it from the stack only, do the same with retainOnDelete: true${entry(cascade, "retainOnDelete")}.`,
  );
}

/**
 * A planned replacement of an object holding pages, refused at the diff (see the header) unless the
 * recorded `forceDestroy` lets its delete take them: once the engine has made the new object, a
 * refused delete would leave the old one pending in state, which no later `up` could record a
 * setting on.
 */
export async function refuseReplacedPages(def: { kind: string; cascade?: Cascade }, ctx: Ctx, id: string, recorded: Props, replaces: readonly string[]): Promise<void> {
  const cascade = def.cascade;
  if (!cascade?.pages || replaces.length === 0 || recorded[FORCE_DESTROY] === true) return;
  const pages = await cascade.pages(ctx, id);
  if (pages === 0) return;
  const fields = replaces.join(", ");
  throw new Error(
    `${fields}: this change replaces the ${def.kind}, which deletes ${id} and sends the ${count(pages, "page")} it holds to GitBook's trash (${TRASH}). Nothing was changed. ` +
      `Put ${fields} back to keep it; to replace it all the same, set forceDestroy: true on this ${def.kind}${entry(cascade, "forceDestroy")} and run \`pulumi up\` (which records it and sends nothing) before the run that replaces it with allowReplacement: true ` +
      `(with retainOnDelete too, which keeps the old one in GitBook: the provider does not see that option in a plan).`,
  );
}

/** How long GitBook keeps what it trashes. */
const TRASH = "restorable for 7 days, then gone for good";

/** Where a DocsSite entry sets the option for a child of this kind, as a parenthesis. */
function entry(cascade: Cascade, option: string): string {
  return cascade.docsSiteEntry ? ` (in a DocsSite: its entry's \`${cascade.docsSiteEntry}.${option}\`)` : "";
}
