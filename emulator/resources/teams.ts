// Teams and their members (by member id or e-mail, each with a team role).
import { created, deleted, LIMITS, list, noContent, notFound, obj, ok, oneOf, required, str, strArray, validate, type Router } from "../http";
import { TEAM_ROLES, teamMemberKey, type TeamMemberRecord, type TeamRecord, type TeamRole } from "../store";
import { memberView } from "./organizations";
import { child, getOrg, memberRef, ORG, type Ctx, type Env } from "./resource";

const TEAM = `${ORG}/teams/:team`;

function getTeam(c: Ctx): TeamRecord {
  const org = getOrg(c);
  return child(c.store.teams, c.params.team!, (t) => t.orgId === org.id) ?? notFound("team", c.params.team!);
}

function upsertTeamMember(c: Ctx, team: TeamRecord, userId: string, role: TeamRole | undefined): void {
  const key = teamMemberKey(team.id, userId);
  const existing = c.store.teamMembers.get(key);
  if (existing) {
    if (role) existing.role = role;
    return;
  }
  const { seq, createdAt } = c.store.newId("tm");
  const rec: TeamMemberRecord = { id: key, seq, createdAt, teamId: team.id, userId, role: role ?? "member" };
  c.store.teamMembers.set(key, rec);
}

export function teamView(e: Env, t: TeamRecord) {
  return {
    object: "team",
    id: t.id,
    title: t.title,
    members: e.store.teamMembersOf(t.id).length,
    spaces: 0,
    createdAt: t.createdAt,
    permissions: { admin: true, view: true },
  };
}

export function teamMemberView(e: Env, tm: TeamMemberRecord) {
  const member = e.store.members.get(tm.userId);
  return { organization: member ? memberView(e, member) : undefined, team: { role: tm.role }, permissions: { view: true } };
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${ORG}/teams`, (c) => {
    const org = getOrg(c);
    const title = c.query.get("title")?.toLowerCase();
    const owner = c.query.get("owner");
    const teams = [...c.store.teams.values()].filter(
      (t) =>
        t.orgId === org.id &&
        (!title || t.title.toLowerCase().includes(title)) &&
        (owner === null || c.store.teamMembers.get(teamMemberKey(t.id, owner))?.role === "owner"),
    );
    return list(c.query, teams, (t) => teamView(c, t));
  });

  // Teams are created with PUT on the collection (GitBook's choice), answering 201.
  r.add("PUT", `${ORG}/teams`, (c) => {
    const org = getOrg(c);
    const b = validate(c.body, { title: required(str(LIMITS.teamTitle)), members: strArray() });
    const members = (b.members ?? []).map((ref) => memberRef(c, org.id, ref, "members"));
    const team: TeamRecord = { ...c.store.newId("team"), orgId: org.id, title: b.title };
    c.store.teams.set(team.id, team);
    for (const m of members) upsertTeamMember(c, team, m.id, undefined);
    return created(teamView(c, team));
  });

  r.add("GET", TEAM, (c) => ok(teamView(c, getTeam(c))));

  r.add("PATCH", TEAM, (c) => {
    const team = getTeam(c);
    const b = validate(c.body, { title: required(str(LIMITS.teamTitle)) });
    team.title = b.title;
    return ok(teamView(c, team));
  });

  r.add("DELETE", TEAM, (c) => {
    const org = getOrg(c);
    const team = child(c.store.teams, c.params.team!, (t) => t.orgId === org.id);
    return deleted(team !== undefined && c.store.deleteTeam(team.id));
  });

  r.add("GET", `${TEAM}/members`, (c) => {
    const team = getTeam(c);
    return list(c.query, c.store.teamMembersOf(team.id), (tm) => teamMemberView(c, tm));
  });

  r.add("PUT", `${TEAM}/members`, (c) => {
    const team = getTeam(c);
    const b = validate(c.body, { add: strArray(), remove: strArray(), memberships: obj() });
    const add = (b.add ?? []).map((ref) => memberRef(c, team.orgId, ref, "add").id);
    const remove = new Set((b.remove ?? []).map((ref) => memberRef(c, team.orgId, ref, "remove").id));
    const roles = new Map<string, TeamRole>();
    for (const [ref, value] of Object.entries(b.memberships ?? {})) {
      const user = memberRef(c, team.orgId, ref, "memberships");
      roles.set(user.id, validate(value, { role: required(oneOf(TEAM_ROLES)) }, `memberships.${ref}.`).role);
    }
    // Removal wins over addition; `memberships` sets roles of added and existing members alike.
    for (const id of add) if (!remove.has(id)) upsertTeamMember(c, team, id, roles.get(id));
    for (const id of remove) c.store.teamMembers.delete(teamMemberKey(team.id, id));
    for (const [id, role] of roles) {
      const existing = c.store.teamMembers.get(teamMemberKey(team.id, id));
      if (existing) existing.role = role;
    }
    return noContent();
  });

  r.add("PUT", `${TEAM}/members/:user`, (c) => {
    const team = getTeam(c);
    const user = c.store.findMember(team.orgId, c.params.user!) ?? notFound("member", c.params.user!);
    const b = validate(c.body, { role: oneOf(TEAM_ROLES) });
    upsertTeamMember(c, team, user.id, b.role);
    return noContent();
  });

  r.add("DELETE", `${TEAM}/members/:user`, (c) => {
    const org = getOrg(c);
    const team = child(c.store.teams, c.params.team!, (t) => t.orgId === org.id);
    const user = c.store.findMember(org.id, c.params.user!);
    return deleted(team !== undefined && user !== undefined && c.store.teamMembers.delete(teamMemberKey(team.id, user.id)));
  });
}
