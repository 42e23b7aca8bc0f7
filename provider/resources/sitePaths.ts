/**
 * The API paths of a site and of what it holds, one table per kind (the `p` tag encodes each ID as one
 * path segment). The kinds of a site call each other's paths (a section makes itself the site's
 * default, the navigation moves sections, links and groups), so the paths live here, importing no
 * kind, and each kind's module re-exports its own as `paths`: the kinds then import no kind for a path,
 * and their modules form no import cycle.
 */
import { p } from "../client";

export const sitePaths = {
  sites: (org: string) => p`/orgs/${org}/sites`,
  site: (org: string, site: string) => p`/orgs/${org}/sites/${site}`,
  sitePublish: (org: string, site: string) => p`/orgs/${org}/sites/${site}/publish`,
  siteUnpublish: (org: string, site: string) => p`/orgs/${org}/sites/${site}/unpublish`,
};

export const structurePaths = {
  structure: (org: string, site: string) => p`/orgs/${org}/sites/${site}/structure`,
  structureSort: (org: string, site: string) => p`/orgs/${org}/sites/${site}/structure/sort`,
};

export const sectionPaths = {
  sections: (org: string, site: string) => p`/orgs/${org}/sites/${site}/sections`,
  section: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/sections/${id}`,
};

export const siteSpacePaths = {
  siteSpaces: (org: string, site: string) => p`/orgs/${org}/sites/${site}/site-spaces`,
  siteSpace: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/site-spaces/${id}`,
};

export const sectionGroupPaths = {
  sectionGroups: (org: string, site: string) => p`/orgs/${org}/sites/${site}/section-groups`,
  sectionGroup: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/section-groups/${id}`,
};

export const externalLinkPaths = {
  externalLinks: (org: string, site: string) => p`/orgs/${org}/sites/${site}/external-links`,
  externalLink: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/external-links/${id}`,
};

export const shareLinkPaths = {
  shareLinks: (org: string, site: string) => p`/orgs/${org}/sites/${site}/share-links`,
  shareLink: (org: string, site: string, id: string) => p`/orgs/${org}/sites/${site}/share-links/${id}`,
};
