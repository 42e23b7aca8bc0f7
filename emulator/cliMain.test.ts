// `pulumi-gitbook emulator` in process: its `main` called as the bin calls it, stdout and stderr
// captured, the signal handlers it installs taken instead of installed, so that the CLI's every
// answer is checked in milliseconds. cli.test.ts keeps the one run of the compiled bin in its own
// process (the bin wiring, a real SIGTERM, a real exit code).
import * as fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { DEV_EMULATOR, skeleton } from "../bin/new";
import { ownPackage } from "../provider/packageSource";
import { main } from "./cli";
import { Emulator } from "./emulator";

const EXAMPLE_SEED = path.resolve(__dirname, "../examples/emulator/seed.json");

let out = "";
let err = "";
/** The SIGINT/SIGTERM handlers `main` installed (taken, not installed in the test process). */
let signals: Map<string, () => void>;
/** Resolves with the code `process.exit` is called with (not exiting the test process). */
let exited: Promise<unknown>;

beforeEach(() => {
  out = "";
  err = "";
  signals = new Map();
  vi.spyOn(process.stdout, "write").mockImplementation(((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write);
  vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  }) as typeof process.stderr.write);
  const realOn = process.on.bind(process);
  vi.spyOn(process, "on").mockImplementation(((event: string, listener: (...args: unknown[]) => void) => {
    if (event === "SIGINT" || event === "SIGTERM") {
      signals.set(event, listener as () => void);
      return process;
    }
    return realOn(event, listener);
  }) as typeof process.on);
  exited = new Promise((resolve) => vi.spyOn(process, "exit").mockImplementation(((code?: number) => resolve(code)) as typeof process.exit));
  vi.stubEnv("GITBOOK_EMULATOR_PORT", "");
  vi.stubEnv("GITBOOK_API_URL", "");
  vi.stubEnv("GITBOOK_TOKEN", "");
});

afterEach(async () => {
  // An emulator a failed test left running is stopped, and its exit awaited while process.exit is still the mock.
  const stop = signals.get("SIGTERM");
  if (stop) {
    stop();
    await exited;
  }
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
});

const tmp = (name: string, content: string): string => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-main-")), name);
  fs.writeFileSync(file, content);
  return file;
};
/**
 * A program's folder as `pulumi-gitbook new` writes it (its very files), with Pulumi.dev.yaml pointed
 * at `url` instead of port 8080, and the command run there (process.cwd() answers it).
 */
function inProgram(url: string): string {
  const { files } = skeleton({ name: "docs", packageSpec: "file:../pulumi-gitbook", own: ownPackage(), devOrganizationId: "org_dev" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-program-"));
  for (const [file, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, file), file === "Pulumi.dev.yaml" ? text.replace(`http://127.0.0.1:${DEV_EMULATOR.port}`, url) : text);
  }
  vi.spyOn(process, "cwd").mockReturnValue(dir);
  return dir;
}
/** A port nothing listens on now (the OS's next free one, released). */
async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const field = (banner: string, name: string) => new RegExp(`^  ${name} +(\\S+)`, "m").exec(banner)![1]!;

/** Runs `main` and answers what it printed and the exit code it set. */
async function run(...argv: string[]): Promise<{ code: unknown; stdout: string; stderr: string }> {
  out = "";
  err = "";
  process.exitCode = undefined;
  await main(argv);
  const r = { code: process.exitCode, stdout: out, stderr: err };
  process.exitCode = undefined;
  return r;
}

describe("usage", () => {
  it("prints the usage for --help and -h, on stdout, and exits 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const r = await run("--port", "0", flag);
      expect(r.code).toBeUndefined();
      expect(r.stdout).toMatch(/^usage: pulumi-gitbook emulator \[--port N\]/);
      expect(r.stdout).toContain("pulumi-gitbook emulator export [FILE]");
      expect(r.stderr).toBe("");
    }
    // The admin commands answer --help too, before needing an emulator.
    expect(await run("edit", "--help")).toMatchObject({ code: undefined, stdout: expect.stringMatching(/^usage: /) });
  });

  it("names only files of the repository that exist", async () => {
    const { stdout } = await run("--help");
    const named = [...stdout.matchAll(/\b(examples\/[\w./-]+\.\w+)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((f) => !fs.existsSync(path.resolve(__dirname, "..", f)))).toEqual([]);
  });

  it("refuses a bad argument with exit code 2, naming it, then the usage", async () => {
    const cases: [string[], string][] = [
      [["--colour"], "unknown argument: --colour"],
      [["--port", "eighty"], "--port needs a non-negative integer"],
      [["--port=-1"], "--port needs a non-negative integer"],
      [["--latency", " "], "--latency needs a non-negative integer"],
      [["--seed", "1.5"], "--seed needs a non-negative integer"],
      [["--token"], "--token needs a value"],
      [["--faults="], "--faults needs a value"],
      [["--seed-file"], "--seed-file needs a value"],
      [["--state"], "--state needs a value"],
      [["--seed-file", "a.json", "--state", "b.json"], "--seed-file and --state: give one (a state holds its seed)"],
    ];
    for (const [argv, message] of cases) {
      const r = await run(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr.startsWith(`${message}\nusage: pulumi-gitbook emulator`), r.stderr).toBe(true);
      // A short usage: the command's line and where the rest is, not every option.
      expect(r.stderr.split("\n").length, r.stderr).toBeLessThanOrEqual(4);
      expect(r.stderr).toContain("pulumi-gitbook emulator --help lists every option");
      expect(r.stdout).toBe("");
    }
    vi.stubEnv("GITBOOK_EMULATOR_PORT", "http");
    expect(await run()).toMatchObject({ code: 2, stderr: expect.stringMatching(/^GITBOOK_EMULATOR_PORT needs a non-negative integer\n/) });
  });

  it("refuses a --faults or --state file it cannot read, naming the flag and the file, before listening", async () => {
    const missing = path.join(os.tmpdir(), "emulator-cli-main-missing.json");
    expect(await run("--faults", missing)).toMatchObject({ code: 2, stderr: expect.stringMatching(new RegExp(`^--faults ${missing}: ENOENT`)) });
    const notArray = tmp("faults.json", JSON.stringify({ latencyMs: 5 }));
    expect(await run("--faults", notArray)).toMatchObject({ code: 2, stderr: expect.stringMatching(new RegExp(`^--faults ${notArray}: must hold a JSON array of fault objects\n`)) });
    const arrayOfText = tmp("faults.json", JSON.stringify(["latencyMs"]));
    expect((await run("--faults", arrayOfText)).stderr).toMatch(/must hold a JSON array of fault objects/);
    const badJson = tmp("state.json", "{ not json");
    expect(await run("--state", badJson)).toMatchObject({ code: 2, stderr: expect.stringMatching(new RegExp(`^--state ${badJson}: .*JSON`)) });
    expect(out).not.toContain("is running");
  });

  it("refuses a state or a seed file it cannot use, naming each problem by its path into the file, without a stack", async () => {
    const state = tmp("state.json", JSON.stringify({ format: "something else" }));
    const r = await run("--state", state);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^--state ${state}: not an exported emulator state: `));
    expect(r.stderr).not.toContain("    at ");
    const seed = tmp("seed.json", JSON.stringify({ spaces: [{ title: "" }] }));
    const s = await run("--seed-file", seed);
    expect(s.code).toBe(2);
    expect(s.stderr).toBe(`--seed-file ${seed}: spaces[0].title: Too small: expected string to have >=1 characters\n`);
    expect(s.stdout).toBe("");
    // Several problems: counted, then each on its own line by its path.
    const two = tmp("seed.json", JSON.stringify({ sites: [{ title: "Docs", sections: [{ title: "Intro" }, { title: "A", space: "missing" }] }] }));
    expect(await run("--seed-file", two)).toEqual({
      code: 2,
      stdout: "",
      stderr: `--seed-file ${two}: 2 problems\n  sites[0].sections[0].space: required\n  sites[0].sections[1].title: Too small: expected string to have >=2 characters\n`,
    });
    const notJson = tmp("seed.json", "{ spaces: [] }");
    expect(await run("--seed-file", notJson)).toMatchObject({ code: 2, stderr: expect.stringMatching(new RegExp(`^--seed-file ${notJson}: .*JSON`)) });
  });

  it("refuses a fault it cannot inject, naming the file and the fault's place in it", async () => {
    const faults = tmp("faults.json", JSON.stringify([{ latencyMs: 5 }, { errorRate: 0.5, status: 429 }]));
    await expect(main(["--faults", faults])).rejects.toThrow(`--faults ${faults}: fault 2: errorRate status must be 500, 502, 503 or 504`);
    const rate = tmp("faults.json", JSON.stringify([{ latencyMs: 5 }, { errorRate: 2 }]));
    await expect(main(["--faults", rate])).rejects.toThrow(`--faults ${rate}: fault 2: errorRate must be within 0..1`);
    expect(out).not.toContain("is running");
    expect(signals.size).toBe(0);
  });
});

describe("running", () => {
  it("prints a banner of what a program needs, serves, logs each request, and stops on SIGTERM", async () => {
    const faults = tmp("faults.json", JSON.stringify([{ dropBeforeProcess: true, times: 1, match: { route: "/v1/orgs/:org/teams" } }]));
    const r = await run("--token=cli-token", "--seed", "7", "--seed-file", EXAMPLE_SEED, "--latency", "1", "--faults", faults, "--log");
    expect(r.code).toBeUndefined();
    const banner = r.stdout;
    const url = field(banner, "base URL");
    const orgId = field(banner, "organization");
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(field(banner, "token")).toBe("cli-token");
    expect(banner).toContain(`  seeded from   ${EXAMPLE_SEED}\n`);
    expect(banner).toContain("  latency       1 ms on every request\n");
    expect(banner).toContain(`  faults        1 from ${faults}\n`);
    expect(banner).toContain("  request log   printed below as requests are answered\n");
    expect(banner).toContain("  keys of the seed file\n");
    expect(banner).toMatch(/^ {4}docs {2}site_\w+$/m);
    // The seed's members with their roles, a member without one as a guest.
    expect(banner).toMatch(/^ {4}\S+ {2}ada@acme\.test {2}\(admin\)$/m);
    expect(banner).toMatch(/^ {4}\S+ {2}guest@partner\.test {2}\(guest\)$/m);
    expect(banner).toContain(`  export GITBOOK_API_URL=${url} GITBOOK_TOKEN=cli-token GITBOOK_ORGANIZATION_ID=${orgId}\n`);
    expect(banner.endsWith("Ctrl-C to stop.\n")).toBe(true);
    expect([...signals.keys()].sort()).toEqual(["SIGINT", "SIGTERM"]);

    const get = (route: string) => fetch(`${url}${route}`, { headers: { authorization: "Bearer cli-token" } });
    const org = await get(`/v1/orgs/${orgId}`);
    expect(org.status).toBe(200);
    expect(await org.json()).toMatchObject({ object: "organization", id: orgId, title: "Acme Docs" });
    await expect(get(`/v1/orgs/${orgId}/teams`)).rejects.toThrow();
    expect((await get(`/v1/orgs/${orgId}/teams`)).status).toBe(200);
    const log = out.slice(banner.length).split("\n");
    expect(log.slice(0, 3).map((l) => l.replace(/ \d+ ms$/, " N ms"))).toEqual([
      `GET /v1/orgs/${orgId} 200 N ms`,
      `GET /v1/orgs/${orgId}/teams dropped N ms`,
      `GET /v1/orgs/${orgId}/teams 200 N ms`,
    ]);

    signals.get("SIGTERM")!();
    // A second signal while stopping changes nothing.
    signals.get("SIGINT")!();
    expect(await exited).toBe(0);
    expect(out).toContain("\nSIGTERM: stopping (3 requests served)\n");
    expect(out).not.toContain("SIGINT");
    await expect(get(`/v1/orgs/${orgId}`)).rejects.toThrow();
  });

  it("in a program's folder, starts where its dev stack expects it: the port of gitbook:apiUrl, its token, and says so", async () => {
    const port = await freePort();
    inProgram(`http://127.0.0.1:${port}`);
    const r = await run("--seed", String(DEV_EMULATOR.seed));
    expect(r.code).toBeUndefined();
    expect(field(r.stdout, "base URL")).toBe(`http://127.0.0.1:${port}`);
    expect(field(r.stdout, "token")).toBe(DEV_EMULATOR.token);
    expect(r.stdout).toContain("  settings from Pulumi.dev.yaml ");
    // The file's organization (org_dev here) is not this seed's: said, with the way out.
    expect(r.stdout).toMatch(/^ {2}warning {7}Pulumi\.dev\.yaml sets gitbook:organizationId org_dev, which this emulator does not have/m);
    signals.get("SIGTERM")!();
    expect(await exited).toBe(0);
  });

  it("in a program's folder with two stacks on this machine, starts where --stack's expects it; outside one, --stack is refused and no stack's settings are taken", async () => {
    const port = await freePort();
    const dir = inProgram(`http://127.0.0.1:${port}`);
    fs.writeFileSync(path.join(dir, "Pulumi.test.yaml"), fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8").replace(`:${port}`, ":9"));
    expect(await run()).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Pulumi\.dev\.yaml and Pulumi\.test\.yaml: each points at an emulator on this machine; give --stack <name>\nusage: pulumi-gitbook emulator \[/) });
    const r = await run("--stack", "dev");
    expect(field(r.stdout, "base URL")).toBe(`http://127.0.0.1:${port}`);
    expect(r.stdout).toContain("  settings from Pulumi.dev.yaml ");
    signals.get("SIGTERM")!();
    expect(await exited).toBe(0);

    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-elsewhere-"));
    vi.mocked(process.cwd).mockReturnValue(elsewhere);
    expect(await run("--stack", "dev")).toMatchObject({ code: 2, stdout: "", stderr: expect.stringMatching(new RegExp(`^--stack dev: no Pulumi\\.yaml in ${elsewhere}; run this in the program's folder\nusage: `)) });
  });

  it("outside a program's folder, starts with no stack's settings", async () => {
    vi.spyOn(process, "cwd").mockReturnValue(fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-elsewhere-")));
    const r = await run();
    expect(r.code).toBeUndefined();
    expect(field(r.stdout, "token")).toMatch(/^gb_emu_/);
    expect(r.stdout).not.toContain("settings from");
  });

  it("starts from an exported state where that emulator was", async () => {
    const source = await Emulator.start({ token: "t" });
    let state: string;
    try {
      source.edit("org", source.seeded.organizationId, { title: "Exported org" });
      state = tmp("state.json", JSON.stringify(source.exportState()));
    } finally {
      await source.close();
    }
    const r = await run("--state", state, "--token", "t");
    expect(r.stdout).toContain(`  state from    ${state}\n`);
    expect(field(r.stdout, "organization")).toBe(source.seeded.organizationId);
    const url = field(r.stdout, "base URL");
    const org = await fetch(`${url}/v1/orgs/${source.seeded.organizationId}`, { headers: { authorization: "Bearer t" } });
    expect(await org.json()).toMatchObject({ title: "Exported org" });
    signals.get("SIGINT")!();
    expect(await exited).toBe(0);
    expect(out).toContain("\nSIGINT: stopping (1 requests served)\n");
  });
});

describe("edit, delete, export, import", () => {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await Emulator.start({ token: "admin-token", seedFile: EXAMPLE_SEED });
  });
  afterEach(async () => {
    await emu.close();
  });
  const site = () => emu.seeded.ids.docs!;

  it("edits and deletes an object as the app would, against the emulator of the environment or of --url/--token", async () => {
    vi.stubEnv("GITBOOK_API_URL", `${emu.url}/`);
    vi.stubEnv("GITBOOK_TOKEN", "admin-token");
    const edited = await run("edit", "site", site(), "title=Renamed in the app", "published=false");
    expect(edited.code).toBeUndefined();
    expect(JSON.parse(edited.stdout)).toMatchObject({ id: site(), title: "Renamed in the app", published: false });
    expect(emu.store.sites.get(site())).toMatchObject({ title: "Renamed in the app", published: false });

    vi.stubEnv("GITBOOK_API_URL", "");
    vi.stubEnv("GITBOOK_TOKEN", "");
    const deleted = await run("delete", "site", site(), "--url", emu.url, "--token=admin-token");
    expect(deleted).toEqual({ code: undefined, stdout: `deleted site ${site()}\n`, stderr: "" });
    expect(emu.store.sites.has(site())).toBe(false);
  });

  it("in a program's folder, acts on the emulator its stack's gitbook:apiUrl and gitbook:token name, before the environment's", async () => {
    const dir = inProgram(emu.url);
    fs.writeFileSync(path.join(dir, "Pulumi.dev.yaml"), fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8").replace(`gitbook:token: ${DEV_EMULATOR.token}`, "gitbook:token: admin-token"));
    vi.stubEnv("GITBOOK_API_URL", "http://127.0.0.1:9");
    vi.stubEnv("GITBOOK_TOKEN", "elsewhere");
    const edited = await run("edit", "site", site(), "title=Renamed in the app");
    expect(edited.stderr).toBe("");
    expect(emu.store.sites.get(site())).toMatchObject({ title: "Renamed in the app" });
    expect(await run("delete", "site", site(), "--stack", "dev")).toEqual({ code: undefined, stdout: `deleted site ${site()}\n`, stderr: "" });
    // A stack without a settings file, or two stacks on this machine: said, with the fix, before any request.
    expect(await run("export", "--stack", "test")).toMatchObject({ code: 2, stderr: expect.stringMatching(/^--stack test: Pulumi\.test\.yaml does not exist\nusage: pulumi-gitbook emulator export/) });
    fs.copyFileSync(path.join(dir, "Pulumi.dev.yaml"), path.join(dir, "Pulumi.test.yaml"));
    expect(await run("export")).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Pulumi\.dev\.yaml and Pulumi\.test\.yaml: each points at an emulator on this machine; give --stack <name>\n/) });
  });

  it("exports the whole state to stdout or a file, and imports it into another emulator", async () => {
    const env = ["--url", emu.url, "--token", "admin-token"];
    const printed = await run("export", ...env);
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(JSON.stringify(emu.exportState())));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-main-")), "state.json");
    expect(await run("export", file, ...env)).toEqual({ code: undefined, stdout: "", stderr: "" });
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(JSON.parse(printed.stdout));

    const other = await Emulator.start({ token: "other" });
    try {
      expect(other.store.sites.has(site())).toBe(false);
      expect(await run("import", file, "--url", other.url, "--token", "other")).toEqual({ code: undefined, stdout: `imported ${file}\n`, stderr: "" });
      expect(other.store.sites.get(site())).toEqual(emu.store.sites.get(site()));
      expect(other.seeded).toEqual(emu.seeded);
    } finally {
      await other.close();
    }
    // An emulator started from the file is where this one was.
    const url = field((await run("--state", file, "--token", "admin-token")).stdout, "base URL");
    const siteBody = async (base: string) => {
      const body = (await (await fetch(`${base}/v1/orgs/${emu.seeded.organizationId}/sites/${site()}`, { headers: { authorization: "Bearer admin-token" } })).json()) as { urls: object };
      return { ...body, urls: { ...body.urls, location: "(its own address)" } };
    };
    expect(await siteBody(url)).toEqual(await siteBody(emu.url));
  });

  it("refuses a malformed command with exit code 2 and the usage, before any request", async () => {
    const env = ["--url", emu.url, "--token", "admin-token"];
    const cases: [string[], string][] = [
      [["edit", "site", site()], "emulator edit: needs KIND ID FIELD=VALUE..."],
      [["edit", "site"], "emulator edit: needs KIND ID FIELD=VALUE..."],
      [["edit", "site", site(), "=x"], 'emulator edit: "=x" is not FIELD=VALUE'],
      [["edit", "site", site(), "title"], 'emulator edit: "title" is not FIELD=VALUE'],
      [["delete", "site"], "emulator delete: needs KIND ID"],
      [["delete", "site", site(), "extra"], "emulator delete: needs KIND ID"],
      [["export", "a.json", "b.json"], "emulator export: takes at most one FILE"],
      [["import"], "emulator import: needs FILE (written by emulator export)"],
    ];
    const before = JSON.stringify(emu.exportState());
    for (const [argv, message] of cases) {
      const r = await run(...argv, ...env);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr.startsWith(`${message}\nusage: `), r.stderr).toBe(true);
    }
    expect(await run("edit", "site", site(), "title=X", "--url", emu.url)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^emulator edit: --token \(or the stack's gitbook:token, or GITBOOK_TOKEN\) must be the emulator's token\n/),
    });
    expect(await run("delete", "site", site(), "--token", "admin-token")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^emulator delete: --url \(or the stack's gitbook:apiUrl, or GITBOOK_API_URL\) must name the running emulator, e.g\. http:\/\/127\.0\.0\.1:8080\n/),
    });
    const missing = path.join(os.tmpdir(), "emulator-cli-main-missing.json");
    expect(await run("import", missing, ...env)).toMatchObject({ code: 2, stderr: expect.stringMatching(new RegExp(`^import ${missing}: ENOENT`)) });
    expect(JSON.stringify(emu.exportState())).toBe(before);
  });

  it("says what the emulator refused (exit code 1, its message once, no usage), and when no emulator answers", async () => {
    const env = ["--url", emu.url, "--token", "admin-token"];
    expect(await run("edit", "site", site(), "colour=red", ...env)).toEqual({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(/^emulator edit: set\.colour: a site has no field "colour" \(fields: [^\n]*\)\n$/),
    });
    expect(await run("delete", "space", "spc_nope", ...env)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^emulator delete: .*spc_nope/) });
    expect(await run("export", "--url", emu.url, "--token", "wrong")).toEqual({ code: 1, stdout: "", stderr: "emulator export: Invalid or revoked API token\n" });
    const state = tmp("state.json", JSON.stringify({ format: "pulumi-gitbook-emulator-state/1" }));
    expect(await run("import", state, ...env)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^emulator import: not an exported emulator state: /) });
    // Something else answers there (another local server): said so, not a JSON parser's stack.
    const other = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>Welcome</html>"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      expect(await run("export", "--url", otherUrl, "--token", "t")).toEqual({
        code: 1,
        stdout: "",
        stderr: `emulator export: ${otherUrl} answered 200 text/html, not the emulator's JSON: is it the URL of the emulator (its banner's base URL)?\n`,
      });
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    // Port 9 (discard) on the loopback: nothing listens there.
    expect(await run("export", "--url", "http://127.0.0.1:9", "--token", "t")).toEqual({ code: 1, stdout: "", stderr: "emulator export: no emulator answers at http://127.0.0.1:9\n" });
    // A FILE that cannot be written: the system's reason, under the command's name, not a stack.
    const unwritable = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-main-")), "missing", "state.json");
    expect(await run("export", unwritable, ...env)).toEqual({ code: 1, stdout: "", stderr: `emulator export: ENOENT: no such file or directory, open '${unwritable}'\n` });
  });
});
