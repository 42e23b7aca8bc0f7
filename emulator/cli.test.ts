// `pulumi-gitbook emulator` as a user runs it: the compiled bin (npm run build first), in its own process.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeAll, expect, it } from "vitest";

const BIN = path.resolve(__dirname, "../dist/bin/pulumi-gitbook.js");

interface Running {
  child: ChildProcess;
  /** Everything printed to stdout so far. */
  out(): string;
  /** Resolves once stdout contains `text` (or rejects when the process ends first). */
  printed(text: string | RegExp): Promise<string>;
  exited: Promise<{ code: number | null; stderr: string }>;
}

beforeAll(() => {
  if (!fs.existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (npm test does)`);
});

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGTERM");
});

function run(...args: string[]): Running {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, GITBOOK_EMULATOR_PORT: "" } });
  started.push(child);
  let out = "";
  let err = "";
  const waiters = new Set<() => void>();
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    for (const w of waiters) w();
  });
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on("close", (code) => resolve({ code, stderr: err })));
  const printed = (text: string | RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (typeof text === "string" ? out.includes(text) : text.test(out)) {
          waiters.delete(check);
          resolve(out);
        }
      };
      waiters.add(check);
      void exited.then(({ code, stderr }) => reject(new Error(`exited with ${code} before printing ${text}: ${stderr}`)));
      check();
    });
  return { child, out: () => out, printed, exited };
}

const field = (banner: string, name: string) => new RegExp(`^  ${name} +(\\S+)`, "m").exec(banner)![1]!;

async function request(url: string, token: string, method: string, route: string, body?: unknown): Promise<number> {
  const res = await fetch(url + route, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

// One emulator for both: each `pulumi-gitbook` process costs about half a CPU-second to start.
it("prints the URL, token, organization and spaces and the config lines that point a program at them; injects the faults of --faults from the first request, and --log prints every request as answered", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-"));
  const faults = path.join(dir, "faults.json");
  fs.writeFileSync(faults, JSON.stringify([{ rateLimit: { burst: 1, retryAfterSeconds: 1 }, match: { method: "POST" } }, { dropBeforeProcess: true, times: 1, match: { route: "/v1/orgs/:org/teams" } }]));
  const emu = run("emulator", "--port", "0", "--token", "dev-token", "--faults", faults, "--log");
  const banner = await emu.printed("Ctrl-C to stop.");
  const url = field(banner, "base URL");
  const org = field(banner, "organization");
  expect(banner).toContain(`faults        2 from ${faults}`);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(field(banner, "token")).toBe("dev-token");
  expect(banner).toContain(`pulumi config set gitbook:apiUrl ${url}\n`);
  expect(banner).toContain(`pulumi config set --secret gitbook:token dev-token\n`);
  expect(banner).toContain(`pulumi config set gitbook:organizationId ${org}\n`);
  expect(banner).toContain(`export GITBOOK_API_URL=${url} GITBOOK_TOKEN=dev-token GITBOOK_ORGANIZATION_ID=${org}\n`);

  expect(await request(url, "dev-token", "POST", `/v1/orgs/${org}/sites`, { title: "Docs" })).toBe(429);
  expect(await request(url, "dev-token", "POST", `/v1/orgs/${org}/sites`, { title: "Docs" })).toBe(201);
  await expect(request(url, "dev-token", "GET", `/v1/orgs/${org}/teams`)).rejects.toThrow();
  expect(await request(url, "dev-token", "GET", `/v1/orgs/${org}/teams`)).toBe(200);

  const log = await emu.printed(`GET /v1/orgs/${org}/teams 200`);
  const lines = log.slice(log.indexOf("Ctrl-C to stop.")).split("\n").slice(1, 5);
  expect(lines.map((l) => l.replace(/ \d+ ms$/, ""))).toEqual([
    `POST /v1/orgs/${org}/sites 429`,
    `POST /v1/orgs/${org}/sites 201`,
    `GET /v1/orgs/${org}/teams dropped`,
    `GET /v1/orgs/${org}/teams 200`,
  ]);

  // The printed IDs are the live ones: the organization answers, and each printed space exists.
  expect(await request(url, "dev-token", "GET", `/v1/orgs/${org}`)).toBe(200);
  const spaces = [...banner.matchAll(/^ {4}(spc_\w+) {2}(.+)$/gm)];
  expect(spaces.map((m) => m[2])).toContain("Getting started");
  for (const [, id] of spaces) expect(await request(url, "dev-token", "GET", `/v1/spaces/${id}`)).toBe(200);
  expect(await request(url, "wrong", "GET", `/v1/orgs/${org}`)).toBe(401);

  emu.child.kill("SIGTERM");
  expect((await emu.exited).code).toBe(0);
});

it("refuses a faults file it cannot use, naming the file and the fault, before listening", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-"));
  const faults = path.join(dir, "faults.json");
  fs.writeFileSync(faults, JSON.stringify([{ latencyMs: 5 }, { errorRate: 2 }]));
  const emu = run("emulator", "--faults", faults);
  const { code, stderr } = await emu.exited;
  expect(code).not.toBe(0);
  expect(stderr).toContain(`--faults ${faults}: fault 2: errorRate must be within 0..1`);
  expect(emu.out()).not.toContain("is running");
});

/** One `pulumi-gitbook` command run to its end, against the emulator of `env` (GITBOOK_API_URL, GITBOOK_TOKEN). */
function once(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, GITBOOK_API_URL: "", GITBOOK_TOKEN: "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const EXAMPLE_SEED = path.resolve(__dirname, "../examples/emulator/seed.json");

it("starts from a seed file, edits in the app, exports, and starts again from the export where it was", async () => {
  const emu = run("emulator", "--token", "t", "--seed-file", EXAMPLE_SEED);
  const banner = await emu.printed("Ctrl-C to stop.");
  const url = field(banner, "base URL");
  const org = field(banner, "organization");
  const site = /^ {4}docs {2}(site_\w+)$/m.exec(banner)![1]!;
  expect(banner).toContain(`seeded from   ${EXAMPLE_SEED}`);
  const env = { GITBOOK_API_URL: url, GITBOOK_TOKEN: "t" };

  const edited = await once(env, "emulator", "edit", "site", site, "title=Renamed in the app", "published=false");
  expect(edited.code, edited.stderr).toBe(0);
  expect(JSON.parse(edited.stdout)).toMatchObject({ id: site, title: "Renamed in the app", published: false });
  const siteBody = async (base: string) => (await fetch(`${base}/v1/orgs/${org}/sites/${site}`, { headers: { authorization: "Bearer t" } })).json();
  expect(await siteBody(url)).toMatchObject({ title: "Renamed in the app", published: false });

  const refused = await once(env, "emulator", "edit", "site", site, "colour=red");
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^emulator edit: set\.colour: a site has no field "colour" \(fields: /);

  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-")), "state.json");
  expect((await once(env, "emulator", "export", file)).code).toBe(0);
  emu.child.kill("SIGTERM");
  await emu.exited;

  const again = run("emulator", "--token", "t", "--state", file);
  const url2 = field(await again.printed("Ctrl-C to stop."), "base URL");
  expect(await siteBody(url2)).toMatchObject({ id: site, title: "Renamed in the app", published: false });

  // import into a running emulator; delete, as in the app.
  const fresh = run("emulator", "--token", "u");
  const url3 = field(await fresh.printed("Ctrl-C to stop."), "base URL");
  expect((await once({ GITBOOK_API_URL: url3, GITBOOK_TOKEN: "u" }, "emulator", "import", file)).code).toBe(0);
  const deleted = await once({}, "emulator", "delete", "site", site, "--url", url3, "--token", "u");
  expect(deleted).toMatchObject({ code: 0, stdout: `deleted site ${site}\n` });
  expect((await fetch(`${url3}/v1/orgs/${org}/sites/${site}`, { headers: { authorization: "Bearer u" } })).status).toBe(404);
});

it("refuses a seed file it cannot use, naming each path into it, before listening", async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "emulator-cli-")), "seed.json");
  fs.writeFileSync(file, JSON.stringify({ sites: [{ title: "Docs", sections: [{ title: "Intro" }, { title: "A", space: "missing" }] }] }));
  const emu = run("emulator", "--seed-file", file);
  const { code, stderr } = await emu.exited;
  expect(code).toBe(2);
  expect(stderr).toBe(`--seed-file ${file}: 2 problems\n  sites[0].sections[0].space: required\n  sites[0].sections[1].title: Too small: expected string to have >=2 characters\n`);
  expect(emu.out()).not.toContain("is running");
});

it("says which emulator it could not reach, and what it needs", async () => {
  expect(await once({}, "emulator", "export")).toMatchObject({ code: 2, stderr: expect.stringMatching(/^emulator export: --url \(or the stack's gitbook:apiUrl, or GITBOOK_API_URL\) must name the running emulator/) });
  expect(await once({ GITBOOK_API_URL: "http://127.0.0.1:9", GITBOOK_TOKEN: "t" }, "emulator", "export")).toMatchObject({ code: 1, stderr: "emulator export: no emulator answers at http://127.0.0.1:9\n" });
});
