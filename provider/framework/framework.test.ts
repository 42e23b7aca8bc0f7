/**
 * The resource-independent contract with Pulumi: configuration and the missing-token error, check's
 * property paths and unknown values, diff's null/absent rule, read's "gone" answer, and partial
 * failures that keep `__provider`.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Emulator } from "../../emulator";
import { createProvider } from "../impl";
import { checkInputs, UNKNOWN } from "./check";
import { diffProps } from "./diff";
import * as engine from "./engine";
import type { Resource } from "./define";
import { PartialFailure } from "./failure";
import { ADOPT_KEY } from "./state";

const source = (cfg: Record<string, string>) => ({ get: (k: string) => cfg[k] });
const saved = { ...process.env };
// A provider of its own per test, as the host has one per process.
let provider = createProvider();
const dispatch: typeof provider.dispatch = (...args) => provider.dispatch(...args);
const configureFrom = (cfg: ReturnType<typeof source>) => provider.runtime.configure(cfg);
const resetConfig = () => {
  provider.runtime.resetClients();
  provider = createProvider();
};
afterEach(() => {
  process.env = { ...saved };
  resetConfig();
});

describe("configuration", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await Emulator.start();
  });
  afterAll(async () => emu.close());

  it("fails before any request when no token is set, naming both ways to set it", async () => {
    delete process.env.GITBOOK_TOKEN;
    configureFrom(source({ "gitbook:apiUrl": emu.url }));
    emu.log.reset();
    const err = (await dispatch(1, "Site", "create", [{ organizationId: emu.seeded.organizationId, title: "Docs", type: "basic", visibility: "public" }]).catch((e) => e)) as Error;
    expect(err.message).toContain("pulumi config set --secret gitbook:token");
    expect(err.message).toContain("GITBOOK_TOKEN");
    expect(emu.log.count()).toBe(0);
  });

  it("takes stack config first, then the environment", () => {
    process.env.GITBOOK_TOKEN = "from-env";
    process.env.GITBOOK_API_URL = "https://env.example";
    process.env.GITBOOK_ORGANIZATION_ID = "org_env";
    expect(provider.runtime.config()).toMatchObject({ token: "from-env", apiUrl: "https://env.example", organizationId: "org_env" });
    configureFrom(source({ "gitbook:token": "from-config", "gitbook:organizationId": "org_cfg" }));
    expect(provider.runtime.config()).toMatchObject({ token: "from-config", apiUrl: "https://env.example", organizationId: "org_cfg" });
  });

  it("fails at configure on a malformed gitbook:apiUrl, naming it, and never falls back to the default API", async () => {
    for (const [value, shown, why] of [
      ["notaurl", "notaurl", "is not an absolute URL"],
      ["ftp://api.example", "ftp://api.example", 'has the scheme "ftp", not http or https'],
      // The password is not repeated in the message.
      ["https://user:pw@api.example", "https://***@api.example", "carries credentials (the token goes in gitbook:token)"],
      // The emulator's http on this machine is taken (every test's apiUrl); another host's is not.
      ["http://api.gitbook.com", "http://api.gitbook.com", "is plain http to api.gitbook.com, which would send the token unencrypted over the network (http is taken only for this machine: localhost, 127.0.0.1, [::1]); use https"],
      ["http://gitbook-emulator:8080", "http://gitbook-emulator:8080", "is plain http to gitbook-emulator, which would send the token unencrypted over the network (http is taken only for this machine: localhost, 127.0.0.1, [::1]); use https"],
    ]) {
      resetConfig();
      const cfg = source({ "gitbook:token": "t", "gitbook:apiUrl": value! });
      const err = (await dispatch(1, "Site", "configure", [{ config: cfg }]).catch((e) => e)) as Error;
      expect(err.message).toBe(
        `gitbook:apiUrl is "${shown}", which ${why}; it must be the API's base URL, e.g. https://api.gitbook.com (\`pulumi config set gitbook:apiUrl <url>\`, or \`pulumi config rm gitbook:apiUrl\` for the default).`,
      );
      // The host configures a provider once and keeps using it: every later call fails the same way.
      for (const [method, args] of [
        ["check", [{}, { title: "Docs" }]],
        ["create", [{ organizationId: "org", title: "Docs" }]],
        ["read", ["site_x", { organizationId: "org" }]],
        ["delete", ["site_x", { organizationId: "org" }]],
      ] as const) {
        await expect(dispatch(1, "Site", method, args as unknown as unknown[])).rejects.toThrow(/^gitbook:apiUrl is /);
      }
    }
  });

  it("names GITBOOK_API_URL when the malformed URL came from the environment", async () => {
    process.env.GITBOOK_API_URL = "notaurl";
    const err = (await dispatch(1, "Site", "configure", [{ config: source({ "gitbook:token": "t" }) }]).catch((e) => e)) as Error;
    expect(err.message).toMatch(/^GITBOOK_API_URL \(gitbook:apiUrl is not set\) is "notaurl", which is not an absolute URL; .*fix or unset GITBOOK_API_URL, or set gitbook:apiUrl/);
  });

  it("fails on a malformed number of seconds, naming the setting, instead of silently using the default", async () => {
    const err = (await dispatch(1, "Site", "configure", [{ config: source({ "gitbook:requestTimeoutSeconds": "30s" }) }]).catch((e) => e)) as Error;
    expect(err.message).toMatch(/^gitbook:requestTimeoutSeconds is "30s", which is not a positive number of seconds/);
    resetConfig();
    process.env.GITBOOK_OPENAPI_WAIT_SECONDS = "-1";
    await expect(dispatch(1, "Site", "configure", [{ config: source({}) }])).rejects.toThrow(/^GITBOOK_OPENAPI_WAIT_SECONDS \(gitbook:openApiWaitSeconds is not set\) is "-1"/);
  });

  it("reaches the API with the configured token, and the organization default fills check", async () => {
    configureFrom(source({ "gitbook:token": emu.token, "gitbook:apiUrl": emu.url, "gitbook:organizationId": emu.seeded.organizationId }));
    const checked = (await dispatch(1, "Site", "check", [{}, { title: "Docs" }])) as { inputs: Record<string, unknown> };
    expect(checked.inputs.organizationId).toBe(emu.seeded.organizationId);
    const created = (await dispatch(1, "Site", "create", [checked.inputs])) as { id: string };
    expect(emu.store.sites.has(created.id)).toBe(true);
  });
});

describe("check", () => {
  const schema = z.object({
    organizationId: z.string(),
    members: z.array(z.object({ user: z.string(), role: z.enum(["owner", "member"], { error: "must be owner or member" }) })),
  });

  it("names nested properties the way Pulumi paths them", () => {
    const r = checkInputs(schema, { organizationId: "o", members: [{ user: "a", role: "owner" }, { user: "b", role: "boss" }] }, {});
    expect(r.failures).toEqual([{ property: "members[1].role", reason: "members[1].role must be owner or member" }]);
  });

  it("skips values unknown at preview, alone or as a whole list", () => {
    expect(checkInputs(schema, { organizationId: UNKNOWN, members: UNKNOWN }, {}).failures).toEqual([]);
    expect(checkInputs(schema, { organizationId: "o", members: [{ user: UNKNOWN, role: "owner" }] }, {}).failures).toEqual([]);
  });

  it("still normalizes the known fields when another field is unknown, and adds nothing undeclared", () => {
    const s = z.object({
      organizationId: z.string(),
      tags: z.array(z.string()).transform((t) => [...t].sort()),
      mode: z.enum(["a", "b"]).optional(),
      nested: z.object({ on: z.boolean() }).optional(),
    });
    const r = checkInputs(s, { organizationId: "o", tags: ["b", "a"], nested: { on: UNKNOWN } }, {});
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({ organizationId: "o", tags: ["a", "b"], nested: { on: UNKNOWN } });
  });

  it("refuses a property the schema does not have, at any depth, naming the nearest it has, rather than drop it", () => {
    const s = z.object({
      organizationId: z.string(),
      icon: z.string().optional(),
      nested: z.object({ enabled: z.boolean() }).optional(),
      list: z.array(z.object({ teamId: z.string(), role: z.string() })).optional(),
    });
    const reasons = (news: Record<string, unknown>) => checkInputs(s, { organizationId: "o", ...news }, {}, "Kind").failures.map((f) => `${f.property}: ${f.reason}`);
    expect(reasons({ icnon: "book" })).toEqual([
      "icnon: icnon is not an input of Kind (did you mean icon?): correct its name or remove it. Nothing is sent for a property the resource does not have, so as written it would change nothing.",
    ]);
    expect(reasons({ nested: { enabeld: true, enabled: true } })[0]).toMatch(/^nested\.enabeld: nested\.enabeld is not a field of nested \(did you mean enabled\?\)/);
    expect(reasons({ list: [{ teamId: "t", role: "r" }, { teamID: "t", role: "r" }] })[0]).toMatch(/^list\[1\]\.teamID: .* \(did you mean teamId\?\)/);
    expect(reasons({ zzz: 1 })[0]).toMatch(/zzz is not an input of Kind \(it takes organizationId, icon, nested, list\)/);
    // Beside another failure (a misspelt required field is also missing), and beside a value not known yet.
    expect(reasons({ organizationId: 3, icnon: "book" }).map((r) => r.split(":")[0])).toEqual(["icnon", "organizationId"]);
    expect(reasons({ icon: UNKNOWN, icnon: "book" }).map((r) => r.split(":")[0])).toEqual(["icnon"]);
    expect(reasons({ nested: { enabled: UNKNOWN, enabeld: true } }).map((r) => r.split(":")[0])).toEqual(["nested.enabeld"]);
    // The resource's name, which the class registers beside the inputs, is no stray.
    expect(reasons({ __gitbookName: "docs" })).toEqual([]);
  });

  it("asks for the organization by config when none is given", () => {
    const r = checkInputs(schema, { members: [] }, {});
    expect(r.failures[0]!.reason).toMatch(/organizationId is required: .*gitbook:organizationId/);
  });
});

describe("diff", () => {
  const rules = { fields: ["a", "b", "c"], replaceOn: ["c"], deleteBeforeReplace: true };

  it("treats null and absent alike, and compares deeply", () => {
    expect(diffProps(rules, { a: null, b: { x: [1, 2] } }, { b: { x: [1, 2] } }).changes).toBe(false);
  });

  it("ignores fields outside the rules (computed outputs, __provider)", () => {
    expect(diffProps(rules, { a: 1, urls: "x", __provider: "old" }, { a: 1, __provider: "new" }).changes).toBe(false);
  });

  it("reports replaces for replace fields only, and the kind's delete-before-replace with or without one", () => {
    // Reported without a replacement too: a replacement the program's options force takes its order from it.
    expect(diffProps(rules, { a: 1, c: 1 }, { a: 2, c: 1 })).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: true });
    expect(diffProps(rules, { a: 1, c: 1 }, { a: 1, c: UNKNOWN })).toMatchObject({ replaces: ["c"], deleteBeforeReplace: true });
  });

  it("deletes first, for a kind naming the fields that tell its object apart, unless one of them changes", () => {
    const named = { fields: ["slug", "kind", "text"], replaceOn: ["slug", "kind"], deleteBeforeReplace: ["slug"] };
    // A new slug is another object: created before the old one goes.
    expect(diffProps(named, { slug: "a", kind: "x" }, { slug: "b", kind: "x" })).toMatchObject({ replaces: ["slug"], deleteBeforeReplace: false });
    // The same slug would collide: the old one goes first.
    expect(diffProps(named, { slug: "a", kind: "x" }, { slug: "a", kind: "y" })).toMatchObject({ replaces: ["kind"], deleteBeforeReplace: true });
  });
});

describe("engine", () => {
  const fake = (over: Partial<Resource>): Resource =>
    ({
    kind: "Fake",
    schema: z.object({}),
    diff: { fields: [], replaceOn: [] },
    display: [],
    create: async () => ({ id: "x", outs: {} }),
    read: async () => undefined,
    update: async () => ({}),
    delete: async () => undefined,
    ...over,
    }) as unknown as Resource;
  beforeEach(() => configureFrom(source({ "gitbook:token": "t", "gitbook:apiUrl": "http://127.0.0.1:9" })));

  it("keeps adoptId for a resource not in state yet, and moves it out of the inputs once the resource is in state", async () => {
    const def = fake({ schema: z.object({ title: z.string(), adoptId: z.string().optional() }) });
    const news = { title: "t", adoptId: "obj_1", __provider: "p" };
    expect((await engine.check(provider.runtime, def, {}, news)).inputs).toEqual({ title: "t", adoptId: "obj_1" });
    expect((await engine.check(provider.runtime, def, { __provider: "p" }, news)).inputs).toEqual({ title: "t", adoptId: "obj_1" });
    // Where only diff reads it: a create (an engine-forced replacement keeps these inputs) never adopts with it.
    expect((await engine.check(provider.runtime, def, { title: "t", adoptId: "obj_1", __provider: "p" }, news)).inputs).toEqual({ title: "t", [ADOPT_KEY]: "obj_1" });
  });

  it("refuses a replacement while adoptId is set, whatever this process saw, and allows it once removed", async () => {
    const def = fake({ schema: z.object({ title: z.string(), adoptId: z.string().optional() }), diff: { fields: ["title"], replaceOn: ["title"] } });
    const olds = { title: "t", adoptId: "obj_1", __provider: "p" };
    const checked = (await engine.check(provider.runtime, def, olds, { title: "u", adoptId: "obj_1", __provider: "p" })).inputs;
    await expect(engine.diff(provider.runtime, def, "obj_1", olds, checked)).rejects.toThrow(/^Fake obj_1: adoptId: title changed, which replaces the resource.*Remove adoptId/);
    const without = (await engine.check(provider.runtime, def, olds, { title: "u", __provider: "p" })).inputs;
    expect(await engine.diff(provider.runtime, def, "obj_1", olds, without)).toMatchObject({ changes: true, replaces: ["title"] });
    // No replacement: adoptId still set changes nothing.
    const same = (await engine.check(provider.runtime, def, olds, { title: "t", adoptId: "obj_1", __provider: "p" })).inputs;
    expect(await engine.diff(provider.runtime, def, "obj_1", olds, same)).toMatchObject({ changes: false });
  });

  it("records a change of a provider-local field alone without calling the resource (no request)", async () => {
    let updates = 0;
    const def = fake({
      diff: { fields: ["title", "forceDestroy"], replaceOn: [], localFields: ["forceDestroy"] },
      update: async () => {
        updates++;
        return {};
      },
    });
    const olds = { title: "t", urls: { app: "u" }, __provider: "p" };
    expect(await engine.update(provider.runtime, def, "x", olds, { title: "t", forceDestroy: true, __provider: "p" })).toEqual({ outs: { title: "t", urls: { app: "u" }, forceDestroy: true } });
    expect(await engine.update(provider.runtime, def, "x", { ...olds, forceDestroy: true }, { title: "t", __provider: "p" })).toEqual({ outs: { title: "t", urls: { app: "u" } } });
    expect(updates).toBe(0);
  });

  it("answers {} from read when the object is gone, so refresh drops it", async () => {
    expect(await engine.read(provider.runtime, fake({}), "x", { __provider: "p" })).toEqual({});
  });

  it("returns inputs with read so refresh records drift, and never undefined in outputs", async () => {
    const def = fake({ schema: z.object({ title: z.string() }), read: async () => ({ title: "live", extra: undefined, urls: { a: undefined } }) });
    const r = await engine.read(provider.runtime, def, "x", { title: "old" });
    expect(r).toEqual({ id: "x", props: { title: "live", urls: {} }, inputs: { title: "live" } });
  });

  it("keeps __provider in a partial failure so the engine can use the resource later", async () => {
    const def = fake({
      create: async () => {
        throw new PartialFailure("x", { title: "half", gone: undefined }, ["settings failed"]);
      },
    });
    const err = await engine.create(provider.runtime, def, { title: "t", __provider: "shim" }).catch((e) => e);
    expect(err).toMatchObject({ id: "x", reasons: ["Fake x: settings failed"], properties: { title: "half", __provider: "shim" } });
    expect(err.properties).not.toHaveProperty("gone");
  });
});

describe("state written by another version", () => {
  it("refuses a shim protocol or a resource kind this version does not know, saying to upgrade", async () => {
    await expect(dispatch(2, "Site", "check", [{}, {}])).rejects.toThrow(/unsupported provider protocol 2; upgrade the pulumi-gitbook package/);
    await expect(dispatch(1, "Subdomain", "check", [{}, {}])).rejects.toThrow(/unknown resource kind "Subdomain"/);
  });
});
