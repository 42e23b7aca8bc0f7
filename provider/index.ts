export { Site, type SiteArgs, type SiteInputs, type SiteOutputs } from "./resources/site";
export { SiteSection, type SiteSectionArgs, type SiteSectionInputs, type SiteSectionOutputs } from "./resources/siteSection";
export { SiteSpace, type SiteSpaceArgs, type SiteSpaceInputs, type SiteSpaceOutputs } from "./resources/siteSpace";
export { SiteSectionGroup, type SiteSectionGroupArgs, type SiteSectionGroupInputs, type SiteSectionGroupOutputs } from "./resources/siteSectionGroup";
export { SiteExternalLink, type SiteExternalLinkArgs, type SiteExternalLinkInputs, type SiteExternalLinkOutputs } from "./resources/siteExternalLink";
export { SiteStructureOrder, type SiteStructureOrderArgs, type SiteStructureOrderInputs, type SiteStructureOrderOutputs } from "./resources/siteStructureOrder";
export { ShareLink, type ShareLinkArgs, type ShareLinkInputs, type ShareLinkOutputs } from "./resources/shareLink";
export { SiteRedirect, type SiteRedirectArgs, type SiteRedirectInputs, type SiteRedirectOutputs } from "./resources/siteRedirect";
export { SiteRedirects, type SiteRedirectsArgs, type SiteRedirectsInputs, type SiteRedirectsOutputs } from "./resources/siteRedirects";
export { Space, type SpaceArgs, type SpaceInputs, type SpaceOutputs } from "./resources/space";
export { Collection, type CollectionArgs, type CollectionInputs, type CollectionOutputs } from "./resources/collection";
export { SitePublication, type SitePublicationArgs, type SitePublicationInputs, type SitePublicationOutputs } from "./resources/sitePublication";
export {
  SiteAdaptiveSchema,
  type SiteAdaptiveSchemaArgs,
  type SiteAdaptiveSchemaInputs,
  type SiteAdaptiveSchemaOutputs,
  type AdaptiveJsonSchema,
} from "./resources/siteAdaptiveSchema";
export {
  checkConditions,
  checkCondition,
  claimReferences,
  declaredClaims,
  type ClaimsSchema,
  type ConditionToCheck,
  type ConditionProblem,
} from "./resources/conditions";
export { SiteCustomization, type SiteCustomizationArgs, type SiteCustomizationInputs, type SiteCustomizationOutputs } from "./resources/siteCustomization";
export { SiteSpaceCustomization, type SiteSpaceCustomizationArgs, type SiteSpaceCustomizationInputs, type SiteSpaceCustomizationOutputs } from "./resources/siteSpaceCustomization";
export { Team, type TeamArgs, type TeamInputs, type TeamOutputs, type TeamMember } from "./resources/team";
export { Permission, type PermissionArgs, type PermissionInputs, type PermissionOutputs } from "./resources/permission";
export { AccessList, type AccessListArgs, type AccessListInputs, type AccessListOutputs } from "./resources/accessList";
export { SiteVisitorAuth, type SiteVisitorAuthArgs, type SiteVisitorAuthInputs, type SiteVisitorAuthOutputs } from "./resources/siteVisitorAuth";
export { SiteCustomHostname, type SiteCustomHostnameArgs, type SiteCustomHostnameInputs, type SiteCustomHostnameOutputs } from "./resources/siteCustomHostname";
export { GitSyncInstallation, type GitSyncInstallationArgs, type GitSyncInstallationInputs, type GitSyncInstallationOutputs } from "./resources/gitSyncInstallation";
export { SamlProvider, type SamlProviderArgs, type SamlProviderInputs, type SamlProviderOutputs } from "./resources/samlProvider";
export { OpenApiSpec, type OpenApiSpecArgs, type OpenApiSpecInputs, type OpenApiSpecOutputs, type OpenApiSource } from "./resources/openApiSpec";
export {
  DocsSite,
  validateTopology,
  type DocsSiteTopology,
  type DocsSiteSection,
  type DocsSiteSiteSpace,
  type DocsSiteShareLink,
  type DocsSiteEntry,
  type DocsSiteGroup,
  type DocsSiteLink,
  type DocsSiteSpace,
  type TopologyProblem,
} from "./components/docsSite";
export * as client from "./clientApi";
