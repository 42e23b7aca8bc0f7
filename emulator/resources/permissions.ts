// Permissions: the roles teams and users are granted on a site, a space or a collection.
//
// The three objects share one set of routes (invite, list teams, list users, change a role, remove):
// only where they are found and how their listings type a guest differ. Inviting names teams and
// users by ID (teams of the object's organization, members of it); inviting someone who already has
// a grant sets their role. Removing answers 205, or 204 when there was no grant.
import { deleted, list, noContent, notFound, nullable, oneOf, required, strArray, validate, invalid, type Router } from "../http";
import { permissionKey, ROLES, type PermissionRecord, type PermissionTarget, type Role } from "../store";
import { child, getOrg, getSite, SITE, type Ctx } from "./resource";
import { teamView } from "./teams";
import { memberView } from "./organizations";

interface Target {
  kind: PermissionTarget;
  base: string;
  /** The object of the path (404 when missing) and its organization. */
  find(c: Ctx): { id: string; orgId: string };
  /** The object of a DELETE's path, undefined when missing (the DELETE then answers 204). */
  findForDelete(c: Ctx): { id: string; orgId: string } | undefined;
  /** Whether a PATCH may set a guest (null): the site's PATCH takes a MemberRole only. */
  patchTakesGuest: boolean;
}

const space = (c: Ctx) => {
  const s = c.store.spaces.get(c.params.space!);
  return s && !s.deletedAt ? s : undefined;
};

const TARGETS: readonly Target[] = [
  {
    kind: "site",
    base: `${SITE}/permissions`,
    find: getSite,
    findForDelete: (c) => {
      const org = getOrg(c);
      return child(c.store.sites, c.params.site!, (s) => s.orgId === org.id);
    },
    patchTakesGuest: false,
  },
  {
    kind: "space",
    base: "/v1/spaces/:space/permissions",
    find: (c) => space(c) ?? notFound("space", c.params.space!),
    findForDelete: space,
    patchTakesGuest: true,
  },
  {
    kind: "collection",
    base: "/v1/collections/:collection/permissions",
    find: (c) => c.store.collections.get(c.params.collection!) ?? notFound("collection", c.params.collection!),
    findForDelete: (c) => c.store.collections.get(c.params.collection!),
    patchTakesGuest: true,
  },
];

function grant(c: Ctx, t: Target, targetId: string, principal: "team" | "user", principalId: string, role: Role | null): void {
  const key = permissionKey(t.kind, targetId, principal, principalId);
  const existing = c.store.permissions.get(key);
  if (existing) {
    existing.role = role;
    return;
  }
  const { seq, createdAt } = c.store.newId("perm");
  const rec: PermissionRecord = { id: key, seq, createdAt, target: t.kind, targetId, principal, principalId, role };
  c.store.permissions.set(key, rec);
}

/** A site's listings show a guest as null; a space's or collection's type the role as a MemberRole, so a guest is not listed there. */
function listed(t: Target, grants: PermissionRecord[]): PermissionRecord[] {
  return t.kind === "site" ? grants : grants.filter((g) => g.role !== null);
}

export function routes(r: Router<Ctx>): void {
  for (const t of TARGETS) {
    r.add("POST", t.base, (c) => {
      const obj = t.find(c);
      const b = validate(c.body, { role: required(nullable(oneOf(ROLES))), teams: strArray(), users: strArray() });
      // The spec: at least one of `teams` and `users`, each with at least one ID.
      if (b.teams === undefined && b.users === undefined) invalid("teams", "teams or users is required");
      if (b.teams !== undefined && b.teams.length === 0) invalid("teams", "must list at least one team");
      if (b.users !== undefined && b.users.length === 0) invalid("users", "must list at least one user");
      const teams = (b.teams ?? []).map((id, i) => child(c.store.teams, id, (x) => x.orgId === obj.orgId) ?? invalid(`teams[${i}]`, `no team "${id}" in this organization`));
      const users = (b.users ?? []).map((id, i) => child(c.store.members, id, (m) => m.orgId === obj.orgId) ?? invalid(`users[${i}]`, `no user "${id}" in this organization`));
      for (const team of teams) grant(c, t, obj.id, "team", team.id, b.role);
      for (const user of users) grant(c, t, obj.id, "user", user.id, b.role);
      return noContent();
    });

    r.add("GET", `${t.base}/teams`, (c) => {
      const obj = t.find(c);
      return list(c.query, listed(t, c.store.permissionsOn(t.kind, obj.id, "team")), (g) => ({
        permission: g.role,
        team: teamView(c, c.store.teams.get(g.principalId)!),
      }));
    });

    r.add("GET", `${t.base}/users`, (c) => {
      const obj = t.find(c);
      return list(c.query, listed(t, c.store.permissionsOn(t.kind, obj.id, "user")), (g) => ({
        permission: g.role,
        user: memberView(c, c.store.members.get(g.principalId)!).user,
      }));
    });

    for (const principal of ["team", "user"] as const) {
      const one = `${t.base}/${principal}s/:principal`;
      r.add("PATCH", one, (c) => {
        const obj = t.find(c);
        const g = c.store.permissions.get(permissionKey(t.kind, obj.id, principal, c.params.principal!)) ?? notFound(`${principal} permission`, c.params.principal!);
        const b = validate(c.body, { role: t.patchTakesGuest ? nullable(oneOf(ROLES)) : oneOf(ROLES) });
        if (b.role !== undefined) g.role = b.role;
        return noContent();
      });

      r.add("DELETE", one, (c) => {
        const obj = t.findForDelete(c);
        return deleted(obj !== undefined && c.store.permissions.delete(permissionKey(t.kind, obj.id, principal, c.params.principal!)));
      });
    }
  }
}
