// `pulumi-gitbook emulator` as a user runs it: the compiled bin (npm run build first), in its own
// process, once: the bin's wiring, a real SIGTERM and a real exit code. Every other answer of the
// command (refusals, seed files, states, edit, delete, export, import) is proved in process by
// cliMain.test.ts: each `node` started here cost about 0.7 CPU-second.
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
