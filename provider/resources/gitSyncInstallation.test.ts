// GitSyncInstallation: made and configured in one `up` once the provider's app is authorised; before
// that, kept in state without a repository and configured by the next `up`; refresh shows every
// setting edited in the app. And the structure kinds refusing a site Git Sync owns, before any write.
import { afterEach, describe, expect, it, vi } from "vitest";
import { CheckFailed, isOrgQuestion, providerEnvPerFile, rejectsAtCheck, type ProviderEnv, type State } from "../../test/support/provider";
import { resources } from "./index";

let env: ProviderEnv;
const CONFIG = { site: { title: "Docs", structure: [{ type: "space", key: "sp", title: "Getting started", path: "start", default: true, content: { directory: "./start" } }] } };
providerEnvPerFile((e) => (env = e), {
  seedFile: {
    organization: { title: "Acme", gitProviders: ["github"] },
    spaces: [{ key: "start", title: "Getting started" }],
    gitRepositories: [
      { id: 101, provider: "github", name: "acme/docs", files: { "refs/heads/main:docs/gitbook-docs.yaml": CONFIG, "refs/heads/staging:docs/gitbook-docs.yaml": CONFIG } },
      { id: 102, provider: "github", name: "acme/other", files: { "refs/heads/main:gitbook-docs.yaml": CONFIG } },
      { id: 202, provider: "gitlab", name: "acme/handbook" },
    ],
  },
});

const INST = "/v1/git/installations/:installation";
const site = async (title = "Synced docs") => (await env.up("Site", { title })).state.id;
const args = (siteId: string) => ({ siteId, provider: "github", repositoryId: 101, branch: "refs/heads/main", projectDirectory: "docs", priority: "git" });

describe("check", () => {
  rejectsAtCheck(() => env, "GitSyncInstallation", args("site_1"), [
    ["branch", { branch: "main" }, /^branch must match refs\/heads\/<branch>/],
    ["branch", { branch: `refs/heads/${"b".repeat(250)}` }, /^branch must be at most 255 characters/],
    ["siteId", { spaceId: "spc_1" }, /set exactly one of siteId .* and spaceId/],
    ["siteId", { siteId: undefined }, /set exactly one of siteId/],
    ["provider", { provider: "bitbucket" }, /^provider must be one of github, gitlab/],
    ["repositoryId", { repositoryId: 1.5 }, /^repositoryId must be an integer/],
    ["projectDirectory", { projectDirectory: "../docs" }, /^projectDirectory must not contain '\.\.' segments/],
    ["priority", { priority: "repo" }, /^priority must be one of git, gitbook/],
  ]);
});

describe("lifecycle", () => {
  it("creates and configures in one up, shows every setting edited in the app on refresh, puts them back, and deletes only the connection", async () => {
    const s = await site();
    env.emu.log.reset();
    const created = await env.up("GitSyncInstallation", { ...args(s), commitMessageTemplate: "docs: {{message}}", previewExternalBranches: false });
    // The organization question, the listing createOnce takes before, the POST and the PATCH.
    expect(env.emu.log.byRoute()).toMatchObject({ "POST /v1/git/installations": 1, [`PATCH ${INST}`]: 1 });
    expect(env.emu.log.writes()).toBe(2);
    expect(created.state.outs).toMatchObject({ status: "active", repositoryName: "acme/docs", repositoryUrl: "https://github.com/acme/docs", branch: "refs/heads/main", projectDirectory: "docs" });
    const id = created.state.id;
    // The sync imported the file: the site's structure is the file's.
    expect([...env.emu.store.siteSpaces.values()].filter((x) => x.siteId === s).map((x) => x.path)).toEqual(["start"]);

    env.emu.log.reset();
    expect((await env.up("GitSyncInstallation", { ...args(s), commitMessageTemplate: "docs: {{message}}", previewExternalBranches: false }, created.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);

    // Every setting edited in the app is drift.
    env.emu.edit("gitInstallation", id, { repositoryId: 102, branch: "refs/heads/staging", projectDirectory: "", commitMessageTemplate: "sync", previewExternalBranches: true, priority: "gitbook" });
    const refreshed = (await env.refresh("GitSyncInstallation", created.state))!;
    expect(refreshed.inputs).toMatchObject({ repositoryId: 102, branch: "refs/heads/staging", projectDirectory: "", commitMessageTemplate: "sync", previewExternalBranches: true, priority: "gitbook" });
    expect(refreshed.state.outs).toMatchObject({ repositoryName: "acme/other" });
    const back = await env.up("GitSyncInstallation", { ...args(s), commitMessageTemplate: "docs: {{message}}", previewExternalBranches: false }, refreshed.state);
    expect(back.step).toBe("update");
    expect(env.emu.store.gitInstallations.get(id)).toMatchObject({ repositoryId: 101, branch: "refs/heads/main", projectDirectory: "docs", commitMessageTemplate: "docs: {{message}}", previewExternalBranches: false, priority: "git" });

    await env.destroy("GitSyncInstallation", back.state);
    expect(env.emu.store.gitInstallations.has(id)).toBe(false);
    expect([...env.emu.store.siteSpaces.values()].filter((x) => x.siteId === s)).toHaveLength(1);
    expect(await env.refresh("GitSyncInstallation", back.state)).toBeUndefined();
  });

  it("sends only the settings the program declares: one set in the app and not declared stays", async () => {
    const s = await site();
    const created = await env.up("GitSyncInstallation", args(s));
    env.emu.edit("gitInstallation", created.state.id, { commitMessageTemplate: "set in the app", previewExternalBranches: true });
    const moved = await env.up("GitSyncInstallation", { ...args(s), branch: "refs/heads/staging" }, created.state);
    expect(moved.step).toBe("update");
    expect(env.emu.store.gitInstallations.get(created.state.id)).toMatchObject({ branch: "refs/heads/staging", commitMessageTemplate: "set in the app", previewExternalBranches: true });
  });

  it("before the provider's app is authorised: keeps the installation without a repository, says the step, and the next up configures it", async () => {
    const s = await site();
    const given = { siteId: s, provider: "gitlab", repositoryId: 202, branch: "refs/heads/main", priority: "gitbook" };
    const failed = await env.up("GitSyncInstallation", given).catch((e: unknown) => e as Error & { id?: string; properties?: Record<string, unknown> });
    expect((failed as Error).message).toMatch(/^GitSyncInstallation [^:]*: Git Sync installation \S+ of site \S+ is not authorised with gitlab\. GitBook's API cannot authorise its GitLab app for your account: in the GitBook app, open the Git Sync settings/);
    const state: State = { id: (failed as { id: string }).id, outs: (failed as { properties: Record<string, unknown> }).properties };
    expect(state.outs).toMatchObject({ status: "unauthenticated", provider: "gitlab", siteId: s });
    expect(state.outs).not.toHaveProperty("repositoryId");
    expect(env.emu.store.gitInstallations.get(state.id)).not.toHaveProperty("repositoryId");

    // Still not authorised: the up fails the same way and changes nothing.
    await expect(env.up("GitSyncInstallation", given, state)).rejects.toThrow(/is not authorised with gitlab/);
    env.emu.edit("gitInstallation", state.id, { authorized: true });
    const done = await env.up("GitSyncInstallation", given, state);
    expect(done.step).toBe("update");
    expect(done.state.outs).toMatchObject({ status: "active", repositoryId: 202, repositoryName: "acme/handbook" });
    // Priority gitbook: GitBook wrote the file from the site.
    expect(env.emu.store.gitRepositories.get("202")!.files["refs/heads/main:gitbook-docs.yaml"]).toBeDefined();
  });

  it("refuses a site branch without gitbook-docs.yaml, naming the file, and a repository the app cannot see", async () => {
    const s = await site();
    await expect(env.up("GitSyncInstallation", { ...args(s), branch: "refs/heads/feature" })).rejects.toThrow(
      /branch: GitBook refused to sync site \S+ from docs\/gitbook-docs\.yaml on refs\/heads\/feature: the file is missing .*Commit docs\/gitbook-docs\.yaml .* or set priority: "gitbook"/,
    );
    const s2 = await site();
    await expect(env.up("GitSyncInstallation", { ...args(s2), repositoryId: 999 })).rejects.toThrow(/repositoryId: GitBook's github app cannot see repository 999/);
  });
});

describe("a site Git Sync owns", () => {
  const structureKinds = resources.filter((r) => r.structure).map((r) => r.kind);
  afterEach(() => vi.restoreAllMocks());

  it("every structure kind is refused at check, naming the installation, repository, branch and both ways out, with one read for the site and no write", async () => {
    expect(structureKinds.sort()).toEqual(["SiteExternalLink", "SiteSection", "SiteSectionGroup", "SiteSpace", "SiteStructureOrder"]);
    const s = await site();
    const inst = (await env.up("GitSyncInstallation", args(s))).state.id;
    env.outOfBand();
    env.emu.log.reset();
    const inputs: Record<string, Record<string, unknown>> = {
      SiteSection: { siteId: s, spaceId: env.emu.seeded.spaceIds[0] },
      SiteSpace: { siteId: s, sectionId: "sitesc_1", spaceId: env.emu.seeded.spaceIds[0] },
      SiteSectionGroup: { siteId: s, title: "Reference" },
      SiteExternalLink: { siteId: s, title: "Status", url: "https://status.acme.test" },
      SiteStructureOrder: { siteId: s, items: ["sitesc_1"] },
    };
    for (const kind of structureKinds) {
      const r = await env.check(kind, inputs[kind]!);
      expect(r.failures, kind).toEqual([
        {
          property: "siteId",
          reason: expect.stringMatching(
            new RegExp(
              `^site ${s}'s structure is owned by Git Sync installation ${inst} \\(github repository acme/docs, branch main\\): GitBook syncs .* from docs/gitbook-docs\\.yaml.*Either manage this part of the structure in docs/gitbook-docs\\.yaml and take the ${kind} out of the program .*or remove the Git Sync installation .*Nothing was sent\\.$`,
            ),
          ),
        },
      ]);
    }
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.log.entries.filter((e) => !isOrgQuestion(e)).map((e) => `${e.method} ${e.route}`)).toEqual(["GET /v1/orgs/:org/sites/:site/spaces/git/installations"]);

    // A site without an installation: the same read, and nothing refused.
    const plain = await site("Plain");
    expect((await env.check("SiteSectionGroup", { siteId: plain, title: "Reference" })).failures).toBeUndefined();
  });

  it("an up of a structure resource in state is refused before its write; refresh says why it drifted", async () => {
    const s = await site();
    const group = await env.up("SiteSectionGroup", { siteId: s, title: "Reference" });
    // Synced since (in the app, or by another stack): the sync's import removed the group.
    const made = await env.up("GitSyncInstallation", args(s));
    env.outOfBand();
    const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(await env.refresh("SiteSectionGroup", group.state)).toBeUndefined();
    expect(said.mock.calls.map((c) => String(c[0])).join("")).toMatch(
      new RegExp(`SiteSectionGroup .*: changed or removed in GitBook because site ${s}'s structure is synced from docs/gitbook-docs\\.yaml by Git Sync installation ${made.state.id} \\(github repository acme/docs, branch main\\)`),
    );
    env.emu.log.reset();
    await expect(env.up("SiteSectionGroup", { siteId: s, title: "Reference v2" }, group.state)).rejects.toThrow(CheckFailed);
    expect(env.emu.log.writes()).toBe(0);
  });
});
