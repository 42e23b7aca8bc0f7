// Turns store records into API objects. Derived fields (defaults, counts, `published`,
// URLs, titles that follow a space) are computed here at read time.
import type {
  MemberRecord,
  OpenApiSpecRecord,
  OpenApiVersionRecord,
  OrgRecord,
  SamlProviderRecord,
  SectionGroupRecord,
  SectionRecord,
  ShareLinkRecord,
  SiteRecord,
  SiteSpaceRecord,
  SpaceRecord,
  Store,
  TeamMemberRecord,
  TeamRecord,
} from "./store";

const APP = "https://app.gitbook.com";

/** Drops keys whose value is undefined, so "absent when none" fields really are absent in JSON. */
function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export class View {
  constructor(
    private readonly store: Store,
    private readonly baseUrl: string,
  ) {}

  private api(path: string): string {
    return `${this.baseUrl}/v1${path}`;
  }

  org(o: OrgRecord) {
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
      urls: { location: this.api(`/orgs/${o.id}`), app: `${APP}/o/${o.id}/` },
      permissions: {
        view: true,
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

  space(s: SpaceRecord) {
    return {
      object: "space",
      id: s.id,
      title: s.title,
      emoji: s.emoji,
      visibility: s.visibility,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      editMode: "live",
      urls: { location: this.api(`/spaces/${s.id}`), app: `${APP}/s/${s.id}/` },
      organization: s.orgId,
      revision: s.revision,
      defaultLevel: null,
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: {
        view: true,
        access: true,
        admin: true,
        viewInviteLinks: true,
        edit: true,
        triggerGitSync: true,
        comment: true,
        merge: true,
        review: true,
        installIntegration: true,
      },
    };
  }

  member(m: MemberRecord) {
    const teams = [...this.store.teamMembers.values()].filter((t) => t.userId === m.id && this.store.teams.has(t.teamId)).length;
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
        urls: { location: this.api(`/users/${m.id}`) },
      },
      disabled: false,
      joinedAt: m.createdAt,
      lastSeenAt: m.createdAt,
      sso: false,
      spaces: 0,
      teams,
    };
  }

  /** Where visitors reach the site: proxy target, custom hostname, or the org hostname plus basename. */
  sitePublishedUrl(site: SiteRecord): string {
    if (site.proxy) return site.proxy.target;
    if (site.hostname) return `https://${site.hostname}`;
    const org = this.store.orgs.get(site.orgId);
    return `https://${org?.hostname ?? "unknown.gitbook.io"}/${site.basename}`;
  }

  site(s: SiteRecord) {
    const siteSpaces = this.store.siteSpacesOf(s.id).length;
    return compact({
      object: "site",
      id: s.id,
      type: s.type,
      title: s.title,
      hostname: s.hostname,
      basename: s.basename,
      proxy: s.proxy ? { ...s.proxy } : undefined,
      visibility: s.visibility,
      // The spec leaves the transition open; here a site is published once it shows any content.
      published: siteSpaces > 0,
      siteSpaces,
      createdAt: s.createdAt,
      adaptiveContent: { ...s.adaptiveContent },
      agentsContext: s.agentsContext,
      urls: {
        location: this.api(`/orgs/${s.orgId}/sites/${s.id}`),
        app: `${APP}/o/${s.orgId}/sites/${s.id}`,
        published: this.sitePublishedUrl(s),
      },
    });
  }

  adaptiveSchema(s: SiteRecord) {
    return { object: "site-adaptive-schema", jsonSchema: s.adaptiveSchema.jsonSchema, updatedAt: s.adaptiveSchema.updatedAt };
  }

  sectionTitle(sec: SectionRecord): string {
    if (sec.title !== null) return sec.title;
    const site = this.store.sites.get(sec.siteId);
    const def = site && this.store.defaultSiteSpaceIn(site, sec.id);
    return this.store.spaces.get(def?.spaceId ?? sec.spaceId)?.title ?? "Untitled";
  }

  section(sec: SectionRecord) {
    const site = this.store.sites.get(sec.siteId);
    const group = [...this.store.sectionGroups.values()].find((g) => g.siteId === sec.siteId && g.sectionIds.includes(sec.id));
    return compact({
      object: "site-section",
      id: sec.id,
      title: this.sectionTitle(sec),
      description: sec.description,
      default: site !== undefined && this.store.defaultSection(site)?.id === sec.id,
      path: sec.path,
      condition: sec.condition,
      sectionGroup: group?.id,
      icon: sec.icon,
      siteSpaces: this.store.siteSpacesIn(sec.siteId, sec.id).map((ss) => this.siteSpace(ss)),
      urls: { published: site ? `${this.sitePublishedUrl(site)}/${sec.path}` : undefined },
    });
  }

  sectionGroup(g: SectionGroupRecord) {
    const sections = g.sectionIds.map((id) => this.store.sections.get(id)).filter((s) => s !== undefined);
    return compact({
      object: "site-section-group",
      id: g.id,
      title: g.title,
      icon: g.icon,
      sections: sections.map((s) => this.section(s)),
    });
  }

  siteSpace(ss: SiteSpaceRecord) {
    const site = this.store.sites.get(ss.siteId);
    const space = this.store.spaces.get(ss.spaceId);
    const section = ss.sectionId ? this.store.sections.get(ss.sectionId) : undefined;
    const prefix = site ? this.sitePublishedUrl(site) + (section ? `/${section.path}` : "") : "";
    return compact({
      object: "site-space",
      id: ss.id,
      path: ss.path,
      section: ss.sectionId,
      title: space?.title ?? "Untitled",
      default: this.store.isDefaultSiteSpace(ss),
      condition: ss.condition,
      space: space ? this.space(space) : undefined,
      urls: { published: `${prefix}/${ss.path}` },
    });
  }

  shareLink(l: ShareLinkRecord) {
    const site = this.store.sites.get(l.siteId);
    return {
      object: "share-link",
      id: l.id,
      createdAt: l.createdAt,
      name: l.name,
      active: l.active,
      urls: { published: `${site ? this.sitePublishedUrl(site) : ""}?share=${l.key}` },
    };
  }

  team(t: TeamRecord) {
    return {
      object: "team",
      id: t.id,
      title: t.title,
      members: this.store.teamMembersOf(t.id).length,
      spaces: 0,
      createdAt: t.createdAt,
      permissions: { admin: true, view: true },
    };
  }

  teamMember(tm: TeamMemberRecord) {
    const member = this.store.members.get(tm.userId);
    return { organization: member ? this.member(member) : undefined, team: { role: tm.role }, permissions: { view: true } };
  }

  private samlService(id: string) {
    return {
      acsURL: `${APP}/saml/${id}/acs`,
      startURL: `${APP}/saml/${id}/start`,
      entityID: `${APP}/saml/${id}`,
    };
  }

  saml(p: SamlProviderRecord) {
    const team = p.defaultTeamId ? this.store.teams.get(p.defaultTeamId) : undefined;
    return compact({
      object: "saml-provider",
      id: p.id,
      label: p.label,
      ssoURL: p.ssoURL,
      entityID: p.entityID,
      certificate: p.certificate,
      defaultTeam: team ? this.team(team) : undefined,
      defaultRole: p.defaultRole,
      createdAt: p.createdAt,
      // Usable only once the IdP side is fully described.
      status: p.entityID && p.certificate && p.ssoURL ? "active" : "pending",
      service: this.samlService(p.id),
      urls: { location: this.api(`/orgs/${p.orgId}/saml/${p.id}`) },
    });
  }

  ssoItem(p: SamlProviderRecord) {
    return { id: p.id, label: p.label, startURL: this.samlService(p.id).startURL };
  }

  openApiSpec(s: OpenApiSpecRecord) {
    return compact({
      object: "openapi-spec",
      id: s.id,
      slug: s.slug,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      sourceURL: "url" in s.source ? s.source.url : undefined,
      processingState: s.processingState,
      visibility: s.visibility,
      lastVersion: s.lastVersionId,
      lastProcessedAt: s.lastProcessedAt,
      lastProcessErrorCode: s.lastProcessErrorCode,
      permissions: { view: true, edit: true },
      urls: {
        location: this.api(`/orgs/${s.orgId}/openapi/${s.slug}`),
        app: `${APP}/o/${s.orgId}/openapi/${s.slug}`,
        published: `https://api.gitbook.com/openapi/projects/${s.orgId}/${s.slug}`,
      },
    });
  }

  openApiVersion(spec: OpenApiSpecRecord, v: OpenApiVersionRecord) {
    return {
      object: "openapi-spec-version",
      id: v.id,
      createdAt: v.createdAt,
      url: v.url,
      urls: { location: this.api(`/orgs/${spec.orgId}/openapi/${spec.slug}/versions/${v.id}`) },
    };
  }
}
