/**
 * A resource's read GitBook answers 500 (a refresh's): the call
 * fails at once with the API's own message and the request it answered, sent once (a 500 is not
 * resent: it is GitBook's own failure, not a passing one), naming the resource, and changes nothing:
 * the state the engine keeps is the one before, and once GitBook answers, the same call finds it true.
 * Through the CLI, a run stopped this way renders the provider's error as any failed call's
 * (test/faults/everyFault.test.ts's revoked token). The first read of an `up`, the question whether
 * the token sees the organization, answered 500 fails check, naming the setting: provider/config.test.ts.
 */
import { expect, it } from "vitest";
import { providerEnvPerFile, type ProviderEnv } from "../support/provider";

let env: ProviderEnv;
providerEnvPerFile((e) => (env = e));

const KINDS: [kind: string, args: Record<string, unknown>][] = [
  ["Site", { title: "Read Fault Docs" }],
  ["Space", { title: "Read Fault Space" }],
  ["Collection", { title: "Read Fault Collection" }],
  ["Team", { title: "Read Fault Team" }],
];
/** Every read but the organization question (its 500 fails check, naming gitbook:organizationId: provider/config.test.ts). */
const READS = { method: "GET", route: /^\/v1\/(?!orgs\/[^/]+$)/ };
const ANSWER = /GitBook API 500 on GET \/v1\/\S+: Injected fault: the service answered 500/;

for (const [kind, args] of KINDS) {
  it(`${kind}: a read answered 500 fails the refresh with the API's message, sent once, changing nothing`, async () => {
    const { state } = await env.up(kind, args);
    const before = structuredClone(state);
    env.emu.log.reset();
    const fault = env.emu.faults.add({ match: READS, errorRate: 1, status: 500, times: 1 });
    const error = await env.refresh(kind, state).then(
      () => undefined,
      (e: Error) => e.message,
    );
    env.emu.faults.clear();
    expect(fault.hits).toBe(1);
    expect(error).toMatch(new RegExp(`^${kind} \\S+: ${ANSWER.source}`));
    expect(env.emu.log.writes()).toBe(0);
    expect(env.emu.log.count(READS)).toBe(1);
    expect(state).toEqual(before);
    expect((await env.refresh(kind, state))?.state).toEqual(before);
  });
}
