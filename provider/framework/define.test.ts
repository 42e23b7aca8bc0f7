/**
 * The resource class's constructor (define.ts resourceClass): what it registers with the SDK, and that
 * constructing a resource captures no stacks yet keeps the program's frames in its errors; and, for
 * every kind, the `names` it registers beside the references (framework/shown.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { SiteSection, Site, ShareLink, SitePublication, SiteSpace } from "../index";
import { serializedShim, SHIM_PROTOCOL } from "../shim";
import { NAME_KEY } from "./resource";
import { z } from "zod";
import { resources } from "../resources/index";
import { resourceClass, type Resource } from "./define";
import { NAMES } from "./shown";

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
    expect(registeredKeys(section)).toEqual(["__provider", NAME_KEY, "organizationId", "siteId", "siteSpaceId", "spaceId", "title"].sort());
    expect(typeof registered.get("guides")!.__provider).toBe("string");
  });

  // Issue 42: what their state holds is built on the site's address, which the Site (and the section) write before them.
  it("gives what the program declares of the site's address to the kinds whose state is built on it, and nothing for a literal ID", async () => {
    const site = new Site("addressed", { title: "Addressed Docs", basename: "docs", proxy: "acme.test/docs" });
    const link = new ShareLink("addressed-link", { siteId: site.id, name: "Reviewers" });
    const live = new SitePublication("addressed-live", { siteId: site.id, published: true });
    // A section and a site space, only when their old-path rules lead to their URL; a site space's section's path too.
    const moving = new SiteSection("addressed-moving", { siteId: site.id, spaceId: "spc_1", path: "guides", redirectOldPath: true });
    const still = new SiteSection("addressed-still", { siteId: site.id, spaceId: "spc_2", path: "api" });
    const v2 = new SiteSpace("addressed-v2", { siteId: site.id, sectionId: moving.id, spaceId: "spc_3", redirectOldPath: true });
    const plain = new ShareLink("plain-link", { siteId: "site_1", name: "Reviewers", address: { basename: "set by hand" } } as never);
    const bare = new Site("bare", { title: "Bare Docs" });
    const unaddressed = new ShareLink("bare-link", { siteId: bare.id, name: "Reviewers" });
    await Promise.all([link, live, moving, still, v2, plain, unaddressed].map(settled));
    const address = { basename: "docs", proxy: "acme.test/docs" };
    expect(registered.get("addressed-link")!.address).toEqual(address);
    expect(registered.get("addressed-live")!.address).toEqual(address);
    expect(registered.get("addressed-moving")!.address).toEqual(address);
    expect(registered.get("addressed-v2")!.address).toEqual({ ...address, sectionPath: "guides" });
    expect(registered.get("addressed-still")!.address).toBeUndefined();
    // Never the program's to set: a literal site ID says nothing of a Site's address, and a Site declaring none gives none.
    expect(registered.get("plain-link")!.address).toBeUndefined();
    expect(registered.get("bare-link")!.address).toBeUndefined();
  });

  it("still gives every input the program leaves unset as an Output, of undefined", async () => {
    const section = new SiteSection("api", { siteId: "site_1", spaceId: "spc_2" });
    expect(pulumi.Output.isInstance(section.icon)).toBe(true);
    expect(await valueOf(section.icon)).toBeUndefined();
    // A declared one is the SDK's Output of what the provider reported.
    expect(await valueOf(section.spaceId)).toBe("spc_2");
    expect(await valueOf(section.siteId)).toBe("site_1");
  });

  /** A shim's provider as the host makes it (require-from-string, then `handler()`), its package a recording stub. */
  const evaluated = (text: string) => {
    const calls: unknown[][] = [];
    const impl = { dispatch: async (...a: unknown[]) => (calls.push(a), { from: "impl" }) };
    const module = { exports: {} as { handler?: () => Record<string, (...args: unknown[]) => Promise<unknown>> } };
    new Function("exports", "require", "module", text)(module.exports, (id: string) => (id === "pulumi-gitbook/impl" ? impl : undefined), module);
    return { provider: module.exports.handler!(), calls };
  };

  it("writes, for every kind, a small __provider whose provider hands each of the host's calls to the installed package, without the SDK's serializer", async () => {
    const serialize = vi.spyOn(pulumi.runtime, "serializeFunction");
    const texts = resources.map((def) => [def.kind, serializedShim(def.kind)] as const);
    expect(serialize).not.toHaveBeenCalled();
    serialize.mockRestore();
    for (const [kind, text] of texts) {
      // The SDK's serialization of the same provider was 2.7 kB, carried in every resource's inputs and outputs.
      expect(text.length, kind).toBeLessThan(400);
      const { provider, calls } = evaluated(text);
      const methods = ["configure", "check", "diff", "create", "read", "update", "delete"];
      expect(Object.keys(provider).sort(), kind).toEqual([...methods].sort());
      for (const m of methods) expect(await provider[m]!("a", { b: 1 }), `${kind}.${m}`).toEqual({ from: "impl" });
      expect(calls, kind).toEqual(methods.map((m) => [SHIM_PROTOCOL, kind, m, ["a", { b: 1 }]]));
    }
  });

  it("registers that text, the same for every resource of a kind", async () => {
    const [a, b] = [new Site("a", { title: "Docs" }), new Site("b", { title: "Other" })];
    await Promise.all([settled(a), settled(b)]);
    expect(registered.get("a")!.__provider).toBe(serializedShim("Site"));
    expect(registered.get("b")!.__provider).toBe(serializedShim("Site"));
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

/** What each kind refers to: written out, so that a change in what the derivation finds is seen here. */
const expected: Record<string, string[]> = {
  Site: [],
  SiteSection: ["siteId", "spaceId", "groupId"],
  SiteSpace: ["siteId", "sectionId", "spaceId"],
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
  SiteCustomization: ["siteId"],
  SiteSpaceCustomization: ["siteId", "siteSpaceId"],
  SiteVisitorAuth: ["siteId"],
  SiteCustomHostname: ["siteId"],
  GitSyncInstallation: ["siteId", "spaceId"],
  Permission: ["siteId", "spaceId", "collectionId", "teamId", "userId"],
  // Its lists' entries hold team and user IDs inside objects: not named.
  AccessList: ["siteId", "spaceId", "collectionId"],
  SiteRedirect: ["siteId"],
  SiteRedirects: ["siteId"],
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
        // A literal of its own per kind: the program's cross-resource checks (one SiteRedirects per site) span the tests.
        const literal = new Class(`${def.kind}-${f}-literal`, { [f]: ref(`literal_${def.kind}`) });
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
});
