// Git Sync: the installations connecting a site or a space to a GitHub repository or a GitLab project
// (GitBook's published spec: POST /git/installations, GET/PATCH/DELETE /git/installations/{id}, the
// site's listing of its own and its spaces' installations, and GET /spaces/{id}/git/info).
//
// What the spec leaves to us, modelled here:
// - Authorising GitBook's GitHub or GitLab app for the account is a step only the app can do: an
//   installation made while the organization has not authorised the provider (OrgRecord.gitProviders)
//   is `unauthenticated`, and a PATCH of it answers 401 saying so, saving nothing. The app's step is
//   `emulator edit gitInstallation ID authorized=true` (or the organization's `gitProviders`).
// - A repository the installation names must be one the provider's app shows (the gitRepositories
//   table, seeded): another answers 404 (the spec's only status for it), saving nothing.
// - A target has one installation: a second POST for it answers 409.
// - A PATCH queues a sync, run at once: priority `git` on a site imports `gitbook-docs.yaml` from the
//   project directory of the branch, rewriting the site's structure from it (a file missing answers the
//   spec's 409 `missing_site_git_sync_config`, saving nothing); priority `gitbook` exports it, writing
//   the file from the site's structure. Space installations sync content, which the emulator leaves.
// - Deleting an installation leaves the site's structure and the repository as they are.
import { created, deleted, fail, invalid, notFound, ok, type Reply, type Router } from "../http";
import {
  GIT_PRIORITIES,
  GIT_PROVIDERS,
  bySeq,
  slugify,
  uniqueSlug,
  type GitInstallationRecord,
  type GitRepositoryRecord,
  type SiteRecord,
  type SpaceRecord,
  type Store,
} from "../store";
import { apiUrl, child, compact, getSite, type Ctx, type Env } from "./resource";

const INSTALLATION = "/v1/git/installations/:installation";
export const SITE_CONFIG_FILE = "gitbook-docs.yaml";

/** Who the API's token is, as GitBook records an installation's creator. */
const TOKEN_USER = "usr_emulator";

export function installationStatus(g: GitInstallationRecord): "unauthenticated" | "pending" | "active" {
  if (!g.authorized) return "unauthenticated";
  return g.repositoryId !== undefined && g.branch !== undefined ? "active" : "pending";
}

function repositoryOf(store: Store, g: GitInstallationRecord): GitRepositoryRecord | undefined {
  const r = g.repositoryId === undefined ? undefined : store.gitRepositories.get(String(g.repositoryId));
  return r && r.provider === g.provider ? r : undefined;
}

const repositoryUrl = (r: GitRepositoryRecord) => `https://${r.provider === "github" ? "github.com" : "gitlab.com"}/${r.name}`;

export function gitInstallationView(e: Env, g: GitInstallationRecord) {
  const repo = repositoryOf(e.store, g);
  const status = installationStatus(g);
  return compact({
    object: "git-sync-installation",
    id: g.id,
    provider: g.provider,
    providerConfiguration: compact(g.provider === "github" ? { repositoryId: g.repositoryId, branch: g.branch } : { projectId: g.repositoryId, branch: g.branch }),
    projectDirectory: g.projectDirectory,
    commitMessageTemplate: g.commitMessageTemplate,
    previewExternalBranches: g.previewExternalBranches,
    priority: g.priority,
    target: g.targetType === "site" ? { type: "site", siteId: g.targetId } : { type: "space", spaceId: g.targetId },
    status,
    repositoryConnection: repo && {
      object: "git-repository-connection",
      id: `grc_${g.id}`,
      provider: repo.provider,
      repositoryId: repo.id,
      repositoryName: repo.name,
      repositoryUrl: repositoryUrl(repo),
      authState: status,
      capabilities: { pullRequests: true, commitStatuses: true },
      createdAt: g.createdAt,
      updatedAt: g.updatedAt,
    },
    createdAt: g.createdAt,
    createdBy: g.createdBy,
    updatedAt: g.updatedAt,
    urls: { location: apiUrl(e, `/git/installations/${g.id}`) },
  });
}

function getInstallation(c: Ctx): GitInstallationRecord {
  return c.store.gitInstallations.get(c.params.installation!) ?? notFound("Git Sync installation", c.params.installation!);
}

/** The installation of a target, if it has one. */
export function installationOn(store: Store, type: "site" | "space", id: string): GitInstallationRecord | undefined {
  for (const g of store.gitInstallations.values()) if (g.targetType === type && g.targetId === id) return g;
  return undefined;
}

/** The repository path of a site's configuration file under a project directory. */
export function configPath(projectDirectory: string | undefined): string {
  const dir = (projectDirectory ?? "").replace(/^\/+|\/+$/g, "");
  return dir ? `${dir}/${SITE_CONFIG_FILE}` : SITE_CONFIG_FILE;
}

function missingConfig(path: string, branch: string): Reply {
  const message = `the site Git Sync configuration ${path} is missing from branch ${branch} of the repository`;
  const prompt = `Create ${path} on ${branch}, describing the site's structure (GitBook's GitSyncSiteConfig), and commit it.`;
  return { status: 409, body: { error: { code: 409, message, type: "missing_site_git_sync_config", details: { path, branch, prompt } } } };
}

export function routes(r: Router<Ctx>): void {
  r.add("POST", "/v1/git/installations", (c) => {
    const b = c.body as Record<string, unknown>;
    const provider = b.provider as string;
    if (!(GIT_PROVIDERS as readonly string[]).includes(provider)) invalid("provider", `must be one of ${GIT_PROVIDERS.join(", ")}`);
    const target = (b.target ?? {}) as Record<string, unknown>;
    let orgId: string;
    let targetType: "site" | "space";
    let targetId: string;
    if (target.type === "site" && typeof target.siteId === "string") {
      const site = c.store.sites.get(target.siteId) ?? notFound("site", target.siteId);
      [orgId, targetType, targetId] = [site.orgId, "site", site.id];
    } else if (target.type === "space" && typeof target.spaceId === "string") {
      const space = c.store.spaces.get(target.spaceId);
      if (!space || space.deletedAt) notFound("space", target.spaceId);
      [orgId, targetType, targetId] = [space!.orgId, "space", space!.id];
    } else {
      return invalid("target", "must be {type: site, siteId} or {type: space, spaceId}");
    }
    const there = installationOn(c.store, targetType, targetId);
    if (there) fail(409, `${targetType} "${targetId}" already has Git Sync installation "${there.id}"`);
    const base = c.store.newId("gitinst");
    const g: GitInstallationRecord = {
      ...base,
      orgId,
      provider: provider as GitInstallationRecord["provider"],
      targetType,
      targetId,
      authorized: c.store.orgs.get(orgId)?.gitProviders?.includes(provider as GitInstallationRecord["provider"]) === true,
      createdBy: TOKEN_USER,
      updatedAt: base.createdAt,
    };
    c.store.gitInstallations.set(g.id, g);
    return created(gitInstallationView(c, g));
  });

  r.add("GET", INSTALLATION, (c) => ok(gitInstallationView(c, getInstallation(c))));

  r.add("PATCH", INSTALLATION, (c) => {
    const g = getInstallation(c);
    const b = c.body as Record<string, unknown>;
    if (b.provider !== g.provider) invalid("provider", `must be ${g.provider}, the installation's provider`);
    const pc = (b.providerConfiguration ?? {}) as Record<string, unknown>;
    const idKey = g.provider === "github" ? "repositoryId" : "projectId";
    const repositoryId = pc[idKey] as number | undefined;
    const branch = pc.branch as string | undefined;
    if (repositoryId !== undefined && !Number.isInteger(repositoryId)) invalid(`providerConfiguration.${idKey}`, "must be an integer");
    if (branch !== undefined && !/^refs\/heads\/.+$/.test(branch)) invalid("providerConfiguration.branch", "must match ^refs/heads/.+$");
    if (b.priority !== undefined && !(GIT_PRIORITIES as readonly unknown[]).includes(b.priority)) invalid("priority", `must be one of ${GIT_PRIORITIES.join(", ")}`);
    if (!g.authorized) fail(401, `Git Sync installation "${g.id}" is not authenticated with ${g.provider}: authorise GitBook's ${g.provider} app for the account in the GitBook app`);
    const next: GitInstallationRecord = { ...g };
    if (repositoryId !== undefined) next.repositoryId = repositoryId;
    if (branch !== undefined) next.branch = branch;
    for (const f of ["projectDirectory", "commitMessageTemplate", "previewExternalBranches", "priority"] as const) if (b[f] !== undefined) (next as unknown as Record<string, unknown>)[f] = b[f];
    if (next.repositoryId !== undefined && !repositoryOf(c.store, next)) notFound(`${g.provider} repository`, String(next.repositoryId));
    const repo = repositoryOf(c.store, next);
    if (repo && next.branch && next.targetType === "site") {
      const path = configPath(next.projectDirectory);
      const key = `${next.branch}:${path}`;
      const site = c.store.sites.get(next.targetId)!;
      if ((next.priority ?? "git") === "git") {
        const config = repo.files[key];
        if (config === undefined) return missingConfig(path, next.branch);
        importSiteStructure(c.store, site, config);
      } else {
        repo.files[key] = exportSiteStructure(c.store, site);
      }
    }
    Object.assign(g, next, { updatedAt: new Date().toISOString() });
    return ok(gitInstallationView(c, g));
  });

  // The spec declares 205 and 404 only (no 204 for one already gone, as other DELETEs have).
  r.add("DELETE", INSTALLATION, (c) => (c.store.gitInstallations.delete(c.params.installation!) ? deleted(true) : notFound("Git Sync installation", c.params.installation!)));

  r.add("GET", "/v1/orgs/:org/sites/:site/spaces/git/installations", (c) => {
    const site = getSite(c);
    const spaces = new Set(c.store.siteSpacesOf(site.id).map((ss) => ss.spaceId));
    const items = bySeq([...c.store.gitInstallations.values()].filter((g) => (g.targetType === "site" && g.targetId === site.id) || (g.targetType === "space" && spaces.has(g.targetId))));
    return ok({ items: items.map((g) => gitInstallationView(c, g)) });
  });

  r.add("GET", "/v1/spaces/:space/git/info", (c) => {
    const space = child(c.store.spaces, c.params.space!, (s) => !s.deletedAt) ?? notFound("space", c.params.space!);
    // Its own installation, or the one of a site whose structure places it.
    const g =
      installationOn(c.store, "space", space.id) ??
      [...c.store.siteSpaces.values()].filter((ss) => ss.spaceId === space.id).map((ss) => installationOn(c.store, "site", ss.siteId)).find((x) => x !== undefined);
    if (!g) return notFound("Git Sync provider of space", space.id);
    const repo = repositoryOf(c.store, g);
    return ok(
      compact({
        installationId: g.id,
        installationProvider: g.provider,
        installationStatus: installationStatus(g),
        repoName: repo?.name,
        url: repo && g.branch ? `${repositoryUrl(repo)}/tree/${g.branch.replace(/^refs\/heads\//, "")}` : undefined,
        updatedAt: g.updatedAt,
      }),
    );
  });
}

// ---------------------------------------------------------------- the site's structure and its file

type Node = Record<string, unknown>;

/** The site's structure as a `gitbook-docs.yaml` (GitBook's GitSyncSiteConfig), keyed by the objects' IDs. */
export function exportSiteStructure(store: Store, site: SiteRecord): Node {
  const spaceNode = (ss: { id: string; spaceId: string; path: string }, isDefault: boolean): Node => ({
    type: "space",
    key: ss.id,
    title: store.spaces.get(ss.spaceId)?.title ?? "Untitled",
    path: ss.path,
    ...(isDefault ? { default: true } : {}),
    content: { directory: `./${ss.path}` },
  });
  const spacesIn = (sectionId: string | undefined) => {
    const list = store.siteSpacesIn(site.id, sectionId);
    const def = store.defaultSiteSpaceIn(site, sectionId);
    return list.map((ss) => spaceNode(ss, ss.id === def?.id));
  };
  const defaultSection = store.defaultSection(site);
  const nodes = (groupId: string | undefined): Node[] =>
    store.childrenOf(site.id, groupId).map((n): Node => {
      if (n.type === "site-section")
        return { type: "section", key: n.record.id, title: n.record.title ?? "Untitled", path: n.record.path, ...(n.record.id === defaultSection?.id ? { default: true } : {}), children: spacesIn(n.record.id) };
      if (n.type === "site-section-group") return { type: "section-group", key: n.record.id, title: n.record.title, children: nodes(n.record.id) };
      return { type: "external-link", key: n.record.id, title: n.record.title, url: n.record.url };
    });
  const top = nodes(undefined);
  return { site: { title: site.title, structure: top.length > 0 ? top : spacesIn(undefined) } };
}

/**
 * Rewrites the site's structure from a `gitbook-docs.yaml`: its sections, groups, links and site spaces
 * become the file's (the spaces a site space shows are kept, found by title, else made).
 */
export function importSiteStructure(store: Store, site: SiteRecord, config: unknown): void {
  const structure = ((config as { site?: { structure?: unknown } })?.site?.structure ?? []) as Node[];
  for (const s of [...store.sections.values()]) if (s.siteId === site.id) store.deleteSection(s.id);
  for (const ss of [...store.siteSpaces.values()]) if (ss.siteId === site.id) store.deleteSiteSpace(ss.id);
  for (const g of [...store.sectionGroups.values()]) if (g.siteId === site.id) store.deleteSectionGroup(g.id);
  for (const l of [...store.externalLinks.values()]) if (l.siteId === site.id) store.externalLinks.delete(l.id);
  const spaceTitled = (title: string): SpaceRecord => {
    for (const s of store.spaces.values()) if (s.orgId === site.orgId && !s.deletedAt && s.title === title) return s;
    const base = store.newId("spc");
    const made: SpaceRecord = { ...base, orgId: site.orgId, title, emoji: "", visibility: "in-collection", updatedAt: base.createdAt, revision: `rev_${store.randomString(10)}` };
    store.spaces.set(made.id, made);
    return made;
  };
  const addSpaces = (children: Node[], sectionId: string | undefined) => {
    const taken: string[] = [];
    for (const n of children) {
      if (n.type !== "space") continue;
      const space = spaceTitled(String(n.title));
      const path = uniqueSlug(typeof n.path === "string" ? n.path : slugify(space.title), taken);
      taken.push(path);
      const ss = { ...store.newId("sitesp"), siteId: site.id, spaceId: space.id, path, ...(sectionId !== undefined && { sectionId }) };
      store.siteSpaces.set(ss.id, ss);
      if (n.default === true) {
        if (sectionId === undefined) site.defaultSiteSpaceId = ss.id;
        else store.sections.get(sectionId)!.defaultSiteSpaceId = ss.id;
      }
    }
  };
  const addNodes = (nodes: Node[], groupId: string | undefined) => {
    for (const n of nodes) {
      if (n.type === "section") {
        const children = (n.children ?? []) as Node[];
        const first = children.find((x) => x.type === "space");
        const section = { ...store.newId("sitesc"), siteId: site.id, title: String(n.title), spaceId: first ? spaceTitled(String(first.title)).id : "", path: String(n.path) };
        store.sections.set(section.id, section);
        if (groupId !== undefined) store.sectionGroups.get(groupId)!.sectionIds.push(section.id);
        if (n.default === true) site.defaultSectionId = section.id;
        addSpaces(children, section.id);
      } else if (n.type === "section-group") {
        const g = { ...store.newId("sitesg"), siteId: site.id, title: String(n.title), draft: n.draft === true, sectionIds: [], ...(groupId !== undefined && { parentId: groupId }) };
        store.sectionGroups.set(g.id, g);
        addNodes((n.children ?? []) as Node[], g.id);
      } else if (n.type === "external-link") {
        const l = { ...store.newId("sitel"), siteId: site.id, title: String(n.title), url: String(n.url), draft: n.draft === true, ...(groupId !== undefined && { groupId }) };
        store.externalLinks.set(l.id, l);
      }
    }
  };
  addNodes(structure, undefined);
  addSpaces(structure, undefined);
}
