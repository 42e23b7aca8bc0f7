/**
 * Programs whose every success must converge (issue 20, items 3 and 6; checked by
 * test/lifecycle/everyKind.test.ts): every kind declared minimally (refresh hands back as inputs only
 * what the program declares, so no plan shows an undeclared field as removed), and every DocsSite
 * option the reference documents (`site.published` included: the Site must not record a publication
 * its SitePublication makes later in the run).
 */
import type { Emulator } from "../../emulator";
import { EXAMPLE_DIR } from "../../dev/example";
import type { Decl } from "./lifecycle";

const ref = (s: string) => ({ $ref: s });

const visitorSchema = {
  type: "object",
  properties: {
    beta: { type: "boolean", description: "Beta tester" },
    plan: { type: "string", description: "The visitor's plan", enum: ["free", "pro"] },
  },
  additionalProperties: false,
};

/** Every kind declared minimally. */
export function minimal(emu: Emulator): Decl[] {
  const s = emu.seeded.spaceIds;
  return [
    { kind: "Site", name: "site", args: { title: "Minimal Docs" } },
    { kind: "SiteSection", name: "section", args: { siteId: ref("site.id"), spaceId: s[0] } },
    { kind: "SiteSpace", name: "siteSpace", args: { siteId: ref("site.id"), sectionId: ref("section.id"), spaceId: s[1] } },
    { kind: "SiteSectionGroup", name: "group", args: { siteId: ref("site.id"), title: "Group" }, dependsOn: ["section"] },
    { kind: "SiteExternalLink", name: "link", args: { siteId: ref("site.id"), title: "Status", url: "https://status.acme.test" }, dependsOn: ["section"] },
    { kind: "SiteStructureOrder", name: "order", args: { siteId: ref("site.id"), items: [ref("section.id"), ref("group.id"), ref("link.id")] } },
    { kind: "SiteAdaptiveSchema", name: "schema", args: { siteId: ref("site.id"), jsonSchema: { type: "object", properties: { beta: { type: "boolean", description: "Beta tester" } }, additionalProperties: false } } },
    { kind: "SitePublication", name: "publication", args: { siteId: ref("site.id"), published: true }, dependsOn: ["section", "siteSpace"] },
    { kind: "Site", name: "shared", args: { title: "Shared Docs", visibility: "share-link" } },
    { kind: "ShareLink", name: "shareLink", args: { siteId: ref("shared.id"), name: "Reviewers" } },
    { kind: "Space", name: "space", args: { title: "Notes" } },
    { kind: "Collection", name: "collection", args: { title: "Folder" } },
    { kind: "Team", name: "team", args: { title: "Writers" } },
    { kind: "SamlProvider", name: "saml", args: { label: "SSO" } },
    { kind: "OpenApiSpec", name: "spec", args: { slug: "minimal-api", source: { file: `${EXAMPLE_DIR}/examples/docs-site/openapi.yaml` } } },
  ];
}

/** Every DocsSite option the reference documents: a published share-link site with everything. */
export function everyOption(emu: Emulator): Decl {
  const s = emu.seeded.spaceIds;
  const topology = {
    site: { title: "Everything Docs", visibility: "share-link", published: true, basename: "everything", adaptiveContent: { enabled: true }, proxy: "acme.test/docs" },
    sections: [
      {
        key: "start",
        spaceId: s[0],
        title: "Start here",
        path: "start",
        icon: "rocket",
        description: "Where to begin",
        default: true,
        siteSpaces: [{ key: "v2", spaceId: s[1], path: "v2", condition: "visitor.claims.beta == true", default: true }],
      },
      {
        type: "group",
        key: "reference",
        title: "Reference",
        icon: "book",
        draft: false,
        sections: [
          { key: "api", spaceId: s[2], condition: 'visitor.claims.plan == "pro"' },
          { type: "link", key: "status", title: "Status", url: "https://status.acme.test", description: "Uptime", icon: "signal", draft: false },
        ],
      },
      { key: "tutorials", space: { title: "Tutorials", emoji: "📘", editMode: "live", language: "en" }, siteSpaces: [{ key: "adv", space: { title: "Advanced", key: "advanced" } }] },
      { type: "link", key: "blog", title: "Blog", url: "https://blog.acme.test", condition: "visitor.claims.beta == true" },
    ],
    shareLinks: [{ key: "reviewers", name: "Reviewers", active: true }],
    visitorSchema,
    order: "declared",
  };
  return { kind: "DocsSite", name: "docs", args: topology };
}

/** An unpublished public site whose order is left to the app. */
export function plain(emu: Emulator): Decl {
  const s = emu.seeded.spaceIds;
  return {
    kind: "DocsSite",
    name: "plain",
    args: { site: { title: "Plain Docs", visibility: "public", published: false }, sections: [{ key: "only", spaceId: s[3], siteSpaces: [{ key: "more", spaceId: s[4] }] }], order: "unmanaged" },
  };
}
