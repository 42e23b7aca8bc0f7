// The organization and its members: seeded (../store.ts seedStore), read-only here. Spaces: ./spaces.ts.
import { invalid, list, notFound, ok, type Router } from "../http";
import { ROLES, type MemberRecord, type OrgRecord } from "../store";
import { apiUrl, APP, child, getOrg, ORG, type Ctx, type Env } from "./resource";

export function orgView(e: Env, o: OrgRecord) {
  return {
    object: "organization",
    id: o.id,
    title: o.title,
    createdAt: o.createdAt,
    emailDomains: o.emailDomains,
    hostname: o.hostname,
    type: o.type ?? "business",
    useCase: "productDocs",
    defaultRole: "read",
    sso: false,
    ai: false,
    inviteLinks: true,
    plan: "pro",
    // Change requests merge without review unless the organization sets rules.
    mergeRules: { type: "none" },
    urls: { location: apiUrl(e, `/orgs/${o.id}`), app: `${APP}/o/${o.id}/` },
    // A paying organization cannot start a trial.
    trial: { status: "notapplicable", count: 0 },
    permissions: {
      view: true,
      access: true,
      admin: true,
      ownTeam: true,
      createContent: true,
      createOpenAPISpec: true,
      ingestConversations: false,
      viewBilling: true,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
      listInstallations: true,
      installIntegration: true,
    },
  };
}

export function memberView(e: Env, m: MemberRecord) {
  const teams = [...e.store.teamMembers.values()].filter((t) => t.userId === m.id && e.store.teams.has(t.teamId)).length;
  return {
    object: "member",
    id: m.id,
    role: m.role,
    user: {
      object: "user",
      id: m.id,
      displayName: m.displayName,
      email: m.email,
      photoURL: `https://avatars.example/${m.id}.png`,
      urls: { location: apiUrl(e, `/users/${m.id}`) },
    },
    disabled: false,
    joinedAt: m.createdAt,
    lastSeenAt: m.createdAt,
    sso: false,
    spaces: 0,
    teams,
    sites: 0,
  };
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", "/v1/orgs", (c) => list(c.query, [...c.store.orgs.values()], (o) => orgView(c, o)));
  r.add("GET", ORG, (c) => ok(orgView(c, getOrg(c))));

  r.add("GET", `${ORG}/members`, (c) => {
    const org = getOrg(c);
    const search = c.query.get("search")?.toLowerCase();
    const role = c.query.get("role");
    if (role !== null && !(ROLES as readonly string[]).includes(role)) invalid("role", `must be one of ${ROLES.join(", ")}`);
    const members = [...c.store.members.values()].filter(
      (m) =>
        m.orgId === org.id &&
        (role === null || m.role === role) &&
        (!search || m.displayName.toLowerCase().includes(search) || m.email.toLowerCase().includes(search)),
    );
    return list(c.query, members, (m) => memberView(c, m));
  });
  r.add("GET", `${ORG}/members/:user`, (c) => {
    const org = getOrg(c);
    return ok(memberView(c, child(c.store.members, c.params.user!, (m) => m.orgId === org.id) ?? notFound("member", c.params.user!)));
  });
}
