/**
 * In-process driver for resource unit tests: a fresh emulator, the provider configured against it,
 * and the provider's methods called through the same `dispatch` the serialized shim uses. `up`,
 * `refresh` and `destroy` sequence those calls the way the engine does for one resource.
 *
 * test/support/program.ts runs whole programs (several resources referring to each other) on it.
 * (The out-of-process path, through the real Pulumi CLI, is test/support/lifecycle.ts.)
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { Emulator, type EmulatorOptions } from "../../emulator";
import type { ClientOptions } from "../../provider/client";
import type { RuntimeOptions } from "../../provider/config";
import { createProvider, definitionOf } from "../../provider/impl";
import { forcedReplacementDeletesFirst } from "../../provider/framework/define";
import type { Props } from "../../provider/framework/resource";

export interface State {
  id: string;
  outs: Props;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

export class CheckFailed extends Error {
  constructor(readonly failures: CheckFailure[]) {
    super(failures.map((f) => f.reason).join("; "));
  }
}

/** The shape of every provider call result we read in tests. */
export type DiffResult = { changes?: boolean; replaces?: string[]; deleteBeforeReplace?: boolean };

export type Step = "create" | "update" | "replace" | "same";

export interface ProviderEnv {
  emu: Emulator;
  org: string;
  call<T = any>(kind: string, method: string, ...args: unknown[]): Promise<T>;
  check(kind: string, news: Props, olds?: Props): Promise<{ inputs?: Props; failures?: CheckFailure[] }>;
  diff(kind: string, state: State, news: Props): Promise<DiffResult>;
  /** check, diff, then create / update / replace, like `pulumi up` for one resource. */
  up(kind: string, news: Props, state?: State): Promise<{ state: State; step: Step; diff?: DiffResult; inputs: Props }>;
  /** A replacement the user forces (`pulumi up --replace`): check, then delete and create in the order the engine takes. */
  replace(kind: string, news: Props, state: State): Promise<{ state: State; step: Step; diff?: DiffResult; inputs: Props }>;
  /** read, like `pulumi refresh`: undefined when the provider says the object is gone. */
  refresh(kind: string, state: State): Promise<{ state: State; inputs: Props } | undefined>;
  destroy(kind: string, state: State): Promise<void>;
  /** Forget cached lists after an out-of-band change made through `emu.store`. */
  outOfBand(): void;
  close(): Promise<void>;
}

/**
 * `client`: options for the provider's clients over the suite's fast retries (e.g. a short time limit).
 * `listingMaxAgeSeconds`: 0 unless given, so that a test's request counts and what its guards see do
 * not depend on how fast the machine runs it (the default age and its exposure: listShare.test.ts; a
 * CLI run, a process per command, runs with the default).
 */
export async function startProviderEnv(
  opts: EmulatorOptions & { client?: Partial<ClientOptions>; openApiPoll?: RuntimeOptions["openApiPoll"]; emulator?: Emulator; listingMaxAgeSeconds?: number } = {},
): Promise<ProviderEnv> {
  const { client, openApiPoll, emulator, listingMaxAgeSeconds = 0, ...emulatorOptions } = opts;
  // `emulator`: one already running (a CLI suite's), which close() leaves running.
  const emu = emulator ?? (await Emulator.start(emulatorOptions));
  // Fast retries: the suite exercises retry paths, not real back-off times.
  const { runtime, dispatch } = createProvider({ clientOverrides: { retry: { baseDelayMs: 2, maxDelayMs: 20, deadlineMs: 15_000 }, ...client }, ...(openApiPoll ? { openApiPoll } : {}) });
  const config: Record<string, string> = {
    "gitbook:token": emu.token,
    "gitbook:apiUrl": emu.url,
    "gitbook:organizationId": emu.seeded.organizationId,
    "gitbook:openApiWaitSeconds": "5",
    "gitbook:listingMaxAgeSeconds": String(listingMaxAgeSeconds),
  };
  await dispatch(1, "Site", "configure", [{ config: { get: (k: string) => config[k] } }]);

  const call = <T>(kind: string, method: string, ...args: unknown[]) => dispatch(1, kind, method as never, args) as Promise<T>;
  const provider = "__provider_placeholder__";

  /** A replacement in the order the engine takes from the diff: the old one first when it says deleteBeforeReplace. */
  async function replaced(kind: string, state: State, inputs: Props, d: DiffResult) {
    if (d.deleteBeforeReplace) await call(kind, "delete", state.id, state.outs);
    const r = await call<{ id: string; outs: Props }>(kind, "create", inputs);
    if (!d.deleteBeforeReplace) await call(kind, "delete", state.id, state.outs);
    return { state: { id: r.id, outs: r.outs }, step: "replace" as const, diff: d, inputs };
  }

  const env: ProviderEnv = {
    emu,
    org: emu.seeded.organizationId,
    call,
    check: (kind, news, olds = {}) => call(kind, "check", olds, { ...news, __provider: provider }),
    diff: (kind, state, news) => call(kind, "diff", state.id, { ...state.outs, __provider: provider }, { ...news, __provider: provider }),
    async up(kind, news, state) {
      const checked = await env.check(kind, news, state?.outs);
      if (checked.failures?.length) throw new CheckFailed(checked.failures);
      const inputs = { ...checked.inputs, __provider: provider };
      if (!state) {
        const r = await call<{ id: string; outs: Props }>(kind, "create", inputs);
        return { state: { id: r.id, outs: r.outs }, step: "create", inputs };
      }
      const d = await env.diff(kind, state, inputs);
      if (d.replaces?.length) return replaced(kind, state, inputs, d);
      if (d.changes) {
        const r = await call<{ outs: Props }>(kind, "update", state.id, { ...state.outs, __provider: provider }, inputs);
        return { state: { id: state.id, outs: r.outs }, step: "update", diff: d, inputs };
      }
      return { state, step: "same", diff: d, inputs };
    },
    async replace(kind, news, state) {
      const checked = await env.check(kind, news, state.outs);
      if (checked.failures?.length) throw new CheckFailed(checked.failures);
      const inputs = { ...checked.inputs, __provider: provider };
      // The engine asks no diff about a replacement the user forces: its order is the resource option
      // the resource class sets (define.ts), for kinds that always delete first.
      const deleteFirst = forcedReplacementDeletesFirst(await definitionOf(kind));
      return replaced(kind, state, inputs, { changes: true, replaces: ["id"], deleteBeforeReplace: deleteFirst });
    },
    async refresh(kind, state) {
      const r = await call<{ id?: string; props?: Props; inputs?: Props }>(kind, "read", state.id, { ...state.outs, __provider: provider });
      if (!r.id) return undefined;
      return { state: { id: r.id, outs: r.props! }, inputs: r.inputs! };
    },
    destroy: (kind, state) => call(kind, "delete", state.id, { ...state.outs, __provider: provider }),
    outOfBand: () => runtime.resetClients(),
    async close() {
      runtime.resetClients();
      if (!emulator) await emu.close();
    },
  };
  return env;
}

/**
 * The request a preview or an up sends first when a resource will be created or changed: whether the
 * token sees the organization (GitbookClient.checkOrganization), once per provider process (one
 * ProviderEnv's client; each run of test/support/program.ts, as a new process would).
 */
export const ORG_QUESTION = "GET /v1/orgs/:org";

/**
 * The question a check of a structure resource that will send something asks about its site, once per
 * provider process and site: whether a Git Sync installation owns the site's structure (framework/gitSync.ts).
 */
export const GIT_SYNC_QUESTION = "GET /v1/orgs/:org/sites/:site/spaces/git/installations";

/** Whether a logged request is that question. */
export const isOrgQuestion = (e: { method: string; route: string }) => `${e.method} ${e.route}` === ORG_QUESTION;

/** A bad input: the property it must be reported against, the input, and what the reason must say. */
export type BadInput = [property: string, input: Props, reason: RegExp];

/**
 * One test per bad input: check fails on that property (and no other) with a reason naming the
 * limit, and nothing reaches the API.
 */
export function rejectsAtCheck(getEnv: () => ProviderEnv, kind: string, base: Props, bad: BadInput[]): void {
  for (const [property, input, reason] of bad) {
    it(`rejects a bad ${property} (${JSON.stringify(input).slice(0, 40)}) before sending anything`, async () => {
      const env = getEnv();
      env.emu.log.reset();
      const r = await env.check(kind, { ...base, ...input });
      expect(r.failures?.length).toBeGreaterThan(0);
      expect(r.failures!.map((f) => f.property)).toEqual(r.failures!.map(() => property));
      expect(r.failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
      expect(env.emu.log.count()).toBe(0);
    });
  }
}

/**
 * One provider environment for a whole test file, with no fault and an empty request log at the start
 * of each test: `let env: ProviderEnv; providerEnvPerFile((e) => (env = e));`.
 */
export function providerEnvPerFile(set: (env: ProviderEnv) => void, opts?: Parameters<typeof startProviderEnv>[0]): void {
  let env: ProviderEnv | undefined;
  beforeAll(async () => set((env = await startProviderEnv(opts))));
  afterAll(async () => env?.close());
  beforeEach(() => {
    env!.emu.faults.clear();
    env!.emu.log.reset();
  });
}
