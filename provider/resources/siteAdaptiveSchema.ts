/**
 * SiteAdaptiveSchema: the visitor schema of an adaptive-content site, i.e. the claims (visitor
 * attributes) its conditions may use.
 *
 * Decisions that shape it:
 * - A site has exactly one schema, which the API replaces whole (PUT), so the resource's ID is the
 *   site's, creating it sets the site's schema, and deleting it puts back GitBook's default: the empty
 *   schema, which is what GitBook's own integrations take a site without one to have.
 * - Adaptive content is switched on by the Site's `adaptiveContent.enabled`, not here: that setting is
 *   part of the Site object, read with it at no extra request, and one setting has one resource.
 * - The schema is checked at preview against the spec's SiteAdaptiveJSONSchema, mirrored below, so a
 *   mistake names its path (`jsonSchema.properties.plan.enum must be an array of strings`) before
 *   anything is sent.
 * - Conditions are not checked here: this resource does not see the sections and site spaces whose
 *   conditions name its claims. `DocsSite` checks them at preview, and `checkConditions`
 *   (conditions.ts) is exported for programs that declare resources one by one.
 */
import { z } from "zod";
import { p } from "../client";
import { claimOnly, onePerTarget } from "../framework/singleton";
import { declaredClaims, type ClaimsSchema } from "./conditions";
import { defineResource, resourceClass, type Inputs, type Outputs } from "../framework/define";
import { field, id, organizationIdField, wireShape } from "../framework/fields";
import { adoptIdIsParent, refreshed } from "../framework/recipes";
import { getOrUndefined } from "../framework/lists";
import type { Ctx } from "../framework/resource";
import { declared } from "../framework/state";

// ---- Schema --------------------------------------------------------------------------------------

/** The one description GitBook accepts for the object of unsigned claims. */
export const UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor.";
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** GitBook's schemas are closed: an unknown key is a mistake, named with what the place allows. */
function closed<S extends z.ZodRawShape>(shape: S) {
  const allowed = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (iss) => (iss.code === "unrecognized_keys" ? `has ${iss.keys.map((k) => JSON.stringify(k)).join(", ")}, which GitBook does not accept here (only ${allowed})` : undefined),
  });
}

/** A literal's message: "is required" when absent, else what it must be. */
const mustBe = (what: string) => (iss: { input?: unknown }) => (iss.input === undefined ? "is required" : `must be ${what}`);

const description = z.string({ error: "must be a string" }).describe("What the claim holds (GitBook shows it in the condition editor).");
const objectType = z.literal("object", { error: mustBe('"object"') }).describe('Always `"object"`.');
const noOtherClaims = z.literal(false, { error: mustBe("false (a schema accepts only the claims it declares)") }).describe("Always `false`.");

const primitives = [
  closed({ type: z.literal("boolean").describe("A boolean claim."), description }),
  closed({
    type: z.literal("string").describe("A string claim."),
    description,
    enum: z
      .array(z.string({ error: "must be a string" }), { error: "must be an array of strings" })
      .optional()
      .describe("The values the claim may take. GitBook uses only strings with an enum in visibility conditions; a free string serves inline expressions."),
  }),
  closed({ type: z.literal("number").describe("A number claim."), description }),
] as const;
const PRIMITIVE_TYPES = "boolean, string or number";
const CLAIM_TYPES = "boolean, string, number, array or object";

const primitiveClaim = z.discriminatedUnion("type", [...primitives], { error: `must have type ${PRIMITIVE_TYPES}` });

/** A claim, as the spec's SiteAdaptiveJSONSchemaClaimsProperties: a primitive, an array of primitives, or an object of claims. */
export const claimSchema: z.ZodType<ClaimJson> = z.discriminatedUnion(
  "type",
  [
    ...primitives,
    closed({ type: z.literal("array").describe("An array claim."), description, items: primitiveClaim.describe("The type of the array's items.") }),
    closed({
      type: z.literal("object").describe("An object of further claims."),
      description,
      get properties() {
        return z.record(z.string(), claimSchema).describe("The claims it holds, by name.");
      },
      additionalProperties: noOtherClaims,
    }),
  ],
  { error: `must have type ${CLAIM_TYPES}` },
);

export type ClaimJson =
  | { type: "boolean" | "number"; description: string }
  | { type: "string"; description: string; enum?: string[] }
  | { type: "array"; description: string; items: { type: "boolean" | "number"; description: string } | { type: "string"; description: string; enum?: string[] } }
  | { type: "object"; description: string; properties: Record<string, ClaimJson>; additionalProperties: false };

/** The spec's SiteAdaptiveJSONSchema. */
export const adaptiveJsonSchema = closed({
  $schema: z.literal(DRAFT_07, { error: `must be "${DRAFT_07}"` }).optional().describe(`The JSON Schema dialect, \`"${DRAFT_07}"\` when given.`),
  type: objectType,
  properties: z
    .object({
      // The spec leaves this object open: keys beside these four pass, as GitBook accepts them.
      unsigned: z
        .looseObject({
          type: objectType,
          description: z
            .literal(UNSIGNED_DESCRIPTION, { error: mustBe(`exactly "${UNSIGNED_DESCRIPTION}" (the only text GitBook accepts)`) })
            .describe(`Exactly \`"${UNSIGNED_DESCRIPTION}"\`: GitBook accepts no other.`),
          properties: z.record(z.string(), claimSchema).describe("The unsigned claims, by name: `visitor.claims.unsigned.<name>`."),
          additionalProperties: noOtherClaims,
        })
        .optional()
        .describe(
          "The unsigned claims: those a visitor may bring without a signature (URL parameters, unsigned cookies, feature flags), which conditions read as `visitor.claims.unsigned.<name>`.",
        ),
    })
    .catchall(claimSchema)
    .describe("The signed claims by name (`visitor.claims.<name>`), each a boolean, string (with an optional `enum`), number, array or object of claims with a description; and `unsigned`."),
  additionalProperties: noOtherClaims,
});
export type AdaptiveJsonSchema = z.output<typeof adaptiveJsonSchema>;

/** What deleting the resource puts back: the empty schema, GitBook's for a site never given one. */
export const DEFAULT_ADAPTIVE_SCHEMA = { type: "object", properties: {}, additionalProperties: false } as const;

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id()
    .describe("ID of the site whose visitor schema this is. A site has one schema: changing it replaces the resource (the new site gets the schema, the old one GitBook's default back).")
    .register(field, { change: "replace", import: { ref: "Site" } }),
  jsonSchema: adaptiveJsonSchema.describe(
    'The visitor schema, as GitBook\'s API and docs write it: `{ type: "object", properties: {…}, additionalProperties: false }`, each claim a `boolean`, `number`, `string` (with an optional `enum`), `array` of those or `object` of claims, with a `description`; unsigned claims go under `properties.unsigned` (described exactly "Unsigned claims of the site visitor."). Checked at preview against GitBook\'s spec, naming the path of a mistake. Replaced whole when it changes; refresh shows a schema edited in the app as drift.',
  ),
});

const outputs = z.object({
  claims: z.array(z.string()).describe("The claims the schema declares, as conditions name them (`visitor.claims.isBetaUser`, `visitor.claims.unsigned.language`)."),
  updatedAt: z.string().describe("When the schema was last changed."),
});

export type SiteAdaptiveSchemaInputs = Inputs<typeof inputs>;
export type SiteAdaptiveSchemaOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Wire ----------------------------------------------------------------------------------------

// What GitBook answers for this kind: loose objects (fields the API adds pass through), while a missing
// or mistyped field the kind uses fails with its name (ContractError).

/** A site's visitor schema; `jsonSchema` is kept as GitBook returns it (the resource compares it whole). */
export const ApiSiteAdaptiveSchema = z.looseObject({
  object: z.literal("site-adaptive-schema"),
  ...wireShape(inputs),
  jsonSchema: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
export type ApiSiteAdaptiveSchema = z.infer<typeof ApiSiteAdaptiveSchema>;

/** The kind's API paths (the `p` tag encodes each ID as one path segment). */
export const paths = {
  adaptiveSchema: (org: string, site: string) => p`/orgs/${org}/sites/${site}/adaptive-schema`,
};

// ---- CRUD ----------------------------------------------------------------------------------------

function put(ctx: Ctx, org: string, site: string, jsonSchema: unknown): Promise<ApiSiteAdaptiveSchema> {
  return ctx.client.put(paths.adaptiveSchema(org, site), { body: { jsonSchema }, schema: ApiSiteAdaptiveSchema });
}

/** The schema is addressed by its site; an adoptId naming another site would adopt a schema this resource does not declare. */
const prepare = adoptIdIsParent("siteId", "site", "a site's schema has no ID of its own");

// A PUT sets the schema whatever was there: sending it again after a lost answer does no harm, so no createOnce.
async function create(ctx: Ctx, given: SiteAdaptiveSchemaInputs): Promise<{ id: string; outs: SiteAdaptiveSchemaOutputs }> {
  claimOnly(ctx, "SiteAdaptiveSchema", given.siteId, "site");
  const schema = await put(ctx, given.organizationId, given.siteId, given.jsonSchema);
  return { id: given.siteId, outs: definition.outputsOf(declared(given), schema) };
}

/** A 404 is a site gone, or one left without a schema: either way there is nothing left to manage. */
async function read(ctx: Ctx, id: string, props: SiteAdaptiveSchemaOutputs): Promise<SiteAdaptiveSchemaOutputs | undefined> {
  const schema = await getOrUndefined(ctx.client.get(paths.adaptiveSchema(props.organizationId, id), { schema: ApiSiteAdaptiveSchema }));
  return schema && refreshed(definition, props, schema);
}

async function update(ctx: Ctx, id: string, olds: SiteAdaptiveSchemaOutputs, news: SiteAdaptiveSchemaInputs, changed: readonly string[]): Promise<SiteAdaptiveSchemaOutputs> {
  const org = news.organizationId;
  const schema = changed.includes("jsonSchema")
    ? await put(ctx, org, id, news.jsonSchema)
    : await ctx.client.get(paths.adaptiveSchema(org, id), { schema: ApiSiteAdaptiveSchema });
  return definition.outputsOf(declared(news), schema);
}

/** Puts back GitBook's default, the empty schema (there is no DELETE); a site already gone is success. */
async function remove(ctx: Ctx, id: string, props: SiteAdaptiveSchemaOutputs): Promise<void> {
  await getOrUndefined(put(ctx, props.organizationId, id, DEFAULT_ADAPTIVE_SCHEMA));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteAdaptiveSchema",
  // Its ID is derived from what it declares: a replacement is the same object (define.ts).
  deleteBeforeReplace: true,
  adoptable: "ID of the site whose existing schema to bring under management (the site's ID, as `siteId`): the schema is read and replaced only if it differs from the program's. Without it, creating the resource sets the schema all the same (a site has exactly one). Used only at the first creation.",
  noun: "site adaptive schema",
  summary:
    "The visitor schema of an adaptive-content site: the claims (visitor attributes) its conditions may use. A site has exactly one, so the resource's ID is the site's (two SiteAdaptiveSchema resources of one site are refused at preview, for the same site ID or `site.id` Output, or at create); creating it sets the site's schema and deleting it puts back GitBook's default, the empty schema `{ type: \"object\", properties: {}, additionalProperties: false }`. Adaptive content itself is switched on by the Site's `adaptiveContent.enabled`, which this resource leaves alone. Conditions naming claims the schema lacks are checked by `DocsSite` at preview, and by `checkConditions` in a program of separate resources: this resource does not see them.",
  inputs,
  outputs,
  live: (schema: ApiSiteAdaptiveSchema) => ({ jsonSchema: schema.jsonSchema }),
  computed: (schema) => ({ claims: declaredClaims(schema.jsonSchema as ClaimsSchema), updatedAt: schema.updatedAt }),
  prepare,
  inProgram: onePerTarget("SiteAdaptiveSchema", "siteId", "site"),
  create,
  read,
  update,
  delete: remove,
  // The site's visitor schema as GitBook has it; a 404: the site has none.
  import: {
    read: {
      under: "Site",
      into: "adaptiveSchema",
      one: true,
      find: async (ctx, site) => (await getOrUndefined(ctx.get(paths.adaptiveSchema(ctx.organizationId, site!.id as string), ApiSiteAdaptiveSchema)))?.jsonSchema,
    },
  },
});

/** The visitor schema of an adaptive-content site. */
export const SiteAdaptiveSchema = resourceClass(definition);
export type SiteAdaptiveSchema = InstanceType<typeof SiteAdaptiveSchema>;
export type SiteAdaptiveSchemaArgs = ConstructorParameters<typeof SiteAdaptiveSchema>[1];
