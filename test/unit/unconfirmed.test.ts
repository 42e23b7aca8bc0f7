/**
 * Every kind whose create recovers a lost answer by looking (createOnce: a kind with `lookalikes`),
 * its lifecycle program's create answered never, and the looking after it failing (test/support/scenarios.ts):
 * the create ends as a partial failure under a placeholder ID with the record recover needs
 * (state.ts, UNCONFIRMED_KEY), GitBook holds exactly one more object, and recover's plan takes that
 * object when GitBook dates it (a kind with no creation time: names it alone, for --adopt). A kind whose create wrapped the error in one of its own would end with nothing in state,
 * and a retried run would make a second object. The engine's side, through the real CLI, is
 * test/faults/unconfirmedCreate.test.ts.
 */
import { describe, expect, it } from "vitest";
import { GitbookClient } from "../../provider/client";
import { resolveConfig } from "../../provider/config";
import { PartialFailure } from "../../provider/framework/failure";
import { UNCONFIRMED_ID_PREFIX, unconfirmedIn } from "../../provider/framework/state";
import { planRecovery, type StateResource } from "../../provider/recover/plan";
import { resources } from "../../provider/resources";
import { serializedShim } from "../../provider/shim";
import { programSuite } from "../support/program";
import { scenarios } from "../support/scenarios";

/** Kinds with `lookalikes` (recover's rule) whose create sends a write that may be sent again, so never looks. */
const RESENT: Record<string, string> = { Permission: "a grant's invite is sent again after a lost answer: GitBook merges it" };

const looking = Object.values(scenarios).filter((sc) => resources.find((r) => r.kind === sc.kind)!.lookalikes && !(sc.kind in RESENT));

it("covers every kind with lookalikes, or names why its create never looks", () => {
  const all = resources.filter((r) => r.lookalikes).map((r) => r.kind);
  expect([...looking.map((sc) => sc.kind), ...Object.keys(RESENT)].sort()).toEqual(all.sort());
});

describe.each(looking)("$kind: a create whose answer is lost and whose looking fails too", (sc) => {
  const s = programSuite();
  it("ends as a partial failure kept as unconfirmed, with one object made, which recover's plan takes by its date, or names for --adopt", async () => {
    const program = sc.program(s.env.emu, "base");
    const deps = program.filter((d) => d.name !== "subject");
    await s.p.up(deps);
    // A fault-free create first: which write is the create's, and how many reads come before it.
    s.env.emu.log.reset();
    await s.p.up(program);
    const inputs = s.p.resource("subject").inputs;
    const log = s.env.emu.log.entries;
    const at = log.findIndex((e) => e.method !== "GET");
    const write = log[at]!;
    const reads = log.slice(0, at).length;
    await s.p.up(deps);
    s.env.outOfBand();

    const before = sc.count(s.env.emu);
    s.env.emu.faults.add({ match: { method: write.method, route: write.route }, dropAfterProcess: true, times: 1 });
    s.env.emu.faults.add({ match: { method: "GET" }, errorRate: 1, status: 500, after: reads });
    const e = await s.p.up(program).then(
      () => undefined,
      (x: unknown) => x,
    );
    s.env.emu.faults.clear();
    expect(sc.count(s.env.emu)).toBe(before + 1);
    expect(e).toBeInstanceOf(PartialFailure);
    const failure = e as PartialFailure;
    expect(failure.id.startsWith(UNCONFIRMED_ID_PREFIX)).toBe(true);
    expect(failure.message).toMatch(/could not be looked for .*pulumi-gitbook recover/);
    const record = unconfirmedIn(failure.properties)!;
    expect(record.before).not.toBeNull();

    // Recover, with the program's other resources in state.
    const urn = (name: string, kind: string) => `urn:pulumi:dev::docs::pulumi-nodejs:dynamic/gitbook:${kind}::${name}`;
    const state: StateResource[] = deps.map((d) => ({ urn: urn(d.name, d.kind), type: `pulumi-nodejs:dynamic/gitbook:${d.kind}`, id: s.p.resource(d.name).id, outputs: s.p.resource(d.name).outputs }));
    state.push({
      urn: urn("subject", sc.kind),
      custom: true,
      type: `pulumi-nodejs:dynamic/gitbook:${sc.kind}`,
      id: failure.id,
      inputs: { ...inputs, __provider: serializedShim(sc.kind) },
      outputs: failure.properties,
    });
    const client = new GitbookClient({ token: s.env.emu.token, apiUrl: s.env.emu.url });
    const ctx = { client, config: resolveConfig({ token: s.env.emu.token, apiUrl: s.env.emu.url }, {}) };
    const exported = { version: 3, deployment: { resources: state } };
    const none = { adopt: new Map<string, string[]>(), drop: new Set<string>() };
    // Named, whatever GitBook dates it: a namesake made in the app or by another stack since would look
    // the same (recover/plan.ts). The user's --adopt decides.
    const plan = await planRecovery(ctx, exported, none);
    expect(plan).toMatchObject([{ op: "unconfirmed", action: "undecided" }]);
    const named = (plan[0] as { candidates: { id: string }[] }).candidates.map((c) => c.id);
    expect(named).toHaveLength(1);
    const adopted = named[0]!;
    const urnOf = state.at(-1)!.urn;
    expect(await planRecovery(ctx, exported, { ...none, adopt: new Map([[urnOf, [adopted]]]) })).toMatchObject([{ op: "unconfirmed", action: "adopt", id: adopted }]);
    await client.close();
    expect(sc.live(s.env.emu, adopted)).toBeDefined();
    expect(state.some((r) => r.id === adopted)).toBe(false);
  });
});
