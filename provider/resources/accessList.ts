/**
 * AccessList: who has access to one site, space or collection, authoritatively.
 *
 * Each list the program declares (`teams`, `users`) is the whole truth for its kind of principal:
 * every team (user) listed gets the declared role, and every team (user) with a grant on the object
 * that is not listed loses it, including grants made in the GitBook app since the last `up`. A list
 * left out is not managed. Creating an AccessList over an object that has any grant of a declared
 * kind refuses, listing them, unless `adoptId` names the object: taking over an object's access is
 * said once, in the program. So does a list added to a resource in state (`users` beside `teams`):
 * it starts managing a kind of grant, and the grants of that kind already there are nobody's it can prove.
 *
 * One team or user listed twice is refused at preview, naming both entries (IDs compare exactly, as
 * the API takes IDs only). Nothing here ever deletes the object: removing a grant only takes that
 * team's or user's access away, and deleting the AccessList removes the grants it lists.
 *
 * Even grants exactly as listed are refused without `adoptId`: nothing proves this resource made them,
 * and two resources never share an object's access. A create whose writes failed part way is kept in
 * state (apply's partial failure), so its retry is an update; a run killed before the state write is
 * resolved by `pulumi-gitbook recover` (see `pending`).
 */
import { z } from "zod";
import { defineResource, resourceClass, type Inputs, type Outputs, type PendingEntries } from "../framework/define";
import { field, id, organizationIdField } from "../framework/fields";
import { PartialFailure } from "../framework/failure";
import { adoptIdIsParent, refreshed } from "../framework/recipes";
import type { Ctx, Props } from "../framework/resource";
import { declared, wrote } from "../framework/state";
import { count, mapLimit, type ImportRead } from "../framework/discover";
import {
  accessDeclares,
  accessPaths,
  describeTarget,
  FIELD_OF,
  invite,
  liveGrants,
  notAUserId,
  oneTarget,
  revoke,
  roleField,
  setRole,
  TARGETS,
  targetFields,
  targetInput,
  targetOf,
  targetProps,
  unknownPrincipals,
  type GrantRole,
  type LiveGrant,
  type Principal,
  type Target,
} from "./access";

// ---- Schema --------------------------------------------------------------------------------------

const LISTS = { teams: "team", users: "user" } as const satisfies Record<string, Principal>;
type ListName = keyof typeof LISTS;
const KEY = FIELD_OF;

/** One entry of `teams` or `users`: an ID and a role (guests, GitBook's null role, are listed with `role` absent only in refreshed state). */
type Entry = { role?: GrantRole } & ({ teamId: string } | { userId: string });

function entrySchema(who: Principal) {
  return z.object({
    [KEY[who]]: id().describe(who === "team" ? "ID of the team (the Team's `id` output)." : "GitBook user ID of the user (not their e-mail address: GitBook's permissions take IDs only, so an e-mail fails the preview)."),
    role: roleField(`the ${who} has on the object`),
  });
}

function listField(list: ListName) {
  const who = LISTS[list];
  const key = KEY[who];
  return z
    .array(entrySchema(who), { error: `must be a list of {${key}, role}` })
    .superRefine((entries, ctx) => {
      const seen = new Map<string, number>();
      entries.forEach((e, i) => {
        const ref = (e as Record<string, string>)[key]!;
        const notId = who === "user" ? notAUserId(ref) : undefined;
        if (notId) ctx.addIssue({ code: "custom", path: [i, key], message: notId });
        const first = seen.get(ref);
        if (first !== undefined) ctx.addIssue({ code: "custom", path: [i, key], message: `lists the same ${who} as ${list}[${first}].${key}; list each ${who} once, with one role` });
        else seen.set(ref, i);
      });
    })
    .optional()
    .describe(
      `Every ${who} with access to the object, each once, in any order, with their role. Authoritative: ${who}s listed are given their role, and every ${who} with a grant on the object that is not listed loses it (including grants made in the GitBook app). Omitted: ${who} grants are not managed. Removing it stops managing them and leaves the grants in place. Added to a resource in state, it takes over the object's ${who} grants as a create would: when there are any, only with \`adoptId\` naming the object (otherwise the \`up\` fails naming them, with nothing written). Applied whole or not at all: every ${who} to be given access is looked up first, and one the organization does not have fails the \`up\` naming its entry, with nothing written; a write failing part way is recorded as the grants the object then has.`,
    )
    .register(field, { change: "custom", authoritative: true });
}

const inputs = z
  .object({
    organizationId: organizationIdField,
    ...targetFields("access list"),
    teams: listField("teams"),
    users: listField("users"),
  })
  .superRefine((v, ctx) => {
    oneTarget(v, ctx);
    if (v.teams === undefined && v.users === undefined) ctx.addIssue({ code: "custom", path: ["teams"], message: "is required: declare teams, users or both (an empty list removes every grant of its kind)" });
  });

const outputs = z.object({});

export type AccessListInputs = Inputs<typeof inputs>;
export type AccessListOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- CRUD ----------------------------------------------------------------------------------------

const declaredLists = (props: Props): ListName[] => (Object.keys(LISTS) as ListName[]).filter((l) => Array.isArray(props[l]));
const refOf = (who: Principal, e: Entry) => (e as Record<string, string>)[KEY[who]]!;

/** What the API shows: the object and, for each list read, its grants. */
interface AccessView {
  id: string;
  target: Target;
  grants: Partial<Record<ListName, LiveGrant[]>>;
}

/**
 * A live list written the way the program writes it: the program's entries first, in its order,
 * then anyone else by ID, so that a refresh finding nothing changed records what `up` did.
 */
function liveList(who: Principal, wanted: readonly Entry[], live: readonly LiveGrant[]): Entry[] {
  const place = (ref: string) => {
    const i = wanted.findIndex((w) => refOf(who, w) === ref);
    return i < 0 ? wanted.length : i;
  };
  return [...live]
    .sort((a, b) => place(a.id) - place(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((g) => ({ [KEY[who]]: g.id, ...(g.role !== null ? { role: g.role } : {}) }) as Entry);
}

/** The writes that turn `live` into `wanted` for one list. */
function changesOf(who: Principal, wanted: readonly Entry[], live: readonly LiveGrant[]) {
  const add = new Map<GrantRole, string[]>();
  const roles: { id: string; role: GrantRole }[] = [];
  for (const w of wanted) {
    const ref = refOf(who, w);
    const g = live.find((l) => l.id === ref);
    if (!g) add.set(w.role!, [...(add.get(w.role!) ?? []), ref]);
    else if (g.role !== w.role) roles.push({ id: ref, role: w.role! });
  }
  const remove = live.filter((l) => !wanted.some((w) => refOf(who, w) === l.id));
  return { add, roles, remove };
}

async function readLists(ctx: Ctx, org: string, target: Target, lists: readonly ListName[], fresh: boolean): Promise<AccessView | undefined> {
  const grants: AccessView["grants"] = {};
  for (const l of lists) {
    const live = await liveGrants(ctx, org, target, LISTS[l], fresh);
    if (!live) return undefined;
    grants[l] = live;
  }
  return { id: target.id, target, grants };
}

/**
 * Refuses, before any write, a list naming a team or user the invite would refuse: one the
 * organization does not have. A list is applied whole or not at all: GitBook takes the invites one
 * request per role, so the first would be granted before the second failed. Only the principals to
 * invite are looked up (one listing per kind): those with a grant on the object exist.
 */
async function refuseUnknown(ctx: Ctx, given: AccessListInputs, plans: readonly { list: ListName; who: Principal; add: Map<GrantRole, string[]> }[]): Promise<void> {
  const org = given.organizationId;
  const unknown: string[] = [];
  for (const pl of plans) {
    const missing = await unknownPrincipals(ctx, org, pl.who, [...pl.add.values()].flat());
    const entries = given[pl.list] as Entry[];
    for (const ref of missing) unknown.push(`${pl.list}[${entries.findIndex((e) => refOf(pl.who, e) === ref)}].${KEY[pl.who]} ${JSON.stringify(ref)}`);
  }
  if (unknown.length === 0) return;
  throw new Error(
    `AccessList: ${unknown.join(", ")}: no ${unknown.length === 1 ? "such team or member" : "such teams or members"} in organization ${org}, so the list cannot be applied whole. ` +
      `Give the ID of a team (the Team's \`id\` output) or of a member of the organization, or remove the entry. Nothing was changed.`,
  );
}

/**
 * Converges every declared list: invites first (one request per role, teams and users together), then
 * role changes, then removals, so nobody listed is ever without access on the way. Every principal
 * invited is checked first (refuseUnknown). When a write fails all the same the grants are read again
 * and state records what the object really has; when that read fails too, what the writes answered
 * before the failure.
 */
async function apply(ctx: Ctx, given: AccessListInputs, live: AccessView, lists: readonly ListName[]): Promise<AccessListOutputs> {
  const org = given.organizationId;
  const target = live.target;
  const plans = lists.map((l) => ({ list: l, who: LISTS[l], ...changesOf(LISTS[l], given[l] as Entry[], live.grants[l]!) }));
  await refuseUnknown(ctx, given, plans);
  // The grants as the writes answered so far.
  const held: AccessView = { ...live, grants: Object.fromEntries(lists.map((l) => [l, [...live.grants[l]!]])) };
  const set = (l: ListName, id: string, role: GrantRole | undefined) => {
    const rest = held.grants[l]!.filter((g) => g.id !== id);
    held.grants[l] = role === undefined ? rest : [...rest, { id, role }];
  };
  try {
    const roles = new Set(plans.flatMap((pl) => [...pl.add.keys()]));
    for (const role of roles) {
      const to: { teams?: string[]; users?: string[] } = {};
      for (const pl of plans) if (pl.add.has(role)) to[pl.list] = pl.add.get(role)!;
      await invite(ctx, org, target, role, to);
      for (const [l, ids] of Object.entries(to) as [ListName, string[]][]) for (const id of ids) set(l, id, role);
    }
    for (const pl of plans) {
      for (const r of pl.roles) {
        await setRole(ctx, org, target, pl.who, r.id, r.role);
        set(pl.list, r.id, r.role);
      }
    }
    for (const pl of plans) {
      for (const r of pl.remove) {
        await revoke(ctx, org, target, pl.who, r.id);
        set(pl.list, r.id, undefined);
      }
    }
  } catch (e) {
    const now = (await readLists(ctx, org, target, lists, true).catch(() => undefined)) ?? held;
    throw new PartialFailure(target.id, refreshed(definition, { ...declared(given) }, now), [`the access to ${describeTarget(target)} could not be fully applied: ${(e as Error).message}`], {
      cause: e,
      field: plans.find((pl) => pl.add.size || pl.roles.length || pl.remove.length)?.list ?? "teams",
    });
  }
  const grants: AccessView["grants"] = {};
  for (const l of lists) grants[l] = (given[l] as Entry[]).map((e) => ({ id: refOf(LISTS[l], e), role: e.role! }));
  return definition.outputsOf(declared(given), { id: target.id, target, grants });
}

async function create(ctx: Ctx, given: AccessListInputs): Promise<{ id: string; outs: AccessListOutputs }> {
  const org = given.organizationId;
  const target = targetOf(given);
  const lists = declaredLists(given);
  const live = await readLists(ctx, org, target, lists, true);
  if (!live) throw new Error(`AccessList: ${Object.keys(targetProps(target))[0]}: no ${describeTarget(target)}${target.kind === "site" ? ` in organization ${org}` : ""}; it was deleted, or the ID is wrong.`);
  refuseTakeover(given, live, lists, "If a `pulumi up` of this stack was killed while creating this resource, run `pulumi-gitbook recover` instead.");
  return { id: target.id, outs: await apply(ctx, given, live, lists) };
}

/**
 * Refuses, before any write, to take over grants of `lists` the object has: any grant of a kind the
 * resource starts to declare (at create, or a list added to a resource in state) was made by someone
 * else, as far as the provider can prove: even one exactly as listed may be another stack's
 * AccessList's, and two resources must never share an object's access. Taken over only when the
 * program says so (adoptId naming the object).
 */
function refuseTakeover(given: AccessListInputs, live: AccessView, lists: readonly ListName[], after = ""): void {
  const target = live.target;
  const there = lists.flatMap((l) =>
    live.grants[l]!.map((g) => {
      const w = (given[l] as Entry[]).find((e) => refOf(LISTS[l], e) === g.id);
      return `${LISTS[l]} ${g.name ? `${g.name} (${g.id})` : g.id} (${g.role ?? "guest"}, ${!w ? "not listed" : w.role === g.role ? "listed" : `listed as ${w.role}`})`;
    }),
  );
  if (there.length === 0) return;
  throw new Error(
    `AccessList: ${lists.join(", ")}: ${describeTarget(target)} already has grants this resource cannot prove it made (another stack's AccessList or the GitBook app may hold them): ${there.join("; ")}. ` +
      `To take over the object's access as the program lists it (unlisted grants removed), set adoptId: "${target.id}"; or remove those grants in the GitBook app. Nothing was changed.` +
      (after ? ` ${after}` : ""),
  );
}

/** The object's grants of the declared kinds, for `pulumi-gitbook recover` (grants carry no creation time). */
async function pending(ctx: Ctx, given: AccessListInputs): Promise<PendingEntries | undefined> {
  const target = targetOf(given);
  const lists = declaredLists(given);
  const live = await readLists(ctx, given.organizationId, target, lists, true);
  if (!live) return undefined;
  const exact = lists.every((l) => {
    const c = changesOf(LISTS[l], given[l] as Entry[], live.grants[l]!);
    return c.add.size === 0 && c.roles.length === 0 && c.remove.length === 0;
  });
  const entries = lists.flatMap((l) => live.grants[l]!.map((g) => ({ id: `${LISTS[l]} ${g.id} (${g.role ?? "guest"})` })));
  return { id: target.id, what: `grants on ${describeTarget(target)}`, entries, exact };
}

async function read(ctx: Ctx, objectId: string, props: AccessListOutputs): Promise<AccessListOutputs | undefined> {
  // Adoption reads the adoptId: the object's ID, of the declared kind.
  const target = { ...targetOf(props), id: objectId };
  const live = await readLists(ctx, props.organizationId, target, declaredLists(props), false);
  return live && refreshed(definition, props, live);
}

async function update(ctx: Ctx, _objectId: string, olds: AccessListOutputs, news: AccessListInputs, changed: readonly string[]): Promise<AccessListOutputs> {
  const target = targetOf(news);
  // Removing a list stops managing it: nothing is sent for it.
  const lists = declaredLists(news).filter((l) => changed.includes(l));
  const live = await readLists(ctx, news.organizationId, target, lists, true);
  if (!live) throw new Error(`AccessList: ${describeTarget(target)} no longer exists; run \`pulumi refresh\` to drop the access list from state.`);
  // A list the resource did not declare before starts managing a kind of grant, as a create would:
  // the grants of that kind already there are taken over only with adoptId naming the object.
  const added = lists.filter((l) => !Array.isArray(olds[l]));
  if (added.length > 0 && (news as Props).adoptId !== target.id) refuseTakeover(news, live, added);
  return apply(ctx, news, live, lists);
}

/** An entry's key among what the resource wrote (WROTE_KEY): `team:<id>`, `user:<id>`. */
const entryKey = (l: ListName, e: Entry) => `${LISTS[l]}:${refOf(LISTS[l], e)}`;

/** Revokes the grants the resource gave: a grant a refresh found beside them (the app's) stays. */
async function remove(ctx: Ctx, _objectId: string, props: AccessListOutputs): Promise<void> {
  const target = targetOf(props);
  for (const l of declaredLists(props)) {
    for (const e of props[l] as Entry[]) if (wrote(props, entryKey(l, e))) await revoke(ctx, props.organizationId, target, LISTS[l], refOf(LISTS[l], e));
  }
}

// ---- Declaration ---------------------------------------------------------------------------------

/** A list's entries in ID order: what the diff compares, so that order means nothing. */
function byId(list: unknown, who: Principal): unknown {
  if (!Array.isArray(list)) return list;
  return [...(list as Entry[])].sort((a, b) => (refOf(who, a) < refOf(who, b) ? -1 : refOf(who, a) > refOf(who, b) ? 1 : 0));
}

// ---- Import --------------------------------------------------------------------------------------

/** A grant as the importer reads it: whoever it names, whatever else the answer holds. */
const ApiGrant = z.looseObject({ permission: z.string().nullable(), team: z.looseObject({ id: z.string() }).optional(), user: z.looseObject({ id: z.string() }).optional() });

/** The grants of every site, space and collection imported (two listings each), for each that has any: IDs and roles (null: a guest). */
function importRead(): ImportRead {
  return {
    after: ["Site", "Space", "Collection"],
    into: "access",
    async find(ctx) {
      const of = (on: Target["kind"], list: unknown) => (list as { id: string; title: string }[]).map((o) => ({ on, id: o.id, title: o.title }));
      const objects = [...of("site", ctx.snapshot.sites), ...of("space", ctx.snapshot.spaces), ...of("collection", ctx.snapshot.collections)];
      const found = await mapLimit(objects, ctx.limit, async (o) => {
        const t: Target = { kind: o.on, id: o.id };
        const grants = (who: Principal) => ctx.list(accessPaths.list(ctx.organizationId, t, who), ApiGrant);
        return {
          ...o,
          teams: (await grants("team")).flatMap((g) => (g.team ? [{ teamId: g.team.id, role: g.permission }] : [])),
          users: (await grants("user")).flatMap((g) => (g.user ? [{ userId: g.user.id, role: g.permission }] : [])),
        };
      });
      return found.filter((a) => a.teams.length > 0 || a.users.length > 0);
    },
    progress: { done: (found) => `${count(found.length, "object")} with access grants` },
  };
}

export const definition = defineResource({
  kind: "AccessList",
  // Two lists of one object may declare different kinds of grant (teams, users): both have its ID.
  parts: (props) => (Object.keys(LISTS) as ListName[]).filter((l) => props[l] !== undefined),
  // Its ID is derived from what it declares, and every field a plan replaces it for names another
  // object: the new one is made first, so that a create refusing what it finds there (entries nobody can
  // prove this resource made) leaves the old object's as they were; deleting first lost them. A forced
  // replacement (same object) collides with itself and is refused, changing nothing.
  deleteBeforeReplace: ["organizationId", "siteId", "spaceId", "collectionId"],
  import: { variableSuffix: "-access", read: importRead() },
  adoptable:
    "ID of the site, space or collection (the one `siteId`, `spaceId` or `collectionId` names) whose existing grants this list takes over: needed when the object already has any grant of a kind the list declares, even one exactly as listed, which a create without it refuses. Used only when the resource is not yet in state: the grants are read, then made what the lists declare (unlisted ones removed; no write when they are exactly as listed). Once the resource is in state it is read only when a list is added (`users` beside `teams`, say): adding one to an object that has grants of its kind refuses, naming them, with nothing written, as a create does, unless adoptId names the object.",
  noun: "access list",
  summary:
    "Who has access to one site, space or collection, authoritatively: each declared list (`teams`, `users`) is the whole set of that kind of grant, and grants not listed are removed, including those made in the GitBook app. Creating it over an object that already has any grant of a declared kind refuses, naming them, with nothing written, even when they are exactly as listed: the provider cannot prove it made them (another stack's AccessList may hold them), and two resources never share an object's access; `adoptId` naming the object takes them over. A create that failed after a write is kept in state, so the next `up` updates it; after a run killed mid-create, `pulumi-gitbook recover` adopts the grants when they are exactly the listed ones on a site created since the run began, and otherwise names them for `--adopt` or `--drop` (grants carry no creation time). Deleting it removes the grants it gave, the listed ones, and no other (a grant made in the app stays, also once a refresh has shown it); the object is never deleted. Use one AccessList per object, or Permissions, not both: a second AccessList of the object, or a Permission of a kind of grant (team or user) the list declares, is refused at preview when the program names the object by the same ID or the same resource's `id`.",
  inputs,
  outputs,
  view: (props) => ({ ...props, teams: byId(props.teams, "team"), users: byId(props.users, "user") }),
  // The access is addressed by its object: an adoptId naming another object would take grants the program does not declare.
  prepare: (given) => {
    const on = TARGETS.find((k) => typeof given[targetInput[k]] === "string");
    return on ? adoptIdIsParent(targetInput[on], on, "an object's access has no ID of its own")(given) : { inputs: given };
  },
  live: (v: AccessView, props) => ({
    ...Object.fromEntries(TARGETS.map((k) => [`${k}Id`, undefined])),
    ...targetProps(v.target),
    ...Object.fromEntries(
      (Object.keys(v.grants) as ListName[]).map((l) => [l, liveList(LISTS[l], Array.isArray(props[l]) ? (props[l] as Entry[]) : [], v.grants[l]!)]),
    ),
  }),
  computed: () => ({}),
  create,
  read,
  update,
  delete: remove,
  listed: (props) => declaredLists(props).flatMap((l) => (props[l] as Entry[]).map((e) => entryKey(l, e))),
  pending,
  inProgram: accessDeclares("AccessList"),
});

/** Who has access to a GitBook site, space or collection, authoritatively. */
export const AccessList = resourceClass(definition);
export type AccessList = InstanceType<typeof AccessList>;
export type AccessListArgs = ConstructorParameters<typeof AccessList>[1];
