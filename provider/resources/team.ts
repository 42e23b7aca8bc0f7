/**
 * Team: a named group of organization members, optionally with its membership managed here.
 *
 * Membership is all-or-nothing: with `members` set, the team holds exactly those users (anyone added
 * in the GitBook app is removed on the next `up`), each with the role declared for them; a member
 * listed without a role joins as `member` and otherwise keeps the role they have. Without `members`,
 * membership is left to the app. Users may be named by user ID or by e-mail; the API accepts both in membership
 * bodies, and live members are matched back to the declared form so neither reads as drift.
 *
 * One user named twice is refused before any write, naming both entries: at check when both name
 * them the same way (two e-mails, compared case-insensitively, or two equal IDs), and otherwise, since
 * only the organization's member list tells which e-mail belongs to which ID, before the first write
 * of create or update (one listing of the members, made only when the list mixes e-mails and IDs).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiMember, ApiTeam, ApiTeamMember, p } from "../client";
import { adoptIdField, organizationIdField, text } from "../framework/check";
import { changedFields, type DiffRules } from "../framework/diff";
import {
  createOnce,
  declared,
  getOrUndefined,
  PartialFailure,
  refreshDeclared,
  resourceProps,
  type Ctx,
  type ResourceDef,
} from "../framework/resource";
import { providerFor } from "../shim";

// ---- Types ---------------------------------------------------------------------------------------

export type TeamRole = "owner" | "member";

export type TeamMember = {
  user: string;
  /** Absent: a new member joins as `member`; an existing member's role is left alone. */
  role?: TeamRole;
};

export type TeamInputs = {
  organizationId: string;
  title: string;
  members?: TeamMember[];
  adoptId?: string;
};

export type TeamOutputs = TeamInputs & {
  memberCount: number;
  createdAt: string;
};

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

export const teamSchema = z.object({
  organizationId: organizationIdField,
  title: text({ min: 1, max: 64 }).describe("Name of the team, 1 to 64 characters."),
  members: z
    .array(memberSchema, { error: "must be a list of {user, role}" })
    .superRefine((members, ctx) => {
      // An e-mail and the ID of the same user cannot be told apart here; create and update refuse that
      // before writing anything (see sameUserTwice).
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
      "The team's members, in any order, each user once. When set, membership is authoritative: users not listed are removed, users listed are added, and declared roles are set (a member listed without a role joins as `member` and otherwise keeps the role they have). When omitted, membership is not managed. Removing it stops managing membership and leaves the current members in place. Two entries naming one user are refused before anything is written, naming both entries: at preview when written the same way (e-mails compare case-insensitively, IDs exactly), otherwise (an e-mail and the same user's ID) when `up` applies the team, after one read of the organization's members.",
    ),
  adoptId: adoptIdField,
});

// ---- Diff rules ----------------------------------------------------------------------------------

export const teamDiff: DiffRules = {
  fields: ["organizationId", "title", "members"],
  replaceOn: ["organizationId"],
  // Inputs keep the program's order (errors name entries by index); order means nothing to a team.
  view: (props) => ({ ...props, members: Array.isArray(props.members) ? sorted(props.members as TeamMember[]) : props.members }),
};

// ---- CRUD ----------------------------------------------------------------------------------------

const teamsPath = (org: string) => p`/orgs/${org}/teams`;
const teamPath = (org: string, id: string) => p`/orgs/${org}/teams/${id}`;
const membersPath = (org: string, id: string) => p`/orgs/${org}/teams/${id}/members`;


/** IDs are opaque and compared exactly; e-mail addresses are compared case-insensitively. */
function isUser(ref: string, m: ApiTeamMember): boolean {
  const member = m.organization;
  if (ref === member.id || ref === member.user.id) return true;
  return member.user.email !== undefined && member.user.email.toLowerCase() === ref.toLowerCase();
}

/**
 * The live membership written the way the program writes it: a member the program names keeps the
 * program's spelling (ID or e-mail), and their role only when the program declares one (an undeclared
 * role is not managed, so it is never drift); anyone else appears by e-mail with their role, so drift
 * is readable.
 */
function liveMembers(declaredMembers: readonly TeamMember[], live: readonly ApiTeamMember[]): TeamMember[] {
  return live
    .map((m): TeamMember => {
      const d = declaredMembers.find((x) => isUser(x.user, m));
      if (d) return d.role === undefined ? { user: d.user } : { user: d.user, role: m.team.role };
      return { user: m.organization.user.email ?? m.organization.id, role: m.team.role };
    })
    .sort(byUser);
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
  for await (const m of ctx.client.paginate(membersPath(org, id), ApiTeamMember)) out.push(m);
  return out;
}

function outputs(declaredInputs: Partial<TeamInputs>, team: ApiTeam): TeamOutputs {
  const out: TeamOutputs = {
    ...(declaredInputs as TeamInputs),
    memberCount: team.members ?? 0,
    createdAt: team.createdAt ?? "",
  };
  if (out.members) out.members = sorted(out.members)!;
  return out;
}

/**
 * Refuses a membership list naming one user twice, once by e-mail and once by ID (check already
 * refused two entries written the same way): the organization's member list says which e-mail is
 * whose. Called before the first write, so nothing changes. A reference to no member is left to the API.
 */
async function sameUserTwice(ctx: Ctx, org: string, members: readonly TeamMember[] | undefined): Promise<void> {
  if (!members || !members.some((m) => isEmail(m.user)) || members.every((m) => isEmail(m.user))) return;
  const orgMembers = await ctx.client.listAll(p`/orgs/${org}/members`, ApiMember);
  const seen = new Map<string, number>();
  members.forEach((m, i) => {
    const who = orgMembers.find((o) =>
      isEmail(m.user) ? o.user.email?.toLowerCase() === m.user.toLowerCase() : o.id === m.user || o.user.id === m.user,
    );
    if (!who) return;
    const first = seen.get(who.id);
    if (first === undefined) {
      seen.set(who.id, i);
      return;
    }
    const name = [who.user.displayName, who.user.email].filter(Boolean).join(", ");
    throw new Error(
      `Team: members[${first}].user ${JSON.stringify(members[first]!.user)} and members[${i}].user ${JSON.stringify(m.user)} name the same user ` +
        `(${name ? `${name}, ` : ""}${who.id}); list each user once, with the role they should have. Nothing was changed.`,
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
    await ctx.client.put(membersPath(org, team.id), { body: change });
  } catch (e) {
    const now = await fetchMembers(ctx, org, team.id).catch(() => live);
    const current = await ctx.client.get(teamPath(org, team.id), { schema: ApiTeam }).catch(() => team);
    throw new PartialFailure(team.id, outputs({ ...declared(inputs), members: liveMembers(inputs.members!, now) }, current), [
      `team ${team.id} exists but its membership could not be applied: ${(e as Error).message}`,
    ], { cause: e, field: "members", apiFields: ["add", "remove", "memberships"] });
  }
  return ctx.client.get(teamPath(org, team.id), { schema: ApiTeam });
}

async function create(ctx: Ctx, inputs: TeamInputs): Promise<{ id: string; outs: TeamOutputs }> {
  const org = inputs.organizationId;
  await sameUserTwice(ctx, org, inputs.members);
  const team = await createOnce(ctx, {
    kind: "Team",
    key: `${org}/${inputs.title}`,
    what: `team ${JSON.stringify(inputs.title)}`,
    // PUT on the collection creates a team: sending it twice makes two teams.
    send: () => ctx.client.put(teamsPath(org), { body: { title: inputs.title }, schema: ApiTeam, idempotent: false }),
    // A lost answer may still have created the team: one with this title that no other resource holds.
    candidates: async () => (await ctx.client.listAll(teamsPath(org), ApiTeam, { title: inputs.title })).filter((t) => t.title === inputs.title),
    createdAt: (t) => t.createdAt,
  });
  if (!inputs.members) return { id: team.id, outs: outputs(declared(inputs), team) };
  try {
    // A recovered team may already have members (e.g. added by a default-team SSO rule), so start from the live list.
    const live = team.members ? await fetchMembers(ctx, org, team.id) : [];
    const final = await applyMembers(ctx, org, team, inputs, live);
    return { id: team.id, outs: outputs(declared(inputs), final) };
  } catch (e) {
    if (e instanceof PartialFailure) throw e;
    // The team exists whatever failed after: keep it in state with its membership unconfirmed (absent),
    // so the next up reads the members and applies them, instead of leaving a team state never heard of.
    const { members: _unconfirmed, ...rest } = declared(inputs);
    throw new PartialFailure(team.id, outputs(rest, team), [`team ${team.id} was created but its membership could not be confirmed: ${(e as Error).message}`], {
      cause: e,
      field: "members",
    });
  }
}

async function read(ctx: Ctx, id: string, props: TeamOutputs): Promise<TeamOutputs | undefined> {
  const org = props.organizationId;
  const team = await getOrUndefined(ctx.client.get(teamPath(org, id), { schema: ApiTeam }));
  if (!team) return undefined;
  const live: Record<string, unknown> = { title: team.title };
  if (props.members !== undefined) {
    const members = await getOrUndefined(ctx.client.listAll(membersPath(org, id), ApiTeamMember));
    if (!members) return undefined;
    live.members = liveMembers(props.members, members);
  }
  return outputs(refreshDeclared([...teamDiff.fields, "adoptId"], props, live), team);
}

async function update(ctx: Ctx, id: string, olds: TeamOutputs, news: TeamInputs): Promise<TeamOutputs> {
  const org = news.organizationId;
  const changed = changedFields(teamDiff, olds, news);
  if (changed.includes("members")) await sameUserTwice(ctx, org, news.members);
  let team: ApiTeam | undefined;
  if (changed.includes("title")) {
    team = await ctx.client.patch(teamPath(org, id), { body: { title: news.title }, schema: ApiTeam });
  }
  // Removing `members` only stops managing them, so it sends nothing.
  if (changed.includes("members") && news.members) {
    team ??= await ctx.client.get(teamPath(org, id), { schema: ApiTeam });
    team = await applyMembers(ctx, org, team, news, await fetchMembers(ctx, org, id));
  }
  team ??= await ctx.client.get(teamPath(org, id), { schema: ApiTeam });
  return outputs(declared(news), team);
}

async function remove(ctx: Ctx, id: string, props: TeamOutputs): Promise<void> {
  await ctx.client.delete(teamPath(props.organizationId, id));
}

export const definition: ResourceDef<TeamInputs, TeamOutputs> = {
  kind: "Team",
  schema: teamSchema,
  diff: teamDiff,
  create,
  read,
  update,
  delete: remove,
};

// ---- Resource class ------------------------------------------------------------------------------

export type TeamArgs = {
  title: pulumi.Input<string>;
  organizationId?: pulumi.Input<string>;
  members?: pulumi.Input<pulumi.Input<{ user: pulumi.Input<string>; role?: pulumi.Input<TeamRole> }>[]>;
  adoptId?: pulumi.Input<string>;
};

/** A GitBook team, optionally with authoritative membership. */
export class Team extends pulumi.dynamic.Resource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string>;
  declare readonly members: pulumi.Output<TeamMember[] | undefined>;
  declare readonly memberCount: pulumi.Output<number>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: TeamArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("Team"),
      name,
      resourceProps(name, teamSchema, args, ["memberCount", "createdAt"]),
      opts,
      "gitbook",
      "Team",
    );
  }
}
