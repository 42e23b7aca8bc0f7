/** SiteAdaptiveSchema in a program, in process: what it sends at each step, and a schema GitBook would refuse stopped at check. */
import { describe, expect, it } from "vitest";
import { programSuite, stepNames } from "../support/program";
import { ORG_QUESTION } from "../support/provider";
import { ref, site } from "../support/scenarios";

const SITE = "/v1/orgs/:org/sites";
const SCHEMA = "/v1/orgs/:org/sites/:site/adaptive-schema";
const schema = (claim: string) => ({ type: "object", properties: { [claim]: { type: "boolean", description: "A claim." } }, additionalProperties: false });
const program = (jsonSchema: object) => [site(), { kind: "SiteAdaptiveSchema", name: "subject", args: { siteId: ref("site.id"), jsonSchema } }];

describe("SiteAdaptiveSchema requests per step", () => {
  const s = programSuite();

  it("stops a schema GitBook would refuse at preview, naming where, with no request but the site's one question about the organization", async () => {
    await expect(s.p.preview(program({ ...schema("beta"), properties: { beta: { type: "boolean" } } }))).rejects.toThrow("jsonSchema.properties.beta.description is required");
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
  });

  it("creates with one PUT after its site, changes with one PUT, sends nothing when nothing changed", async () => {
    s.env.emu.log.reset();
    await s.p.up(program(schema("beta")));
    // The listing before the site's POST is what recovery from a lost answer compares with.
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [`GET ${SITE}`]: 1, [`POST ${SITE}`]: 1, [`PUT ${SCHEMA}`]: 1 });
    const siteId = s.p.resource("site").id!;
    expect(s.env.emu.store.adaptiveSchemas.get(siteId)!.jsonSchema).toEqual(schema("beta"));

    s.env.emu.log.reset();
    await s.p.up();
    expect(s.env.emu.log.count()).toBe(0);

    s.env.emu.log.reset();
    await s.p.up(program(schema("tester")));
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [`PUT ${SCHEMA}`]: 1 });
  });

  it("refreshes with one GET, and destroys with the reset PUT before the site's DELETE", async () => {
    s.env.emu.log.reset();
    await s.p.refresh();
    expect(s.env.emu.log.byRoute()).toEqual({ [`GET ${SITE}/:site`]: 1, [`GET ${SCHEMA}`]: 1 });

    s.env.emu.log.reset();
    await s.p.destroy();
    // Between them, the site's delete checks that it takes nothing along (cascade.ts).
    expect(s.env.emu.log.entries.map((e) => `${e.method} ${e.route}`)).toEqual([
      `PUT ${SCHEMA}`,
      `GET ${SITE}/:site/structure`,
      `GET ${SITE}/:site/share-links`,
      `DELETE ${SITE}/:site`,
    ]);
  });
});
