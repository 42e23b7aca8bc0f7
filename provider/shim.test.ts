import * as pulumi from "@pulumi/pulumi";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ShareLink, Site } from "./index";

describe("serialized provider", () => {
  // The resource classes serialize their shim through the SDK's public serializeFunction (define.ts),
  // as pulumi.dynamic.Resource does through the module behind it; define.test.ts compares the texts.
  const spy = vi.spyOn(pulumi.runtime, "serializeFunction");
  afterAll(() => spy.mockRestore());

  it("is serialized once per resource kind, however many resources a program declares", async () => {
    await pulumi.runtime.setMocks({ newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: () => ({}) }, "shim", "test", false);
    const sites = Array.from({ length: 5 }, (_, i) => new Site(`site-${i}`, { title: `Docs ${i}`, organizationId: "org" }));
    const links = Array.from({ length: 3 }, (_, i) => new ShareLink(`link-${i}`, { siteId: sites[0]!.id, name: `n${i}`, organizationId: "org" }));
    await Promise.all([...sites, ...links].map((r) => new Promise((ok) => r.urn.apply(ok))));
    // Before: one serialization per resource, tens of milliseconds of the program's CPU each.
    expect(spy).toHaveBeenCalledTimes(2);
    const texts = await Promise.all(spy.mock.results.map((r) => (r.value as Promise<{ text: string }>).then((s) => s.text)));
    expect(texts[0]).toContain('"Site"');
    expect(texts[1]).toContain('"ShareLink"');
  });
});
