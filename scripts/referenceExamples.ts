/**
 * The short examples in docs/reference.md, one function per resource named after it. scripts/reference.ts
 * copies each function's body into the reference; keeping them here means `tsc` checks every example
 * against the real types on each build, so the reference cannot show code that does not compile.
 * Never run.
 */
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as gitbook from "pulumi-gitbook";

export function Site() {
  const site = new gitbook.Site("docs", {
    title: "Acme Developer Docs",
    visibility: "unlisted",
    adaptiveContent: { enabled: true },
    published: true, // goes live when the Site is applied, before sections added in the same run
  });
  export_("siteUrl", site.urls.apply((u) => u.published));
}

export function SiteSection() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  const guides = new gitbook.SiteSection("guides", {
    siteId: site.id,
    spaceId: "spc_guides", // its own site space: guides.siteSpaceId
    title: "Guides",
    path: "guides",
    icon: "compass",
    default: true,
  });
  // Its published URL is not an output: the site's publication and address, which other resources
  // write, change it. The site space it was created with:
  export_("guidesSiteSpaceId", guides.siteSpaceId);
}

export function SiteSpace() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  const guides = new gitbook.SiteSection("guides", { siteId: site.id, spaceId: "spc_guides_v2" });
  // A second variant of the section, shown only to visitors whose claims say they use version 1.
  new gitbook.SiteSpace("guides-v1", {
    siteId: site.id,
    sectionId: guides.id,
    spaceId: "spc_guides_v1",
    path: "v1",
    condition: "visitor.claims.unsigned.v1 == true",
  });
}

export function SiteSectionGroup() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  const cloud = new gitbook.SiteSection("cloud", { siteId: site.id, spaceId: "spc_cloud", title: "Cloud" });
  const edge = new gitbook.SiteSection("edge", { siteId: site.id, spaceId: "spc_edge", title: "Edge" });
  // The group holds exactly these sections (or leave `sections` out and give each SiteSection a groupId).
  new gitbook.SiteSectionGroup("products", { siteId: site.id, title: "Products", icon: "box", sections: [cloud.id, edge.id] });
}

export function SiteExternalLink() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  const guides = new gitbook.SiteSection("guides", { siteId: site.id, spaceId: "spc_guides" });
  // GitBook takes links only in a site made of sections: dependsOn creates the link after the section
  // (without it, a link created first waits for the section).
  new gitbook.SiteExternalLink(
    "status",
    { siteId: site.id, title: "Status", url: "https://status.acme.test", icon: "signal", condition: "visitor.claims.unsigned.customer == true" },
    { dependsOn: [guides] },
  );
}

export function SiteStructureOrder() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  const guides = new gitbook.SiteSection("guides", { siteId: site.id, spaceId: "spc_guides" });
  const api = new gitbook.SiteSection("api", { siteId: site.id, spaceId: "spc_api_v2" });
  const v1 = new gitbook.SiteSpace("api-v1", { siteId: site.id, sectionId: api.id, spaceId: "spc_api_v1", path: "v1" });
  const cloud = new gitbook.SiteSection("cloud", { siteId: site.id, spaceId: "spc_cloud" });
  const edge = new gitbook.SiteSection("edge", { siteId: site.id, spaceId: "spc_edge" });
  const products = new gitbook.SiteSectionGroup("products", { siteId: site.id, title: "Products", sections: [cloud.id, edge.id] });
  const status = new gitbook.SiteExternalLink("status", { siteId: site.id, title: "Status", url: "https://status.acme.test" }, { dependsOn: [guides] });
  // The navigation in the program's order: only these items move, with the fewest sort requests.
  new gitbook.SiteStructureOrder("order", {
    siteId: site.id,
    items: [guides.id, products.id, api.id, status.id],
    groups: [{ groupId: products.id, items: [edge.id, cloud.id] }],
    // The section's own site space (siteSpaceId) first, then v1.
    sections: [{ sectionId: api.id, siteSpaces: [api.siteSpaceId.apply((id) => id!), v1.id] }],
  });
}

export function ShareLink() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs", visibility: "share-link" });
  const reviewers = new gitbook.ShareLink("reviewers", { siteId: site.id, name: "Reviewers" });
  export_("reviewersUrl", reviewers.url); // a secret
}

export function SiteRedirect() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  const api = new gitbook.SiteSection("api", { siteId: site.id, spaceId: "spc_api" });
  // Visitors of the old API docs land on the API section; /blog/* goes to the new blog, keeping the rest of the path.
  new gitbook.SiteRedirect("old-api", { siteId: site.id, source: "/reference/v1", destination: { siteSectionId: api.id }, permanent: true });
  new gitbook.SiteRedirect("blog", { siteId: site.id, source: "/blog/*", destination: { url: "https://blog.acme.test" }, captureWildcard: true });
}

export function SiteRedirects() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs", published: true });
  // Every rule of the site: rules not listed here, made in the app too, are deleted by `up`.
  new gitbook.SiteRedirects("redirects", {
    siteId: site.id,
    rules: [
      { source: "/getting-started", destination: { path: "/guides/quickstart" }, permanent: true },
      { source: "/changelog", destination: { url: "https://status.acme.test/changelog" } },
    ],
  });
}

export function SiteAdaptiveSchema() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs", adaptiveContent: { enabled: true } });
  const jsonSchema: gitbook.AdaptiveJsonSchema = {
    type: "object",
    properties: {
      isBetaUser: { type: "boolean", description: "Whether the visitor tests beta features." },
      unsigned: {
        type: "object",
        description: "Unsigned claims of the site visitor.", // the only text GitBook accepts
        properties: { language: { type: "string", description: "The visitor's language.", enum: ["en", "fr"] } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
  new gitbook.SiteAdaptiveSchema("visitors", { siteId: site.id, jsonSchema });
  // Conditions of separate resources are checked by the program itself (DocsSite does it at preview).
  const condition = "visitor.claims.unsigned.language == 'fr'";
  const problems = gitbook.checkConditions(jsonSchema, [{ where: 'section "guides"', condition }]);
  if (problems.length > 0) throw new Error(problems.map((p) => p.message).join("\n"));
  const guides = new gitbook.SiteSection("guides", { siteId: site.id, spaceId: "spc_guides" });
  new gitbook.SiteSpace("guides-fr", { siteId: site.id, sectionId: guides.id, spaceId: "spc_guides_fr", path: "fr", condition });
}

export function SiteVisitorAuth() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs", visibility: "visitor-auth" });
  const auth = new gitbook.SiteVisitorAuth("docs-auth", {
    siteId: site.id,
    backend: "custom",
    fallbackURL: "https://login.acme.test/gitbook",
    regenerate: "2026-11", // change it to regenerate the key
  });
  export_("visitorAuthKey", auth.privateKey); // a secret: `pulumi stack output --show-secrets`
}

export function SiteCustomHostname() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  // docs.acme.test is set up in the GitBook app as this site's custom domain: this checks that it
  // points here, reads its status, and retriggers its DNS check when `revalidate` changes.
  const hostname = new gitbook.SiteCustomHostname("docs-hostname", { siteId: site.id, hostname: "docs.acme.test", revalidate: "2026-11-24" });
  export_("hostnameStatus", hostname.status);
}

export function GitSyncInstallation() {
  const config = new pulumi.Config();
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  // The site's structure comes from gitbook-docs.yaml in docs/ of acme/docs; each stack syncs its own
  // branch (`pulumi config set docsBranch staging` on the staging stack). Authorise GitBook's GitHub app
  // for the account in the GitBook app once: until then the first `up` fails saying so.
  const sync = new gitbook.GitSyncInstallation("docs-git-sync", {
    siteId: site.id,
    provider: "github",
    repositoryId: 123456789,
    branch: `refs/heads/${config.get("docsBranch") ?? "main"}`,
    projectDirectory: "docs",
    priority: "git",
  });
  export_("gitSyncStatus", sync.status);
}

export function SitePublication() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  const start = new gitbook.SiteSection("start", { siteId: site.id, spaceId: "spc_getting_started" });
  // Goes live once the section exists, not before (a Site's own `published` is applied with the Site).
  new gitbook.SitePublication("docs-live", { siteId: site.id, published: true }, { dependsOn: [start] });
}

export function SiteCustomization() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  // Only these settings are managed: every other one (styling.theme, the header's links...) stays as the site has it.
  new gitbook.SiteCustomization("branding", {
    siteId: site.id,
    styling: { primaryColor: { light: "#346ddb", dark: "#8fb3ff" }, corners: "rounded" },
    header: { logo: { light: "https://acme.test/logo.svg", dark: "https://acme.test/logo-dark.svg" } },
    favicon: { emoji: "🚀" },
    footer: { copyright: "© Acme Inc." },
  });
}

export function SiteSpaceCustomization() {
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  const guides = new gitbook.SiteSection("guides", { siteId: site.id, spaceId: "spc_guides" });
  const french = new gitbook.SiteSpace("guides-fr", { siteId: site.id, sectionId: guides.id, spaceId: "spc_guides_fr", path: "fr" });
  // The French variant's own title and colour; removing a setting here gives it the site's again.
  new gitbook.SiteSpaceCustomization("guides-fr-branding", {
    siteId: site.id,
    siteSpaceId: french.id,
    title: "Documentation Acme",
    styling: { primaryColor: { light: "#0055a4", dark: "#6f9fff" } },
  });
}

export function Space() {
  const products = new gitbook.Collection("products", { title: "Products" });
  const guides = new gitbook.Space("guides", {
    title: "Guides",
    emoji: "🧭",
    parent: products.id,
    language: "en",
    defaultLevel: "read", // every member can read it; null: only those invited
  });
  // A site from nothing: its section shows the space this program creates.
  const site = new gitbook.Site("docs", { title: "Acme Developer Docs" });
  new gitbook.SiteSection("guides", { siteId: site.id, spaceId: guides.id, title: "Guides" });
  export_("guidesInApp", guides.urls.apply((u) => u.app));
}

export function Collection() {
  const products = new gitbook.Collection("products", {
    title: "Products",
    description: "Documentation of every product",
    defaultLevel: "comment",
  });
  new gitbook.Collection("widgets", { title: "Widgets", parent: products.id });
}

export function Team() {
  new gitbook.Team("writers", {
    title: "Docs writers",
    members: [{ user: "ada@acme.test", role: "owner" }, { user: "grace@acme.test" }],
  });
}

export function Permission() {
  const writers = new gitbook.Team("writers", { title: "Docs writers" });
  new gitbook.Permission("writers-edit-guides", { spaceId: "spc_guides", teamId: writers.id, role: "edit" });
  new gitbook.Permission("ada-admin-docs", { siteId: "site_docs", userId: "usr_ada", role: "admin" });
}

export function AccessList() {
  const writers = new gitbook.Team("writers", { title: "Docs writers" });
  // The whole set of team and user grants on the collection: any other grant is removed by `up`.
  new gitbook.AccessList("guides-access", {
    collectionId: "col_guides",
    teams: [{ teamId: writers.id, role: "edit" }],
    users: [{ userId: "usr_grace", role: "review" }],
  });
}

export function SamlProvider() {
  const writers = new gitbook.Team("writers", { title: "Docs writers" });
  const sso = new gitbook.SamlProvider("sso", {
    label: "Acme SSO",
    entityID: "https://idp.acme.test/saml/metadata",
    ssoURL: "https://idp.acme.test/saml/sso",
    certificate: fs.readFileSync("idp-certificate.pem", "utf8"),
    defaultTeam: writers.id,
    defaultRole: "read",
  });
  export_("acsURL", sso.acsURL); // give these two to the identity provider's admin
  export_("serviceEntityID", sso.serviceEntityID);
}

export function OpenApiSpec() {
  new gitbook.OpenApiSpec("api", {
    slug: "acme-api",
    // Read by the provider, relative to the program's folder; state keeps the path and SHA-256 only.
    source: { file: "openapi.yaml" }, // or { url: "https://..." }
    visibility: "public",
  });
}

export function DocsSite() {
  const docs = new gitbook.DocsSite("docs", {
    site: { title: "Acme Developer Docs", visibility: "share-link" },
    sections: [
      { key: "start", spaceId: "spc_start", title: "Getting started", default: true },
      {
        key: "guides",
        spaceId: "spc_guides",
        title: "Guides",
        siteSpaces: [{ key: "typescript", spaceId: "spc_ts", path: "typescript", default: true }],
      },
    ],
    shareLinks: [{ key: "reviewers", name: "Reviewers" }],
  });
  export_("sectionIds", docs.sectionIds);
  export_("shareLinkUrls", docs.shareLinkUrls); // a secret
}

/** Stands for `export const <name> = value` at the top level of a program. */
declare function export_(name: string, value: unknown): void;
