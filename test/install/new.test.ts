/**
 * The README's path from a fresh checkout, step by step, through the real Pulumi CLI: a `git clone`
 * of this repository (the working tree under test, uncommitted edits included; no node_modules, no
 * dist/), `npm ci` in it (its `prepare` builds dist/), `npx pulumi-gitbook new ../docs` run there,
 * `npm install` in the new program (which links the checkout; offline: a lock pins what npm's cache
 * holds), `tsc` with the template's tsconfig.json, and the `dev` stack, with the config the command
 * wrote (only the emulator's port changed, since the test cannot take port 8080): up, and an edit
 * made "in the app" that a refresh of its checkpoint reads (in this process: the CLI's refresh
 * rendering drift is test/lifecycle/everyKind.test.ts's). The CLI runs straight on the
 * program's folder, not through the lifecycle harness, so the stack file is what configures it.
 * The clone's build is also compared, file for file, with what `npm pack` packs from this checkout:
 * a git URL's install is that clone, that `prepare` and that pack (README install option 3; npm's own
 * git handling is test/install/git.test.ts, in `npm run test:routes`), and the pack is what
 * test/install/tarball.test.ts type-checks and previews.
 *
 * What the lifecycle leaves out, the other suites prove of the same kinds through the CLI (issue 23:
 * engine runs are the suite's cost): convergence after up (test/lifecycle/everyKind.test.ts (its convergence)), up
 * restoring an app edit (everyKind.test.ts's drift; every row in process: test/unit/appEdits.test.ts) and destroy (everyKind.test.ts). What only this route
 * shows is that the program `new` writes, run from the linked checkout with the stack file it wrote,
 * deploys, and that its checkpoint reads back what the app changed.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import * as yaml from "js-yaml";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEV_EMULATOR, TEMPLATE_TSCONFIG } from "../../bin/new";
import { cloneInto, ROOT, sourceRepo } from "../../dev/checkout";
import { writeOfflineLock } from "../../dev/freshProgram";
import { CLI_BIN, cliEnv, countPulumi } from "../../dev/pulumiCli";
import { Emulator } from "../../emulator";
import { describeDeployments } from "../support/lifecycle";
import { removeLater } from "./installed";
import { differencesFromGitBook } from "../support/stateIsGitBook";
import { expectSameAsPacked, packList } from "./packed";

const exec = promisify(execFile);
type Ran = { code: number; stdout: string; stderr: string };
const run = (file: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Ran> =>
  exec(file, args, { ...opts, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" }),
  );
// The README's npm commands as written; offline, since npm's cache (filled by this checkout's
// `npm ci`) holds every package they need.
const NPM_ENV = { ...process.env, npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };
const npm = async (cwd: string, ...args: string[]): Promise<Ran> => {
  const r = await run("npm", args, { cwd, env: NPM_ENV });
  if (r.code !== 0) throw new Error(`npm ${args.join(" ")} in ${cwd} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r;
};
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));
const stackConfig = (dir: string, stack: string) => (yaml.load(fs.readFileSync(path.join(dir, `Pulumi.${stack}.yaml`), "utf8")) as { config: Record<string, unknown> }).config;

/** The lines the install guide says npm 11 prints after installing the package (its "What npm 11 prints" block). */
function readmeInstallWarning(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, "docs/install.md"), "utf8");
  const block = /\*\*What npm 11 prints\.\*\*[\s\S]*?\n```\n([\s\S]*?)\n```/.exec(readme);
  if (!block) throw new Error("docs/install.md has no \"What npm 11 prints\" block");
  return block[1]!.split("\n");
}

describeDeployments("a fresh checkout, as the README says: npm ci, npx pulumi-gitbook new, npm install", () => {
  let tmp: string;
  let checkout: string;
  let fresh: string[];
  let program: string;
  let written: Ran;
  let installed: Ran;
  let emu: Emulator | undefined;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-new-"));
    checkout = cloneInto(sourceRepo(path.join(tmp, "source")).repo, path.join(tmp, "pulumi-gitbook"));
    fresh = fs.readdirSync(checkout);
    await npm(checkout, "ci");
    program = path.join(tmp, "docs");
    written = await run("npx", ["pulumi-gitbook", "new", "../docs"], { cwd: checkout, env: NPM_ENV });
    if (written.code !== 0) throw new Error(`npx pulumi-gitbook new failed: ${written.stderr}`);
    writeOfflineLock(program, readJson(path.join(program, "package.json")));
    installed = await npm(program, "install");
  }, 480_000);
  afterAll(async () => {
    await emu?.close();
    if (tmp) removeLater(tmp);
  });

  it("starts from a clone with neither dependencies nor a build, and `npm ci` builds it", () => {
    expect(fresh).toContain("package.json");
    expect(fresh).not.toContain("node_modules");
    expect(fresh).not.toContain("dist");
    expect(fs.existsSync(path.join(checkout, "dist/bin/pulumi-gitbook.js"))).toBe(true);
  });

  it("builds, byte for byte, the files `npm pack` packs from this checkout: what a git URL installs, and what the tarball route type-checks", () => {
    expectSameAsPacked(checkout, packList(checkout));
  });

  it("is listed by --help and writes a TypeScript program laid out as `pulumi new typescript` does", async () => {
    expect((await run("npx", ["pulumi-gitbook", "--help"], { cwd: checkout, env: NPM_ENV })).stdout).toMatch(/^ {2}new +write a TypeScript Pulumi program/m);
    expect(fs.readdirSync(program).filter((f) => f !== "node_modules" && f !== "package-lock.json").sort()).toEqual(
      [".gitignore", "Pulumi.dev.yaml", "Pulumi.prod.yaml", "Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"].sort(),
    );
    expect(yaml.load(fs.readFileSync(path.join(program, "Pulumi.yaml"), "utf8"))).toMatchObject({ name: "docs", runtime: { name: "nodejs" } });
    expect(readJson(path.join(program, "tsconfig.json"))).toEqual(TEMPLATE_TSCONFIG);
    const pkg = readJson(path.join(program, "package.json"));
    expect(pkg.main).toBe("index.ts");
    expect(pkg.dependencies["pulumi-gitbook"]).toBe("file:../pulumi-gitbook");
    expect(written.stdout).toContain(`pulumi-gitbook: file:../pulumi-gitbook (from the checkout ${fs.realpathSync(checkout)})`);
  }, 60_000);

  it("dev and prod differ by config only: dev is the emulator, prod api.gitbook.com", () => {
    const dev = stackConfig(program, "dev");
    const prod = stackConfig(program, "prod");
    expect(dev["gitbook:apiUrl"]).toBe(`http://127.0.0.1:${DEV_EMULATOR.port}`);
    expect(prod["gitbook:apiUrl"]).toBe("https://api.gitbook.com");
    // No token in prod's file: it is set as a secret, as the file's comment says.
    expect(prod["gitbook:token"]).toBeUndefined();
    expect(fs.readFileSync(path.join(program, "Pulumi.prod.yaml"), "utf8")).toContain("pulumi config set --secret gitbook:token");
    expect(Object.keys(prod).filter((k) => !k.startsWith("gitbook:"))).toEqual(["docs:title"]);
  });

  it("npm links the checkout, and prints the install-scripts lines the README shows", () => {
    const linked = path.join(program, "node_modules/pulumi-gitbook");
    expect(fs.lstatSync(linked).isSymbolicLink()).toBe(true);
    expect(fs.realpathSync(linked)).toBe(fs.realpathSync(checkout));
    // In the README's order; npm may print other lines around them (a machine's own npm settings).
    const lines = installed.stderr.split("\n");
    let at = -1;
    for (const line of readmeInstallWarning()) {
      const found = lines.indexOf(line, at + 1);
      expect(found, `npm install's stderr lacks the README's line ${JSON.stringify(line)}:\n${installed.stderr}`).toBeGreaterThan(at);
      at = found;
    }
  });

  it("run from the program's copy, names the checkout it links, and refuses a folder that is not empty", async () => {
    const bin = path.join(program, "node_modules/pulumi-gitbook/dist/bin/pulumi-gitbook.js");
    const second = path.join(tmp, "second");
    const r = await run(process.execPath, [bin, "new", second, "--name", "acme-docs"], { cwd: program });
    expect(r.stderr).toBe("");
    expect(readJson(path.join(second, "package.json"))).toMatchObject({ name: "acme-docs", dependencies: { "pulumi-gitbook": "file:../pulumi-gitbook" } });

    const refused = await run(process.execPath, [bin, "new", program], { cwd: program });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${program} is not empty`);
    expect(refused.stderr).toContain("nothing was written");
  }, 60_000);

  it("type-checks with the template's tsconfig.json", async () => {
    const r = await run(process.execPath, [path.join(program, "node_modules/typescript/bin/tsc"), "-p", program, "--noEmit", "--pretty", "false"], { cwd: program });
    expect(r.stdout).toBe("");
    expect(r.code).toBe(0);
  }, 120_000);

  it("the dev stack deploys through the CLI, and a refresh of its checkpoint shows an app edit", async () => {
    // The emulator as Pulumi.dev.yaml says to start it, on a free port instead of 8080.
    emu = await Emulator.start({ token: DEV_EMULATOR.token, seed: DEV_EMULATOR.seed });
    const backend = path.join(tmp, "backend");
    fs.mkdirSync(backend);
    const env = cliEnv(path.join(tmp, "pulumi-home"), backend);
    const pulumi = (...args: string[]) => {
      countPulumi(args);
      return run(path.join(CLI_BIN, "pulumi"), [...args, "--non-interactive", "--color", "never"], { cwd: program, env });
    };
    const must = async (...args: string[]) => {
      const r = await pulumi(...args);
      if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
      return r;
    };

    await must("stack", "init", "dev");
    // `stack init` kept the written settings; the organization is the one the seeded emulator has.
    expect(stackConfig(program, "dev")["gitbook:organizationId"]).toBe(emu.seeded.organizationId);
    await must("config", "set", "gitbook:apiUrl", emu.url);

    // No `preview` of its own: the up prints the same plan (a preview sending nothing but the question
    // whether the token sees the organization is test/cli/cli.test.ts's `preview --diff`).
    const seededSpaces = emu.store.spaces.size;
    const up = await must("up", "--yes");
    expect(up.stdout).toMatch(/\+ 4 created/);
    expect([...emu.store.sites.values()].map((s) => s.title)).toEqual(["Docs (dev)"]);
    expect(emu.store.spaces.size).toBe(seededSpaces + 1);
    const outputs = JSON.parse((await must("stack", "output", "--json")).stdout);
    expect(outputs.siteId).toBe([...emu.store.sites.keys()][0]);

    // An edit made in the app: what a refresh reads of this stack's checkpoint, in this process (the
    // provider the checkout built, each kind's read); the CLI's refresh rendering drift is everyKind's.
    const exported = JSON.parse((await must("stack", "export")).stdout) as { deployment: { resources: Array<Record<string, any>> } };
    const recorded = exported.deployment.resources
      .filter((r) => r.custom && !String(r.type).startsWith("pulumi:providers:"))
      .map((r) => ({ name: String(r.urn).split("::").pop()!, urn: r.urn, type: r.type, id: r.id, outputs: r.outputs ?? {}, inputs: r.inputs ?? {} }));
    expect(await differencesFromGitBook(emu, recorded, { asRefresh: true })).toEqual([]);
    const site = [...emu.store.sites.values()][0]!;
    site.title = "Edited in the app";
    const drift = await differencesFromGitBook(emu, recorded, { asRefresh: true });
    expect(drift.filter((l) => l.includes("Edited in the app"))).toEqual([expect.stringMatching(/\.title: state "Docs \(dev\)", GitBook "Edited in the app"$/), expect.stringMatching(/\.inputs\.title: .*"Edited in the app"/)]);
  }, 300_000);
});
