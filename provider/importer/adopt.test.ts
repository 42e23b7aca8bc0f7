/**
 * The imported program's first `up`, in process: an organization seeded in the emulator (the one of
 * test/import/organization.ts, then given what a user's clicks can give it), imported with
 * `runImport`, the program it writes run against recording stand-ins of the package (each
 * `new gitbook.Kind(name, args)` a declaration, each `x.id` a reference), and those declarations
 * adopted by the real provider (test/support/program.ts). The import sends nothing, the up sends
 * nothing, and the preview after it is all `same`.
 *
 * The CLI round trip (test/import/roundTrip.test.ts) proves the same for the realistic organization
 * through the engine; this one tries the values that organization does not hold, at a second each.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { startProviderEnv, type ProviderEnv } from "../../test/support/provider";
import { inProcessProgram } from "../../test/support/program";
import type { Decl } from "../../test/support/lifecycle";
import { seedOrganization } from "../../test/import/organization";
import { GitbookClient, p } from "../client";
import { runImport } from "./command";

/**
 * The program's declarations, from running its JavaScript with `pulumi-gitbook` and `@pulumi/pulumi`
 * standing in: names are kind-qualified (Pulumi's URNs hold the type, so two kinds may share a name).
 */
function declarations(program: string): Decl[] {
  const js = ts.transpileModule(program, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const decls: Decl[] = [];
  const gitbook = new Proxy(
    {},
    {
      get: (_, kind: string) =>
        class {
          readonly id: unknown;
          constructor(name: string, args: Record<string, unknown>) {
            decls.push({ kind, name: `${kind}:${name}`, args });
            this.id = { $ref: `${kind}:${name}.id` };
          }
        },
    },
  );
  const pulumi = { runtime: { registerResourceTransform: () => undefined } };
  const modules: Record<string, unknown> = { "pulumi-gitbook": gitbook, "@pulumi/pulumi": pulumi };
  new Function("require", "exports", "module", js)((m: string) => modules[m], {}, { exports: {} });
  return decls;
}

/**
 * Seeds the organization, lets `edit` change it as the app would, imports it and adopts the program.
 * Returns the program and the import's notes.
 */
async function importAndAdopt(
  edit: (env: ProviderEnv, client: GitbookClient, org: string) => Promise<void>,
  args: string[] = [],
  // A DocsSite has no in-process stand-in (its children are the resources adopted): its program is read only.
  adopt = true,
): Promise<{ program: string; stderr: string }> {
  const env = await startProviderEnv();
  const cwd = process.cwd();
  try {
    await seedOrganization(env.emu);
    const client = new GitbookClient({ token: env.emu.token, apiUrl: env.emu.url });
    await edit(env, client, env.emu.seeded.organizationId).finally(() => client.close());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-import-adopt-"));
    let stderr = "";
    env.emu.log.reset();
    const code = await runImport(["--org", env.emu.seeded.organizationId, "--out", "program", ...args], {
      env: { GITBOOK_TOKEN: env.emu.token, GITBOOK_API_URL: env.emu.url },
      cwd: dir,
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
      download: () => Promise.reject(new Error("no download in this test")),
    });
    expect(code, stderr).toBe(0);
    expect(env.emu.log.writes()).toBe(0);
    const program = fs.readFileSync(path.join(dir, "program", "index.ts"), "utf8");
    if (!adopt) return { program, stderr };
    const decls = declarations(program);
    // An OpenAPI document is read from where the program is, as `pulumi up` runs it.
    process.chdir(path.join(dir, "program"));
    const run = inProcessProgram(env);
    env.emu.log.reset();
    await run.up(decls);
    expect(env.emu.log.entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.route}`), program).toEqual([]);
    expect((await run.preview(decls)).filter((s) => s.op !== "same"), program).toEqual([]);
    return { program, stderr };
  } finally {
    process.chdir(cwd);
    await env.close();
  }
}

describe("the imported program's first up", () => {
  it("adopts a space and a collection without a title, a share link without a name and an OpenAPI spec whose slug has capitals, as GitBook's spec allows them, writing nothing", async () => {
    const { program, stderr } = await importAndAdopt(async (env, client, org) => {
      const [, , guides, , , handbook] = env.emu.seeded.spaceIds;
      await client.patch(p`/spaces/${handbook!}`, { body: { title: "" } });
      const guidesCollection = env.emu.store.spaces.get(guides!)!.parentId!;
      await client.patch(p`/collections/${guidesCollection}`, { body: { title: "" } });
      const partners = [...env.emu.store.sites.values()].find((s) => s.title === "Acme Partner Portal")!.id;
      const link = [...env.emu.store.shareLinks.values()].find((l) => l.siteId === partners)!;
      await client.patch(p`/orgs/${org}/sites/${partners}/share-links/${link.id}`, { body: { name: "" } });
      // OpenAPISpecSlug: ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$. Each GET of a pending spec moves processing on.
      await client.post(p`/orgs/${org}/openapi`, { body: { slug: "Payments-API", source: { url: "https://api.acme.test/payments.yaml" } } });
      for (let s = { processingState: "pending" }; s.processingState === "pending"; ) s = (await client.get(p`/orgs/${org}/openapi/Payments-API`)) as { processingState: string };
    });
    expect(stderr).not.toContain("FIXME");
    expect(program).not.toContain("FIXME");
    expect(program.match(/title: "",|name: "",/g)).toHaveLength(3);
    expect(program).toContain('slug: "Payments-API",');
  });

  it("adopts what the app can hold that the realistic organization does not, writing nothing: text of every kind, names that collide, nested groups, a space shown twice, a hidden site space", async () => {
    // Quotes, a backslash, a backtick, `${`, `*/`, `//`, line terminators, a bidirectional override, NUL.
    const odd = "q\"u'o`te\\${x}*/ //\u2028\u2029\r\n\u202e\u0000 end";
    const { program } = await importAndAdopt(async (env, client, org) => {
      const spaces = env.emu.seeded.spaceIds;
      const dev = [...env.emu.store.sites.values()].find((s) => s.title === "Acme Developer Docs")!.id;
      const devPath = p`/orgs/${org}/sites/${dev}`;
      await client.patch(devPath, { body: { title: `Docs ${odd}` } });
      const [first, second] = env.emu.store.sectionsOf(dev);
      await client.patch(`${devPath}/sections/${first!.id}`, { body: { title: `S ${odd}`, description: odd, condition: 'visitor.claims.staff == true && "a\\"b\n" != "*/"' } });
      await client.patch(`${devPath}/sections/${second!.id}`, { body: { title: "🎉".repeat(100) } });
      await client.patch(p`/spaces/${spaces[0]!}`, { body: { title: `a\ud800${odd}`.slice(0, 30) } });
      const branding = (await client.get(`${devPath}/customization`)) as Record<string, any>;
      const { updatedAt: _updatedAt, ...settings } = branding;
      await client.put(`${devPath}/customization`, { body: { ...settings, title: `T ${odd}`, footer: { ...settings.footer, copyright: odd } } });
      await client.post(p`/orgs/${org}/saml`, { body: { label: "CRLF", entityID: odd, certificate: "-----BEGIN CERTIFICATE-----\r\nMIID\r\n-----END CERTIFICATE-----\r\n" } });
      // Sites, sections, groups, links, share links and teams whose titles slug alike, or to nothing, or to reserved words.
      for (const title of ["Guides", "guides", "Guides!", "class", "123", "🎉🎉", "__proto__"]) {
        const site = (await client.post(p`/orgs/${org}/sites`, { body: { title } })) as { id: string };
        const base = p`/orgs/${org}/sites/${site.id}`;
        const section = async (spaceId: string, t: string) => ((await client.post(`${base}/sections`, { body: { spaceId, title: t } })) as { id: string }).id;
        // The same space in two sections, and as a third section's further site space.
        const a = await section(spaces[0]!, "Guides");
        const b = await section(spaces[0]!, "guides");
        const c = await section(spaces[1]!, "🎉🎉");
        const further = (await client.post(`${base}/site-spaces`, { body: { spaceId: spaces[0]!, sectionId: c } })) as { id: string };
        // Hidden from the site's navigation and made a draft in the app: the import declares both, and adopting it writes nothing.
        await client.patch(`${base}/site-spaces/${further.id}`, { body: { hidden: true, draft: true } });
        const outer = (await client.post(`${base}/section-groups`, { body: { title: "Guides", sections: [a] } })) as { id: string };
        const inner = (await client.post(`${base}/section-groups`, { body: { title: "class", sections: [b], parent: outer.id } })) as { id: string };
        await client.post(`${base}/external-links`, { body: { title: "Guides", url: "https://x.test/a'b*/$x", parent: inner.id } });
        for (const name of ["A", "a", "A!"]) await client.post(`${base}/share-links`, { body: { name } });
      }
      for (const title of ["Docs writers", "docs writers", "constructor"]) await client.put(p`/orgs/${org}/teams`, { body: { title } });
    });
    expect(program).toContain('new gitbook.Site("guides-3", {');
    expect(program).toContain('new gitbook.SiteSectionGroup("guides-3/guides-3", {');
    expect(program.match(/^ +hidden: true,$/gm)).toHaveLength(7);
    expect(program.match(/^ +draft: true,$/gm)).toHaveLength(7);
  });

  it.each([["resources"], ["docs-site"]])("imports a Git-Synced site (--style %s) as its installation and what the file does not cover, never its sections, and adopts it writing nothing", async (style) => {
    let synced = "";
    const { program, stderr } = await importAndAdopt(async (env, client, org) => {
      const site = [...env.emu.store.sites.values()].find((s) => s.title === "Acme Developer Docs")!;
      synced = site.title;
      // Set up in the app: the account authorised for GitHub, the site connected (GitBook exported its structure).
      env.emu.store.orgs.get(org)!.gitProviders = ["github"];
      env.emu.store.gitRepositories.set("777", { ...env.emu.store.newId("repo"), id: "777", provider: "github", name: "acme/developer-docs", files: {} });
      const made = (await client.post("/git/installations", { body: { provider: "github", target: { type: "site", siteId: site.id } } })) as { id: string };
      await client.patch(p`/git/installations/${made.id}`, { body: { provider: "github", providerConfiguration: { repositoryId: 777, branch: "refs/heads/main" }, projectDirectory: "docs", priority: "gitbook" } });
    }, ["--style", style!], style === "resources");
    expect(stderr).toContain(`Site ${JSON.stringify(synced)}: its structure is synced from its Git repository`);
    // The installation, adopted as GitBook has it: its own resource, or the DocsSite's gitSync.
    const settings = /provider: "github",\s+repositoryId: 777,\s+branch: "refs\/heads\/main",\s+projectDirectory: "docs",\s+priority: "gitbook",\s+adoptId: "gitinst_\w+",/;
    const declared = style === "resources" ? /new gitbook\.GitSyncInstallation\("acme-developer-docs\/git-sync", \{\s+siteId: acmeDeveloperDocs\.id,\s+/ : /gitSync: \{\s+/;
    expect(program).toMatch(new RegExp(declared.source + settings.source));
    // No structure of that site: no section, site space, group, link or order under its name.
    expect(program).not.toMatch(/new gitbook\.(SiteSection|SiteSpace|SiteSectionGroup|SiteExternalLink|SiteStructureOrder)\("acme-developer-docs\//);
    if (style === "docs-site") expect(program).toMatch(/new gitbook\.DocsSite\("acme-developer-docs", \{[\s\S]*?sections: \[\],[\s\S]*?gitSync: \{/);
  });
});
