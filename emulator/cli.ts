// `pulumi-gitbook emulator [options]`: runs the emulator until Ctrl-C and prints what a program
// needs to use it; `pulumi-gitbook emulator edit|delete|export|import ...` act on a running one
// through its /__emulator/ routes (./admin.ts). Started by bin/pulumi-gitbook.ts (and `npm run
// emulator` in a checkout).
import * as fs from "node:fs";
import type { EmulatorState } from "./admin";
import { Emulator } from "./emulator";
import { ApiError } from "./http";
import { SeedError } from "./seed";
import { portOf, stackEmulator, type StackEmulator } from "./stackSettings";
import type { FaultSpec } from "./faults";
import type { LogEntry } from "./log";

/** One line per command: what a wrong call prints above the pointer to --help. */
const SYNOPSIS: Record<string, string> = {
  start: "pulumi-gitbook emulator [--port N] [--token T] [--seed-file FILE | --state FILE] [--seed N] [--latency MS] [--faults FILE] [--log] [--stack S]",
  edit: "pulumi-gitbook emulator edit KIND ID FIELD=VALUE...   change an object as an edit in GitBook's app would",
  delete: "pulumi-gitbook emulator delete KIND ID                delete an object as the app would",
  export: "pulumi-gitbook emulator export [FILE]                 write the whole state as JSON (default: stdout)",
  import: "pulumi-gitbook emulator import FILE                   replace the whole state with an exported one",
};

const USAGE = `usage: ${Object.values(SYNOPSIS).join("\n       ")}
  --port      listen port on 127.0.0.1 (default: $GITBOOK_EMULATOR_PORT, else the port of the stack's
              gitbook:apiUrl, else 0 = any free port)
  --seed-file JSON file of the objects to start with (organization, members, spaces, collections,
              sites with sections, groups, site spaces, links and share links, teams, SAML providers,
              OpenAPI specs), referring to one another by key; see examples/emulator/seed.json in the
              pulumi-gitbook repository
  --state     JSON file written by \`emulator export\`: start exactly where that emulator was
  --latency  latency added to every request, in milliseconds
  --token    bearer token to accept (default: the stack's gitbook:token, else random gb_emu_...)
  --seed     PRNG seed for IDs and fault decisions (same seed, same IDs)
  --faults   JSON file holding an array of fault specs, injected from the start, e.g.
             [{"rateLimit": {"burst": 2, "retryAfterSeconds": 1}, "match": {"method": "POST"}},
              {"errorRate": 0.2, "status": 503, "match": {"route": "/v1/orgs/:org/sites"}}]
             kinds: latencyMs, errorRate (+ status), rateLimit {burst, retryAfterSeconds, ...},
             dropAfterProcess, dropBeforeProcess; optional: match {method, route}, times, after
             (matching requests let through first), seed
  --log      print every request as it is answered: METHOD path status time
  --stack    in a Pulumi program's folder, the stack whose settings file (Pulumi.<stack>.yaml) gives
             the emulator's gitbook:apiUrl and gitbook:token (default: the one stack whose
             gitbook:apiUrl is on this machine, as \`pulumi-gitbook new\` writes Pulumi.dev.yaml)
edit, delete, export and import talk to a running emulator: --url URL and --token T (default: the
stack's gitbook:apiUrl and gitbook:token when run in a program's folder, else $GITBOOK_API_URL and
$GITBOOK_TOKEN, as the emulator's banner sets them). KIND is a table of the emulator's store: org,
member, space, collection, site, section, sectionGroup, siteSpace, externalLink, shareLink,
adaptiveSchema, team, teamMember, samlProvider, openApiSpec, customHostname. VALUE is read as the
field's type (published=true, title=Handbook); null removes an optional field. e.g.
  pulumi-gitbook emulator edit site site_abc1 title="Renamed in the app" visibility=unlisted
`;

/** What a wrong call prints: the problem, the command's one-line usage, and where the rest is. */
function usageError(e: Error, command: string): void {
  process.stderr.write(`${e.message}\nusage: ${SYNOPSIS[command]}\n(pulumi-gitbook emulator --help lists every option)\n`);
  process.exitCode = 2;
}

interface CliArgs {
  port: number;
  latencyMs?: number;
  token?: string;
  seed?: number;
  faultsFile?: string;
  seedFile?: string;
  stateFile?: string;
  stack?: string;
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
  const args: CliArgs = { port: envPort ? num("GITBOOK_EMULATOR_PORT", envPort) : -1, log: false };
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
      case "--seed-file":
        args.seedFile = text(flag, value());
        break;
      case "--state":
        args.stateFile = text(flag, value());
        break;
      case "--stack":
        args.stack = text(flag, value());
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
  if (args.seedFile !== undefined && args.stateFile !== undefined) throw new UsageError("--seed-file and --state: give one (a state holds its seed)");
  return args;
}

/** The stack settings of the program in the working directory, or a UsageError saying why not. */
function stackSettings(stack: string | undefined): StackEmulator | undefined {
  try {
    return stackEmulator(process.cwd(), stack);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
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

function banner(emu: Emulator, args: CliArgs, faults: number, stack: StackEmulator | undefined): string {
  const { organizationId, spaceIds, members, ids } = emu.seeded;
  const keys = Object.entries(ids);
  const stackOrg = stack?.organizationId;
  return [
    "GitBook API emulator is running",
    `  base URL      ${emu.url}  (routes under /v1)`,
    `  token         ${emu.token}`,
    `  organization  ${organizationId}`,
    "  spaces",
    ...spaceIds.map((id) => `    ${id}  ${emu.store.spaces.get(id)?.title ?? ""}`),
    "  members",
    ...members.map((m) => `    ${m.id}  ${m.email}  (${emu.store.members.get(m.id)?.role ?? "guest"})`),
    ...(keys.length > 0 ? ["  keys of the seed file", ...keys.map(([k, id]) => `    ${k}  ${id}`)] : []),
    ...(args.seedFile ? [`  seeded from   ${args.seedFile}`] : []),
    ...(args.stateFile ? [`  state from    ${args.stateFile}`] : []),
    ...(args.latencyMs ? [`  latency       ${args.latencyMs} ms on every request`] : []),
    ...(args.faultsFile ? [`  faults        ${faults} from ${args.faultsFile}`] : []),
    ...(args.log ? ["  request log   printed below as requests are answered"] : []),
    ...(stack ? [`  settings from ${stack.file} (its gitbook:apiUrl and gitbook:token, where the command line gives none)`] : []),
    ...(stackOrg && stackOrg !== organizationId
      ? [`  warning       ${stack!.file} sets gitbook:organizationId ${stackOrg}, which this emulator does not have: start it with the --seed or --state that file's comment gives, or set gitbook:organizationId ${organizationId}`]
      : []),
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

/** A JSON file the user named, or a UsageError naming the flag and the file. */
function readJson(flag: string, file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(`${flag} ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const ADMIN_COMMANDS = new Set(["edit", "delete", "export", "import"]);

export async function main(argv: string[]): Promise<void> {
  if (ADMIN_COMMANDS.has(argv[0] ?? "")) return admin(argv[0]!, argv.slice(1));
  let args: CliArgs | "help";
  let specs: FaultSpec[] = [];
  let state: unknown;
  let stack: StackEmulator | undefined;
  try {
    args = parseArgs(argv);
    if (args !== "help" && args.faultsFile) specs = readFaults(args.faultsFile);
    if (args !== "help" && args.stateFile) state = readJson("--state", args.stateFile);
    if (args !== "help") stack = stackSettings(args.stack);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageError(e, "start");
  }
  if (args === "help") {
    process.stdout.write(USAGE);
    return;
  }
  // In a program's folder, started where its stack expects it (the command line and
  // GITBOOK_EMULATOR_PORT come first).
  if (args.port < 0) args.port = (stack?.url ? portOf(stack.url) : undefined) ?? 0;
  if (args.token === undefined && stack?.token) args.token = stack.token;

  let emu: Emulator;
  try {
    emu = await Emulator.start({
      port: args.port,
      ...(args.token !== undefined && { token: args.token }),
      ...(args.seed !== undefined && { seed: args.seed }),
      ...(args.seedFile !== undefined && { seedFile: args.seedFile }),
      ...(state !== undefined && { state: state as EmulatorState }),
    });
  } catch (e) {
    // A seed file or state that cannot be used: every problem, by its path into the file; no stack.
    if (!(e instanceof SeedError) && !(e instanceof ApiError)) throw e;
    process.stderr.write(`${state !== undefined ? `--state ${args.stateFile}: ` : "--seed-file "}${e.message}\n`);
    process.exitCode = 2;
    return;
  }
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
  process.stdout.write(`${banner(emu, args, specs.length, stack)}\n`);

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

/** `edit|delete|export|import`: one request to a running emulator's /__emulator/ routes. */
async function admin(command: string, argv: string[]): Promise<void> {
  let url: string | undefined;
  let token: string | undefined;
  let stackName: string | undefined;
  const rest: string[] = [];
  try {
    for (let i = 0; i < argv.length; i++) {
      const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined];
      if (flag === "--url") url = inline ?? argv[++i];
      else if (flag === "--token") token = inline ?? argv[++i];
      else if (flag === "--stack") stackName = inline ?? argv[++i];
      else if (flag === "-h" || flag === "--help") {
        process.stdout.write(USAGE);
        return;
      } else rest.push(argv[i]!);
    }
    // As `pulumi up` in this folder reads them: the stack's settings, then the environment's.
    const stack = url && token ? undefined : stackSettings(stackName);
    url ??= stack?.url ?? (process.env.GITBOOK_API_URL || undefined);
    token ??= stack?.token ?? (process.env.GITBOOK_TOKEN || undefined);
    if (!url) throw new UsageError(`emulator ${command}: --url (or the stack's gitbook:apiUrl, or GITBOOK_API_URL) must name the running emulator, e.g. http://127.0.0.1:8080`);
    if (!token) throw new UsageError(`emulator ${command}: --token (or the stack's gitbook:token, or GITBOOK_TOKEN) must be the emulator's token`);
    const call = async (method: string, route: string, body?: unknown): Promise<unknown> => {
      const res = await fetch(`${url!.replace(/\/+$/, "")}/__emulator/${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      let json: { error?: { message?: string } } | undefined;
      try {
        json = text ? (JSON.parse(text) as { error?: { message?: string } }) : undefined;
      } catch {
        // Another server on that port: a JSON parser's stack would not say so.
        const type = res.headers.get("content-type")?.split(";")[0] ?? "without a content type";
        throw new Error(`${url} answered ${res.status} ${type}, not the emulator's JSON: is it the URL of the emulator (its banner's base URL)?`);
      }
      if (!res.ok) throw new Error(json?.error?.message ?? `${res.status} ${text.slice(0, 200)}`);
      return json;
    };
    switch (command) {
      case "edit": {
        const [kind, id, ...pairs] = rest;
        if (!kind || !id || pairs.length === 0) throw new UsageError("emulator edit: needs KIND ID FIELD=VALUE...");
        const set: Record<string, string> = {};
        for (const pair of pairs) {
          const at = pair.indexOf("=");
          if (at <= 0) throw new UsageError(`emulator edit: "${pair}" is not FIELD=VALUE`);
          set[pair.slice(0, at)] = pair.slice(at + 1);
        }
        process.stdout.write(`${JSON.stringify(await call("POST", "edit", { kind, id, set }), null, 2)}\n`);
        return;
      }
      case "delete": {
        const [kind, id, ...extra] = rest;
        if (!kind || !id || extra.length > 0) throw new UsageError("emulator delete: needs KIND ID");
        await call("POST", "delete", { kind, id });
        process.stdout.write(`deleted ${kind} ${id}\n`);
        return;
      }
      case "export": {
        if (rest.length > 1) throw new UsageError("emulator export: takes at most one FILE");
        const text = `${JSON.stringify(await call("GET", "state"), null, 2)}\n`;
        if (rest[0]) fs.writeFileSync(rest[0], text);
        else process.stdout.write(text);
        return;
      }
      case "import": {
        if (rest.length !== 1) throw new UsageError("emulator import: needs FILE (written by emulator export)");
        await call("PUT", "state", readJson("import", rest[0]!));
        process.stdout.write(`imported ${rest[0]}\n`);
        return;
      }
    }
  } catch (e) {
    if (e instanceof UsageError) return usageError(e, command);
    // What the emulator refused, nothing answering, a FILE that cannot be written: said once, under the command's name.
    const problem = e instanceof TypeError && e.message === "fetch failed" ? `no emulator answers at ${url}` : e instanceof Error ? e.message : String(e);
    process.stderr.write(`emulator ${command}: ${problem}\n`);
    process.exitCode = 1;
  }
}
