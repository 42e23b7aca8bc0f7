/**
 * The lifecycle every resource kind goes through: preview, create, no-op, update, replace, refresh
 * with drift, refresh after an out-of-band delete, adoption, destroy. Each kind's scenario is a
 * program (dependencies first, the resource under test named "subject") and the ways to edit its
 * object outside Pulumi. test/unit/lifecycle.test.ts runs every scenario in process, one kind at a
 * time; test/lifecycle/everyKind.test.ts runs them all at once through the real CLI.
 */
import equal from "fast-deep-equal";
import type { Emulator } from "../../emulator";
import type { Decl } from "./lifecycle";

/** What a scenario needs of a deployment: the id its resources have in state. */
export interface Deployed {
  resource(name: string): { id?: string };
}

const ref = (s: string) => ({ $ref: s });

export interface Scenario {
  kind: string;
  /**
   * The program: dependencies first, the resource under test named "subject". `tag` sets apart what
   * GitBook keeps unique in an organization (a spec's slug), for a second instance beside the first.
   */
  program(emu: Emulator, variant: "base" | "update" | "replace", tag?: string): Decl[];
  /** The fields an update and a replace are expected to touch. */
  updateField: string;
  replaceField: string;
  /** The subject's live record, or undefined when gone. */
  live(emu: Emulator, id: string): Record<string, any> | undefined;
  /** Changes the subject outside Pulumi; returns the input field that should show as drift. */
  drift(emu: Emulator, id: string): string;
  remove(emu: Emulator, id: string): void;
  /** Creates an equivalent object outside Pulumi (through the API) and returns its id; `tag` as the program's. */
  existing(emu: Emulator, d: Deployed, tag?: string): Promise<string>;
  /** Objects of this kind on the emulator (to prove destroy leaves nothing). */
  count(emu: Emulator): number;
}

async function api(emu: Emulator, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${emu.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return res.status === 204 || res.status === 205 ? undefined : res.json();
}

const site = (title = "Lifecycle Docs"): Decl => ({ kind: "Site", name: "site", args: { title } });
const org = (emu: Emulator) => emu.seeded.organizationId;

/** A second organization, for the resources whose only replace trigger is moving organizations. */
function otherOrg(emu: Emulator): string {
  const existing = [...emu.store.orgs.values()].find((o) => o.title === "Other Org");
  if (existing) return existing.id;
  const rec = { ...emu.store.newId("org"), title: "Other Org", hostname: "other", emailDomains: ["other.test"] };
  emu.store.orgs.set(rec.id, rec);
  return rec.id;
}

/**
 * A repository (GitLab: project) GitBook's Git provider app sees, with the organization's account
 * authorised for the provider (the app's step): its ID.
 */
function gitRepository(emu: Emulator, provider: "github" | "gitlab"): number {
  const id = provider === "github" ? 5151 : 5252;
  // Two, so that the app can move the installation to the other; each branch with a gitbook-docs.yaml.
  const config = { site: { title: "Git Sync Docs", structure: [{ type: "space", key: "start", title: "Synced start", path: "start", default: true, content: { directory: "./start" } }] } };
  const files = Object.fromEntries(["main", "staging", "edited-in-app"].map((b) => [`refs/heads/${b}:gitbook-docs.yaml`, config]));
  for (const n of [id, id + 1]) {
    if (!emu.store.gitRepositories.has(String(n))) emu.store.gitRepositories.set(String(n), { ...emu.store.newId("repo"), id: String(n), provider, name: `acme/${provider}-docs-${n}`, files });
  }
  const o = emu.store.orgs.get(org(emu))!;
  if (!o.gitProviders?.includes(provider)) o.gitProviders = [...(o.gitProviders ?? []), provider];
  return id;
}

/** A visitor schema with one signed and one unsigned claim, the signed one named `name`. */
const visitorSchema = (name: string) => ({
  type: "object",
  properties: {
    [name]: { type: "boolean", description: "Whether the visitor tests betas." },
    unsigned: {
      type: "object",
      description: "Unsigned claims of the site visitor.",
      properties: { language: { type: "string", description: "The visitor's language.", enum: ["en", "fr"] } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
});
/** What a site's schema is once the resource is deleted: GitBook's default, which counts as none. */
const EMPTY_SCHEMA = { type: "object", properties: {}, additionalProperties: false };
const liveSchema = (e: Emulator, siteId: string) => {
  const r = e.store.adaptiveSchemas.get(siteId);
  return r && !equal(r.jsonSchema, EMPTY_SCHEMA) ? r : undefined;
};

const SPEC = (title: string) => `openapi: 3.0.3\ninfo:\n  title: ${title}\n  version: 1.0.0\npaths: {}\n`;
/** Spaces made by the test (the seeded ones excluded) that are not in the trash. */
const liveSpace = (e: Emulator, id: string) => {
  const s = e.store.spaces.get(id);
  return s && !s.deletedAt ? s : undefined;
};
const madeSpaces = (e: Emulator) => [...e.store.spaces.keys()].filter((id) => !e.seeded.spaceIds.includes(id) && liveSpace(e, id)).length;

const specBySlugOrId = (e: Emulator, id: string) => [...e.store.openApiSpecs.values()].find((s) => s.id === id || s.slug === id);

export const scenarios: Record<string, Scenario> = Object.fromEntries(
  ([
  {
    kind: "Site",
    program: (_e, v) => [
      { kind: "Site", name: "subject", args: { title: v === "update" ? "Renamed Docs" : "Lifecycle Docs", ...(v === "replace" ? { type: "premium" } : {}) } },
    ],
    updateField: "title",
    replaceField: "type",
    live: (e, id) => e.store.sites.get(id),
    drift: (e, id) => ((e.store.sites.get(id)!.title = "Edited in the app"), "title"),
    remove: (e, id) => e.store.sites.delete(id),
    existing: async (e) => (await api(e, "POST", `/orgs/${org(e)}/sites`, { title: "Legacy Docs" })).id,
    count: (e) => e.store.sites.size,
  },
  {
    kind: "SiteSection",
    program: (e, v) => [
      site(),
      {
        kind: "SiteSection",
        name: "subject",
        args: { siteId: ref("site.id"), spaceId: e.seeded.spaceIds[v === "replace" ? 1 : 0], title: v === "update" ? "Guides v2" : "Guides" },
      },
    ],
    updateField: "title",
    replaceField: "spaceId",
    live: (e, id) => e.store.sections.get(id),
    drift: (e, id) => ((e.store.sections.get(id)!.title = "Edited in the app"), "title"),
    remove: (e, id) => e.store.sections.delete(id),
    existing: async (e, d) => {
      const siteId = d.resource("site").id!;
      return (await api(e, "POST", `/orgs/${org(e)}/sites/${siteId}/sections`, { spaceId: e.seeded.spaceIds[0], title: "Guides" })).id;
    },
    count: (e) => e.store.sections.size,
  },
  {
    kind: "SiteSpace",
    program: (e, v) => [
      site(),
      { kind: "SiteSection", name: "sectionA", args: { siteId: ref("site.id"), spaceId: e.seeded.spaceIds[0], title: "Section A" } },
      { kind: "SiteSection", name: "sectionB", args: { siteId: ref("site.id"), spaceId: e.seeded.spaceIds[1], title: "Section B" } },
      {
        kind: "SiteSpace",
        name: "subject",
        args: {
          siteId: ref("site.id"),
          sectionId: ref(v === "replace" ? "sectionB.id" : "sectionA.id"),
          spaceId: e.seeded.spaceIds[2],
          path: v === "update" ? "guides-v2" : "guides",
          hidden: true,
          draft: true,
        },
      },
    ],
    updateField: "path",
    replaceField: "sectionId",
    live: (e, id) => e.store.siteSpaces.get(id),
    drift: (e, id) => ((e.store.siteSpaces.get(id)!.path = "edited-in-app"), "path"),
    remove: (e, id) => e.store.siteSpaces.delete(id),
    existing: async (e, d) => {
      const siteId = d.resource("site").id!;
      const sectionId = d.resource("sectionA").id!;
      return (await api(e, "POST", `/orgs/${org(e)}/sites/${siteId}/site-spaces`, { spaceId: e.seeded.spaceIds[2], sectionId })).id;
    },
    count: (e) => [...e.store.siteSpaces.values()].filter((s) => s.spaceId === e.seeded.spaceIds[2]).length,
  },
  {
    kind: "SiteRedirect",
    program: (_e, v) => [
      site(),
      { kind: "Site", name: "site2", args: { title: "Other Docs" } },
      {
        kind: "SiteRedirect",
        name: "subject",
        args: { siteId: ref(v === "replace" ? "site2.id" : "site.id"), source: "/old", destination: { url: `https://example.com/${v === "update" ? "v2" : "new"}` } },
      },
    ],
    updateField: "destination",
    replaceField: "siteId",
    live: (e, id) => e.store.siteRedirects.get(id),
    drift: (e, id) => ((e.store.siteRedirects.get(id)!.destination = { kind: "external", url: "https://example.com/app" }), "destination"),
    remove: (e, id) => e.store.siteRedirects.delete(id),
    existing: async (e, d) =>
      (await api(e, "POST", `/orgs/${org(e)}/sites/${d.resource("site").id}/redirects`, { source: "/old", destination: { kind: "external", url: "https://example.com/new" } })).id,
    count: (e) => [...e.store.siteRedirects.values()].filter((r) => r.source === "/old").length,
  },
  {
    // One object per site: its ID is the site's, and it is gone when the site is.
    kind: "SiteRedirects",
    program: (_e, v) => [
      site(),
      { kind: "Site", name: "site2", args: { title: "Other Docs" } },
      {
        kind: "SiteRedirects",
        name: "subject",
        args: {
          siteId: ref(v === "replace" ? "site2.id" : "site.id"),
          rules: [
            { source: "/a", destination: { url: "https://example.com/a" } },
            { source: "/b/*", destination: { url: `https://example.com/${v === "update" ? "b2" : "b"}` }, captureWildcard: true },
          ],
        },
      },
    ],
    updateField: "rules",
    replaceField: "siteId",
    live: (e, id) => {
      const rules = [...e.store.siteRedirects.values()].filter((r) => r.siteId === id);
      return rules.length > 0 ? rules : undefined;
    },
    drift: (e, id) => (([...e.store.siteRedirects.values()].find((r) => r.siteId === id)!.permanent = true), "rules"),
    remove: (e, id) => e.store.deleteSite(id),
    existing: async (e, d) => {
      const siteId = d.resource("site").id!;
      const redirects = [
        { source: "/a", destination: { kind: "external", url: "https://example.com/a" } },
        { source: "/b/*", destination: { kind: "external", url: "https://example.com/b" }, captureWildcard: true },
      ];
      await api(e, "PUT", `/orgs/${org(e)}/sites/${siteId}/redirects`, { redirects });
      return siteId;
    },
    count: (e) => [...e.store.siteRedirects.values()].filter((r) => r.source !== "/old").length,
  },
  {
    kind: "ShareLink",
    program: (_e, v) => [
      site(),
      { kind: "Site", name: "site2", args: { title: "Other Docs" } },
      { kind: "ShareLink", name: "subject", args: { siteId: ref(v === "replace" ? "site2.id" : "site.id"), name: "Reviewers", active: v !== "update" } },
    ],
    updateField: "active",
    replaceField: "siteId",
    live: (e, id) => e.store.shareLinks.get(id),
    drift: (e, id) => ((e.store.shareLinks.get(id)!.name = "Renamed in app"), "name"),
    remove: (e, id) => e.store.shareLinks.delete(id),
    existing: async (e, d) => (await api(e, "POST", `/orgs/${org(e)}/sites/${d.resource("site").id}/share-links`, { name: "Reviewers" })).id,
    count: (e) => e.store.shareLinks.size,
  },
  {
    kind: "SiteSectionGroup",
    program: (e, v) => [
      site(),
      { kind: "Site", name: "site2", args: { title: "Other Docs" } },
      { kind: "SiteSection", name: "sec", args: { siteId: ref("site.id"), spaceId: e.seeded.spaceIds[0] } },
      {
        kind: "SiteSectionGroup",
        name: "subject",
        args: {
          siteId: ref(v === "replace" ? "site2.id" : "site.id"),
          title: v === "update" ? "Products v2" : "Products",
          ...(v === "replace" ? {} : { sections: [ref("sec.id")] }),
        },
      },
    ],
    updateField: "title",
    replaceField: "siteId",
    live: (e, id) => e.store.sectionGroups.get(id),
    drift: (e, id) => ((e.store.sectionGroups.get(id)!.title = "Renamed in app"), "title"),
    remove: (e, id) => e.store.deleteSectionGroup(id),
    existing: async (e, d) =>
      (await api(e, "POST", `/orgs/${org(e)}/sites/${d.resource("site").id}/section-groups`, { title: "Products", sections: [d.resource("sec").id] })).id,
    count: (e) => e.store.sectionGroups.size,
  },
  {
    kind: "SiteExternalLink",
    program: (e, v) => [
      site(),
      { kind: "Site", name: "site2", args: { title: "Other Docs" } },
      // GitBook refuses a link in a site without sections: the link waits for its site's section.
      { kind: "SiteSection", name: "sec", args: { siteId: ref("site.id"), spaceId: e.seeded.spaceIds[0] } },
      { kind: "SiteSection", name: "sec2", args: { siteId: ref("site2.id"), spaceId: e.seeded.spaceIds[1] } },
      {
        kind: "SiteExternalLink",
        name: "subject",
        args: { siteId: ref(v === "replace" ? "site2.id" : "site.id"), title: "Status", url: v === "update" ? "https://status.acme.test/v2" : "https://status.acme.test" },
        dependsOn: [v === "replace" ? "sec2" : "sec"],
      },
    ],
    updateField: "url",
    replaceField: "siteId",
    live: (e, id) => e.store.externalLinks.get(id),
    drift: (e, id) => ((e.store.externalLinks.get(id)!.title = "Renamed in app"), "title"),
    remove: (e, id) => e.store.externalLinks.delete(id),
    existing: async (e, d) => (await api(e, "POST", `/orgs/${org(e)}/sites/${d.resource("site").id}/external-links`, { title: "Status", url: "https://status.acme.test" })).id,
    count: (e) => e.store.externalLinks.size,
  },
  {
    kind: "Space",
    // In a collection, which it leaves for the other organization (where that collection is not).
    program: (e, v) => [
      { kind: "Collection", name: "home", args: { title: "Home" } },
      {
        kind: "Space",
        name: "subject",
        args: {
          title: v === "update" ? "Staff handbook" : "Handbook",
          emoji: "📘",
          // A replacement trashes the space's pages: the program opts in (without it, the preview fails).
          ...(v === "replace" ? { organizationId: otherOrg(e), allowReplacement: true } : { parent: ref("home.id") }),
        },
      },
    ],
    updateField: "title",
    replaceField: "organizationId",
    live: liveSpace,
    drift: (e, id) => ((e.store.spaces.get(id)!.title = "Renamed in the app"), "title"),
    remove: (e, id) => e.store.trashSpace(id),
    existing: async (e, d) => (await api(e, "POST", `/orgs/${org(e)}/spaces`, { title: "Handbook", emoji: "📘", parent: d.resource("home").id })).id,
    count: madeSpaces,
  },
  {
    kind: "Collection",
    program: (e, v) => [
      {
        kind: "Collection",
        name: "subject",
        // A replacement deletes what the collection holds: the program opts in (without it, the preview fails).
        args: { title: v === "update" ? "All products" : "Products", description: "Everything we sell", ...(v === "replace" ? { organizationId: otherOrg(e), allowReplacement: true } : {}) },
      },
    ],
    updateField: "title",
    replaceField: "organizationId",
    live: (e, id) => e.store.collections.get(id),
    drift: (e, id) => ((e.store.collections.get(id)!.description = ""), "description"),
    remove: (e, id) => e.store.collections.delete(id),
    existing: async (e) => (await api(e, "POST", `/orgs/${org(e)}/collections`, { title: "Products" })).id,
    count: (e) => e.store.collections.size,
  },
  {
    kind: "SiteAdaptiveSchema",
    program: (_e, v) => [
      site(),
      { kind: "Site", name: "site2", args: { title: "Other Docs" } },
      {
        kind: "SiteAdaptiveSchema",
        name: "subject",
        args: { siteId: ref(v === "replace" ? "site2.id" : "site.id"), jsonSchema: visitorSchema(v === "update" ? "isTester" : "isBetaUser") },
      },
    ],
    updateField: "jsonSchema",
    replaceField: "siteId",
    live: liveSchema,
    drift: (e, id) => ((e.store.adaptiveSchemas.get(id)!.jsonSchema = visitorSchema("editedInApp")), "jsonSchema"),
    remove: (e, id) => e.store.adaptiveSchemas.delete(id),
    existing: async (e, d) => {
      const siteId = d.resource("site").id!;
      await api(e, "PUT", `/orgs/${org(e)}/sites/${siteId}/adaptive-schema`, { jsonSchema: visitorSchema("legacyClaim") });
      return siteId;
    },
    count: (e) => [...e.store.adaptiveSchemas.keys()].filter((siteId) => liveSchema(e, siteId)).length,
  },
  {
    kind: "Team",
    program: (e, v) => [
      {
        kind: "Team",
        name: "subject",
        args: {
          title: v === "update" ? "Docs Writers" : "Docs Team",
          ...(v === "replace" ? { organizationId: otherOrg(e) } : { members: [{ user: e.seeded.members[1]!.email, role: "owner" }, { user: e.seeded.members[2]!.id }] }),
        },
      },
    ],
    updateField: "title",
    replaceField: "organizationId",
    live: (e, id) => e.store.teams.get(id),
    // Membership drift is covered in-process (team.test.ts); here the subject has moved organizations.
    drift: (e, id) => ((e.store.teams.get(id)!.title = "Renamed in app"), "title"),
    remove: (e, id) => e.store.teams.delete(id),
    existing: async (e) => (await api(e, "PUT", `/orgs/${org(e)}/teams`, { title: "Legacy Team" })).id,
    count: (e) => e.store.teams.size,
  },
  {
    kind: "GitSyncInstallation",
    // A site declaring no structure: Git Sync may own it. Priority gitbook: GitBook writes the file.
    program: (e, v) => [
      site("Git Sync Docs"),
      {
        kind: "GitSyncInstallation",
        name: "subject",
        args: {
          siteId: ref("site.id"),
          ...(v === "replace" ? { provider: "gitlab", repositoryId: gitRepository(e, "gitlab") } : { provider: "github", repositoryId: gitRepository(e, "github") }),
          branch: v === "update" ? "refs/heads/staging" : "refs/heads/main",
          priority: "gitbook",
        },
      },
    ],
    updateField: "branch",
    replaceField: "provider",
    live: (e, id) => e.store.gitInstallations.get(id),
    drift: (e, id) => ((e.store.gitInstallations.get(id)!.branch = "refs/heads/edited-in-app"), "branch"),
    remove: (e, id) => e.store.gitInstallations.delete(id),
    existing: async (e, d) => (await api(e, "POST", "/git/installations", { provider: "github", target: { type: "site", siteId: d.resource("site").id } })).id,
    count: (e) => e.store.gitInstallations.size,
  },
  {
    kind: "SamlProvider",
    program: (e, v) => [
      {
        kind: "SamlProvider",
        name: "subject",
        args: {
          label: v === "update" ? "Okta (new)" : "Okta",
          entityID: "http://www.okta.com/exk1",
          ssoURL: "https://acme.okta.com/app/sso/saml",
          certificate: "MIIC-test-certificate",
          defaultRole: "read",
          ...(v === "replace" ? { organizationId: otherOrg(e) } : {}),
        },
      },
    ],
    updateField: "label",
    replaceField: "organizationId",
    live: (e, id) => e.store.samlProviders.get(id),
    drift: (e, id) => ((e.store.samlProviders.get(id)!.ssoURL = "https://evil.example/sso"), "ssoURL"),
    remove: (e, id) => e.store.samlProviders.delete(id),
    existing: async (e) => (await api(e, "POST", `/orgs/${org(e)}/saml`, { label: "Legacy IdP" })).id,
    count: (e) => e.store.samlProviders.size,
  },
  {
    kind: "OpenApiSpec",
    program: (_e, v, tag = "") => [
      {
        kind: "OpenApiSpec",
        name: "subject",
        args: { slug: `${v === "replace" ? "public-api" : "petstore"}${tag}`, source: { text: SPEC("Petstore") }, visibility: v === "update" ? "public" : "private" },
      },
    ],
    updateField: "visibility",
    replaceField: "slug",
    live: specBySlugOrId,
    drift: (e, id) => ((specBySlugOrId(e, id)!.visibility = "public"), "visibility"),
    remove: (e, id) => e.store.openApiSpecs.delete(specBySlugOrId(e, id)!.id),
    existing: async (e, _d, tag = "") => (await api(e, "POST", `/orgs/${org(e)}/openapi`, { slug: `petstore${tag}`, source: { text: SPEC("Old") } })).id,
    count: (e) => e.store.openApiSpecs.size,
  },
  {
    // A team's grant on a site; its ID is the emulator's key of the grant.
    kind: "Permission",
    program: (_e, v) => [
      site(),
      { kind: "Team", name: "t1", args: { title: "Grant Team 1" } },
      { kind: "Team", name: "t2", args: { title: "Grant Team 2" } },
      { kind: "Permission", name: "subject", args: { siteId: ref("site.id"), teamId: ref(v === "replace" ? "t2.id" : "t1.id"), role: v === "update" ? "edit" : "read" } },
    ],
    updateField: "role",
    replaceField: "teamId",
    live: (e, id) => e.store.permissions.get(id),
    drift: (e, id) => ((e.store.permissions.get(id)!.role = "admin"), "role"),
    remove: (e, id) => e.store.permissions.delete(id),
    existing: async (e, d) => {
      const [siteId, teamId] = [d.resource("site").id!, d.resource("t1").id!];
      await api(e, "POST", `/orgs/${org(e)}/sites/${siteId}/permissions`, { role: "comment", teams: [teamId] });
      return `site:${siteId}/team:${teamId}`;
    },
    count: (e) => [...e.store.permissions.values()].filter((g) => g.target === "site").length,
  },
  {
    // The whole access of a collection: gone when the collection is.
    kind: "AccessList",
    program: (e, v) => [
      { kind: "Collection", name: "col", args: { title: "Access A" } },
      { kind: "Collection", name: "col2", args: { title: "Access B" } },
      { kind: "Team", name: "t1", args: { title: "List Team" } },
      {
        kind: "AccessList",
        name: "subject",
        args: {
          collectionId: ref(v === "replace" ? "col2.id" : "col.id"),
          teams: [{ teamId: ref("t1.id"), role: "read" }],
          users: [{ userId: e.seeded.members[0]!.id, role: v === "update" ? "edit" : "read" }],
        },
      },
    ],
    updateField: "users",
    replaceField: "collectionId",
    live: (e, id) => {
      const grants = [...e.store.permissions.values()].filter((g) => g.target === "collection" && g.targetId === id);
      return grants.length > 0 ? grants : undefined;
    },
    drift: (e, id) => {
      for (const g of e.store.permissions.values()) if (g.targetId === id && g.principal === "team") g.role = "admin";
      return "teams";
    },
    remove: (e, id) => e.store.deleteCollection(id),
    // The grants as the program lists them but one team's role: adopting sends one PATCH and no invite.
    existing: async (e, d) => {
      const colId = d.resource("col").id!;
      await api(e, "POST", `/collections/${colId}/permissions`, { role: "comment", teams: [d.resource("t1").id!] });
      await api(e, "POST", `/collections/${colId}/permissions`, { role: "read", users: [e.seeded.members[0]!.id] });
      return colId;
    },
    count: (e) => [...e.store.permissions.values()].filter((g) => g.target === "collection").length,
  },
] as Scenario[]).map((s) => [s.kind, s]),
);

export { api, otherOrg, ref, site };

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A cascading delete's refusal, naming the resource, its object and each thing it holds (framework/cascade.ts). */
export const cascadeRefusal = (kind: string, id: string, held: [string, string, string][]) =>
  new RegExp(
    `${kind} \\S+: deleting it \\(${esc(id)}\\) would also delete what it still holds.*` +
      held.map(([k, title, hid]) => esc(`${k} ${JSON.stringify(title)} (${hid})`)).join(".*") +
      `.*Nothing was deleted.*set forceDestroy: true on this ${kind}`,
    "s",
  );

/**
 * The plans suites' site ("site") and its first sections (guides, api, changelog), and `section` for more:
 * each on the seeded space at `space`, titled `title` unless `titles` renames it.
 */
export function planSite(spaces: readonly string[], titles: Record<string, string>) {
  const section = (name: string, title: string, space: number) => ({ kind: "SiteSection", name, args: { siteId: ref("site.id"), spaceId: spaces[space], title: titles[name] ?? title } });
  return { section, decls: [{ kind: "Site", name: "site", args: { title: "Plans Docs" } }, section("guides", "Guides", 0), section("api", "API", 1), section("changelog", "Changelog", 3)] };
}
