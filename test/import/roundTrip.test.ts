/**
 * The importer's guarantee, through the real Pulumi CLI against the emulator seeded with a realistic
 * organization (test/import/organization.ts), in both styles:
 *
 * - the import reads only (GETs), and says how many requests it made;
 * - the generated program builds with `tsc` (strict) and names nothing secret;
 * - the first `pulumi up` adopts every object and sends no write at all: no setting to converge, and
 *   no sort request (and no PUT of the branded site's customization), the navigation's order (sorted away from creation order) being declared as it is;
 * - the next plan is all "same" (what `pulumi preview --expect-no-changes` asks), read in process from
 *   the checkpoint the up left (plannedSteps: the provider's check and diff of the inputs the up recorded);
 * - a second import of the same organization writes byte-identical files;
 * - after a reorder of everything in the app (top level, groups, a section's site spaces, its own
 *   one last), a re-import with --force over the program keeps every resource: its preview creates,
 *   deletes and replaces nothing, and updates only an order and the default section that moved;
 * - a re-import with the other --style keeps each site's form: it writes that program again, byte for
 *   byte (so its plan is the one just previewed);
 * - with `--retain-on-delete`, `pulumi destroy` empties the stack and sends no DELETE: every object
 *   is still in GitBook.
 *
 * Engine runs are the suite's cost (issue 23), so the two styles share what one proves for both.
 * The resources style runs every step. The docs-site style runs the steps whose outcome depends on
 * the program it generates (up, the reorder's preview) and leaves out two:
 * - the no-change plan: its reorder preview, of a program generated the same way (the
 *   second import is byte-identical), already holds every resource but the two orders and the
 *   Partner Portal's sections to "same", those sections to `default` alone;
 * - `destroy`: what it proves is that the engine never calls delete on a resource marked
 *   retainOnDelete (the engine's rule, the same for both styles); the docs-site style checks that
 *   its state marks every resource so, the DocsSite component passing the option to its children.
 *
 * Outside CI, without a built CLI, it skips and says how to build it; in CI it fails instead.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runImport } from "../../provider/importer/command";
import { Emulator } from "../../emulator";
import { linkPackage } from "../../dev/project";
import { cliMissing, createCliStack, type CliStack } from "../../dev/pulumiCli";
import { GitbookClient, p } from "../../provider/client";
import { ROOT, type Decl } from "../support/lifecycle";
import { plannedSteps } from "../support/stateIsGitBook";
import { seedOrganization, type SeededOrganization } from "./organization";

const missing = cliMissing();
if (missing && process.env.CI === "true") throw new Error(`CI must run the import round trip, and ${missing}`);
if (missing) console.warn(`test/import skipped: ${missing}`);

const WRITES = ["POST", "PUT", "PATCH", "DELETE"];

/** What the program needs from node_modules, taken from this checkout (the tests have no registry). */
function linkDependencies(programDir: string): void {
  linkPackage(programDir, ROOT);
  for (const dep of ["@pulumi/pulumi", "typescript", "@types/node"]) {
    const link = path.join(programDir, "node_modules", dep);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    if (!fs.existsSync(link)) fs.symlinkSync(path.join(ROOT, "node_modules", dep), link, "dir");
  }
}

// Incremental: the re-import's build reuses what the first one checked; the build info lives beside
// the program, outside what the import writes. --skipLibCheck: what is under test here is the program
// the import wrote, which is still checked against every declaration it uses; checking the
// declarations themselves (the package's, the SDK's, Node's: two thirds of each build's 6 CPU-seconds)
// is what a user's own tsc does, proven once per install route by test/install (new.test.ts for a
// checkout, tarball.test.ts for a tarball), with the template's tsconfig.json.
function tsc(programDir: string): Promise<{ code: number; output: string }> {
  const buildInfo = path.join(path.dirname(programDir), `${path.basename(programDir)}.tsbuildinfo`);
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", programDir, "--incremental", "--tsBuildInfoFile", buildInfo, "--skipLibCheck"], (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, output: stdout + stderr }),
    );
  });
}

/** Every file under `dir` but node_modules and build output, by relative path. */
function written(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name === "bin") continue;
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = fs.readFileSync(full, "utf8");
    }
  };
  walk(dir);
  return out;
}

for (const style of ["resources", "docs-site"] as const) {
  /** The style that runs every step; the other leaves out what this one proves for both. */
  const everyStep = style === "resources";
  describe.skipIf(!!missing)(`import --style ${style}, then the program through the Pulumi CLI`, () => {
    let emu: Emulator;
    let seeded: SeededOrganization;
    let dir: string;
    let programDir: string;
    let stack: CliStack;
    let config: Record<string, string>;
    let stderr = "";
    let importCode: number;
    /** The files as the import wrote them, before the test points the program at its build. */
    let imported: Record<string, string>;
    /** The files as the re-import after the reorder wrote them. */
    let reordered: Record<string, string> | undefined;
    const objectsBefore: Record<string, number> = {};

    const importInto = (out: string, flags: string[] = []) =>
      runImport(["--org", seeded.org, "--out", out, "--style", style, "--retain-on-delete", "--package", `file:${ROOT}`, ...flags], {
        env: { GITBOOK_TOKEN: emu.token, GITBOOK_API_URL: emu.url },
        stdout: { write: () => true },
        stderr: { write: (t: string) => (stderr += t) },
        // The processed document of a text upload lives outside the API, where the emulator serves nothing.
        download: async (url) => {
          const doc = seeded.documents[url];
          if (doc === undefined) throw new Error(`nothing served at ${url}`);
          return doc;
        },
      });

    /**
     * Imports again over the program with `flags`, builds it and previews it: the files as the import
     * wrote them, and the plan's steps of the package's kinds, none of them a create, delete or
     * replacement (every object keeps its resource), with no write.
     */
    async function reimportPreview(flags: string[]) {
      expect(await importInto(programDir, flags), stderr).toBe(0);
      const files = written(programDir);
      const built = await tsc(programDir);
      expect(built.code, built.output).toBe(0);
      const pkgFile = path.join(programDir, "package.json");
      fs.writeFileSync(pkgFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(pkgFile, "utf8")), main: "bin/index.js" }));
      emu.log.reset();
      const preview = await stack.run("preview", config);
      expect(preview.code, preview.stdout).toBe(0);
      expect(emu.log.writes()).toBe(0);
      const steps = preview.steps.filter((s) => s.type.includes("gitbook:"));
      expect(steps.length).toBeGreaterThan(0);
      expect(steps.filter((s) => s.op === "create" || s.op === "delete" || s.op === "replace")).toEqual([]);
      return { steps, files };
    }

    const counts = () => ({
      sites: emu.store.sites.size,
      sections: emu.store.sections.size,
      siteSpaces: emu.store.siteSpaces.size,
      sectionGroups: emu.store.sectionGroups.size,
      externalLinks: emu.store.externalLinks.size,
      adaptiveSchemas: emu.store.adaptiveSchemas.size,
      spaces: emu.store.spaces.size,
      collections: emu.store.collections.size,
      shareLinks: emu.store.shareLinks.size,
      teams: emu.store.teams.size,
      teamMembers: emu.store.teamMembers.size,
      samlProviders: emu.store.samlProviders.size,
      siteSpaceCustomizations: emu.store.siteSpaceCustomizations.size,
      openApiSpecs: emu.store.openApiSpecs.size,
    });

    beforeAll(async () => {
      emu = await Emulator.start();
      seeded = await seedOrganization(emu);
      Object.assign(objectsBefore, counts());
      dir = fs.mkdtempSync(path.join(os.tmpdir(), `gitbook-import-${style}-`));
      programDir = path.join(dir, "program");
      emu.log.reset();
      importCode = await importInto(programDir);
      imported = written(programDir);
      linkDependencies(programDir);
      stack = await createCliStack(path.join(dir, "cli"), programDir, "dev");
      // The token, as a user gives it; organization and API URL come from the stack file the import wrote.
      config = { "gitbook:token": emu.token };
    });
    afterAll(async () => {
      await emu?.close();
    });

    it("reads the organization with GETs only, reports the request count, and writes nothing secret", () => {
      expect(importCode, stderr).toBe(0);
      expect(emu.log.entries.filter((e) => WRITES.includes(e.method))).toEqual([]);
      const requests = emu.log.count();
      // The uploaded spec's document comes from the API (content/raw): nothing is downloaded.
      expect(stderr).toContain(`in ${requests} requests, `);
      expect(stderr).toMatch(
        /Read 2 sites, 8 sections, 12 site spaces, 2 section groups, 2 external links, 1 visitor schema, 6 spaces, 2 collections, 3 share links, 2 teams, 2 SAML providers, 2 OpenAPI specs/,
      );
      const files = imported;
      // Access: the site's, the space's and the collection's grants, and the Partner Portal's visitor authentication.
      expect(files["index.ts"]!.match(/new gitbook\.AccessList\(/g)?.length).toBe(3);
      expect(files["index.ts"]).toContain("new gitbook.SiteVisitorAuth(");
      expect(Object.keys(files).sort()).toEqual([".gitignore", "Pulumi.dev.yaml", "Pulumi.yaml", "index.ts", "openapi/internal-api.yaml", "package.json", "tsconfig.json"]);
      for (const [file, text] of Object.entries(files)) {
        expect(text, file).not.toContain(emu.token);
        for (const key of seeded.shareKeys) expect(text, file).not.toContain(key);
        for (const auth of emu.store.publishingAuths.values()) expect(text, file).not.toContain(auth.privateKey);
        expect(text, file).not.toContain("share=");
      }
    });

    it("writes a program that builds with tsc in strict mode", async () => {
      const r = await tsc(programDir);
      expect(r.code, r.output).toBe(0);
      // `pulumi` would run index.ts through ts-node, type-checking it again on every run; tsc has just
      // checked it, so the runs below take what tsc built: the package's entry point becomes bin/index.js.
      // (Through package.json rather than Pulumi.yaml's `main`, which would also move the program's
      // working directory, where the OpenAPI document's relative path is resolved, into bin/.)
      // examples/typescript is deployed as index.ts.
      const pkgFile = path.join(programDir, "package.json");
      fs.writeFileSync(pkgFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(pkgFile, "utf8")), main: "bin/index.js" }));
    });

    it("adopts every object on the first `pulumi up` without a single write", async () => {
      emu.log.reset();
      const up = await stack.run("up", config);
      expect(up.code, up.stdout).toBe(0);
      expect(emu.log.entries.filter((e) => WRITES.includes(e.method))).toEqual([]);
      const custom = stack.state().resources.filter((r) => r.custom);
      const kinds = custom.map((r) => r.type.replace(/^.*:/, ""));
      const howMany = Object.fromEntries([...new Set(kinds)].map((k) => [k, kinds.filter((x) => x === k).length]));
      // 8 sections, 4 further site spaces; the 2 sections groups and 2 external links, a visitor schema and
      // each site's order; the 6 spaces they show and their 2 collections.
      expect(howMany).toEqual({
        Site: 2,
        SiteSection: 8,
        SiteSpace: 4,
        SiteSectionGroup: 2,
        SiteExternalLink: 2,
        SiteAdaptiveSchema: 1,
        // The branded site's: declared whole as GitBook has it, so adopting it sends nothing.
        SiteCustomization: 1,
        // The TypeScript variant's own title and colour: its overrides as they are, so adopting them sends nothing.
        SiteSpaceCustomization: 1,
        SiteStructureOrder: 2,
        Space: 6,
        Collection: 2,
        ShareLink: 3,
        Team: 2,
        SamlProvider: 2,
        OpenApiSpec: 2,
        // The grants of a site, a space and a collection; the Partner Portal's visitor authentication.
        AccessList: 3,
        SiteVisitorAuth: 1,
        // The developer site's redirect rules, taken over as they are.
        SiteRedirects: 1,
        // The developer site's custom hostname, read and proven to point to it.
        SiteCustomHostname: 1,
        // DocsSite publishes through a child that waits for the navigation; the resources style uses Site's own input.
        ...(style === "docs-site" ? { SitePublication: 2 } : {}),
      });
      // An order, a publication, a customization, visitor authentication and a site's redirect rules are not objects: their ID is their site's.
      const ofSite = (type: string) => [":SiteStructureOrder", ":SitePublication", ":SiteCustomization", ":SiteVisitorAuth", ":SiteRedirects"].some((k) => type.endsWith(k));
      // A site space's overrides are not an object either: their ID is the site space's; a custom hostname's is the hostname.
      const id = (r: (typeof custom)[number]) =>
        ofSite(r.type) ? r.inputs.siteId : r.type.endsWith(":SiteSpaceCustomization") ? r.inputs.siteSpaceId : r.type.endsWith(":SiteCustomHostname") ? r.inputs.hostname : r.inputs.adoptId;
      for (const r of custom) expect(r.id, r.urn).toBe(id(r));
      // Guests, declared as null, reach the provider as null (and so are managed), not as absent.
      expect(custom.find((r) => r.inputs.label === "Contractors")!.outputs).toHaveProperty("defaultRole", null);
      expect(up.steps.filter((s) => s.type.includes("gitbook:")).every((s) => s.op === "create")).toBe(true);
      expect(counts()).toEqual(objectsBefore);
    });

    // What `pulumi preview --expect-no-changes` would plan, read in this process (issue 40): the
    // provider's check and diff of each resource's inputs as the up just recorded them (the same program
    // registers the same inputs), against the checkpoint it left; plannedSteps fails on any write. One
    // kind at a time: the program gives a site's grants the site's name, and the in-process program
    // knows a resource by its name alone (the recorded inputs refer to no other resource).
    it.runIf(everyStep)("then plans no change: every step of the next plan is `same`, with no write", async () => {
      const resources = stack.state().resources.filter((r) => r.custom);
      const kinds = [...new Set(resources.map((r) => r.type))];
      const planned = [];
      for (const type of kinds) {
        const ofKind = resources.filter((r) => r.type === type);
        const decls: Decl[] = ofKind.map((r) => ({ kind: type.replace(/^.*:/, ""), name: r.name, args: Object.fromEntries(Object.entries(r.inputs).filter(([k]) => k !== "__provider")) }));
        planned.push(...(await plannedSteps(emu, decls, ofKind, { cwd: programDir })).map((s) => ({ ...s, type })));
      }
      expect(planned.length).toBe(resources.length);
      expect(planned.filter((s) => s.op !== "same")).toEqual([]);
    });

    it("writes the same files, byte for byte, when the organization is imported again", async () => {
      const again = path.join(dir, "again");
      expect(await importInto(again)).toBe(0);
      expect(written(again)).toEqual(imported);
    });

    it("keeps every resource after a reorder of everything in the app and a re-import with --force: the plan replaces, creates and deletes nothing", async () => {
      // As the app would: sort requests, out of band.
      const client = new GitbookClient({ token: emu.token, apiUrl: emu.url });
      const [dev, partners] = seeded.siteIds as [string, string];
      const one = <T extends { id: string }>(map: Map<string, T>, where: (x: T) => boolean) => [...map.values()].find(where)!.id;
      const section = (site: string, title: string) => one(emu.store.sections, (x) => x.siteId === site && x.title === title);
      const siteSpace = (sectionId: string, path: string) => one(emu.store.siteSpaces, (x) => x.sectionId === sectionId && x.path === path);
      const ownSiteSpace = (sectionId: string) => {
        const s = emu.store.sections.get(sectionId)!;
        return one(emu.store.siteSpaces, (x) => x.sectionId === sectionId && x.spaceId === s.spaceId);
      };
      const sort = (site: string, item: [string, string], before: [string, string]) =>
        client.patch(p`/orgs/${seeded.org}/sites/${site}/structure/sort`, {
          body: { item: { type: item[0], id: item[1] }, position: { before: { type: before[0], id: before[1] } } },
        });
      const guides = section(dev, "Guides");
      const integration = section(partners, "Integration guides");
      try {
        // The top level, inside both groups, and a section's site spaces, its own one last.
        await sort(dev, ["site-external-link", one(emu.store.externalLinks, (x) => x.title === "Beta forum")], ["site-section", section(dev, "Getting started")]);
        await sort(dev, ["site-section", section(dev, "SDKs")], ["site-section", guides]);
        await sort(dev, ["site-section", section(dev, "Changelog")], ["site-external-link", one(emu.store.externalLinks, (x) => x.title === "API status")]);
        for (const path of ["internal", "typescript"]) await sort(dev, ["site-space", siteSpace(guides, path)], ["site-space", ownSiteSpace(guides)]);
        await sort(partners, ["site-section", section(partners, "Release notes")], ["site-section", section(partners, "Overview")]);
        await sort(partners, ["site-space", siteSpace(integration, "api")], ["site-space", ownSiteSpace(integration)]);
      } finally {
        await client.close();
      }

      stderr = "";
      const { steps, files } = await reimportPreview(["--force"]);
      reordered = files;
      expect(stderr).toContain("Keeping the names index.ts already in");
      expect(files).not.toEqual(imported);
      // Updates: an order, and `default` of the Partner Portal's sections: it marks none, so GitBook's
      // default is its first section, which moved, and the new program declares what GitBook now says.
      // (adoptId shows as changed beside it: once in state, check keeps it under a hidden key, read only by diff.)
      const expected = (s: (typeof steps)[number]) =>
        s.type.endsWith(":SiteStructureOrder") || (s.type.endsWith(":SiteSection") && s.name.startsWith("acme-partner-portal/") && s.changed?.every((k) => k === "default" || k === "adoptId" || k === "__gitbookAdoptId"));
      expect(steps.filter((s) => s.op !== "same" && !(s.op === "update" && expected(s)))).toEqual([]);
    });

    it("keeps each site's form when re-imported with the other --style: the program written is the one the reorder's re-import wrote, byte for byte, whose plan creates, deletes and replaces nothing", async () => {
      const other = style === "resources" ? "docs-site" : "resources";
      stderr = "";
      // The later --style wins.
      expect(await importInto(programDir, ["--force", "--style", other]), stderr).toBe(0);
      expect(stderr).toContain(`not as --style ${other} says`);
      // The same files over the same state and the same GitBook: the same plan, previewed above, so no
      // preview of its own (issue 40). A DocsSite's children keep it as parent, their URNs unchanged.
      expect(reordered, "the files of the reorder's re-import, from the test before").toBeDefined();
      expect(written(programDir)).toEqual(reordered);
    });

    it.runIf(!everyStep)("marks every resource in state retainOnDelete, so that destroy lets go of each, as the resources style's destroy shows", () => {
      // The checkpoint as the engine wrote it (state() leaves the resource options out).
      const resources = ((stack.exported().deployment.resources ?? []) as { urn: string; type: string; custom?: boolean; retainOnDelete?: boolean }[]).filter(
        (r) => r.custom && !r.type.startsWith("pulumi:providers:"),
      );
      expect(resources.length).toBe(stack.state().resources.filter((r) => r.custom).length);
      expect(resources.length).toBeGreaterThan(40);
      expect(resources.filter((r) => r.retainOnDelete !== true).map((r) => r.urn)).toEqual([]);
    });

    it.runIf(everyStep)("lets go of everything on `pulumi destroy` (retainOnDelete) without a DELETE", async () => {
      emu.log.reset();
      const destroy = await stack.run("destroy", config);
      expect(destroy.code, destroy.stdout).toBe(0);
      expect(emu.log.count({ method: "DELETE" })).toBe(0);
      expect(emu.log.writes()).toBe(0);
      expect(stack.state().resources).toEqual([]);
      expect(counts()).toEqual(objectsBefore);
    });
  });
}
