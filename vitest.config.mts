import { configDefaults, defineConfig } from "vitest/config";
import LongestFirst from "./test/support/sequencer";

/**
 * Two projects, a pyramid: `unit` calls the provider, the importer and the emulator in process
 * (seconds, no Pulumi CLI); `cli` deploys programs through the real `pulumi` (each run is a Go
 * engine, a Node language host and the SDK's provider host: seconds of CPU per run).
 * `npm run test:unit`, `npm run test:cli`, `npm test` runs both.
 */
const shared = {
  // Every emulator exchange is checked against GitBook's published spec; a violation fails its test.
  setupFiles: ["test/support/contract.setup.ts"],
};
const CLI_SUITES = ["test/cli", "test/examples", "test/faults", "test/import", "test/install", "test/lifecycle"];
/**
 * Install routes that `npm test` proves but for npm's own handling of them, each a second install of
 * every devDependency and a second build: run by `npm run test:routes` (which sets
 * GITBOOK_TEST_ROUTES), before a release or after a change to package.json or scripts/prepare.js.
 */
const ROUTES = ["test/install/git.test.ts"];

export default defineConfig({
  test: {
    // Prints, at the end, how many `pulumi` processes of each kind the tests started.
    globalSetup: ["test/support/pulumiCount.ts"],
    // `npm run coverage`: line coverage (v8) of the package's code by what runs in the tests' own
    // processes (a CLI test's provider runs in Pulumi's host, out of sight; its emulator runs here).
    coverage: {
      provider: "v8",
      include: ["provider/**/*.ts", "emulator/**/*.ts"],
      exclude: ["**/*.test.ts"],
      reporter: ["json-summary"],
    },
    pool: "forks",
    // Vitest's default on a 2-core machine is one worker, which leaves the CPU idle while a CLI test
    // waits on its `pulumi` processes. Three keep both cores busy; more only make every run slower.
    // `npm run test:unit` passes --maxWorkers=2: nothing in the unit project waits on another process,
    // so there a third worker only competes for the two cores (92 CPU-seconds in 51 s with three, 72 in
    // 48 s with two). A project of its own cannot say so here: Vitest then runs the projects one after
    // the other, and `npm test` loses the unit files filling the CLI files' waits.
    maxWorkers: 3,
    // The longest files first, so that the last to start are short (see the sequencer).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          ...shared,
          name: "unit",
          include: ["provider/**/*.test.ts", "emulator/**/*.test.ts", "test/unit/**/*.test.ts", "test/docs/**/*.test.ts"],
          // One process per worker for all its files, not one per file: each file then spent more time
          // loading the package, the SDK, zod and the spec (and warming them up) than testing. The
          // project took 134 s of CPU isolated and 56 s shared (78 s and 36 s of wall time alone).
          // Its files keep no state between them: the project passes in any order (--sequence.shuffle.files).
          isolate: false,
          // Some compile generated programs with tsc: seconds each, more on a loaded machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          ...shared,
          name: "cli",
          include: CLI_SUITES.map((d) => `${d}/**/*.test.ts`),
          exclude: [...configDefaults.exclude, ...ROUTES],
          // As the unit project: each file loaded the package, the emulator and GitBook's spec (and
          // compiled the spec's contract check) again in a new process. Shared, a clean clone's
          // `npm test` spent 567 s of CPU instead of 618 s (vitest 280 s instead of 309 s). The files
          // keep no state between them; each deploys its own emulator and stacks.
          isolate: false,
          // A `pulumi` run takes seconds, and several at once on 2 cores take longer.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      ...(process.env.GITBOOK_TEST_ROUTES
        ? [{ test: { ...shared, name: "routes", include: ROUTES, testTimeout: 120_000, hookTimeout: 600_000 } }]
        : []),
    ],
  },
});
