// SiteVisitorAuth: declared settings only, the private key a secret output, regenerate only when the trigger changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definition } from "./siteVisitorAuth";
import { startProviderEnv, type ProviderEnv, rejectsAtCheck, type BadInput } from "../../test/support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());

const newSite = async () => (await env.up("Site", { title: "Private docs" })).state.id;
const AUTH = "/v1/orgs/:org/sites/:site/publishing/auth";

describe("check", () => {
  const bad: BadInput[] = [
    ["backend", { backend: "oauth" }, /^backend must be one of custom, integration/],
    ["fallbackURL", { fallbackURL: "login page" }, /^fallbackURL must be an absolute URI/],
    ["logoutURL", { logoutURL: "/logout" }, /^logoutURL must be an absolute URI/],
    ["regenerate", { regenerate: "" }, /^regenerate must not be empty/],
    ["siteId", { siteId: undefined }, /^siteId is required/],
  ];
  rejectsAtCheck(() => env, "SiteVisitorAuth", { siteId: "site_1" }, bad);
});

describe("lifecycle", () => {
  it("sends only declared settings, shows app edits, keeps the key secret and regenerates only on a new trigger value", async () => {
    const site = await newSite();
    const before = env.emu.store.publishingAuths.get(site);
    expect(before).toBeUndefined();
    env.emu.log.reset();
    const created = await env.up("SiteVisitorAuth", { siteId: site, fallbackURL: "https://login.acme.test/", regenerate: "v1" });
    expect(created.state.id).toBe(site);
    const key = env.emu.store.publishingAuths.get(site)!.privateKey;
    expect(created.state.outs.privateKey).toBe(key);
    // One read, one PATCH (carrying the backend as it is), no regenerate at creation.
    expect(env.emu.log.byRoute()).toEqual({ [`GET ${AUTH}`]: 1, [`PATCH ${AUTH}`]: 1 });
    expect(env.emu.store.publishingAuths.get(site)).toMatchObject({ backend: "custom", fallbackURL: "https://login.acme.test/" });
    expect((await env.up("SiteVisitorAuth", { siteId: site, fallbackURL: "https://login.acme.test/", regenerate: "v1" }, created.state)).step).toBe("same");

    // App edits: the backend is not declared (never drift), the logout URL is not either; the fallback URL is.
    const rec = env.emu.store.publishingAuths.get(site)!;
    rec.backend = "integration";
    rec.fallbackURL = "https://other.acme.test/";
    rec.logoutURL = "https://logout.acme.test/";
    const refreshed = (await env.refresh("SiteVisitorAuth", created.state))!;
    expect(refreshed.inputs).toEqual({ organizationId: env.org, siteId: site, fallbackURL: "https://other.acme.test/", regenerate: "v1" });
    env.emu.log.reset();
    const back = await env.up("SiteVisitorAuth", { siteId: site, fallbackURL: "https://login.acme.test/", regenerate: "v1" }, refreshed.state);
    expect(back.step).toBe("update");
    expect(env.emu.store.publishingAuths.get(site)).toMatchObject({ backend: "integration", fallbackURL: "https://login.acme.test/", logoutURL: "https://logout.acme.test/", privateKey: key });
    expect(env.emu.log.writes()).toBe(1);

    // A new trigger value: the key read (a lost answer is told apart by it), one regenerate, and the new key in the outputs.
    env.emu.log.reset();
    const regenerated = await env.up("SiteVisitorAuth", { siteId: site, fallbackURL: "https://login.acme.test/", regenerate: "v2" }, back.state);
    // The key is read first: a lost answer is told apart by it.
    expect(env.emu.log.byRoute()).toEqual({ [`GET ${AUTH}`]: 1, [`POST ${AUTH}/regenerate`]: 1 });
    const newKey = env.emu.store.publishingAuths.get(site)!.privateKey;
    expect(newKey).not.toBe(key);
    expect(regenerated.state.outs.privateKey).toBe(newKey);

    // Removing the trigger and the fallback URL: the URL is unset, the key stays.
    env.emu.log.reset();
    const removed = await env.up("SiteVisitorAuth", { siteId: site, backend: "custom" }, regenerated.state);
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.store.publishingAuths.get(site)).toMatchObject({ backend: "custom", privateKey: newKey });
    expect(env.emu.store.publishingAuths.get(site)!.fallbackURL).toBeUndefined();

    // Deleting leaves the settings as they are.
    env.emu.log.reset();
    await env.destroy("SiteVisitorAuth", removed.state);
    expect(env.emu.log.count()).toBe(0);
    expect(env.emu.store.publishingAuths.get(site)!.privateKey).toBe(newKey);
  });

  it("writes nothing when the declared settings already hold, and names the site when it is missing", async () => {
    const site = await newSite();
    env.emu.log.reset();
    await env.up("SiteVisitorAuth", { siteId: site, backend: "custom" });
    expect(env.emu.log.writes()).toBe(0);
    await expect(env.up("SiteVisitorAuth", { siteId: "site_missing" })).rejects.toThrow(/siteId: no site site_missing in organization/);
  });

  it("declares privateKey a secret output, so the engine encrypts it", () => {
    expect(definition.secretOutputs).toEqual(["privateKey"]);
  });
});

describe("one per site", () => {
  it("refuses at create a second SiteVisitorAuth of a site another resource of this run manages, before any request", async () => {
    const site = await newSite();
    await env.up("SiteVisitorAuth", { siteId: site, fallbackURL: "https://login.acme.test/" });
    env.emu.log.reset();
    // The same run (one provider process): two IDs the program computed apart that turn out equal.
    await expect(env.up("SiteVisitorAuth", { siteId: site, fallbackURL: "https://other.acme.test/" })).rejects.toThrow(
      `SiteVisitorAuth: another SiteVisitorAuth of this stack already manages site ${site}, and a site has one: two would overwrite each other's settings on every run. Declare the settings in one SiteVisitorAuth and remove the other. Nothing was sent.`,
    );
    expect(env.emu.log.count()).toBe(0);
    expect(env.emu.store.publishingAuths.get(site)!.fallbackURL).toBe("https://login.acme.test/");
  });
});
