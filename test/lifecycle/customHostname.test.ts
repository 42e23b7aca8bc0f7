/**
 * A site's custom hostname through the real CLI: declaring one set up in the app writes nothing (one
 * GET, even with a `revalidate` trigger); a new trigger value sends one revalidation and records the
 * status GitBook then reports; a hostname re-pointed in the app shows at `up --refresh`, which then
 * fails naming the hostname, both sites and the fix, and deletes nothing. Four engine runs.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Decl } from "../support/lifecycle";
import { describeDeployments, startDeployment, type Deployment } from "../support/lifecycle";

const ROUTE = "/v1/custom-hostnames/:hostname";
const HOST = "docs.acme.test";
const sites: Decl[] = [
  { kind: "Site", name: "docs", args: { title: "Product Docs" } },
  { kind: "Site", name: "other", args: { title: "Other Docs" } },
];
const program = (revalidate: string): Decl[] => [
  ...sites,
  { kind: "SiteCustomHostname", name: "hostname", args: { siteId: { $ref: "docs.id" }, hostname: HOST, revalidate, removeOnDestroy: true } },
];

describeDeployments("SiteCustomHostname through the dynamic-provider host", () => {
  let d: Deployment;
  let docs: string;
  const live = () => d.emu.store.customHostnames.get(HOST)!;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("adopts a hostname set up in the app with one GET and no write, even with a revalidate trigger", async () => {
    expect((await d.run("up", sites)).error).toBeUndefined();
    docs = d.resource("docs").id!;
    // Set up in the app: GitBook's API cannot.
    const { seq, createdAt } = d.emu.store.newId("host");
    d.emu.store.customHostnames.set(HOST, { id: HOST, seq, createdAt, targetType: "site", targetId: docs, isActive: true, status: "dns_wrong_cname" });
    d.emu.store.sites.get(docs)!.hostname = HOST;
    d.emu.log.reset();
    const r = await d.run("up", program("v1"));
    expect(r.error).toBeUndefined();
    expect(d.emu.log.byRoute()).toEqual({ [`GET ${ROUTE}`]: 1 });
    expect(d.resource("hostname")).toMatchObject({ id: HOST, outputs: { isActive: true, status: "dns_wrong_cname", target: { type: "site", id: docs } } });
  });

  it("revalidates once when the trigger changes, and records the status GitBook then reports", async () => {
    d.emu.log.reset();
    const r = await d.run("up", program("v2"));
    expect(r.error).toBeUndefined();
    expect(r.steps.find((s) => s.name === "hostname")).toMatchObject({ op: "update", changed: ["revalidate"] });
    expect(d.emu.log.byRoute()).toEqual({ [`GET ${ROUTE}`]: 2, [`PATCH ${ROUTE}`]: 1 });
    expect(d.resource("hostname").outputs).toMatchObject({ status: "ssl_pending", revalidate: "v2" });
  });

  it("shows a hostname re-pointed in the app at `up --refresh`, then fails with the way to fix it and deletes nothing", async () => {
    const other = d.resource("other").id!;
    d.emu.edit("customHostname", HOST, { targetId: other });
    d.emu.log.reset();
    const r = await d.run("up", program("v2"), { flags: ["--refresh"] });
    expect(r.error).toBeDefined();
    expect(r.stdout).toContain(`SiteCustomHostname hostname: siteId: custom hostname ${HOST} points to site ${other}, not to site ${docs}. GitBook's API cannot set up or re-point a custom hostname: do it in the GitBook app`);
    expect(d.emu.log.writes()).toBe(0);
    expect(live()).toMatchObject({ targetId: other, isActive: true });
    // The refresh recorded what GitBook shows; the resource stays in state for the program to follow or fix.
    expect(d.resource("hostname").outputs).toMatchObject({ siteId: other, target: { type: "site", id: other } });
  });
});
