/**
 * SiteAdaptiveSchema through the real CLI: the lifecycle every resource goes through (scenarios.ts),
 * then what this one sends at each step, and a schema GitBook would refuse stopped at preview.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Deployment } from "../support/lifecycle";
import { lifecycleSuite, ref, site } from "./scenarios";

lifecycleSuite("SiteAdaptiveSchema");

const SITE = "/v1/orgs/:org/sites";
const SCHEMA = "/v1/orgs/:org/sites/:site/adaptive-schema";
const schema = (claim: string) => ({ type: "object", properties: { [claim]: { type: "boolean", description: "A claim." } }, additionalProperties: false });
const program = (jsonSchema: object) => [site(), { kind: "SiteAdaptiveSchema", name: "subject", args: { siteId: ref("site.id"), jsonSchema } }];

describeDeployments("SiteAdaptiveSchema requests per step", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("stops a schema GitBook would refuse at preview, naming where, with no request", async () => {
    const r = await d.run("preview", program({ ...schema("beta"), properties: { beta: { type: "boolean" } } }));
    expect(r.error).toBeDefined();
    expect(r.stdout).toContain("jsonSchema.properties.beta.description is required");
    expect(d.emu.log.count()).toBe(0);
  });

  it("creates with one PUT after its site, changes with one PUT, sends nothing when nothing changed", async () => {
    expect((await d.run("up", program(schema("beta")))).error).toBeUndefined();
    // The listing before the site's POST is what recovery from a lost answer compares with.
    expect(d.emu.log.byRoute()).toEqual({ [`GET ${SITE}`]: 1, [`POST ${SITE}`]: 1, [`PUT ${SCHEMA}`]: 1 });
    const siteId = d.resource("site").id!;
    expect(d.emu.store.adaptiveSchemas.get(siteId)!.jsonSchema).toEqual(schema("beta"));

    d.emu.log.reset();
    expect((await d.run("up")).error).toBeUndefined();
    expect(d.emu.log.count()).toBe(0);

    d.emu.log.reset();
    expect((await d.run("up", program(schema("tester")))).error).toBeUndefined();
    expect(d.emu.log.byRoute()).toEqual({ [`PUT ${SCHEMA}`]: 1 });
  });

  it("refreshes with one GET, and destroys with the reset PUT before the site's DELETE", async () => {
    d.emu.log.reset();
    expect((await d.run("refresh")).error).toBeUndefined();
    expect(d.emu.log.byRoute()).toEqual({ [`GET ${SITE}/:site`]: 1, [`GET ${SCHEMA}`]: 1 });

    d.emu.log.reset();
    expect((await d.run("destroy")).error).toBeUndefined();
    // Between them, the site's delete checks that it takes nothing along (cascade.ts).
    expect(d.emu.log.entries.map((e) => `${e.method} ${e.route}`)).toEqual([
      `PUT ${SCHEMA}`,
      `GET ${SITE}/:site/structure`,
      `GET ${SITE}/:site/share-links`,
      `DELETE ${SITE}/:site`,
    ]);
  });
});
