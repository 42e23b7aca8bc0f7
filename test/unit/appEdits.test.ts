/**
 * Every field a program declares, edited in the app: refresh shows the edit on that field, the next
 * preview plans an update of it, `up` puts the declared value back, and a re-run sends nothing. For
 * every kind's lifecycle program (test/support/scenarios.ts), every declared field GitBook can change
 * in place; the edit is made out of band by another client (a fresh provider context), as the app
 * would. The declared value (unless FULL gives one) and the alternate derive from the field's schema,
 * so a new field is covered without a line here; a field no alternate can be derived for must be
 * listed in UNDERIVED with the reason.
 *
 * Then "app edits, systematically" (further down): the edits only a store edit makes (a section moved
 * into a group, another default, a navigation dragged), each row with the fewest requests its restore
 * takes, all rows in one round.
 */
import { beforeAll, describe, expect, it } from "vitest";
import equal from "fast-deep-equal";
import { z } from "zod";
import type { Emulator } from "../../emulator";
import { teamMemberKey } from "../../emulator/store";
import type { Props } from "../../provider/framework/resource";
import { resources } from "../../provider/resources";
import type { Decl } from "../support/lifecycle";
import { programSuite } from "../support/program";
import { GIT_SYNC_QUESTION, ORG_QUESTION } from "../support/provider";
import { scenarios } from "../support/scenarios";
import { derivedValue, inPlaceFields } from "../support/derived";

/** Values of `schema` other than `v`, nearest first: edits the app could make (at least one, or why there is none). */
function alternates(schema: z.ZodType, v: unknown, emu: Emulator): unknown[] | { none: string } {
  const found = [...variants(v, emu)].filter((x) => !equal(x, v) && schema.safeParse(x).success).slice(0, 5);
  return found.length > 0 ? found : { none: `no value near ${JSON.stringify(v)} passes the field's check` };
}

/**
 * Values near `v`: the ID of another object of the same table for an ID, a string edited (a URL keeps
 * its scheme; an emoji becomes another), another member of an enum, a flipped boolean, a list one item
 * shorter, an object with one leaf edited.
 */
function* variants(v: unknown, emu: Emulator): Generator<unknown> {
  if (typeof v === "string") {
    const table = Object.values(emu.store).find((t): t is Map<string, Record<string, unknown>> => t instanceof Map && t.has(v));
    if (table) {
      const org = (r: Record<string, unknown>) => r.orgId ?? r.organizationId;
      const own = table.get(v)!;
      const others = [...table].filter(([id, r]) => id !== v && org(r) === org(own) && !r.deletedAt).map(([id]) => id);
      // None yet: the app makes one (a copy under a new ID), as a user would before moving the object there.
      if (others.length === 0) {
        const copy = { ...own, ...emu.store.newId(v.split("_")[0]!) };
        table.set(copy.id, copy);
        others.push(copy.id);
      }
      yield* others;
      return;
    }
    if (/^https?:\/\//.test(v)) yield* [`${v.replace(/\/$/, "")}/edited`, `${v}x`];
    else yield* [`${v} edited`, `${v}-edited`, `${v}x`, `${v.slice(0, -1)}y`, "edited", "🎉"];
  } else if (typeof v === "boolean") yield !v;
  else if (typeof v === "number") yield* [v + 1, v - 1];
  else if (Array.isArray(v)) {
    if (v.length > 0) yield v.slice(0, -1);
    for (let i = 0; i < v.length; i++) for (const x of variants(v[i], emu)) yield v.map((y, j) => (j === i ? x : y));
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) for (const y of variants(x, emu)) yield { ...v, [k]: y };
  }
}

/** The enum members of a field's schema, for a string value (which `variants` cannot know). */
function enumMembers(schema: z.ZodType): readonly unknown[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return enumMembers(schema.unwrap() as z.ZodType);
  return schema instanceof z.ZodEnum ? schema.options : [];
}

/** Declared fields the diff compares and GitBook changes in place. */
function editable(kind: string, declared: Record<string, unknown>, emu: Emulator) {
  const def = resources.find((r) => r.kind === kind)!;
  const shape = def.schema.shape as Record<string, z.ZodType>;
  return inPlaceFields(def)
    .filter((f) => declared[f] !== undefined)
    .map((f) => {
      const members = enumMembers(shape[f]!).filter((m) => m !== declared[f]);
      return { field: f, alt: members.length > 0 ? members : alternates(shape[f]!, declared[f], emu) };
    });
}

/** Fields declared by a lifecycle program for which no alternate value derives from the schema, with why. */
const UNDERIVED: Record<string, string[]> = {};

/**
 * Settings the subject declares here on top of its lifecycle program's, so that every field is edited:
 * what no value derived from the field's schema gives (test/support/derived.ts), or a value chosen.
 */
const CONDITION = "visitor.claims.staff == true";
const FULL: Record<string, Record<string, unknown>> = {
  Site: { visibility: "unlisted", published: false, basename: "docs", agentsContext: "included", proxy: "acme.test/docs", adaptiveContent: { enabled: true }, defaultLevel: "read" },
  SiteSection: { icon: "book", path: "guides", condition: CONDITION, description: "Start here", draft: false, default: true },
  SiteSpace: { condition: CONDITION, default: true },
  SiteSectionGroup: { icon: "layers", draft: false },
  SiteExternalLink: { description: "What changed", icon: "rss", draft: false, condition: CONDITION },
  Space: { language: "en", editMode: "live", defaultLevel: "read" },
  Collection: { defaultLevel: "read" },
  SiteRedirect: { permanent: true, captureWildcard: false },
  GitSyncInstallation: { projectDirectory: "", commitMessageTemplate: "docs: sync", previewExternalBranches: false },
};

const OLD_PATHS = "set by the provider, never declared: a rule deleted or changed in the app is provider/resources/oldPathRedirects.test.ts's";

/** Fields of a kind that no program here declares, with why; every other field GitBook can change in place is edited. */
const NOT_EDITED: Record<string, Record<string, string>> = {
  SiteSection: {
    groupId: "needs a group: moving a section in and out of groups in the app is this file's 'app edits, systematically'",
    default: "GitBook has no 'not the default': the app makes another section the default (this file's 'app edits, systematically')",
    oldPathRedirects: OLD_PATHS,
  },
  SiteSpace: {
    default: "GitBook has no 'not the default': the app makes another site space the default (this file's 'app edits, systematically')",
    oldPathRedirects: OLD_PATHS,
    pageId: "a page of the space shown, which no value derived from the schema is: provider/resources/siteSpace.test.ts edits it in the app",
  },
  SiteExternalLink: { groupId: "needs a group: moving a link in and out of groups in the app is this file's 'app edits, systematically'" },
  Space: { icon: "the program declares an emoji, and a space shows one or the other (provider/resources/space.test.ts edits an icon)" },
  Collection: { parent: "the lifecycle program has one collection (provider/resources/collection.test.ts moves one)" },
  SamlProvider: { defaultTeam: "needs a team" },
};

/** A value derived from its schema for each field GitBook changes in place that `declared` leaves out and NOT_EDITED does not name. */
function derived(kind: string, declared: Record<string, unknown>): Record<string, unknown> {
  const def = resources.find((r) => r.kind === kind)!;
  const shape = def.schema.shape as Record<string, z.ZodType>;
  const fields = inPlaceFields(def).filter((f) => declared[f] === undefined && !(f in (NOT_EDITED[kind] ?? {})));
  return Object.fromEntries(fields.map((f) => [f, derivedValue(shape[f]!)]).filter(([, v]) => v !== undefined));
}

describe.each(Object.values(scenarios))("$kind: each declared field edited in the app", (sc) => {
  const s = programSuite();

  it("refresh shows it, preview plans its update, up puts the declared value back, and a re-run sends nothing", async () => {
    const program = sc.program(s.env.emu, "base").map((d) => (d.name === "subject" ? { ...d, args: { ...derived(sc.kind, d.args), ...d.args, ...FULL[sc.kind] } } : d));
    await s.p.up(program);
    const subject = s.p.resource("subject");
    const fields = editable(sc.kind, subject.inputs, s.env.emu).filter((f) => !(f.field in (NOT_EDITED[sc.kind] ?? {})));
    const inPlace = inPlaceFields(resources.find((r) => r.kind === sc.kind)!);
    expect(inPlace.filter((f) => !fields.some((x) => x.field === f)).sort()).toEqual(Object.keys(NOT_EDITED[sc.kind] ?? {}).sort());
    const underived = fields.flatMap((f) => (Array.isArray(f.alt) ? [] : [`${f.field}: ${f.alt.none}`]));
    expect(underived).toEqual(UNDERIVED[sc.kind] ?? []);
    const edits = fields.flatMap((f) => (Array.isArray(f.alt) ? [{ field: f.field, values: f.alt }] : []));
    expect(edits.length).toBeGreaterThan(0);
    for (const { field, values } of edits) {
      const before = s.p.resource("subject");
      // The app's edit: another client changes the object; this provider's state knows nothing of it.
      // The first value GitBook takes (another space may already be shown there, say).
      const refusals: string[] = [];
      for (const value of values) {
        try {
          await s.env.up(sc.kind, { ...before.inputs, [field]: value }, { id: before.id, outs: before.outputs });
          break;
        } catch (e) {
          refusals.push((e as Error).message);
        }
      }
      expect({ field, refusals: refusals.length < values.length ? [] : refusals }).toEqual({ field, refusals: [] });
      s.env.outOfBand();
      const refreshed = (await s.p.refresh()).find((x) => x.name === "subject");
      expect({ field, refreshed: refreshed?.op, changed: refreshed?.changed?.includes(field) }).toEqual({ field, refreshed: "refresh", changed: true });
      const planned = (await s.p.preview()).find((x) => x.name === "subject");
      // (The in-process runner's `changed` compares raw inputs: a refreshed text source reads back as its hash.)
      expect({ field, planned: planned?.op, changed: planned?.changed?.includes(field) }).toEqual({ field, planned: "update", changed: true });
      await s.p.up();
      expect({ field, after: (await s.p.refresh()).filter((x) => x.op !== "same") }).toEqual({ field, after: [] });
      expect((await s.p.preview()).every((x) => x.op === "same")).toBe(true);
      s.env.emu.log.reset();
      expect((await s.p.up()).every((x) => x.op === "same")).toBe(true);
      expect(s.env.emu.log.count()).toBe(0);
    }
  });
});

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
 * `Alpha, Group [Gamma], Beta`, declared resource by resource and as a DocsSite's children, a copy of
 * both for each move, named after it ("in-site", "in-docs", ...). The order is the one source of where
 * a section without a groupId sits; a section with one sits where its groupId says.
 */
const MOVES = ["in-", "out-"] as const;
const placed = (e: Emulator, p: string): Decl[] => {
  const s = e.seeded.spaceIds;
  const form = (name: (n: string) => string): Decl[] => {
    const r = (n: string) => ref(`${name(n)}.id`);
    return [
      { kind: "Site", name: name("site"), args: { title: "Placement Docs" } },
      { kind: "SiteSection", name: name("alpha"), args: { siteId: r("site"), spaceId: s[0], title: "Alpha" } },
      { kind: "SiteSectionGroup", name: name("group"), args: { siteId: r("site"), title: "Group" } },
      { kind: "SiteSection", name: name("gamma"), args: { siteId: r("site"), spaceId: s[2], title: "Gamma", groupId: r("group") } },
      { kind: "SiteSection", name: name("beta"), args: { siteId: r("site"), spaceId: s[1], title: "Beta" } },
      { kind: "SiteStructureOrder", name: name("order"), args: { siteId: r("site"), items: [r("alpha"), r("group"), r("beta")], groups: [{ groupId: r("group"), items: [r("gamma")] }] } },
    ];
  };
  // The in-process runner has no components: the resources a DocsSite named "<p>docs" with sections
  // alpha, group grp [gamma], beta registers (provider/components/docsSite.ts), named as it names them.
  const docs = (n: string) => (n === "site" ? `${p}docs` : `${p}docs/${n === "group" ? "grp" : n}`);
  return [...form((n) => `${p}${n}`), ...form(docs)];
};
/** The resources of a copy by role: declared one by one, or as a DocsSite's children (named `<component>/<key>`). */
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
  edit(d: App, id: string): void;
  /** The live value, to compare with the declared one after `up`. */
  live(d: App, id: string): unknown;
  declared: unknown;
  /** The requests the next `up` needs to restore it: the fewest. */
  requests: Record<string, number>;
}

const st = (d: App) => d.emu.store;
/** The deployment as the rows see it: the emulator, and a resource of the program by name. */
interface App {
  emu: Emulator;
  resource(name: string): { id: string; inputs: Props; outputs: Props };
}
/** The site's top level, by program name. */
const topLevel = (p: string) => (d: App, siteId: string) => {
  const names = new Map(["alpha", "group", "link", "more"].map((n) => [d.resource(`${p}${n}`).id!, n]));
  return st(d).childrenOf(siteId, undefined).map((n) => names.get(n.record.id) ?? n.record.id);
};
const specOf = (d: App, id: string) => [...st(d).openApiSpecs.values()].find((x) => x.id === id || x.slug === id)!;

/**
 * One row per text field of a resource's object: the app writes "Edited in the app" (or the value
 * `edited` gives a field whose text has a form), and the next `up` restores the declared text with one
 * request on `restore`.
 */
function textRows(resource: string, table: (d: App) => Map<string, object>, declared: Record<string, string>, edited: Record<string, string>, restore: string): Row[] {
  const record = (d: App, id: string) => table(d).get(id) as Record<string, unknown>;
  return Object.entries(declared).map(([field, value]) => ({
    resource,
    field,
    edit: (d, id) => void (record(d, id)[field] = edited[field] ?? "Edited in the app"),
    live: (d, id) => record(d, id)[field],
    declared: value,
    requests: { [restore]: 1 },
  }));
}

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
  ...textRows("alpha", (d) => st(d).sections, { title: "Alpha", icon: "book", path: "alpha", description: "The first", condition: BETA }, { path: "edited", condition: "true" }, route.section),
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
  ...textRows("link", (d) => st(d).externalLinks, { title: "Blog", url: "https://blog.example.com", description: "News", icon: "rss", condition: BETA }, { url: "https://elsewhere.example.com/", condition: "true" }, route.link),
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
function navigation(d: App, siteId: string, groupId?: string): unknown[] {
  return st(d).childrenOf(siteId, groupId).map((n) => (n.type === "site-section-group" ? { [n.record.title]: navigation(d, siteId, n.record.id) } : n.record.title));
}

/** The Site of that name (a DocsSite's site has the component's name). */
const siteNamed = (d: App, name: string) => d.resource(name).id;

/** Moves a section as dragging it in the app does (undefined: to the top level). */
function moveSection(d: App, sectionId: string, groupId: string | undefined): void {
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

/**
 * App edits, systematically (issue 20): for each field a user can change in the GitBook app, one row
 * changes it out of band in the emulator's store; `refresh` must show it on the right resource and
 * field, the next `up` must restore the declared value with the fewest requests, and a preview must
 * then find nothing to do.
 *
 * One program holds one resource of each kind, and a copy of a resource for each further edit of it
 * that needs requests of its own (a team's members beside its title, a site's navigation dragged four
 * ways, a section's and a site space's default beside their other fields), so that rows run in
 * rounds. Rows restored by one PATCH of their own resource share it, each still shown among the up's
 * changed inputs on its own; every other row has its resources to itself, so the round's requests are
 * the sum of its rows'. The round is one refresh and one `up`, whose steps must be exactly the rows'
 * updates, each changing its field; that `up` leaves state as it was before the edits (checked on the
 * row's field in the outputs). In process (issue 40: these are the provider's decisions); how the CLI
 * shows such a diff is test/lifecycle/everyKind.test.ts's (its converging `up --diff`).
 */
describe("app edits, systematically", () => {
  const s = programSuite();
  let decls: Decl[];
  let app: App;
  /** Each resource's outputs once deployed: what state must hold again after each round's up. */
  let deployed: Record<string, Record<string, unknown>>;
  beforeAll(async () => {
    decls = program(s.env.emu);
    app = { emu: s.env.emu, resource: (n) => s.p.resource(n) };
    await s.p.up(decls);
    deployed = Object.fromEntries(s.p.names().map((n) => [n, structuredClone(s.p.resource(n).outputs)]));
  });
  const kindOf = (name: string) => decls.find((x) => x.name === name)!.kind;

  // The order, the schema and the publication are the site's.
  const idOf = (row: Row) => app.resource(row.resource).id;

  rounds(rows).forEach((round, i) => {
    it(`round ${i + 1}: ${round.map((r) => `${r.resource}.${r.field}`).join(", ")}: refresh shows each edit on its resource and field; up restores each with the fewest requests, updating nothing else`, async () => {
      const d = app;
      for (const row of round) row.edit(d, idOf(row));
      for (const row of round) expect(row.live(d, idOf(row)), `${row.resource}.${row.field} edited`).not.toEqual(row.declared);

      const before = Object.fromEntries(round.map((r) => [`${r.resource}.${r.field}`, d.resource(r.resource).outputs[r.field]]));
      await s.p.refresh();
      for (const row of round) expect(d.resource(row.resource).outputs[row.field], `${row.resource}.${row.field} in state after refresh`).not.toEqual(before[`${row.resource}.${row.field}`]);

      s.env.emu.log.reset();
      const up = await s.p.up();
      // Exactly the round's resources: anything else would be a change an earlier round left undone.
      const changed = up.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`);
      const expected = [...new Set(round.flatMap((r) => [r.resource, ...(r.alsoShows ?? [])]))].map((n) => `update ${n}`);
      expect(changed.sort()).toEqual(expected.sort());
      for (const row of round) expect(up.find((x) => x.name === row.resource)?.changed, `${row.resource}'s diff`).toContain(row.field);
      for (const row of round) expect(row.live(d, idOf(row)), `${row.resource}.${row.field} restored`).toEqual(row.declared);
      // And the question whether the token sees the organization, once; and, once per site whose
      // structure a row's resource changes, whether Git Sync owns that structure.
      const structureSites = new Set(
        [...new Set(round.flatMap((r) => [r.resource, ...(r.alsoShows ?? [])]))].filter((n) => STRUCTURE.has(kindOf(n))).map((n) => d.resource(n).outputs.siteId),
      );
      expect(s.env.emu.log.byRoute()).toEqual({ ...sum(round), [ORG_QUESTION]: 1, ...(structureSites.size > 0 ? { [GIT_SYNC_QUESTION]: structureSites.size } : {}) });
      for (const row of round) expect(d.resource(row.resource).outputs[row.field], `${row.resource}.${row.field} in state after up`).toEqual(deployed[row.resource]![row.field]);
    });
  });

  it("after the last round, nothing to do", async () => {
    expect((await s.p.preview()).filter((x) => x.op !== "same")).toEqual([]);
  });
});
