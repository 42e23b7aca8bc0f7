/**
 * The implementation entry point that serialized providers load at call time
 * (`require("pulumi-gitbook/impl")`). Its `dispatch` signature is a contract with every shim ever
 * written into a user's state: extend it, never change it.
 */
import * as engine from "./framework/engine";
import type { ResourceDef } from "./framework/resource";
import { SHIM_PROTOCOL } from "./shim";

import * as openApiSpec from "./resources/openApiSpec";
import * as samlProvider from "./resources/samlProvider";
import * as shareLink from "./resources/shareLink";
import * as site from "./resources/site";
import * as siteSection from "./resources/siteSection";
import * as siteSpace from "./resources/siteSpace";
import * as team from "./resources/team";

const registry: Record<string, ResourceDef> = {
  Site: site.definition as ResourceDef,
  SiteSection: siteSection.definition as ResourceDef,
  SiteSpace: siteSpace.definition as ResourceDef,
  ShareLink: shareLink.definition as ResourceDef,
  Team: team.definition as ResourceDef,
  SamlProvider: samlProvider.definition as ResourceDef,
  OpenApiSpec: openApiSpec.definition as ResourceDef,
};

export function definitionOf(kind: string): ResourceDef {
  const def = registry[kind];
  if (!def) throw new Error(`pulumi-gitbook: unknown resource kind "${kind}" (state written by a newer version of the package?)`);
  return def;
}

type Method = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

export async function dispatch(protocol: number, kind: string, method: Method, args: unknown[]): Promise<unknown> {
  if (protocol !== SHIM_PROTOCOL) throw new Error(`pulumi-gitbook: unsupported provider protocol ${protocol}; upgrade the pulumi-gitbook package`);
  if (method === "configure") return engine.configure(args[0] as never);
  const def = definitionOf(kind);
  const a = args as never[];
  switch (method) {
    case "check":
      return engine.check(def, a[0], a[1]);
    case "diff":
      return engine.diff(def, a[0], a[1], a[2]);
    case "create":
      return engine.create(def, a[0]);
    case "read":
      return engine.read(def, a[0], a[1]);
    case "update":
      return engine.update(def, a[0], a[1], a[2]);
    case "delete":
      return engine.remove(def, a[0], a[1]);
    default:
      throw new Error(`pulumi-gitbook: unknown provider method "${String(method)}"`);
  }
}
