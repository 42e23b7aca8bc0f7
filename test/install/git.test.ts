/**
 * The package from a git URL (README install option 3): `npm install git+file://<repository>`, where
 * the repository is one commit of this working tree (the code under test, uncommitted edits
 * included). npm clones it, installs the clone's own dependencies and runs its `prepare` (the
 * build) there, packs it and installs the pack; offline, with npm's cache as `npm ci` filled it.
 * Then the checks every install gets (test/install/installed.ts) but the type-check and the preview:
 * what npm installs here is, file for file and byte for byte (a declaration up to its unions' order:
 * see packed.ts), what `npm pack` packs from this checkout, which is what test/install/tarball.test.ts
 * type-checks and previews.
 *
 * Not part of `npm test`: `npm run test:routes` runs it (a second install of every devDependency and
 * a second build, about 40 CPU-seconds, for what `npm test` proves but for npm's own git handling:
 * test/install/new.test.ts checks that a fresh clone's `npm ci`, which runs the same `prepare`, packs
 * these same files).
 */
import * as path from "node:path";
import { expect, it } from "vitest";
import { sourceRepo } from "../../dev/checkout";
import { describeInstalledProgram } from "./installed";
import { expectSameAsPacked, filesUnder } from "./packed";

describeInstalledProgram(
  "the package from a git URL in a new TypeScript program",
  async (tmp) => {
    const { repo, sha } = sourceRepo(path.join(tmp, "repository"));
    return { spec: `git+file://${repo}`, gitCommit: sha };
  },
  (installed) => {
    it("npm lists only protobufjs's install script: the package was built in npm's clone, and what it installs runs nothing", () => {
      expect(installed().npmStderr).toContain("protobufjs@");
      expect(installed().npmStderr).not.toContain("pulumi-gitbook@");
    });

    it("installs, byte for byte, the files `npm pack` packs from this checkout (the tarball route's, which it type-checks and previews)", () => {
      const pkg = path.join(installed().program, "node_modules/pulumi-gitbook");
      expectSameAsPacked(pkg, filesUnder(pkg));
    });
  },
  { runsProgram: false },
);
