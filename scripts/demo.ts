/**
 * `npm run demo`: the main example (examples/docs-site, project file ./Pulumi.yaml) end to end
 * against the bundled GitBook API emulator: preview, up, a no-op re-run, a change, refresh after an
 * edit made "in the GitBook app", destroy. Before each step it says what the step changes and why;
 * after it, what the plan holds (values changed as old => new), what reached the API and what the
 * emulator holds. `--verbose` prints the CLI's whole output as well. By default the whole run prints
 * at most DEMO_LINE_BUDGET lines: each step at most STEP_LINES.
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
import { ROOT } from "../dev/checkout";
import { CLI_BIN, cliMissing, cliStale, createCliStack } from "../dev/pulumiCli";
import { exampleConfig } from "../dev/example";
import type { Op, Step } from "../dev/report";

const STACK = process.env.DEMO_STACK ?? "dev";

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

/** The stack's title (examples/docs-site/Pulumi.<stack>.yaml), and the one the change sets. */
const TITLE = /^\s+docs-site:title:\s*(.+)$/m.exec(fs.readFileSync(path.join(ROOT, `examples/docs-site/Pulumi.${STACK}.yaml`), "utf8"))?.[1] ?? "its title";
const NEW_TITLE = "Acme Developer Docs, second edition";
const EDITED = "Renamed by hand";
const CHANGE = { "docs-site:title": NEW_TITLE };

export interface Phase {
  title: string;
  /** What the step changes, and why the demo takes it. */
  says: string;
  op: Op;
  config?: Record<string, string>;
  before?: (emu: Emulator) => void;
}

export const PHASES: Phase[] = [
  { title: "1. Preview", says: "Changes nothing: `pulumi preview --diff` plans what `up` would create, and sends no write.", op: "preview" },
  { title: "2. Up", says: "Creates what the program declares: a site with its sections, site spaces and share link, a space, a team and its access, an OpenAPI spec.", op: "up" },
  { title: "3. Up again, unchanged", says: "Changes nothing: program and GitBook agree, so a second `up` sends no request at all.", op: "up" },
  {
    title: "4. Preview a change",
    says: `A pull request would change the stack's config docs-site:title from "${TITLE}" to "${NEW_TITLE}": the plan shows the old and the new value.`,
    op: "preview",
    config: CHANGE,
  },
  { title: "5. Up: apply it", says: "Sends that one change: one PATCH of the site's title.", op: "up", config: CHANGE },
  {
    title: "6. Refresh after an edit in the app",
    says: `Someone renames the site to "${EDITED}" in the GitBook app (the emulator's edit); \`pulumi refresh\` reads GitBook and records the drift, old => new.`,
    op: "refresh",
    config: CHANGE,
    before: (emu) => {
      for (const id of emu.store.sites.keys()) emu.edit("site", id, { title: EDITED });
    },
  },
  { title: "7. Up: converge", says: "Puts back what the program declares: one PATCH restores the title.", op: "up", config: CHANGE },
  { title: "8. Destroy", says: "Deletes everything the stack made; the organization's own spaces stay.", op: "destroy", config: CHANGE },
];

/** The most lines one step prints by default (its title and what it says included). */
export const STEP_LINES = 12;
/** The most lines the whole demo prints by default: the steps, a blank line before each, and seven around them. */
export const DEMO_LINE_BUDGET = PHASES.length * (STEP_LINES + 1) + 7;

/** What a run did, as much of it as the summary reads. */
export interface RunView {
  op: Op;
  steps: Step[];
  stdout: string;
  error?: string;
}

const KIND = /gitbook:(\w+)$/;

/** `text` in lines of at most 100 characters, each indented by two spaces. */
function wrap(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + word.length + 1 <= 100) lines[last] += ` ${word}`;
    else lines.push(`  ${word}`);
  }
  return lines;
}

/**
 * A step's lines for the default output: what it says, the plan's totals, its steps by kind (or each
 * changed resource), every value it changes as old => new, and `extra` (traffic, inventory), cut to
 * STEP_LINES with a pointer to --verbose.
 */
export function summarize(phase: Phase, run: RunView, extra: string[]): string[] {
  const lines = [bold(phase.title), ...wrap(phase.says)];
  const out = run.stdout.split("\n");
  const at = out.findIndex((l) => /^Resources:\s*$/.test(l));
  const totals = at < 0 ? [] : out.slice(at + 1).filter((l) => /^\s+\S/.test(l)).map((l) => l.trim());
  if (totals.length) lines.push(`  Plan: ${totals.join(", ")}`);
  const changed = run.steps.filter((s) => s.op !== "same" && KIND.test(s.type));
  if (changed.length > 3) {
    // Many steps: how many of each kind, per operation.
    const byOp = new Map<string, Map<string, number>>();
    for (const s of changed) {
      const kinds = byOp.get(s.op) ?? byOp.set(s.op, new Map()).get(s.op)!;
      const kind = KIND.exec(s.type)![1]!;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    for (const [op, kinds] of byOp) lines.push(...wrap(`${op}: ${[...kinds].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(", ")}`));
  } else for (const s of changed) lines.push(`  ${s.op} ${KIND.exec(s.type)![1]} ${s.name}${s.changed?.length ? `: ${s.changed.join(", ")}` : ""}`);
  // The changed fields' values, as the CLI's --diff prints them (`~ title: "a" => "b"`); what
  // repeats them for reviewers (`names`, `navigation`) is left to --verbose.
  const fields = new Set(changed.flatMap((s) => s.changed ?? []));
  const value = /^\s+~ ([\w.]+)\s*: .* => /;
  const values = [...new Set(out.filter((l) => fields.has(value.exec(l)?.[1] ?? "")).map((l) => `  ${l.trim().replace(/\s+:/, ":")}`))];
  lines.push(...values.slice(0, 3));
  if (run.error) lines.push(`  error: ${run.error.split("\n")[0]}`);
  const tail = extra.map((l) => `  ${l}`);
  if (lines.length + tail.length > STEP_LINES) lines.splice(STEP_LINES - tail.length - 1, Infinity, "  ... (npm run demo -- --verbose prints it all)");
  return [...lines, ...tail];
}

function inventory(emu: Emulator): string {
  const s = emu.store;
  const n = (m: Map<string, unknown>) => m.size;
  return `On the emulator: sites ${n(s.sites)}, sections ${n(s.sections)}, site spaces ${n(s.siteSpaces)}, share links ${n(s.shareLinks)}, teams ${n(s.teams)}, OpenAPI specs ${n(s.openApiSpecs)}`;
}

function traffic(emu: Emulator): string {
  const byMethod: Record<string, number> = {};
  for (const e of emu.log.entries) byMethod[e.method] = (byMethod[e.method] ?? 0) + 1;
  const parts = Object.entries(byMethod).map(([m, c]) => `${m} ${c}`);
  const n = emu.log.entries.length;
  return `API requests: ${parts.length ? `${n} (${parts.join(", ")})` : "none"}`;
}

const onPath = (cmd: string) => spawnSync(cmd, ["version"], { encoding: "utf8" }).status === 0;

/** The CLI the demo runs: built here (building it when Go is installed), or the user's own. */
function findCli(): string | undefined {
  // A build from older sources is rebuilt below (cliMissing throws on it).
  if (!cliStale() && !cliMissing()) return `the Pulumi CLI built by npm run pulumi-cli (${path.relative(ROOT, CLI_BIN)})`;
  if (spawnSync("go", ["version"]).status === 0) {
    console.log("Building the Pulumi CLI from Go modules first (once; npm run pulumi-cli):");
    if (spawnSync("bash", [path.join(ROOT, "scripts/pulumi-cli.sh")], { stdio: "inherit" }).status !== 0) throw new Error("building the Pulumi CLI failed (above)");
    return `the Pulumi CLI built by npm run pulumi-cli (${path.relative(ROOT, CLI_BIN)})`;
  }
  if (onPath("pulumi")) return "the Pulumi CLI on PATH";
  return undefined;
}

async function withCli(emu: Emulator, base: Record<string, string>, verbose: boolean): Promise<boolean> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-demo-"));
  const stack = await createCliStack(work, ROOT, STACK);
  for (const phase of PHASES) {
    console.log("");
    phase.before?.(emu);
    emu.log.reset();
    const r = await stack.run(phase.op, { ...base, ...phase.config }, { flags: phase.op === "destroy" ? [] : ["--diff"] });
    const lines = summarize(phase, r, [traffic(emu), inventory(emu)]);
    if (verbose) console.log([lines[0], lines[1], r.stdout.trimEnd(), ...lines.slice(2)].join("\n"));
    else console.log(lines.join("\n"));
    if (r.code !== 0) return false;
  }
  console.log(`\nThe stack's state (a local file backend) and its config are in ${work}`);
  return true;
}

async function main(argv: string[]): Promise<number> {
  const verbose = argv.includes("--verbose");
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
    const ok = await withCli(emu, base, verbose);
    console.log(ok ? `\n${bold("Demo finished.")} Next: \`npm test\`, or a program of your own: \`npx pulumi-gitbook new ../my-docs\`.` : `\n${bold("Demo stopped on an error (above).")}`);
    return ok ? 0 : 1;
  } finally {
    await emu.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
