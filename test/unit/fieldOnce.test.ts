/**
 * A field is declared once, in its kind's inputs (issue 40): the kind's wire schema (what GitBook's
 * answers are checked against) and DocsSite's entries take it from there. For every kind with an
 * object of its own, every input is in the wire schema, typed as GitBook's published spec has it
 * wherever the spec's object has that field; every field of a kind DocsSite creates is in its entry,
 * but what DocsSite supplies.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resources } from "../../provider/resources";
import { wireShape } from "../../provider/framework/fields";
import { docsSiteGroupSchema, docsSiteLinkSchema, docsSiteSectionSchema, docsSiteShareLinkSchema, docsSiteSiteSpaceSchema, docsSiteTopologySchema } from "../../provider/components/topology";

type Json = Record<string, unknown>;
const spec = createRequire(__filename)("@gitbook/api/spec/openapi.json") as { components: { schemas: Record<string, Json> } };
const deref = (s: Json | undefined): Json | undefined => {
  let x = s;
  while (x && typeof x.$ref === "string") x = x.$ref.split("/").slice(1).reduce<Json>((o, k) => o[k] as Json, spec as unknown as Json);
  return x;
};
/** A spec schema's properties, through allOf/oneOf/anyOf. */
const propsOf = (s: Json | undefined): Record<string, Json> => {
  const x = deref(s);
  if (!x) return {};
  const own = { ...((x.properties as Record<string, Json>) ?? {}) };
  for (const k of ["allOf", "oneOf", "anyOf"]) for (const y of (x[k] as Json[]) ?? []) Object.assign(own, propsOf(y));
  return own;
};
/** The JSON types a spec schema allows, `null` left out (an integer is a number). */
const specTypes = (s: Json | undefined): Set<string> => {
  const x = deref(s);
  if (!x) return new Set();
  if (x.type) return new Set(([] as string[]).concat(x.type as string).flatMap((t) => (t === "null" ? [] : t === "integer" ? ["number"] : [t])));
  if (x.enum) return new Set((x.enum as unknown[]).filter((v) => v !== null).map((v) => typeof v));
  return new Set(["allOf", "oneOf", "anyOf"].flatMap((k) => ((x[k] as Json[]) ?? []).flatMap((y) => [...specTypes(y)])));
};
/** The spec's schema of the object tagged `object`. */
const specObject = (object: string): Json | undefined =>
  Object.values(spec.components.schemas).find((s) => {
    const tag = propsOf(s).object;
    return tag && ((tag.enum as unknown[] | undefined)?.includes(object) || tag.const === object);
  });
/** The JSON type a wire field accepts (zod's, through optional and nullable). */
function wireType(s: z.ZodType): string | undefined {
  if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) return wireType(s.unwrap() as z.ZodType);
  if (s instanceof z.ZodString || s instanceof z.ZodEnum) return "string";
  if (s instanceof z.ZodBoolean) return "boolean";
  if (s instanceof z.ZodNumber) return "number";
  if (s instanceof z.ZodArray) return "array";
  if (s instanceof z.ZodObject || s instanceof z.ZodRecord) return "object";
  return undefined;
}

/** Each kind and, where GitBook answers with an object of the kind's own, that object's schema (its module's Api… export). */
async function kinds(): Promise<{ def: (typeof resources)[number]; wire?: z.ZodObject }[]> {
  return Promise.all(
    resources.map(async (def) => {
      const mod = (await import(`../../provider/resources/${def.kind[0]!.toLowerCase()}${def.kind.slice(1)}`)) as Record<string, unknown>;
      const wire = Object.values(mod).find(
        (v): v is z.ZodObject => v instanceof z.ZodObject && v.shape.object instanceof z.ZodLiteral && Object.keys(v.shape).some((k) => k !== "object" && k in def.schema.shape),
      );
      return { def, wire };
    }),
  );
}

describe("a kind's wire schema takes its inputs", () => {
  it("every input of every kind with an object of its own is in its answer's schema, as the spec types it", async () => {
    const problems: string[] = [];
    for (const { def, wire } of await kinds()) {
      if (!wire) continue;
      const shape = wire.shape as Record<string, z.ZodType>;
      const inputs = Object.keys(def.schema.shape).filter((k) => k !== "adoptId" && k !== "names");
      for (const k of inputs) if (!(k in shape)) problems.push(`${def.kind}.${k}: not in its wire schema`);
      const published = propsOf(specObject((shape.object as z.ZodLiteral<string>).value));
      for (const k of inputs) {
        const type = shape[k] && wireType(shape[k]);
        if (published[k] && type && !specTypes(published[k]).has(type)) problems.push(`${def.kind}.${k}: ${type} where the spec has ${[...specTypes(published[k])].join("|")}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("covers the kinds GitBook answers with an object of their own", async () => {
    expect((await kinds()).filter((k) => k.wire).map((k) => k.def.kind)).toEqual(
      expect.arrayContaining(["Site", "SiteSection", "SiteSpace", "SiteSectionGroup", "SiteExternalLink", "ShareLink", "Space", "Collection", "Team", "SamlProvider", "OpenApiSpec"]),
    );
  });

  it("checks an answer by the input's type, not by its limits, and takes null and absence for unset", () => {
    const wire = z.looseObject(wireShape(z.object({ condition: z.string().min(1).max(5).optional(), on: z.boolean(), kind: z.enum(["a", "b"]), ids: z.array(z.string().min(3)) })));
    expect(wire.parse({ condition: "longer than five", on: null, kind: "c", ids: ["x"], other: 1 })).toEqual({ condition: "longer than five", on: null, kind: "c", ids: ["x"], other: 1 });
    expect(wire.parse({})).toEqual({});
    expect(wire.safeParse({ condition: 3 }).error?.issues[0]?.path).toEqual(["condition"]);
    expect(wire.safeParse({ ids: [1] }).error?.issues[0]?.path).toEqual(["ids", 0]);
  });
});

describe("DocsSite's entries take their kinds' fields", () => {
  const shapeOf = (s: z.ZodType): Record<string, z.ZodType> => {
    let x = s;
    while (x instanceof z.ZodOptional || x instanceof z.ZodNullable) x = x.unwrap() as z.ZodType;
    return (x as z.ZodObject).shape as Record<string, z.ZodType>;
  };
  const top = docsSiteTopologySchema.shape;
  const entries: [kind: string, entry: Record<string, z.ZodType>, supplied: string[]][] = [
    ["SiteSection", docsSiteSectionSchema.shape, ["organizationId", "siteId", "groupId", "names", "oldPathRedirects", "address", "forceDestroy"]],
    ["SiteSpace", docsSiteSiteSpaceSchema.shape, ["organizationId", "siteId", "sectionId", "names", "oldPathRedirects", "address"]],
    ["SiteExternalLink", docsSiteLinkSchema.shape, ["organizationId", "siteId", "groupId", "names"]],
    ["SiteSectionGroup", docsSiteGroupSchema.shape, ["organizationId", "siteId", "names"]],
    ["ShareLink", docsSiteShareLinkSchema.shape, ["organizationId", "siteId", "names", "address"]],
    ["Space", shapeOf(docsSiteSectionSchema.shape.space), ["organizationId", "names"]],
    ["SiteVisitorAuth", shapeOf(top.visitorAuth), ["organizationId", "siteId", "names"]],
    ["SiteCustomHostname", shapeOf(top.customHostname), ["organizationId", "siteId", "names"]],
  ];
  it.each(entries)("%s: every field but what DocsSite supplies", (kind, entry, supplied) => {
    const def = resources.find((d) => d.kind === kind)!;
    expect(Object.keys(def.schema.shape).filter((k) => !supplied.includes(k) && !(k in entry))).toEqual([]);
  });
});
