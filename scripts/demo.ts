/**
 * `npm run demo`: the main example (examples/docs-site, project file ./Pulumi.yaml) end to end
 * against the bundled GitBook API emulator: preview, up, a no-op re-run, a change, refresh after an
 * edit made "in the GitBook app", destroy. After each step it prints the plan and what reached the
 * API.
 *
 * It runs the real Pulumi CLI with a local file backend: the one `npm run pulumi-cli` builds (built
 * here first when Go is installed), else a `pulumi` on PATH. It says which, and stops with a non-zero
 * exit code at the first step that fails.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Emulator } from "../emulator";
import { CLI_BIN, cliMissing, createCliStack } from "../dev/pulumiCli";
import { exampleConfig } from "../dev/example";

const ROOT = path.resolve(__dirname, "../..");
const STACK = process.env.DEMO_STACK ?? "dev";

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

function inventory(emu: Emulator): string {
  const s = emu.store;
  const n = (m: Map<string, unknown>) => m.size;
  return `sites ${n(s.sites)}, sections ${n(s.sections)}, site spaces ${n(s.siteSpaces)}, share links ${n(s.shareLinks)}, teams ${n(s.teams)}, SAML providers ${n(s.samlProviders)}, OpenAPI specs ${n(s.openApiSpecs)}`;
}

function traffic(emu: Emulator): string {
  const byMethod: Record<string, number> = {};
  for (const e of emu.log.entries) byMethod[e.method] = (byMethod[e.method] ?? 0) + 1;
  const parts = Object.entries(byMethod).map(([m, c]) => `${m} ${c}`);
  const n = emu.log.entries.length;
  return parts.length ? `${n} request${n === 1 ? "" : "s"} (${parts.join(", ")})` : "0 requests";
}

const onPath = (cmd: string) => spawnSync(cmd, ["version"], { encoding: "utf8" }).status === 0;

/** The CLI the demo runs: built here (building it when Go is installed), or the user's own. */
function findCli(): string | undefined {
  if (!cliMissing()) return `the Pulumi CLI built by npm run pulumi-cli (${path.relative(ROOT, CLI_BIN)})`;
  if (spawnSync("go", ["version"]).status === 0) {
    console.log("Building the Pulumi CLI from Go modules first (once; npm run pulumi-cli):");
    if (spawnSync("bash", [path.join(ROOT, "scripts/pulumi-cli.sh")], { stdio: "inherit" }).status !== 0) throw new Error("building the Pulumi CLI failed (above)");
    return `the Pulumi CLI built by npm run pulumi-cli (${path.relative(ROOT, CLI_BIN)})`;
  }
  if (onPath("pulumi")) return "the Pulumi CLI on PATH";
  return undefined;
}

interface Phase {
  title: string;
  op: "preview" | "up" | "refresh" | "destroy";
  config?: Record<string, string>;
  before?: (emu: Emulator) => void;
}

const CHANGE = { "docs-site:title": "Acme Developer Docs, second edition" };

const PHASES: Phase[] = [
  { title: "1. Preview: what `pulumi up` would do (nothing is sent to the API)", op: "preview" },
  { title: "2. Up: create everything", op: "up" },
  { title: "3. Up again, unchanged: a no-op that sends nothing", op: "up" },
  { title: "4. Preview a change to the site title", op: "preview", config: CHANGE },
  { title: "5. Up: apply it (one PATCH)", op: "up", config: CHANGE },
  {
    title: "6. Refresh after someone renames the site in the GitBook app: drift is shown",
    op: "refresh",
    config: CHANGE,
    before: (emu) => {
      for (const site of emu.store.sites.values()) site.title = "Renamed by hand";
    },
  },
  { title: "7. Up: converge the drift back to the program", op: "up", config: CHANGE },
  { title: "8. Destroy: remove everything", op: "destroy", config: CHANGE },
];

async function withCli(emu: Emulator, base: Record<string, string>): Promise<boolean> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-demo-"));
  const stack = await createCliStack(work, ROOT, STACK);
  for (const phase of PHASES) {
    console.log(`\n${bold(phase.title)}`);
    phase.before?.(emu);
    emu.log.reset();
    const r = await stack.run(phase.op, { ...base, ...phase.config }, { flags: phase.op === "preview" ? ["--diff"] : [] });
    console.log(r.stdout.trimEnd());
    console.log(`  API traffic: ${traffic(emu)}`);
    console.log(`  On the emulator: ${inventory(emu)}`);
    if (r.code !== 0) return false;
  }
  console.log(`\nThe stack's state (a local file backend) and its config are in ${work}`);
  return true;
}

async function main(): Promise<number> {
  const emu = await Emulator.start({ openApiProcessingReads: 1 });
  try {
    console.log(bold("pulumi-gitbook demo"));
    console.log(`GitBook API emulator at ${emu.url} (organization ${emu.seeded.organizationId}), stack "${STACK}".`);
    const base = exampleConfig(emu);
    const cli = findCli();
    if (!cli) {
      console.error("No Pulumi CLI: install Go 1.26+ (then npm run demo builds one), or install Pulumi (https://www.pulumi.com/docs/install/).");
      return 1;
    }
    console.log(`Engine: ${cli}, with a local file backend.`);
    const ok = await withCli(emu, base);
    console.log(ok ? `\n${bold("Demo finished.")} Next: \`npm test\`.` : `\n${bold("Demo stopped on an error (above).")}`);
    return ok ? 0 : 1;
  } finally {
    await emu.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
