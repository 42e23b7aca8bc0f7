/**
 * examples/typescript, a program as `pulumi new typescript` lays it out (index.ts, the template's
 * tsconfig.json, no build step), deployed through the CLI against the emulator: the language host
 * runs index.ts through the SDK's ts-node support, which type-checks it against the package's
 * published declarations. Under the host that ran index.ts as JavaScript, the first `up` failed with
 * a SyntaxError. (Destroying runs no program: the docs-site example's destroy covers it, for these
 * kinds and more.)
 */
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "../../dev/checkout";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { plannedSteps } from "../support/stateIsGitBook";

const PROGRAM = path.join(ROOT, "examples/typescript");

describeDeployments("the TypeScript example (examples/typescript)", () => {
  let d: Deployment;
  const config = () => {
    const spaces = [...d.emu.store.spaces.values()];
    const byTitle = (t: string) => spaces.find((s) => s.title === t)!.id;
    return {
      "gitbook-typescript:guidesSpaceId": byTitle("Guides"),
      "gitbook-typescript:guidesV2SpaceId": byTitle("SDK for TypeScript"),
    };
  };
  const run = (op: "up") => d.run(op, undefined, { programDir: PROGRAM, config: config() });

  beforeAll(async () => {
    d = await startDeployment({ stack: "dev" });
  });
  afterAll(async () => d?.close());

  it("deploys index.ts as it is: the site, its section and the v2 site space", async () => {
    const r = await run("up");
    expect(r.error).toBeUndefined();
    expect(r.stdout).not.toMatch(/SyntaxError/);
    expect(steps(r).sort()).toEqual(["create docs", "create guides", "create guides-v2"]);
    const [site] = [...d.emu.store.sites.values()];
    expect(site).toMatchObject({ title: "Acme Docs", visibility: "unlisted" });
    expect(d.emu.store.sectionsOf(site!.id).map((s) => s.title)).toEqual(["Guides"]);
    expect(d.emu.store.siteSpaces.size).toBe(2);
    expect(r.outputs?.siteId).toBe(site!.id);
  });

  // The program's second run is the up's, through the same host; what it would plan is the provider's
  // check and diff of the inputs the up recorded, made in this process (issue 40: no preview of its own).
  it("plans no change for a second run of what it declared, sending no write", async () => {
    const resources = d.state().resources.filter((r) => r.custom);
    const declared: Decl[] = resources.map((r) => ({ kind: r.type.replace(/^.*:/, ""), name: r.name, args: Object.fromEntries(Object.entries(r.inputs).filter(([k]) => k !== "__provider")) }));
    const planned = await plannedSteps(d.emu, declared, resources);
    // No write (plannedSteps fails on one).
    expect(planned.map((s) => `${s.op} ${s.name}`).sort()).toEqual(["same docs", "same guides", "same guides-v2"]);
  });
});
