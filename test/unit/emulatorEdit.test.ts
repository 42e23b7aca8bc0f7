/**
 * The README's "Trying it locally against the emulator", the provider's part in process: the emulator
 * started from the shipped example seed file, a program that uses the seeded spaces, an edit "in the
 * app" with `pulumi-gitbook emulator edit` and a delete with `pulumi-gitbook emulator delete` (the
 * commands in their own process, as a user runs them), a refresh showing the drift on the edited fields
 * and dropping the deleted section, the next up restoring the declared values with one PATCH per edit
 * and making the section again, and then nothing to do. (The engine adds nothing to this proof: the
 * refresh's and the up's steps are the provider's read, diff and update; the CLI's own rendering of a
 * refresh is in test/lifecycle/everyKind.test.ts and test/cli.)
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Decl } from "../support/lifecycle";
import { inProcessProgram, stepNames, type InProcessProgram } from "../support/program";
import { startProviderEnv, type ProviderEnv } from "../support/provider";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "dist/bin/pulumi-gitbook.js");
const SEED = path.join(ROOT, "examples/emulator/seed.json");
const ref = (s: string) => ({ $ref: s });

const program = (env: ProviderEnv): Decl[] => [
  { kind: "Site", name: "site", args: { title: "Tried locally", visibility: "public" } },
  { kind: "SiteSection", name: "guides", args: { siteId: ref("site.id"), spaceId: env.emu.seeded.ids.guides, title: "Guides", path: "guides" } },
  { kind: "SiteSection", name: "reference", args: { siteId: ref("site.id"), spaceId: env.emu.seeded.ids.api, title: "API reference", path: "api" } },
];

/**
 * `pulumi-gitbook emulator ...` in its own process, pointed at the emulator as the banner says.
 * Asynchronous: the emulator answers from this process, so waiting synchronously would starve it.
 */
function emulatorCommand(env: ProviderEnv, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, "emulator", ...args], { env: { ...process.env, GITBOOK_API_URL: env.emu.url, GITBOOK_TOKEN: env.emu.token } }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe("edit in the app against the emulator (README)", () => {
  let env: ProviderEnv;
  let p: InProcessProgram;
  let ids: { site: string; section: string; deleted: string };
  beforeAll(async () => {
    if (!fs.existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (npm test does)`);
    env = await startProviderEnv({ seedFile: SEED });
    p = inProcessProgram(env);
  });
  afterAll(async () => env?.close());

  it("emulator edit changes a deployed object, emulator delete removes another as the app would; refresh shows the drift and drops the deleted one", async () => {
    await p.up(program(env));
    ids = { site: p.resource("site").id, section: p.resource("guides").id, deleted: p.resource("reference").id };

    const edit = await emulatorCommand(env, "edit", "site", ids.site, "title=Renamed in the app");
    expect(edit.status, edit.stderr).toBe(0);
    expect((await emulatorCommand(env, "edit", "section", ids.section, "path=moved")).status).toBe(0);
    expect((await emulatorCommand(env, "delete", "section", ids.deleted)).status).toBe(0);

    const refresh = await p.refresh();
    expect(refresh).toEqual([
      { name: "site", op: "refresh", changed: ["title"] },
      { name: "guides", op: "refresh", changed: ["path"] },
      { name: "reference", op: "read-gone" },
    ]);
    expect(p.resource("site").outputs.title).toBe("Renamed in the app");
    expect(p.resource("guides").outputs.path).toBe("moved");
    expect(p.names()).not.toContain("reference");
  });

  it("up puts back the declared values and makes the deleted section again; then nothing to do", async () => {
    env.emu.log.reset();
    expect(stepNames(await p.up())).toEqual(["update site", "update guides", "create reference"]);
    expect(env.emu.store.sites.get(ids.site)!.title).toBe("Tried locally");
    expect(env.emu.store.sections.get(ids.section)!.path).toBe("guides");
    const again = p.resource("reference").id;
    // One PATCH for each edit (the section made again has its own requests).
    expect(env.emu.log.entries.filter((e) => e.method === "PATCH" && !e.path.split("/").includes(again)).map((e) => e.route).sort()).toEqual([
      "/v1/orgs/:org/sites/:site",
      "/v1/orgs/:org/sites/:site/sections/:section",
    ]);
    expect(again).not.toBe(ids.deleted);
    expect(env.emu.store.sections.get(again)).toMatchObject({ path: "api", spaceId: env.emu.seeded.ids.api });
    expect((await p.preview()).every((s) => s.op === "same")).toBe(true);
  });
});
