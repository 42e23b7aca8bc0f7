/**
 * The order test files start in. Three workers share the files, so the wall time is at least the longest
 * file, and at most the work divided by three plus whichever file starts last: the longest go first
 * (longest-processing-time first), so that the last to start are short. Vitest orders by its cache of
 * the last run's durations, which a fresh CI checkout does not have; it then falls back to file size,
 * which put a 70 s file that delegates to a helper module last. So a file's expected time is, in order:
 * the cache's, this table's (seconds, measured on the 2-core CI machine, cli project, 3 workers), or an
 * estimate from its size. Measured in a clean clone's `.ci/run` on 2026-11-25 at 03:54 UTC (a quiet
 * machine, vitest 330 s). Projects keep vitest's order (cli, then unit, whose seconds fill the gaps).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const SECONDS: Record<string, number> = {
  "test/install/new.test.ts": 93,
  "test/faults/killed.test.ts": 58,
  "test/faults/killedCheckpoint.test.ts": 55,
  "test/lifecycle/appEdits.test.ts": 53,
  "test/lifecycle/cascade.test.ts": 47,
  "test/lifecycle/everyKind.test.ts": 46,
  "test/import/roundTrip.test.ts": 44,
  "test/examples/docsSite.test.ts": 43,
  "test/install/git.test.ts": 39,
  "test/faults/everyFault.test.ts": 35,
  "test/install/tarball.test.ts": 33,
  "test/lifecycle/siteSettings.test.ts": 31,
  "test/faults/revokedToken.test.ts": 28,
  "test/lifecycle/errors.test.ts": 25,
  "test/lifecycle/adoption.test.ts": 25,
  "test/lifecycle/state.test.ts": 24,
  "test/cli/cli.test.ts": 19,
  "test/lifecycle/docsSiteIdentity.test.ts": 18,
  "test/lifecycle/emulatorEdit.test.ts": 17,
  "test/cli/plans.test.ts": 16,
  "test/lifecycle/convergence.test.ts": 14,
  "test/lifecycle/siteExternalLinkOrder.test.ts": 12,
  "test/lifecycle/unknowns.test.ts": 11,
  "test/examples/typescript.test.ts": 9,
  "test/lifecycle/teamMembers.test.ts": 8,
  "test/faults/unreachable.test.ts": 7,
  "test/faults/appNamesake.test.ts": 6,
  "test/cli/languageHost.test.ts": 5,
  "test/lifecycle/placement.test.ts": 4,
  "test/faults/limits.test.ts": 4,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = (f: TestSpecification): number => {
      const file = path.relative(root, f.moduleId).split(path.sep).join("/");
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${file}`);
      if (cached && !cached.failed) return cached.duration / 1000;
      if (file in SECONDS) return SECONDS[file]!;
      // About a second per kilobyte: roughly what the unlisted CLI files take; unit files are under a second.
      return f.project.name === "cli" ? fs.statSync(f.moduleId).size / 1000 : 0;
    };
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return expected(b) - expected(a);
    });
  }
}
