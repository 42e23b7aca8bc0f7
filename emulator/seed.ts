// The seed file: what an emulator holds when it starts, described as JSON (`--seed-file FILE`,
// `Emulator.start({ seedFile })`). Any object the emulator models can be seeded. Objects refer to one
// another by a local `key` the file gives them, never by an ID (IDs are generated, deterministically per
// `--seed`); `Emulator.seeded.ids` maps each key to the ID it got. examples/emulator/seed.json shows
// every kind.
//
// A file is checked whole before anything is created: each problem is reported as its path into the
// file and what is wrong, e.g. `sites[0].sections[1].title: required`.
import * as fs from "node:fs";
import { z } from "zod";

import { ApiError, LIMITS } from "./http";
import { checkAdaptiveSchema } from "./resources/adaptiveSchema";
import { applyOverrides, checkSiteCustomization, checkSiteSpaceOverrides, defaultCustomization } from "./resources/customization";
import {
  AGENTS_CONTEXTS,
  DEFAULT_LEVELS,
  GIT_PRIORITIES,
  GIT_PROVIDERS,
  OPENAPI_VISIBILITIES,
  ROLES,
  SITE_TYPES,
  SITE_VISIBILITIES,
  SPACE_EDIT_MODES,
  TEAM_ROLES,
  VISITOR_AUTH_BACKENDS,
  permissionKey,
  slugify,
  teamMemberKey,
  uniqueSlug,
  type Base,
  type OrgRecord,
  type PermissionTarget,
  type SectionRecord,
  type SiteRecord,
  type SpaceRecord,
  type Store,
} from "./store";

const between = (l: { min?: number; max: number }) => z.string().min(l.min ?? 0).max(l.max);
const key = z
  .string()
  .regex(/^[A-Za-z0-9][\w.-]*$/, "must be letters, digits, '_', '.' or '-'")
  .describe("the object's local key, which other objects of the file refer to");
const ref = (kind: string) => z.string().min(1).describe(`the key of a ${kind} of this file`);
const optionalText = z.string().max(1024).optional();

const siteSpaceSeed = z.strictObject({
  key: key.optional(),
  space: ref("space"),
  path: between(LIMITS.path).optional(),
  condition: between(LIMITS.condition).optional(),
  /** The site space's overrides of its site's customization, as a PATCH of them would send. */
  customization: z.record(z.string(), z.unknown()).optional(),
});

const seedSchema = z.strictObject({
  organization: z
    .strictObject({
      title: z.string().min(1).max(100),
      hostname: z.string().min(1).max(253).optional(),
      emailDomains: z.array(z.string().min(1)).optional(),
      type: z.enum(["business", "community"]).optional(),
      /** The Git providers whose GitBook app the account has authorised (the app's step): their Git Sync installations start authorised. */
      gitProviders: z.array(z.enum(GIT_PROVIDERS)).optional(),
    })
    .optional(),
  /** Repositories (GitLab: projects) the Git providers' apps show, by the provider's numeric ID; `files` by `branch:path`, a `gitbook-docs.yaml` as its parsed object. */
  gitRepositories: z
    .array(z.strictObject({ id: z.number().int().positive(), provider: z.enum(GIT_PROVIDERS), name: z.string().regex(/^[^/\s]+(\/[^/\s]+)+$/, "must be owner/name"), files: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
  members: z
    .array(
      z.strictObject({
        key: key.optional(),
        email: z.email(),
        displayName: z.string().min(1).max(100).optional(),
        /** null: a guest (no organization role). */
        role: z.enum(ROLES).nullable().optional(),
      }),
    )
    .optional(),
  collections: z
    .array(
      z.strictObject({
        key: key.optional(),
        title: z.string().min(1).max(100),
        description: z.string().max(500).optional(),
        parent: ref("collection").optional(),
        defaultLevel: z.enum(DEFAULT_LEVELS).nullable().optional(),
      }),
    )
    .optional(),
  spaces: z
    .array(
      z.strictObject({
        key: key.optional(),
        title: z.string().min(1).max(100),
        emoji: z.string().max(16).optional(),
        visibility: z.enum(["public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"]).optional(),
        collection: ref("collection").optional(),
        language: z.string().min(2).max(10).optional(),
        editMode: z.enum(SPACE_EDIT_MODES).optional(),
        defaultLevel: z.enum(DEFAULT_LEVELS).nullable().optional(),
      }),
    )
    .optional(),
  sites: z
    .array(
      z.strictObject({
        key: key.optional(),
        title: between(LIMITS.siteTitle),
        type: z.enum(SITE_TYPES).optional(),
        visibility: z.enum(SITE_VISIBILITIES).optional(),
        published: z.boolean().optional(),
        basename: between(LIMITS.siteBasename).optional(),
        /** Its custom hostname (the spec's SiteHostname), active and live, as one set up in the app is. */
        hostname: between(LIMITS.siteHostname).regex(LIMITS.siteHostname.pattern, "must be a lowercase DNS name of at least three labels, e.g. docs.acme.test").optional(),
        proxy: z.string().max(LIMITS.siteProxy.max).regex(LIMITS.siteProxy.pattern, "must be host/path, without a scheme").optional(),
        agentsContext: z.enum(AGENTS_CONTEXTS).optional(),
        adaptiveContent: z.boolean().optional(),
        /** Root-level site spaces: a site without sections only. */
        spaces: z.array(siteSpaceSeed).optional(),
        sectionGroups: z
          .array(
            z.strictObject({
              key: key.optional(),
              title: between(LIMITS.sectionTitle),
              icon: between(LIMITS.icon).optional(),
              draft: z.boolean().optional(),
              parent: ref("section group").optional(),
            }),
          )
          .optional(),
        /** In the order the site shows them; `space` becomes the section's default site space. */
        sections: z
          .array(
            z.strictObject({
              key: key.optional(),
              title: between(LIMITS.sectionTitle).optional(),
              space: ref("space"),
              path: between(LIMITS.path).optional(),
              description: between(LIMITS.sectionDescription).optional(),
              condition: between(LIMITS.condition).optional(),
              icon: between(LIMITS.icon).optional(),
              group: ref("section group").optional(),
              /** More site spaces of the section (variants), after the default one. */
              siteSpaces: z.array(siteSpaceSeed).optional(),
            }),
          )
          .optional(),
        links: z
          .array(
            z.strictObject({
              key: key.optional(),
              title: z.string().min(1).max(128),
              url: z.url(),
              description: optionalText,
              icon: between(LIMITS.icon).optional(),
              group: ref("section group").optional(),
              draft: z.boolean().optional(),
              condition: between(LIMITS.condition).optional(),
            }),
          )
          .optional(),
        shareLinks: z.array(z.strictObject({ key: key.optional(), name: between(LIMITS.shareLinkName), active: z.boolean().optional() })).optional(),
        /** Redirect rules to URLs (one per source and draft state). */
        redirects: z
          .array(
            z.strictObject({
              key: key.optional(),
              source: between(LIMITS.redirectSource).regex(LIMITS.redirectSource.pattern),
              url: z.url().max(LIMITS.redirectUrl.max),
              draft: z.boolean().optional(),
              permanent: z.boolean().optional(),
              captureWildcard: z.boolean().optional(),
            }),
          )
          .optional(),
        /** The site's visitor-claims JSON schema, stored as given. */
        adaptiveSchema: z.record(z.string(), z.unknown()).optional(),
        /** The site's customization: the settings given, over GitBook's defaults (a group's fields merged one by one). */
        customization: z.record(z.string(), z.unknown()).optional(),
        /** Its Git Sync installation, authorised and configured (the site's structure is taken to be the file's already). */
        gitSync: z
          .strictObject({
            key: key.optional(),
            provider: z.enum(GIT_PROVIDERS),
            repository: z.number().int().positive(),
            branch: z.string().regex(/^refs\/heads\/.+$/, "must be refs/heads/<branch>"),
            projectDirectory: z.string().optional(),
            priority: z.enum(GIT_PRIORITIES).optional(),
          })
          .optional(),
        /** Its visitor authentication settings (a private key is generated). */
        visitorAuth: z
          .strictObject({ backend: z.enum(VISITOR_AUTH_BACKENDS).optional(), fallbackURL: z.url().optional(), logoutURL: z.url().optional(), integration: z.string().min(1).optional() })
          .optional(),
      }),
    )
    .optional(),
  teams: z
    .array(
      z.strictObject({
        key: key.optional(),
        title: between(LIMITS.teamTitle),
        members: z.array(z.strictObject({ member: ref("member").describe("a member's key or e-mail"), role: z.enum(TEAM_ROLES).optional() })).optional(),
      }),
    )
    .optional(),
  /** Roles of teams and members on sites, spaces and collections. */
  permissions: z
    .array(
      z
        .strictObject({
          on: ref("site, space or collection"),
          team: ref("team").optional(),
          member: ref("member").describe("a member's key or e-mail").optional(),
          role: z.enum(ROLES),
        })
        .refine((g) => (g.team === undefined) !== (g.member === undefined), { message: "needs exactly one of team and member" }),
    )
    .optional(),
  samlProviders: z
    .array(
      z.strictObject({
        key: key.optional(),
        label: between(LIMITS.samlLabel),
        entityID: between(LIMITS.samlEntityID).optional(),
        certificate: between(LIMITS.samlCertificate).optional(),
        ssoURL: z.url().optional(),
        defaultTeam: ref("team").optional(),
        defaultRole: z.enum(ROLES).nullable().optional(),
      }),
    )
    .optional(),
  openApiSpecs: z
    .array(
      z
        .strictObject({
          key: key.optional(),
          slug: z.string().regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, '_' or '-'").max(100),
          url: z.url().optional(),
          text: z.string().min(1).optional(),
          visibility: z.enum(OPENAPI_VISIBILITIES).optional(),
        })
        .refine((s) => (s.url === undefined) !== (s.text === undefined), { message: "needs exactly one of url and text" }),
    )
    .optional(),
});

/** A seed file, as JSON. */
export type SeedFile = z.input<typeof seedSchema>;

/** What a seed created: the organization, every space and member (in file order), and the ID of each key. */
export interface Seeded {
  organizationId: string;
  spaceIds: string[];
  members: { id: string; email: string; displayName: string }[];
  /** The ID each `key` of the seed file got. */
  ids: Record<string, string>;
}

/** A seed file that cannot be used; `problems` are `path: what is wrong`, one per problem. */
export class SeedError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source}: ${problems.length === 1 ? problems[0] : `${problems.length} problems\n  ${problems.join("\n  ")}`}`);
  }
}

/** What the emulator holds when started without a seed file. */
export const DEFAULT_SEED: SeedFile = {
  organization: { title: "Acme Docs", hostname: "acme.gitbook.io", emailDomains: ["acme.test"] },
  spaces: [
    { title: "Getting started", emoji: "🚀" },
    { title: "API reference", emoji: "📘" },
    { title: "Guides", emoji: "🧭" },
    { title: "Changelog", emoji: "📝" },
    { title: "SDK for TypeScript", emoji: "🧩" },
    { title: "Internal handbook", emoji: "🔒", visibility: "private" },
  ],
  members: [
    { displayName: "Ada Lovelace", email: "ada@acme.test", role: "admin" },
    { displayName: "Grace Hopper", email: "grace@acme.test", role: "create" },
    { displayName: "Alan Turing", email: "alan@acme.test", role: "edit" },
    { displayName: "Katherine Johnson", email: "katherine@acme.test", role: "review" },
    { displayName: "Edsger Dijkstra", email: "edsger@acme.test", role: "read" },
  ],
};

/** `a.b[0].c` from a path of keys and indexes. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("") || "(file)";
}

/** Parses with zod; a failure is a list of `path: what is wrong` ("required" for what is missing). */
export function parseOrProblems<S extends z.ZodType>(schema: S, raw: unknown): { data: z.output<S> } | { problems: string[] } {
  const r = schema.safeParse(raw, { error: (iss) => (iss.input === undefined && iss.code === "invalid_type" ? "required" : undefined) });
  return r.success ? { data: r.data } : { problems: r.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`) };
}

/** Reads and checks a seed file; throws SeedError naming every problem. */
export function readSeedFile(file: string): SeedFile {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new SeedError(file, [e instanceof Error ? e.message : String(e)]);
  }
  return checkSeed(raw, file);
}

type Parsed = z.output<typeof seedSchema>;

/** Checks a seed (its shape, then that every key is unique and every reference names a key of the right kind). */
export function checkSeed(raw: unknown, source = "seed file"): SeedFile {
  const r = parseOrProblems(seedSchema, raw);
  if ("problems" in r) throw new SeedError(source, r.problems);
  const problems = checkKeys(r.data);
  if (problems.length > 0) throw new SeedError(source, problems);
  return r.data;
}

type Kind = "member" | "collection" | "space" | "site" | "section group" | "section" | "site space" | "link" | "share link" | "redirect" | "team" | "SAML provider" | "OpenAPI spec";

/** Every keyed object of a parsed seed, with its path and kind, in file order. */
function keyed(seed: Parsed): { key: string; kind: Kind; at: string }[] {
  const out: { key: string; kind: Kind; at: string }[] = [];
  const add = (items: { key?: string | undefined }[] | undefined, kind: Kind, at: string) =>
    items?.forEach((it, i) => it.key !== undefined && out.push({ key: it.key, kind, at: `${at}[${i}].key` }));
  add(seed.members, "member", "members");
  add(seed.collections, "collection", "collections");
  add(seed.spaces, "space", "spaces");
  add(seed.sites, "site", "sites");
  seed.sites?.forEach((s, i) => {
    add(s.spaces, "site space", `sites[${i}].spaces`);
    add(s.sectionGroups, "section group", `sites[${i}].sectionGroups`);
    add(s.sections, "section", `sites[${i}].sections`);
    s.sections?.forEach((sec, j) => add(sec.siteSpaces, "site space", `sites[${i}].sections[${j}].siteSpaces`));
    add(s.links, "link", `sites[${i}].links`);
    add(s.shareLinks, "share link", `sites[${i}].shareLinks`);
    add(s.redirects, "redirect", `sites[${i}].redirects`);
  });
  add(seed.teams, "team", "teams");
  add(seed.samlProviders, "SAML provider", "samlProviders");
  add(seed.openApiSpecs, "OpenAPI spec", "openApiSpecs");
  return out;
}

/** Parents that lead back to their child: the first member of each such loop, by path. */
function cycles(items: { key?: string | undefined; parent?: string | undefined }[] | undefined, at: string): string[] {
  const parentOf = new Map(items?.flatMap((x) => (x.key !== undefined ? [[x.key, x.parent] as const] : [])));
  const out: string[] = [];
  items?.forEach((x, i) => {
    if (x.key === undefined) return;
    const seen = new Set<string>();
    for (let k: string | undefined = x.parent; k !== undefined && !seen.has(k); k = parentOf.get(k)) seen.add(k);
    if (seen.has(x.key)) out.push(`${at}[${i}].parent: "${x.parent}" is inside "${x.key}" (parents may not loop)`);
  });
  return out;
}

/** A seed's customization: its settings over GitBook's defaults, a group's fields merged one by one. */
function siteCustomization(given: Record<string, unknown>, title?: string): Record<string, unknown> {
  return applyOverrides(defaultCustomization(title), given);
}

function checkKeys(seed: Parsed): string[] {
  const problems: string[] = [];
  const kinds = new Map<string, { kind: Kind; at: string }>();
  for (const k of keyed(seed)) {
    const first = kinds.get(k.key);
    if (first) problems.push(`${k.at}: "${k.key}" is already the key of ${first.at.replace(/\.key$/, "")}`);
    else kinds.set(k.key, k);
  }
  const expect = (value: string | undefined, kind: Kind, at: string, scope?: Set<string>) => {
    if (value === undefined) return;
    const found = kinds.get(value);
    if (!found) problems.push(`${at}: no ${kind} has the key "${value}"`);
    else if (found.kind !== kind) problems.push(`${at}: "${value}" is the key of a ${found.kind}, not of a ${kind}`);
    else if (scope && !scope.has(value)) problems.push(`${at}: ${kind} "${value}" belongs to another site`);
  };
  const emails = new Set(seed.members?.map((m) => m.email.toLowerCase()));
  seed.collections?.forEach((c, i) => expect(c.parent, "collection", `collections[${i}].parent`));
  seed.spaces?.forEach((s, i) => expect(s.collection, "collection", `spaces[${i}].collection`));
  problems.push(...cycles(seed.collections, "collections"));
  seed.sites?.forEach((site, i) => {
    const at = `sites[${i}]`;
    const groups = new Set(site.sectionGroups?.flatMap((g) => (g.key ? [g.key] : [])));
    if (site.spaces?.length && site.sections?.length) problems.push(`${at}.spaces: a site with sections holds its site spaces in them (sections[].siteSpaces)`);
    site.spaces?.forEach((ss, j) => expect(ss.space, "space", `${at}.spaces[${j}].space`));
    site.sectionGroups?.forEach((g, j) => expect(g.parent, "section group", `${at}.sectionGroups[${j}].parent`, groups));
    problems.push(...cycles(site.sectionGroups, `${at}.sectionGroups`));
    site.sections?.forEach((sec, j) => {
      expect(sec.space, "space", `${at}.sections[${j}].space`);
      expect(sec.group, "section group", `${at}.sections[${j}].group`, groups);
      sec.siteSpaces?.forEach((ss, k) => expect(ss.space, "space", `${at}.sections[${j}].siteSpaces[${k}].space`));
    });
    if (site.links?.length && !site.sections?.length) problems.push(`${at}.links: a site without sections has no structure to put links in`);
    site.links?.forEach((l, j) => expect(l.group, "section group", `${at}.links[${j}].group`, groups));
    // Checked as the PUT and PATCH that would set them are.
    const asApi = (check: () => unknown) => {
      try {
        check();
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        problems.push(e.message);
      }
    };
    if (site.customization !== undefined) asApi(() => checkSiteCustomization(siteCustomization(site.customization!), `${at}.customization`));
    const siteSpaces = [...(site.spaces ?? []).map((ss, k) => ({ ss, where: `${at}.spaces[${k}]` })), ...(site.sections ?? []).flatMap((sec, j) => (sec.siteSpaces ?? []).map((ss, k) => ({ ss, where: `${at}.sections[${j}].siteSpaces[${k}]` })))];
    for (const { ss, where } of siteSpaces) if (ss.customization !== undefined) asApi(() => checkSiteSpaceOverrides(ss.customization, `${where}.customization`));
    if (site.adaptiveSchema !== undefined) {
      // The schema GitBook's spec accepts, checked as a PUT of it is.
      try {
        checkAdaptiveSchema(site.adaptiveSchema, `${at}.adaptiveSchema`);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        problems.push(e.message);
      }
    }
  });
  seed.teams?.forEach((t, i) =>
    t.members?.forEach((m, j) => {
      if (!emails.has(m.member.toLowerCase())) expect(m.member, "member", `teams[${i}].members[${j}].member`);
    }),
  );
  seed.samlProviders?.forEach((p, i) => expect(p.defaultTeam, "team", `samlProviders[${i}].defaultTeam`));
  seed.permissions?.forEach((g, i) => {
    const on = kinds.get(g.on)?.kind;
    if (on !== "site" && on !== "space" && on !== "collection") problems.push(`permissions[${i}].on: no site, space or collection has the key "${g.on}"`);
    expect(g.team, "team", `permissions[${i}].team`);
    if (g.member !== undefined && !emails.has(g.member.toLowerCase())) expect(g.member, "member", `permissions[${i}].member`);
  });
  return problems;
}

/**
 * Creates what a (checked) seed describes in an empty store: the records the API would have made,
 * with its defaults and side effects (a section's space becomes its default site space, paths are
 * unique slugs of titles, the first section is the default).
 */
export function applySeed(store: Store, seed: SeedFile): Seeded {
  const s = seed as Parsed;
  const ids: Record<string, string> = {};
  const keep = <T extends Base>(table: Map<string, T>, record: T, k: string | undefined): T => {
    table.set(record.id, record);
    if (k !== undefined) ids[k] = record.id;
    return record;
  };
  const byKey = (k: string) => ids[k]!;

  const o = s.organization ?? DEFAULT_SEED.organization!;
  const org = keep<OrgRecord>(
    store.orgs,
    { ...store.newId("org"), title: o.title, hostname: o.hostname ?? `${slugify(o.title)}.gitbook.io`, emailDomains: o.emailDomains ?? [], ...(o.type && { type: o.type }), ...(o.gitProviders && { gitProviders: o.gitProviders }) },
    undefined,
  );

  const cols = (s.collections ?? []).map((c) =>
    keep(store.collections, { ...store.newId("col"), orgId: org.id, title: c.title, description: c.description ?? "", defaultLevel: c.defaultLevel === undefined ? "inherit" : c.defaultLevel }, c.key),
  );
  // Parents once every collection exists: a file may name a parent below its child.
  s.collections?.forEach((c, i) => c.parent !== undefined && (cols[i]!.parentId = byKey(c.parent)));

  const spaceIds = (s.spaces ?? []).map((sp) => {
    const base = store.newId("spc");
    const space: SpaceRecord = {
      ...base,
      orgId: org.id,
      title: sp.title,
      emoji: sp.emoji ?? "",
      visibility: sp.visibility ?? "in-collection",
      updatedAt: base.createdAt,
      revision: `rev_${store.randomString(10)}`,
      ...(sp.collection !== undefined && { parentId: byKey(sp.collection) }),
      ...(sp.language !== undefined && { language: sp.language }),
      ...(sp.editMode !== undefined && { editMode: sp.editMode }),
      ...(sp.defaultLevel !== undefined && { defaultLevel: sp.defaultLevel }),
    };
    return keep(store.spaces, space, sp.key).id;
  });

  const members = (s.members ?? []).map((m) => {
    const displayName = m.displayName ?? m.email.split("@")[0]!;
    const rec = keep(store.members, { ...store.newId("usr"), orgId: org.id, email: m.email, displayName, role: m.role === undefined ? "read" : m.role }, m.key);
    return { id: rec.id, email: m.email, displayName };
  });

  const siteIds = (s.sites ?? []).map((st) => seedSite(store, org, st, ids, keep));

  for (const t of s.teams ?? []) {
    const team = keep(store.teams, { ...store.newId("team"), orgId: org.id, title: t.title }, t.key);
    for (const m of t.members ?? []) {
      const userId = ids[m.member] ?? store.findMember(org.id, m.member)!.id;
      const { seq, createdAt } = store.newId("tm");
      const id = teamMemberKey(team.id, userId);
      store.teamMembers.set(id, { id, seq, createdAt, teamId: team.id, userId, role: m.role ?? "member" });
    }
  }
  for (const p of s.samlProviders ?? []) {
    keep(
      store.samlProviders,
      {
        ...store.newId("saml"),
        orgId: org.id,
        label: p.label,
        defaultRole: p.defaultRole === undefined ? "read" : p.defaultRole,
        ...(p.entityID !== undefined && { entityID: p.entityID }),
        ...(p.certificate !== undefined && { certificate: p.certificate }),
        ...(p.ssoURL !== undefined && { ssoURL: p.ssoURL }),
        ...(p.defaultTeam !== undefined && { defaultTeamId: byKey(p.defaultTeam) }),
      },
      p.key,
    );
  }
  for (const o of s.openApiSpecs ?? []) {
    // Seeded as processed: one version, of the source given.
    const base = store.newId("oas");
    const v = store.newId("oasv");
    const source = o.url !== undefined ? { url: o.url } : { text: o.text! };
    keep(store.openApiSpecs, { ...base, orgId: org.id, slug: o.slug, source, updatedAt: base.createdAt, visibility: o.visibility ?? "private", processingState: "complete", pendingReads: 0, lastVersionId: v.id, lastProcessedAt: v.createdAt }, o.key);
    const url = o.url ?? `https://api.gitbook.com/openapi/projects/${org.id}/${o.slug}/versions/${v.id}/openapi.json`;
    store.openApiVersions.set(v.id, { ...v, specId: base.id, url, ...(o.text !== undefined && { text: o.text }) });
  }
  // Access last, so that adding it to a file leaves every other object's ID as it was.
  (s.sites ?? []).forEach((st, i) => {
    if (st.visitorAuth === undefined) return;
    const siteId = siteIds[i]!;
    const { seq, createdAt } = store.newId("auth");
    const a = st.visitorAuth;
    store.publishingAuths.set(siteId, {
      id: siteId,
      seq,
      createdAt,
      backend: a.backend ?? "custom",
      privateKey: `va_${store.randomString(40)}`,
      ...(a.fallbackURL !== undefined && { fallbackURL: a.fallbackURL }),
      ...(a.logoutURL !== undefined && { logoutURL: a.logoutURL }),
      ...(a.integration !== undefined && { integration: a.integration }),
    });
  });
  const targetOf = new Map<string, PermissionTarget>([
    ...(s.sites ?? []).flatMap((x) => (x.key ? [[x.key, "site"] as const] : [])),
    ...(s.spaces ?? []).flatMap((x) => (x.key ? [[x.key, "space"] as const] : [])),
    ...(s.collections ?? []).flatMap((x) => (x.key ? [[x.key, "collection"] as const] : [])),
  ]);
  for (const g of s.permissions ?? []) {
    const target = targetOf.get(g.on)!;
    const [principal, principalId] = g.team !== undefined ? (["team", byKey(g.team)] as const) : (["user", ids[g.member!] ?? store.findMember(org.id, g.member!)!.id] as const);
    const id = permissionKey(target, byKey(g.on), principal, principalId);
    store.permissions.set(id, { ...store.newId("perm"), id, target, targetId: byKey(g.on), principal, principalId, role: g.role });
  }
  // Custom hostnames last too, for the same reason.
  (s.sites ?? []).forEach((st, i) => {
    if (st.hostname === undefined) return;
    const { seq, createdAt } = store.newId("host");
    store.customHostnames.set(st.hostname, { id: st.hostname, seq, createdAt, targetType: "site", targetId: siteIds[i]!, isActive: true, status: "live" });
  });
  // Git Sync last too.
  for (const r of s.gitRepositories ?? []) {
    const { seq, createdAt } = store.newId("repo");
    store.gitRepositories.set(String(r.id), { id: String(r.id), seq, createdAt, provider: r.provider, name: r.name, files: r.files ?? {} });
  }
  (s.sites ?? []).forEach((st, i) => {
    const g = st.gitSync;
    if (g === undefined) return;
    const base = store.newId("gitinst");
    const rec = { ...base, orgId: org.id, provider: g.provider, targetType: "site" as const, targetId: siteIds[i]!, authorized: true, createdBy: "usr_emulator", updatedAt: base.createdAt, repositoryId: g.repository, branch: g.branch, priority: g.priority ?? "git" };
    keep(store.gitInstallations, g.projectDirectory !== undefined ? { ...rec, projectDirectory: g.projectDirectory } : rec, g.key);
  });
  return { organizationId: org.id, spaceIds, members, ids };
}

type Keep = <T extends Base>(table: Map<string, T>, record: T, k: string | undefined) => T;

/** Seeds one site and what it holds; answers the site's ID. */
function seedSite(store: Store, org: OrgRecord, st: NonNullable<Parsed["sites"]>[number], ids: Record<string, string>, keep: Keep): string {
  const byKey = (k: string) => ids[k]!;
  const basenames = [...store.sites.values()].filter((x) => x.orgId === org.id).map((x) => x.basename);
  const site: SiteRecord = keep(
    store.sites,
    {
      ...store.newId("site"),
      orgId: org.id,
      type: st.type ?? (org.type === "community" ? "sponsored" : "ultimate"),
      title: st.title,
      basename: st.basename ?? uniqueSlug(slugify(st.title), basenames),
      visibility: st.visibility ?? "public",
      published: st.published ?? false,
      agentsContext: st.agentsContext ?? "excluded",
      adaptiveContent: { enabled: st.adaptiveContent ?? false },
      ...(st.hostname !== undefined && { hostname: st.hostname }),
      ...(st.proxy !== undefined && { proxy: st.proxy }),
    },
    st.key,
  );
  const addSiteSpace = (ss: { key?: string | undefined; space: string; path?: string | undefined; condition?: string | undefined; customization?: Record<string, unknown> | undefined }, sectionId: string | undefined) => {
    const taken = [...store.siteSpaces.values()].filter((x) => x.siteId === site.id && x.sectionId === sectionId).map((x) => x.path);
    const spaceId = byKey(ss.space);
    const made = keep(
      store.siteSpaces,
      {
        ...store.newId("sitesp"),
        siteId: site.id,
        spaceId,
        path: ss.path ?? uniqueSlug(slugify(store.spaces.get(spaceId)!.title), taken),
        ...(sectionId !== undefined && { sectionId }),
        ...(ss.condition !== undefined && { condition: ss.condition }),
      },
      ss.key,
    );
    if (ss.customization !== undefined) {
      const { seq, createdAt } = store.newId("sscust");
      store.siteSpaceCustomizations.set(made.id, { id: made.id, seq, createdAt, siteId: site.id, siteSpaceId: made.id, overrides: applyOverrides({}, ss.customization), updatedAt: createdAt });
    }
    return made;
  };
  for (const ss of st.spaces ?? []) addSiteSpace(ss, undefined);
  const groups = (st.sectionGroups ?? []).map((g) =>
    keep(store.sectionGroups, { ...store.newId("sitesg"), siteId: site.id, title: g.title, draft: g.draft ?? false, sectionIds: [], ...(g.icon !== undefined && { icon: g.icon }) }, g.key),
  );
  st.sectionGroups?.forEach((g, i) => g.parent !== undefined && (groups[i]!.parentId = byKey(g.parent)));
  const sections = (st.sections ?? []).map((sec) => {
    const spaceId = byKey(sec.space);
    const taken = [...store.sections.values()].filter((x) => x.siteId === site.id).map((x) => x.path);
    const section: SectionRecord = keep(
      store.sections,
      {
        ...store.newId("sitesc"),
        siteId: site.id,
        title: sec.title ?? null,
        spaceId,
        path: sec.path ?? uniqueSlug(slugify(sec.title ?? store.spaces.get(spaceId)!.title), taken),
        ...(sec.description !== undefined && { description: sec.description }),
        ...(sec.condition !== undefined && { condition: sec.condition }),
        ...(sec.icon !== undefined && { icon: sec.icon }),
      },
      sec.key,
    );
    if (sec.group !== undefined) store.sectionGroups.get(byKey(sec.group))!.sectionIds.push(section.id);
    section.defaultSiteSpaceId = addSiteSpace({ space: sec.space }, section.id).id;
    for (const ss of sec.siteSpaces ?? []) addSiteSpace(ss, section.id);
    return section;
  });
  const links = (st.links ?? []).map((l) =>
    keep(
      store.externalLinks,
      {
        ...store.newId("sitel"),
        siteId: site.id,
        title: l.title,
        url: l.url,
        draft: l.draft ?? false,
        ...(l.description !== undefined && { description: l.description }),
        ...(l.icon !== undefined && { icon: l.icon }),
        ...(l.group !== undefined && { groupId: byKey(l.group) }),
        ...(l.condition !== undefined && { condition: l.condition }),
      },
      l.key,
    ),
  );
  // The structure in file order: each section, link and group where the first of them it holds
  // appears (the API would list them in creation order, which puts every group first).
  const parentOf = new Map(groups.map((g) => [g.id, g.parentId]));
  const chain = (groupId: string | undefined, id: string): string[] => {
    const out = [id];
    for (let g = groupId; g !== undefined; g = parentOf.get(g)) out.unshift(g);
    return out;
  };
  const containers = new Map<string | undefined, string[]>();
  const items = [
    ...sections.map((sec, i) => chain(st.sections![i]!.group === undefined ? undefined : byKey(st.sections![i]!.group!), sec.id)),
    ...links.map((l) => chain(l.groupId, l.id)),
    ...groups.map((g) => chain(g.parentId, g.id)),
  ];
  for (const ids of items) {
    ids.forEach((id, i) => {
      const container = i === 0 ? undefined : ids[i - 1];
      const list = containers.get(container) ?? [];
      containers.set(container, list);
      if (!list.includes(id)) list.push(id);
    });
  }
  for (const list of containers.values()) store.setOrder(list);
  for (const l of st.shareLinks ?? []) keep(store.shareLinks, { ...store.newId("shl"), siteId: site.id, name: l.name, active: l.active ?? true, key: store.randomString(24) }, l.key);
  if (st.customization !== undefined) {
    const { seq, createdAt } = store.newId("sitecust");
    store.siteCustomizations.set(site.id, { id: site.id, seq, createdAt, siteId: site.id, settings: siteCustomization(st.customization, site.title), updatedAt: createdAt });
  }
  for (const r of st.redirects ?? []) {
    const rule = { source: r.source, draft: r.draft ?? false, captureWildcard: r.captureWildcard ?? false, permanent: r.permanent ?? false, destination: { kind: "external", url: r.url } };
    keep(store.siteRedirects, { ...store.newId("redir"), siteId: site.id, ...rule }, r.key);
  }
  if (st.adaptiveSchema !== undefined) {
    const { seq, createdAt } = store.newId("adschema");
    store.adaptiveSchemas.set(site.id, { id: site.id, seq, createdAt, siteId: site.id, jsonSchema: st.adaptiveSchema, updatedAt: createdAt });
  }
  return site.id;
}
