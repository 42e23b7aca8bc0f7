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
import { ref, site } from "../support/scenarios";

describeDeployments("state written by the engine", () => {
  let d: Deployment;
  const decls = (source: Record<string, unknown>): Decl[] => [
    site(),
    { kind: "ShareLink", name: "link", args: { siteId: ref("site.id"), name: "Reviewers" } },
    { kind: "OpenApiSpec", name: "spec", args: { slug: "state-api", source } },
  ];

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
