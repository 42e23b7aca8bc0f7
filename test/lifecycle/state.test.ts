/**
 * Bad input fails at check, before anything is sent or recorded, named with its resource and its dotted
 * path, through the CLI: one OpenAPI document from a file that cannot be read, which fails naming
 * `source.file` and where it was looked for (the program's folder, where the program runs and the provider
 * host starts: the language host's, which only the CLI shows). The run is an `up`, so that nothing is
 * recorded either; a preview runs the same check (the engine's own preview of a check failure: the wrong
 * organization's in test/lifecycle/errors.test.ts).
 *
 * Issue 40 folded test/faults/limits.test.ts's `up` into this run, which was this file's preview: it
 * proved through the CLI that one row of the API's limits (a nested field, source.url) fails up at check
 * under its dotted path, with no request and nothing recorded; the engine's part of that, a nested
 * field's check failure named with its resource and under its dotted path, nothing sent, nothing
 * recorded, no token anywhere, is this run's, and every row's limit is test/unit/limits.test.ts's, in
 * process. (The engine stops at the first failing check, so a run holds one such failure.)
 *
 * The rest of what the CLI writes to state (no token, no absolute path, a small shim, source
 * positions, secrets encrypted, an OpenAPI document only where the program put it, and the shim in
 * state loading whatever the package now is, over an upgrade's refresh and destroy) rides in
 * test/lifecycle/everyKind.test.ts's runs (issue 40: engine runs are the suite's cost).
 */
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, PROGRAM, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { expectTokenNowhere } from "../faults/topology";

describeDeployments("state written by the engine, and bad input", () => {
  let d: Deployment;
  // The spec alone: from an empty stack, another resource's check would ask whether the token sees the
  // organization, a request that may or may not be sent before the spec's failure ends the run.
  const program: Decl[] = [{ kind: "OpenApiSpec", name: "spec", args: { slug: "state-api", source: { file: "missing/openapi.yaml" } } }];

  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("from a file that cannot be read: up fails at check naming the resource and source.file, before anything is sent or recorded", async () => {
    d.emu.log.reset();
    const r = await d.run("up", program);
    expect(r.error).toBeDefined();
    const lookedFor = path.join(PROGRAM, "missing/openapi.yaml").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    const reason = new RegExp(`^source\\.file cannot read "missing/openapi\\.yaml" \\(looked for as ${lookedFor}\\): no such file$`);
    expect(r.checkFailures).toEqual([expect.objectContaining({ urn: expect.stringMatching(/::spec$/), property: "source.file", reason: expect.stringMatching(reason) })]);
    // What the user reads names the resource and the field.
    expect(r.stdout).toMatch(/spec'?:? .*source\.file cannot read "missing\/openapi\.yaml"/);
    expect(d.emu.log.count()).toBe(0);
    expect(d.state().resources.filter((x) => x.custom)).toEqual([]);
    expectTokenNowhere(d, [d.emu.token], [r.stdout, r.error ?? ""]);
  });
});
