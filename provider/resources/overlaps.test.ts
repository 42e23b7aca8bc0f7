/**
 * Two resources managing one thing are refused in the program, as the second is constructed, naming
 * both and the fix (ResourceSpec.inProgram): a Permission beside an AccessList of the same object and
 * kind of principal, two AccessLists of one object, two Permissions of one grant, two SiteRedirects,
 * SiteCustomizations or SiteVisitorAuths of one site, two SiteSpaceCustomizations of one site space,
 * two resources of any kind whose adoptId names one object.
 *
 * Run as a preview (Pulumi's mocks with `preview` set, every new ID unknown): objects not created yet
 * are told apart by the resources their IDs come from, so resources of two different new sites pass,
 * and the same `site.id` (or the same literal ID) twice is refused.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AccessList,
  Collection,
  GitSyncInstallation,
  Permission,
  Site,
  SiteCustomization,
  SiteExternalLink,
  SitePublication,
  SiteRedirects,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteSpaceCustomization,
  SiteStructureOrder,
  SiteVisitorAuth,
  Space,
  Team,
} from "../index";

beforeAll(async () => {
  // preview: the engine answers no ID for a resource it has not created.
  await pulumi.runtime.setMocks({ newResource: (args) => ({ id: undefined, state: args.inputs }), call: () => ({}) }, "overlaps", "test", true);
});

let n = 0;
/** A name of its own per call, so that every test starts from objects no other test declared. */
const fresh = (base: string) => `${base}-${++n}`;

describe("Permission and AccessList", () => {
  it("refuses a Permission of a team beside an AccessList declaring the object's teams, in either order, naming both and the fix", () => {
    const site = new Site(fresh("site"), { title: "Docs" });
    const team = new Team(fresh("team"), { title: "Writers" });
    new AccessList("acl-a", { siteId: site.id, teams: [{ teamId: team.id, role: "read" }] });
    expect(() => new Permission("perm-a", { siteId: site.id, teamId: team.id, role: "edit" })).toThrow(
      'Permission "perm-a": teamId: AccessList "acl-a" declares every team grant of this site, and Permission "perm-a" grants one beside it: the AccessList would remove that grant at every up and the Permission give it back. ' +
        `List the team with its role in AccessList "acl-a"'s teams and remove Permission "perm-a", or manage the teams of this site with Permissions only. Nothing was sent.`,
    );
    const collection = new Collection(fresh("col"), { title: "Guides" });
    new Permission("perm-b", { collectionId: collection.id, userId: "usr_1", role: "read" });
    expect(() => new AccessList("acl-b", { collectionId: collection.id, users: [] })).toThrow(
      /^AccessList "acl-b": users: AccessList "acl-b" declares every user grant of this collection, and Permission "perm-b" grants one beside it/,
    );
  });

  it("allows a Permission of a user beside an AccessList declaring only teams, and access to another object", () => {
    const site = new Site(fresh("site"), { title: "Docs" });
    new AccessList(fresh("acl"), { siteId: site.id, teams: [] });
    new Permission(fresh("perm"), { siteId: site.id, userId: "usr_1", role: "read" });
    // Another site, not yet created: its unknown ID is no evidence of the first one.
    const other = new Site(fresh("site"), { title: "Docs" });
    new Permission(fresh("perm"), { siteId: other.id, teamId: "team_1", role: "read" });
    new AccessList(fresh("acl"), { spaceId: "spc_1", teams: [] });
    new Permission(fresh("perm"), { spaceId: "spc_2", teamId: "team_1", role: "read" });
  });

  it("refuses two AccessLists sharing a list of one object, by literal ID too", () => {
    new AccessList("acl-c", { spaceId: "spc_overlap", teams: [], users: [] });
    expect(() => new AccessList("acl-d", { spaceId: "spc_overlap", users: [{ userId: "usr_1", role: "read" }] })).toThrow(
      'AccessList "acl-d": users: AccessList "acl-c" already declares the user grants of this space, and each removes the grants the other lists at every up. Declare the object\'s access in one AccessList (merge "acl-d" into AccessList "acl-c"). Nothing was sent.',
    );
  });

  it("refuses two Permissions of one team on one object, and allows two teams", () => {
    const site = new Site(fresh("site"), { title: "Docs" });
    const [a, b] = [new Team(fresh("team"), { title: "A" }), new Team(fresh("team"), { title: "B" })];
    new Permission("perm-e", { siteId: site.id, teamId: a.id, role: "read" });
    new Permission(fresh("perm"), { siteId: site.id, teamId: b.id, role: "read" });
    expect(() => new Permission("perm-f", { siteId: site.id, teamId: a.id, role: "admin" })).toThrow(
      'Permission "perm-f": teamId: Permission "perm-e" already grants this team a role on this site, and a team has one role there: the two would set it in turn at every up. Keep one of them. Nothing was sent.',
    );
  });
});

describe("one per site or site space", () => {
  it("refuses a second SiteVisitorAuth of one site, and allows one per site while their IDs are unknown", () => {
    const [one, two] = [new Site(fresh("site"), { title: "Docs" }), new Site(fresh("site"), { title: "Docs" })];
    new SiteVisitorAuth("auth-a", { siteId: one.id, fallbackURL: "https://login.acme.test/" });
    new SiteVisitorAuth(fresh("auth"), { siteId: two.id });
    expect(() => new SiteVisitorAuth("auth-b", { siteId: one.id, logoutURL: "https://logout.acme.test/" })).toThrow(
      'SiteVisitorAuth "auth-b": siteId: SiteVisitorAuth "auth-a" already manages this site, and a site has one: two would overwrite each other\'s settings on every run. Declare the settings in one SiteVisitorAuth (merge "auth-b" into "auth-a"). Nothing was sent.',
    );
    new SiteVisitorAuth("auth-lit", { siteId: "site_lit" });
    expect(() => new SiteVisitorAuth("auth-lit2", { siteId: "site_lit" })).toThrow(/SiteVisitorAuth "auth-lit2": siteId: SiteVisitorAuth "auth-lit" already manages this site/);
  });

  it("refuses a second SiteRedirects, SitePublication, SiteCustomization or SiteSpaceCustomization of one target, and allows them on other new targets", () => {
    const [one, two] = [new Site(fresh("site"), { title: "Docs" }), new Site(fresh("site"), { title: "Docs" })];
    new SiteRedirects("set-a", { siteId: one.id, rules: [] });
    new SiteRedirects(fresh("set"), { siteId: two.id, rules: [] });
    expect(() => new SiteRedirects("set-b", { siteId: one.id, rules: [] })).toThrow(/^SiteRedirects "set-b": SiteRedirects "set-a" already declares redirects of this site/);

    // Before: two SitePublications of one site, declaring different states, took turns at every up.
    new SitePublication("pub-a", { siteId: one.id, published: true });
    new SitePublication(fresh("pub"), { siteId: two.id, published: true });
    expect(() => new SitePublication("pub-b", { siteId: one.id, published: false })).toThrow(/^SitePublication "pub-b": siteId: SitePublication "pub-a" already manages this site/);

    new SiteCustomization("brand-a", { siteId: one.id, themes: { default: "dark" } });
    new SiteCustomization(fresh("brand"), { siteId: two.id, themes: { default: "dark" } });
    expect(() => new SiteCustomization("brand-b", { siteId: one.id, themes: { default: "light" } })).toThrow(/^SiteCustomization "brand-b": siteId: SiteCustomization "brand-a" already manages this site/);

    // A section's default site space, as a program passes it (the output is optional in its type).
    const [s1, s2] = [new SiteSection(fresh("sec"), { siteId: one.id, spaceId: "spc_1", title: "A" }), new SiteSection(fresh("sec"), { siteId: one.id, spaceId: "spc_2", title: "B" })].map(
      (s) => s.siteSpaceId as pulumi.Output<string>,
    );
    new SiteSpaceCustomization("over-a", { siteId: one.id, siteSpaceId: s1!, title: "A FR" });
    new SiteSpaceCustomization(fresh("over"), { siteId: one.id, siteSpaceId: s2!, title: "B FR" });
    expect(() => new SiteSpaceCustomization("over-b", { siteId: one.id, siteSpaceId: s1!, title: "A DE" })).toThrow(
      /^SiteSpaceCustomization "over-b": siteSpaceId: SiteSpaceCustomization "over-a" already manages this site space/,
    );
  });
});

describe("one resource per adopted object", () => {
  // The provider refuses the second of two such resources its process sees; when the engine sends the
  // adopting create before the diff of the one holding the object in state, that one was refused and
  // both ended in state (seen through the CLI: test/lifecycle/cascade.test.ts, the DocsSite case), so that a later run
  // dropping either would delete the object under the other. The program refuses it, whatever the order.
  it("refuses a second resource of a kind whose adoptId names the same object, by literal ID or the same Output, naming both and the fix", () => {
    new Space("handbook-a", { title: "Handbook", adoptId: "spc_adopted" });
    expect(() => new Space("handbook-b", { title: "Handbook", adoptId: "spc_adopted" })).toThrow(
      'Space "handbook-b": adoptId: Space "handbook-a" adopts the object "spc_adopted" too: two resources of one object would overwrite each other\'s settings on every run, and deleting either would delete it for both. Keep one of them (remove "handbook-b", or merge it into "handbook-a"). Nothing was sent.',
    );
    const section = pulumi.output("sitesc_adopted");
    new SiteSection("guides-a", { siteId: "site_1", spaceId: "spc_1", adoptId: section });
    expect(() => new SiteSection("guides-b", { siteId: "site_1", spaceId: "spc_1", adoptId: section })).toThrow(/^SiteSection "guides-b": adoptId: SiteSection "guides-a" adopts the object too/);
  });

  it("allows other objects, the same ID in another kind, the same resource constructed again, and lists of one object's access declared apart", () => {
    new Space(fresh("space"), { title: "A", adoptId: "spc_one" });
    new Space(fresh("space"), { title: "B", adoptId: "spc_two" });
    new Collection(fresh("col"), { title: "C", adoptId: "spc_one" });
    // Two values computed apart are left to the provider: at preview they are no evidence of one object.
    new SiteSection(fresh("sec"), { siteId: "site_1", spaceId: "spc_1", adoptId: pulumi.output("sitesc_same") });
    new SiteSection(fresh("sec"), { siteId: "site_1", spaceId: "spc_1", adoptId: pulumi.output("sitesc_same") });
    // A test registering its program again under the same names (as the mocks do) is the same resource.
    new Space("again", { title: "A", adoptId: "spc_again" });
    new Space("again", { title: "A", adoptId: "spc_again" });
    new AccessList(fresh("acl"), { spaceId: "spc_access", teams: [], adoptId: "spc_access" });
    new AccessList(fresh("acl"), { spaceId: "spc_access", users: [], adoptId: "spc_access" });
  });
});

describe("GitSyncInstallation and the structure kinds", () => {
  const sync = (name: string, siteId: pulumi.Input<string>) => new GitSyncInstallation(name, { siteId, provider: "github", repositoryId: 1, branch: "refs/heads/main" });
  const structure: [string, (name: string, siteId: pulumi.Input<string>) => pulumi.Resource][] = [
    ["SiteSection", (name, siteId) => new SiteSection(name, { siteId, spaceId: "spc_1" })],
    ["SiteSpace", (name, siteId) => new SiteSpace(name, { siteId, sectionId: "sitesc_1", spaceId: "spc_1" })],
    ["SiteSectionGroup", (name, siteId) => new SiteSectionGroup(name, { siteId, title: "Reference" })],
    ["SiteExternalLink", (name, siteId) => new SiteExternalLink(name, { siteId, title: "Status", url: "https://status.acme.test" })],
    ["SiteStructureOrder", (name, siteId) => new SiteStructureOrder(name, { siteId, items: ["sitesc_1"] })],
  ];

  it.each(structure)("refuses a %s beside a GitSyncInstallation of the same site, in either order, naming both and the two ways out", (kind, make) => {
    const site = new Site(fresh("site"), { title: "Docs" });
    const [a, b] = [fresh("sync"), fresh(kind)];
    sync(a, site.id);
    expect(() => make(b, site.id)).toThrow(
      `${kind} "${b}": siteId: GitSyncInstallation "${a}" syncs this site's structure from its repository's gitbook-docs.yaml, so ${kind} "${b}" would undo each sync and be undone by the next. ` +
        `Either declare this part of the structure in gitbook-docs.yaml and take ${kind} "${b}" out of the program, or remove GitSyncInstallation "${a}" to manage the structure here. Nothing was sent.`,
    );
    const [c, d] = [fresh(kind), fresh("sync")];
    make(c, "site_literal_" + kind);
    expect(() => sync(d, "site_literal_" + kind)).toThrow(new RegExp(`^${kind} "${c}": siteId: GitSyncInstallation "${d}" syncs this site's structure`));
  });

  it("allows structure of another site, and non-structure kinds of the synced one", () => {
    const site = new Site(fresh("site"), { title: "Docs" });
    sync(fresh("sync"), site.id);
    new SiteCustomization(fresh("branding"), { siteId: site.id, footer: { copyright: "Acme" } });
    new SitePublication(fresh("pub"), { siteId: site.id, published: true });
    const other = new Site(fresh("site"), { title: "Docs" });
    new SiteSection(fresh("section"), { siteId: other.id, spaceId: "spc_1" });
  });
});
