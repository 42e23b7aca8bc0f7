/**
 * The main example (examples/docs-site; project file ./Pulumi.yaml, stack files in its
 * stackConfigDir) run as a user runs it: through the Pulumi CLI, the real SDK and the SDK's
 * dynamic-provider host, against the emulator, once per stack config. Each stack must converge,
 * re-run as a no-op without a single write, and (prod) destroy without leaving anything behind; its
 * second up and the destroy run with the token from GITBOOK_TOKEN alone (once test/cli/cli.test.ts's
 * destroy, issue 40). A config mistake failing
 * the preview naming its key, before any request, is the program's own check: test/unit/docsSiteConfig.test.ts
 * runs the program under Pulumi's mocks (once two previews here, issue 40).
 *
 * Each stack's runs are as few as its checks allow (issues 23 and 40: engine runs are the suite's cost):
 * its first `up`, whose steps are the plan a preview would show (every one a create), and one more
 * that makes every change the test makes (reorder, rename) and is the re-run that finds the rest with
 * nothing to do. What a `refresh` right after each would find is read in this process
 * (differencesFromGitBook with asRefresh: outputs and inputs as GitBook holds them, no write); that a
 * preview of creates sends only the organization question is each kind's (test/unit/lifecycle.test.ts
 * in process, test/lifecycle/everyKind.test.ts through the CLI). One stack, prod, the one with SAML and
 * redirect rules, is destroyed: deleting each kind is everyKind's, the example's order prod's. That a
 * moved order converges (the next up a no-op) is the framework's, proven of SiteStructureOrder by
 * test/lifecycle/everyKind.test.ts (its convergence) and provider/resources/placement.test.ts, not re-run here.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { readProject } from "../../dev/project";
import { EXAMPLE_DIR, exampleConfig, exampleSpaces } from "../../dev/example";
import { describeDeployments, filesUnder, startDeployment, steps, type Deployment } from "../support/lifecycle";
import { differencesFromGitBook } from "../support/stateIsGitBook";
import { GIT_SYNC_QUESTION, ORG_QUESTION } from "../support/provider";

/** Objects of every kind the example manages, as the emulator holds them. */
function inventory(emu: Emulator) {
  const s = emu.store;
  return {
    sites: s.sites.size,
    sections: s.sections.size,
    sectionGroups: s.sectionGroups.size,
    externalLinks: s.externalLinks.size,
    siteSpaces: s.siteSpaces.size,
    // Spaces the program created (the seeded ones have no such title); a deleted space leaves the store.
    createdSpaces: [...s.spaces.values()].filter((x) => x.title === "Tutorials" && !x.deletedAt).length,
    shareLinks: s.shareLinks.size,
    redirects: s.siteRedirects.size,
    siteGrants: [...s.permissions.values()].filter((g) => g.target === "site").length,
    teams: s.teams.size,
    teamMembers: s.teamMembers.size,
    samlProviders: s.samlProviders.size,
    openApiSpecs: s.openApiSpecs.size,
  };
}

const EMPTY = { sites: 0, sections: 0, sectionGroups: 0, externalLinks: 0, siteSpaces: 0, createdSpaces: 0, shareLinks: 0, redirects: 0, siteGrants: 0, teams: 0, teamMembers: 0, samlProviders: 0, openApiSpecs: 0 };

function emailOf(emu: Emulator, userId: string): string {
  return emu.store.members.get(userId)!.email;
}

const expectations = {
  dev: {
    title: "Acme Developer Docs (preview)",
    visibility: "share-link",
    published: false,
    shareLinks: 1,
    saml: 0,
    slug: "acme-api-preview",
    specVisibility: "private",
    branding: {
      title: "Acme Developer Docs (preview)",
      styling: { primaryColor: { light: "#346ddb", dark: "#8fb3ff" } },
      favicon: { emoji: "🚧" },
      announcement: { enabled: true, message: "Preview of unreleased docs", style: "warning" },
    },
    redirects: [] as string[],
    writersRole: "admin",
  },
  prod: {
    title: "Acme Developer Docs",
    visibility: "public",
    published: true,
    shareLinks: 0,
    saml: 1,
    slug: "acme-api",
    specVisibility: "public",
    branding: {
      styling: { primaryColor: { light: "#346ddb", dark: "#8fb3ff" } },
      favicon: { emoji: "📘" },
      footer: { copyright: "© Acme Inc." },
      privacyPolicy: { url: "https://acme.test/privacy" },
    },
    redirects: ["/quickstart -> /getting-started", "/reference/* -> /api", "/sdk/typescript -> /guides/typescript"],
    writersRole: "edit",
  },
} as const;

for (const stack of ["dev", "prod"] as const) {
  const want = expectations[stack];

  describeDeployments(`the docs-site example, stack ${stack}`, () => {
    let d: Deployment;
    const run = (op: "preview" | "up" | "refresh" | "destroy", config: Record<string, string> = {}) =>
      d.run(op, undefined, { programDir: EXAMPLE_DIR, config: { ...exampleConfig(d.emu), ...config } });

    beforeAll(async () => {
      d = await startDeployment({ stack });
    });
    afterAll(async () => d?.close());

    it("converges: the site, its sections, site spaces and defaults, the team, and what differs per stack", async () => {
      const r = await run("up");
      expect(r.error).toBeUndefined();
      // The plan, as a preview would show it: the whole site created.
      expect(steps(r).every((s) => s.startsWith("create "))).toBe(true);
      expect(steps(r)).toContain("create docs/guides/typescript");
      // Every resource's state is what GitBook holds (issue 42): in prod, the SitePublication publishes the
      // site after its sections and site spaces are recorded, and none of them records what that changes.
      // And a refresh right after would change nothing, neither an output nor an input, and write nothing
      // (what test/lifecycle/everyKind.test.ts asks of every kind).
      expect(await differencesFromGitBook(d.emu, d.state().resources, { asRefresh: true })).toEqual([]);
      const emu = d.emu;
      const site = [...emu.store.sites.values()];
      expect(site).toHaveLength(1);
      expect(site[0]).toMatchObject({ title: want.title, visibility: want.visibility, published: want.published, adaptiveContent: { enabled: true } });

      // The branding the stack declares (the rest of the settings stay GitBook's defaults).
      expect(emu.store.siteCustomizations.get(site[0]!.id)?.settings).toMatchObject(want.branding);
      // The redirect rules, live and permanent; a path destination goes out as the site's published URL plus the path.
      const rules = [...emu.store.siteRedirects.values()].filter((r) => r.siteId === site[0]!.id);
      expect(rules.every((r) => r.permanent && !r.draft && r.destination.kind === "external")).toBe(true);
      const declared = new Map(want.redirects.map((x) => x.split(" -> ") as [string, string]));
      expect(rules.map((r) => r.source).sort()).toEqual([...declared.keys()].sort());
      for (const r of rules) expect(String(r.destination.url)).toMatch(new RegExp(`^https?://.+${declared.get(r.source)!.replace(/[/*.]/g, "\\$&")}$`));

      const sections = emu.store.sectionsOf(site[0]!.id);
      expect(sections.map((s) => s.title).sort()).toEqual(["API reference", "Getting started", "Guides", "Tutorials"]);
      // The navigation in the order the program declares it, the group holding its section and link.
      const structure = (items: ReturnType<typeof emu.store.childrenOf>): unknown[] =>
        items.map((n) =>
          n.type === "site-section-group" ? { group: n.record.title, items: structure(emu.store.childrenOf(site[0]!.id, n.record.id)) } : n.record.title,
        );
      expect(structure(emu.store.childrenOf(site[0]!.id, undefined))).toEqual([
        "Getting started",
        "Guides",
        "Tutorials",
        { group: "Reference", items: ["API reference", "Status page"] },
        "Community forum",
      ]);
      // The space the program created for Tutorials, shown by its section.
      const tutorials = [...emu.store.spaces.values()].find((x) => x.title === "Tutorials");
      expect(tutorials).toBeDefined();
      expect(emu.store.siteSpacesOf(site[0]!.id).some((ss) => ss.spaceId === tutorials!.id)).toBe(true);
      const spaces = exampleSpaces(emu);
      const sectionOf = (title: string) => sections.find((s) => s.title === title)!;
      expect(emu.store.defaultSection(site[0]!)?.id).toBe(sectionOf("Getting started").id);

      const guides = sectionOf("Guides");
      const inGuides = emu.store.siteSpacesIn(site[0]!.id, guides.id);
      expect(inGuides.map((ss) => ss.spaceId).sort()).toEqual([spaces.guides, spaces["sdk-typescript"], spaces["internal-handbook"]].sort());
      expect(emu.store.defaultSiteSpaceIn(site[0]!, guides.id)?.spaceId).toBe(spaces["sdk-typescript"]);
      expect(inGuides.find((ss) => ss.spaceId === spaces["internal-handbook"])).toMatchObject({ path: "internal", condition: "visitor.claims.staff == true" });
      expect(emu.store.siteSpacesOf(site[0]!.id)).toHaveLength(8);

      expect(emu.store.shareLinks.size).toBe(want.shareLinks);

      const team = [...emu.store.teams.values()];
      expect(team.map((t) => t.title)).toEqual(["Docs writers"]);
      const members = emu.store.teamMembersOf(team[0]!.id).map((m) => `${emailOf(emu, m.userId)} ${m.role}`);
      expect(members.sort()).toEqual(["ada@acme.test owner", "alan@acme.test member", "grace@acme.test member"]);
      // The site's access list: the writers' team alone, with the stack's role.
      expect(emu.store.permissionsOn("site", site[0]!.id, "team").map((g) => `${g.principalId} ${g.role}`)).toEqual([`${team[0]!.id} ${want.writersRole}`]);
      expect(emu.store.permissionsOn("site", site[0]!.id, "user")).toEqual([]);

      const saml = [...emu.store.samlProviders.values()];
      expect(saml).toHaveLength(want.saml);
      if (want.saml) expect(saml[0]).toMatchObject({ label: "Acme SSO", defaultTeamId: team[0]!.id, defaultRole: "read" });

      const spec = [...emu.store.openApiSpecs.values()];
      expect(spec).toHaveLength(1);
      expect(spec[0]).toMatchObject({ slug: want.slug, visibility: want.specVisibility, processingState: "complete" });
      const document = fs.readFileSync(`${EXAMPLE_DIR}/examples/docs-site/openapi.yaml`, "utf8");
      expect((spec[0]!.source as { text: string }).text).toBe(document);
      // The document went from the file to GitBook; state has its path and hash, never its text.
      const inState = d.resource("api-spec");
      expect(inState.inputs.source).toEqual({ file: expect.stringMatching(/(^|\/)examples\/docs-site\/openapi\.yaml$/), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(document).toContain("Orders and customers of the Acme store");
      expect(fs.readFileSync(d.statePath, "utf8")).not.toContain("Orders and customers of the Acme store");

      expect(r.outputs?.siteId).toBe(site[0]!.id);
      expect(Object.keys(r.outputs?.siteSpaceIds as object).sort()).toEqual(
        ["api", "api/beta", "api/changelog", "guides", "guides/handbook", "guides/typescript", "start", "tutorials"].sort(),
      );
      expect("singleSignOn" in r.outputs!).toBe(want.saml === 1);
    });

    it("keeps the share link URLs out of state in plain text", () => {
      const raw = fs.readFileSync(d.statePath, "utf8");
      expect(d.emu.store.shareLinks.size).toBe(want.shareLinks);
      for (const link of d.emu.store.shareLinks.values()) expect(raw).not.toContain(link.key);
      expect(raw).not.toContain(d.emu.token);
    });

    // One up for several changes (issue 23: engine runs are the suite's cost): it moves
    // two sections, renames the stack's share link if it has one, and shows everything else, branding,
    // redirects and access list among them, read back as declared with nothing to write. It runs with
    // the token from GITBOOK_TOKEN alone (an empty gitbook:token is one not set): an up configures the
    // provider from the stack's config, where a destroy, which runs no program, configures it from the
    // provider's inputs the last up recorded (the token among them, encrypted), so a destroy alone
    // would not show where the token came from (issue 40: once test/cli/cli.test.ts's destroy).
    it(`reorders two sections${want.shareLinks ? " and renames a share link in place" : ""} with the requests needed and nothing else, replacing nothing, with the token from GITBOOK_TOKEN alone`, async () => {
      const sections = JSON.parse(exampleSectionsConfig()) as unknown[];
      const swapped = [sections[1], sections[0], ...sections.slice(2)];
      const config: Record<string, string> = { "docs-site:sections": JSON.stringify(swapped), "gitbook:token": "" };
      d.cli()!.env.GITBOOK_TOKEN = d.emu.token;
      const renamed = want.shareLinks > 0;
      const before = renamed ? d.resource("docs/reviewers") : undefined;
      const link = before && d.emu.store.shareLinks.get(before.id!)!;
      if (renamed) {
        // The stack's own share links, with only the name changed.
        const links = JSON.parse(readProject(EXAMPLE_DIR, stack).config["docs-site:shareLinks"]!) as { name: string }[];
        expect(links.map((l) => l.name)).toEqual(["Reviewers"]);
        config["docs-site:shareLinks"] = JSON.stringify(links.map((l) => ({ ...l, name: "Review board" })));
      }
      d.emu.log.reset();
      const r = await run("up", config);
      expect(r.error).toBeUndefined();
      expect(steps(r).filter((s) => !s.startsWith("same ")).sort()).toEqual(renamed ? ["update docs/order", "update docs/reviewers"] : ["update docs/order"]);
      expect(steps(r)).toEqual(expect.arrayContaining(["same docs/branding", "same docs-access", ...(want.redirects.length ? ["same docs/redirects"] : [])]));
      // One read of the structure, one move: Guides before Getting started; and the link's rename. Before
      // them, the question whether the token sees the organization, and, for the order (a structure
      // kind), whether Git Sync owns the site's structure: each once, in the up's own process.
      expect(d.emu.log.entries.map((e) => `${e.method} ${e.route}`).sort()).toEqual(
        [
          ORG_QUESTION,
          GIT_SYNC_QUESTION,
          "GET /v1/orgs/:org/sites/:site/structure",
          "PATCH /v1/orgs/:org/sites/:site/structure/sort",
          ...(renamed ? ["PATCH /v1/orgs/:org/sites/:site/share-links/:shareLink"] : []),
        ].sort(),
      );
      const site = [...d.emu.store.sites.values()][0]!;
      expect(d.emu.store.childrenOf(site.id, undefined).slice(0, 2).map((n) => n.record.title)).toEqual(["Guides", "Getting started"]);
      expect(await differencesFromGitBook(d.emu, d.state().resources, { asRefresh: true })).toEqual([]);
      if (renamed) {
        expect(r.steps.find((s) => s.name === "docs/reviewers")).toMatchObject({ op: "update", changed: ["name"] });
        expect(d.resource("docs/reviewers").id).toBe(before!.id);
        expect(d.emu.store.shareLinks.get(before!.id!)).toMatchObject({ name: "Review board", key: link!.key, active: true });
      }
    });

    // Still with the token from GITBOOK_TOKEN alone: the provider's inputs the last up recorded hold none.
    it.runIf(stack === "prod")("destroys everything it made, leaving nothing on the emulator, and no file or log under the stack then holds the token", async () => {
      expect(inventory(d.emu)).not.toEqual(EMPTY);
      const r = await run("destroy", { "gitbook:token": "" });
      expect(r.error).toBeUndefined();
      expect(d.state().resources).toEqual([]);
      expect(inventory(d.emu)).toEqual(EMPTY);
      expect(r.stdout).not.toContain(d.emu.token);
      for (const [file, body] of filesUnder(d.dir)) expect(body, file).not.toContain(d.emu.token);
    });
  });
}

/** The `sections` value of the project file, as the program receives it. */
function exampleSectionsConfig(): string {
  // Read as the CLI reads the project file (dev/project.ts), rather than parsing the YAML again here.
  return readProject(EXAMPLE_DIR, "dev").config["docs-site:sections"]!;
}
