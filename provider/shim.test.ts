import * as pulumi from "@pulumi/pulumi";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ShareLink, Site } from "./index";

describe("serialized provider", () => {
  // The resource classes write their shim's text themselves (shim.ts serializedShim): the SDK's
  // serializer parses each function with TypeScript. define.test.ts runs the text of every kind.
  const spy = vi.spyOn(pulumi.runtime, "serializeFunction");
  afterAll(() => spy.mockRestore());

  it("is never serialized by the SDK, however many resources a program declares", async () => {
    const inputs = new Map<string, Record<string, unknown>>();
    await pulumi.runtime.setMocks(
      { newResource: (a) => (inputs.set(a.name, a.inputs), { id: `${a.name}-id`, state: a.inputs }), call: () => ({}) },
      "shim",
      "test",
      false,
    );
    const sites = Array.from({ length: 5 }, (_, i) => new Site(`site-${i}`, { title: `Docs ${i}`, organizationId: "org" }));
    const links = Array.from({ length: 3 }, (_, i) => new ShareLink(`link-${i}`, { siteId: sites[0]!.id, name: `n${i}`, organizationId: "org" }));
    await Promise.all([...sites, ...links].map((r) => new Promise((ok) => r.urn.apply(ok))));
    // Before: once per kind, the first about 0.3 s of the program's CPU, each further one tens of milliseconds.
    expect(spy).not.toHaveBeenCalled();
    expect(inputs.get("site-4")!.__provider).toContain('const kind = "Site"');
    expect(inputs.get("link-2")!.__provider).toContain('const kind = "ShareLink"');
  });
});
