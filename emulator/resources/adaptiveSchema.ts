// The visitor-claims JSON schema of an adaptive-content site (getSiteAdaptiveSchema,
// updateSiteAdaptiveSchema).
//
// A site has at most one. A site never given one has none: GET answers 404, which the spec documents
// ("No visitor attributes schema found for the site") and GitBook's own integrations treat as the
// empty schema `{type: "object", properties: {}, additionalProperties: false}`. PUT replaces it whole.
// The schema is refused (400 naming the path) unless it is one the spec's SiteAdaptiveJSONSchema
// accepts: an object with `type: "object"`, `additionalProperties: false` and `properties`, whose
// claims are booleans, numbers, strings (with an optional `enum`), arrays of those, or objects of
// claims, each with a description, and whose `unsigned` property is the object of unsigned claims
// described exactly "Unsigned claims of the site visitor.".
import { invalid, isPlainObject, ok, required, obj, validate, notFound, type Router } from "../http";
import type { AdaptiveSchemaRecord } from "../store";
import { getSite, now, SITE, type Ctx } from "./resource";

export const UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor.";
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

function view(s: AdaptiveSchemaRecord) {
  return { object: "site-adaptive-schema", jsonSchema: s.jsonSchema, updatedAt: s.updatedAt };
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${SITE}/adaptive-schema`, (c) => {
    const site = getSite(c);
    return ok(view(c.store.adaptiveSchemas.get(site.id) ?? notFound("adaptive schema of site", site.id)));
  });

  r.add("PUT", `${SITE}/adaptive-schema`, (c) => {
    const site = getSite(c);
    const b = validate(c.body, { jsonSchema: required(obj()) });
    checkAdaptiveSchema(b.jsonSchema, "jsonSchema");
    const table = c.store.adaptiveSchemas;
    const record: AdaptiveSchemaRecord = {
      ...(table.get(site.id) ?? { ...c.store.newId("adschema"), id: site.id }),
      siteId: site.id,
      jsonSchema: b.jsonSchema,
      updatedAt: now(),
    };
    table.set(site.id, record);
    return ok(view(record));
  });
}

// ---------------------------------------------------------------- the spec's SiteAdaptiveJSONSchema

function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], at: string): void {
  const extra = Object.keys(o).find((k) => !allowed.includes(k));
  if (extra !== undefined) invalid(`${at}.${extra}`, `is not allowed here (only ${allowed.join(", ")})`);
}

function objectAt(v: unknown, at: string): Record<string, unknown> {
  if (v === undefined) invalid(at, "is required");
  if (!isPlainObject(v)) invalid(at, "must be an object");
  return v;
}

function mustBeFalse(v: unknown, at: string): void {
  if (v !== false) invalid(at, v === undefined ? "is required" : "must be false");
}

function mustBeObjectType(v: unknown, at: string): void {
  if (v !== "object") invalid(at, v === undefined ? "is required" : 'must be "object"');
}

/** Refuses (400 naming the path from `at`) a schema the spec's SiteAdaptiveJSONSchema does not accept. */
export function checkAdaptiveSchema(s: Record<string, unknown>, at: string): void {
  onlyKeys(s, ["$schema", "type", "properties", "additionalProperties"], at);
  if (s.$schema !== undefined && s.$schema !== DRAFT_07) invalid(`${at}.$schema`, `must be "${DRAFT_07}"`);
  mustBeObjectType(s.type, `${at}.type`);
  mustBeFalse(s.additionalProperties, `${at}.additionalProperties`);
  for (const [name, claim] of Object.entries(objectAt(s.properties, `${at}.properties`))) {
    if (name === "unsigned") checkUnsigned(objectAt(claim, `${at}.properties.unsigned`), `${at}.properties.unsigned`);
    else checkClaim(claim, `${at}.properties.${name}`, false);
  }
}

/** The spec leaves this object open: keys beside these four are accepted. */
function checkUnsigned(s: Record<string, unknown>, at: string): void {
  mustBeObjectType(s.type, `${at}.type`);
  if (s.description !== UNSIGNED_DESCRIPTION) invalid(`${at}.description`, `must be exactly "${UNSIGNED_DESCRIPTION}"`);
  mustBeFalse(s.additionalProperties, `${at}.additionalProperties`);
  for (const [name, claim] of Object.entries(objectAt(s.properties, `${at}.properties`))) checkClaim(claim, `${at}.properties.${name}`, false);
}

/** A claim: a primitive (boolean, number, string with an optional enum), or, unless `primitiveOnly`, an array of primitives or an object of claims. */
function checkClaim(v: unknown, at: string, primitiveOnly: boolean): void {
  const s = objectAt(v, at);
  const types = primitiveOnly ? ["boolean", "number", "string"] : ["boolean", "number", "string", "array", "object"];
  if (typeof s.type !== "string" || !types.includes(s.type)) invalid(`${at}.type`, s.type === undefined ? "is required" : `must be one of ${types.join(", ")}`);
  if (typeof s.description !== "string") invalid(`${at}.description`, s.description === undefined ? "is required" : "must be a string");
  switch (s.type) {
    case "boolean":
    case "number":
      return onlyKeys(s, ["type", "description"], at);
    case "string":
      onlyKeys(s, ["type", "description", "enum"], at);
      if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.every((x) => typeof x === "string"))) invalid(`${at}.enum`, "must be an array of strings");
      return;
    case "array":
      onlyKeys(s, ["type", "description", "items"], at);
      return checkClaim(s.items, `${at}.items`, true);
    case "object":
      onlyKeys(s, ["type", "description", "properties", "additionalProperties"], at);
      mustBeFalse(s.additionalProperties, `${at}.additionalProperties`);
      for (const [name, claim] of Object.entries(objectAt(s.properties, `${at}.properties`))) checkClaim(claim, `${at}.properties.${name}`, false);
  }
}
