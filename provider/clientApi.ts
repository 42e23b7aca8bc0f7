/**
 * The package's `client` namespace: the client, and the API objects of a site's kinds, which moved
 * from client/schemas.ts to their kinds' modules when they came to derive from the kinds' inputs
 * (issue 40): programs that read them as `gitbook.client.ApiSite` keep them there.
 */
export * from "./client";
export { ApiSite } from "./resources/site";
export { ApiSiteSection } from "./resources/siteSection";
export { ApiSiteSpace } from "./resources/siteSpace";
export { ApiSiteExternalLink } from "./resources/siteExternalLink";
export { ApiSiteSectionGroup } from "./resources/siteSectionGroup";
export { ApiSiteStructure, ApiStructureItem } from "./resources/siteStructure";
