/**
 * Plans name references (framework/shown.ts), derived once for every kind: each field declared with
 * `id()` is named in `names` when the program passes a resource's `id` output, by that resource's
 * title beside the ID; a literal ID registers nothing extra; check turns entries into their text; and
 * neither create nor update of any kind ever sees `names`, so none can send it.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resources } from "../resources/index";
import { Site } from "../index";
import { UNKNOWN } from "./check";
import { defineResource, resourceClass, type Resource } from "./define";
import * as engine from "./engine";
import { field, id } from "./fields";
import { NAMES } from "./shown";
import type { ProviderRuntime } from "../config";

const registered = new Map<string, Record<string, unknown>>();
beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        registered.set(a.name, a.inputs);
        return { id: `${a.name}-id`, state: a.inputs };
      },
      call: () => ({}),
    },
    "shown",
    "test",
    false,
  );
});

const settled = (r: pulumi.CustomResource) => new Promise<void>((ok) => r.urn.apply(() => ok()));

/** What each kind refers to: written out, so that a change in what the derivation finds is seen here. */
const expected: Record<string, string[]> = {
  Site: [],
  SiteSection: ["siteId", "spaceId", "groupId"],
  SiteSpace: ["siteId", "spaceId", "sectionId"],
  SiteSectionGroup: ["siteId", "sections"],
  SiteExternalLink: ["siteId", "groupId"],
  // Its lists are named by its own `navigation`.
  SiteStructureOrder: ["siteId"],
  SiteAdaptiveSchema: ["siteId"],
  SitePublication: ["siteId"],
  ShareLink: ["siteId"],
  Space: ["parent"],
  Collection: ["parent"],
  Team: [],
  SamlProvider: ["defaultTeam"],
  OpenApiSpec: [],
};

describe("names of references, for every kind", () => {
  it("derives the references of every registered kind from its declaration, and adds `names` only where there are some", () => {
    expect(Object.keys(expected).sort()).toEqual(resources.map((d) => d.kind).sort());
    for (const def of resources) {
      expect([...def.references], def.kind).toEqual(expected[def.kind]);
      expect(NAMES in def.schema.shape, def.kind).toBe(def.references.length > 0);
      if (def.references.length > 0) expect(def.display, def.kind).toContain(NAMES);
      // Never compared or sent.
      expect(def.diff.fields, def.kind).not.toContain(NAMES);
      expect(def.patch.patchable, def.kind).not.toContain(NAMES);
    }
  });

  for (const def of resources.filter((d) => d.references.length > 0)) {
    it(`${def.kind}: names each reference given as a resource's id output by its title, and a literal ID not at all`, async () => {
      const Class = resourceClass(def as Resource) as unknown as new (name: string, args: Record<string, unknown>) => pulumi.CustomResource;
      const target = new Site(`${def.kind}-target`, { title: `Target of ${def.kind}` });
      const untitled = new Class(`${def.kind}-untitled`, {});
      for (const f of def.references) {
        const list = def.schema.shape[f] instanceof z.ZodOptional ? (def.schema.shape[f] as z.ZodOptional).unwrap() : def.schema.shape[f];
        const many = list instanceof z.ZodArray;
        const ref = (v: unknown) => (many ? [v, "literal_1"] : v);
        const named = new Class(`${def.kind}-${f}`, { [f]: ref(target.id) });
        const byName = new Class(`${def.kind}-${f}-byname`, { [f]: ref(untitled.id) });
        const literal = new Class(`${def.kind}-${f}-literal`, { [f]: ref("literal_2") });
        await Promise.all([named, byName, literal].map(settled));

        // What check records: the text plans show.
        const shown = (name: string) => (def.schema.shape[NAMES] as z.ZodType).parse(registered.get(name)![NAMES]);
        const text = (t: string) => (many ? [t, "literal_1"] : t);
        expect(shown(`${def.kind}-${f}`), `${def.kind}.${f}`).toEqual({ [f]: text(`Target of ${def.kind} (${def.kind}-target-id)`) });
        // A resource without a title is named as the program names it.
        const untitledTitle = (registered.get(`${def.kind}-untitled`) as Record<string, unknown>).title;
        expect(shown(`${def.kind}-${f}-byname`), `${def.kind}.${f}`).toEqual({ [f]: text(`${typeof untitledTitle === "string" ? untitledTitle : `${def.kind}-untitled`} (${def.kind}-untitled-id)`) });
        expect(NAMES in registered.get(`${def.kind}-${f}-literal`)!, `${def.kind}.${f}`).toBe(false);
      }
    });
  }

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
    create: async (_ctx, inputs) => (seen.push(inputs), { id: "p1", outs: { ...inputs } }),
    read: async (_ctx, _id, props) => props,
    update: async (_ctx, _id, olds, news) => (seen.push(news), { ...olds, ...news }),
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
