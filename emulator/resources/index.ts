// The registry of emulated resources: the router is assembled from this list, in this order.
//
// To emulate another part of GitBook's API, add one module beside these and one line below:
//   - `export function routes(r: Router<Ctx>): void` adding its routes with `r.add(METHOD, template, handler)`
//     (templates start from ORG or SITE in ./resource.ts; the first matching route wins, so put a
//     literal segment such as ".../latest" before the ":param" route it would also match);
//   - its API objects rendered by functions of its own (see shareLinks.ts for a small complete one);
//   - state: a table (a Map of plain records) of the Store in ../store.ts, declared there with its
//     record type, its cascade (Store.delete*) and its entry in TABLES (export, import, edits).
// Handlers validate with ../http.ts (validate, LIMITS, list for paging, fail/notFound/invalid for
// errors) and never format errors or pages themselves. Routes are tested in ../*.test.ts, one file per concern.
import { Router } from "../http";
import * as adaptiveSchema from "./adaptiveSchema";
import * as externalLinks from "./externalLinks";
import * as openApiSpecs from "./openApiSpecs";
import * as collections from "./collections";
import * as customHostnames from "./customHostnames";
import * as customization from "./customization";
import * as gitSync from "./gitSync";
import * as organizations from "./organizations";
import * as permissions from "./permissions";
import * as publishing from "./publishing";
import type { Ctx, Resource } from "./resource";
import * as samlProviders from "./samlProviders";
import * as sectionGroups from "./sectionGroups";
import * as shareLinks from "./shareLinks";
import * as sites from "./sites";
import * as siteRedirects from "./siteRedirects";
import * as siteSections from "./siteSections";
import * as siteSpaces from "./siteSpaces";
import * as siteStructure from "./siteStructure";
import * as spaces from "./spaces";
import * as teams from "./teams";
import * as visitorAuth from "./visitorAuth";

export const RESOURCES: readonly Resource[] = [
  organizations,
  spaces,
  collections,
  sites,
  publishing,
  adaptiveSchema,
  customization,
  siteSections,
  sectionGroups,
  externalLinks,
  siteStructure,
  siteSpaces,
  shareLinks,
  siteRedirects,
  teams,
  samlProviders,
  openApiSpecs,
  permissions,
  visitorAuth,
  customHostnames,
  gitSync,
];

export function buildRouter(): Router<Ctx> {
  const r = new Router<Ctx>();
  for (const resource of RESOURCES) resource.routes(r);
  return r;
}
