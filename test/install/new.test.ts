/**
 * `pulumi-gitbook new <dir>` as the README tells a new user to run it: the packed package's command
 * writes a program, npm installs it (offline: a lock pins what npm's cache holds), it type-checks with
 * the template's tsconfig.json, and the `dev` stack, with the config the command wrote (only the
 * emulator's port changed, since the test cannot take port 8080), previews, deploys, converges, shows
 * an edit made "in the app" at refresh, and destroys through the real Pulumi CLI. The CLI runs straight
 * on the program's folder, not through the lifecycle harness, so the stack file is what configures it.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import * as yaml from "js-yaml";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEV_EMULATOR, TEMPLATE_TSCONFIG } from "../../bin/new";
import { ROOT } from "../../dev/checkout";
import { writeOfflineLock } from "../../dev/freshProgram";
import { CLI_BIN, cliEnv } from "../../dev/pulumiCli";
import { Emulator } from "../../emulator";
import { describeDeployments } from "../support/lifecycle";

const exec = promisify(execFile);
type Ran = { code: number; stdout: string; stderr: string };
const run = (file: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Ran> =>
  exec(file, args, { ...opts, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" }),
  );
const BIN = path.join(ROOT, "dist/bin/pulumi-gitbook.js");
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));
const stackConfig = (dir: string, stack: string) => (yaml.load(fs.readFileSync(path.join(dir, `Pulumi.${stack}.yaml`), "utf8")) as { config: Record<string, unknown> }).config;

describeDeployments("pulumi-gitbook new", () => {
  let tmp: string;
  let tarball: string;
  let program: string;
  let written: Ran;
  let emu: Emulator | undefined;

  beforeAll(async () => {
    if (!fs.existsSync(BIN)) throw new Error("dist/ is not built: run `npm run build` first (npm test does)");
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-new-"));
    const packed = await exec("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", tmp], { cwd: ROOT });
    tarball = path.join(tmp, packed.stdout.trim().split("\n").pop()!);
    program = path.join(tmp, "docs");
    written = await run(process.execPath, [BIN, "new", program, "--package", tarball], { cwd: ROOT });
    if (written.code !== 0) throw new Error(`pulumi-gitbook new failed: ${written.stderr}`);
    writeOfflineLock(program, readJson(path.join(program, "package.json")));
    await exec("npm", ["install", "--offline", "--no-audit", "--no-fund"], { cwd: program, maxBuffer: 16 * 1024 * 1024 });
  }, 240_000);
  afterAll(async () => {
    await emu?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("is listed by --help and writes a TypeScript program laid out as `pulumi new typescript` does", async () => {
    expect((await run(process.execPath, [BIN, "--help"], { cwd: ROOT })).stdout).toMatch(/^ {2}new +write a TypeScript Pulumi program/m);
    expect(fs.readdirSync(program).filter((f) => f !== "node_modules" && f !== "package-lock.json").sort()).toEqual(
      [".gitignore", "Pulumi.dev.yaml", "Pulumi.prod.yaml", "Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"].sort(),
    );
    expect(yaml.load(fs.readFileSync(path.join(program, "Pulumi.yaml"), "utf8"))).toMatchObject({ name: "docs", runtime: { name: "nodejs" } });
    expect(readJson(path.join(program, "tsconfig.json"))).toEqual(TEMPLATE_TSCONFIG);
    const pkg = readJson(path.join(program, "package.json"));
    expect(pkg.main).toBe("index.ts");
    expect(pkg.dependencies["pulumi-gitbook"]).toBe(`file:../${path.basename(tarball)}`);
    expect(written.stdout).toContain(`pulumi-gitbook: file:../${path.basename(tarball)} (from --package)`);
  });

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

  it("names the tarball the running copy was installed from, or the checkout it runs from, and refuses a folder that is not empty", async () => {
    const installed = path.join(program, "node_modules/pulumi-gitbook/dist/bin/pulumi-gitbook.js");
    const second = path.join(tmp, "second");
    const r = await run(process.execPath, [installed, "new", second], { cwd: program });
    expect(r.stderr).toBe("");
    expect(readJson(path.join(second, "package.json")).dependencies["pulumi-gitbook"]).toBe(`file:../${path.basename(tarball)}`);

    // Run from this checkout, it names the checkout (npm links it, as README's install option 2).
    const third = path.join(tmp, "third");
    const fromCheckout = await run(process.execPath, [BIN, "new", third, "--name", "acme-docs"], { cwd: ROOT });
    expect(fromCheckout.stderr).toBe("");
    expect(readJson(path.join(third, "package.json"))).toMatchObject({ name: "acme-docs", dependencies: { "pulumi-gitbook": `file:${path.relative(third, fs.realpathSync(ROOT))}` } });

    const refused = await run(process.execPath, [installed, "new", program], { cwd: program });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${program} is not empty`);
    expect(refused.stderr).toContain("nothing was written");
  }, 60_000);

  it("type-checks with the template's tsconfig.json", async () => {
    const r = await run(process.execPath, [path.join(program, "node_modules/typescript/bin/tsc"), "-p", program, "--noEmit", "--pretty", "false"], { cwd: program });
    expect(r.stdout).toBe("");
    expect(r.code).toBe(0);
  }, 120_000);

  it("the dev stack previews, deploys, converges, shows an app edit at refresh and destroys, through the CLI", async () => {
    // The emulator as Pulumi.dev.yaml says to start it, on a free port instead of 8080.
    emu = await Emulator.start({ token: DEV_EMULATOR.token, seed: DEV_EMULATOR.seed });
    const backend = path.join(tmp, "backend");
    fs.mkdirSync(backend);
    const env = cliEnv(path.join(tmp, "pulumi-home"), backend);
    const pulumi = (...args: string[]) => run(path.join(CLI_BIN, "pulumi"), [...args, "--non-interactive", "--color", "never"], { cwd: program, env });
    const must = async (...args: string[]) => {
      const r = await pulumi(...args);
      if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
      return r;
    };

    await must("stack", "init", "dev");
    // `stack init` kept the written settings; the organization is the one the seeded emulator has.
    expect(stackConfig(program, "dev")["gitbook:organizationId"]).toBe(emu.seeded.organizationId);
    await must("config", "set", "gitbook:apiUrl", emu.url);

    const preview = await must("preview");
    expect(preview.stdout).toMatch(/\+ 4 to create/);
    expect(emu.log.count()).toBe(0);

    const seededSpaces = emu.store.spaces.size;
    await must("up", "--yes");
    expect([...emu.store.sites.values()].map((s) => s.title)).toEqual(["Docs (dev)"]);
    expect(emu.store.spaces.size).toBe(seededSpaces + 1);
    const outputs = JSON.parse((await must("stack", "output", "--json")).stdout);
    expect(outputs.siteId).toBe([...emu.store.sites.keys()][0]);

    await must("preview", "--expect-no-changes");

    // An edit made in the app: refresh reads it and shows the change.
    [...emu.store.sites.values()][0]!.title = "Edited in the app";
    const refreshed = await must("refresh", "--yes", "--diff");
    expect(refreshed.stdout).toContain("Edited in the app");
    await must("up", "--yes");
    expect([...emu.store.sites.values()].map((s) => s.title)).toEqual(["Docs (dev)"]);

    await must("destroy", "--yes");
    expect(emu.store.sites.size).toBe(0);
  }, 300_000);
});
