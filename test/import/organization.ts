/**
 * A realistic organization for the importer's tests, built through the API as a user's clicks in
 * the GitBook app would build it (the emulator seeds only the organization, its spaces and members):
 *
 * - "Acme Developer Docs": public and published, branded (title, theme, colours, logo, header links,
 *   favicon, footer), with a proxy, the custom hostname docs.acme.test, adaptive content on and a visitor
 *   schema whose claims its conditions use; 5 sections (the second one the default, one with a
 *   condition), 4 of them in 2 section groups; 3 further site spaces (conditions, a custom path, a
 *   section whose default is not the space it was made from), one of them (the TypeScript variant of
 *   "Guides") with its own title and colour over the site's branding; 2 external links, one in a group,
 *   one with a condition. Its navigation is sorted so that no container is in creation order: the
 *   "Reference" group before "Build", the link first in "Reference", the site spaces of "Guides"
 *   swapped.
 * - "Acme Partner Portal": a premium `share-link` site, not published, 3 sections, 1 further site
 *   space with a condition, and 3 share links, one of them revoked.
 * - The spaces: "Guides" (in English, locked) in the collection "Acme products", "SDK for TypeScript"
 *   in its collection "SDKs"; "Internal handbook" readable by every member.
 * - Teams "Docs writers" and "Developer relations", each with an owner and members.
 * - Access: "Docs writers" edits and Grace reviews the Developer Docs site; both teams administer
 *   "Guides"; "Developer relations" reads "Acme products"; the Partner Portal has a visitor-auth fallback URL.
 * - A SAML provider with every setting, its default team one of the teams; another with only an
 *   entity ID, whose new users join as guests.
 * - OpenAPI specs "acme-api" (from a URL, public) and "internal-api" (uploaded as text, private).
 *
 * 8 sections, 12 site spaces, 6 spaces and 2 collections in all.
 */
import { GitbookClient, p } from "../../provider/client";
import { ApiSiteExternalLink } from "../../provider/resources/siteExternalLink";
import { ApiSiteSection } from "../../provider/resources/siteSection";
import { ApiSiteSectionGroup } from "../../provider/resources/siteSectionGroup";
import { ApiSiteSpace } from "../../provider/resources/siteSpace";
import { ApiCollection } from "../../provider/resources/collection";
import { ApiOpenApiSpec } from "../../provider/resources/openApiSpec";
import { ApiSamlProvider } from "../../provider/resources/samlProvider";
import { ApiShareLink } from "../../provider/resources/shareLink";
import { ApiSite } from "../../provider/resources/site";
import { ApiSpace } from "../../provider/resources/space";
import { ApiTeam } from "../../provider/resources/team";
import { UNSIGNED_DESCRIPTION } from "../../provider/resources/siteAdaptiveSchema";
import type { Emulator } from "../../emulator";

/** The document of "internal-api", as uploaded. */
export const INTERNAL_API = `openapi: 3.0.3
info:
  title: Acme internal API
  version: 2.1.0
paths:
  /health:
    get:
      responses:
        "200":
          description: The service is up.
`;

export const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ
RTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0MSIwIAYD
-----END CERTIFICATE-----`;

/** The visitor schema of "Acme Developer Docs": every claim its conditions name. */
export const VISITOR_SCHEMA = {
  type: "object",
  properties: {
    staff: { type: "boolean", description: "Signed in with an Acme account" },
    unsigned: {
      type: "object",
      description: UNSIGNED_DESCRIPTION,
      properties: {
        beta: { type: "boolean", description: "Opted into beta features" },
        language: { type: "string", description: "Preferred SDK language", enum: ["ts", "py"] },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

export interface SeededOrganization {
  org: string;
  siteIds: string[];
  /** Every share link's secret key, to prove none is written anywhere. */
  shareKeys: string[];
  /** What the processed version of "internal-api" is served as, by URL. */
  documents: Record<string, string>;
}

export async function seedOrganization(emu: Emulator): Promise<SeededOrganization> {
  const client = new GitbookClient({ token: emu.token, apiUrl: emu.url });
  try {
    return await seed(client, emu);
  } finally {
    await client.close();
  }
}

async function seed(client: GitbookClient, emu: Emulator): Promise<SeededOrganization> {
  const org = emu.seeded.organizationId;
  const [started, apiRef, guides, changelog, sdk, handbook] = emu.seeded.spaceIds as [string, string, string, string, string, string];
  const sites = p`/orgs/${org}/sites`;
  const section = async (site: string, spaceId: string, body: Record<string, unknown>, patch: Record<string, unknown> = {}) => {
    const s = await client.post(`${sites}/${site}/sections`, { body: { spaceId, ...body }, schema: ApiSiteSection });
    if (Object.keys(patch).length) await client.patch(`${sites}/${site}/sections/${s.id}`, { body: patch, schema: ApiSiteSection });
    return s.id;
  };
  const siteSpace = async (site: string, sectionId: string, spaceId: string, patch: Record<string, unknown>) => {
    const ss = await client.post(`${sites}/${site}/site-spaces`, { body: { spaceId, sectionId }, schema: ApiSiteSpace });
    await client.patch(`${sites}/${site}/site-spaces/${ss.id}`, { body: patch, schema: ApiSiteSpace });
    return ss.id;
  };

  // ---- Acme Developer Docs
  const dev = (await client.post(sites, { body: { title: "Acme Developer Docs", visibility: "public" }, schema: ApiSite })).id;
  await client.patch(`${sites}/${dev}`, {
    body: { basename: "developers", agentsContext: "included", proxy: "docs.acme.test/developers", adaptiveContent: { enabled: true } },
    schema: ApiSite,
  });
  await section(dev, started, { title: "Getting started", icon: "rocket" });
  const devGuides = await section(dev, guides, { title: "Guides", icon: "compass" }, { description: "How to build on Acme, step by step" });
  const devApi = await section(dev, apiRef, { title: "API reference", icon: "code" }, { path: "api" });
  const devSdk = await section(dev, sdk, { title: "SDKs" });
  const devChangelog = await section(dev, changelog, { title: "Changelog" }, { condition: "visitor.claims.unsigned.beta == true" });
  await client.patch(`${sites}/${dev}`, { body: { defaultSiteSection: devGuides }, schema: ApiSite });
  const devTypescript = await siteSpace(dev, devGuides, sdk, { path: "typescript", condition: 'visitor.claims.unsigned.language == "ts"' });
  const devInternal = await siteSpace(dev, devGuides, handbook, { path: "internal", condition: "visitor.claims.staff == true" });
  const apiChangelog = await siteSpace(dev, devApi, changelog, { path: "changes" });
  await client.patch(`${sites}/${dev}/sections/${devApi}`, { body: { defaultSiteSpace: apiChangelog }, schema: ApiSiteSection });
  const group = (body: Record<string, unknown>) => client.post(`${sites}/${dev}/section-groups`, { body, schema: ApiSiteSectionGroup });
  const build = await group({ title: "Build", icon: "hammer", sections: [devGuides, devSdk] });
  const reference = await group({ title: "Reference", sections: [devApi, devChangelog] });
  const link = (body: Record<string, unknown>) => client.post(`${sites}/${dev}/external-links`, { body, schema: ApiSiteExternalLink });
  const status = await link({ title: "API status", url: "https://status.acme.test", icon: "signal", parent: reference.id });
  await link({ title: "Beta forum", url: "https://forum.acme.test/beta", description: "Talk to the team", condition: "visitor.claims.unsigned.beta == true" });
  // Every container out of creation order: the top level, a group, a section's site spaces.
  const sort = (type: string, id: string, before: [string, string]) =>
    client.patch(`${sites}/${dev}/structure/sort`, { body: { item: { type, id }, position: { before: { type: before[0], id: before[1] } } } });
  await sort("site-section-group", reference.id, ["site-section-group", build.id]);
  await sort("site-external-link", status.id, ["site-section", devApi]);
  await sort("site-space", devInternal, ["site-space", devTypescript]);
  await client.put(`${sites}/${dev}/adaptive-schema`, { body: { jsonSchema: VISITOR_SCHEMA } });
  // The TypeScript variant of "Guides" has its own title and colour over the site's branding.
  await client.patch(`${sites}/${dev}/site-spaces/${devTypescript}/customization`, {
    body: { title: "Acme for TypeScript", styling: { primaryColor: { light: "#3178c6", dark: "#235a97" } } },
  });
  // Branded in the app: the whole object, read and sent back with some settings changed.
  const branding = (await client.get(`${sites}/${dev}/customization`)) as Record<string, any>;
  const { updatedAt: _never, ...settings } = branding;
  await client.put(`${sites}/${dev}/customization`, {
    body: {
      ...settings,
      title: "Acme Developers",
      styling: { ...settings.styling, theme: "bold", primaryColor: { light: "#346ddb", dark: "#8fb3ff" } },
      header: { ...settings.header, logo: { light: "https://acme.test/logo.svg", dark: "https://acme.test/logo-dark.svg" }, links: [{ title: "Status", to: { kind: "url", url: "https://status.acme.test" }, links: [] }] },
      favicon: { emoji: "🚀" },
      footer: { groups: [], copyright: "© Acme Inc." },
    },
  });
  // Redirect rules, live and draft: the import declares them as they are, and adopting them writes nothing.
  await client.put(`${sites}/${dev}/redirects`, {
    body: {
      redirects: [
        { source: "/v1/*", destination: { kind: "site-section", siteSectionId: devApi }, captureWildcard: true, permanent: true },
        { source: "/old-guides", destination: { kind: "external", url: "https://acme.test/guides" } },
        { source: "/beta", intent: "draft", destination: { kind: "site-space", siteSpaceId: devTypescript } },
      ],
    },
  });
  await client.post(`${sites}/${dev}/publish`, { schema: ApiSite, idempotent: true });
  // Its custom domain, set up in the app (GitBook's API cannot): the hostname and the site both show it.
  const { seq, createdAt } = emu.store.newId("host");
  emu.store.customHostnames.set("docs.acme.test", { id: "docs.acme.test", seq, createdAt, targetType: "site", targetId: dev, isActive: true, status: "live" });
  emu.store.sites.get(dev)!.hostname = "docs.acme.test";

  // ---- Acme Partner Portal
  const partners = (await client.post(sites, { body: { title: "Acme Partner Portal", type: "premium", visibility: "share-link" }, schema: ApiSite })).id;
  await section(partners, started, { title: "Overview" }, { path: "overview" });
  const integration = await section(partners, guides, { title: "Integration guides" });
  await section(partners, changelog, { title: "Release notes", icon: "bell" });
  await siteSpace(partners, integration, apiRef, { path: "api", condition: "visitor.claims.partner == true" });
  const links = [];
  for (const name of ["Partner A", "Partner B", "Old partner"]) {
    links.push(await client.post(`${sites}/${partners}/share-links`, { body: { name }, schema: ApiShareLink }));
  }
  await client.patch(`${sites}/${partners}/share-links/${links[2]!.id}`, { body: { active: false }, schema: ApiShareLink });

  // ---- Spaces and collections
  const products = await client.post(p`/orgs/${org}/collections`, { body: { title: "Acme products" }, schema: ApiCollection });
  await client.patch(p`/collections/${products.id}`, { body: { description: "Everything we ship", defaultLevel: "read" }, schema: ApiCollection });
  const sdks = await client.post(p`/orgs/${org}/collections`, { body: { title: "SDKs", parent: products.id }, schema: ApiCollection });
  await client.post(p`/spaces/${guides}/move`, { body: { parent: products.id }, schema: ApiSpace });
  await client.post(p`/spaces/${sdk}/move`, { body: { parent: sdks.id }, schema: ApiSpace });
  await client.patch(p`/spaces/${guides}`, { body: { language: "en", editMode: "locked" }, schema: ApiSpace });
  await client.patch(p`/spaces/${handbook}`, { body: { defaultLevel: "read" }, schema: ApiSpace });

  // ---- Teams, single sign-on
  const team = async (title: string, owner: string, members: string[]) => {
    const t = await client.put(p`/orgs/${org}/teams`, { body: { title }, schema: ApiTeam, idempotent: false });
    await client.put(p`/orgs/${org}/teams/${t.id}/members`, { body: { add: [owner, ...members], memberships: { [owner]: { role: "owner" } } } });
    return t.id;
  };
  const writers = await team("Docs writers", "ada@acme.test", ["grace@acme.test", "alan@acme.test"]);
  const devrel = await team("Developer relations", "katherine@acme.test", ["edsger@acme.test", "grace@acme.test"]);

  // ---- Access: grants on a site, a space and a collection; the Partner Portal's visitor authentication.
  const grace = emu.seeded.members.find((m) => m.email === "grace@acme.test")!.id;
  await client.post(p`/orgs/${org}/sites/${dev}/permissions`, { body: { role: "edit", teams: [writers] } });
  await client.post(p`/orgs/${org}/sites/${dev}/permissions`, { body: { role: "review", users: [grace] } });
  await client.post(p`/spaces/${guides}/permissions`, { body: { role: "admin", teams: [writers, devrel] } });
  await client.post(p`/collections/${products.id}/permissions`, { body: { role: "read", teams: [devrel] } });
  await client.patch(p`/orgs/${org}/sites/${partners}/publishing/auth`, { body: { backend: "custom", fallbackURL: "https://login.acme.test/partners" } });
  await client.post(p`/orgs/${org}/saml`, {
    body: {
      label: "Acme SSO",
      entityID: "https://idp.acme.test/saml/metadata",
      ssoURL: "https://idp.acme.test/saml/sso",
      certificate: CERTIFICATE,
      defaultTeam: writers,
      defaultRole: "read",
    },
    schema: ApiSamlProvider,
  });
  // Half set up, and new users join as guests (a null role, which the program must declare as null).
  await client.post(p`/orgs/${org}/saml`, { body: { label: "Contractors", entityID: "https://idp.partner.test/metadata" }, schema: ApiSamlProvider });

  // ---- OpenAPI specs: each GET of a pending spec moves the emulator's processing on.
  const spec = async (slug: string, source: Record<string, string>) => {
    await client.post(p`/orgs/${org}/openapi`, { body: { slug, source }, schema: ApiOpenApiSpec });
    let s = await client.get(p`/orgs/${org}/openapi/${slug}`, { schema: ApiOpenApiSpec });
    while (s.processingState === "pending") s = await client.get(p`/orgs/${org}/openapi/${slug}`, { schema: ApiOpenApiSpec });
    if (s.processingState !== "complete") throw new Error(`spec ${slug} did not process: ${s.processingState}`);
  };
  await spec("acme-api", { url: "https://api.acme.test/openapi.yaml" });
  await client.patch(p`/orgs/${org}/openapi/acme-api`, { body: { visibility: "public" }, schema: ApiOpenApiSpec });
  await spec("internal-api", { text: INTERNAL_API });
  const internal = [...emu.store.openApiSpecs.values()].find((s) => s.slug === "internal-api")!;
  const version = emu.store.openApiVersions.get(internal.lastVersionId!)!;

  return {
    org,
    siteIds: [dev, partners],
    shareKeys: [...emu.store.shareLinks.values()].map((l) => l.key),
    documents: { [version.url]: INTERNAL_API },
  };
}

/**
 * A site with `sections` sections (each showing one space) and `shareLinks` share links, put straight
 * into the emulator's store: thousands of objects without thousands of requests to build them.
 */
export function addLargeSite(emu: Emulator, title: string, counts: { sections: number; shareLinks: number }): string {
  const store = emu.store;
  const org = emu.seeded.organizationId;
  const site = store.newId("site");
  store.sites.set(site.id, {
    ...site,
    orgId: org,
    type: "ultimate",
    title,
    basename: title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    visibility: "share-link",
    published: true,
    agentsContext: "excluded",
    adaptiveContent: { enabled: false },
  });
  const spaces = emu.seeded.spaceIds;
  for (let i = 0; i < counts.sections; i++) {
    const section = store.newId("sitesc");
    const spaceId = spaces[i % spaces.length]!;
    store.sections.set(section.id, { ...section, siteId: site.id, title: `Section ${i}`, spaceId, path: `section-${i}` });
    const ss = store.newId("sitesp");
    store.siteSpaces.set(ss.id, { ...ss, siteId: site.id, sectionId: section.id, spaceId, path: `space-${i}` });
  }
  for (let i = 0; i < counts.shareLinks; i++) {
    const link = store.newId("shl");
    store.shareLinks.set(link.id, { ...link, siteId: site.id, name: `Reader ${i}`, active: i % 7 !== 0, key: store.randomString(24) });
  }
  return site.id;
}
