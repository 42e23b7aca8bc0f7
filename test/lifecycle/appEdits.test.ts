/**
 * App edits, systematically (issue 20): for each field a user can change in the GitBook app, one row
 * changes it out of band in the emulator's store; `refresh` must show it on the right resource and
 * field, the next `up` must restore the declared value with the fewest requests, and a preview must
 * then find nothing to do.
 *
 * One program holds one resource of each kind, and a copy of a resource for each further edit of it
 * that needs requests of its own (a team's members beside its title, a site's navigation dragged four
 * ways, a section's and a site space's default beside their other fields), so that every row runs in
 * one round (issue 23: engine runs are the suite's cost; five rounds took 12 runs, one takes 4). Rows
 * restored by one PATCH of their own resource share it, each still shown in the diff on its own; every
 * other row has its resources to itself, so the round's requests are the sum of its rows'. The round
 * is one refresh and one `up --diff`, whose steps must be exactly the rows' updates, each showing its
 * field; that `up` leaves state as it was before the edits (checked on the row's field in the
 * checkpoint), and `preview --expect-no-changes` then proves it left nothing to do.
 */
import { resources } from "../../provider/resources";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { teamMemberKey } from "../../emulator/store";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { GIT_SYNC_QUESTION, ORG_QUESTION } from "../support/provider";

const ref = (s: string) => ({ $ref: s });

const program = (e: Emulator): Decl[] => {
  const s = e.seeded.spaceIds;
  return [
    {
      kind: "Site",
      name: "site",
      args: { title: "App Edits Docs", visibility: "share-link", basename: "app-edits", agentsContext: "included", adaptiveContent: { enabled: true } },
    },
    { kind: "SiteAdaptiveSchema", name: "schema", args: { siteId: ref("site.id"), jsonSchema: visitorSchema("isBetaUser") } },
    { kind: "Collection", name: "shelf", args: { title: "Shelf", description: "Every book" } },
    { kind: "Space", name: "handbook", args: { title: "Handbook", emoji: "📘", parent: ref("shelf.id") } },
    { kind: "Team", name: "writers", args: { title: "Writers", members: [{ user: e.seeded.members[1]!.email, role: "owner" }, { user: e.seeded.members[2]!.email }] } },
    // Its members edited beside the writers' title: a PUT of their own.
    { kind: "Team", name: "readers", args: { title: "Readers", members: [{ user: e.seeded.members[1]!.email, role: "owner" }, { user: e.seeded.members[2]!.email }] } },
    {
      kind: "SamlProvider",
      name: "saml",
      args: { label: "Okta", entityID: "http://www.okta.com/exk1", ssoURL: "https://acme.okta.com/app/sso/saml", certificate: "MIIC-test-certificate", defaultRole: "read" },
    },
    { kind: "OpenApiSpec", name: "spec", args: { slug: "petstore", source: { text: SPEC }, visibility: "private" } },
    {
      kind: "SiteSection",
      name: "alpha",
      args: { siteId: ref("site.id"), spaceId: s[0], title: "Alpha", icon: "book", path: "alpha", description: "The first", condition: BETA, default: true },
    },
    { kind: "SiteSectionGroup", name: "group", args: { siteId: ref("site.id"), title: "Group", icon: "box", draft: false } },
    { kind: "SiteSection", name: "delta", args: { siteId: ref("site.id"), spaceId: s[4], title: "Delta" } },
    // Its membership authoritative: `sections`.
    { kind: "SiteSectionGroup", name: "more", args: { siteId: ref("site.id"), title: "More", sections: [ref("delta.id")] } },
    { kind: "SiteSection", name: "gamma", args: { siteId: ref("site.id"), spaceId: s[2], title: "Gamma", groupId: ref("group.id") } },
    {
      kind: "SiteExternalLink",
      name: "link",
      args: { siteId: ref("site.id"), title: "Blog", url: "https://blog.example.com", description: "News", icon: "rss", draft: false, condition: BETA },
      // GitBook takes links only in a site made of sections.
      dependsOn: ["alpha"],
    },
    { kind: "SiteSpace", name: "v2", args: { siteId: ref("site.id"), sectionId: ref("alpha.id"), spaceId: s[3], path: "v2", condition: BETA, default: true } },
    {
      kind: "SiteStructureOrder",
      name: "order",
      args: { siteId: ref("site.id"), items: [ref("alpha.id"), ref("group.id"), ref("link.id"), ref("more.id")], groups: [{ groupId: ref("group.id"), items: [ref("gamma.id")] }] },
    },
    { kind: "ShareLink", name: "share", args: { siteId: ref("site.id"), name: "Reviewers", active: true } },
    // Published once the navigation is in place.
    { kind: "SitePublication", name: "publication", args: { siteId: ref("site.id"), published: true }, dependsOn: ["alpha", "gamma", "link", "v2", "order", "schema"] },
    ...MOVES.flatMap((move) => placed(e, move)),
    ...DRAGS.flatMap((drag) => ordered(e, drag)),
    // A site space whose default the app moves, beside the one whose fields it edits.
    { kind: "SiteSpace", name: "link-v2", args: { siteId: ref("link-site.id"), sectionId: ref("link-alpha.id"), spaceId: s[3], path: "v2", default: true } },
  ];
};

/**
 * The main site's navigation again for each further drag of it in the app (its order then restored by
 * requests of its own), named after it: "alpha-" for the section dragged into a group, "link-" and
 * "more-" for the link and the group, "gamma-" for the grouped section dragged out.
 */
const DRAGS = ["alpha-", "link-", "more-", "gamma-"] as const;
const ordered = (e: Emulator, p: string): Decl[] => {
  const s = e.seeded.spaceIds;
  const r = (n: string) => ref(`${p}${n}.id`);
  return [
    { kind: "Site", name: `${p}site`, args: { title: "Navigation Docs" } },
    { kind: "SiteSection", name: `${p}alpha`, args: { siteId: r("site"), spaceId: s[0], title: "Alpha", default: true } },
    { kind: "SiteSectionGroup", name: `${p}group`, args: { siteId: r("site"), title: "Group" } },
    { kind: "SiteSection", name: `${p}gamma`, args: { siteId: r("site"), spaceId: s[2], title: "Gamma", groupId: r("group") } },
    { kind: "SiteSection", name: `${p}delta`, args: { siteId: r("site"), spaceId: s[4], title: "Delta" } },
    { kind: "SiteSectionGroup", name: `${p}more`, args: { siteId: r("site"), title: "More", sections: [r("delta")] } },
    { kind: "SiteExternalLink", name: `${p}link`, args: { siteId: r("site"), title: "Blog", url: "https://blog.example.com" }, dependsOn: [`${p}alpha`] },
    {
      kind: "SiteStructureOrder",
      name: `${p}order`,
      args: { siteId: r("site"), items: [r("alpha"), r("group"), r("link"), r("more")], groups: [{ groupId: r("group"), items: [r("gamma")] }] },
    },
  ];
};

/**
 * A section moved to another container in the app (issue 20, item 4): a site whose navigation is
 * `Alpha, Group [Gamma], Beta`, declared resource by resource and as a DocsSite, a copy of both for
 * each move, named after it ("in-site", "in-docs", ...). The order is the one source of where a
 * section without a groupId sits; a section with one sits where its groupId says.
 */
const MOVES = ["in-", "out-"] as const;
const placed = (e: Emulator, p: string): Decl[] => {
  const s = e.seeded.spaceIds;
  const r = (n: string) => ref(`${p}${n}.id`);
  const sections = [
    { key: "alpha", spaceId: s[0], title: "Alpha" },
    { type: "group", key: "grp", title: "Group", sections: [{ key: "gamma", spaceId: s[2], title: "Gamma" }] },
    { key: "beta", spaceId: s[1], title: "Beta" },
  ];
  return [
    { kind: "Site", name: `${p}site`, args: { title: "Placement Docs" } },
    { kind: "SiteSection", name: `${p}alpha`, args: { siteId: r("site"), spaceId: s[0], title: "Alpha" } },
    { kind: "SiteSectionGroup", name: `${p}group`, args: { siteId: r("site"), title: "Group" } },
    { kind: "SiteSection", name: `${p}gamma`, args: { siteId: r("site"), spaceId: s[2], title: "Gamma", groupId: r("group") } },
    { kind: "SiteSection", name: `${p}beta`, args: { siteId: r("site"), spaceId: s[1], title: "Beta" } },
    { kind: "SiteStructureOrder", name: `${p}order`, args: { siteId: r("site"), items: [r("alpha"), r("group"), r("beta")], groups: [{ groupId: r("group"), items: [r("gamma")] }] } },
    { kind: "DocsSite", name: `${p}docs`, args: { site: { title: "Placement Docs" }, sections } },
  ];
};
/** The resources of a copy by role: declared one by one, or the DocsSite's children (named `<component>/<key>`). */
const FORMS = [
  { label: "declared resource by resource", names: (p: string) => ({ site: `${p}site`, group: `${p}group`, gamma: `${p}gamma`, beta: `${p}beta`, order: `${p}order` }) },
  { label: "declared as a DocsSite", names: (p: string) => ({ site: `${p}docs`, group: `${p}docs/grp`, gamma: `${p}docs/gamma`, beta: `${p}docs/beta`, order: `${p}docs/order` }) },
];
const DECLARED_NAVIGATION = ["Alpha", { Group: ["Gamma"] }, "Beta"];

const BETA = "visitor.claims.isBetaUser == true";
const SPEC = "openapi: 3.0.3\ninfo:\n  title: Petstore\n  version: 1.0.0\npaths: {}\n";
const visitorSchema = (claim: string) => ({
  type: "object",
  properties: { [claim]: { type: "boolean", description: "Whether the visitor tests betas." } },
  additionalProperties: false,
});

const route = {
  site: "PATCH /v1/orgs/:org/sites/:site",
  section: "PATCH /v1/orgs/:org/sites/:site/sections/:section",
  group: "PATCH /v1/orgs/:org/sites/:site/section-groups/:group",
  link: "PATCH /v1/orgs/:org/sites/:site/external-links/:link",
  siteSpace: "PATCH /v1/orgs/:org/sites/:site/site-spaces/:siteSpace",
  shareLink: "PATCH /v1/orgs/:org/sites/:site/share-links/:shareLink",
  structure: "GET /v1/orgs/:org/sites/:site/structure",
  sort: "PATCH /v1/orgs/:org/sites/:site/structure/sort",
  team: "PATCH /v1/orgs/:org/teams/:team",
  space: "PATCH /v1/spaces/:space",
  collection: "PATCH /v1/collections/:collection",
  saml: "PATCH /v1/orgs/:org/saml/:saml",
  spec: "PATCH /v1/orgs/:org/openapi/:slug",
  schema: "PUT /v1/orgs/:org/sites/:site/adaptive-schema",
  publish: "POST /v1/orgs/:org/sites/:site/publish",
  getSite: "GET /v1/orgs/:org/sites/:site",
  getSections: "GET /v1/orgs/:org/sites/:site/sections",
  getSiteSpaces: "GET /v1/orgs/:org/sites/:site/site-spaces",
  getTeam: "GET /v1/orgs/:org/teams/:team",
  getTeamMembers: "GET /v1/orgs/:org/teams/:team/members",
  putTeamMembers: "PUT /v1/orgs/:org/teams/:team/members",
  orgMembers: "GET /v1/orgs/:org/members",
};

interface Row {
  /** The resource (program name) and the input field the app changes. */
  resource: string;
  field: string;
  /** Other resources whose diff the edit also shows (e.g. the order of a moved section). */
  alsoShows?: string[];
  /** Changes the field out of band, as the app would. */
  edit(d: Deployment, id: string): void;
  /** The live value, to compare with the declared one after `up`. */
  live(d: Deployment, id: string): unknown;
  declared: unknown;
  /** The requests the next `up` needs to restore it: the fewest. */
  requests: Record<string, number>;
}

const st = (d: Deployment) => d.emu.store;
/** The site's top level, by program name. */
const topLevel = (p: string) => (d: Deployment, siteId: string) => {
  const names = new Map(["alpha", "group", "link", "more"].map((n) => [d.resource(`${p}${n}`).id!, n]));
  return st(d).childrenOf(siteId, undefined).map((n) => names.get(n.record.id) ?? n.record.id);
};
const specOf = (d: Deployment, id: string) => [...st(d).openApiSpecs.values()].find((x) => x.id === id || x.slug === id)!;

const rows: Row[] = [
  // Site
  { resource: "site", field: "title", edit: (d, id) => void (st(d).sites.get(id)!.title = "Renamed in the app"), live: (d, id) => st(d).sites.get(id)!.title, declared: "App Edits Docs", requests: { [route.site]: 1 } },
  // Collection
  { resource: "shelf", field: "title", edit: (d, id) => void (st(d).collections.get(id)!.title = "Renamed"), live: (d, id) => st(d).collections.get(id)!.title, declared: "Shelf", requests: { [route.collection]: 1 } },
  { resource: "shelf", field: "description", edit: (d, id) => void (st(d).collections.get(id)!.description = "Edited"), live: (d, id) => st(d).collections.get(id)!.description, declared: "Every book", requests: { [route.collection]: 1 } },
  // Space
  { resource: "handbook", field: "title", edit: (d, id) => void (st(d).spaces.get(id)!.title = "Renamed"), live: (d, id) => st(d).spaces.get(id)!.title, declared: "Handbook", requests: { [route.space]: 1 } },
  { resource: "handbook", field: "emoji", edit: (d, id) => void (st(d).spaces.get(id)!.emoji = "1f4d5"), live: (d, id) => st(d).spaces.get(id)!.emoji, declared: "📘", requests: { [route.space]: 1 } },
  // Team
  { resource: "writers", field: "title", edit: (d, id) => void (st(d).teams.get(id)!.title = "Renamed"), live: (d, id) => st(d).teams.get(id)!.title, declared: "Writers", requests: { [route.team]: 1 } },
  {
    resource: "readers",
    field: "members",
    edit: (d, id) => void st(d).teamMembers.delete(teamMemberKey(id, d.emu.seeded.members[2]!.id)),
    live: (d, id) => [...st(d).teamMembers.values()].filter((m) => m.teamId === id).length,
    declared: 2,
    // The members as they are, the organization's members (one listed is not in the team: looked up
    // before any write), then the one PUT; the team is read before and after it (team.ts).
    requests: { [route.getTeam]: 2, [route.getTeamMembers]: 1, [route.orgMembers]: 1, [route.putTeamMembers]: 1 },
  },
  // Site
  ...(
    [
      ["visibility", "public", "share-link"],
      ["basename", "moved-in-app", "app-edits"],
      ["agentsContext", "excluded", "included"],
      ["adaptiveContent", { enabled: false }, { enabled: true }],
    ] as const
  ).map(
    ([field, edited, declared]): Row => ({
      resource: "site",
      field,
      edit: (d, id) => void ((st(d).sites.get(id)! as unknown as Record<string, unknown>)[field] = edited),
      live: (d, id) => (st(d).sites.get(id)! as unknown as Record<string, unknown>)[field],
      declared,
      requests: { [route.site]: 1 },
    }),
  ),
  // SitePublication: unpublished in the app.
  { resource: "publication", field: "published", edit: (d, id) => void (st(d).sites.get(id)!.published = false), live: (d, id) => st(d).sites.get(id)!.published, declared: true,
    // Whether it is published is read first (publishing a published site is not sent).
    requests: { [route.getSite]: 1, [route.publish]: 1 } },
  // SiteAdaptiveSchema
  {
    resource: "schema",
    field: "jsonSchema",
    edit: (d, id) => void (st(d).adaptiveSchemas.get(id)!.jsonSchema = visitorSchema("editedInApp")),
    live: (d, id) => st(d).adaptiveSchemas.get(id)!.jsonSchema,
    declared: visitorSchema("isBetaUser"),
    requests: { [route.schema]: 1 },
  },
  // SamlProvider
  { resource: "saml", field: "label", edit: (d, id) => void (st(d).samlProviders.get(id)!.label = "Renamed"), live: (d, id) => st(d).samlProviders.get(id)!.label, declared: "Okta", requests: { [route.saml]: 1 } },
  { resource: "saml", field: "ssoURL", edit: (d, id) => void (st(d).samlProviders.get(id)!.ssoURL = "https://evil.example/sso"), live: (d, id) => st(d).samlProviders.get(id)!.ssoURL, declared: "https://acme.okta.com/app/sso/saml", requests: { [route.saml]: 1 } },
  // OpenApiSpec
  { resource: "spec", field: "visibility", edit: (d, id) => void (specOf(d, id).visibility = "public"), live: (d, id) => specOf(d, id).visibility, declared: "private", requests: { [route.spec]: 1 } },
  // SiteSection
  {
    resource: "more-alpha",
    field: "default",
    // Another section made the site's default in the app.
    edit: (d) => void (st(d).sites.get(d.resource("more-site").id!)!.defaultSectionId = d.resource("more-gamma").id!),
    live: (d, id) => st(d).defaultSection(st(d).sites.get(d.resource("more-site").id!)!)?.id === id,
    declared: true,
    // The site's default set, then the section read for its outputs (nothing of its own was PATCHed).
    requests: { [route.site]: 1, [route.getSections]: 1 },
  },
  {
    resource: "link-v2",
    field: "default",
    // The section's own site space made its default in the app.
    edit: (d) => void (st(d).sections.get(d.resource("link-alpha").id!)!.defaultSiteSpaceId = d.resource("link-alpha").outputs.siteSpaceId as string),
    live: (d, id) => st(d).sections.get(d.resource("link-alpha").id!)!.defaultSiteSpaceId === id,
    declared: true,
    // The site space read for its outputs (nothing of its own was PATCHed), then its section's default set.
    requests: { [route.getSiteSpaces]: 1, [route.section]: 1 },
  },
  ...(["title", "icon", "path", "description", "condition"] as const).map(
    (field): Row => ({
      resource: "alpha",
      field,
      edit: (d, id) => void (st(d).sections.get(id)![field] = { path: "edited", condition: "true" }[field as string] ?? "Edited in the app"),
      live: (d, id) => st(d).sections.get(id)![field],
      declared: { title: "Alpha", icon: "book", path: "alpha", description: "The first", condition: BETA }[field],
      requests: { [route.section]: 1 },
    }),
  ),
  {
    resource: "gamma-gamma",
    field: "groupId",
    // The order lists it in the group: its list there shows the move too.
    alsoShows: ["gamma-order"],
    edit: (d, id) => st(d).setSectionGroup(st(d).sections.get(id)!, undefined),
    live: (d, id) => st(d).groupOfSection(st(d).sections.get(id)!)?.title,
    declared: "Group",
    // Back into the group (alone there, so no sort); the order reads the structure once.
    requests: { [route.section]: 1, [route.structure]: 1 },
  },
  // SiteSectionGroup
  { resource: "group", field: "title", edit: (d, id) => void (st(d).sectionGroups.get(id)!.title = "Renamed"), live: (d, id) => st(d).sectionGroups.get(id)!.title, declared: "Group", requests: { [route.group]: 1 } },
  { resource: "group", field: "icon", edit: (d, id) => void (st(d).sectionGroups.get(id)!.icon = "star"), live: (d, id) => st(d).sectionGroups.get(id)!.icon, declared: "box", requests: { [route.group]: 1 } },
  { resource: "group", field: "draft", edit: (d, id) => void (st(d).sectionGroups.get(id)!.draft = true), live: (d, id) => st(d).sectionGroups.get(id)!.draft, declared: false, requests: { [route.group]: 1 } },
  {
    resource: "more",
    field: "sections",
    edit: (d) => st(d).setSectionGroup(st(d).sections.get(d.resource("delta").id!)!, undefined),
    live: (d) => st(d).groupOfSection(st(d).sections.get(d.resource("delta").id!)!)?.title,
    declared: "More",
    // A fresh read of the structure, then the section taken back into the group.
    requests: { [route.structure]: 1, [route.section]: 1 },
  },
  // SiteExternalLink
  ...(["title", "url", "description", "icon", "condition"] as const).map(
    (field): Row => ({
      resource: "link",
      field,
      edit: (d, id) => void (st(d).externalLinks.get(id)![field] = { url: "https://elsewhere.example.com/", condition: "true" }[field as string] ?? "Edited in the app"),
      live: (d, id) => st(d).externalLinks.get(id)![field],
      declared: { title: "Blog", url: "https://blog.example.com", description: "News", icon: "rss", condition: BETA }[field],
      requests: { [route.link]: 1 },
    }),
  ),
  { resource: "link", field: "draft", edit: (d, id) => void (st(d).externalLinks.get(id)!.draft = true), live: (d, id) => st(d).externalLinks.get(id)!.draft, declared: false, requests: { [route.link]: 1 } },
  // SiteSpace
  { resource: "v2", field: "condition", edit: (d, id) => void (st(d).siteSpaces.get(id)!.condition = "true"), live: (d, id) => st(d).siteSpaces.get(id)!.condition, declared: BETA, requests: { [route.siteSpace]: 1 } },
  { resource: "v2", field: "path", edit: (d, id) => void (st(d).siteSpaces.get(id)!.path = "edited"), live: (d, id) => st(d).siteSpaces.get(id)!.path, declared: "v2", requests: { [route.siteSpace]: 1 } },
  // SiteStructureOrder: the link dragged first.
  {
    resource: "order",
    field: "items",
    edit: (d, id) => {
      const top = st(d).childrenOf(id, undefined).map((n) => n.record.id);
      st(d).setOrder([top[2]!, top[0]!, top[1]!]);
    },
    live: topLevel(""),
    declared: ["alpha", "group", "link", "more"],
    // One read, one move of the link back after the group.
    requests: { [route.structure]: 1, [route.sort]: 1 },
  },
  // SiteStructureOrder: items dragged into a group. Nothing but the order declares where they are
  // (no groupId, no group's sections), so its list shows the move.
  ...(
    [
      ["alpha", { [route.section]: 1, [route.sort]: 1 }],
      ["link", { [route.link]: 1, [route.sort]: 1 }],
      ["more", { [route.group]: 1 }],
    ] as const
  ).map(
    ([item, requests]): Row => ({
      // Each on its own copy of the navigation (DRAGS), named after the item.
      resource: `${item}-order`,
      field: "items",
      edit: (d) => {
        const [itemId, group] = [d.resource(`${item}-${item}`).id!, d.resource(`${item}-group`).id!];
        if (item === "alpha") st(d).setSectionGroup(st(d).sections.get(itemId)!, group);
        else if (item === "link") st(d).externalLinks.get(itemId)!.groupId = group;
        else st(d).sectionGroups.get(itemId)!.parentId = group;
        st(d).placeLast(itemId);
      },
      live: topLevel(`${item}-`),
      declared: ["alpha", "group", "link", "more"],
      // One read; the item moved back to the top level, where it lands last (then sorted when that is not its place).
      requests: { [route.structure]: 1, ...requests },
    }),
  ),
  // A top-level section dragged into a group: the order's items show it; one read of the structure,
  // one move back to the top level (last there, where it belongs).
  ...FORMS.map(({ names }): Row => {
    const n = names("in-");
    return {
      resource: n.order,
      field: "items",
      edit: (d) => moveSection(d, d.resource(n.beta).id!, d.resource(n.group).id!),
      live: (d) => navigation(d, siteNamed(d, n.site)),
      declared: DECLARED_NAVIGATION,
      requests: { [route.structure]: 1, [route.section]: 1 },
    };
  }),
  // A grouped section dragged to the top level: its groupId shows it, and the order, which lists it in
  // the group, shows it too; the section's own move back (last in the group, its only section), then
  // the order's one read.
  ...FORMS.map(({ names }): Row => {
    const n = names("out-");
    return {
      resource: n.gamma,
      field: "groupId",
      alsoShows: [n.order],
      edit: (d) => moveSection(d, d.resource(n.gamma).id!, undefined),
      live: (d) => navigation(d, siteNamed(d, n.site)),
      declared: DECLARED_NAVIGATION,
      requests: { [route.section]: 1, [route.structure]: 1 },
    };
  }),
  // ShareLink
  { resource: "share", field: "name", edit: (d, id) => void (st(d).shareLinks.get(id)!.name = "Renamed"), live: (d, id) => st(d).shareLinks.get(id)!.name, declared: "Reviewers", requests: { [route.shareLink]: 1 } },
  { resource: "share", field: "active", edit: (d, id) => void (st(d).shareLinks.get(id)!.active = false), live: (d, id) => st(d).shareLinks.get(id)!.active, declared: true, requests: { [route.shareLink]: 1 } },
];

/** A site's navigation as titles: a group as `{ title: [its items] }`. */
function navigation(d: Deployment, siteId: string, groupId?: string): unknown[] {
  return st(d).childrenOf(siteId, groupId).map((n) => (n.type === "site-section-group" ? { [n.record.title]: navigation(d, siteId, n.record.id) } : n.record.title));
}

/** The Site of that name (a DocsSite's site has the component's name). */
const siteNamed = (d: Deployment, name: string) => d.state().resources.find((r) => r.name === name && r.type.endsWith(":Site"))!.id!;

/** Moves a section as dragging it in the app does (undefined: to the top level). */
function moveSection(d: Deployment, sectionId: string, groupId: string | undefined): void {
  st(d).setSectionGroup(st(d).sections.get(sectionId)!, groupId);
}

/** The one PATCH that restores the row's field alone, when that is all it needs; else undefined. */
function ownPatch(row: Row): string | undefined {
  const [route, ...more] = Object.keys(row.requests);
  return !more.length && !row.alsoShows && route!.startsWith("PATCH ") && row.requests[route!] === 1 ? route : undefined;
}

/** Two rows restored by the same one PATCH of the same resource: they share it. */
const sharePatch = (a: Row, b: Row) => a.resource === b.resource && ownPatch(a) !== undefined && ownPatch(a) === ownPatch(b);

/**
 * Rows in rounds: each round takes, in table order, rows whose resources no earlier row of the round
 * touches, or only with a row it shares its PATCH with.
 */
function rounds(all: Row[]): Row[][] {
  const out: Row[][] = [];
  for (const row of all) {
    const touches = [row.resource, ...(row.alsoShows ?? [])];
    const round = out.find((r) => r.every((x) => sharePatch(x, row) || ![x.resource, ...(x.alsoShows ?? [])].some((n) => touches.includes(n))));
    if (round) round.push(row);
    else out.push([row]);
  }
  return out;
}

/** `preview --diff` output cut into one block per resource, by program name. */
function diffBlocks(stdout: string): Map<string, string> {
  const blocks = new Map<string, string>();
  let name: string | undefined;
  for (const line of stdout.split("\n")) {
    const urn = /\[urn=[^\]]*::([^\]:]+)\]/.exec(line);
    if (urn) {
      name = urn[1]!;
      blocks.set(name, "");
      continue;
    }
    if (/^\s*[~+-]?\s*pulumi(-nodejs)?:/.test(line) || /^Resources:/.test(line)) name = undefined;
    if (name !== undefined) blocks.set(name, blocks.get(name)! + line + "\n");
  }
  return blocks;
}

/** The kinds whose check asks whether Git Sync owns their site's structure. */
const STRUCTURE = new Set(resources.filter((r) => r.structure).map((r) => r.kind));

/** The round's requests: the sum of its rows', a PATCH rows share counted once. */
function sum(rs: Row[]): Record<string, number> {
  const out: Record<string, number> = {};
  rs.forEach((r, i) => {
    if (rs.slice(0, i).some((x) => sharePatch(x, r))) return;
    for (const [k, n] of Object.entries(r.requests)) out[k] = (out[k] ?? 0) + n;
  });
  return out;
}

describeDeployments("app edits, systematically", () => {
  let d: Deployment;
  /** Each resource's outputs once deployed: what state must hold again after each round's up. */
  let deployed: Record<string, Record<string, unknown>>;
  beforeAll(async () => {
    d = await startDeployment();
    const r = await d.run("up", program(d.emu));
    if (r.error) throw new Error(r.error);
    deployed = Object.fromEntries(d.state().resources.map((x) => [x.name, structuredClone(x.outputs)]));
  }, 240_000);
  afterAll(async () => d?.close());

  // The order, the schema and the publication are the site's.
  const idOf = (row: Row) => d.resource(row.resource).id!;

  rounds(rows).forEach((round, i) => {
    describe(`round ${i + 1}: ${round.map((r) => `${r.resource}.${r.field}`).join(", ")}`, () => {
      it("refresh shows each edit on its resource and field; up restores each with the fewest requests, updating nothing else", async () => {
        for (const row of round) row.edit(d, idOf(row));
        for (const row of round) expect(row.live(d, idOf(row)), `${row.resource}.${row.field} edited`).not.toEqual(row.declared);

        const before = Object.fromEntries(round.map((r) => [`${r.resource}.${r.field}`, d.resource(r.resource).outputs[r.field]]));
        expect((await d.run("refresh")).error).toBeUndefined();
        for (const row of round) expect(d.resource(row.resource).outputs[row.field], `${row.resource}.${row.field} in state after refresh`).not.toEqual(before[`${row.resource}.${row.field}`]);

        d.emu.log.reset();
        const up = await d.run("up", undefined, { flags: ["--diff"] });
        expect(up.error).toBeUndefined();
        // Exactly the round's resources: anything else would be a change an earlier round left undone.
        const changed = up.steps.filter((s) => s.op !== "same" && s.type !== "pulumi:pulumi:Stack" && !s.type.endsWith(":DocsSite")).map((s) => `${s.op} ${s.name}`);
        const expected = [...new Set(round.flatMap((r) => [r.resource, ...(r.alsoShows ?? [])]))].map((n) => `update ${n}`);
        expect(changed.sort()).toEqual(expected.sort());
        const blocks = diffBlocks(up.stdout);
        for (const row of round) expect(blocks.get(row.resource) ?? "", `${row.resource}'s diff`).toMatch(new RegExp(`[~+-] ${row.field}\\b`));
        for (const row of round) expect(row.live(d, idOf(row)), `${row.resource}.${row.field} restored`).toEqual(row.declared);
        // And the question whether the token sees the organization, once (the harness's up skips the preview, whose process would ask once more).
        // And, once per site whose structure a row's resource changes, whether Git Sync owns that structure.
        const structureSites = new Set(
          [...new Set(round.flatMap((r) => [r.resource, ...(r.alsoShows ?? [])]))]
            .map((n) => d.resource(n))
            .filter((r) => STRUCTURE.has(r.type.replace(/^pulumi-nodejs:dynamic\/gitbook:/, "")))
            .map((r) => r.outputs.siteId),
        );
        expect(d.emu.log.byRoute()).toEqual({ ...sum(round), [ORG_QUESTION]: 1, ...(structureSites.size > 0 ? { [GIT_SYNC_QUESTION]: structureSites.size } : {}) });
        for (const row of round) expect(d.resource(row.resource).outputs[row.field], `${row.resource}.${row.field} in state after up`).toEqual(deployed[row.resource]![row.field]);
      }, 300_000);
    });
  });

  it("after the last round, nothing to do", async () => {
    expect((await d.run("preview", undefined, { flags: ["--expect-no-changes"] })).error).toBeUndefined();
  }, 300_000);
});
