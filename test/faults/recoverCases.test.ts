/**
 * Recovery without guessing, through the real CLI: the cases where recover used to decide a killed
 * run's creates by time windows, and was wrong (issue 37). Each kill is tied to the emulator's requests
 * (killedRun.ts). Recover now lists what could be each open operation's object and changes state only by
 * the user's word; here the test is the user, who knows what the app and the other stack made.
 *
 * 1 to 4 and 6, on one stack and the stack A beside it over the same organization, GitBook's clock five
 *    minutes behind. The run's Space POST never reached GitBook; the CLI's advice followed first
 *    (`pulumi cancel`, `pulumi refresh`), then namesakes made by others: stack A's Space (case 1) and a
 *    person in the app (case 2). `recover --check` is the CI guard. Stack A's own up is killed after its
 *    Space POST reached GitBook: that Space, dated before A's run began, is named, not dropped (what
 *    --adopt then does, whatever the object's date: provider/recover/plan.test.ts in process, and every
 *    killed run of killed.test.ts and killedCheckpoint.test.ts through the CLI). An `up` on A that runs
 *    while recover reads GitBook: recover writes nothing over it. That up, with no recover before it,
 *    makes the killed run's Space again: the failure recover exists for (issue 19). (Cases 3 and 4 had a
 *    stack of their own: issue 40 folded it into case 1's stack A, one engine run fewer.)
 * 5. A kill after an old path's redirect rule was made: the rule is named for the pending update, and
 *    after --adopt the next up converges.
 */
import { afterEach, expect, it } from "vitest";
import { GitbookClient } from "../../provider/client";
import { ApiSpace, paths as spacePaths } from "../../provider/resources/space";
import { runRecover } from "../../provider/recover/command";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { cancelAsAdvised, killedUp, recover, recoverCall, undecided } from "./killedRun";

const ref = (s: string) => ({ $ref: s });
const SPACES = /^\/v1\/orgs\/:org\/spaces$/;

let open: Deployment[] = [];
afterEach(async () => {
  for (const d of open) await d.close();
  open = [];
});
const deployment = async (opts: Parameters<typeof startDeployment>[0] = {}) => {
  const d = await startDeployment(opts);
  open.push(d);
  return d;
};

/** The organization's spaces titled so. */
const spaces = (d: Deployment, title: string) => [...d.emu.store.spaces.values()].filter((s) => s.title === title && !s.deletedAt).map((s) => s.id);

/** A space made in the GitBook app. */
async function appSpace(d: Deployment, title: string): Promise<string> {
  const client = new GitbookClient({ token: d.emu.token, apiUrl: d.emu.url });
  try {
    return (await client.post(spacePaths.spaces(d.emu.seeded.organizationId), { body: { title }, schema: ApiSpace })).id;
  } finally {
    await client.close();
  }
}

/** Kills an up at a Space's create that never reaches GitBook. */
async function killedBeforeSpace(d: Deployment, decls: Decl[]): Promise<void> {
  d.emu.faults.add({ match: { method: "POST", route: SPACES }, dropBeforeProcess: true });
  await killedUp(d, decls, { at: "route", method: "POST", route: SPACES });
}

/** The state file's resources, read from the backend (recover writes outside the runs the deployment caches). */
const exported = (d: Deployment) => JSON.stringify(d.cli()!.exported());

describeDeployments("recover decides nothing by itself", () => {
  it("1 to 4 and 6. GitBook's clock five minutes behind; after the CLI's advice (`pulumi cancel`, `pulumi refresh`), namesakes made by another stack (its own killed run's, named for it, not dropped, though dated before its run began; then made again by its up with no recover before it, which ran while recover read GitBook: recover writes nothing over it) and by the app: --check fails, recover names all three and takes none, and the user's --drop leaves them alone and makes the stack its own", async () => {
    const d = await deployment();
    // Every object GitBook makes is dated five minutes before the run that made it began: recover decides
    // nothing by dates, so no namesake below is ruled in or out by its own.
    d.emu.store.clockOffsetMs = -5 * 60_000;
    const decls: Decl[] = [
      { kind: "Site", name: "docs", args: { title: "Docs" } },
      { kind: "Space", name: "guides", args: { title: "Runbooks" }, dependsOn: ["docs"] },
    ];
    await killedBeforeSpace(d, decls);
    expect(spaces(d, "Runbooks")).toEqual([]);
    await cancelAsAdvised(d);
    const refresh = await d.run("refresh", decls, { flags: ["--skip-preview"] });
    expect(refresh.code, refresh.stdout).toBe(0);

    // Made after the run began (case 1): stack A, the same Space over the same organization. Its own up
    // is killed once its Space POST has reached GitBook (cases 3 and 4).
    const a = await deployment({ emulator: d.emu });
    const space = decls.filter((x) => x.kind === "Space").map(({ dependsOn: _, ...x }) => x);
    await killedUp(a, space, { at: "route", method: "POST", route: SPACES });
    const [made] = spaces(d, "Runbooks");
    const [[urnA, candidatesA]] = [...undecided((await recover(a)).out)];
    expect(candidatesA).toEqual([made]);
    // Recover on A, slowed down while it reads GitBook; meanwhile the stack is unlocked and an up adds a team.
    const held = d.emu.gate({ method: "GET" });
    const { argv, env } = recoverCall(a, ["--adopt", `${urnA!}=${made}`]);
    let out = "";
    const sink = { write: (text: string) => (out += text) };
    const running = runRecover(argv, { env, cwd: a.dir, stdout: sink, stderr: sink });
    await held.arrived;
    await cancelAsAdvised(a);
    const withTeam: Decl[] = [...space, { kind: "Team", name: "writers", args: { title: "Writers" } }];
    const upA = await a.run("up", withTeam);
    expect(upA.code, upA.stdout).toBe(0);
    // What the CLI's advice alone does (`pulumi cancel`, then up): the pending create is sent again,
    // and the killed run's Space is made a second time (as issue 19 saw it).
    expect(spaces(d, "Runbooks")).toHaveLength(2);
    expect(spaces(d, "Runbooks")).toContain(made);
    const theirs = a.resource("guides").id;
    expect(theirs).not.toBe(made);
    held.open();
    const code = await running;
    expect(out).toContain("the stack's checkpoint changed while recover ran");
    expect(code).toBe(1);
    expect(a.resource("writers").id).toBeDefined();

    // And by a person in the app (case 2).
    const app = await appSpace(d, "Runbooks");
    const namesakes = [made!, theirs!, app].sort();
    // The CI guard: a blind up would create the pending Space again.
    const check = await recover(d, ["--check"]);
    expect(check.code, check.out).toBe(1);
    expect(check.out).toMatch(/creating urn:\S+::guides/);
    const look = await recover(d);
    expect(look.code, look.out).toBe(1);
    expect(look.out).not.toMatch(/--since|unknown time/);
    const [[urn, candidates]] = [...undecided(look.out)];
    expect([...candidates!].sort()).toEqual(namesakes);
    for (const id of namesakes) expect(look.out).toContain(`--adopt '${urn}=${id}'`);
    expect(look.out).toContain(`npx pulumi-gitbook recover --stack ${d.cli()!.name} --drop '${urn}'`);
    // --accept takes recover's own proposals, and it proposes no candidate: nothing is written.
    const before = exported(d);
    const accepted = await recover(d, ["--accept"]);
    expect(accepted.code, accepted.out).toBe(1);
    expect([...undecided(accepted.out)].map(([u, c]) => [u, [...c].sort()])).toEqual([[urn, namesakes]]);
    expect(exported(d)).toBe(before);
    expect((await recover(d, ["--drop", urn!])).code).toBe(0);
    expect((await recover(d, ["--check"])).code).toBe(0);
    const up = await d.run("up", decls);
    expect(up.code, up.stdout).toBe(0);
    expect(namesakes).not.toContain(d.resource("guides").id);
    for (const id of namesakes) expect(d.emu.store.spaces.get(id)?.deletedAt).toBeUndefined();
    expect(spaces(d, "Runbooks")).toHaveLength(4);
    expect(a.resource("guides").id).toBe(theirs);
    expect(d.emu.store.sites.size).toBe(1);
    // Nine recovers beside its five engine runs: over 300 s on a loaded 2-core machine.
  }, 900_000);

  it("5. a kill after an old path's redirect rule was made: recover names the rule for the section's pending update, and after --adopt the next up converges with no rule written", async () => {
    const d = await deployment();
    const spaceId = d.emu.seeded.spaceIds[0]!;
    const program = (path: string): Decl[] => [
      { kind: "Site", name: "docs", args: { title: "Moving Docs", published: true } },
      { kind: "SiteSection", name: "guides", args: { siteId: ref("docs.id"), spaceId, path, redirectOldPath: true } },
    ];
    expect((await d.run("up", program("guides"))).code).toBe(0);
    await killedUp(d, program("handbook"), { at: "route", method: "POST", route: /\/redirects$/ });
    const [rule] = [...d.emu.store.siteRedirects.values()];
    const look = await recover(d);
    const [[urn, candidates]] = [...undecided(look.out)];
    expect(look.out).toMatch(/updating urn:\S+::guides\n\s+-> UNDECIDED: the redirect rule from its old path "guides"/);
    expect(candidates).toEqual([rule!.id]);
    expect((await recover(d, ["--adopt", `${urn}=${rule!.id}`])).code).toBe(0);
    const from = d.emu.log.entries.length;
    const up = await d.run("up", program("handbook"));
    expect(up.code, up.stdout).toBe(0);
    expect(d.emu.log.entries.slice(from).filter((e) => e.route.endsWith("/redirects") && e.method !== "GET")).toEqual([]);
    expect(d.resource("guides").outputs.oldPathRedirectRules).toEqual({ guides: { id: rule!.id, source: rule!.source } });
    expect([...d.emu.store.siteRedirects.keys()]).toEqual([rule!.id]);
  }, 300_000);
});
