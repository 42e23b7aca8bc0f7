/**
 * The resource class's constructor (define.ts resourceClass): what it registers with the SDK, and that
 * constructing a resource captures no stacks yet keeps the program's frames in its errors.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { SiteSection, Site } from "../index";
import { providerFor } from "../shim";
import { NAME_KEY } from "./resource";

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
    "define",
    "test",
    false,
  );
});

const settled = (r: pulumi.CustomResource) => new Promise<void>((ok) => r.urn.apply(() => ok()));
/** The properties the SDK made Outputs of: what was registered, set or not (the mocks see only the set ones). */
const registeredKeys = (r: pulumi.CustomResource) =>
  Object.keys(r)
    .filter((k) => k !== "urn" && k !== "id" && pulumi.Output.isInstance((r as unknown as Record<string, unknown>)[k]))
    .sort();
const valueOf = <T>(o: pulumi.Output<T>) => new Promise<T>((ok) => o.apply((v) => ok(v)));

describe("a resource's registration", () => {
  it("carries the inputs the program declares and the outputs GitBook reports, not every input of the schema", async () => {
    const section = new SiteSection("guides", { siteId: "site_1", spaceId: "spc_1", title: "Guides" });
    await settled(section);
    // Before: every input of the schema (icon, path, condition, description, groupId, default,
    // forceDestroy, adoptId) was registered unset, four promises each.
    expect(registeredKeys(section)).toEqual(["__provider", NAME_KEY, "organizationId", "siteId", "siteSpaceId", "spaceId", "title", "urls"].sort());
    expect(typeof registered.get("guides")!.__provider).toBe("string");
  });

  it("still gives every input the program leaves unset as an Output, of undefined", async () => {
    const section = new SiteSection("api", { siteId: "site_1", spaceId: "spc_2" });
    expect(pulumi.Output.isInstance(section.icon)).toBe(true);
    expect(await valueOf(section.icon)).toBeUndefined();
    // A declared one is the SDK's Output of what the provider reported.
    expect(await valueOf(section.spaceId)).toBe("spc_2");
    expect(await valueOf(section.siteId)).toBe("site_1");
  });

  it("carries the very __provider text pulumi.dynamic.Resource stores, so resources already in state see no change", async () => {
    const ours = new Site("ours", { title: "Docs" });
    // The SDK declares the class abstract; a subclass that adds nothing constructs it as the SDK does.
    class SdkResource extends pulumi.dynamic.Resource {}
    const sdk = new SdkResource(providerFor("Site"), "sdk", {}, undefined, "gitbook", "Site");
    await Promise.all([settled(ours), settled(sdk)]);
    expect(registered.get("ours")!.__provider).toContain('require("pulumi-gitbook/impl")');
    expect(registered.get("ours")!.__provider).toBe(registered.get("sdk")!.__provider);
  });

  it("registers a live field the program leaves unset, since GitBook reports its value", async () => {
    const site = new Site("docs", { title: "Docs" });
    await settled(site);
    expect(registeredKeys(site)).toContain("visibility");
    expect(registeredKeys(site)).not.toContain("basename");
  });
});

describe("constructing a resource", () => {
  it("leaves Error.stackTraceLimit as it found it", () => {
    const before = Error.stackTraceLimit;
    new Site("limit", { title: "Docs" });
    expect(Error.stackTraceLimit).toBe(before);
    expect(() => new Site("", { title: "Docs" })).toThrow();
    expect(Error.stackTraceLimit).toBe(before);
  });

  it("fails with the program's frame in the stack, though it captures none while the SDK registers", () => {
    let err: Error | undefined;
    try {
      new Site("", { title: "Docs" }); // the SDK refuses a resource without a name
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toMatch(/Missing resource name/);
    expect(err?.stack).toMatch(/define\.test\.ts:\d+/);
  });
});
