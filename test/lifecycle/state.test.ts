/**
 * An OpenAPI document from a file that cannot be read fails at preview, naming `source.file` and where
 * it was looked for (the program's folder, where the program runs and the provider host starts),
 * without a request: through the CLI, because the folder is the language host's.
 *
 * The rest of what the CLI writes to state (no token, no absolute path, a small shim, source
 * positions, secrets encrypted, an OpenAPI document only where the program put it, and the shim in
 * state loading whatever the package now is, over an upgrade's refresh and destroy) rides in
 * test/lifecycle/everyKind.test.ts's runs (issue 40: engine runs are the suite's cost).
 */
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, PROGRAM, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

describeDeployments("state written by the engine", () => {
  let d: Deployment;
  // The spec alone: from an empty stack, another resource's check would ask whether the token sees the
  // organization, a request that may or may not be sent before the spec's failure ends the preview.
  const decls = (source: Record<string, unknown>): Decl[] => [{ kind: "OpenApiSpec", name: "spec", args: { slug: "state-api", source } }];

  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("from a file that cannot be read: preview fails naming source.file, without a request", async () => {
    d.emu.log.reset();
    const r = await d.run("preview", decls({ file: "missing/openapi.yaml" }));
    const lookedFor = path.join(PROGRAM, "missing/openapi.yaml").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    expect(r.checkFailures).toEqual([
      expect.objectContaining({ property: "source.file", reason: expect.stringMatching(new RegExp(`^source\\.file cannot read "missing/openapi\\.yaml" \\(looked for as ${lookedFor}\\): no such file$`)) }),
    ]);
    expect(d.emu.log.count()).toBe(0);
  });
});
