/**
 * A `gitbook:apiUrl` that is malformed or unreachable, through the Pulumi CLI and the SDK's
 * dynamic-provider host: a malformed URL fails the preview naming the setting, without a request; a
 * closed port fails the `up` within seconds, naming the URL, the setting, the attempts and the time.
 * (Every malformed form is judged in process, provider/config.test.ts and provider/framework/framework.test.ts;
 * a retry's wait written to the host's stderr is checked in test/faults/everyFault.test.ts's first `up`.)
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { closedPort } from "../support/net";

const site: Decl[] = [{ kind: "Site", name: "docs", args: { title: "Docs" } }];

describeDeployments("gitbook:apiUrl", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("fails the preview on a malformed URL, naming gitbook:apiUrl, without a request", async () => {
    d.emu.log.reset();
    const url = "ftp://api.gitbook.com";
    const r = await d.run("preview", site, { config: { "gitbook:apiUrl": url } });
    expect(r.error?.split("\n")[0]).toMatch(new RegExp(`^gitbook:apiUrl is "${url}", which .*; it must be the API's base URL`));
    expect(r.stdout).toContain("gitbook:apiUrl");
    expect(d.emu.log.count()).toBe(0);
  });

  it("fails an up against a closed port after 3 attempts, naming the URL, the setting and the attempts", async () => {
    const url = await closedPort();
    const r = await d.run("up", site, { config: { "gitbook:apiUrl": url } });
    expect(r.error).toContain(`could not connect to ${url}, set by gitbook:apiUrl: check that setting and the network`);
    // A refused connection is given up on after 3 attempts, not retried for the whole retry budget
    // (how long that takes is measured by the bench, never asserted here).
    expect(r.error).toMatch(/gave up after 3 attempts over \d+\.\d s/);
    expect(d.state().resources.filter((x) => x.custom)).toEqual([]);
  });
});
