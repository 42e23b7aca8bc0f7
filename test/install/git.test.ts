/**
 * The package from a git URL (README install option 3): `npm install git+file://<repository>`, where
 * the repository is one commit of this working tree (the code under test, uncommitted edits
 * included). npm clones it, installs the clone's own dependencies and runs its `prepare` (the
 * build) there, packs it and installs the pack; offline, with npm's cache as `npm ci` filled it.
 * Then the checks every install gets (test/install/installed.ts).
 */
import * as path from "node:path";
import { expect, it } from "vitest";
import { sourceRepo } from "../../dev/checkout";
import { describeInstalledProgram } from "./installed";

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
  },
);
