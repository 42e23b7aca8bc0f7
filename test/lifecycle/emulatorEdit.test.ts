/**
 * The README's "Trying it locally against the emulator", as a user does it: the emulator started
 * from the shipped example seed file, a program that uses the seeded spaces deployed through the
 * CLI, an edit "in the app" with `pulumi-gitbook emulator edit` and a delete with `pulumi-gitbook
 * emulator delete` (of another section, so that one refresh and one `up` serve both), `pulumi refresh`
 * showing the drift and dropping the deleted section, the next `up` restoring the declared values and
 * making the section again, and then nothing to do. Four engine runs.
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
  { kind: "SiteSection", name: "reference", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.ids.api, title: "API reference", path: "api" } },
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
  let ids: { site: string; section: string; deleted: string };
  beforeAll(async () => {
    if (!fs.existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (npm test does)`);
    d = await startDeployment({ seedFile: SEED });
  });
  afterAll(async () => d?.close());

  it("emulator edit changes a deployed object, emulator delete removes another as the app would; refresh shows the drift and drops the deleted one", async () => {
    expect((await d.run("up", program(d))).error).toBeUndefined();
    ids = { site: d.resource("site").id!, section: d.resource("guides").id!, deleted: d.resource("reference").id! };

    const edit = await emulatorCommand(d, "edit", "site", ids.site, "title=Renamed in the app");
    expect(edit.status, edit.stderr).toBe(0);
    expect((await emulatorCommand(d, "edit", "section", ids.section, "path=moved")).status).toBe(0);
    expect((await emulatorCommand(d, "delete", "section", ids.deleted)).status).toBe(0);

    const refresh = await d.run("refresh", undefined, { flags: ["--diff"] });
    expect(refresh.error).toBeUndefined();
    expect(refresh.stdout).toMatch(/~ title\s*:\s*"Tried locally" => "Renamed in the app"/);
    expect(refresh.stdout).toMatch(/~ path\s*:\s*"guides" => "moved"/);
    expect(d.resource("site").outputs.title).toBe("Renamed in the app");
    expect(d.resource("guides").outputs.path).toBe("moved");
    expect(d.state().resources.some((r) => r.name === "reference")).toBe(false);
  });

  it("up puts back the declared values and makes the deleted section again; then nothing to do", async () => {
    d.emu.log.reset();
    expect((await d.run("up")).error).toBeUndefined();
    expect(d.emu.store.sites.get(ids.site)!.title).toBe("Tried locally");
    expect(d.emu.store.sections.get(ids.section)!.path).toBe("guides");
    const again = d.resource("reference").id!;
    // One PATCH for each edit (the section made again has its own requests).
    expect(d.emu.log.entries.filter((e) => e.method === "PATCH" && !e.path.split("/").includes(again)).map((e) => e.route).sort()).toEqual([
      "/v1/orgs/:org/sites/:site",
      "/v1/orgs/:org/sites/:site/sections/:section",
    ]);
    expect(again).not.toBe(ids.deleted);
    expect(d.emu.store.sections.get(again)).toMatchObject({ path: "api", spaceId: d.emu.seeded.ids.api });
    expect((await d.run("preview", undefined, { flags: ["--expect-no-changes"] })).error).toBeUndefined();
  });
});
