/**
 * The README's "Trying it locally against the emulator", the provider's part in process: the emulator
 * started from the shipped example seed file, a program that uses the seeded spaces, an edit "in the
 * app" with `pulumi-gitbook emulator edit` and a delete with `pulumi-gitbook emulator delete` (the
 * command's `main` as the bin calls it, in process: emulator/cli.test.ts runs the bin itself), a
 * refresh showing the drift on the edited fields and dropping the deleted section, the next up
 * restoring the declared values with one PATCH per edit and making the section again, and then
 * nothing to do. (The engine adds nothing to this proof: the
 * refresh's and the up's steps are the provider's read, diff and update; the CLI's own rendering of a
 * refresh is in test/lifecycle/everyKind.test.ts and test/cli.)
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../emulator/cli";
import type { Decl } from "../support/lifecycle";
import { inProcessProgram, stepNames, type InProcessProgram } from "../support/program";
import { startProviderEnv, type ProviderEnv } from "../support/provider";

const ROOT = path.resolve(__dirname, "../..");
const SEED = path.join(ROOT, "examples/emulator/seed.json");
const ref = (s: string) => ({ $ref: s });

const program = (env: ProviderEnv): Decl[] => [
  { kind: "Site", name: "site", args: { title: "Tried locally", visibility: "public" } },
  { kind: "SiteSection", name: "guides", args: { siteId: ref("site.id"), spaceId: env.emu.seeded.ids.guides, title: "Guides", path: "guides" } },
  { kind: "SiteSection", name: "reference", args: { siteId: ref("site.id"), spaceId: env.emu.seeded.ids.api, title: "API reference", path: "api" } },
];

/** `pulumi-gitbook emulator ...` pointed at the emulator as the banner says: its exit code and what it printed. */
async function emulatorCommand(env: ProviderEnv, ...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const printed = { stdout: "", stderr: "" };
  for (const stream of ["stdout", "stderr"] as const) {
    vi.spyOn(process[stream], "write").mockImplementation(((chunk: string | Uint8Array) => {
      printed[stream] += String(chunk);
      return true;
    }) as typeof process.stdout.write);
  }
  vi.stubEnv("GITBOOK_API_URL", env.emu.url);
  vi.stubEnv("GITBOOK_TOKEN", env.emu.token);
  try {
    await main(args);
    return { status: Number(process.exitCode ?? 0), ...printed };
  } finally {
    process.exitCode = undefined;
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}

describe("edit in the app against the emulator (README)", () => {
  let env: ProviderEnv;
  let p: InProcessProgram;
  let ids: { site: string; section: string; deleted: string };
  beforeAll(async () => {
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
