// Route table of the emulator. Handlers are synchronous: they validate, mutate the store
// and return a Reply; errors are thrown through http.ts helpers.
import {
  bool,
  checkString,
  created,
  deleted,
  fail,
  invalid,
  LIMITS,
  list,
  noContent,
  notFound,
  nullable,
  obj,
  ok,
  oneOf,
  queryBool,
  required,
  Router,
  str,
  strArray,
  validate,
  type Infer,
} from "./http";
import type { View } from "./render";
import {
  AGENTS_CONTEXTS,
  OPENAPI_VISIBILITIES,
  ROLES,
  SITE_TYPES,
  SITE_VISIBILITIES,
  slugify,
  TEAM_ROLES,
  teamMemberKey,
  uniqueSlug,
  type MemberRecord,
  type OpenApiSource,
  type OpenApiSpecRecord,
  type OrgRecord,
  type SamlProviderRecord,
  type SectionGroupRecord,
  type SectionRecord,
  type SiteRecord,
  type SiteSpaceRecord,
  type SpaceRecord,
  type Store,
  type TeamMemberRecord,
  type TeamRecord,
  type TeamRole,
} from "./store";

export interface Ctx {
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; `{}` for an empty body. */
  body: unknown;
  store: Store;
  view: View;
}

const ORG = "/v1/orgs/:org";
const SITE = `${ORG}/sites/:site`;
const TEAM = `${ORG}/teams/:team`;
const SPEC = `${ORG}/openapi/:slug`;

const now = () => new Date().toISOString();

// ---------------------------------------------------------------- lookups
// GETs/PATCHes of something missing answer 404. DELETEs answer 204 when the object (or
// one of its parents below the organization) is missing, so deleting in any order works;
// an unknown organization is still a 404.

function getOrg(c: Ctx): OrgRecord {
  return c.store.orgs.get(c.params.org!) ?? notFound("organization", c.params.org!);
}

function child<T>(map: Map<string, T>, id: string, belongs: (t: T) => boolean): T | undefined {
  const t = map.get(id);
  return t !== undefined && belongs(t) ? t : undefined;
}

function getSite(c: Ctx): SiteRecord {
  const org = getOrg(c);
  return child(c.store.sites, c.params.site!, (s) => s.orgId === org.id) ?? notFound("site", c.params.site!);
}

function findSite(c: Ctx): SiteRecord | undefined {
  const org = getOrg(c);
  return child(c.store.sites, c.params.site!, (s) => s.orgId === org.id);
}

function getTeam(c: Ctx): TeamRecord {
  const org = getOrg(c);
  return child(c.store.teams, c.params.team!, (t) => t.orgId === org.id) ?? notFound("team", c.params.team!);
}

function getSpec(c: Ctx): OpenApiSpecRecord {
  const org = getOrg(c);
  return c.store.findOpenApiSpec(org.id, c.params.slug!) ?? notFound("OpenAPI spec", c.params.slug!);
}

/** A space referenced from a body: must exist in the organization, else 400 naming the field. */
function spaceRef(c: Ctx, orgId: string, id: string, field: string): SpaceRecord {
  return child(c.store.spaces, id, (s) => s.orgId === orgId) ?? invalid(field, `no space "${id}" in this organization`);
}

function memberRef(c: Ctx, orgId: string, ref: string, field: string): MemberRecord {
  return c.store.findMember(orgId, ref) ?? invalid(field, `unknown user "${ref}" (not a member of this organization)`);
}

/** Sets an optional field from a PATCH value: undefined leaves it, null removes it. */
function patchOptional<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | null | undefined): void {
  if (value === undefined) return;
  if (value === null) delete target[key];
  else target[key] = value;
}

// ---------------------------------------------------------------- site structure helpers

function addSiteSpace(c: Ctx, site: SiteRecord, space: SpaceRecord, sectionId: string | undefined): SiteSpaceRecord {
  const taken = c.store.siteSpacesIn(site.id, sectionId).map((s) => s.path);
  const ss: SiteSpaceRecord = {
    ...c.store.newId("sitesp"),
    siteId: site.id,
    spaceId: space.id,
    path: uniqueSlug(slugify(space.title), taken),
  };
  if (sectionId !== undefined) ss.sectionId = sectionId;
  c.store.siteSpaces.set(ss.id, ss);
  return ss;
}

/**
 * What GitBook does when a site space is added to a site without sections: it first creates a section
 * named after the site (GitBook's API notes call it a wrapper), holding the site's root-level site
 * spaces (there is no root level next to sections), which becomes the default section.
 */
function wrapInSection(c: Ctx, site: SiteRecord, adding: SpaceRecord): SectionRecord {
  const root = c.store.siteSpacesIn(site.id, undefined);
  const rootDefault = c.store.defaultSiteSpaceIn(site, undefined);
  const section: SectionRecord = {
    ...c.store.newId("sitesc"),
    siteId: site.id,
    title: site.title,
    spaceId: rootDefault?.spaceId ?? adding.id,
    path: slugify(site.title),
  };
  c.store.sections.set(section.id, section);
  for (const ss of root) ss.sectionId = section.id;
  if (rootDefault) section.defaultSiteSpaceId = rootDefault.id;
  delete site.defaultSiteSpaceId;
  site.defaultSectionId = section.id;
  return section;
}

function siteSectionRef(c: Ctx, site: SiteRecord, id: string, field: string): SectionRecord {
  return child(c.store.sections, id, (s) => s.siteId === site.id) ?? invalid(field, `no section "${id}" in this site`);
}

function proxyFrom(value: string): { origin: string; target: string } {
  // The API takes "host/sub/path" without a scheme and returns it split into origin and full target URL.
  const host = value.slice(0, value.indexOf("/"));
  return { origin: `https://${host}`, target: `https://${value}` };
}

function defaultAdaptiveSchema(): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      unsigned: { type: "object", description: "Unsigned visitor claims", properties: {}, additionalProperties: false },
    },
    additionalProperties: false,
  };
}

// ---------------------------------------------------------------- team helpers

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

// ---------------------------------------------------------------- OpenAPI processing

function startProcessing(spec: OpenApiSpecRecord, source: OpenApiSource): void {
  spec.source = source;
  spec.updatedAt = now();
  spec.processingState = "pending";
  spec.pendingReads = 0;
  delete spec.lastProcessErrorCode;
}

/**
 * One GET of a spec is one tick of the fake processor: while pending, the first
 * `openApiProcessingReads` GETs answer "pending", the next one the outcome.
 */
function observeSpec(c: Ctx, spec: OpenApiSpecRecord): void {
  if (spec.processingState !== "pending" || spec.frozen) return;
  if (spec.pendingReads < c.store.settings.openApiProcessingReads) {
    spec.pendingReads++;
    return;
  }
  const source = spec.source;
  const failure =
    "text" in source
      ? /openapi|swagger/i.test(source.text)
        ? undefined
        : ("invalid_spec" as const)
      : new URL(source.url).hostname === "invalid.example"
        ? ("fetch_failed" as const)
        : undefined;
  if (failure) {
    // lastVersion/lastProcessedAt keep describing the last successful run.
    spec.processingState = "failed";
    spec.lastProcessErrorCode = failure;
    return;
  }
  const v = c.store.newId("oasv");
  const url =
    "url" in source ? source.url : `https://api.gitbook.com/openapi/projects/${spec.orgId}/${spec.slug}/versions/${v.id}/openapi.json`;
  c.store.openApiVersions.set(v.id, { ...v, specId: spec.id, url });
  spec.processingState = "complete";
  spec.lastVersionId = v.id;
  spec.lastProcessedAt = v.createdAt;
}

function parseSource(raw: Record<string, unknown>): OpenApiSource {
  const hasUrl = raw.url !== undefined;
  const hasText = raw.text !== undefined;
  if (hasUrl === hasText) invalid("source", "must be either {url} or {text}");
  if (hasUrl) return { url: checkString("source.url", raw.url, LIMITS.openApiSourceURL) };
  return { text: checkString("source.text", raw.text, LIMITS.openApiSourceText) };
}

function getVersion(c: Ctx, spec: OpenApiSpecRecord) {
  const id = c.params.version === undefined ? spec.lastVersionId : c.params.version;
  const v = id === undefined ? undefined : child(c.store.openApiVersions, id, (x) => x.specId === spec.id);
  return v ?? notFound("OpenAPI spec version", id ?? "latest");
}

// ---------------------------------------------------------------- schemas

const SITE_PATCH = {
  title: str(LIMITS.siteTitle),
  visibility: oneOf(SITE_VISIBILITIES),
  basename: str(LIMITS.siteBasename),
  agentsContext: oneOf(AGENTS_CONTEXTS),
  defaultSiteSpace: str(),
  defaultSiteSection: str(),
  proxy: nullable(str(LIMITS.siteProxy)),
  adaptiveContent: obj(),
};

const SECTION_PATCH = {
  title: nullable(str(LIMITS.sectionTitle)),
  path: str(LIMITS.path),
  defaultSiteSpace: str(),
  condition: nullable(str(LIMITS.condition)),
  icon: nullable(str(LIMITS.icon)),
  description: nullable(str(LIMITS.sectionDescription)),
};

const SAML_FIELDS = {
  label: str(LIMITS.samlLabel),
  entityID: nullable(str(LIMITS.samlEntityID)),
  certificate: nullable(str(LIMITS.samlCertificate)),
  ssoURL: nullable(str(LIMITS.samlSsoURL)),
  defaultTeam: nullable(str()),
  defaultRole: nullable(oneOf(ROLES)),
};

// ---------------------------------------------------------------- routes

export function buildRouter(): Router<Ctx> {
  const r = new Router<Ctx>();

  // ---- organizations, spaces, members
  r.add("GET", "/v1/orgs", (c) => list(c.query, [...c.store.orgs.values()], (o) => c.view.org(o)));
  r.add("GET", ORG, (c) => ok(c.view.org(getOrg(c))));
  r.add("GET", "/v1/spaces/:space", (c) => ok(c.view.space(c.store.spaces.get(c.params.space!) ?? notFound("space", c.params.space!))));

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
    return list(c.query, members, (m) => c.view.member(m));
  });
  r.add("GET", `${ORG}/members/:user`, (c) => {
    const org = getOrg(c);
    return ok(c.view.member(child(c.store.members, c.params.user!, (m) => m.orgId === org.id) ?? notFound("member", c.params.user!)));
  });

  // ---- sites
  r.add("GET", `${ORG}/sites`, (c) => {
    const org = getOrg(c);
    const space = c.query.get("space");
    const title = c.query.get("title")?.toLowerCase();
    const published = queryBool(c.query, "published");
    const sites = [...c.store.sites.values()].filter((s) => {
      if (s.orgId !== org.id) return false;
      const siteSpaces = c.store.siteSpacesOf(s.id);
      if (space !== null && !siteSpaces.some((ss) => ss.spaceId === space)) return false;
      if (title && !s.title.toLowerCase().includes(title)) return false;
      return published === undefined || published === siteSpaces.length > 0;
    });
    return list(c.query, sites, (s) => c.view.site(s));
  });

  r.add("POST", `${ORG}/sites`, (c) => {
    const org = getOrg(c);
    // `spaces` may also be an enum string asking for a new space; the emulator only supports ID lists.
    const b = validate(c.body, { type: oneOf(SITE_TYPES), title: str(LIMITS.siteTitle), visibility: oneOf(SITE_VISIBILITIES), spaces: strArray() });
    const spaces = (b.spaces ?? []).map((id) => spaceRef(c, org.id, id, "spaces"));
    const title = b.title ?? "Untitled site";
    const base = c.store.newId("site");
    const basenames = [...c.store.sites.values()].filter((s) => s.orgId === org.id).map((s) => s.basename);
    const site: SiteRecord = {
      ...base,
      orgId: org.id,
      type: b.type ?? (org.type === "community" ? "sponsored" : "ultimate"),
      title,
      basename: uniqueSlug(slugify(title), basenames),
      visibility: b.visibility ?? "public",
      agentsContext: "excluded",
      adaptiveContent: { enabled: false },
      adaptiveSchema: { jsonSchema: defaultAdaptiveSchema(), updatedAt: base.createdAt },
    };
    c.store.sites.set(site.id, site);
    for (const space of spaces) addSiteSpace(c, site, space, undefined);
    return created(c.view.site(site));
  });

  r.add("GET", SITE, (c) => ok(c.view.site(getSite(c))));

  r.add("PATCH", SITE, (c) => {
    const site = getSite(c);
    const b = validate(c.body, SITE_PATCH);
    const adaptive = b.adaptiveContent && validate(b.adaptiveContent, { enabled: required(bool()) }, "adaptiveContent.");
    // Resolve every reference before mutating, so a 400 leaves the site untouched.
    const newDefaultSection = b.defaultSiteSection === undefined ? undefined : siteSectionRef(c, site, b.defaultSiteSection, "defaultSiteSection");
    let newDefaultSiteSpace: SiteSpaceRecord | undefined;
    if (b.defaultSiteSpace !== undefined) {
      // With sections, this sets the default of the (possibly just changed) default section; without, the root default.
      const hasSections = c.store.sectionsOf(site.id).length > 0;
      const container = hasSections ? (newDefaultSection ?? c.store.defaultSection(site))?.id : undefined;
      newDefaultSiteSpace =
        child(c.store.siteSpaces, b.defaultSiteSpace, (s) => s.siteId === site.id && s.sectionId === container) ??
        invalid(
          "defaultSiteSpace",
          hasSections ? `no site space "${b.defaultSiteSpace}" in the default section` : `no root-level site space "${b.defaultSiteSpace}" in this site`,
        );
    }
    if (b.title !== undefined) site.title = b.title;
    if (b.visibility !== undefined) site.visibility = b.visibility;
    if (b.basename !== undefined) site.basename = b.basename;
    if (b.agentsContext !== undefined) site.agentsContext = b.agentsContext;
    if (b.proxy !== undefined) patchOptional(site, "proxy", b.proxy === null ? null : proxyFrom(b.proxy));
    if (adaptive) site.adaptiveContent = { enabled: adaptive.enabled };
    if (newDefaultSection) site.defaultSectionId = newDefaultSection.id;
    if (newDefaultSiteSpace) {
      if (newDefaultSiteSpace.sectionId === undefined) site.defaultSiteSpaceId = newDefaultSiteSpace.id;
      else c.store.sections.get(newDefaultSiteSpace.sectionId)!.defaultSiteSpaceId = newDefaultSiteSpace.id;
    }
    return ok(c.view.site(site));
  });

  r.add("DELETE", SITE, (c) => {
    const site = findSite(c);
    return deleted(site !== undefined && c.store.deleteSite(site.id));
  });

  r.add("GET", `${SITE}/adaptive-schema`, (c) => ok(c.view.adaptiveSchema(getSite(c))));
  r.add("PUT", `${SITE}/adaptive-schema`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { jsonSchema: required(obj()) });
    if (b.jsonSchema.type !== undefined && b.jsonSchema.type !== "object") invalid("jsonSchema.type", 'must be "object"');
    site.adaptiveSchema = { jsonSchema: b.jsonSchema, updatedAt: now() };
    return ok(c.view.adaptiveSchema(site));
  });

  // ---- site sections
  r.add("GET", `${SITE}/sections`, (c) => {
    const site = getSite(c);
    return list(c.query, c.store.sectionsOf(site.id), (s) => c.view.section(s));
  });

  r.add("POST", `${SITE}/sections`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { spaceId: required(str()), title: nullable(str(LIMITS.sectionTitle)), icon: nullable(str(LIMITS.icon)) });
    const space = spaceRef(c, site.orgId, b.spaceId, "spaceId");
    const title = b.title ?? null;
    const taken = c.store.sectionsOf(site.id).map((s) => s.path);
    const section: SectionRecord = {
      ...c.store.newId("sitesc"),
      siteId: site.id,
      title,
      spaceId: space.id,
      path: uniqueSlug(slugify(title ?? space.title), taken),
    };
    if (b.icon) section.icon = b.icon;
    c.store.sections.set(section.id, section);
    // A section never exists without content: its space becomes its first, default site space.
    section.defaultSiteSpaceId = addSiteSpace(c, site, space, section.id).id;
    return created(c.view.section(section));
  });

  r.add("PATCH", `${SITE}/sections/:section`, (c) => {
    const site = getSite(c);
    const section = child(c.store.sections, c.params.section!, (s) => s.siteId === site.id) ?? notFound("site section", c.params.section!);
    const b = validate(c.body, SECTION_PATCH);
    const def =
      b.defaultSiteSpace === undefined
        ? undefined
        : (child(c.store.siteSpaces, b.defaultSiteSpace, (s) => s.siteId === site.id && s.sectionId === section.id) ??
          invalid("defaultSiteSpace", `no site space "${b.defaultSiteSpace}" in this section`));
    // null title = follow the space title again.
    if (b.title !== undefined) section.title = b.title;
    if (b.path !== undefined) section.path = b.path;
    patchOptional(section, "condition", b.condition);
    patchOptional(section, "icon", b.icon);
    patchOptional(section, "description", b.description);
    if (def) section.defaultSiteSpaceId = def.id;
    return ok(c.view.section(section));
  });

  r.add("DELETE", `${SITE}/sections/:section`, (c) => {
    const site = findSite(c);
    const section = site && child(c.store.sections, c.params.section!, (s) => s.siteId === site.id);
    return deleted(section !== undefined && c.store.deleteSection(section.id));
  });

  // ---- section groups
  r.add("GET", `${SITE}/section-groups`, (c) => {
    const site = getSite(c);
    return list(
      c.query,
      [...c.store.sectionGroups.values()].filter((g) => g.siteId === site.id),
      (g) => c.view.sectionGroup(g),
    );
  });

  const ungroupElsewhere = (c: Ctx, site: SiteRecord, groupId: string, sectionIds: string[]) => {
    // A section belongs to at most one group: adding it elsewhere moves it.
    for (const g of c.store.sectionGroups.values()) {
      if (g.siteId === site.id && g.id !== groupId) g.sectionIds = g.sectionIds.filter((id) => !sectionIds.includes(id));
    }
  };

  r.add("POST", `${SITE}/section-groups`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { title: required(str(LIMITS.sectionGroupTitle)), icon: str(LIMITS.icon), sections: strArray() });
    const sectionIds = (b.sections ?? []).map((id) => siteSectionRef(c, site, id, "sections").id);
    const group: SectionGroupRecord = { ...c.store.newId("sitesg"), siteId: site.id, title: b.title, sectionIds: [...new Set(sectionIds)] };
    if (b.icon !== undefined) group.icon = b.icon;
    ungroupElsewhere(c, site, group.id, group.sectionIds);
    c.store.sectionGroups.set(group.id, group);
    return created(c.view.sectionGroup(group));
  });

  const getGroup = (c: Ctx, site: SiteRecord) =>
    child(c.store.sectionGroups, c.params.group!, (g) => g.siteId === site.id) ?? notFound("section group", c.params.group!);

  r.add("PATCH", `${SITE}/section-groups/:group`, (c) => {
    const site = getSite(c);
    const group = getGroup(c, site);
    const b = validate(c.body, { title: str(LIMITS.sectionGroupTitle), icon: nullable(str(LIMITS.icon)) });
    if (b.title !== undefined) group.title = b.title;
    patchOptional(group, "icon", b.icon);
    return ok(c.view.sectionGroup(group));
  });

  r.add("DELETE", `${SITE}/section-groups/:group`, (c) => {
    const site = findSite(c);
    const group = site && child(c.store.sectionGroups, c.params.group!, (g) => g.siteId === site.id);
    return deleted(group !== undefined && c.store.sectionGroups.delete(group.id));
  });

  r.add("POST", `${SITE}/section-groups/:group/sections`, (c) => {
    const site = getSite(c);
    const group = getGroup(c, site);
    const b = validate(c.body, { sectionId: required(str()) });
    const section = siteSectionRef(c, site, b.sectionId, "sectionId");
    ungroupElsewhere(c, site, group.id, [section.id]);
    if (!group.sectionIds.includes(section.id)) group.sectionIds.push(section.id);
    return ok(c.view.sectionGroup(group));
  });

  r.add("DELETE", `${SITE}/section-groups/:group/sections/:section`, (c) => {
    const site = findSite(c);
    const group = site && child(c.store.sectionGroups, c.params.group!, (g) => g.siteId === site.id);
    const had = group !== undefined && group.sectionIds.includes(c.params.section!);
    if (group && had) group.sectionIds = group.sectionIds.filter((id) => id !== c.params.section);
    return deleted(had);
  });

  // ---- site spaces
  r.add("GET", `${SITE}/site-spaces`, (c) => {
    const site = getSite(c);
    const wantDefault = queryBool(c.query, "default");
    const items = c.store.siteSpacesOf(site.id).filter((ss) => wantDefault === undefined || c.store.isDefaultSiteSpace(ss) === wantDefault);
    return list(c.query, items, (ss) => c.view.siteSpace(ss));
  });

  r.add("POST", `${SITE}/site-spaces`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { spaceId: required(str()), sectionId: str() });
    const space = spaceRef(c, site.orgId, b.spaceId, "spaceId");
    // Omitted section: the default section; a site without sections gets one named after the site first.
    const section =
      b.sectionId !== undefined ? siteSectionRef(c, site, b.sectionId, "sectionId") : (c.store.defaultSection(site) ?? wrapInSection(c, site, space));
    return created(c.view.siteSpace(addSiteSpace(c, site, space, section.id)));
  });

  r.add("PATCH", `${SITE}/site-spaces/:siteSpace`, (c) => {
    const site = getSite(c);
    const ss = child(c.store.siteSpaces, c.params.siteSpace!, (s) => s.siteId === site.id) ?? notFound("site space", c.params.siteSpace!);
    const b = validate(c.body, { path: str(LIMITS.path), condition: nullable(str(LIMITS.condition)), spaceId: str() });
    const space = b.spaceId === undefined ? undefined : spaceRef(c, site.orgId, b.spaceId, "spaceId");
    if (b.path !== undefined) ss.path = b.path;
    patchOptional(ss, "condition", b.condition);
    if (space) ss.spaceId = space.id;
    return ok(c.view.siteSpace(ss));
  });

  r.add("DELETE", `${SITE}/site-spaces/:siteSpace`, (c) => {
    const site = findSite(c);
    const ss = site && child(c.store.siteSpaces, c.params.siteSpace!, (s) => s.siteId === site.id);
    return deleted(ss !== undefined && c.store.deleteSiteSpace(ss.id));
  });

  // ---- share links
  r.add("GET", `${SITE}/share-links`, (c) => {
    const site = getSite(c);
    return list(
      c.query,
      [...c.store.shareLinks.values()].filter((l) => l.siteId === site.id),
      (l) => c.view.shareLink(l),
    );
  });

  r.add("POST", `${SITE}/share-links`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { name: required(str(LIMITS.shareLinkName)) });
    const link = { ...c.store.newId("shl"), siteId: site.id, name: b.name, active: true, key: c.store.randomString(24) };
    c.store.shareLinks.set(link.id, link);
    return created(c.view.shareLink(link));
  });

  r.add("PATCH", `${SITE}/share-links/:shareLink`, (c) => {
    const site = getSite(c);
    const link = child(c.store.shareLinks, c.params.shareLink!, (l) => l.siteId === site.id) ?? notFound("share link", c.params.shareLink!);
    const b = validate(c.body, { active: bool(), name: str(LIMITS.shareLinkName) });
    if (b.active !== undefined) link.active = b.active;
    if (b.name !== undefined) link.name = b.name;
    return ok(c.view.shareLink(link));
  });

  r.add("DELETE", `${SITE}/share-links/:shareLink`, (c) => {
    const site = findSite(c);
    const link = site && child(c.store.shareLinks, c.params.shareLink!, (l) => l.siteId === site.id);
    return deleted(link !== undefined && c.store.shareLinks.delete(link.id));
  });

  // ---- teams
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
    return list(c.query, teams, (t) => c.view.team(t));
  });

  // Teams are created with PUT on the collection (GitBook's choice), answering 201.
  r.add("PUT", `${ORG}/teams`, (c) => {
    const org = getOrg(c);
    const b = validate(c.body, { title: required(str(LIMITS.teamTitle)), members: strArray() });
    const members = (b.members ?? []).map((ref) => memberRef(c, org.id, ref, "members"));
    const team: TeamRecord = { ...c.store.newId("team"), orgId: org.id, title: b.title };
    c.store.teams.set(team.id, team);
    for (const m of members) upsertTeamMember(c, team, m.id, undefined);
    return created(c.view.team(team));
  });

  r.add("GET", TEAM, (c) => ok(c.view.team(getTeam(c))));

  r.add("PATCH", TEAM, (c) => {
    const team = getTeam(c);
    const b = validate(c.body, { title: required(str(LIMITS.teamTitle)) });
    team.title = b.title;
    return ok(c.view.team(team));
  });

  r.add("DELETE", TEAM, (c) => {
    const org = getOrg(c);
    const team = child(c.store.teams, c.params.team!, (t) => t.orgId === org.id);
    return deleted(team !== undefined && c.store.deleteTeam(team.id));
  });

  r.add("GET", `${TEAM}/members`, (c) => {
    const team = getTeam(c);
    return list(c.query, c.store.teamMembersOf(team.id), (tm) => c.view.teamMember(tm));
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

  // ---- SAML
  r.add("GET", `${ORG}/saml`, (c) => {
    const org = getOrg(c);
    return list(
      c.query,
      [...c.store.samlProviders.values()].filter((p) => p.orgId === org.id),
      (p) => c.view.saml(p),
    );
  });

  const applySaml = (c: Ctx, org: OrgRecord, p: SamlProviderRecord, b: Infer<typeof SAML_FIELDS>) => {
    if (b.defaultTeam && !child(c.store.teams, b.defaultTeam, (t) => t.orgId === org.id)) {
      invalid("defaultTeam", `no team "${b.defaultTeam}" in this organization`);
    }
    if (b.label !== undefined) p.label = b.label;
    patchOptional(p, "entityID", b.entityID);
    patchOptional(p, "certificate", b.certificate);
    patchOptional(p, "ssoURL", b.ssoURL);
    patchOptional(p, "defaultTeamId", b.defaultTeam);
    if (b.defaultRole !== undefined) p.defaultRole = b.defaultRole;
  };

  r.add("POST", `${ORG}/saml`, (c) => {
    const org = getOrg(c);
    const b = validate(c.body, { ...SAML_FIELDS, label: required(str(LIMITS.samlLabel)) });
    const provider: SamlProviderRecord = { ...c.store.newId("saml"), orgId: org.id, label: b.label, defaultRole: null };
    applySaml(c, org, provider, b);
    c.store.samlProviders.set(provider.id, provider);
    return created(c.view.saml(provider));
  });

  const getSaml = (c: Ctx) => {
    const org = getOrg(c);
    return child(c.store.samlProviders, c.params.saml!, (p) => p.orgId === org.id) ?? notFound("SAML provider", c.params.saml!);
  };

  r.add("GET", `${ORG}/saml/:saml`, (c) => ok(c.view.saml(getSaml(c))));

  r.add("PATCH", `${ORG}/saml/:saml`, (c) => {
    const provider = getSaml(c);
    const org = getOrg(c);
    const b = validate(c.body, SAML_FIELDS);
    applySaml(c, org, provider, b);
    return ok(c.view.saml(provider));
  });

  r.add("DELETE", `${ORG}/saml/:saml`, (c) => {
    const org = getOrg(c);
    const provider = child(c.store.samlProviders, c.params.saml!, (p) => p.orgId === org.id);
    return deleted(provider !== undefined && c.store.samlProviders.delete(provider.id));
  });

  r.add("GET", `${ORG}/sso`, (c) => {
    const org = getOrg(c);
    const items = [...c.store.samlProviders.values()].filter((p) => p.orgId === org.id).map((p) => c.view.ssoItem(p));
    return ok({ items });
  });

  // ---- OpenAPI specs
  r.add("GET", `${ORG}/openapi`, (c) => {
    const org = getOrg(c);
    return list(
      c.query,
      [...c.store.openApiSpecs.values()].filter((s) => s.orgId === org.id),
      (s) => c.view.openApiSpec(s),
    );
  });

  r.add("POST", `${ORG}/openapi`, (c) => {
    const org = getOrg(c);
    const b = validate(c.body, { slug: required(str(LIMITS.openApiSlug)), source: required(obj()) });
    const source = parseSource(b.source);
    if (c.store.findOpenApiSpec(org.id, b.slug)) fail(409, `slug: an OpenAPI spec "${b.slug}" already exists in this organization`);
    const base = c.store.newId("oas");
    const spec: OpenApiSpecRecord = {
      ...base,
      orgId: org.id,
      slug: b.slug,
      source,
      updatedAt: base.createdAt,
      visibility: "private",
      processingState: "pending",
      pendingReads: 0,
    };
    startProcessing(spec, source);
    c.store.openApiSpecs.set(spec.id, spec);
    return created(c.view.openApiSpec(spec));
  });

  r.add("GET", SPEC, (c) => {
    const spec = getSpec(c);
    observeSpec(c, spec);
    return ok(c.view.openApiSpec(spec));
  });

  // Upsert; the spec documents 200 for both creation and update.
  r.add("PUT", SPEC, (c) => {
    const org = getOrg(c);
    const slug = checkString("slug", c.params.slug, LIMITS.openApiSlug);
    const b = validate(c.body, { source: required(obj()) });
    const source = parseSource(b.source);
    let spec = c.store.findOpenApiSpec(org.id, slug);
    if (!spec) {
      const base = c.store.newId("oas");
      spec = { ...base, orgId: org.id, slug, source, updatedAt: base.createdAt, visibility: "private", processingState: "pending", pendingReads: 0 };
      c.store.openApiSpecs.set(spec.id, spec);
    }
    startProcessing(spec, source);
    return ok(c.view.openApiSpec(spec));
  });

  r.add("PATCH", SPEC, (c) => {
    const spec = getSpec(c);
    const b = validate(c.body, { visibility: required(oneOf(OPENAPI_VISIBILITIES)) });
    spec.visibility = b.visibility;
    spec.updatedAt = now();
    return ok(c.view.openApiSpec(spec));
  });

  r.add("DELETE", SPEC, (c) => {
    const org = getOrg(c);
    const spec = c.store.findOpenApiSpec(org.id, c.params.slug!);
    return deleted(spec !== undefined && c.store.deleteOpenApiSpec(spec.id));
  });

  r.add("GET", `${SPEC}/versions`, (c) => {
    const spec = getSpec(c);
    return list(
      c.query,
      [...c.store.openApiVersions.values()].filter((v) => v.specId === spec.id),
      (v) => c.view.openApiVersion(spec, v),
    );
  });
  // "latest" routes come first: the router takes the first match.
  r.add("GET", `${SPEC}/versions/latest`, (c) => {
    const spec = getSpec(c);
    return ok(c.view.openApiVersion(spec, getVersion(c, spec)));
  });
  r.add("GET", `${SPEC}/versions/latest/content`, (c) => {
    const spec = getSpec(c);
    return ok({ filesystem: {}, url: getVersion(c, spec).url });
  });
  r.add("GET", `${SPEC}/versions/:version`, (c) => {
    const spec = getSpec(c);
    return ok(c.view.openApiVersion(spec, getVersion(c, spec)));
  });
  r.add("GET", `${SPEC}/versions/:version/content`, (c) => {
    const spec = getSpec(c);
    return ok({ filesystem: {}, url: getVersion(c, spec).url });
  });

  return r;
}
