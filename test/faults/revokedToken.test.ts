/**
 * The API token revoked in the middle of a run (deterministically: right after a given request), and a
 * read answered 500, through the real CLI on the whole fault topology, on one stack: the run stops with
 * an error that names the token (or gives the API's message), never shows the token, and what was made
 * before is in state; a run with a new token and the API fixed picks up from there, converges, and then
 * sends no write. Then a destroy stopped by a revocation, and what it takes to finish it: `destroy`
 * configures the provider from state, so only `--run-program` brings the new token. The other classes of
 * fault: everyFault.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { LogEntry } from "../../emulator/log";
import { describeDeployments, type Deployment } from "../support/lifecycle";
import { deploy, expectConvergedRerun, expectNothingLeft, expectStateMatchesEmulator, expectTokenNowhere, topology } from "./topology";

describeDeployments("the token revoked in the middle of a run, and a read answered 500", () => {
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

  it("with a new token, stops at a read answered 500 with the API's message, keeping state true", async () => {
    rotate();
    const fault = d.emu.faults.add({ match: { method: "GET" }, errorRate: 1, status: 500, times: 1 });
    const r = await d.run("up", topology(d.emu));
    errors.push(r.error ?? "", r.stdout);
    expect(fault.hits).toBe(1);
    expect(r.error).toMatch(/GitBook API 500 on GET \/v1\/[^ ]+: Injected fault: the service answered 500/);
    expectStateMatchesEmulator(d);
  });

  it("converges from where the failed runs stopped once the API is fixed, then sends no write", async () => {
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
    // `destroy` configures the provider from the stack config recorded in state at the last `up`,
    // so the new token reaches it only when the program runs again; the error says so.
    const stale = await d.run("destroy");
    errors.push(stale.error ?? "", stale.stdout);
    expect(stale.error).toMatch(/GitBook API 401 .*with --run-program/);
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
