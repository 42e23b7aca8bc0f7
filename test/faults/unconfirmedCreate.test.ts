/**
 * A create whose answer is lost and whose looking for what it made fails too, through the real CLI.
 * Before, the run failed with nothing in state, and its error told the user to look in GitBook: a
 * blind re-run (a CI retry) listed the object the lost create had made among those that were there
 * before, and made a second. Now the engine keeps the resource in state under a placeholder ID with
 * when the create was sent and what existed before it (a partial failure); every run that reaches it
 * fails, sending nothing, until `pulumi-gitbook recover` takes the object into state (or removes the
 * resource when GitBook holds nothing it made). The rules recover decides by are provider/recover/plan.test.ts's.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { recover, undecided } from "./killedRun";
import { plannedSteps } from "../support/stateIsGitBook";
import type { Props } from "../../provider/framework/resource";

const SITES = "/v1/orgs/:org/sites";
const COLLECTIONS = "/v1/orgs/:org/collections";

/**
 * Both ways on one stack (engine runs are the suite's cost), each kind's faults on its own routes: the
 * first `up` makes a site and loses a collection's create (`--continue-on-error`, so the site is made
 * whatever the collection does), the second replaces the site and its create never reaches GitBook.
 * That second run leaves the collection out of the program, and runs with `--continue-on-error` too:
 * the engine takes the unconfirmed replacement as made and deletes the site it replaces, and the
 * collection it no longer declares; the provider refuses both (the site: the same resource's
 * replacement is unconfirmed; the collection: its own create is), and nothing is deleted.
 */
describeDeployments("a create whose answer is lost and whose looking fails too", () => {
  let d: Deployment;
  let failed: Awaited<ReturnType<Deployment["run"]>>;
  let replacing: Awaited<ReturnType<Deployment["run"]>>;
  let old: string;
  const docs: Decl = { kind: "Collection", name: "docs", args: { title: "Unconfirmed Docs" } };
  const replaced = (type: string): Decl => ({ kind: "Site", name: "replaced", args: { title: "Replaced Docs", type } });
  const made = () => [...d.emu.store.collections.values()].filter((s) => s.title === "Unconfirmed Docs").map((s) => s.id);
  const sites = () => [...d.emu.store.sites.values()].filter((s) => s.title === "Replaced Docs").map((s) => s.id);
  const post = { method: "POST", route: COLLECTIONS };

  beforeAll(async () => {
    d = await startDeployment();
    // The collection's create carried out, its answer lost; the listing before it answered, every one after it refused (500s are not resent).
    d.emu.faults.add({ match: post, dropAfterProcess: true, times: 1 });
    d.emu.faults.add({ match: { method: "GET", route: COLLECTIONS }, errorRate: 1, status: 500, after: 1 });
    failed = await d.run("up", [docs, replaced("basic")], { flags: ["--continue-on-error"] });
    d.emu.faults.clear();
    old = d.resource("replaced").id!;
    // The replacement's POST never reaches GitBook, and the looking after it fails.
    d.emu.faults.add({ match: { method: "POST", route: SITES }, dropBeforeProcess: true, times: 1 });
    d.emu.faults.add({ match: { method: "GET", route: SITES }, errorRate: 1, status: 500, after: 1 });
    replacing = await d.run("up", [replaced("premium")], { flags: ["--continue-on-error"] });
    d.emu.faults.clear();
  });
  afterAll(async () => d?.close());

  it("leaves the resource in state as unconfirmed: one object in GitBook, the run failed saying how to resolve it", () => {
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toContain("could not be looked for");
    expect(failed.stdout).toContain("pulumi-gitbook recover");
    expect(made()).toHaveLength(1);
    expect(d.emu.log.count(post)).toBe(1);
    const kept = d.resource("docs");
    expect(kept.id).toMatch(/^unconfirmed-create-\d+-/);
    expect(kept.outputs.__gitbookUnconfirmedCreate).toMatchObject({ before: [] });
  });

  it("leaves the object a replacement's unconfirmed create replaces in place: the engine marks it for deletion, and its delete is refused", () => {
    expect(replacing.code).not.toBe(0);
    expect(replacing.stdout).toContain("could not be looked for");
    expect(replacing.stdout).toContain(`${old} is not deleted: the resource's replacement was created in this run, but its create is unconfirmed`);
    expect(d.emu.log.count({ method: "DELETE" })).toBe(0);
    // What the engine made of it: the unconfirmed replacement, and the old site marked for the deletion the replacement planned.
    const entries = d.cli()!.exported().deployment.resources!.filter((x) => String(x.urn).endsWith("::replaced"));
    expect(entries.map((x) => [x.id === old ? "old" : String(x.id).replace(/-\d+-\w+$/, ""), !!x.delete])).toEqual([
      ["unconfirmed-create", false],
      ["old", true],
    ]);
    expect(sites()).toEqual([old]);
    // The collection the program no longer declares was left alone, unconfirmed.
    expect(d.resource("docs").id).toMatch(/^unconfirmed-create-\d+-/);
  });

  // Every later run that reaches it fails, sending nothing and keeping it (a blind up's update, a
  // refresh's read, a preview's diff, a destroy's delete): the provider's refusals, proved in process by
  // provider/framework/recovery.test.ts ("a lost create whose looking fails too").
  it("recover names the object the create made and takes it into state on the user's --adopt, and its drop takes the replacement's mark back; the next plan then has nothing to do, writing and deleting nothing", async () => {
    const look = await recover(d);
    expect(look.code, look.out).toBe(1);
    const [[urn, candidates], ...others] = [...undecided(look.out)];
    expect(others).toEqual([]);
    expect(urn).toMatch(/::docs$/);
    expect(candidates).toEqual(made());
    expect(look.out).toContain(`--adopt '${urn}=${made()[0]}'`);
    const out = await recover(d, ["--adopt", `${urn}=${made()[0]}`, "--accept"]);
    expect(out.code, out.out).toBe(0);
    expect(out.out).toMatch(new RegExp(`unconfirmed urn:\\S+::docs\\n\\s+-> adopt ${made()[0]}`));
    expect(out.out).toMatch(/unconfirmed urn:\S+::replaced\n\s+-> drop \(proposed, --accept\): GitBook holds no/);
    // Read from the backend's file: recover rewrote it outside the runs the deployment caches state for.
    const checkpoint = JSON.parse(fs.readFileSync(d.cli()!.statePath, "utf8")) as { checkpoint: { latest: { resources: Array<Record<string, unknown>> } } };
    const after = checkpoint.checkpoint.latest.resources.filter((x) => String(x.urn).endsWith("::replaced"));
    expect(after.map((x) => [x.id, !!x.delete])).toEqual([[old, false]]);
    const recorded = checkpoint.checkpoint.latest.resources
      .filter((x) => x.custom && !String(x.type).startsWith("pulumi:providers:"))
      .map((x) => ({ name: String(x.urn).split("::").pop()!, urn: String(x.urn), type: String(x.type), id: String(x.id), outputs: x.outputs as Props, inputs: x.inputs as Props }));
    expect(recorded.find((x) => x.name === "docs")?.id).toBe(made()[0]);
    // The program goes back on the replacement: its next plan, made in this process from recover's
    // checkpoint (the provider's check and diff of each declaration), is every step the same, sending
    // no write; no object is marked for deletion (above), so the engine deletes nothing either. That
    // the engine runs on a checkpoint recover wrote: every killed run's up after recover.
    const program = [docs, replaced("basic")];
    expect((await plannedSteps(d.emu, program, recorded)).filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`)).toEqual([]);
    expect(made()).toHaveLength(1);
    expect(sites()).toEqual([old]);
  });
});
