// `pulumi-gitbook emulator [options]`: runs the emulator until Ctrl-C and prints what a program
// needs to use it. Started by bin/pulumi-gitbook.ts (and `npm run emulator` in a checkout).
import * as fs from "node:fs";
import { Emulator } from "./emulator";
import type { FaultSpec } from "./faults";
import type { LogEntry } from "./log";

const USAGE = `usage: pulumi-gitbook emulator [--port N] [--latency MS] [--token T] [--seed N] [--faults FILE] [--log]
  --port     listen port on 127.0.0.1 (default: $GITBOOK_EMULATOR_PORT, else 0 = any free port)
  --latency  latency added to every request, in milliseconds
  --token    bearer token to accept (default: random gb_emu_...)
  --seed     PRNG seed for IDs and fault decisions (same seed, same IDs)
  --faults   JSON file holding an array of fault specs, injected from the start, e.g.
             [{"rateLimit": {"burst": 2, "retryAfterSeconds": 1}, "match": {"method": "POST"}},
              {"errorRate": 0.2, "status": 503, "match": {"route": "/v1/orgs/:org/sites"}}]
             kinds: latencyMs, errorRate (+ status), rateLimit {burst, retryAfterSeconds, ...},
             dropAfterProcess, dropBeforeProcess; optional: match {method, route}, times, seed
  --log      print every request as it is answered: METHOD path status time
`;

interface CliArgs {
  port: number;
  latencyMs?: number;
  token?: string;
  seed?: number;
  faultsFile?: string;
  log: boolean;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): CliArgs | "help" {
  const num = (flag: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || v.trim() === "" || !Number.isInteger(n) || n < 0) throw new UsageError(`${flag} needs a non-negative integer`);
    return n;
  };
  const text = (flag: string, v: string | undefined): string => {
    if (!v) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  const envPort = process.env.GITBOOK_EMULATOR_PORT;
  const args: CliArgs = { port: envPort ? num("GITBOOK_EMULATOR_PORT", envPort) : 0, log: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--port":
        args.port = num(flag, value());
        break;
      case "--latency":
        args.latencyMs = num(flag, value());
        break;
      case "--token":
        args.token = text(flag, value());
        break;
      case "--seed":
        args.seed = num(flag, value());
        break;
      case "--faults":
        args.faultsFile = text(flag, value());
        break;
      case "--log":
        args.log = true;
        break;
      case "-h":
      case "--help":
        return "help";
      default:
        throw new UsageError(`unknown argument: ${argv[i]}`);
    }
  }
  return args;
}

/** The fault specs of a --faults file: a JSON array of objects, each checked by Faults.add. */
function readFaults(file: string): FaultSpec[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(`--faults ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((f) => typeof f === "object" && f !== null && !Array.isArray(f))) {
    throw new UsageError(`--faults ${file}: must hold a JSON array of fault objects`);
  }
  return parsed as FaultSpec[];
}

function logLine(e: LogEntry): string {
  return `${e.method} ${e.path} ${e.status === 0 ? "dropped" : e.status} ${Math.round(e.ms)} ms`;
}

function banner(emu: Emulator, args: CliArgs, faults: number): string {
  const { organizationId, spaceIds, members } = emu.seeded;
  return [
    "GitBook API emulator is running",
    `  base URL      ${emu.url}  (routes under /v1)`,
    `  token         ${emu.token}`,
    `  organization  ${organizationId}`,
    "  spaces",
    ...spaceIds.map((id) => `    ${id}  ${emu.store.spaces.get(id)?.title ?? ""}`),
    "  members",
    ...members.map((m) => `    ${m.id}  ${m.email}  (${emu.store.members.get(m.id)?.role ?? "guest"})`),
    ...(args.latencyMs ? [`  latency       ${args.latencyMs} ms on every request`] : []),
    ...(args.faultsFile ? [`  faults        ${faults} from ${args.faultsFile}`] : []),
    ...(args.log ? ["  request log   printed below as requests are answered"] : []),
    "",
    "Point a Pulumi program at it, in its stack's config:",
    `  pulumi config set gitbook:apiUrl ${emu.url}`,
    `  pulumi config set --secret gitbook:token ${emu.token}`,
    `  pulumi config set gitbook:organizationId ${organizationId}`,
    "or in the environment of the shell that runs pulumi:",
    `  export GITBOOK_API_URL=${emu.url} GITBOOK_TOKEN=${emu.token} GITBOOK_ORGANIZATION_ID=${organizationId}`,
    "",
    "Ctrl-C to stop.",
  ].join("\n");
}

export async function main(argv: string[]): Promise<void> {
  let args: CliArgs | "help";
  let specs: FaultSpec[] = [];
  try {
    args = parseArgs(argv);
    if (args !== "help" && args.faultsFile) specs = readFaults(args.faultsFile);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${e.message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (args === "help") {
    process.stdout.write(USAGE);
    return;
  }

  const emu = await Emulator.start({
    port: args.port,
    ...(args.token !== undefined && { token: args.token }),
    ...(args.seed !== undefined && { seed: args.seed }),
  });
  try {
    specs.forEach((spec, i) => {
      try {
        emu.faults.add(spec);
      } catch (e) {
        throw new Error(`--faults ${args.faultsFile}: fault ${i + 1}: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
  } catch (e) {
    await emu.close();
    throw e;
  }
  if (args.latencyMs) emu.faults.add({ latencyMs: args.latencyMs });
  if (args.log) emu.log.onRecord((e) => process.stdout.write(`${logLine(e)}\n`));
  process.stdout.write(`${banner(emu, args, specs.length)}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping (${emu.log.entries.length} requests served)\n`);
    void emu.close().then(() => process.exit(0));
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
