/**
 * `node dist/dev/harness/cli.js <preview|up|refresh|destroy> --program <dir> --stack <name>`
 *
 * Runs a Pulumi program without the Pulumi CLI (see engine.ts) and prints the plan or what happened
 * the way `pulumi` does. Secret config (the token) comes from the environment variable
 * HARNESS_CONFIG as JSON, never from the command line. `--report <file>` writes the run as JSON.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { run, type Op, type RunReport, type Step } from "./engine";
import { linkPackage, runOptionsFor } from "./project";

const SYMBOL: Record<Step["op"], string> = {
  create: "+",
  update: "~",
  replace: "+-",
  delete: "-",
  same: " ",
  refresh: "~",
  "read-gone": "-",
};

function formatReport(r: RunReport, stack: string): string {
  const lines: string[] = [];
  const verb = r.op === "preview" ? "Previewing update" : r.op === "up" ? "Updating" : r.op === "refresh" ? "Refreshing" : "Destroying";
  lines.push(`${verb} (${stack}):`);
  const counts: Record<string, number> = {};
  for (const s of r.steps) {
    counts[s.op] = (counts[s.op] ?? 0) + 1;
    if (s.op === "same") continue;
    const type = s.type.replace(/^pulumi-nodejs:dynamic\//, "");
    const what = s.op === "read-gone" ? "deleted outside Pulumi (dropped from state)" : s.op === "refresh" ? "drifted" : s.op;
    const fields = s.replaces?.length ? ` [replace: ${s.replaces.join(", ")}]${s.changed?.length ? ` [diff: ${s.changed.join(", ")}]` : ""}` : s.changed?.length ? ` [diff: ${s.changed.join(", ")}]` : "";
    lines.push(`  ${SYMBOL[s.op].padEnd(2)} ${type.padEnd(22)} ${s.name.padEnd(28)} ${what}${fields}`);
  }
  for (const f of r.checkFailures ?? []) lines.push(`  error: ${f.urn.split("::").pop()}: ${f.reason}`);
  const summary = Object.entries(counts)
    .map(([op, n]) => `${n} ${op === "same" ? "unchanged" : op === "read-gone" ? "gone" : op}`)
    .join(", ");
  lines.push(`Resources: ${summary || "none"}`);
  if (r.error && r.failed) {
    // As the CLI shows a failed provider call: under the resource it belongs to.
    const type = r.failed.type.replace(/^pulumi-nodejs:dynamic\//, "");
    const [first, ...rest] = r.error.split("\n");
    lines.push("Diagnostics:", `  ${type} (${r.failed.name}):`, `    error: ${first}`, ...rest.map((l) => `    ${l}`));
  } else if (r.error) lines.push(`error: ${r.error}`);
  return lines.join("\n");
}

async function main(argv: string[]): Promise<number> {
  const op = argv[0] as Op;
  if (!["preview", "up", "refresh", "destroy"].includes(op)) {
    console.error("usage: cli.js <preview|up|refresh|destroy> --program <dir> --stack <name> [--state <file>] [--report <file>] [--host-log <file>] [--parallel N] [--package <dir>]");
    return 2;
  }
  const flag = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dir = path.resolve(flag("program") ?? ".");
  const stack = flag("stack") ?? "dev";
  // The package the program's node_modules links to: this checkout unless a test supplies a copy.
  const packageRoot = path.resolve(flag("package") ?? path.resolve(__dirname, "../../.."));
  linkPackage(dir, packageRoot);
  const extra = process.env.HARNESS_CONFIG ? (JSON.parse(process.env.HARNESS_CONFIG) as Record<string, string>) : {};
  const state = flag("state");
  const hostLog = flag("host-log");
  const opts = runOptionsFor(dir, stack, op, {
    config: extra,
    ...(state ? { statePath: path.resolve(state) } : {}),
    ...(hostLog ? { hostLog: path.resolve(hostLog) } : {}),
  });
  const parallel = flag("parallel");
  if (parallel) opts.parallel = Number(parallel);
  const report = await run(opts);
  if (!argv.includes("--quiet")) console.log(formatReport(report, stack));
  const reportFile = flag("report");
  if (reportFile) fs.writeFileSync(reportFile, JSON.stringify(report, null, 2));
  return report.error ? 1 : 0;
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
