/**
 * GitSyncInstallation: the connection of a site (or a space) to a GitHub repository or a GitLab
 * project through GitBook's Git Sync, as far as GitBook's API lets a client have it.
 *
 * The API makes it in two steps: `POST /git/installations` makes the installation on its target, then
 * `PATCH /git/installations/{id}` sets the repository, branch and the rest, and queues a sync. Between
 * the two lies a step only the GitBook app can do: authorising GitBook's GitHub or GitLab app for the
 * account (an installation made before that is `unauthenticated`, and GitBook refuses to configure it).
 * So, as SiteCustomHostname does for what it cannot do:
 * - the create makes the installation (createOnce: a lost answer is looked for, never sent twice) and
 *   configures it; when GitBook says it is not authorised, the create fails with the exact step to take,
 *   the installation kept in state without a repository (nothing half-configured), and the next `up`
 *   configures it;
 * - a site installation with priority `git` needs `gitbook-docs.yaml` at the project directory of the
 *   branch: GitBook refuses without saving (409), and so does this resource, naming the file;
 * - refresh shows every setting as GitBook has it (an edit in the app is drift).
 * A site installation owns its site's structure: the structure kinds refuse that site (framework/gitSync.ts).
 */
import { z } from "zod";
import { ApiGitSyncInstallation, ApiGitSyncInstallations, AuthError, ConflictError, NotFoundError } from "../client";
import { createOnce } from "../framework/createOnce";
import { defineResource, resourceClass, type Inputs, type Lookalikes, type Outputs } from "../framework/define";
import { defined, settingsOf, type ImportRecord } from "../framework/discover";
import { field, id, organizationIdField, text } from "../framework/fields";
import { forgetSiteInstallation, gitSyncPaths, siteConfigPath } from "../framework/gitSync";
import { getOrUndefined } from "../framework/lists";
import { declaresSiteSync } from "../framework/program";
import { finishCreate, refreshed } from "../framework/recipes";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";

// ---- Schema --------------------------------------------------------------------------------------

const PROVIDERS = ["github", "gitlab"] as const;
const PRIORITIES = ["git", "gitbook"] as const;
/** Git's own limit on a ref name is the file system's; GitHub and GitLab take 255 bytes. */
export const BRANCH_MAX = 255;

const inputs = z
  .object({
    organizationId: organizationIdField,
    siteId: id()
      .optional()
      .describe(
        "ID of the site to sync (the Site's `id` output): its structure (sections, site spaces, groups, links, order) then comes from `gitbook-docs.yaml` in the repository, and the structure kinds refuse this site. Exactly one of `siteId` and `spaceId`. Changing it replaces the resource.",
      )
      .register(field, { change: "replace", import: { ref: "Site" } }),
    spaceId: id()
      .optional()
      .describe("ID of the space to sync on its own (its content only). Exactly one of `siteId` and `spaceId`. Changing it replaces the resource.")
      .register(field, { change: "replace", import: { ref: "Space" } }),
    provider: z
      .enum(PROVIDERS, { error: `must be one of ${PROVIDERS.join(", ")}` })
      .describe("The Git host: `github` or `gitlab`. Changing it replaces the resource (GitBook cannot move an installation to another host).")
      .register(field, { change: "replace" }),
    repositoryId: z
      .number({ error: "must be a number" })
      .int("must be an integer")
      .positive("must be a positive integer")
      .describe(
        "The repository's numeric ID on GitHub (`gh api repos/OWNER/NAME --jq .id`), or the project's ID on GitLab (its project page shows it). GitBook's GitHub or GitLab app must have access to it; otherwise the `up` fails naming it. The `repositoryName` output shows the name GitBook resolved.",
      ),
    branch: text({ max: BRANCH_MAX, pattern: /^refs\/heads\/.+$/, patternHint: "refs/heads/<branch>, e.g. refs/heads/main" }).describe(
      `The branch to sync, as a full ref: \`refs/heads/main\` (at most ${BRANCH_MAX} characters, GitBook's pattern \`^refs/heads/.+$\`).`,
    ),
    projectDirectory: text({ max: 1024 })
      .refine((d) => !d.split("/").includes(".."), "must not contain '..' segments")
      .optional()
      .describe(
        "The repository directory to sync (a monorepo's `docs`), at most 1024 characters; absent: the repository's root. A site installation reads `gitbook-docs.yaml` there. Removing it leaves GitBook's value in place.",
      ),
    commitMessageTemplate: text({ min: 1, max: 512 })
      .optional()
      .describe("The template of the commit messages GitBook writes when it exports to the repository, 1 to 512 characters. Removing it leaves GitBook's value in place."),
    priority: z
      .enum(PRIORITIES, { error: `must be one of ${PRIORITIES.join(", ")}` })
      .optional()
      .describe(
        "Which side wins when the installation is (re)configured: `git` (the repository's content and, for a site, its `gitbook-docs.yaml` are imported into GitBook; GitBook refuses a site installation whose branch lacks that file, and so does the `up`, naming it) or `gitbook` (GitBook exports to the repository, writing the file). Each change of a setting queues such a sync. Removing it leaves GitBook's value in place.",
      ),
    previewExternalBranches: z
      .boolean({ error: "must be a boolean" })
      .optional()
      .describe("Whether GitBook builds previews of branches other than `branch` (pull and merge requests). Removing it leaves GitBook's value in place."),
  })
  .superRefine((v, ctx) => {
    if ((v.siteId === undefined) === (v.spaceId === undefined)) {
      ctx.addIssue({ code: "custom", path: ["siteId"], message: "set exactly one of siteId (a site's structure and content) and spaceId (one space's content)" });
    }
  });

const outputs = z.object({
  status: z
    .string()
    .describe("GitBook's status of the installation: `unauthenticated` until GitBook's GitHub or GitLab app is authorised for the account in the GitBook app, `pending` until it is configured, then `active`."),
  repositoryName: z.string().optional().describe("The repository's full name as GitBook reports it (`owner/name`); absent until GitBook reports one."),
  repositoryUrl: z.string().optional().describe("The repository's URL as GitBook reports it; absent until GitBook reports one."),
  createdAt: z.string().describe("When the installation was made."),
});

export type GitSyncInstallationInputs = Inputs<typeof inputs>;
export type GitSyncInstallationOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- CRUD ----------------------------------------------------------------------------------------

const targetOf = (given: GitSyncInstallationInputs) => (given.siteId !== undefined ? { type: "site" as const, siteId: given.siteId } : { type: "space" as const, spaceId: given.spaceId! });
const targetName = (given: Props) => (given.siteId !== undefined ? `site ${String(given.siteId)}` : `space ${String(given.spaceId)}`);

/** GitBook's GitSyncInstallationSetup of the declared settings: what one PATCH sends, whole (the spec requires the provider's configuration in each). */
function setupBody(given: GitSyncInstallationInputs): Props {
  return {
    provider: given.provider,
    providerConfiguration: { [given.provider === "github" ? "repositoryId" : "projectId"]: given.repositoryId, branch: given.branch },
    ...defined({ projectDirectory: given.projectDirectory, commitMessageTemplate: given.commitMessageTemplate, priority: given.priority, previewExternalBranches: given.previewExternalBranches }),
  };
}

const AUTHORISE = (provider: string) =>
  `GitBook's API cannot authorise its ${provider === "github" ? "GitHub" : "GitLab"} app for your account: in the GitBook app, open the Git Sync settings of the target, connect ${provider === "github" ? "GitHub" : "GitLab"} and grant access to the repository, then run \`up\` again, which configures the installation.`;

/**
 * Sends the declared settings; GitBook's refusals become the step to take. Nothing is saved by a
 * refused PATCH (GitBook's contract), so the installation stays as it was.
 */
async function configure(ctx: Ctx, instId: string, given: GitSyncInstallationInputs): Promise<ApiGitSyncInstallation> {
  try {
    const g = await ctx.client.patch(gitSyncPaths.installation(instId), { body: setupBody(given), schema: ApiGitSyncInstallation });
    if (given.siteId !== undefined) forgetSiteInstallation(ctx, given.organizationId, given.siteId);
    return g;
  } catch (e) {
    if (e instanceof ConflictError && given.siteId !== undefined && (given.priority ?? "git") === "git") {
      const file = siteConfigPath(given.projectDirectory);
      throw new Error(
        `GitSyncInstallation: branch: GitBook refused to sync site ${given.siteId} from ${file} on ${given.branch}: the file is missing (it answered ${e.status}: ${e.apiMessage}). Commit ${file} (GitBook's gitbook-docs.yaml, describing the site's structure) to that branch, or set priority: "gitbook" to have GitBook write it from the site, then run \`up\` again. Nothing was changed.`,
        { cause: e },
      );
    }
    if (e instanceof AuthError || e instanceof NotFoundError) {
      const now = await getOrUndefined(ctx.client.get(gitSyncPaths.installation(instId), { schema: ApiGitSyncInstallation }));
      if (now?.status === "unauthenticated") throw new Error(`GitSyncInstallation: Git Sync installation ${instId} of ${targetName(given)} is not authorised with ${given.provider}. ${AUTHORISE(given.provider)}`, { cause: e });
      if (now && e instanceof NotFoundError) {
        throw new Error(
          `GitSyncInstallation: repositoryId: GitBook's ${given.provider} app cannot see ${given.provider === "github" ? "repository" : "project"} ${given.repositoryId} (it answered ${e.status}: ${e.apiMessage}). Check the ID, and grant GitBook's app access to it on ${given.provider}. Nothing was changed.`,
          { cause: e },
        );
      }
    }
    throw e;
  }
}

function lookalikes(ctx: Ctx, given: GitSyncInstallationInputs): Lookalikes<ApiGitSyncInstallation> {
  const target = targetOf(given);
  return {
    kind: "GitSyncInstallation",
    key: `${given.organizationId}/${target.type}/${given.siteId ?? given.spaceId}`,
    what: `Git Sync installation of ${targetName(given)}`,
    // A target has one installation: the one there now, if any (a site's from its listing, a space's through its Git info).
    candidates: async () => {
      if (target.type === "site") return (await ctx.client.get(gitSyncPaths.ofSite(given.organizationId, target.siteId), { schema: ApiGitSyncInstallations })).items.filter((g) => g.target.type === "site");
      const info = await getOrUndefined(ctx.client.get(`/spaces/${encodeURIComponent(target.spaceId)}/git/info`, { schema: z.looseObject({ installationId: z.string() }) }));
      const g = info && (await getOrUndefined(ctx.client.get(gitSyncPaths.installation(info.installationId), { schema: ApiGitSyncInstallation })));
      return g && g.target.type === "space" ? [g] : [];
    },
    before: "list",
    createdAt: (g) => g.createdAt,
  };
}

async function create(ctx: Ctx, given: GitSyncInstallationInputs): Promise<{ id: string; outs: GitSyncInstallationOutputs }> {
  const like = lookalikes(ctx, given);
  let made: ApiGitSyncInstallation;
  try {
    made = await createOnce(ctx, { ...like, send: () => ctx.client.post(gitSyncPaths.installations(), { body: { provider: given.provider, target: targetOf(given) }, schema: ApiGitSyncInstallation }) });
  } catch (e) {
    // A target has one installation: the one there was made in the app, or by another stack.
    if (!(e instanceof ConflictError)) throw e;
    const there = (await like.candidates())[0];
    throw new Error(
      `GitSyncInstallation: ${given.siteId !== undefined ? "siteId" : "spaceId"}: ${targetName(given)} already has Git Sync installation ${there?.id ?? "(unreadable)"}, and a target has one (GitBook answered ${e.status}). ` +
        `To manage that one, set adoptId: "${there?.id ?? "<its ID>"}"; or remove it in the GitBook app. Nothing was written.`,
      { cause: e },
    );
  }
  if (given.siteId !== undefined) forgetSiteInstallation(ctx, given.organizationId, given.siteId);
  // The settings go in the PATCH: refused (not authorised, no gitbook-docs.yaml), the installation is
  // kept in state as GitBook has it, without them, and the next `up` sends them again.
  return finishCreate(definition, given, made, async (_obj, advance) => advance(await configure(ctx, made.id, given)));
}

async function read(ctx: Ctx, instId: string, props: GitSyncInstallationOutputs): Promise<GitSyncInstallationOutputs | undefined> {
  const g = await getOrUndefined(ctx.client.get(gitSyncPaths.installation(instId), { schema: ApiGitSyncInstallation }));
  return g && refreshed(definition, props, g);
}

async function update(ctx: Ctx, instId: string, _olds: GitSyncInstallationOutputs, news: GitSyncInstallationInputs, changed: readonly string[]): Promise<GitSyncInstallationOutputs> {
  // Each PATCH queues a sync: an adoption of an installation already as declared sends none.
  const g = changed.length > 0 ? await configure(ctx, instId, news) : await ctx.client.get(gitSyncPaths.installation(instId), { schema: ApiGitSyncInstallation });
  return definition.outputsOf(declared(news), g);
}

async function remove(ctx: Ctx, instId: string, props: GitSyncInstallationOutputs): Promise<void> {
  // The site keeps its structure and the repository its files: only the connection goes.
  await ctx.client.delete(gitSyncPaths.installation(instId));
  if (props.siteId !== undefined) forgetSiteInstallation(ctx, props.organizationId, props.siteId);
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "GitSyncInstallation",
  // A target has one installation: a replacement on the same target (another provider) removes the old one first, or GitBook refuses the new one (409).
  deleteBeforeReplace: ["organizationId", "siteId", "spaceId"],
  adoptable:
    "ID of the Git Sync installation the target has already (made in the GitBook app) to bring under management (dynamic providers cannot use `pulumi import`). Used only when the resource is not yet in state: the installation is read, and the settings the program declares that differ are sent (one PATCH, which queues a sync). A target has one installation: without it, creating the resource on a target that has one fails (GitBook answers 409).",
  noun: "Git Sync installation",
  summary:
    "The connection of a site (or one space) to a GitHub repository or GitLab project through GitBook's Git Sync: repository, branch, project directory, commit message template, priority (which side wins a sync) and branch previews; refresh shows edits made in the GitBook app. GitBook's API cannot authorise its GitHub or GitLab app for an account: until that is done in the app, creating the resource makes the installation, fails with that step, keeps it in state without a repository, and the next `up` configures it. " +
    "A site installation owns the site's structure (sections, site spaces, groups, links and their order come from `gitbook-docs.yaml`): the structure kinds (SiteSection, SiteSpace, SiteSectionGroup, SiteExternalLink, SiteStructureOrder, DocsSite's navigation) refuse such a site at preview, and a program declaring both is refused. Everything else of the site (access, teams, share links, visitor authentication, customization, redirects, publishing) stays declared here. Deleting the resource removes the connection; the site keeps its structure and the repository its files.",
  inputs,
  outputs,
  // Both target fields: a site's installation adopted under a spaceId (or the other way) differs, and is refused as a replacement.
  live: (g: ApiGitSyncInstallation) => ({
    siteId: g.target.type === "site" ? g.target.siteId : undefined,
    spaceId: g.target.type === "space" ? g.target.spaceId : undefined,
    provider: g.provider,
    repositoryId: g.providerConfiguration?.repositoryId ?? g.providerConfiguration?.projectId,
    branch: g.providerConfiguration?.branch,
    projectDirectory: g.projectDirectory,
    commitMessageTemplate: g.commitMessageTemplate,
    priority: g.priority,
    previewExternalBranches: g.previewExternalBranches,
  }),
  computed: (g) => ({
    status: g.status,
    ...defined({ repositoryName: g.repositoryConnection?.repositoryName, repositoryUrl: g.repositoryConnection?.repositoryUrl }),
    createdAt: g.createdAt ?? "",
  }),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
  inProgram: (name, args) => declaresSiteSync(name, args.siteId),
  import: {
    variableSuffix: "-git-sync",
    // One listing per site: the site's own installation (its spaces' are GitBook's children of it, or
    // a space's own, which the importer leaves to the program).
    read: {
      under: "Site",
      into: "gitSync",
      one: true,
      async find(ctx, site): Promise<ImportRecord | undefined> {
        const g = (await ctx.get(gitSyncPaths.ofSite(ctx.organizationId, site!.id as string), ApiGitSyncInstallations)).items.find((x) => x.target.type === "site");
        return g && { id: g.id, ...settingsOf(definition, g) };
      },
    },
  },
});

/** The Git Sync connection of a GitBook site or space to a GitHub repository or GitLab project. */
export const GitSyncInstallation = resourceClass(definition);
export type GitSyncInstallation = InstanceType<typeof GitSyncInstallation>;
export type GitSyncInstallationArgs = ConstructorParameters<typeof GitSyncInstallation>[1];
