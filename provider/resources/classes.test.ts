/**
 * The Resource classes as a program sees them: every input and every output is an Output property,
 * even when the program leaves the input unset, and the type token is `gitbook:<Kind>`.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { Collection, OpenApiSpec, SamlProvider, ShareLink, Site, SiteAdaptiveSchema, SiteExternalLink, SitePublication, SiteSection, SiteSectionGroup, SiteSpace, SiteStructureOrder, Space, Team } from "../index";
import { definitionOf } from "../impl";

const registered: { type: string; inputs: Record<string, unknown> }[] = [];
beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, inputs: args.inputs });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "classes",
    "test",
    false,
  );
});

const cases: [string, () => pulumi.CustomResource][] = [
  ["Site", () => new Site("s", { title: "Docs" })],
  ["SiteSection", () => new SiteSection("sec", { siteId: "site", spaceId: "space" })],
  ["SiteSpace", () => new SiteSpace("ss", { siteId: "site", spaceId: "space", sectionId: "sec" })],
  ["SiteSectionGroup", () => new SiteSectionGroup("g", { siteId: "site", title: "Products" })],
  ["SiteExternalLink", () => new SiteExternalLink("x", { siteId: "site", title: "Blog", url: "https://blog.acme.test" })],
  ["SiteStructureOrder", () => new SiteStructureOrder("o", { siteId: "site", items: ["sec", "g"] })],
  ["ShareLink", () => new ShareLink("l", { siteId: "site", name: "Reviewers" })],
  ["SiteAdaptiveSchema", () => new SiteAdaptiveSchema("a", { siteId: "site", jsonSchema: { type: "object", properties: {}, additionalProperties: false } })],
  ["SitePublication", () => new SitePublication("pub", { siteId: "site", published: true })],
  ["Space", () => new Space("sp", { title: "Guides" })],
  ["Collection", () => new Collection("c", { title: "Products" })],
  ["Team", () => new Team("t", { title: "Writers" })],
  ["SamlProvider", () => new SamlProvider("p", { label: "Okta" })],
  ["OpenApiSpec", () => new OpenApiSpec("o", { slug: "api", source: { url: "https://example.com/openapi.yaml" } })],
];

describe("resource classes", () => {
  for (const [kind, make] of cases) {
    it(`${kind} exposes every input as an Output, set or not, and registers as gitbook:${kind}`, async () => {
      const r = make() as unknown as Record<string, unknown>;
      const def = (await definitionOf(kind)) as Awaited<ReturnType<typeof definitionOf>> & { outputs: { shape: object } };
      for (const key of [...Object.keys(def.schema.shape), ...Object.keys(def.outputs.shape)]) {
        expect(pulumi.Output.isInstance(r[key]), `${kind}.${key}`).toBe(true);
      }
      await new Promise<void>((resolve) => (r.urn as pulumi.Output<string>).apply(() => resolve()));
      expect(registered.map((x) => x.type)).toContain(`pulumi-nodejs:dynamic/gitbook:${kind}`);
    });
  }
});
