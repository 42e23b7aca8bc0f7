/**
 * The stack's settings, checked in the program's process as the first resource is constructed (see
 * judgeProgramConfig): the program reads the same stack config and environment the provider's
 * process is given, and it runs once per preview or update, so what it says is said once per run,
 * not once per resource, and an error here registers nothing (see framework/program.ts), so no
 * request is sent.
 */
import * as pulumi from "@pulumi/pulumi";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";
import { judgeProgramConfig, type ConfigSource } from "./config";
import { programError } from "./framework/program";

/** Once per process, even when two copies of the package are loaded (a component library and the program). */
const VERDICT = Symbol.for("pulumi-gitbook/programConfig");
type Holder = { [VERDICT]?: { error?: pulumi.RunError } };

/** The stack's config as the program sees it, by full key (`gitbook:token`). */
const stackConfig: ConfigSource = {
  get(key) {
    const at = key.indexOf(":");
    return new pulumi.Config(key.slice(0, at)).get(key.slice(at + 1));
  },
};

/**
 * A unit test of a program under `pulumi.runtime.setMocks` sends nothing and has no stack config, so
 * it is not judged; a runner that emulates the CLI on mocks hands the program its stack config the way
 * the CLI's language host does (PULUMI_CONFIG), and is.
 */
function mockedWithoutConfig(): boolean {
  return pulumi.runtime.getMonitor() instanceof MockMonitor && process.env.PULUMI_CONFIG === undefined;
}

/** Throws a RunError (one line, no stack) when the settings cannot work for this run; warns once when a preview will pass without a token. */
export function checkProgramConfig(): void {
  const holder = globalThis as Holder;
  let verdict = holder[VERDICT];
  if (!verdict) {
    if (mockedWithoutConfig()) return;
    const judged = judgeProgramConfig(stackConfig, process.env, pulumi.runtime.isDryRun());
    if (judged.warning) void pulumi.log.warn(judged.warning);
    verdict = holder[VERDICT] = judged.error ? { error: programError(judged.error) } : {};
  }
  if (verdict.error) throw verdict.error;
}
