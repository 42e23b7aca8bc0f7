/**
 * One source of truth per site's structure. A site-level Git Sync installation syncs the site's
 * sections, site spaces, section groups, external links and their order from `gitbook-docs.yaml` in
 * its repository, and writes that file back when the structure changes in GitBook: a program declaring
 * the same structure would undo each sync and be undone by the next (and its writes be exported to the
 * repository). So the structure kinds (ResourceSpec.structure) refuse a site that an installation
 * owns, at check, before anything is sent, naming the installation, its repository and branch, and the
 * two ways out; and refresh says why such resources drift.
 *
 * Cost: one GET (GitBook's listing of the site's installations) per site per provider process that
 * checks a structure resource which would send something, or refreshes one; remembered for the
 * process, since each process reads for itself (under the CLI, preview and update run in two).
 */
import { ApiGitSyncInstallation, ApiGitSyncInstallations, GitbookClient, p } from "../client";
import { getOrUndefined } from "./lists";
import type { Ctx } from "./resource";

export const gitSyncPaths = {
  installations: () => "/git/installations",
  installation: (id: string) => p`/git/installations/${id}`,
  ofSite: (org: string, site: string) => p`/orgs/${org}/sites/${site}/spaces/git/installations`,
};

/** The file a site installation syncs the structure from, under its project directory. */
export function siteConfigPath(projectDirectory: string | undefined): string {
  const dir = (projectDirectory ?? "").replace(/^\/+|\/+$/g, "");
  return dir ? `${dir}/gitbook-docs.yaml` : "gitbook-docs.yaml";
}

const read = new WeakMap<GitbookClient, Map<string, Promise<ApiGitSyncInstallation | undefined>>>();

/** The site's own Git Sync installation (not its spaces'), undefined when it has none (or the site is gone): read once per process. */
export function siteInstallation(ctx: Ctx, org: string, site: string): Promise<ApiGitSyncInstallation | undefined> {
  let sites = read.get(ctx.client);
  if (!sites) read.set(ctx.client, (sites = new Map()));
  const key = `${org}/${site}`;
  let found = sites.get(key);
  if (!found) {
    found = getOrUndefined(ctx.client.get(gitSyncPaths.ofSite(org, site), { schema: ApiGitSyncInstallations })).then((all) => all?.items.find((g) => g.target.type === "site"));
    const mine = found;
    // A failed read is not remembered: the next resource asks again.
    found.catch(() => sites!.get(key) === mine && sites!.delete(key));
    sites.set(key, found);
  }
  return found;
}

/** Forgets what this process read of the site: its installation was just made or removed here. */
export function forgetSiteInstallation(ctx: Ctx, org: string, site: string): void {
  read.get(ctx.client)?.delete(`${org}/${site}`);
}

/** The installation as a reader finds it: its ID, repository and branch. */
export function describeInstallation(g: ApiGitSyncInstallation): string {
  const repo = g.repositoryConnection?.repositoryName ?? (g.providerConfiguration?.repositoryId ?? g.providerConfiguration?.projectId)?.toString();
  const branch = g.providerConfiguration?.branch?.replace(/^refs\/heads\//, "");
  return `Git Sync installation ${g.id}${repo ? ` (${g.provider} repository ${repo}${branch ? `, branch ${branch}` : ""})` : ` (${g.provider}, no repository chosen yet)`}`;
}

/** Why a structure resource of `kind` may not write to the site `g` syncs: the owner, and the two ways out. */
export function syncedStructureProblem(kind: string, site: string, g: ApiGitSyncInstallation): string {
  const file = siteConfigPath(g.projectDirectory);
  return (
    `site ${site}'s structure is owned by ${describeInstallation(g)}: GitBook syncs its sections, site spaces, section groups, external links and their order from ${file}, so a ${kind} would undo each sync and be undone by the next. ` +
    `Either manage this part of the structure in ${file} and take the ${kind} out of the program (to leave what it made in place, set retainOnDelete: true on it and run up first), ` +
    `or remove the Git Sync installation (its GitSyncInstallation resource, or in the GitBook app) to manage the structure here. Nothing was sent.`
  );
}

/** The check of a structure resource's site: a reason to refuse it, or undefined when no installation owns the site. */
export async function structureRefusal(ctx: Ctx, kind: string, org: string, site: string): Promise<string | undefined> {
  const g = await siteInstallation(ctx, org, site);
  return g && syncedStructureProblem(kind, site, g);
}
