/**
 * `runImport` against the emulator, in process: arguments, what it reads and how it reports it,
 * where it writes, and what it never writes. Running the program it writes is
 * test/import/roundTrip.test.ts.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GitbookClient, p } from "../client";
import { ApiSite } from "../resources/site";
import { Emulator } from "../../emulator";
import { addLargeSite, seedOrganization, type SeededOrganization } from "../../test/import/organization";
import { installedSpec, ownPackage } from "../packageSource";
import { runImport, USAGE, type ImportIo } from "./command";

/**
 * The uploaded spec "internal-api" as an API without its text would answer (`content/raw` 404), its
 * processed version at `url` when given; returns what puts it back.
 */
function withoutRawText(url?: string): () => void {
  const spec = [...emu.store.openApiSpecs.values()].find((s) => s.slug === "internal-api")!;
  const version = emu.store.openApiVersions.get(spec.lastVersionId!)!;
  const before = { ...version };
  delete version.text;
  if (url) version.url = url;
  return () => Object.assign(version, before);
}

let emu: Emulator;
let seeded: SeededOrganization;
let dir: string;

beforeAll(async () => {
  emu = await Emulator.start();
  seeded = await seedOrganization(emu);
});
afterAll(async () => emu?.close());
beforeEach(() => {
  emu.log.reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-import-command-"));
});

async function run(argv: string[], io: Partial<ImportIo> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runImport(argv, {
    env: { GITBOOK_TOKEN: emu.token, GITBOOK_API_URL: emu.url },
    cwd: dir,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    download: async (url) => {
      const doc = seeded.documents[url];
      if (doc === undefined) throw Object.assign(new Error("fetch failed"), { cause: { code: "ENOTFOUND" } });
      return doc;
    },
    ...io,
  });
  return { code, stdout, stderr };
}

function filesIn(d: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(d, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out[path.relative(d, path.join(e.parentPath, e.name))] = fs.readFileSync(path.join(e.parentPath, e.name), "utf8");
  }
  return out;
}

describe("pulumi-gitbook import", () => {
  it("reads the organization with GETs only and says how many requests it took", async () => {
    const r = await run(["--org", seeded.org]);
    expect(r.code, r.stderr).toBe(0);
    expect(emu.log.writes()).toBe(0);
    // The uploaded spec's document comes from the API too: no download.
    expect(r.stderr).toContain(`in ${emu.log.count()} requests, `);
    // One listing per kind of object, at most once per site or team: nothing is read twice. A site's
    // structure holds its navigation and the spaces it shows; the spaces' collections are one listing.
    expect(emu.log.byRoute()).toEqual({
      "GET /v1/orgs/:org/sites": 1,
      "GET /v1/orgs/:org/sites/:site/structure": 2,
      "GET /v1/orgs/:org/sites/:site/share-links": 2,
      "GET /v1/orgs/:org/sites/:site/adaptive-schema": 2,
      "GET /v1/orgs/:org/sites/:site/customization": 2,
      // Live and draft rules: one listing each.
      "GET /v1/orgs/:org/sites/:site/redirects": 4,
      // Whether Git Sync owns a site's structure: one listing each.
      "GET /v1/orgs/:org/sites/:site/spaces/git/installations": 2,
      // The overrides of each section's variants: "Guides" shows 3 site spaces, "API reference" and
      // "Integration guides" 2 each; the sections showing one space cost nothing.
      "GET /v1/orgs/:org/sites/:site/site-spaces/:siteSpace/customization": 7,
      // The one site naming a custom hostname: it is read, to prove it points there.
      "GET /v1/custom-hostnames/:hostname": 1,
      "GET /v1/orgs/:org/collections": 1,
      "GET /v1/orgs/:org/teams": 1,
      "GET /v1/orgs/:org/teams/:team/members": 2,
      "GET /v1/orgs/:org/saml": 1,
      "GET /v1/orgs/:org/openapi": 1,
      "GET /v1/orgs/:org/openapi/:slug/versions/latest/content/raw": 1,
      // Access: each site's visitor authentication, and the team and user grants of every site, space and collection read.
      "GET /v1/orgs/:org/sites/:site/publishing/auth": 2,
      "GET /v1/orgs/:org/sites/:site/permissions/teams": 2,
      "GET /v1/orgs/:org/sites/:site/permissions/users": 2,
      "GET /v1/spaces/:space/permissions/teams": 6,
      "GET /v1/spaces/:space/permissions/users": 6,
      "GET /v1/collections/:collection/permissions/teams": 2,
      "GET /v1/collections/:collection/permissions/users": 2,
    });
    expect(r.stderr).toContain('site 2/2 "Acme Partner Portal": 3 sections, 4 site spaces, 0 section groups, 0 external links, 3 share links\n');
    expect(r.stderr).toContain('"Acme Developer Docs": 5 sections, 8 site spaces, 2 section groups, 2 external links, 0 share links, a visitor schema\n');
    expect(r.stderr).toContain("6 spaces shown, in 2 collections\n");
    expect(Object.keys(filesIn(path.join(dir, "gitbook"))).sort()).toEqual([
      ".gitignore",
      "Pulumi.dev.yaml",
      "Pulumi.yaml",
      "index.ts",
      "openapi/internal-api.yaml",
      "package.json",
      "tsconfig.json",
    ]);
  });

  it("names the package where this copy came from (here: the checkout), not the npm registry, where it is not published", async () => {
    const r = await run(["--org", seeded.org, "--out", "named"]);
    expect(r.code, r.stderr).toBe(0);
    const spec = (JSON.parse(filesIn(path.join(dir, "named"))["package.json"]!) as { dependencies: Record<string, string> }).dependencies["pulumi-gitbook"]!;
    // What `pulumi-gitbook new` writes: the checkout's git URL when others can install it, else its path, pointed out.
    expect(spec).toBe(installedSpec(ownPackage(), path.join(dir, "named"))!.spec);
    if (spec.startsWith("file:")) {
      expect(fs.realpathSync(path.resolve(dir, "named", spec.slice("file:".length)))).toBe(fs.realpathSync(path.resolve(__dirname, "../..")));
      expect(r.stderr).toContain(`Note: package.json names pulumi-gitbook by a path on this machine outside the program (${spec})`);
    } else expect(spec).toMatch(/^git\+\w+:\/\/.*#[0-9a-f]{40}$/);
  });

  it("writes neither the token nor any share link's URL or key", async () => {
    const r = await run(["--org", seeded.org, "--out", "out", "--style", "docs-site"]);
    expect(r.code, r.stderr).toBe(0);
    const files = filesIn(path.join(dir, "out"));
    expect(files["index.ts"]).toContain(`{ key: "old-partner", name: "Old partner", active: false, adoptId:`);
    for (const [file, text] of Object.entries(files)) {
      expect(text, file).not.toContain(emu.token);
      expect(text, file).not.toMatch(/share=|\?share/);
      for (const key of seeded.shareKeys) expect(text, file).not.toContain(key);
    }
    expect(r.stderr).not.toContain(emu.token);
  });

  it("reads only the sites asked for with --site, and nothing organization-wide", async () => {
    const r = await run(["--org", seeded.org, "--site", seeded.siteIds[1]!]);
    expect(r.code, r.stderr).toBe(0);
    // The spaces the site shows, and their collections, are the site's business.
    expect(Object.keys(emu.log.byRoute()).sort()).toEqual([
      "GET /v1/collections/:collection/permissions/teams",
      "GET /v1/collections/:collection/permissions/users",
      "GET /v1/orgs/:org/collections",
      "GET /v1/orgs/:org/sites/:site",
      "GET /v1/orgs/:org/sites/:site/adaptive-schema",
      "GET /v1/orgs/:org/sites/:site/customization",
      "GET /v1/orgs/:org/sites/:site/permissions/teams",
      "GET /v1/orgs/:org/sites/:site/permissions/users",
      "GET /v1/orgs/:org/sites/:site/publishing/auth",
      "GET /v1/orgs/:org/sites/:site/redirects",
      "GET /v1/orgs/:org/sites/:site/share-links",
      "GET /v1/orgs/:org/sites/:site/site-spaces/:siteSpace/customization",
      "GET /v1/orgs/:org/sites/:site/spaces/git/installations",
      "GET /v1/orgs/:org/sites/:site/structure",
      "GET /v1/spaces/:space/permissions/teams",
      "GET /v1/spaces/:space/permissions/users",
    ]);
    const text = fs.readFileSync(path.join(dir, "gitbook/index.ts"), "utf8");
    expect(text).toContain('new gitbook.Site("acme-partner-portal"');
    expect(text).not.toContain("Acme Developer Docs");
    expect(text).not.toMatch(/gitbook\.(Team|SamlProvider|OpenApiSpec)\(/);
    expect(text).toContain('new gitbook.Space("guides"');
    expect(text).toContain("teams, single sign-on and OpenAPI specs were left out");
  });

  it("reads a site asked for twice with --site once, so no two resources adopt one object", async () => {
    const r = await run(["--org", seeded.org, "--site", seeded.siteIds[1]!, "--site", seeded.siteIds[1]!]);
    expect(r.code, r.stderr).toBe(0);
    expect(emu.log.count({ route: "/v1/orgs/:org/sites/:site" })).toBe(1);
    const text = fs.readFileSync(path.join(dir, "gitbook/index.ts"), "utf8");
    expect(text.match(/new gitbook\.Site\(/g)).toHaveLength(1);
    expect(text).not.toContain("acme-partner-portal-2");
  });

  it("reads a site without sections from its structure, which holds its site spaces, and says they cannot be imported", async () => {
    const client = new GitbookClient({ token: emu.token, apiUrl: emu.url });
    const legacy = await client.post(p`/orgs/${seeded.org}/sites`, { body: { title: "Legacy docs", spaces: [emu.seeded.spaceIds[0]] }, schema: ApiSite });
    await client.close();
    emu.log.reset();
    try {
      const r = await run(["--org", seeded.org]);
      expect(r.code, r.stderr).toBe(0);
      expect(emu.log.count({ route: "/v1/orgs/:org/sites/:site/site-spaces" })).toBe(0);
      expect(r.stderr).toContain(`Note: Site "Legacy docs": site space`);
      expect(fs.readFileSync(path.join(dir, "gitbook/index.ts"), "utf8")).toMatch(/\/\/ Site space \S+ \(space "Getting started" at "getting-started"\) sits outside any section/);
    } finally {
      emu.store.deleteSite(legacy.id);
    }
  });

  it("pages through long lists at the largest page size, so requests grow with pages, not objects", async () => {
    const big = addLargeSite(emu, "Big docs", { sections: 1_050, shareLinks: 2_100 });
    try {
      const r = await run(["--org", seeded.org, "--site", big]);
      expect(r.code, r.stderr).toBe(0);
      // The structure is one answer however large; the share links, three pages.
      expect(emu.log.byRoute()).toEqual({
        "GET /v1/orgs/:org/sites/:site": 1,
        "GET /v1/orgs/:org/sites/:site/structure": 1,
        "GET /v1/orgs/:org/sites/:site/adaptive-schema": 1,
        "GET /v1/orgs/:org/sites/:site/customization": 1,
        "GET /v1/orgs/:org/sites/:site/share-links": 3,
        "GET /v1/orgs/:org/sites/:site/redirects": 2,
        "GET /v1/orgs/:org/sites/:site/spaces/git/installations": 1,
        "GET /v1/orgs/:org/collections": 1,
        // Access: grows with the spaces and collections shown (two listings each), not with sections.
        "GET /v1/orgs/:org/sites/:site/publishing/auth": 1,
        "GET /v1/orgs/:org/sites/:site/permissions/teams": 1,
        "GET /v1/orgs/:org/sites/:site/permissions/users": 1,
        "GET /v1/spaces/:space/permissions/teams": 6,
        "GET /v1/spaces/:space/permissions/users": 6,
        "GET /v1/collections/:collection/permissions/teams": 2,
        "GET /v1/collections/:collection/permissions/users": 2,
      });
      expect(r.stderr).toContain('site 1/1 "Big docs": 1050 sections, 1050 site spaces, 0 section groups, 0 external links, 2100 share links');
      expect(r.stderr).toContain("in 30 requests");
      const text = fs.readFileSync(path.join(dir, "gitbook/index.ts"), "utf8");
      expect(text.match(/new gitbook\.SiteSection\(/g)).toHaveLength(1_050);
      expect(text.match(/new gitbook\.ShareLink\(/g)).toHaveLength(2_100);
    } finally {
      emu.store.deleteSite(big);
    }
  });

  it("writes the program anyway when a text upload's document cannot be had, and says where to put it", async () => {
    const restore = withoutRawText();
    try {
      const r = await run(["--org", seeded.org, "--fetch-spec-urls"], { download: async () => Promise.reject(Object.assign(new Error("fetch failed"), { cause: { code: "ENOTFOUND" } })) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/Note: OpenAPI spec "internal-api": put its document at openapi\/internal-api\.yaml before `pulumi up` \(its processed version could not be downloaded from "\S+" \(ENOTFOUND\)\)\./);
      expect(fs.existsSync(path.join(dir, "gitbook/openapi/internal-api.yaml"))).toBe(false);
    } finally {
      restore();
    }
  });

  it("talks to the configured API only: a spec held by URL, or a processed version outside the API, is fetched only with --fetch-spec-urls", async () => {
    // A server of this test's own, where both documents point.
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(req.url!);
      res.end('{"openapi":"3.0.3","info":{"title":"served","version":"1"},"paths":{}}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const byUrl = [...emu.store.openApiSpecs.values()].find((s) => s.slug === "acme-api")!;
    const source = byUrl.source;
    byUrl.source = { url: `${base}/acme.yaml` };
    const restore = withoutRawText(`${base}/internal.json`);
    // The real download, not the tests' stand-in.
    const real = { download: undefined };
    try {
      const without = await run(["--org", seeded.org, "--out", "without"], real);
      expect(without.code, without.stderr).toBe(0);
      expect(requests).toEqual([]);
      expect(without.stderr).not.toMatch(/and \d+ download/);
      expect(without.stderr).toContain(
        `Note: OpenAPI spec "internal-api": put its document at openapi/internal-api.yaml before \`pulumi up\` (the API does not give its text; its processed version is at "${base}/internal.json", outside the API: download it from there, or import again with --fetch-spec-urls).`,
      );
      expect(fs.readFileSync(path.join(dir, "without/index.ts"), "utf8")).toContain(`source: { url: "${base}/acme.yaml" }`);

      const allowed = await run(["--org", seeded.org, "--out", "allowed", "--fetch-spec-urls"], real);
      expect(allowed.code, allowed.stderr).toBe(0);
      // The processed version of the upload, once; a spec held by URL stays a URL, never fetched.
      expect(requests).toEqual(["/internal.json"]);
      expect(allowed.stderr).toContain(" and 1 download, ");
      expect(fs.readFileSync(path.join(dir, "allowed/openapi/internal-api.json"), "utf8")).toContain('"served"');
    } finally {
      byUrl.source = source;
      restore();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses, before reading anything, to re-import another organization over a program of one", async () => {
    // Its stack holds the first organization's objects: the new program's first up would delete every one.
    expect((await run(["--org", seeded.org])).code).toBe(0);
    const before = fs.readFileSync(path.join(dir, "gitbook/index.ts"), "utf8");
    emu.log.reset();
    const other = await run(["--org", "org_other", "--force"]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`index.ts was imported from the GitBook organization "${seeded.org}", not "org_other"`);
    expect(emu.log.count()).toBe(0);
    expect(fs.readFileSync(path.join(dir, "gitbook/index.ts"), "utf8")).toBe(before);
  });

  it("refuses to overwrite a program already there, before reading anything, unless --force", async () => {
    expect((await run(["--org", seeded.org])).code).toBe(0);
    const before = fs.readFileSync(path.join(dir, "gitbook/index.ts"), "utf8");
    fs.writeFileSync(path.join(dir, "gitbook/index.ts"), "// edited");
    emu.log.reset();
    const again = await run(["--org", seeded.org]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has index\.ts, Pulumi\.yaml, Pulumi\.dev\.yaml, package\.json, tsconfig\.json, \.gitignore; pass --force/);
    expect(emu.log.count()).toBe(0);
    expect(fs.readFileSync(path.join(dir, "gitbook/index.ts"), "utf8")).toBe("// edited");
    expect((await run(["--org", seeded.org, "--force"])).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, "gitbook/index.ts"), "utf8")).toBe(before);
  });

  it("fails with the usage on bad arguments, and without a token, before any request", async () => {
    const bad = await run(["--org", seeded.org, "--style", "pages"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--style must be resources or docs-site (got "pages")');
    expect(bad.stderr).toContain(USAGE);
    expect((await run([])).stderr).toContain("--org is required");
    expect((await run(["--org", seeded.org, "--stack", "my stack"])).stderr).toContain("--stack must be letters");
    expect((await run(["--org", seeded.org, "--sites", "x"])).code).toBe(2);
    const noToken = await run(["--org", seeded.org], { env: { GITBOOK_API_URL: emu.url } });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("GITBOOK_TOKEN is not set");
    expect(emu.log.count()).toBe(0);
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(USAGE);
  });

  it("fails naming the API's answer when the organization cannot be read, writing nothing", async () => {
    const r = await run(["--org", "org_missing"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/pulumi-gitbook import: .*404/);
    expect(fs.existsSync(path.join(dir, "gitbook"))).toBe(false);
  });

  it("prints text from GitBook with its control characters escaped, so it can neither drive the terminal nor reorder a line", async () => {
    // A title may hold anything: a C1 control (CSI, U+009B) and a bidirectional override show in the progress line.
    const portal = [...emu.store.sites.values()].find((s) => s.title === "Acme Partner Portal")!;
    portal.title = "Acme \u009b2JPartner\u202e Portal";
    try {
      const r = await run(["--org", seeded.org]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('site 2/2 "Acme \\u009b2JPartner\\u202e Portal": 3 sections');
      expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    } finally {
      portal.title = "Acme Partner Portal";
    }
  });
});
