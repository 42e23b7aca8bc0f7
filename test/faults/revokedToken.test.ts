/**
 * The API token revoked in the middle of a run (deterministically: right after a given request), through
 * the real CLI on the whole fault topology, on one stack: the run stops with an error that names the
 * token, never shows the token, and what was made before is in state; a run with a new token picks up
 * from there, converges, and then sends no write. Then a destroy stopped by a revocation, and what it takes to finish it: `destroy`
 * configures the provider from state, so only `--run-program` brings the new token (the 401's message
 * saying so: provider/client/client.test.ts, in process). The other classes of
 * fault: everyFault.test.ts. A read answered 500 (the API's message, sent once, state kept) is the
 * provider's: test/unit/readAnswered500.test.ts, and provider/config.test.ts for the organization question.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { LogEntry } from "../../emulator/log";
import { describeDeployments, type Deployment } from "../support/lifecycle";
import { deploy, expectConvergedRerun, expectNothingLeft, expectStateMatchesEmulator, expectTokenNowhere, topology } from "./topology";

describeDeployments("the token revoked in the middle of a run", () => {
  let d: Deployment;
  const tokens: string[] = [];
  const errors: string[] = [];
  beforeAll(async () => {
    d = await deploy();
    tokens.push(d.emu.token);
  });
  afterAll(async () => d?.close());

  /** Revokes the current token as soon as the API has answered a request matching `when`. */
  const revokeAfter = (when: (e: LogEntry) => boolean) => {
    const off = d.emu.log.onRecord((e) => {
      if (!when(e)) return;
      d.emu.revokeToken();
      off();
    });
  };
  const rotate = () => {
    d.emu.token = `gb_emu_rotated_${tokens.length}_0123456789abcdef`;
    tokens.push(d.emu.token);
  };

  it("stops an up with an error naming the revoked token, keeping every object already made in state", async () => {
    const decls = topology(d.emu);
    revokeAfter((e) => e.method === "POST" && e.route.endsWith("/site-spaces"));
    const r = await d.run("up", decls);
    errors.push(r.error ?? "", r.stdout);
    expect(r.error).toMatch(/GitBook API 401 on \w+ \/v1\/\S+: Invalid or revoked API token \(check gitbook:token or GITBOOK_TOKEN/);
    // Some of the program was made before the revocation, and all of that is in state.
    expect(d.emu.store.sites.size).toBeGreaterThan(0);
    expect(d.emu.store.siteSpaces.size).toBeGreaterThan(0);
    expectStateMatchesEmulator(d);
  });

  it("converges from where the failed run stopped with a new token, then sends no write", async () => {
    rotate();
    await expectConvergedRerun(d, topology(d.emu));
  });

  it("stops destroying with the same clear error, then destroys the rest with a new token", async () => {
    let deletes = 0;
    const managed = d.state().resources.filter((x) => x.custom);
    revokeAfter((e) => e.method === "DELETE" && ++deletes === 5);
    const r = await d.run("destroy");
    errors.push(r.error ?? "", r.stdout);
    expect(r.error).toMatch(/GitBook API 401 on DELETE \/v1\/\S+: Invalid or revoked API token/);
    expectStateMatchesEmulator(d);
    // Exactly the five deleted objects left state, besides resources whose delete sends no DELETE (an
    // order and a publication send nothing; a visitor schema is put back to GitBook's default).
    const left = new Set(d.state().resources.map((x) => x.name));
    const noDelete = /:(SiteStructureOrder|SitePublication|SiteAdaptiveSchema)$/;
    expect(managed.filter((x) => !left.has(x.name) && !noDelete.test(x.type))).toHaveLength(5);
    rotate();
    // `destroy` configures the provider from the stack config recorded in state at the last `up`, so
    // the new token reaches it only when the program runs again. That a 401's error says so is the
    // provider's: provider/client/client.test.ts (no engine run of its own).
    const rest = await d.run("destroy", undefined, { flags: ["--run-program"] });
    errors.push(rest.error ?? "", rest.stdout);
    expect(rest.error).toBeUndefined();
    expectNothingLeft(d);
  });

  it("never showed any of the tokens: not in state, host log, output, reports or errors", () => {
    expect(tokens).toHaveLength(3);
    expectTokenNowhere(d, tokens, errors);
  });
});
