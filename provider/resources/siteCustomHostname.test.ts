// SiteCustomHostname: a claim about a hostname set up in the app. Create only reads; refresh shows
// status and target; `revalidate` is the one write an `up` sends; delete forgets unless told otherwise.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProviderEnv, type ProviderEnv, rejectsAtCheck, type BadInput } from "../../test/support/provider";
import { expectContractViolation } from "../../test/support/contract.setup";
import type { CustomHostnameStatus } from "../../emulator/store";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());

const ROUTE = "/v1/custom-hostnames/:hostname";
let n = 0;

/** A new site and a hostname set up for it "in the app" (as GitBook's app does: the site shows it too). */
async function siteWithHostname(status: CustomHostnameStatus = "live") {
  const site = (await env.up("Site", { title: "Hostname docs" })).state.id;
  const hostname = `docs${++n}.acme.test`;
  const { seq, createdAt } = env.emu.store.newId("host");
  env.emu.store.customHostnames.set(hostname, { id: hostname, seq, createdAt, targetType: "site", targetId: site, isActive: true, status });
  env.emu.store.sites.get(site)!.hostname = hostname;
  return { site, hostname };
}

describe("check", () => {
  const bad: BadInput[] = [
    ["hostname", { hostname: "Docs.Acme.test" }, /^hostname must be a lowercase DNS name of at least three labels/],
    ["hostname", { hostname: "acme.test" }, /^hostname must be a lowercase DNS name/],
    ["hostname", { hostname: "https://docs.acme.test" }, /^hostname must be a lowercase DNS name/],
    ["hostname", { hostname: `${"a".repeat(60)}.${"b".repeat(60)}.`.repeat(5) + "test" }, /^hostname must be 1 to 512 characters/],
    ["siteId", { siteId: undefined }, /^siteId is required/],
    ["revalidate", { revalidate: "" }, /^revalidate must not be empty/],
    ["removeOnDestroy", { removeOnDestroy: "yes" }, /^removeOnDestroy must be a boolean/],
  ];
  rejectsAtCheck(() => env, "SiteCustomHostname", { siteId: "site_1", hostname: "docs.acme.test" }, bad);
});

describe("create", () => {
  it("reads the hostname and writes nothing, not even with a revalidate trigger; a re-run sends nothing", async () => {
    const { site, hostname } = await siteWithHostname("dns_wrong_cname");
    env.emu.log.reset();
    const created = await env.up("SiteCustomHostname", { siteId: site, hostname, revalidate: "v1" });
    expect(env.emu.log.byRoute()).toEqual({ [`GET ${ROUTE}`]: 1 });
    expect(created.state.id).toBe(hostname);
    expect(created.state.outs).toMatchObject({ hostname, siteId: site, revalidate: "v1", isActive: true, status: "dns_wrong_cname", target: { type: "site", id: site } });
    env.emu.log.reset();
    expect((await env.up("SiteCustomHostname", { siteId: site, hostname, revalidate: "v1" }, created.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("fails naming the hostname, the site and the fix when GitBook has no such hostname", async () => {
    const { site } = await siteWithHostname();
    env.emu.log.reset();
    const failed = env.up("SiteCustomHostname", { siteId: site, hostname: "missing.acme.test" });
    await expect(failed).rejects.toThrow(
      new RegExp(`^SiteCustomHostname: hostname: GitBook has no custom hostname missing\\.acme\\.test, so site ${site} is not published on it\\. GitBook's API cannot set up .*in the GitBook app \\(the site's settings, custom domain\\).*Nothing was written\\.`),
    );
    expect(env.emu.log.writes()).toBe(0);
  });

  it("fails naming both sites when the hostname points to another site, or to the organization", async () => {
    const { hostname } = await siteWithHostname();
    const { site: other } = await siteWithHostname();
    const owner = env.emu.store.customHostnames.get(hostname)!.targetId;
    env.emu.log.reset();
    await expect(env.up("SiteCustomHostname", { siteId: other, hostname })).rejects.toThrow(
      new RegExp(`^SiteCustomHostname: siteId: custom hostname ${hostname.replaceAll(".", "\\.")} points to site ${owner}, not to site ${other}\\. GitBook's API cannot set up or re-point`),
    );
    env.emu.edit("customHostname", hostname, { targetType: "organization", targetId: env.org });
    await expect(env.up("SiteCustomHostname", { siteId: owner, hostname })).rejects.toThrow(new RegExp(`points to the content of organization ${env.org}, not to site ${owner}`));
    expect(env.emu.log.writes()).toBe(0);
  });
});

describe("refresh and up", () => {
  it("refresh shows status and target drift; an up over a re-pointed hostname fails with the same guidance and deletes nothing", async () => {
    const { site, hostname } = await siteWithHostname();
    const created = await env.up("SiteCustomHostname", { siteId: site, hostname, removeOnDestroy: true });
    env.emu.edit("customHostname", hostname, { status: "ssl_failed", isActive: "false" });
    const r1 = (await env.refresh("SiteCustomHostname", created.state))!;
    expect(r1.state.outs).toMatchObject({ status: "ssl_failed", isActive: false });
    expect(r1.inputs).toEqual({ organizationId: env.org, siteId: site, hostname, removeOnDestroy: true });

    const { site: other } = await siteWithHostname();
    env.emu.edit("customHostname", hostname, { targetId: other });
    const r2 = (await env.refresh("SiteCustomHostname", r1.state))!;
    expect(r2.inputs).toMatchObject({ siteId: other });
    expect(r2.state.outs.target).toEqual({ type: "site", id: other });
    env.emu.log.reset();
    await expect(env.up("SiteCustomHostname", { siteId: site, hostname, removeOnDestroy: true }, r2.state)).rejects.toThrow(
      new RegExp(`^SiteCustomHostname: siteId: custom hostname .* points to site ${other}, not to site ${site}\\. GitBook's API cannot set up or re-point`),
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.store.customHostnames.get(hostname)).toBeDefined();

    // Gone in the app: refresh drops it.
    env.emu.delete("customHostname", hostname);
    expect(await env.refresh("SiteCustomHostname", r2.state)).toBeUndefined();
  });

  it("revalidates once per new trigger value, records the status GitBook then reports, and explains a refusal", async () => {
    const { site, hostname } = await siteWithHostname("dns_no_cname");
    const args = { siteId: site, hostname };
    const created = await env.up("SiteCustomHostname", args);
    env.emu.log.reset();
    const added = await env.up("SiteCustomHostname", { ...args, revalidate: "v1" }, created.state);
    expect(added.step).toBe("update");
    // A read proving the hostname is still this site's, the PATCH, and the status it left.
    expect(env.emu.log.byRoute()).toEqual({ [`GET ${ROUTE}`]: 2, [`PATCH ${ROUTE}`]: 1 });
    expect(added.state.outs).toMatchObject({ revalidate: "v1", status: "ssl_pending" });

    // ssl_pending allows no revalidation: GitBook answers 409, and the message says what to do.
    env.emu.log.reset();
    await expect(env.up("SiteCustomHostname", { ...args, revalidate: "v2" }, added.state)).rejects.toThrow(
      /^SiteCustomHostname docs\d+\.acme\.test: revalidate: GitBook refused to revalidate the DNS of docs\d+\.acme\.test \(it answered 409\): its status is ssl_pending, and GitBook revalidates only .* Nothing changed: put revalidate back to "v1" to leave it as it is/,
    );
    // The read after the refusal tells a refusal from a revalidation whose answer was lost (see faults).
    expect(env.emu.log.byRoute()).toEqual({ [`GET ${ROUTE}`]: 2, [`PATCH ${ROUTE}`]: 1 });

    // An inactive hostname: 400 (which the spec gives a 409 body), explained the same way.
    expectContractViolation(/dnsRevalidateCustomHostname response 400 body \/error\/code: must be 409/);
    env.emu.edit("customHostname", hostname, { isActive: "false" });
    await expect(env.up("SiteCustomHostname", { ...args, revalidate: "v2" }, added.state)).rejects.toThrow(/revalidate: GitBook refused .* \(it answered 400\): it is inactive/);

    // Re-pointed in the app since: never revalidated on this site's behalf.
    const { site: other } = await siteWithHostname();
    env.emu.edit("customHostname", hostname, { targetId: other, isActive: "true", status: "dns_no_cname" });
    env.emu.log.reset();
    await expect(env.up("SiteCustomHostname", { ...args, revalidate: "v3" }, added.state)).rejects.toThrow(new RegExp(`siteId: custom hostname .* points to site ${other}, not to site ${site}`));
    expect(env.emu.log.writes()).toBe(0);
    env.emu.edit("customHostname", hostname, { targetId: site, status: "ssl_pending" });

    // Removing the trigger sends nothing.
    env.emu.log.reset();
    const removed = await env.up("SiteCustomHostname", args, added.state);
    expect(removed.step).toBe("update");
    expect(env.emu.log.count()).toBe(0);
    expect(removed.state.outs).not.toHaveProperty("revalidate");
    expect(removed.state.outs).toMatchObject({ status: "ssl_pending", target: { type: "site", id: site } });
  });
});

describe("faults", () => {
  it("counts a revalidation whose answer was lost as done, when the retry is refused because it already took effect", async () => {
    const { site, hostname } = await siteWithHostname("dns_no_cname");
    const created = await env.up("SiteCustomHostname", { siteId: site, hostname });
    // GitBook revalidates, the answer is lost, the client sends the PATCH again: 409, the status having moved on.
    env.emu.faults.add({ match: { method: "PATCH", route: ROUTE }, dropAfterProcess: true, times: 1 });
    try {
      env.emu.log.reset();
      const r = await env.up("SiteCustomHostname", { siteId: site, hostname, revalidate: "v1" }, created.state);
      expect(r.state.outs).toMatchObject({ revalidate: "v1", status: "ssl_pending" });
      expect(env.emu.log.byRoute()[`PATCH ${ROUTE}`]).toBe(2);
    } finally {
      env.emu.faults.clear();
    }
  });
});

describe("delete", () => {
  it("forgets the hostname by default, removes it with removeOnDestroy, and never removes one re-pointed elsewhere", async () => {
    const { site, hostname } = await siteWithHostname();
    const kept = await env.up("SiteCustomHostname", { siteId: site, hostname });
    env.emu.log.reset();
    await env.destroy("SiteCustomHostname", kept.state);
    expect(env.emu.log.count()).toBe(0);
    expect(env.emu.store.sites.get(site)!.hostname).toBe(hostname);

    // Turned on by an up that sends nothing, then the destroy removes it.
    const again = await env.up("SiteCustomHostname", { siteId: site, hostname });
    env.emu.log.reset();
    const armed = await env.up("SiteCustomHostname", { siteId: site, hostname, removeOnDestroy: true }, again.state);
    expect(env.emu.log.count()).toBe(0);
    await env.destroy("SiteCustomHostname", armed.state);
    expect(env.emu.log.byRoute()).toEqual({ [`GET ${ROUTE}`]: 1, [`DELETE ${ROUTE}`]: 1 });
    expect(env.emu.store.customHostnames.has(hostname)).toBe(false);
    expect(env.emu.store.sites.get(site)).not.toHaveProperty("hostname");

    // Moved to another site in the app, then the program follows with siteId: the replacement's
    // delete of the old resource leaves the hostname to the new one.
    const moved = await siteWithHostname();
    const { site: to } = await siteWithHostname();
    // The program's name, which every resource class passes: the replacement's create (made before the
    // old one's delete) is told from a second resource of the hostname by it.
    const first = await env.up("SiteCustomHostname", { siteId: moved.site, hostname: moved.hostname, removeOnDestroy: true, __gitbookName: "docs-host" });
    env.emu.edit("customHostname", moved.hostname, { targetId: to });
    const replaced = await env.up("SiteCustomHostname", { siteId: to, hostname: moved.hostname, removeOnDestroy: true, __gitbookName: "docs-host" }, first.state);
    expect(replaced.step).toBe("replace");
    expect(env.emu.store.customHostnames.get(moved.hostname)).toMatchObject({ targetId: to });

    // Given to the organization's content in the app: a refresh records no site, and the delete,
    // armed as it is, must not take the organization's hostname.
    const org = await siteWithHostname();
    const armedOrg = await env.up("SiteCustomHostname", { siteId: org.site, hostname: org.hostname, removeOnDestroy: true });
    env.emu.edit("customHostname", org.hostname, { targetType: "organization", targetId: env.org });
    const refreshed = (await env.refresh("SiteCustomHostname", armedOrg.state))!;
    expect(refreshed.state.outs).not.toHaveProperty("siteId");
    env.emu.log.reset();
    await env.destroy("SiteCustomHostname", refreshed.state);
    expect(env.emu.log.byRoute()).toEqual({ [`GET ${ROUTE}`]: 1 });
    expect(env.emu.store.customHostnames.get(org.hostname)).toMatchObject({ targetType: "organization" });
  });
});
