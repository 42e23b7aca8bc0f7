import * as pulumi from "@pulumi/pulumi";
import * as gitbook from "pulumi-gitbook";

const config = new pulumi.Config();
const title: string = config.get("title") ?? "Acme Docs";

// A site, a section showing the guides space, and a second version of the guides in that section.
const site = new gitbook.Site("docs", { title, visibility: "unlisted" });
const guides = new gitbook.SiteSection("guides", {
  siteId: site.id,
  spaceId: config.require("guidesSpaceId"),
  title: "Guides",
  path: "guides",
});
new gitbook.SiteSpace("guides-v2", {
  siteId: site.id,
  sectionId: guides.id,
  spaceId: config.require("guidesV2SpaceId"),
  path: "v2",
});

export const siteId: pulumi.Output<string> = site.id;
export const url = site.urls.apply((u) => u.published);
