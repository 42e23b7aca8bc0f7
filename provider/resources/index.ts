/**
 * Every resource kind, in the order a site is built (the reference documents them in this order).
 * Adding a resource: its module, and one line here.
 */
import type { Resource } from "../framework/define";
import { definition as accessList } from "./accessList";
import { definition as collection } from "./collection";
import { definition as openApiSpec } from "./openApiSpec";
import { definition as permission } from "./permission";
import { definition as samlProvider } from "./samlProvider";
import { definition as shareLink } from "./shareLink";
import { definition as site } from "./site";
import { definition as siteAdaptiveSchema } from "./siteAdaptiveSchema";
import { definition as siteCustomHostname } from "./siteCustomHostname";
import { definition as gitSyncInstallation } from "./gitSyncInstallation";
import { definition as siteCustomization } from "./siteCustomization";
import { definition as siteExternalLink } from "./siteExternalLink";
import { definition as siteRedirect } from "./siteRedirect";
import { definition as siteRedirects } from "./siteRedirects";
import { definition as siteSection } from "./siteSection";
import { definition as siteSectionGroup } from "./siteSectionGroup";
import { definition as sitePublication } from "./sitePublication";
import { definition as siteSpace } from "./siteSpace";
import { definition as siteSpaceCustomization } from "./siteSpaceCustomization";
import { definition as siteStructureOrder } from "./siteStructureOrder";
import { definition as siteVisitorAuth } from "./siteVisitorAuth";
import { definition as space } from "./space";
import { definition as team } from "./team";

export const resources: readonly Resource[] = [
  site,
  siteSection,
  siteSpace,
  siteSectionGroup,
  siteExternalLink,
  siteStructureOrder,
  siteAdaptiveSchema,
  sitePublication,
  siteCustomization,
  siteSpaceCustomization,
  siteVisitorAuth,
  siteCustomHostname,
  gitSyncInstallation,
  siteRedirect,
  siteRedirects,
  shareLink,
  space,
  collection,
  team,
  samlProvider,
  openApiSpec,
  permission,
  accessList,
];
