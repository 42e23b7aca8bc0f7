/**
 * Team: a named group of organization members, optionally with its membership managed here.
 *
 * Membership is all-or-nothing: with `members` set, the team holds exactly those users (anyone added
 * in the GitBook app is removed on the next `up`), each with the role declared for them; a member
 * listed without a role joins as `member` and otherwise keeps the role they have. Without `members`,
 * membership is left to the app. Users may be named by user ID or by e-mail; the API accepts both in membership
 * bodies, and live members are matched back to the declared form so neither reads as drift.
 *
 * The list is applied whole or not at all. One user named twice is refused before any write, naming
 * both entries: at check when both name them the same way (two e-mails, compared case-insensitively,
 * or two equal IDs), and otherwise, since only the organization's member list tells which e-mail
 * belongs to which ID, before the first write of create or update; so is a user the organization does
 * not have, which the members PUT would refuse after the team or its new title was written (one
 * listing of the members, made only when the list names users not in the team, or mixes e-mails and IDs).
 */
import { z } from "zod";
import { p, Role, apiObject } from "../client";
import { defineResource, resourceClass, type Inputs, type Outputs, type Lookalikes } from "../framework/define";
import { field, organizationIdField, text, wireShape } from "../framework/fields";
import { finishCreate, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import { PartialFailure } from "../framework/failure";
import { getOrUndefined } from "../framework/lists";
import type { Ctx } from "../framework/resource";
import { declared } from "../framework/state";
import { count, defined, mapLimit } from "../framework/discover";

// ---- Schema --------------------------------------------------------------------------------------

/** The order members are kept in outputs and compared in, so the diff ignores list order. */
function byUser(a: TeamMember, b: TeamMember): number {
  const x = a.user.toLowerCase();
  const y = b.user.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.user < b.user ? -1 : a.user > b.user ? 1 : 0;
}

function sorted(members: readonly TeamMember[] | undefined): TeamMember[] | undefined {
  return members && [...members].sort(byUser);
}

const isEmail = (ref: string) => ref.includes("@");

/** How a reference is compared without the API: e-mail addresses case-insensitively, IDs (opaque) exactly. */
const literalKey = (ref: string) => (isEmail(ref) ? `email:${ref.toLowerCase()}` : `id:${ref}`);

const memberSchema = z.object({
  user: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .describe("The user: their GitBook user ID, or the e-mail address they are a member of the organization with (matched case-insensitively)."),
  role: z
    .enum(["owner", "member"], { error: "must be owner or member" })
    .optional()
    .describe(
      "Role in the team: `owner` (manages the team's members) or `member`. Managed only when declared: a user listed without it joins as `member`, and a user already in the team (e.g. in an adopted team) keeps their role.",
    ),
});

const inputs = z.object({
  organizationId: organizationIdField,
  title: text({ min: 1, max: 64 }).describe("Name of the team, 1 to 64 characters."),
  members: z
    .array(memberSchema, { error: "must be a list of {user, role}" })
    .superRefine((members, ctx) => {
      // An e-mail and the ID of the same user cannot be told apart here; create and update refuse that
      // before writing anything (see resolveMembers).
      const seen = new Map<string, number>();
      members.forEach((m, i) => {
        const key = literalKey(m.user);
        const first = seen.get(key);
        if (first !== undefined) {
          ctx.addIssue({ code: "custom", path: [i, "user"], message: `lists the same user as members[${first}].user` });
        } else seen.set(key, i);
      });
    })
    .optional()
    .describe(
      "The team's members, in any order, each user once. When set, membership is authoritative: users not listed are removed, users listed are added, and declared roles are set (a member listed without a role joins as `member` and otherwise keeps the role they have). When omitted, membership is not managed. Removing it stops managing membership and leaves the current members in place. Two entries naming one user are refused before anything is written, naming both entries: at preview when written the same way (e-mails compare case-insensitively, IDs exactly), otherwise (an e-mail and the same user's ID) when `up` applies the team, after one read of the organization's members. Applied whole or not at all: a user the organization does not have fails the `up` naming the entry, before the team is created or its title changed.",
    )
    // One PUT of the changes to the member list, computed from the live members.
    .register(field, { change: "custom", authoritative: true }),
});

const outputs = z.object({
  memberCount: z.number().describe("How many members the team has."),
  createdAt: z.string().describe("When the team was created."),
});

export type TeamMember = z.output<typeof memberSchema>;
export type TeamRole = NonNullable<TeamMember["role"]>;
export type TeamInputs = Inputs<typeof inputs>;
export type TeamOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Wire ----------------------------------------------------------------------------------------

// What GitBook answers for this kind: loose objects (fields the API adds pass through), while a missing
// or mistyped field the kind uses fails with its name (ContractError).

export const TeamRole = z.enum(["owner", "member"]);

export const ApiUser = z.looseObject({ id: z.string(), displayName: z.string().optional(), email: z.string().optional() });

export const ApiMember = z.looseObject({ id: z.string(), role: Role.nullable().optional(), user: ApiUser });
export type ApiMember = z.infer<typeof ApiMember>;

export const ApiTeam = apiObject("team", {
  ...wireShape(inputs),
  /** How many members it has (the members themselves are listed apart). */
  members: z.number().optional(),
  createdAt: z.string().optional(),
});
export type ApiTeam = z.infer<typeof ApiTeam>;

export const ApiTeamMember = z.looseObject({
  organization: ApiMember,
  team: z.looseObject({ role: TeamRole }),
});
export type ApiTeamMember = z.infer<typeof ApiTeamMember>;

/** The kind's API paths (the `p` tag encodes each ID as one path segment). */
export const paths = {
  teams: (org: string) => p`/orgs/${org}/teams`,
  team: (org: string, id: string) => p`/orgs/${org}/teams/${id}`,
  teamMembers: (org: string, id: string) => p`/orgs/${org}/teams/${id}/members`,
  members: (org: string) => p`/orgs/${org}/members`,
  member: (org: string, user: string) => p`/orgs/${org}/members/${user}`,
};

// ---- CRUD ----------------------------------------------------------------------------------------

/** What the API says about a team: the team, and its members when they were read. */
type TeamView = { id: string; team: ApiTeam; members?: ApiTeamMember[] };

const view = (team: ApiTeam, members?: ApiTeamMember[]): TeamView => ({ id: team.id, team, ...(members ? { members } : {}) });

/** IDs are opaque and compared exactly; e-mail addresses are compared case-insensitively. */
function isUser(ref: string, m: ApiTeamMember): boolean {
  const member = m.organization;
  if (ref === member.id || ref === member.user.id) return true;
  return member.user.email !== undefined && member.user.email.toLowerCase() === ref.toLowerCase();
}

/**
 * The live membership written the way the program writes it: a member the program names keeps the
 * program's spelling (ID or e-mail) and place in the list, and their role only when the program
 * declares one (an undeclared role is not managed, so it is never drift); anyone else follows, by
 * e-mail with their role, so drift is readable. Recorded in the program's order, a refresh that finds
 * nothing changed records exactly what `up` did.
 */
function liveMembers(declaredMembers: readonly TeamMember[], live: readonly ApiTeamMember[]): TeamMember[] {
  const place = (m: TeamMember) => {
    const i = declaredMembers.findIndex((d) => d.user === m.user);
    return i < 0 ? declaredMembers.length : i;
  };
  return live
    .map((m): TeamMember => {
      const d = declaredMembers.find((x) => isUser(x.user, m));
      if (d) return d.role === undefined ? { user: d.user } : { user: d.user, role: m.team.role };
      return { user: m.organization.user.email ?? m.organization.id, role: m.team.role };
    })
    .sort((a, b) => place(a) - place(b) || byUser(a, b));
}

type MembershipChange = { add: string[]; remove: string[]; memberships: Record<string, { role: TeamRole }> };

/** The single members PUT that turns `live` into `wanted`; undefined when they already agree. */
function membershipChange(wanted: readonly TeamMember[], live: readonly ApiTeamMember[]): MembershipChange | undefined {
  const change: MembershipChange = { add: [], remove: [], memberships: {} };
  const matchedBy = new Map<string, string>();
  for (const w of wanted) {
    const m = live.find((l) => isUser(w.user, l));
    if (!m) {
      // The role is sent for new members too: the API's default role for `add` is not documented.
      change.add.push(w.user);
      change.memberships[w.user] = { role: w.role ?? "member" };
      continue;
    }
    const id = m.organization.id;
    const other = matchedBy.get(id);
    if (other !== undefined) throw new Error(`Team members "${other}" and "${w.user}" name the same user (${id}); list each user once.`);
    matchedBy.set(id, w.user);
    if (w.role !== undefined && m.team.role !== w.role) change.memberships[id] = { role: w.role };
  }
  for (const l of live) if (!matchedBy.has(l.organization.id)) change.remove.push(l.organization.id);
  const empty = change.add.length === 0 && change.remove.length === 0 && Object.keys(change.memberships).length === 0;
  return empty ? undefined : change;
}

/** Fresh (uncached) membership: what a write is computed from. */
async function fetchMembers(ctx: Ctx, org: string, id: string): Promise<ApiTeamMember[]> {
  const out: ApiTeamMember[] = [];
  for await (const m of ctx.client.paginate(paths.teamMembers(org, id), ApiTeamMember)) out.push(m);
  return out;
}

/**
 * Resolves a membership list before the first write of create or update (the team's PUT, its title's
 * PATCH), refusing what the members PUT would refuse after them: a user the organization does not
 * have. It also refuses one user named twice, once by e-mail and once by ID (check refused two entries
 * written the same way). A list is applied whole or not at all. The users already in the team
 * (`live`) are known; the organization's member list says who the others are, and which e-mail is
 * whose: read only when some are not in the team, or e-mails and IDs are mixed, and read again before
 * anyone is called missing, so that a member who joined moments ago is found.
 */
async function resolveMembers(ctx: Ctx, org: string, members: readonly TeamMember[] | undefined, live: readonly ApiTeamMember[] = []): Promise<void> {
  if (!members) return;
  const inTeam = (m: TeamMember) => live.some((l) => isUser(m.user, l));
  const mixed = members.some((m) => isEmail(m.user)) && !members.every((m) => isEmail(m.user));
  if (members.every(inTeam) && !mixed) return;
  const whoIn = (orgMembers: readonly ApiMember[]) => (m: TeamMember) =>
    orgMembers.find((o) => (isEmail(m.user) ? o.user.email?.toLowerCase() === m.user.toLowerCase() : o.id === m.user || o.user.id === m.user));
  let who = whoIn(await ctx.client.listAll(paths.members(org), ApiMember));
  if (members.some((m) => !who(m) && !inTeam(m))) who = whoIn(await ctx.client.listNow(paths.members(org), ApiMember));
  const missing = members.flatMap((m, i) => (who(m) || inTeam(m) ? [] : [`members[${i}].user ${JSON.stringify(m.user)}`]));
  if (missing.length > 0) {
    throw new Error(
      `Team: ${missing.join(", ")}: no member of organization ${org} has ${missing.length === 1 ? "this e-mail address or ID" : "these e-mail addresses or IDs"}, so the team's members cannot be applied whole. ` +
        "Name each user by the e-mail they are a member of the organization with, or by their user ID; or remove the entry. Nothing was changed.",
    );
  }
  const seen = new Map<string, number>();
  members.forEach((m, i) => {
    const found = who(m);
    if (!found) return;
    const first = seen.get(found.id);
    if (first === undefined) {
      seen.set(found.id, i);
      return;
    }
    const name = [found.user.displayName, found.user.email].filter(Boolean).join(", ");
    throw new Error(
      `Team: members[${first}].user ${JSON.stringify(members[first]!.user)} and members[${i}].user ${JSON.stringify(m.user)} name the same user ` +
        `(${name ? `${name}, ` : ""}${found.id}); list each user once, with the role they should have. Nothing was changed.`,
    );
  });
}

/**
 * Applies the declared membership. When the PUT fails the team exists all the same, so the failure
 * is partial: state records the membership the team really has and the next `up` converges it.
 */
async function applyMembers(ctx: Ctx, org: string, team: ApiTeam, inputs: TeamInputs, live: ApiTeamMember[]): Promise<ApiTeam> {
  const change = membershipChange(inputs.members!, live);
  if (!change) return team;
  try {
    await ctx.client.put(paths.teamMembers(org, team.id), { body: change });
  } catch (e) {
    const now = await fetchMembers(ctx, org, team.id).catch(() => live);
    const current = await ctx.client.get(paths.team(org, team.id), { schema: ApiTeam }).catch(() => team);
    throw new PartialFailure(team.id, definition.outputsOf({ ...declared(inputs), members: liveMembers(inputs.members!, now) }, view(current)), [
      `team ${team.id} exists but its membership could not be applied: ${(e as Error).message}`,
    ], { cause: e, field: "members", apiFields: ["add", "remove", "memberships"] });
  }
  return ctx.client.get(paths.team(org, team.id), { schema: ApiTeam });
}

function lookalikes(ctx: Ctx, inputs: TeamInputs): Lookalikes<ApiTeam> {
  const org = inputs.organizationId;
  return {
    kind: "Team",
    key: `${org}/${inputs.title}`,
    what: `team ${JSON.stringify(inputs.title)}`,
    // A lost answer may still have created the team: one with this title that no other resource holds.
    candidates: async () => (await ctx.client.listAll(paths.teams(org), ApiTeam, { title: inputs.title })).filter((t) => t.title === inputs.title),
    before: "list",
    createdAt: (t) => t.createdAt,
  };
}

async function create(ctx: Ctx, inputs: TeamInputs): Promise<{ id: string; outs: TeamOutputs }> {
  const org = inputs.organizationId;
  await resolveMembers(ctx, org, inputs.members);
  const team = await createOnce(ctx, {
    ...lookalikes(ctx, inputs),
    // PUT on the collection creates a team: sending it twice makes two teams.
    send: () => ctx.client.put(paths.teams(org), { body: { title: inputs.title }, schema: ApiTeam, idempotent: false }),
  });
  if (!inputs.members) return finishCreate(definition, inputs, view(team));
  try {
    // A recovered team may already have members (e.g. added by a default-team SSO rule), so start from the live list.
    const live = team.members ? await fetchMembers(ctx, org, team.id) : [];
    const final = await applyMembers(ctx, org, team, inputs, live);
    return finishCreate(definition, inputs, view(final));
  } catch (e) {
    if (e instanceof PartialFailure) throw e;
    // The team exists whatever failed after: keep it in state with its membership unconfirmed (absent),
    // so the next up reads the members and applies them, instead of leaving a team state never heard of.
    const { members: _unconfirmed, ...rest } = declared(inputs);
    throw new PartialFailure(team.id, definition.outputsOf(rest, view(team)), [`team ${team.id} was created but its membership could not be confirmed: ${(e as Error).message}`], {
      cause: e,
      field: "members",
    });
  }
}

async function read(ctx: Ctx, id: string, props: TeamOutputs): Promise<TeamOutputs | undefined> {
  const org = props.organizationId;
  const team = await getOrUndefined(ctx.client.get(paths.team(org, id), { schema: ApiTeam }));
  if (!team) return undefined;
  if (props.members === undefined) return refreshed(definition, props, view(team));
  const members = await getOrUndefined(ctx.client.listAll(paths.teamMembers(org, id), ApiTeamMember));
  return members && refreshed(definition, props, view(team, members));
}

async function update(ctx: Ctx, id: string, olds: TeamOutputs, news: TeamInputs, changed: readonly string[]): Promise<TeamOutputs> {
  const org = news.organizationId;
  // Removing `members` only stops managing them, so it sends nothing. The members are resolved before the title's PATCH.
  const live = changed.includes("members") && news.members ? await fetchMembers(ctx, org, id) : undefined;
  if (live) await resolveMembers(ctx, org, news.members, live);
  let team: ApiTeam | undefined;
  if (changed.includes("title")) {
    team = await ctx.client.patch(paths.team(org, id), { body: { title: news.title }, schema: ApiTeam });
  }
  if (live) {
    team ??= await ctx.client.get(paths.team(org, id), { schema: ApiTeam });
    team = await applyMembers(ctx, org, team, news, live);
  }
  team ??= await ctx.client.get(paths.team(org, id), { schema: ApiTeam });
  return definition.outputsOf(declared(news), view(team));
}

async function remove(ctx: Ctx, id: string, props: TeamOutputs): Promise<void> {
  await ctx.client.delete(paths.team(props.organizationId, id));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "Team",
  import: {
    variableSuffix: "-team",
    // Every team, with its members (`user`: the e-mail address, or the user ID when the API shows none).
    read: {
      organizationWide: true,
      into: "teams",
      async find(ctx) {
        const teams = await ctx.list(paths.teams(ctx.organizationId), ApiTeam);
        return mapLimit(teams, ctx.limit, async (team) => {
          const members = await ctx.list(paths.teamMembers(ctx.organizationId, team.id), ApiTeamMember);
          return {
            id: team.id,
            title: team.title ?? team.id,
            ...defined({ createdAt: team.createdAt }),
            members: members.map((m) => ({ user: m.organization.user.email ?? m.organization.user.id, role: m.team.role })),
          };
        });
      },
      progress: { done: (teams) => `${count(teams.length, "team")}, ${count(teams.reduce((n, t) => n + (t.members as unknown[]).length, 0), "membership")}` },
    },
  },
  adoptable: true,
  noun: "team",
  summary: "A team of organization members, optionally with authoritative membership.",
  inputs,
  outputs,
  // Inputs keep the program's order (errors name entries by index); order means nothing to a team.
  view: (props) => ({ ...props, members: Array.isArray(props.members) ? sorted(props.members as TeamMember[]) : props.members }),
  live: (v: TeamView, props) => ({
    title: v.team.title,
    ...(v.members && Array.isArray(props.members) ? { members: liveMembers(props.members as TeamMember[], v.members) } : {}),
  }),
  computed: (v) => ({ memberCount: v.team.members ?? 0, createdAt: v.team.createdAt ?? "" }),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
});

/** A GitBook team, optionally with authoritative membership. */
export const Team = resourceClass(definition);
export type Team = InstanceType<typeof Team>;
export type TeamArgs = ConstructorParameters<typeof Team>[1];
