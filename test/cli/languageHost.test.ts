/**
 * The CLI's Node.js language host (tools/pulumi-cli/language-host) gives a program what Pulumi's own
 * host gives it: the runtime options of Pulumi.yaml (`nodeargs`, `typescript`, `tsconfig`), the
 * TypeScript variables the SDK's run entry reads, the `--sync` invoke pipes, and Pulumi's message for
 * a mistyped option. Each program reports what it was given as stack outputs.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../dev/checkout";
import { CLI_BIN, cliMissing, createCliStack, testEngine } from "../../dev/pulumiCli";

const REPORT = `
const fs = require("fs");
const sync = process.env.PULUMI_NODEJS_SYNC;
module.exports = {
  execArgv: process.execArgv.join(" "),
  typescript: process.env.PULUMI_NODEJS_TYPESCRIPT ?? "unset",
  tsconfig: process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? "unset",
  syncPipes: !!sync && ["invoke_req", "invoke_res"].every((f) => fs.existsSync(require("path").join(sync, f)) && fs.statSync(require("path").join(sync, f)).isFIFO()),
};
`;

/** A project folder under `root` with the SDK linked in, as `npm install` would leave it. */
function program(root: string, name: string, options: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, "node_modules/@pulumi"), { recursive: true });
  fs.symlinkSync(path.join(ROOT, "node_modules/@pulumi/pulumi"), path.join(dir, "node_modules/@pulumi/pulumi"), "dir");
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime:\n  name: nodejs\n  options:\n${options}`);
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  return dir;
}

describe.skipIf(testEngine() !== "cli")("the CLI's Node.js language host", () => {
  let root: string;
  beforeAll(() => {
    if (cliMissing()) throw new Error(cliMissing());
    root = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-langhost-"));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const up = async (dir: string) => {
    const cli = `${dir}-cli`;
    fs.mkdirSync(cli);
    const stack = await createCliStack(cli, dir, "dev", { packageRoot: ROOT });
    return stack.run("up", {});
  };

  it("passes nodeargs to node, the --sync pipes to the program, and no TypeScript when typescript is false", async () => {
    const dir = program(root, "js-options", "    typescript: false\n    nodeargs: --max-old-space-size=300 --stack-size=2000\n", {
      "package.json": JSON.stringify({ name: "js-options", main: "index.js" }),
      "index.js": REPORT,
    });
    const r = await up(dir);
    expect(r.error).toBeUndefined();
    expect(r.outputs).toMatchObject({ typescript: "unset", tsconfig: "unset", syncPipes: true });
    expect(String(r.outputs?.execArgv)).toBe("--max-old-space-size=300 --stack-size=2000");
  });

  it("runs index.ts through the SDK's ts-node with the tsconfig the options name", async () => {
    const dir = program(root, "ts-options", "    tsconfig: tsconfig.pulumi.json\n", {
      "package.json": JSON.stringify({ name: "ts-options", main: "index.ts" }),
      "tsconfig.pulumi.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2020", module: "commonjs", moduleResolution: "node" } }),
      // Type annotations: plain node stops at the first with a SyntaxError.
      "index.ts": `declare const require: (id: string) => Record<string, unknown>;\nconst report: Record<string, unknown> = require("./report");\nexport const typescript: string = String(report.typescript);\nexport const tsconfig: string = String(report.tsconfig);\n`,
      "report.js": REPORT,
    });
    const r = await up(dir);
    expect(r.error).toBeUndefined();
    expect(r.outputs).toMatchObject({ typescript: "true", tsconfig: "tsconfig.pulumi.json" });
  });

  it("rejects a mistyped option with Pulumi's message, before the program runs", async () => {
    const dir = program(root, "bad-option", "    typescript: \"yes\"\n", {
      "package.json": JSON.stringify({ name: "bad-option", main: "index.js" }),
      "index.js": `throw new Error("the program ran");\n`,
    });
    const r = await up(dir);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain("typescript option must be a boolean");
    expect(r.stdout).not.toContain("the program ran");
  });
  // Pulumi starts the host in a process group of its own, so nothing aimed at `pulumi` reaches it: a
  // `pulumi` killed (a stopped test run) left it running with no parent. A stand-in parent starts it
  // as the engine does and is killed; the host shares the pipe this test reads, which ends only once
  // the host has exited (a host left running keeps it open, and the test fails on its time limit).
  it("exits when the process that started it is killed", async () => {
    const host = path.join(CLI_BIN, "pulumi-language-nodejs");
    const script = `
      const host = require("node:child_process").spawn(${JSON.stringify(host)}, [], { stdio: ["ignore", "inherit", "inherit"] });
      host.once("spawn", () => process.stdout.write("host " + host.pid + "\\n"));
      setInterval(() => {}, 1 << 30);
    `;
    const parent = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const ended = new Promise<void>((resolve) => parent.stdout.on("end", resolve));
    // The host prints the port it serves on once it is up; a host that fails to start fails here, not on the time limit.
    await new Promise<void>((resolve, reject) => {
      parent.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (/^\d+$/m.test(out)) resolve();
      });
      void ended.then(() => reject(new Error(`the language host printed no port: ${JSON.stringify(out)}`)));
    });
    parent.kill("SIGKILL");
    await ended;
    expect(out).toMatch(/^host \d+$/m);
  });
});
