/**
 * A reference the program gives another resource's `id` output, when that resource was not created in
 * the run (`up --continue-on-error` goes on to its dependents), for every kind and every reference of
 * the registry: the engine sends the field as nothing (left out, null in a list), and `names`, which the
 * class records, holds the entry without its `id`. Check fails the field, once, naming it and why, with
 * no request sent, whether it is required or optional: an optional one passed as absent before, and the
 * answer then held the unreadable `names` as `undefined`, which the SDK's host cannot encode ("Unexpected
 * struct type.", a stack trace, and the program stopped registering resources).
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { z } from "zod";
const NO_VALUE = "has no value: the program gives it another resource's output, and that resource was not created in this run (see its error)";
import { NAMES } from "../../provider/framework/shown";
import { resources } from "../../provider/resources";
import { providerEnvPerFile, type ProviderEnv } from "../support/provider";

let env: ProviderEnv;
providerEnvPerFile((e) => (env = e));

/** What the provider host does with check's answer (cmd/dynamic-provider check): it must not throw. */
const encodes = (inputs: Record<string, unknown> | undefined) => expect(() => Struct.fromJavaScript({ ...inputs, __provider: "x" } as never)).not.toThrow();

/** The entry the class records for `upstream.id`, as the engine sends it when upstream has no ID: without `id`. */
const noId = { path: [{ name: "upstream", title: "Upstream" }] };

const isList = (s: z.ZodType): boolean => (s instanceof z.ZodOptional || s instanceof z.ZodNullable ? isList(s.unwrap() as z.ZodType) : s instanceof z.ZodArray);

it("names the example of the issue: a SamlProvider's defaultTeam from a Team whose create failed", async () => {
  const r = await env.check("SamlProvider", { __gitbookName: "sso", label: "Okta", [NAMES]: { defaultTeam: { path: [{ name: "docs-writers", title: "Writers" }] } } });
  expect(r.failures).toEqual([{ property: "defaultTeam", reason: `defaultTeam ${NO_VALUE}` }]);
  encodes(r.inputs);
  expect(env.emu.log.count()).toBe(0);
});

it("answers inputs the host can encode when `names` holds what it cannot read, and the field is simply not given", async () => {
  const r = await env.check("SamlProvider", { label: "Okta", [NAMES]: { defaultTeam: { unreadable: 1 } } });
  expect(r.failures ?? []).toEqual([]);
  expect(r.inputs).not.toHaveProperty(NAMES);
  encodes(r.inputs);
});

describe.each(resources.filter((def) => def.references.length > 0).map((def) => [def.kind, def] as const))("%s", (kind, def) => {
  const shape = def.schema.shape as Record<string, z.ZodType>;

  it.each(def.references.map((f) => [f]))("fails %s, once, when the resource it names was not created", async (f) => {
    const list = isList(shape[f]!);
    // In a list, the element the failed resource gives is null, beside one that resolved.
    const news = list ? { [f]: ["given_1", null], [NAMES]: { [f]: [{ id: "given_1", path: [] }, noId] } } : { [NAMES]: { [f]: noId } };
    const property = list ? `${f}[1]` : f;
    const r = await env.check(kind, news);
    expect(r.failures?.filter((x) => x.property.startsWith(f))).toEqual([{ property, reason: `${property} ${NO_VALUE}` }]);
    encodes(r.inputs);
    expect(env.emu.log.count()).toBe(0);
  });

  const optional = def.references.filter((f) => shape[f]!.safeParse(undefined).success);
  if (optional.length === 0) return;
  it(`says nothing of ${optional.join(", ")} having no value when the program does not give it`, async () => {
    const r = await env.check(kind, {});
    expect(r.failures?.filter((x) => x.reason.includes(NO_VALUE)) ?? []).toEqual([]);
    encodes(r.inputs);
  });
});
