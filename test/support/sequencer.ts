/**
 * The order test files start in. Three workers share the files, so the wall time is at least the longest
 * file, and at most the work divided by three plus whichever file starts last: the longest go first
 * (longest-processing-time first), so that the last to start are short. Vitest orders by its cache of
 * the last run's durations, which a fresh CI checkout does not have; it then falls back to file size,
 * which put a 70 s file that delegates to a helper module last. So a file's expected time is, in order:
 * the cache's, this table's (seconds, measured on the 2-core CI machine, cli project, 3 workers), or an
 * estimate from its size. Files whose scenarios were merged into shared stacks (2026-11-24 and 2026-11-25:
 * e.g. cascade, which took in sectionCascade; siteSettings, five per-kind files; everyFault, four fault
 * files) carry their earlier seconds scaled by their new count of `pulumi` runs, until CI measures them again. Projects keep vitest's order (cli, then unit, whose seconds fill the gaps).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const SECONDS: Record<string, number> = {
  "test/cli/cli.test.ts": 66,
  "test/lifecycle/appEdits.test.ts": 60,
  "test/lifecycle/everyKind.test.ts": 59,
  "test/lifecycle/cascade.test.ts": 49,
  "test/import/roundTrip.test.ts": 48,
  "test/examples/docsSite.test.ts": 47,
  "test/lifecycle/convergence.test.ts": 47,
  "test/install/new.test.ts": 44,
  "test/faults/killed.test.ts": 42,
  "test/lifecycle/adoption.test.ts": 41,
  "test/faults/killedCheckpoint.test.ts": 38,
  "test/lifecycle/placement.test.ts": 36,
  "test/faults/everyFault.test.ts": 32,
  "test/lifecycle/siteSettings.test.ts": 30,
  "test/lifecycle/errors.test.ts": 30,
  "test/faults/revokedToken.test.ts": 23,
  "test/install/tarball.test.ts": 23,
  "test/lifecycle/state.test.ts": 20,
  "test/lifecycle/emulatorEdit.test.ts": 17,
  "test/lifecycle/docsSiteIdentity.test.ts": 15,
  "test/cli/plans.test.ts": 15,
  "test/lifecycle/siteExternalLinkOrder.test.ts": 14,
  "test/examples/typescript.test.ts": 14,
  "test/lifecycle/unknowns.test.ts": 13,
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
