// Git Sync installations: made on a site or a space, configured (only once the provider's app is
// authorised, the app's step), the site's structure imported from or exported to gitbook-docs.yaml,
// listed for a site, read through a space's Git info, removed.
import { describe, expect, it } from "vitest";

import { call, emu, expectError, org, useEmulator } from "../test/support/emulatorApi";
import { expectContractViolation } from "../test/support/contract.setup";

const CONFIG = {
  site: {
    title: "Docs",
    structure: [
      { type: "section", key: "s-guides", title: "Guides", path: "guides", default: true, children: [{ type: "space", key: "sp-g", title: "Getting started", path: "start", default: true, content: { directory: "./start" } }] },
      { type: "section-group", key: "g-ref", title: "Reference", children: [{ type: "section", key: "s-api", title: "API", path: "api", children: [{ type: "space", key: "sp-api", title: "API v2", path: "v2", default: true, content: { directory: "./api" } }] }] },
      { type: "external-link", key: "l-status", title: "Status", url: "https://status.acme.test" },
    ],
  },
};

useEmulator({
  seedFile: {
    organization: { title: "Acme", gitProviders: ["github"] },
    spaces: [{ key: "start", title: "Getting started" }, { key: "other", title: "Other" }],
    gitRepositories: [
      { id: 101, provider: "github", name: "acme/docs", files: { "refs/heads/main:docs/gitbook-docs.yaml": CONFIG } },
      { id: 202, provider: "gitlab", name: "acme/handbook" },
    ],
    sites: [
      { key: "docs", title: "Docs", sections: [{ key: "old", title: "Old", space: "other" }] },
      { key: "synced", title: "Synced", gitSync: { key: "synced-sync", provider: "github", repository: 101, branch: "refs/heads/main", projectDirectory: "docs" } },
    ],
  },
});

const INST = "/v1/git/installations";

describe("Git Sync installations", () => {
  it("makes one per target, configures it, imports the site's structure from its file, and lists and removes it", async () => {
    const site = emu.seeded.ids.docs!;
    const made = await call("POST", INST, { provider: "github", target: { type: "site", siteId: site } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: "git-sync-installation", provider: "github", providerConfiguration: {}, target: { type: "site", siteId: site }, status: "pending" });
    expectError(await call("POST", INST, { provider: "github", target: { type: "site", siteId: site } }), 409);
    const path = `${INST}/${made.body.id}`;

    // The branch lacks the file: refused, nothing saved.
    const missing = await call("PATCH", path, { provider: "github", providerConfiguration: { repositoryId: 101, branch: "refs/heads/staging" }, projectDirectory: "docs", priority: "git" });
    expect(missing.status).toBe(409);
    expect(missing.body.error).toMatchObject({ type: "missing_site_git_sync_config", details: { path: "docs/gitbook-docs.yaml", branch: "refs/heads/staging" } });
    expect((await call("GET", path)).body).toMatchObject({ status: "pending", providerConfiguration: {} });
    expectError(await call("PATCH", path, { provider: "github", providerConfiguration: { repositoryId: 999, branch: "refs/heads/main" } }), 404);

    const done = await call("PATCH", path, { provider: "github", providerConfiguration: { repositoryId: 101, branch: "refs/heads/main" }, projectDirectory: "docs", priority: "git", commitMessageTemplate: "docs: {{message}}", previewExternalBranches: true });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "active", providerConfiguration: { repositoryId: 101, branch: "refs/heads/main" }, repositoryConnection: { repositoryName: "acme/docs", repositoryUrl: "https://github.com/acme/docs", authState: "active" } });
    // The sync rewrote the structure from the file: the seeded section is gone.
    const structure = (await call("GET", `${org()}/sites/${site}/structure`)).body;
    expect(structure.structure.map((n: { object?: string; type?: string; title: string }) => n.title)).toEqual(["Guides", "Reference", "Status"]);
    const sections = (await call("GET", `${org()}/sites/${site}/sections`)).body.items;
    expect(sections.map((s: { title: string; default: boolean }) => [s.title, s.default])).toEqual([["Guides", true], ["API", false]]);

    const listed = (await call("GET", `${org()}/sites/${site}/spaces/git/installations`)).body;
    expect(listed.items.map((g: { id: string }) => g.id)).toEqual([made.body.id]);
    const info = await call("GET", `/v1/spaces/${sections[0].siteSpaces[0].space.id}/git/info`);
    expect(info.body).toMatchObject({ installationId: made.body.id, installationProvider: "github", installationStatus: "active", repoName: "acme/docs" });

    expect((await call("DELETE", path)).status).toBe(205);
    expectError(await call("DELETE", path), 404);
    expectError(await call("GET", path), 404);
    // The structure stays.
    expect((await call("GET", `${org()}/sites/${site}/sections`)).body.items).toHaveLength(2);
  });

  it("refuses to configure an installation whose provider is not authorised until the app's step, and exports with priority gitbook", async () => {
    const site = emu.seeded.ids.docs!;
    const made = await call("POST", INST, { provider: "gitlab", target: { type: "site", siteId: site } });
    expect(made.body.status).toBe("unauthenticated");
    const path = `${INST}/${made.body.id}`;
    const body = { provider: "gitlab", providerConfiguration: { projectId: 202, branch: "refs/heads/main" }, priority: "gitbook" };
    const refused = await call("PATCH", path, body);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/not authenticated with gitlab: authorise GitBook's gitlab app/);
    emu.edit("gitInstallation", made.body.id, { authorized: true });
    const done = await call("PATCH", path, body);
    expect(done.body).toMatchObject({ status: "active", providerConfiguration: { projectId: 202 } });
    expect(emu.store.gitRepositories.get("202")!.files["refs/heads/main:gitbook-docs.yaml"]).toMatchObject({ site: { title: "Docs", structure: [{ type: "section", title: "Old", default: true }] } });
  });

  it("refuses a target that names neither a site nor a space, as the spec does", async () => {
    expectContractViolation(/POST \/v1\/git\/installations.*breaks/);
    for (const target of [{ type: "site" }, { type: "space", siteId: emu.seeded.ids.docs }, { type: "org" }]) {
      const r = await call("POST", INST, { provider: "github", target });
      expectError(r, 400);
      expect(r.body.error.message).toMatch(/^target: must be \{type: site, siteId\} or \{type: space, spaceId\}/);
    }
    expect(emu.store.gitInstallations.size).toBe(1);
  });

  it("seeds a site's installation, a space's own, and goes with its site", async () => {
    const synced = emu.seeded.ids.synced!;
    const seeded = emu.seeded.ids["synced-sync"]!;
    expect((await call("GET", `${INST}/${seeded}`)).body).toMatchObject({ status: "active", target: { type: "site", siteId: synced }, projectDirectory: "docs", priority: "git" });
    const space = emu.seeded.spaceIds[1]!;
    expectError(await call("GET", `/v1/spaces/${space}/git/info`), 404);
    const own = await call("POST", INST, { provider: "github", target: { type: "space", spaceId: space } });
    expect((await call("GET", `/v1/spaces/${space}/git/info`)).body).toMatchObject({ installationId: own.body.id, installationStatus: "pending" });
    emu.delete("site", synced);
    expect(emu.store.gitInstallations.has(seeded)).toBe(false);
  });
});
