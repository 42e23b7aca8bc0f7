import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UNKNOWN } from "../framework/check";
import { rejectsAtCheck, startProviderEnv, type BadInput, type ProviderEnv, type State } from "../../test/support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());

// The schema GitBook's docs show, with each kind of claim the spec allows.
const jsonSchema = {
  type: "object",
  properties: {
    isBetaUser: { type: "boolean", description: "Whether the visitor is a beta user." },
    seats: { type: "number", description: "Seats in the visitor's plan." },
    roles: { type: "array", description: "The visitor's roles.", items: { type: "string", description: "A role.", enum: ["admin", "dev"] } },
    account: {
      type: "object",
      description: "The visitor's account.",
      properties: { plan: { type: "string", description: "The plan.", enum: ["free", "pro"] } },
      additionalProperties: false,
    },
    unsigned: {
      type: "object",
      description: "Unsigned claims of the site visitor.",
      properties: { language: { type: "string", description: "The language of the visitor", enum: ["en", "fr", "it"] } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};
const DEFAULT = { type: "object", properties: {}, additionalProperties: false };
const PUT = "PUT /v1/orgs/:org/sites/:site/adaptive-schema";

async function newSite(): Promise<string> {
  return (await env.up("Site", { title: "Adaptive Docs" })).state.id;
}

const live = (siteId: string) => env.emu.store.adaptiveSchemas.get(siteId);
const claim = (extra: object) => ({ jsonSchema: { ...jsonSchema, properties: { ...jsonSchema.properties, ...extra } } });

describe("check", () => {
  const base = { siteId: "site_1", jsonSchema };
  const bad: BadInput[] = [
    ["jsonSchema.type", { jsonSchema: { ...jsonSchema, type: "array" } }, /^jsonSchema.type must be "object"$/],
    ["jsonSchema.additionalProperties", { jsonSchema: { type: "object", properties: {} } }, /^jsonSchema.additionalProperties is required$/],
    ["jsonSchema.additionalProperties", { jsonSchema: { ...jsonSchema, additionalProperties: true } }, /must be false/],
    ["jsonSchema", { jsonSchema: { ...jsonSchema, required: ["isBetaUser"] } }, /^jsonSchema has "required", which GitBook does not accept here \(only \$schema, type, properties, additionalProperties\)$/],
    ["jsonSchema.$schema", { jsonSchema: { ...jsonSchema, $schema: "https://json-schema.org/draft/2020-12/schema" } }, /must be "http:\/\/json-schema.org\/draft-07\/schema#"/],
    ["jsonSchema.properties.beta.description", claim({ beta: { type: "boolean" } }), /^jsonSchema.properties.beta.description is required$/],
    ["jsonSchema.properties.beta.type", claim({ beta: { type: "integer", description: "x" } }), /must have type boolean, string, number, array or object/],
    ["jsonSchema.properties.beta", claim({ beta: { type: "boolean", description: "x", enum: ["yes"] } }), /has "enum", which GitBook does not accept here \(only type, description\)/],
    ["jsonSchema.properties.plan.enum[0]", claim({ plan: { type: "string", description: "x", enum: [1] } }), /must be a string/],
    ["jsonSchema.properties.list.items.type", claim({ list: { type: "array", description: "x", items: { type: "array", description: "y" } } }), /must have type boolean, string or number/],
    ["jsonSchema.properties.account.additionalProperties", claim({ account: { type: "object", description: "x", properties: {} } }), /is required/],
    ["jsonSchema.properties.account.properties.plan.description", claim({ account: { type: "object", description: "x", properties: { plan: { type: "string" } }, additionalProperties: false } }), /is required/],
    [
      "jsonSchema.properties.unsigned.description",
      claim({ unsigned: { type: "object", description: "Unsigned visitor claims", properties: {}, additionalProperties: false } }),
      /must be exactly "Unsigned claims of the site visitor." \(the only text GitBook accepts\)/,
    ],
    ["jsonSchema", { jsonSchema: undefined }, /^jsonSchema is required$/],
    ["adoptId", { adoptId: "site_2" }, /adoptId must be the site's ID, "site_1"/],
  ];
  rejectsAtCheck(() => env, "SiteAdaptiveSchema", base, bad);

  it("accepts the schema GitBook's docs show, and passes it on as written", async () => {
    const r = await env.check("SiteAdaptiveSchema", { ...base, jsonSchema: { $schema: "http://json-schema.org/draft-07/schema#", ...jsonSchema } });
    expect(r.failures).toBeUndefined();
    expect(r.inputs).toEqual({ organizationId: env.org, siteId: "site_1", jsonSchema: { $schema: "http://json-schema.org/draft-07/schema#", ...jsonSchema } });
  });

  it("skips values not known until apply", async () => {
    const r = await env.check("SiteAdaptiveSchema", { siteId: UNKNOWN, adoptId: "site_9", jsonSchema: claim({ beta: { type: "boolean", description: UNKNOWN } }).jsonSchema });
    expect(r.failures).toBeUndefined();
  });
});

describe("lifecycle", () => {
  let siteId: string;
  let state: State;
  beforeAll(async () => {
    siteId = await newSite();
  });

  it("creates with exactly one PUT, recording the schema, its claims and when it changed", async () => {
    env.emu.log.reset();
    const r = await env.up("SiteAdaptiveSchema", { siteId, jsonSchema });
    state = r.state;
    expect(env.emu.log.byRoute()).toEqual({ [PUT]: 1 });
    expect(state.id).toBe(siteId);
    expect(live(siteId)!.jsonSchema).toEqual(jsonSchema);
    expect(state.outs).toMatchObject({
      siteId,
      jsonSchema,
      updatedAt: expect.any(String),
    });
    expect([...(state.outs.claims as string[])].sort()).toEqual([
      "visitor.claims.account",
      "visitor.claims.account.plan",
      "visitor.claims.isBetaUser",
      "visitor.claims.roles",
      "visitor.claims.seats",
      "visitor.claims.unsigned",
      "visitor.claims.unsigned.language",
    ]);
  });

  it("sends nothing when nothing changed, whatever the order of the schema's keys", async () => {
    env.emu.log.reset();
    const reordered = { additionalProperties: false, properties: { ...jsonSchema.properties }, type: "object" };
    expect((await env.up("SiteAdaptiveSchema", { siteId, jsonSchema: reordered }, state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("replaces the schema whole with one PUT when it changes", async () => {
    env.emu.log.reset();
    const changed = claim({ seats: undefined, beta: { type: "boolean", description: "Beta." } }).jsonSchema;
    delete (changed.properties as Record<string, unknown>).seats;
    const r = await env.up("SiteAdaptiveSchema", { siteId, jsonSchema: changed }, state);
    expect(r.step).toBe("update");
    expect(env.emu.log.byRoute()).toEqual({ [PUT]: 1 });
    expect(live(siteId)!.jsonSchema).toEqual(changed);
    expect(r.state.outs.claims).toContain("visitor.claims.beta");
    expect(r.state.outs.claims).not.toContain("visitor.claims.seats");
    state = (await env.up("SiteAdaptiveSchema", { siteId, jsonSchema }, r.state)).state;
  });

  it("shows a schema edited in the app as drift at refresh, and puts the program's back on the next up", async () => {
    const edited = { type: "object", properties: { fromTheApp: { type: "boolean", description: "x" } }, additionalProperties: false };
    live(siteId)!.jsonSchema = edited;
    const refreshed = await env.refresh("SiteAdaptiveSchema", state);
    expect(refreshed!.inputs.jsonSchema).toEqual(edited);
    expect(refreshed!.state.outs.claims).toEqual(["visitor.claims.fromTheApp"]);
    env.emu.log.reset();
    const r = await env.up("SiteAdaptiveSchema", { siteId, jsonSchema }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(env.emu.log.byRoute()).toEqual({ [PUT]: 1 });
    expect(live(siteId)!.jsonSchema).toEqual(jsonSchema);
    state = r.state;
  });

  it("replaces when the site changes: the new site gets the schema, the old one GitBook's default", async () => {
    const other = await newSite();
    env.emu.log.reset();
    const r = await env.up("SiteAdaptiveSchema", { siteId: other, jsonSchema }, state);
    expect(r.step).toBe("replace");
    expect(r.diff!.replaces).toEqual(["siteId"]);
    expect(r.state.id).toBe(other);
    expect(env.emu.log.byRoute()).toEqual({ [PUT]: 2 });
    expect(live(other)!.jsonSchema).toEqual(jsonSchema);
    expect(live(siteId)!.jsonSchema).toEqual(DEFAULT);
  });

  it("deletes by putting back GitBook's default with one PUT; a site already gone is success", async () => {
    const s = (await env.up("SiteAdaptiveSchema", { siteId, jsonSchema })).state;
    env.emu.log.reset();
    await env.destroy("SiteAdaptiveSchema", s);
    expect(env.emu.log.byRoute()).toEqual({ [PUT]: 1 });
    expect(live(siteId)!.jsonSchema).toEqual(DEFAULT);

    const gone = await newSite();
    const g = (await env.up("SiteAdaptiveSchema", { siteId: gone, jsonSchema })).state;
    env.emu.store.deleteSite(gone);
    await env.destroy("SiteAdaptiveSchema", g);
  });

  it("drops the schema at refresh when its site is gone, or left without one", async () => {
    const a = await newSite();
    const s = (await env.up("SiteAdaptiveSchema", { siteId: a, jsonSchema })).state;
    env.emu.store.deleteSite(a);
    expect(await env.refresh("SiteAdaptiveSchema", s)).toBeUndefined();

    const b = await newSite();
    const t = (await env.up("SiteAdaptiveSchema", { siteId: b, jsonSchema })).state;
    env.emu.store.adaptiveSchemas.delete(b);
    expect(await env.refresh("SiteAdaptiveSchema", t)).toBeUndefined();
  });

  it("adopts a site's schema: nothing written when it is already the program's, one PUT when not", async () => {
    const same = await newSite();
    await env.up("SiteAdaptiveSchema", { siteId: same, jsonSchema }); // set outside this resource's state
    env.emu.log.reset();
    const kept = await env.up("SiteAdaptiveSchema", { siteId: same, jsonSchema, adoptId: same });
    expect(kept.state.id).toBe(same);
    expect(env.emu.log.writes()).toBe(0);

    const differs = await newSite();
    await env.up("SiteAdaptiveSchema", { siteId: differs, jsonSchema: DEFAULT });
    env.emu.log.reset();
    const converged = await env.up("SiteAdaptiveSchema", { siteId: differs, jsonSchema, adoptId: differs });
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.byRoute()[PUT]).toBe(1);
    expect(live(differs)!.jsonSchema).toEqual(jsonSchema);
    expect(converged.state.outs.jsonSchema).toEqual(jsonSchema);
  });
});
