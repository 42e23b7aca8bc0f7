/**
 * What a resource records is what its own writes decide (issue 42): after every `up`, each resource's
 * state equals what its kind reads from GitBook, however the later steps of the run wrote to its
 * object. One program of every kind, in process, whose second `up` makes each write that changes
 * another resource's object: a SitePublication publishing the site after its sections, site spaces
 * and share links; a section and a site space made the default of their container; a section's path
 * moved under its site spaces; the space a site space shows renamed; the site's branding changed
 * under a site space that overrides none of it; the site's basename changed under its share link and
 * publication. The CLI suites compare the exported checkpoints of their own runs the same way
 * (test/support/stateIsGitBook.ts).
 */
import { describe, expect, it } from "vitest";
import { resources } from "../../provider/resources";
import type { Decl } from "../support/lifecycle";
import { programSuite } from "../support/program";
import { differencesFromGitBook, plannedSteps } from "../support/stateIsGitBook";
import { ref } from "../support/scenarios";
import { ORG_QUESTION } from "../support/provider";

const HOST = "docs.acme.test";
const REPO = 4242;

/**
 * Every kind; `step` 1 and 2 make the writes that change other resources' objects (step 1: defaults
 * moved, paths moved with their old-path rules made, the branding changed, a hostname claimed; step 2:
 * both sites' basenames, a section's path under its site space's rule, a space renamed, the branding).
 */
function program(spaces: string[], member: string, step: 0 | 1 | 2): Decl[] {
  const site = ref("site.id");
  const basename = step < 2 ? "written" : "written-2";
  const otherBasename = step < 2 ? "other" : "other-2";
  const guidesPath = ["guides", "handbook", "manual"][step]!;
  // What the program process fills in where state holds what GitBook builds on the site's address
  // (siteAddress.ts): the in-process program constructs no resource class.
  const address = { basename };
  return [
    { kind: "Site", name: "site", args: { title: "Written Docs", visibility: "share-link", basename } },
    { kind: "Space", name: "space", args: { title: step < 2 ? "Notes" : "Notes renamed" } },
    { kind: "SiteSection", name: "start", args: { siteId: site, spaceId: spaces[0], path: "start", ...(step === 0 ? { default: true } : {}) } },
    {
      kind: "SiteSection",
      name: "guides",
      args: { siteId: site, spaceId: spaces[1], path: guidesPath, redirectOldPath: true, address, ...(step > 0 ? { default: true } : {}) },
    },
    {
      kind: "SiteSpace",
      name: "notes",
      args: { siteId: site, sectionId: ref("guides.id"), spaceId: ref("space.id"), path: step === 0 ? "notes" : "notes-2", redirectOldPath: true, address: { ...address, sectionPath: guidesPath } },
    },
    { kind: "SiteSpace", name: "v2", args: { siteId: site, sectionId: ref("start.id"), spaceId: spaces[2], path: "v2", ...(step > 0 ? { default: true } : {}) } },
    { kind: "SiteSectionGroup", name: "group", args: { siteId: site, title: "Group" } },
    { kind: "SiteExternalLink", name: "link", args: { siteId: site, title: "Status", url: "https://status.acme.test" } },
    { kind: "SiteStructureOrder", name: "order", args: { siteId: site, items: [ref("start.id"), ref("guides.id"), ref("group.id"), ref("link.id")] } },
    { kind: "SiteAdaptiveSchema", name: "schema", args: { siteId: site, jsonSchema: { type: "object", properties: { beta: { type: "boolean", description: "Beta tester" } }, additionalProperties: false } } },
    { kind: "SiteCustomization", name: "branding", args: { siteId: site, footer: { copyright: `© Acme ${step}` } } },
    { kind: "SiteSpaceCustomization", name: "notes-branding", args: { siteId: site, siteSpaceId: ref("notes.id"), title: "Notes FR" } },
    // Overrides nothing: GitBook answers the site's settings for it.
    { kind: "SiteSpaceCustomization", name: "v2-branding", args: { siteId: site, siteSpaceId: ref("v2.id") } },
    { kind: "SiteVisitorAuth", name: "auth", args: { siteId: site, backend: "custom", fallbackURL: "https://login.acme.test/" } },
    { kind: "ShareLink", name: "reviewers", args: { siteId: site, name: "Reviewers", address } },
    { kind: "SitePublication", name: "publication", args: { siteId: site, published: true, address } },
    // A path destination is sent as the published site's URL followed by the path.
    { kind: "SiteRedirect", name: "to-start", args: { siteId: site, source: "/begin", destination: { path: "/start" }, address } },
    { kind: "Site", name: "site2", args: { title: "Other Docs", basename: otherBasename, published: true } },
    {
      kind: "SiteRedirects",
      name: "redirects",
      args: {
        siteId: ref("site2.id"),
        rules: [
          { source: "/a", destination: { url: "https://example.com/a" } },
          { source: "/b", destination: { path: "/x" } },
        ],
        address: { basename: otherBasename },
      },
    },
    ...(step > 0 ? [{ kind: "SiteCustomHostname", name: "hostname", args: { siteId: ref("site2.id"), hostname: HOST } }] : []),
    // Site2 declares no structure: Git Sync may own it (priority gitbook: GitBook writes the file).
    { kind: "GitSyncInstallation", name: "git-sync", args: { siteId: ref("site2.id"), provider: "github", repositoryId: REPO, branch: "refs/heads/main", priority: "gitbook", ...(step === 2 ? { commitMessageTemplate: "docs: sync" } : {}) } },
    { kind: "Collection", name: "collection", args: { title: "Folder" } },
    { kind: "Team", name: "team", args: { title: "Writers" } },
    { kind: "SamlProvider", name: "saml", args: { label: "SSO" } },
    { kind: "OpenApiSpec", name: "spec", args: { slug: "written-api", source: { text: "openapi: 3.0.3\ninfo:\n  title: Written\n  version: 1.0.0\npaths: {}\n" } } },
    { kind: "Permission", name: "grant", args: { siteId: site, teamId: ref("team.id"), role: "read" } },
    { kind: "AccessList", name: "access", args: { collectionId: ref("collection.id"), users: [{ userId: member, role: "read" }] } },
  ];
}

describe("state equals GitBook after every up, for every kind", () => {
  const s = programSuite();
  const stateOf = (decls: Decl[]) => decls.map((d) => ({ name: d.name, type: d.kind, ...s.p.resource(d.name) }));
  const up = async (step: 0 | 1 | 2) => {
    const decls = program(s.env.emu.seeded.spaceIds, s.env.emu.seeded.members[0]!.id, step);
    const steps = await s.p.up(decls);
    expect(await differencesFromGitBook(s.env.emu, stateOf(decls))).toEqual([]);
    return steps;
  };

  it("declares every kind", () => {
    const declared = new Set(program([], "", 2).map((d) => d.kind));
    expect(resources.map((r) => r.kind).filter((k) => !declared.has(k))).toEqual([]);
  });

  it("after the up that creates them, published by a SitePublication applied last", async () => {
    // A repository GitBook's GitHub app sees, the account authorised for it (the app's step).
    const store = s.env.emu.store;
    store.gitRepositories.set(String(REPO), { ...store.newId("repo"), id: String(REPO), provider: "github", name: "acme/other-docs", files: {} });
    store.orgs.get(s.env.org)!.gitProviders = ["github"];
    await up(0);
    expect([...s.env.emu.store.sites.values()].find((x) => x.title === "Written Docs")?.published).toBe(true);
  });

  // What the CLI suites ask with asRefresh in place of a `pulumi refresh` (test/examples/docsSite.test.ts):
  // an input the read hands back otherwise than the checkpoint records it is a change that refresh would
  // write into state, so it is named. (The in-process program registers an OpenApiSpec's text as the
  // program declares it, where the program process registers its hash: only the team is compared here.)
  it("names, asked as a refresh, an input the read hands back otherwise than state records it", async () => {
    const team = { name: "team", type: "Team", ...s.p.resource("team") };
    expect(await differencesFromGitBook(s.env.emu, [team], { asRefresh: true })).toEqual([]);
    const recorded = { ...team, inputs: { ...team.inputs, title: "Readers" } };
    expect(await differencesFromGitBook(s.env.emu, [recorded], { asRefresh: true })).toEqual(['team.inputs.title: state "Readers", GitBook "Writers"']);
    expect(await differencesFromGitBook(s.env.emu, [recorded])).toEqual([]);
  });

  // What the CLI suites plan in place of a `preview --expect-no-changes` (test/faults/killedRun.ts).
  it("plans, from a checkpoint's resources, nothing for the program that made them, and the change a declaration makes", async () => {
    const decls = program(s.env.emu.seeded.spaceIds, s.env.emu.seeded.members[0]!.id, 0);
    const planned = await plannedSteps(s.env.emu, decls, stateOf(decls));
    expect(planned.filter((x) => x.op !== "same")).toEqual([]);
    expect(planned).toHaveLength(decls.length);
    const renamed = decls.map((d) => (d.name === "team" ? { ...d, args: { title: "Readers" } } : d));
    const dropped = renamed.filter((d) => d.name !== "collection" && d.name !== "access");
    expect((await plannedSteps(s.env.emu, dropped, stateOf(decls))).filter((x) => x.op !== "same")).toEqual([
      { name: "team", op: "update", changed: ["title"] },
      { name: "collection", op: "delete" },
      { name: "access", op: "delete" },
    ]);
    // `requests`: exactly what the plan must send; a plan of creates asks whether the token sees the organization.
    await expect(plannedSteps(s.env.emu, decls, [], { requests: [] })).rejects.toThrow(new RegExp(`^the plan sent ${ORG_QUESTION}, not nothing$`));
    expect((await plannedSteps(s.env.emu, decls, [], { requests: [ORG_QUESTION] })).every((x) => x.op === "create")).toBe(true);
    expect(await plannedSteps(s.env.emu, decls, stateOf(decls), { requests: [] })).toHaveLength(decls.length);
  });

  it("after an up that moves defaults, moves paths with their old-path rules, changes the branding and claims a hostname", async () => {
    // A custom hostname set up in the app (GitBook's API cannot), for the SiteCustomHostname to claim.
    const emu = s.env.emu;
    const site2 = s.p.resource("site2").id;
    emu.store.customHostnames.set(HOST, { ...emu.store.newId("host"), id: HOST, targetType: "site", targetId: site2, isActive: true, status: "live" });
    await up(1);
    const site = emu.store.sites.get(s.p.resource("site").id)!;
    expect(emu.store.defaultSection(site)?.id).toBe(s.p.resource("guides").id);
    expect(emu.store.defaultSiteSpaceIn(site, s.p.resource("start").id)?.id).toBe(s.p.resource("v2").id);
    expect(s.p.resource("notes").outputs.oldPathRedirects).toEqual([{ path: "notes" }]);
  });

  it("after an up that changes both sites' basenames, moves a section under its site space's rule and renames a space", async () => {
    const steps = await up(2);
    // What follows the site's address, or the section's path, is updated after them, as the plan says.
    const following = steps.filter((x) => x.changed?.includes("address")).map((x) => x.name);
    expect(following.sort()).toEqual(["guides", "notes", "publication", "redirects", "reviewers", "to-start"]);
    const rules = [...s.env.emu.store.siteRedirects.values()].map((r) => (r.destination as { url?: string }).url).filter((u) => u?.includes("written"));
    expect(rules.every((u) => u!.includes("/written-2/"))).toBe(true);
  });
});
