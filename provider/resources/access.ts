/**
 * What the Access kinds (Permission, AccessList) share: the object a grant is on (a site, a space or
 * a collection, exactly one), the role a grant gives, the API paths of the object's permissions and
 * their wire shapes, and the reads and writes of grants.
 *
 * GitBook addresses a grant by its object and its principal (a team or a user, by ID); inviting a
 * principal who already has a grant sets their role, so an invite is safe to send twice. No request
 * here deletes a site, a space or a collection: removing a grant only takes the principal's access away.
 */
import { z } from "zod";
import { p, Role } from "../client";
import { ApiMember, ApiTeam, ApiUser, paths as teamPaths } from "./team";
import { field, id } from "../framework/fields";
import { getOrUndefined, listFresh } from "../framework/lists";
import { programError } from "../framework/program";
import { programKey } from "../framework/program";
import type { Ctx, Props } from "../framework/resource";

export const TARGETS = ["site", "space", "collection"] as const;
export type TargetKind = (typeof TARGETS)[number];
export type Principal = "team" | "user";
/** The input naming a principal (a Permission's, an AccessList entry's), and the AccessList list of its kind. */
export const FIELD_OF = { team: "teamId", user: "userId" } as const satisfies Record<Principal, string>;
export const LIST_OF = { team: "teams", user: "users" } as const satisfies Record<Principal, string>;

/** The object a grant is on. */
export interface Target {
  kind: TargetKind;
  id: string;
}

/** The input naming the object of each kind. */
export const targetInput = { site: "siteId", space: "spaceId", collection: "collectionId" } as const satisfies Record<TargetKind, string>;

/**
 * Why a user reference cannot name a user in a grant, or undefined: GitBook's permissions take user
 * IDs only (Team.members takes e-mails too, as its API does), so an e-mail would pass the preview and
 * fail at the invite, after the writes before it.
 */
export function notAUserId(ref: unknown): string | undefined {
  return typeof ref === "string" && ref.includes("@")
    ? "is an e-mail address, and GitBook's permissions name a user by their user ID only: give the user's GitBook ID (`pulumi-gitbook import` writes it; Team.members is where an e-mail is taken)"
    : undefined;
}

/**
 * The IDs among `ids` that name no team (no member) of the organization: what an invite would refuse
 * after the writes sent before it. One GET each, read now: only the principals a write is about to
 * invite are looked up, and a team made moments ago (in the app, or by this run) is found.
 */
export async function unknownPrincipals(ctx: Ctx, org: string, who: Principal, ids: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    ids.map((i) => getOrUndefined<{ id: string }>(who === "team" ? ctx.client.get(teamPaths.team(org, i), { schema: ApiTeam }) : ctx.client.get(teamPaths.member(org, i), { schema: ApiMember }))),
  );
  return ids.filter((_, j) => found[j] === undefined);
}

/** The spec's MemberRole, most to least: what a grant may give (GitBook's guest, a null role, is not offered). */
export const ROLES = ["admin", "create", "edit", "review", "comment", "read"] as const;
export type GrantRole = (typeof ROLES)[number];

export function roleField(what: string) {
  return z
    .enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` })
    .describe(
      `Role ${what}, one of GitBook's member roles: \`admin\` (administers the content), \`create\` (creates content), \`edit\` (edits, live or in change requests), \`review\` (reviews change requests), \`comment\` (reads and comments), \`read\` (reads only).`,
    );
}

/** `siteId`, `spaceId` and `collectionId`: exactly one is declared (see oneTarget). Changing which, or its value, replaces the grant. */
export function targetFields(noun: string) {
  const one = (kind: TargetKind, extra = "") =>
    id()
      .optional()
      .describe(`ID of the ${kind} the ${noun} is on${extra}. Exactly one of \`siteId\`, \`spaceId\` and \`collectionId\`. Changing it replaces the ${noun}; the ${kind} itself is never deleted or changed.`)
      .register(field, { change: "replace" });
  return {
    siteId: one("site", " (the Site's `id` output; the organization is `organizationId`)"),
    spaceId: one("space"),
    collectionId: one("collection"),
  };
}

/** Refinement of an object schema with targetFields: exactly one is declared. */
export function oneTarget(v: Props, ctx: z.RefinementCtx): void {
  const given = TARGETS.filter((k) => v[targetInput[k]] !== undefined);
  if (given.length !== 1) {
    ctx.addIssue({
      code: "custom",
      path: [given.length === 0 ? "siteId" : targetInput[given[1]!]],
      message:
        given.length === 0
          ? "is required: declare exactly one of siteId, spaceId and collectionId (the object the access is on)"
          : `cannot be declared with ${targetInput[given[0]!]}: declare exactly one of siteId, spaceId and collectionId`,
    });
  }
}

/** The declared object (check made sure there is exactly one). */
export function targetOf(props: Props): Target {
  const kind = TARGETS.find((k) => typeof props[targetInput[k]] === "string")!;
  return { kind, id: props[targetInput[kind]] as string };
}

/** The target as inputs: its one ID field. */
export function targetProps(t: Target): Props {
  return { [targetInput[t.kind]]: t.id };
}

export const describeTarget = (t: Target) => `${t.kind} ${t.id}`;

// ---- API -----------------------------------------------------------------------------------------

/** Where an object's permissions live: a site's in its organization, a space's and a collection's under their own ID. */
function base(org: string, t: Target): string {
  if (t.kind === "site") return p`/orgs/${org}/sites/${t.id}/permissions`;
  return t.kind === "space" ? p`/spaces/${t.id}/permissions` : p`/collections/${t.id}/permissions`;
}

export const accessPaths = {
  invite: base,
  list: (org: string, t: Target, who: Principal) => `${base(org, t)}/${who}s`,
  one: (org: string, t: Target, who: Principal, principalId: string) => `${base(org, t)}/${who}s/${encodeURIComponent(principalId)}`,
};

// A site lists a guest with a null role.
const ApiTeamGrant = z.looseObject({ permission: Role.nullable(), team: z.looseObject({ id: z.string(), title: z.string().optional() }) });
const ApiUserGrant = z.looseObject({ permission: Role.nullable(), user: ApiUser });

/** One live grant: who, and the role (null: a guest). */
export interface LiveGrant {
  id: string;
  role: GrantRole | null;
  /** The team's title or the user's e-mail, for messages. */
  name?: string;
}

/**
 * The object's grants to teams or users; undefined when the object is gone. `fresh` for what a write
 * is computed from; otherwise the listing is the client's shared one, so refreshing many grants of one
 * object costs one GET.
 */
export async function liveGrants(ctx: Ctx, org: string, t: Target, who: Principal, fresh = true): Promise<LiveGrant[] | undefined> {
  const read = <T>(path: string, item: z.ZodType<T>) => (fresh ? listFresh(ctx, path, item) : getOrUndefined(ctx.client.listAll(path, item)));
  if (who === "team") {
    const all = await read(accessPaths.list(org, t, "team"), ApiTeamGrant);
    return all?.map((g) => ({ id: g.team.id, role: g.permission ?? null, ...(g.team.title ? { name: g.team.title } : {}) }));
  }
  const all = await read(accessPaths.list(org, t, "user"), ApiUserGrant);
  return all?.map((g) => ({ id: g.user.id, role: g.permission ?? null, ...(g.user.email ? { name: g.user.email } : {}) }));
}

/** Grants `role` to the teams and users (an invite sets the role of one who has a grant already, so a resend is harmless). */
export async function invite(ctx: Ctx, org: string, t: Target, role: GrantRole, to: { teams?: string[]; users?: string[] }): Promise<void> {
  const body: Props = { role };
  if (to.teams?.length) body.teams = to.teams;
  if (to.users?.length) body.users = to.users;
  await ctx.client.post(accessPaths.invite(org, t), { body, idempotent: true });
}

export async function setRole(ctx: Ctx, org: string, t: Target, who: Principal, principalId: string, role: GrantRole): Promise<void> {
  await ctx.client.patch(accessPaths.one(org, t, who, principalId), { body: { role } });
}

/** Takes the principal's access to the object away (nothing when there was none); never deletes the object. */
export async function revoke(ctx: Ctx, org: string, t: Target, who: Principal, principalId: string): Promise<void> {
  await ctx.client.delete(accessPaths.one(org, t, who, principalId));
}

// ---- In the program ----------------------------------------------------------------------------------

/** One Permission or AccessList the program declared on an object: which grants it manages. */
interface AccessDecl {
  /** `Permission "name"` or `AccessList "name"`, for messages. */
  who: string;
  list: boolean;
  /** The kinds of principal it manages: a Permission's one, an AccessList's declared lists. */
  principals: Principal[];
  /** A Permission's team or user, as programKey knows it. */
  principalKey?: unknown;
}

/** By target kind, then the target as programKey knows it: the declarations on that object so far. */
const onObject = new Map<TargetKind, Map<unknown, AccessDecl[]>>();


/**
 * Permission and AccessList, as the program constructs them: an AccessList removes every grant of its
 * lists it does not declare, so a Permission of the same kind of principal on the same object would be
 * removed and given again at every `up`, as would the lists of two AccessLists; and two Permissions of
 * one team or user on one object set one grant twice. Objects and principals are compared as programKey
 * knows them (a literal ID, or one resource's `id` Output), so objects not created yet at preview are
 * told apart by the resources they come from, never taken for one by their unknown IDs.
 */
export function accessDeclares(kind: "Permission" | "AccessList") {
  return (name: string, args: Record<string, unknown>): void => {
    const targetKind = TARGETS.find((k) => args[targetInput[k]] !== undefined);
    const target = targetKind && programKey(args[targetInput[targetKind]]);
    if (!targetKind || target === undefined) return;
    const me: AccessDecl =
      kind === "AccessList"
        ? { who: `AccessList "${name}"`, list: true, principals: (["team", "user"] as const).filter((p) => args[LIST_OF[p]] !== undefined) }
        : (() => {
            const principal: Principal = args.teamId !== undefined ? "team" : "user";
            return { who: `Permission "${name}"`, list: false, principals: [principal], principalKey: programKey(args[FIELD_OF[principal]]) };
          })();
    let byTarget = onObject.get(targetKind);
    if (!byTarget) onObject.set(targetKind, (byTarget = new Map()));
    const others = byTarget.get(target) ?? [];
    const on = `this ${targetKind}`;
    for (const other of others) {
      if (other.who === me.who) continue;
      const shared = me.principals.filter((p) => other.principals.includes(p));
      if (shared.length === 0) continue;
      const p = shared[0]!;
      if (me.list && other.list) {
        throw programError(
          `AccessList "${name}": ${LIST_OF[p]}: ${other.who} already declares the ${p} grants of ${on}, and each removes the grants the other lists at every up. ` +
            `Declare the object's access in one AccessList (merge "${name}" into ${other.who}). Nothing was sent.`,
        );
      }
      if (me.list || other.list) {
        const [list, single] = me.list ? [me, other] : [other, me];
        throw programError(
          `${me.who}: ${me.list ? LIST_OF[p] : FIELD_OF[p]}: ${list.who} declares every ${p} grant of ${on}, and ${single.who} grants one beside it: the AccessList would remove that grant at every up and the Permission give it back. ` +
            `List the ${p} with its role in ${list.who}'s ${LIST_OF[p]} and remove ${single.who}, or manage the ${p}s of ${on} with Permissions only. Nothing was sent.`,
        );
      }
      if (me.principalKey !== undefined && me.principalKey === other.principalKey) {
        throw programError(
          `${me.who}: ${FIELD_OF[p]}: ${other.who} already grants this ${p} a role on ${on}, and a ${p} has one role there: the two would set it in turn at every up. Keep one of them. Nothing was sent.`,
        );
      }
    }
    byTarget.set(target, [...others, me]);
  };
}
