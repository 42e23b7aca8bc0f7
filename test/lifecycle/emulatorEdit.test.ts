/**
 * The README's "Trying it locally against the emulator", as a user does it: the emulator started
 * from the shipped example seed file, a program that uses the seeded spaces deployed through the
 * CLI, an edit "in the app" with `pulumi-gitbook emulator edit`, `pulumi refresh` showing the drift,
 * the next `up` restoring the declared value, and then nothing to do.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "dist/bin/pulumi-gitbook.js");
const SEED = path.join(ROOT, "examples/emulator/seed.json");
const ref = (s: string) => ({ $ref: s });

const program = (d: Deployment): Decl[] => [
  { kind: "Site", name: "site", args: { title: "Tried locally", visibility: "public" } },
  { kind: "SiteSection", name: "guides", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.ids.guides, title: "Guides", path: "guides" } },
];

/**
 * `pulumi-gitbook emulator ...` in its own process, pointed at the deployment's emulator as the banner
 * says. Asynchronous: the emulator answers from this process, so waiting synchronously would starve it.
 */
function emulatorCommand(d: Deployment, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, "emulator", ...args], { env: { ...process.env, GITBOOK_API_URL: d.emu.url, GITBOOK_TOKEN: d.emu.token } }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

describeDeployments("edit in the app against the emulator (README)", () => {
  let d: Deployment;
  beforeAll(async () => {
    if (!fs.existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (npm test does)`);
    d = await startDeployment({ seedFile: SEED });
  });
  afterAll(async () => d?.close());

  it("emulator edit changes a deployed object; refresh shows the drift; up converges; then nothing to do", async () => {
    expect((await d.run("up", program(d))).error).toBeUndefined();
    const siteId = d.resource("site").id!;
    const sectionId = d.resource("guides").id!;

    const edit = await emulatorCommand(d, "edit", "site", siteId, "title=Renamed in the app");
    expect(edit.status, edit.stderr).toBe(0);
    expect((await emulatorCommand(d, "edit", "section", sectionId, "path=moved")).status).toBe(0);

    const refresh = await d.run("refresh", undefined, { flags: ["--diff"] });
    expect(refresh.error).toBeUndefined();
    expect(refresh.stdout).toMatch(/~ title\s*:\s*"Tried locally" => "Renamed in the app"/);
    expect(refresh.stdout).toMatch(/~ path\s*:\s*"guides" => "moved"/);
    expect(d.resource("site").outputs.title).toBe("Renamed in the app");
    expect(d.resource("guides").outputs.path).toBe("moved");

    d.emu.log.reset();
    expect((await d.run("up")).error).toBeUndefined();
    expect(d.emu.store.sites.get(siteId)!.title).toBe("Tried locally");
    expect(d.emu.store.sections.get(sectionId)!.path).toBe("guides");
    expect(d.emu.log.count({ method: "PATCH" })).toBe(2);
    expect((await d.run("preview", undefined, { flags: ["--expect-no-changes"] })).error).toBeUndefined();
  });

  it("emulator delete removes it as the app would; refresh drops it; up makes it again", async () => {
    const sectionId = d.resource("guides").id!;
    expect((await emulatorCommand(d, "delete", "section", sectionId)).status).toBe(0);
    expect((await d.run("refresh")).error).toBeUndefined();
    expect(d.state().resources.some((r) => r.name === "guides")).toBe(false);
    expect((await d.run("up")).error).toBeUndefined();
    const again = d.resource("guides").id!;
    expect(again).not.toBe(sectionId);
    expect(d.emu.store.sections.get(again)).toMatchObject({ path: "guides", spaceId: d.emu.seeded.ids.guides });
    expect((await d.run("preview", undefined, { flags: ["--expect-no-changes"] })).error).toBeUndefined();
  });
});
