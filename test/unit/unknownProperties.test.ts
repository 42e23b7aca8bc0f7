/**
 * A property a kind does not have fails check, for every kind of the registry, at the top level and in
 * every object an input holds (framework/check.ts): zod would drop it, so a misspelt `icnon` passed
 * through `as any` or from JSON config deployed with nothing in the plan. The failure names the property,
 * the kind and the nearest property it has, and no request is sent.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ruleOf } from "../../provider/framework/fields";
import { resources } from "../../provider/resources";
import { SiteSection } from "../../provider";
import { providerEnvPerFile, type ProviderEnv } from "../support/provider";

let env: ProviderEnv;
providerEnvPerFile((e) => (env = e));

/** The object schemas a field holds, directly or as a list's elements, through optional and the like; none for a loose or strict one (zod keeps or refuses its unknown keys itself). */
function objectIn(s: z.ZodType): { list: boolean } | undefined {
  const inner = (x: z.ZodType): z.ZodType =>
    x instanceof z.ZodOptional || x instanceof z.ZodNullable || x instanceof z.ZodDefault || x instanceof z.ZodCatch ? inner(x.unwrap() as z.ZodType) : x instanceof z.ZodPipe ? inner(x.out as z.ZodType) : x;
  const x = inner(s);
  if (x instanceof z.ZodObject) return x.def.catchall === undefined ? { list: false } : undefined;
  if (x instanceof z.ZodArray && objectIn(x.element as z.ZodType)) return { list: true };
  return undefined;
}

it("names the example of the issue: a SiteSection's icnon, dropped before", async () => {
  const r = await env.check("SiteSection", { siteId: "site_1", spaceId: "spc_1", icnon: "book" });
  expect(r.failures).toEqual([
    {
      property: "icnon",
      reason: "icnon is not an input of SiteSection (did you mean icon?): correct its name or remove it. Nothing is sent for a property the resource does not have, so as written it would change nothing.",
    },
  ]);
  expect(env.emu.log.count()).toBe(0);
});

describe.each(resources.map((def) => [def.kind, def] as const))("%s", (kind, def) => {
  const shape = def.schema.shape as Record<string, z.ZodType>;
  const fields = Object.keys(shape).filter((f) => ruleOf(shape[f]!).display !== true);

  it("refuses each of its inputs misspelt, naming the input it has", async () => {
    for (const f of fields) {
      const misspelt = `${f}${f.at(-1)}`;
      const r = await env.check(kind, { [misspelt]: "x" });
      expect(r.failures, misspelt).toContainEqual({ property: misspelt, reason: expect.stringMatching(new RegExp(`^${misspelt} is not an input of ${kind} \\(did you mean ${f}\\?\\)`)) });
    }
    expect(env.emu.log.count()).toBe(0);
  });

  const nested = fields.flatMap((f) => {
    const o = objectIn(shape[f]!);
    return o ? [{ f, value: o.list ? [{ zzzz: 1 }] : { zzzz: 1 }, property: o.list ? `${f}[0].zzzz` : `${f}.zzzz` }] : [];
  });
  // Kinds whose inputs hold no such object (or only strict and loose ones, which zod refuses or keeps) have nothing more to test.
  if (nested.length === 0) return;
  it(`refuses a property an object of its inputs does not have (${nested.map((n) => n.f).join(", ")})`, async () => {
    for (const { value, property } of nested) {
      const r = await env.check(kind, { [property.split(/[.[]/)[0]!]: value });
      expect(r.failures, property).toContainEqual({ property, reason: expect.stringMatching(/ is not a field of .*: correct its name or remove it/) });
    }
    expect(env.emu.log.count()).toBe(0);
  });
});

it("hands a property the program passes through `as any` to check, where it fails (the class registers what it is given)", async () => {
  const inputs: Record<string, unknown>[] = [];
  await pulumi.runtime.setMocks({ newResource: (args) => (inputs.push(args.inputs), { id: `${args.name}-id`, state: args.inputs }), call: () => ({}) }, "unknownProperties", "test", false);
  const section = new SiteSection("strays-section", { siteId: "site_1", spaceId: "spc_1", icnon: "book" } as never);
  await new Promise((resolve) => section.urn.apply(resolve));
  expect(inputs[0]).toMatchObject({ icnon: "book" });
});
