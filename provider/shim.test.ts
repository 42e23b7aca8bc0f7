import * as pulumi from "@pulumi/pulumi";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ShareLink, Site } from "./index";
import { providerFor } from "./shim";

describe("serialized provider", () => {
  const spy = vi.spyOn(pulumi.runtime, "serializeFunction");
  afterAll(() => spy.mockRestore());
  const inputs = new Map<string, Record<string, unknown>>();

  it("is serialized once per resource kind, however many resources a program declares", async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (a) => {
          inputs.set(a.name, a.inputs);
          return { id: `${a.name}-id`, state: a.inputs };
        },
        call: () => ({}),
      },
      "shim",
      "test",
      false,
    );
    const sites = Array.from({ length: 5 }, (_, i) => new Site(`site-${i}`, { title: `Docs ${i}`, organizationId: "org" }));
    const links = Array.from({ length: 3 }, (_, i) => new ShareLink(`link-${i}`, { siteId: sites[0]!.id, name: `n${i}`, organizationId: "org" }));
    await Promise.all([...sites, ...links].map((r) => new Promise((ok) => r.urn.apply(ok))));
    // Before: one serialization per resource, tens of milliseconds of the program's CPU each.
    expect(spy).toHaveBeenCalledTimes(2);
    const texts = await Promise.all(spy.mock.results.map((r) => (r.value as Promise<{ text: string }>).then((s) => s.text)));
    expect(texts[0]).toContain('"Site"');
    expect(texts[1]).toContain('"ShareLink"');
  });

  it("is the very text pulumi.dynamic.Resource stores, so resources already in state see no change", async () => {
    // The classes extend CustomResource and set __provider themselves (define.ts); the SDK's own
    // dynamic.Resource, given the same shim object, must produce the same bytes.
    const sdk = new pulumi.dynamic.Resource(providerFor("Site"), "sdk-site", {}, undefined, "gitbook", "Site");
    await new Promise((ok) => sdk.urn.apply(ok));
    const ours = inputs.get("site-0")?.__provider;
    expect(typeof ours).toBe("string");
    expect(inputs.get("sdk-site")?.__provider).toBe(ours);
  });
});
