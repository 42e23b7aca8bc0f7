/**
 * Deleting an authoritative list (a site's SiteRedirects, an object's AccessList) removes the entries
 * it made, and leaves the ones made in the app: also after a refresh, which records the app's entries
 * in state beside the listed ones (as drift the next `up` would converge), so that `pulumi destroy
 * --refresh`, or removing the resource after a refresh, takes no more than without one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissionKey } from "../../emulator/store";
import { startProviderEnv, type ProviderEnv } from "../support/provider";

let env: ProviderEnv;
let ada: string, grace: string;
beforeAll(async () => {
  env = await startProviderEnv();
  [ada, grace] = env.emu.seeded.members.map((m) => m.id) as [string, string];
});
afterAll(async () => env.close());

describe("deleting an authoritative list after a refresh", () => {
  it("SiteRedirects leaves a rule the app added", async () => {
    const site = (await env.up("Site", { title: "Refreshed rules" })).state.id;
    const r = await env.up("SiteRedirects", { siteId: site, rules: [{ source: "/a", destination: { url: "https://x.test/a" } }] });
    env.emu.store.siteRedirects.set("redir_app", { id: "redir_app", seq: 99990, createdAt: new Date().toISOString(), siteId: site, source: "/app", draft: false, captureWildcard: false, permanent: false, destination: { kind: "external", url: "https://app.test" } });
    env.outOfBand();
    const refreshed = (await env.refresh("SiteRedirects", r.state))!;
    expect((refreshed.inputs.rules as { source: string }[]).map((x) => x.source)).toEqual(["/a", "/app"]);
    await env.destroy("SiteRedirects", refreshed.state);
    expect([...env.emu.store.siteRedirects.values()].filter((x) => x.siteId === site).map((x) => x.source)).toEqual(["/app"]);
  });

  it("AccessList leaves a grant the app added", async () => {
    const site = (await env.up("Site", { title: "Refreshed grants" })).state.id;
    const list = await env.up("AccessList", { siteId: site, users: [{ userId: ada, role: "read" }] });
    const { seq, createdAt } = env.emu.store.newId("perm");
    const id = permissionKey("site", site, "user", grace);
    env.emu.store.permissions.set(id, { id, seq, createdAt, target: "site", targetId: site, principal: "user", principalId: grace, role: "admin" });
    env.outOfBand();
    const refreshed = (await env.refresh("AccessList", list.state))!;
    expect((refreshed.inputs.users as { userId: string }[]).map((x) => x.userId)).toEqual([ada, grace]);
    await env.destroy("AccessList", refreshed.state);
    expect([...env.emu.store.permissions.values()].filter((g) => g.targetId === site).map((g) => g.principalId)).toEqual([grace]);
  });
});
