/**
 * `pulumi up --replace` of resources whose old and new objects are one (a site's branding and publication, a site
 * space's overrides): the engine never asks the provider's diff about a replacement the user forces,
 * and replaced them create-first, so the old one's delete cleared the overrides the new one had just
 * set, and the run succeeded with GitBook no longer as state said. The resource option
 * `deleteBeforeReplace` (set by the resource class for such kinds) is what the engine reads. Every
 * kind's forced replacement in process: test/unit/lifecycle.test.ts.
 */
import { expect, it } from "vitest";
import { describeDeployments, startDeployment, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });
const T = "urn:pulumi:test::lifecycle::pulumi-nodejs:dynamic/gitbook:";

describeDeployments("a replacement the user forces, through the real CLI", () => {
  it("deletes the old settings first, so the replacement's are what GitBook keeps", async () => {
    const d: Deployment = await startDeployment({ engine: "cli" });
    try {
      const decls = [
        { kind: "Site", name: "branded", args: { title: "Branded Docs" } },
        { kind: "SiteSection", name: "guides", args: { siteId: ref("branded.id"), spaceId: d.emu.seeded.spaceIds[0], title: "Guides" } },
        { kind: "SiteCustomization", name: "branding", args: { siteId: ref("branded.id"), footer: { copyright: "© Acme Inc." } } },
        { kind: "SiteSpaceCustomization", name: "guides-branding", args: { siteId: ref("branded.id"), siteSpaceId: ref("guides.siteSpaceId"), title: "Guides FR" } },
        // One per site: its replacement must not be refused as a second one.
        { kind: "SitePublication", name: "live", args: { siteId: ref("branded.id"), published: true } },
      ];
      expect((await d.run("up", decls)).error).toBeUndefined();
      const replaced = await d.run("up", decls, { flags: ["--replace", `${T}SiteCustomization::branding`, "--replace", `${T}SiteSpaceCustomization::guides-branding`, "--replace", `${T}SitePublication::live`] });
      expect(replaced.error, replaced.stdout).toBeUndefined();
      expect(replaced.stdout).toMatch(/SiteSpaceCustomization guides-branding deleting original[\s\S]*SiteSpaceCustomization guides-branding creating replacement/);
      const refreshed = await d.run("refresh", decls, { flags: ["--expect-no-changes"] });
      expect(refreshed.error, refreshed.stdout).toBeUndefined();
      expect([...d.emu.store.sites.values()].find((x) => x.title === "Branded Docs")?.published).toBe(true);
    } finally {
      await d.close();
    }
  }, 120_000);
});
