/**
 * Every API path the resources use, in one place (the `p` tag encodes each ID as one path segment).
 * Resources under a site are addressed through their site: the API has no organization-wide routes
 * for them. Spaces and collections are created in their organization and then addressed by ID alone.
 */
import { p } from "../client";

export const paths = {
  sites: (org: string) => p`/orgs/${org}/sites`,
  site: (org: string, site: string) => p`/orgs/${org}/sites/${site}`,
  sitePublish: (org: string, site: string) => p`/orgs/${org}/sites/${site}/publish`,
  siteUnpublish: (org: string, site: string) => p`/orgs/${org}/sites/${site}/unpublish`,
  adaptiveSchema: (org: string, site: string) => p`/orgs/${org}/sites/${site}/adaptive-schema`,
  sections: (org: string, site: string) => p`/orgs/${org}/sites/${site}/sections`,
  section: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/sections/${id}`,
  siteSpaces: (org: string, site: string) => p`/orgs/${org}/sites/${site}/site-spaces`,
  siteSpace: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/site-spaces/${id}`,
  sectionGroups: (org: string, site: string) => p`/orgs/${org}/sites/${site}/section-groups`,
  sectionGroup: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/section-groups/${id}`,
  externalLinks: (org: string, site: string) => p`/orgs/${org}/sites/${site}/external-links`,
  externalLink: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/external-links/${id}`,
  structure: (org: string, site: string) => p`/orgs/${org}/sites/${site}/structure`,
  structureSort: (org: string, site: string) => p`/orgs/${org}/sites/${site}/structure/sort`,
  shareLinks: (org: string, site: string) => p`/orgs/${org}/sites/${site}/share-links`,
  shareLink: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/share-links/${id}`,
  redirects: (org: string, site: string) => p`/orgs/${org}/sites/${site}/redirects`,
  redirect: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/redirects/${id}`,
  teams: (org: string) => p`/orgs/${org}/teams`,
  team: (org: string, id: string) => p`/orgs/${org}/teams/${id}`,
  teamMembers: (org: string, id: string) => p`/orgs/${org}/teams/${id}/members`,
  members: (org: string) => p`/orgs/${org}/members`,
  samlProviders: (org: string) => p`/orgs/${org}/saml`,
  samlProvider: (org: string, id: string) => p`/orgs/${org}/saml/${id}`,
  openApiSpecs: (org: string) => p`/orgs/${org}/openapi`,
  openApiSpec: (org: string, slug: string) => p`/orgs/${org}/openapi/${slug}`,
  spaces: (org: string) => p`/orgs/${org}/spaces`,
  space: (id: string) => p`/spaces/${id}`,
  spaceMove: (id: string) => p`/spaces/${id}/move`,
  collections: (org: string) => p`/orgs/${org}/collections`,
  collection: (id: string) => p`/collections/${id}`,
  collectionMove: (id: string) => p`/collections/${id}/move`,
  collectionSpaces: (id: string) => p`/collections/${id}/spaces`,
};
