/**
 * The package as a user gets it: `npm pack`'s tarball installed into a new TypeScript program laid
 * out as `pulumi new typescript` writes one (its tsconfig.json unchanged: no skipLibCheck, no
 * esModuleInterop), in a folder of its own outside this checkout. The program must type-check with
 * that tsconfig (it failed with TS1259 in zod's declarations), and `pulumi preview` must run it
 * through the CLI against the emulator. Offline: the program's lock pins what npm's cache holds.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "../../dev/checkout";
import { writeFreshProgram } from "../../dev/freshProgram";
import { describeDeployments, startDeployment, steps, type Deployment } from "../support/lifecycle";

const exec = promisify(execFile);

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

describeDeployments("the packed package in a new TypeScript program", () => {
  let tmp: string;
  let program: string;
  let d: Deployment | undefined;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(ROOT, "dist/types-node10/provider/index.d.ts"))) throw new Error("dist/ is not built: run `npm run build` first (npm test does)");
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-tarball-"));
    // dist/ is built already; --ignore-scripts packs it as it is instead of building it again.
    const packed = await exec("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", tmp], { cwd: ROOT });
    const tarball = path.join(tmp, packed.stdout.trim().split("\n").pop()!);
    program = writeFreshProgram(path.join(tmp, "program"), tarball, INDEX_TS, { name: "fresh-program" }).dir;
    await exec("npm", ["install", "--offline", "--no-audit", "--no-fund"], { cwd: program, maxBuffer: 16 * 1024 * 1024 });
  }, 240_000);
  afterAll(async () => {
    await d?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("installs the package's files from the tarball, not a link to this checkout", () => {
    const installed = path.join(program, "node_modules/pulumi-gitbook");
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(fs.existsSync(path.join(installed, "dist/provider/index.js"))).toBe(true);
    expect(fs.existsSync(path.join(installed, "dist/types-node10/provider/index.d.ts"))).toBe(true);
  });

  it("type-checks with the template's tsconfig.json, unchanged", async () => {
    const tsc = path.join(program, "node_modules/typescript/bin/tsc");
    const r = await exec(process.execPath, [tsc, "-p", program, "--noEmit", "--pretty", "false"]).catch((e: { stdout: string; code: number }) => e);
    expect(r.stdout).toBe("");
  }, 120_000);

  it("previews through the CLI against the emulator, sending nothing", async () => {
    d = await startDeployment();
    const spaces = [...d.emu.store.spaces.values()];
    const r = await d.run("preview", undefined, {
      programDir: program,
      packageRoot: path.join(program, "node_modules/pulumi-gitbook"),
      config: { "fresh-program:spaceId": spaces[0]!.id, "fresh-program:v2SpaceId": spaces[1]!.id },
    });
    expect(r.error).toBeUndefined();
    expect(steps(r).sort()).toEqual(["create docs", "create guides", "create guides-v2"]);
    expect(d.emu.log.count()).toBe(0);
  }, 120_000);
});
