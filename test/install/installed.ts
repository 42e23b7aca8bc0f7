/**
 * What every way of installing the package must give a new user's TypeScript program (a folder of
 * its own outside this checkout, laid out as `pulumi new typescript` writes one, its tsconfig.json
 * unchanged: no skipLibCheck, no esModuleInterop): the package's files in node_modules, a program
 * that type-checks with that tsconfig (it failed with TS1259 in zod's declarations), loads the
 * package, and previews through the CLI against the emulator without a token or a request. Offline: the
 * program's lock pins what npm's cache holds. Each test file gives the install (tarball, git URL).
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { writeFreshProgram } from "../../dev/freshProgram";
import { describeDeployments, startDeployment, steps, type Deployment } from "../support/lifecycle";

export const exec = promisify(execFile);

/**
 * Removes a test's folder after the file is done, without the file waiting for it: the folder holds
 * a program's node_modules (and new.test.ts's a clone's, with its own), tens of thousands of files,
 * whose deletion took 20-30 s of the file's wall time at load (disk work, little CPU). A detached
 * `rm -rf` outlives the test worker; where there is no `rm`, the folder is removed in place.
 */
export function removeLater(dir: string): void {
  try {
    spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" }).on("error", () => fs.rmSync(dir, { recursive: true, force: true })).unref();
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// index.ts as a user writes it; the type-only imports check the subpath exports' declarations too.
const INDEX_TS = `import * as pulumi from "@pulumi/pulumi";
import * as gitbook from "pulumi-gitbook";
import type { Emulator } from "pulumi-gitbook/emulator";
import type { GitbookClient } from "pulumi-gitbook/client";

const config = new pulumi.Config();
const args: gitbook.SiteArgs = { title: "Acme Docs", visibility: "unlisted" };
const site = new gitbook.Site("docs", args);
const guides = new gitbook.SiteSection("guides", { siteId: site.id, spaceId: config.require("spaceId"), title: "Guides" });
new gitbook.SiteSpace("guides-v2", { siteId: site.id, sectionId: guides.id, spaceId: config.require("v2SpaceId"), path: "v2" });

export const siteId: pulumi.Output<string> = site.id;
export type Tools = [Emulator, GitbookClient];
`;

export interface Installed {
  tmp: string;
  program: string;
  /** What `npm install` printed on stderr. */
  npmStderr: string;
}

/**
 * The suite, for a program whose package.json names the package by what `source(tmp)` returns (an
 * absolute tarball path, or a git URL and the commit to lock it at); `more` adds tests of its own.
 * `runsProgram: false` leaves out the type-check and the preview, for a route that proves instead
 * that it installs, byte for byte, the files of a route that runs them (issue 23: a tsc and an
 * engine run each cost seconds of CPU).
 */
export function describeInstalledProgram(
  title: string,
  source: (tmp: string) => Promise<{ spec: string; gitCommit?: string }>,
  more?: (installed: () => Installed) => void,
  { runsProgram = true }: { runsProgram?: boolean } = {},
): void {
  describeDeployments(title, () => {
    let installed: Installed;
    let d: Deployment | undefined;

    beforeAll(async () => {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-install-"));
      const { spec, gitCommit } = await source(tmp);
      const program = writeFreshProgram(path.join(tmp, "program"), spec, INDEX_TS, { name: "fresh-program", gitCommit }).dir;
      const r = await exec("npm", ["install", "--offline", "--no-audit", "--no-fund"], { cwd: program, maxBuffer: 16 * 1024 * 1024 });
      installed = { tmp, program, npmStderr: r.stderr };
    }, 420_000);
    afterAll(async () => {
      await d?.close();
      if (installed?.tmp) removeLater(installed.tmp);
    });

    it("installs the package's files, not a link to a checkout", () => {
      const pkg = path.join(installed.program, "node_modules/pulumi-gitbook");
      expect(fs.lstatSync(pkg).isSymbolicLink()).toBe(false);
      expect(fs.existsSync(path.join(pkg, "dist/provider/index.js"))).toBe(true);
      expect(fs.existsSync(path.join(pkg, "dist/types-node10/provider/index.d.ts"))).toBe(true);
    });

    it.runIf(runsProgram)("type-checks with the template's tsconfig.json, unchanged", async () => {
      const tsc = path.join(installed.program, "node_modules/typescript/bin/tsc");
      const r = await exec(process.execPath, [tsc, "-p", installed.program, "--noEmit", "--pretty", "false"]).catch((e: { stdout: string; code: number }) => e);
      expect(r.stdout).toBe("");
    }, 120_000);

    it("loads with require(), as the program runs it", async () => {
      const r = await exec(process.execPath, ["-e", 'const g = require("pulumi-gitbook"); console.log(typeof g.Site, typeof g.DocsSite, require.resolve("pulumi-gitbook"))'], { cwd: installed.program });
      expect(r.stdout.trim()).toBe(`function function ${fs.realpathSync(installed.program)}/node_modules/pulumi-gitbook/dist/provider/index.js`);
    });

    // Without a token, as a new user's first preview may be (an empty gitbook:token is one not set): it
    // passes and says once, for the run, what will fail and how to set it (once a preview of
    // test/lifecycle/errors.test.ts's, issue 40). A preview with a token asks only whether it sees the
    // organization: test/cli/cli.test.ts's `preview --diff`.
    it.runIf(runsProgram)("previews through the CLI against the emulator without a token, sending nothing, and says once what will fail and how to set it", async () => {
      d = await startDeployment();
      const spaces = [...d.emu.store.spaces.values()];
      const r = await d.run("preview", undefined, {
        programDir: installed.program,
        packageRoot: path.join(installed.program, "node_modules/pulumi-gitbook"),
        config: { "gitbook:token": "", "fresh-program:spaceId": spaces[0]!.id, "fresh-program:v2SpaceId": spaces[1]!.id },
      });
      expect(r.error).toBeUndefined();
      expect(steps(r).sort()).toEqual(["create docs", "create guides", "create guides-v2"]);
      expect(d.emu.log.count()).toBe(0);
      // The engine's own events (its display prints each diagnostic twice, as it happens and in the summary).
      const warned = (r as typeof r & { diagnostics: string[] }).diagnostics.filter((l) => l.includes("no GitBook API token"));
      expect(warned).toHaveLength(1);
      expect(warned[0]).toContain("gitbook:token is not set, nor GITBOOK_TOKEN");
      expect(warned[0]).toContain("`pulumi up`, `pulumi refresh` and `npx pulumi-gitbook import` will fail");
      expect(warned[0]).toContain("pulumi config set --secret gitbook:token <token>");
    }, 120_000);

    more?.(() => installed);
  });
}
