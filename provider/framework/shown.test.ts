/**
 * Plans name references (framework/shown.ts): check turns the entries the class records into their
 * text, and neither create nor update of any kind ever sees `names`, so none can send it. What the
 * class records, for every kind, is in define.test.ts.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resources } from "../resources/index";
import { UNKNOWN } from "./check";
import { defineResource, type Resource } from "./define";
import * as engine from "./engine";
import { field, id } from "./fields";
import { NAMES } from "./shown";
import type { ProviderRuntime } from "../config";

describe("names as check records them", () => {
  it("shows an ID not known yet as (new), and a title not known yet by the program's name", () => {
    const entry = (idValue: string, title: string) => ({ id: idValue, path: [{ title, name: "guides" }] });
    const schema = resources.find((d) => d.kind === "SiteSectionGroup")!.schema.shape[NAMES] as z.ZodType;
    expect(schema.parse({ spaceId: entry(UNKNOWN, "Guides"), siteId: entry("site_1", UNKNOWN), sections: [entry(UNKNOWN, UNKNOWN), "sitesc_2"] })).toEqual({
      spaceId: "Guides (new)",
      siteId: "guides (site_1)",
      sections: ["guides (new)", "sitesc_2"],
    });
  });

  it("drops a `names` value it cannot read rather than failing the plan", () => {
    const schema = resources.find((d) => d.kind === "SiteSpace")!.schema.shape[NAMES] as z.ZodType;
    expect(schema.parse({ spaceId: 42 })).toBeUndefined();
    expect(schema.parse(UNKNOWN)).toBeUndefined();
  });
});

describe("names never reach a kind's create or update", () => {
  const seen: Record<string, unknown>[] = [];
  const def = defineResource({
    kind: "Probe",
    noun: "probe",
    summary: "",
    inputs: z.object({ spaceId: id().describe("A reference."), title: z.string().optional().describe("A title.").register(field, {}) }),
    outputs: z.object({}),
    live: () => ({}),
    computed: () => ({}),
    create: async (_ctx, inputs) => (seen.push(inputs), { id: "p1", outs: { ...inputs } as never }),
    read: async (_ctx, _id, props) => props,
    update: async (_ctx, _id, olds, news) => (seen.push(news), { ...olds, ...news } as never),
    delete: async () => {},
  }) as unknown as Resource;
  const rt = { client: () => ({}), config: () => ({ token: undefined }) } as unknown as ProviderRuntime;

  it("is kept from create and update, and put back into the outputs", async () => {
    const names = { spaceId: "Guides (space_1)" };
    const created = await engine.create(rt, def, { spaceId: "space_1", [NAMES]: names });
    expect(seen.at(-1)).toEqual({ spaceId: "space_1" });
    expect(created.outs).toEqual({ spaceId: "space_1", [NAMES]: names });
    const renamed = { spaceId: "API (space_2)" };
    const updated = await engine.update(rt, def, "p1", { spaceId: "space_1", [NAMES]: names }, { spaceId: "space_2", [NAMES]: renamed });
    expect(seen.at(-1)).toEqual({ spaceId: "space_2" });
    expect(updated.outs).toEqual({ spaceId: "space_2", [NAMES]: renamed });
  });

  it("is no change by itself", async () => {
    const d = await engine.diff(rt, def, "p1", { spaceId: "space_1", [NAMES]: { spaceId: "Guides (space_1)" } }, { spaceId: "space_1", [NAMES]: { spaceId: "Renamed (space_1)" } });
    expect(d.changes).toBe(false);
  });
});
