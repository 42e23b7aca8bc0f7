/**
 * Kinds of which an object has at most one (a site's customization): two resources managing the same
 * one would each write over the other's settings on every `up`, and neither plan would show it. So a
 * second one is refused, as early as it can be seen:
 * - in the program, as the resource is constructed (ResourceSpec.inProgram), when both name the same
 *   target: the same ID string, or the same Output (`site.id` of one Site resource); nothing is sent;
 * - at create, when another resource this run declares already holds the target (claims.ts): what the
 *   program cannot see, such as two IDs computed apart that turn out equal.
 * A resource of an earlier run that this run has not reached yet is beyond what either can see.
 *
 * The same holds of any adoptable object: two resources of a kind whose adoptId names one object are
 * refused in the program too (adoptsOnce).
 */
import * as pulumi from "@pulumi/pulumi";
import { claimsOf } from "./claims";
import { programError, programKey } from "./program";
import type { Ctx } from "./resource";

const seen = new Map<string, Map<unknown, string>>();

/**
 * An inProgram check refusing a second `kind` resource whose `field` names the same target as one
 * constructed before; `target` names what there is one of ("site"), for the message.
 */
export function onePerTarget(kind: string, field: string, target: string): (name: string, args: Record<string, unknown>) => void {
  return (name, args) => {
    const key = programKey(args[field]);
    if (key === undefined) return;
    let names = seen.get(kind);
    if (!names) seen.set(kind, (names = new Map()));
    const first = names.get(key);
    if (first !== undefined && first !== name) {
      throw programError(
        `${kind} "${name}": ${field}: ${kind} "${first}" already manages this ${target}, and a ${target} has one: two would overwrite each other's settings on every run. ` +
          `Declare the settings in one ${kind} (merge "${name}" into "${first}"). Nothing was sent.`,
      );
    }
    names.set(key, name);
  };
}

/**
 * At create: refuses when another resource this run declares holds `targetId`, and holds it for this
 * one. Synchronous, so two creates in flight at once cannot both pass. "Another" is told by the
 * program's name where the create knows it (Ctx.name): the resource's own claim, from its diff before a
 * replacement that creates first (a hostname moved to another site), is not another's.
 */
export function claimOnly(ctx: Ctx, kind: string, targetId: string, target: string): void {
  const claims = claimsOf(ctx.client);
  const taken = ctx.name ? claims.declaredByOthers(kind, targetId, ctx.name).size > 0 : claims.declares(kind, targetId);
  if (taken) {
    throw new Error(
      `${kind}: another ${kind} of this stack already manages ${target} ${targetId}, and a ${target} has one: two would overwrite each other's settings on every run. ` +
        `Declare the settings in one ${kind} and remove the other. Nothing was sent.`,
    );
  }
  claims.hold(kind, targetId, {}, true, ctx.name ? { name: ctx.name, parts: [""] } : undefined);
}

const adopters = new Map<string, Map<unknown, { name: string; parts: readonly string[] }[]>>();

/**
 * Every kind with adoptId, in the program as a resource is constructed: a second resource whose
 * adoptId names the same object as one constructed before (the same literal ID, or the same Output),
 * declaring a part of it in common (ResourceSpec.parts), is refused. Two resources over one object
 * would overwrite each other's settings on every run, and deleting either would delete it for both.
 * The provider refuses them too (engine.ts, refuseSharedObject), but only the second of the two calls
 * its process sees: when the engine sends the adopting create before the diff of the resource that
 * has the object in state, that one is refused and the adopting one recorded beside it, and a later
 * run that drops either deletes the object under the other. The program sees every declaration, in its
 * own order, in one process. A resource that holds the object without adoptId (it created it) is not
 * seen here: its ID is not known when the other is constructed.
 */
export function adoptsOnce(kind: string, name: string, args: Record<string, unknown>, parts: readonly string[]): void {
  const key = programKey(args.adoptId);
  if (key === undefined) return;
  let byObject = adopters.get(kind);
  if (!byObject) adopters.set(kind, (byObject = new Map()));
  const before = byObject.get(key) ?? [];
  const other = before.find((b) => b.name !== name && b.parts.some((p) => parts.includes(p)));
  if (other) {
    const object = typeof key === "string" ? `the object ${JSON.stringify(key)}` : "the object";
    throw programError(
      `${kind} "${name}": adoptId: ${kind} "${other.name}" adopts ${object} too: two resources of one object would overwrite each other's settings on every run, and deleting either would delete it for both. ` +
        `Keep one of them (remove "${name}", or merge it into "${other.name}"). Nothing was sent.`,
    );
  }
  byObject.set(key, [...before.filter((b) => b.name !== name), { name, parts }]);
}
