// Standalone runner: node dist/emulator/cli.js [--port N] [--latency MS] [--token T] [--seed N]
import { Emulator } from "./emulator";

interface CliArgs {
  port: number;
  latencyMs?: number;
  token?: string;
  seed?: number;
}

function usage(message?: string): never {
  if (message) process.stderr.write(`${message}\n`);
  process.stderr.write(
    "usage: node dist/emulator/cli.js [--port N] [--latency MS] [--token T] [--seed N]\n" +
      "  --port     listen port (default: $GITBOOK_EMULATOR_PORT, else 0 = any free port)\n" +
      "  --latency  latency added to every request, in milliseconds\n" +
      "  --token    bearer token to accept (default: random)\n" +
      "  --seed     PRNG seed for ids and faults\n",
  );
  process.exit(message ? 2 : 0);
}

function parseArgs(argv: string[]): CliArgs {
  const num = (flag: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || v.trim() === "" || !Number.isInteger(n) || n < 0) usage(`${flag} needs a non-negative integer`);
    return n;
  };
  const args: CliArgs = { port: process.env.GITBOOK_EMULATOR_PORT ? num("GITBOOK_EMULATOR_PORT", process.env.GITBOOK_EMULATOR_PORT) : 0 };
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
      case "--token": {
        const t = value();
        if (!t) usage("--token needs a value");
        args.token = t;
        break;
      }
      case "--seed":
        args.seed = num(flag, value());
        break;
      case "-h":
      case "--help":
        usage();
      // falls through (usage exits)
      default:
        usage(`unknown argument: ${argv[i]}`);
    }
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const emu = await Emulator.start({
    port: args.port,
    ...(args.token !== undefined && { token: args.token }),
    ...(args.seed !== undefined && { seed: args.seed }),
  });
  if (args.latencyMs) emu.faults.add({ latencyMs: args.latencyMs });

  const { organizationId, spaceIds, members } = emu.seeded;
  const lines = [
    "GitBook API emulator is running",
    `  base URL      ${emu.url}  (routes under /v1)`,
    `  token         ${emu.token}`,
    `  organization  ${organizationId}`,
    "  spaces",
    ...spaceIds.map((id) => `    ${id}  ${emu.store.spaces.get(id)?.title ?? ""}`),
    "  members",
    ...members.map((m) => `    ${m.id}  ${m.email}  (${emu.store.members.get(m.id)?.role ?? "guest"})`),
    ...(args.latencyMs ? [`  latency       ${args.latencyMs} ms on every request`] : []),
    "",
    "Paste into a shell:",
    `export GITBOOK_API_URL=${emu.url} GITBOOK_TOKEN=${emu.token} GITBOOK_ORGANIZATION_ID=${organizationId}`,
    "",
    "Ctrl-C to stop.",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);

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

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
