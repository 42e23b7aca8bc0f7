/**
 * Permission: one team's or one user's role on a site, a space or a collection.
 *
 * The grant is addressed by its object and its principal, so its ID says both:
 * `<site|space|collection>:<objectId>/<team|user>:<principalId>`. Creating it refuses a principal who
 * already has a grant on the object (made in the app, or by another resource): taking it over is
 * adopting it, with `adoptId` set to that ID. Deleting it takes the principal's access away and
 * nothing else: the site, space or collection stays as it is.
 *
 * Declare an object's access either as Permissions or as one AccessList, not both: an AccessList
 * removes every grant of its lists that it does not declare.
 */
import { z } from "zod";
import { isUnknown } from "../framework/check";
import { defineResource, resourceClass, type Inputs, type Lookalikes, type Outputs } from "../framework/define";
import { field, id, organizationIdField } from "../framework/fields";
import { refreshed } from "../framework/recipes";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import { accessDeclares, describeTarget, invite, liveGrants, notAUserId, oneTarget, revoke, roleField, setRole, TARGETS, targetFields, targetInput, targetOf, targetProps, type GrantRole, type Principal, type Target, type TargetKind } from "./access";

// ---- Schema --------------------------------------------------------------------------------------

const principalField = (who: Principal) =>
  id()
    .optional()
    .describe(`ID of the ${who} given the role${who === "user" ? " (their GitBook user ID, not their e-mail address: GitBook's permissions take IDs only, so an e-mail fails the preview)" : " (the Team's `id` output)"}. Exactly one of \`teamId\` and \`userId\`. Changing it replaces the permission (the old ${who} loses the access).`)
    .register(field, { change: "replace" });

const inputs = z
  .object({
    organizationId: organizationIdField,
    ...targetFields("permission"),
    teamId: principalField("team"),
    userId: principalField("user"),
    role: roleField("the team or user has on the object").register(field, { change: "custom" }),
  })
  .superRefine((v, ctx) => {
    oneTarget(v, ctx);
    const notId = notAUserId(v.userId);
    if (notId) ctx.addIssue({ code: "custom", path: ["userId"], message: notId });
    if ((v.teamId === undefined) === (v.userId === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [v.teamId === undefined ? "teamId" : "userId"],
        message: v.teamId === undefined ? "is required: declare exactly one of teamId and userId (who is given the role)" : "cannot be declared with teamId: declare exactly one of teamId and userId",
      });
    }
  });

const outputs = z.object({});

export type PermissionInputs = Inputs<typeof inputs>;
export type PermissionOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- CRUD ----------------------------------------------------------------------------------------

/** One grant as the API shows it. */
interface Grant {
  id: string;
  target: Target;
  who: Principal;
  principalId: string;
  role: GrantRole | null;
}

const principalOf = (props: Props): { who: Principal; principalId: string } =>
  typeof props.teamId === "string" ? { who: "team", principalId: props.teamId } : { who: "user", principalId: props.userId as string };

export const permissionId = (t: Target, who: Principal, principalId: string) => `${t.kind}:${t.id}/${who}:${principalId}`;

/** The parts of a permission's ID (an `adoptId` the program wrote), or undefined when it is not one. */
function parseId(pid: string): { target: Target; who: Principal; principalId: string } | undefined {
  const m = /^(site|space|collection):([^/]+)\/(team|user):(.+)$/.exec(pid);
  return m ? { target: { kind: m[1] as TargetKind, id: m[2]! }, who: m[3] as Principal, principalId: m[4]! } : undefined;
}

async function findGrant(ctx: Ctx, org: string, target: Target, who: Principal, principalId: string, fresh: boolean): Promise<Grant | undefined> {
  const all = await liveGrants(ctx, org, target, who, fresh);
  const g = all?.find((x) => x.id === principalId);
  return g && { id: permissionId(target, who, principalId), target, who, principalId, role: g.role };
}

/**
 * The grant a create would make, when it is there: what `pulumi-gitbook recover` looks for after a run
 * killed between the invite and the state write (the next create would refuse the grant as made
 * elsewhere). Grants carry no creation time: recover takes one only on a site made after the run
 * began, and otherwise names it for `--adopt` or `--drop` (provider/recover/plan.ts).
 */
function lookalikes(ctx: Ctx, given: PermissionInputs): Lookalikes {
  const target = targetOf(given);
  const { who, principalId } = principalOf(given);
  const pid = permissionId(target, who, principalId);
  return {
    kind: "Permission",
    key: pid,
    what: `${who} ${principalId}'s grant on ${describeTarget(target)}`,
    candidates: async () => ((await findGrant(ctx, given.organizationId, target, who, principalId, true)) ? [{ id: pid }] : []),
    before: "list",
  };
}

async function create(ctx: Ctx, given: PermissionInputs): Promise<{ id: string; outs: PermissionOutputs }> {
  const org = given.organizationId;
  const target = targetOf(given);
  const { who, principalId } = principalOf(given);
  const pid = permissionId(target, who, principalId);
  const existing = await findGrant(ctx, org, target, who, principalId, true);
  if (existing) {
    throw new Error(
      `Permission: role: ${who} ${principalId} already has ${existing.role === null ? "guest access" : `the role ${existing.role}`} on ${describeTarget(target)}, given outside this resource (in the app, or by another resource). ` +
        `To manage that grant here, set adoptId: "${pid}" (the role is then set to ${given.role}); otherwise remove this resource. Nothing was changed.`,
    );
  }
  await invite(ctx, org, target, given.role, who === "team" ? { teams: [principalId] } : { users: [principalId] });
  return { id: pid, outs: definition.outputsOf(declared(given), { id: pid, target, who, principalId, role: given.role }) };
}

async function read(ctx: Ctx, pid: string, props: PermissionOutputs): Promise<PermissionOutputs | undefined> {
  // Adoption reads the adoptId, which names the grant; state's reads name the recorded one.
  const parts = parseId(pid);
  if (!parts) throw new Error(`Permission: adoptId: "${pid}" is not a permission's ID; write it as <site|space|collection>:<objectId>/<team|user>:<teamOrUserId>, e.g. "space:${"spc_1"}/team:${"team_1"}".`);
  const g = await findGrant(ctx, props.organizationId, parts.target, parts.who, parts.principalId, false);
  return g && refreshed(definition, props, g);
}

async function update(ctx: Ctx, pid: string, _olds: PermissionOutputs, news: PermissionInputs, changed: readonly string[]): Promise<PermissionOutputs> {
  const target = targetOf(news);
  const { who, principalId } = principalOf(news);
  if (changed.includes("role")) await setRole(ctx, news.organizationId, target, who, principalId, news.role);
  return definition.outputsOf(declared(news), { id: pid, target, who, principalId, role: news.role });
}

async function remove(ctx: Ctx, _pid: string, props: PermissionOutputs): Promise<void> {
  const { who, principalId } = principalOf(props);
  await revoke(ctx, props.organizationId, targetOf(props), who, principalId);
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "Permission",
  // Its ID is derived from what it declares, and every field a plan replaces it for names another
  // object: the new one is made first, so that a create refusing what it finds there (entries nobody can
  // prove this resource made) leaves the old object's as they were; deleting first lost them. A forced
  // replacement (same object) collides with itself and is refused, changing nothing.
  deleteBeforeReplace: ["organizationId", "siteId", "spaceId", "collectionId", "teamId", "userId"],
  adoptable:
    "ID of a grant made outside this resource, to manage it instead of refusing it: `<site|space|collection>:<objectId>/<team|user>:<teamOrUserId>` (the message of the refused create gives it): the grant of the declared object and team or user, and no other (another is refused at preview). Used only when the resource is not yet in state: the grant is read and only the declared role is set. Once the resource is in state the field is ignored.",
  // The grant is addressed by its object and its team or user: an adoptId naming another grant would
  // manage one the program does not declare. Values not known yet are left to the create, whose read
  // of the adopted grant reports its object and principal, which then differ.
  prepare: (given) => {
    const { adoptId } = given;
    const target = TARGETS.find((k) => typeof given[targetInput[k]] === "string");
    const principal = typeof given.teamId === "string" ? "teamId" : typeof given.userId === "string" ? "userId" : undefined;
    if (typeof adoptId !== "string" || isUnknown(adoptId) || !target || !principal || isUnknown(given[targetInput[target]]) || isUnknown(given[principal])) return { inputs: given };
    const { who, principalId } = principalOf(given);
    const pid = permissionId({ kind: target, id: given[targetInput[target]] as string }, who, principalId);
    if (adoptId === pid) return { inputs: given };
    return { failures: [{ property: "adoptId", reason: `adoptId must be the ID of the grant this resource declares, ${JSON.stringify(pid)} (its object and its ${who}), not ${JSON.stringify(adoptId)}` }] };
  },
  noun: "permission",
  summary:
    "One team's or one user's role on a site, a space or a collection. Creating it refuses a team or user that already has a grant on the object (adopt that one with `adoptId`); deleting it takes their access away and leaves the object as it is. Use Permissions or one AccessList per object, not both: a Permission beside an AccessList declaring the same kind of grant (teams or users) of the same object, or two Permissions of one team or user on one object, are refused at preview when the program names the object and the team or user by the same ID or the same resource's `id`.",
  inputs,
  outputs,
  live: (g: Grant) => ({
    ...Object.fromEntries(TARGETS.map((k) => [`${k}Id`, undefined])),
    ...targetProps(g.target),
    teamId: g.who === "team" ? g.principalId : undefined,
    userId: g.who === "user" ? g.principalId : undefined,
    // A guest (null) is no role the program can declare: drift, which the next up sets back.
    role: g.role ?? undefined,
  }),
  computed: () => ({}),
  create,
  read,
  update,
  delete: remove,
  lookalikes,
  inProgram: accessDeclares("Permission"),
});

/** One team's or user's role on a GitBook site, space or collection. */
export const Permission = resourceClass(definition);
export type Permission = InstanceType<typeof Permission>;
export type PermissionArgs = ConstructorParameters<typeof Permission>[1];
