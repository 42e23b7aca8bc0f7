/**
 * The order test files start in. Three workers share the files, so the wall time is at least the longest
 * file, and at most the work divided by three plus whichever file starts last: the longest go first
 * (longest-processing-time first), so that the last to start are short. Vitest orders by its cache of
 * the last run's durations, which a fresh CI checkout does not have; it then falls back to file size,
 * which put a 70 s file that delegates to a helper module last. So a file's expected time is, in order:
 * the cache's, this table's (seconds, the mean of two whole `npm test` runs on 2026-11-28, one a clean
 * clone's with CI=true, cli project, 3 workers, on a 2-core machine about twice as slow as the one of
 * 2026-11-25, vitest 646 and 662 s: only the order counts), or an estimate from its size. Projects
 * keep vitest's order (cli, then unit, whose seconds fill the gaps).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const SECONDS: Record<string, number> = {
  // Estimated: its preview folded into the up (issue 40); npm's installs are most of it.
  "test/install/new.test.ts": 118,
  // Estimated: 5 of its 8 engine runs left (issue 40).
  "test/import/roundTrip.test.ts": 80,
  // Estimated: its final preview planned in process (issue 40), 4 of 5 runs left.
  "test/faults/killedCheckpoint.test.ts": 87,
  // Estimated: 4 of its 7 runs left (issue 40).
  "test/faults/killed.test.ts": 60,
  // Measured 130 s: its seven runs with convergence's, the forced replacements', the site address's, the unknowns', state's, the plans' and the drop's resources (issue 40).
  "test/lifecycle/everyKind.test.ts": 130,
  // Estimated: three cases, 8 engine runs (13 before issue 40, 100 s).
  "test/faults/recoverCases.test.ts": 70,
  // Estimated: its four runs, and docsSiteIdentity's five ups, two of them riding in the four (issue 40).
  "test/lifecycle/cascade.test.ts": 95,
  // Estimated: 5 of its 11 runs left, its config mistakes checked in process (issue 40).
  "test/examples/docsSite.test.ts": 45,
  // Estimated for 2026-12 (issue 40): scaled by the engine runs each file kept.
  "test/faults/unconfirmedCreate.test.ts": 38,
  // Estimated: 3 of its 5 runs left, its destroy and failing up folded into docsSite's and errors' runs (issue 40).
  "test/cli/cli.test.ts": 30,
  // Estimated: 3 of its 4 runs left, cli.test.ts's failing up in its failed-create run (issue 40).
  "test/lifecycle/errors.test.ts": 31,
  "test/install/tarball.test.ts": 45,
  // Estimated: revokedToken.test.ts's runs folded into its own, 4 engine runs where the two took 6 (issue 40).
  "test/faults/everyFault.test.ts": 75,
  // Estimated: its one up (limits.test.ts's folded in; the rest rides in everyKind.test.ts's runs, issue 40).
  "test/lifecycle/state.test.ts": 9,
  "test/faults/recoverCheckpoint.test.ts": 30,
  // Estimated: its up alone (issue 40).
  "test/examples/typescript.test.ts": 11,
  "test/cli/languageHost.test.ts": 12,
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
