/**
 * The main pulumi-gitbook example: one docs site whose navigation (sections with their site spaces,
 * a section group, external links, a space the program creates) shows in the order declared, some of
 * it only to visitors whose claims (the site's visitor schema) match; its branding, redirects from old
 * paths (production) and an access list giving a team whose members are named by e-mail its role on
 * the site; single sign-on in production, and the API reference generated from openapi.yaml beside
 * this file (read by the provider, kept out of state).
 *
 * Everything that varies comes from stack config (Pulumi.yaml at the repository root holds what
 * all stacks share; Pulumi.<stack>.yaml beside this file holds what differs). The config is checked
 * before any resource is declared, and every mistake is reported against its config key, e.g.
 * `docs-site:sections[1].title: must be 2 to 128 characters (got fewer)`, so a bad value fails
 * `pulumi preview` without a single API request.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import {
  AccessList,
  DocsSite,
  OpenApiSpec,
  SamlProvider,
  Team,
  validateTopology,
  type DocsSiteEntry,
  type DocsSiteGroup,
  type DocsSiteLink,
  type DocsSiteSection,
  type DocsSiteSpace,
  type DocsSiteTopology,
} from "pulumi-gitbook";
import { z } from "zod";

const config = new pulumi.Config();
const problems: string[] = [];

/** Reads one config key and checks it; a mistake is recorded against the key and the value's path in it. */
function read<S extends z.ZodType>(key: string, schema: S, opts: { json: boolean; missing?: string }): z.output<S> | undefined {
  const raw = config.get(key);
  if (raw === undefined && !schema.safeParse(undefined).success) {
    problems.push(`${config.name}:${key}: is required${opts.missing ? `: ${opts.missing}` : ""}`);
    return undefined;
  }
  let value: unknown = raw;
  if (raw !== undefined && opts.json) {
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push(`${config.name}:${key}: must be structured (a YAML list or map), not ${JSON.stringify(raw)}`);
      return undefined;
    }
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) problems.push(`${config.name}:${key}${pathText(issue.path)}: ${issue.message}`);
  return undefined;
}

function pathText(p: readonly PropertyKey[]): string {
  return p.map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`)).join("");
}

// ---- Config ------------------------------------------------------------------------------------------
// Field limits of the site, its sections and share links are checked by DocsSite (see validateTopology
// below); these schemas check what only this program knows: its config's shape and how names resolve.

const spaceName = z.string({ error: "must be the name of a space in docs-site:spaces" }).min(1, "must not be empty");

/** A space named in docs-site:spaces, or one for the program to create ({title, emoji}). */
const spaceRef = z.union([spaceName, z.looseObject({ title: z.string() })], { error: "must be the name of a space in docs-site:spaces, or {title, emoji} to create one" });
const siteSpaceEntry = z.looseObject({ space: spaceRef });
const sectionEntry = z.looseObject({
  type: z.literal("section").optional(),
  space: spaceRef,
  siteSpaces: z.array(siteSpaceEntry, { error: "must be a list" }).optional(),
});
const linkEntry = z.looseObject({ type: z.literal("link") });
const groupEntry = z.looseObject({ type: z.literal("group"), sections: z.array(z.discriminatedUnion("type", [sectionEntry, linkEntry]), { error: "must be a list" }) });
const navigationEntry = z.discriminatedUnion("type", [sectionEntry, groupEntry, linkEntry], { error: "must be a section, a group (type: group) or a link (type: link)" });

const title = read("title", z.string(), { json: false });
const visibility = read("visibility", z.string().default("public"), { json: false });
const published = read("published", z.boolean({ error: "must be true or false" }).default(false), { json: true });
// The site's branding and redirect rules: their fields are DocsSite's to check (validateTopology below).
const branding = read("branding", z.record(z.string(), z.unknown(), { error: "must be a map of branding settings" }).optional(), { json: true });
const redirects = read("redirects", z.array(z.looseObject({}), { error: "must be a list of redirect rules" }).optional(), { json: true });
const adaptiveContent = read("adaptiveContent", z.boolean({ error: "must be true or false" }).default(false), { json: true });
const spaces = read(
  "spaces",
  z.record(z.string(), z.string({ error: "must be a space ID" }).min(1, "must be a space ID"), { error: "must map space names to space IDs" }),
  { json: true, missing: "a map of space names to the space IDs of your organization (pulumi config set --path 'docs-site:spaces.<name>' <space-id>)" },
);
const sections = read("sections", z.array(navigationEntry, { error: "must be a list of sections" }), { json: true });
// Checked against GitBook's rules by DocsSite (a JSON object here).
const visitorSchema = read("visitorSchema", z.record(z.string(), z.unknown(), { error: "must be a JSON schema object" }).optional(), { json: true });
const shareLinks = read("shareLinks", z.array(z.looseObject({}), { error: "must be a list of share links" }).default([]), { json: true });
const team = read(
  "team",
  z.strictObject(
    {
      title: z.string({ error: "must be a string" }).min(1, "must be 1 to 64 characters").max(64, "must be 1 to 64 characters"),
      members: z.array(
        z.strictObject({
          user: z.email("must be the e-mail address of a member of the organization"),
          role: z.enum(["owner", "member"], { error: "must be owner or member" }).default("member"),
        }),
        { error: "must be a list of {user, role}" },
      ),
    },
    { error: "must be {title, members}" },
  ),
  { json: true, missing: "{title, members}" },
);
const saml = read(
  "saml",
  z
    .strictObject(
      {
        label: z.string({ error: "must be a string" }).min(1, "must be 1 to 30 characters").max(30, "must be 1 to 30 characters"),
        entityID: z.string().max(1024, "must be at most 1024 characters").optional(),
        ssoURL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
        certificate: z.string().max(10000, "must be at most 10000 characters").optional(),
        defaultRole: z.enum(["admin", "create", "review", "edit", "comment", "read"], { error: "must be admin, create, review, edit, comment or read" }).nullable().optional(),
      },
      { error: "must be {label, entityID, ssoURL, certificate, defaultRole}" },
    )
    .optional(),
  { json: true },
);
// The writers' role on the site (an AccessList: the only team grant on it).
const writersRole = read(
  "writersRole",
  z.enum(["admin", "create", "edit", "review", "comment", "read"], { error: "must be admin, create, edit, review, comment or read" }).default("edit"),
  { json: false },
);
const openApiSlug = read(
  "openApiSlug",
  z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case letters and digits in words joined by single hyphens").max(100, "must be at most 100 characters").default("acme-api"),
  { json: false },
);
const openApiVisibility = read("openApiVisibility", z.enum(["private", "public"], { error: "must be private or public" }).default("private"), { json: false });

/**
 * The space ID a name stands for. An unknown name is a problem reported where it was used; the name
 * then stands in for the ID so the topology can still be checked (nothing is declared after a problem).
 */
function spaceId(name: string, where: string): string {
  const id = spaces?.[name];
  if (id === undefined && spaces !== undefined) {
    problems.push(`${where}: names no space in ${config.name}:spaces; set it with pulumi config set --path '${config.name}:spaces.${name}' <space-id>`);
  }
  return id ?? `(space ${name})`;
}

/** The space of an entry: an ID looked up by name, or a space to create. */
function spaceOf(ref: string | { title: string }, where: string): { spaceId: string } | { space: DocsSiteSpace } {
  return typeof ref === "string" ? { spaceId: spaceId(ref, where) } : { space: ref as DocsSiteSpace };
}

function sectionOf(s: z.output<typeof sectionEntry>, at: string): DocsSiteSection {
  const { space, siteSpaces, ...rest } = s;
  return {
    ...(rest as Omit<DocsSiteSection, "spaceId" | "space" | "siteSpaces">),
    ...spaceOf(space, `${at}.space`),
    ...(siteSpaces ? { siteSpaces: siteSpaces.map(({ space: ss, ...r }, j) => ({ ...(r as { key: string }), ...spaceOf(ss, `${at}.siteSpaces[${j}].space`) })) } : {}),
  };
}

function entryOf(e: z.output<typeof navigationEntry>, at: string): DocsSiteEntry {
  if (e.type === "link") return e as unknown as DocsSiteLink;
  if (e.type === "group") {
    const { sections: inGroup, ...rest } = e;
    const items = inGroup.map((x, j) => (x.type === "link" ? (x as unknown as DocsSiteLink) : sectionOf(x, `${at}.sections[${j}]`)));
    // The fields are DocsSite's to check (validateTopology below), against the config key they came from.
    return { ...(rest as unknown as Omit<DocsSiteGroup, "sections">), type: "group", sections: items };
  }
  return sectionOf(e, at);
}

const topology: DocsSiteTopology = {
  site: {
    title: title ?? "",
    visibility: visibility as DocsSiteTopology["site"]["visibility"],
    adaptiveContent: { enabled: adaptiveContent ?? false },
    // Only where the stack publishes: the site then goes live after its navigation exists.
    ...(published ? { published: true } : {}),
  },
  sections: (sections ?? []).map((e, i) => entryOf(e, `${config.name}:sections[${i}]`)),
  shareLinks: shareLinks as DocsSiteTopology["shareLinks"],
  ...(visitorSchema ? { visitorSchema: visitorSchema as DocsSiteTopology["visitorSchema"] } : {}),
  ...(branding ? { branding: branding as DocsSiteTopology["branding"] } : {}),
  ...(redirects ? { redirects: redirects as DocsSiteTopology["redirects"] } : {}),
};

// DocsSite's own check, reported against the config key each value came from.
if (sections !== undefined && title !== undefined) {
  for (const p of validateTopology(topology)) {
    problems.push(`${configKeyOf(p.path)}: ${p.path ? p.message.slice(p.path.length + 1) : p.message}`);
  }
}

/** `sections[1].spaceId` -> `docs-site:sections[1].space`, `site.title` -> `docs-site:title`. */
function configKeyOf(topologyPath: string): string {
  const site = /^site\.(title|visibility|adaptiveContent|published)\b/.exec(topologyPath);
  if (site) return `${config.name}:${site[1]}`;
  return `${config.name}:${topologyPath.replace(/\.spaceId$/, ".space")}`;
}

if (problems.length) {
  // RunError: Pulumi prints the message alone, without a stack trace of this program. The stack is
  // dropped all the same: @pulumi/pulumi 3.248 also formats every uncaught error with util.inspect,
  // and Node 20.20's util.inspect loops on frames such as "node_modules/@pulumi/resource.ts" (which
  // the SDK's source maps produce) until the string is too long: 15 s and 3 GB before the message.
  const error = new pulumi.RunError(`invalid stack configuration:\n  ${problems.join("\n  ")}`);
  error.stack = `${error.name}: ${error.message}`;
  throw error;
}

// ---- Resources ---------------------------------------------------------------------------------------

const docs = new DocsSite("docs", topology);

const writers = new Team("docs-writers", { title: team!.title, members: team!.members });

// The writers' team is the only team with a grant on the site: a grant added in the app is removed by
// the next `up` (the list is authoritative), so who may edit the docs is reviewed here.
new AccessList("docs-access", { siteId: docs.siteId, teams: [{ teamId: writers.id, role: writersRole! }] });

// Members sign in through the company's identity provider and land in the writers' team.
const sso = saml ? new SamlProvider("sso", { ...saml, defaultTeam: writers.id }) : undefined;

// The provider reads the file (at preview, to hash it, and when it sends it): state keeps its path
// and SHA-256, never the document, and an edit to openapi.yaml shows in the next preview.
const api = new OpenApiSpec("api-spec", {
  slug: openApiSlug!,
  source: { file: specFile() },
  visibility: openApiVisibility!,
});

/**
 * openapi.yaml stays beside the program's sources: `tsc` emits only JavaScript into dist/, so the
 * compiled program looks for it there when it is not beside itself. The path is given relative to
 * the working directory, which Pulumi sets to the folder of `main` for the program and the provider
 * alike, so state holds the same path on every machine.
 */
function specFile(): string {
  const beside = path.join(__dirname, "openapi.yaml");
  const file = fs.existsSync(beside) ? beside : path.resolve(__dirname, "../../../examples/docs-site/openapi.yaml");
  return path.relative(process.cwd(), file);
}

// ---- Outputs -----------------------------------------------------------------------------------------

export = {
  siteId: docs.siteId,
  siteUrl: docs.siteUrls.apply((u) => u.published ?? u.location ?? ""),
  sectionIds: docs.sectionIds,
  siteSpaceIds: docs.siteSpaceIds,
  // Secret: each URL opens the site without signing in. Read with `pulumi stack output --show-secrets`.
  shareLinkUrls: docs.shareLinkUrls,
  teamId: writers.id,
  // What the identity provider's admin registers for GitBook; only where SSO is configured.
  ...(sso ? { singleSignOn: { acsURL: sso.acsURL, entityID: sso.serviceEntityID, startURL: sso.startURL, status: sso.status } } : {}),
  apiSpec: { slug: api.slug, processingState: api.processingState, url: api.urls.apply((u) => u.published ?? u.app ?? "") },
};
