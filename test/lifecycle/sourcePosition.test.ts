/**
 * Pulumi records where the program declared each resource (its source position, kept in the
 * checkpoint and shown to users). It must be the program's line, not a line inside this package.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, PROGRAM, startDeployment, type Deployment } from "../support/lifecycle";
import { ref, site } from "./scenarios";

describeDeployments("source position", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
    const r = await d.run("up", [site(), { kind: "ShareLink", name: "link", args: { siteId: ref("site.id"), name: "Reviewers" } }]);
    expect(r.error).toBeUndefined();
  });
  afterAll(async () => d?.close());

  it("of every resource is the program's line that constructed it", (ctx) => {
    // The harness is no engine of Pulumi's: it keeps no source positions.
    const cli = d.cli();
    if (!cli) return ctx.skip();
    const line = fs.readFileSync(path.join(PROGRAM, "index.js"), "utf8").split("\n").findIndex((l) => l.includes("new gitbook[d.kind]")) + 1;
    expect(line).toBeGreaterThan(0);
    const resources = (cli.exported().deployment.resources ?? []) as Array<{ urn: string; sourcePosition?: string }>;
    for (const name of ["site", "link"]) {
      const r = resources.find((x) => x.urn.endsWith(`::${name}`));
      // Before: project:///node_modules/pulumi-gitbook/dist/provider/framework/define.js#…
      expect(r?.sourcePosition, name).toMatch(new RegExp(`^project:///index\\.js#${line},\\d+$`));
    }
  });
});
