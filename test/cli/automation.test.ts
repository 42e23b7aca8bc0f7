/**
 * The main example through the real Pulumi CLI (Automation API, local file backend), when the CLI is
 * installed. These machines have no CLI and cannot install it, so here the suite skips and says why;
 * the lifecycle harness (test/lifecycle) proves the same path through the SDK's provider host.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Emulator } from "../emulator/emulator";
import { linkPackage } from "../harness/project";
import { exampleConfig } from "../support/example";
import { ROOT } from "../support/lifecycle";

const hasCli = spawnSync("pulumi", ["version"], { encoding: "utf8" }).status === 0;
if (!hasCli) {
  console.warn("test/cli/automation.test.ts skipped: the Pulumi CLI is not on PATH (its installer needs the internet, which this machine lacks).");
}

describe.skipIf(!hasCli)("the main example with the Pulumi CLI", () => {
  let emu: Emulator;
  let stack: import("@pulumi/pulumi/automation").Stack;
  beforeAll(async () => {
    const auto = await import("@pulumi/pulumi/automation");
    emu = await Emulator.start();
    linkPackage(ROOT, ROOT);
    const backend = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-cli-"));
    stack = await auto.LocalWorkspace.createOrSelectStack(
      { stackName: "dev", workDir: ROOT },
      { envVars: { PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "test" } },
    );
    for (const [key, value] of Object.entries(exampleConfig(emu))) await stack.setConfig(key, { value, secret: key === "gitbook:token" });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emu?.close();
  });

  it("previews without requests, converges, re-runs as a no-op, refreshes and destroys", async () => {
    await stack.preview();
    expect(emu.log.count()).toBe(0);
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    emu.log.reset();
    const again = await stack.up();
    expect(Object.keys(again.summary.resourceChanges ?? {})).toEqual(["same"]);
    expect(emu.log.writes()).toBe(0);
    await stack.refresh();
    const exported = JSON.stringify(await stack.exportStack());
    expect(exported).not.toContain(emu.token);
    await stack.destroy();
    expect(emu.store.sites.size).toBe(0);
  });
});
