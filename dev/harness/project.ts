/** The harness's run options for a project folder (the project itself is read by ../project.ts). */
import * as fs from "node:fs";
import * as path from "node:path";
import { readProject } from "../project";
import type { Op, RunOptions } from "./engine";

export { linkPackage } from "../project";

/** Run options for `op` on `stack` of the project in `dir`, with extra (e.g. secret) config merged in. */
export function runOptionsFor(dir: string, stack: string, op: Op, extra: { config?: Record<string, string>; statePath?: string; hostLog?: string } = {}): RunOptions {
  const project = readProject(dir, stack);
  const work = path.join(dir, ".pulumi-harness");
  fs.mkdirSync(work, { recursive: true });
  return {
    op,
    programDir: dir,
    main: project.main,
    project: project.name,
    stack,
    statePath: extra.statePath ?? path.join(work, `${stack}.state.json`),
    hostLog: extra.hostLog ?? path.join(work, `${stack}.host.log`),
    config: { ...project.config, ...extra.config },
    secretKeys: Object.keys(extra.config ?? {}).filter((k) => /token|secret|password|certificate/i.test(k)),
  };
}
