/**
 * Vitest's globalSetup: counts the `pulumi` processes the tests start. Every place that spawns one
 * (dev/pulumiCli.ts's countPulumi, and test/support/countedPulumi.sh, the PULUMI_CLI of the processes
 * the tests start that run `pulumi` themselves, recover) appends a line naming its subcommand to a file
 * of its own process under the folder set here, which the forked workers inherit; the teardown prints
 * the totals. An engine operation is an up, preview, refresh or destroy; the rest (stack init, export,
 * import, output, cancel, config, whoami) is "other".
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** `pulumi processes: up N, preview N, refresh N, destroy N, other N` of the lines under `dir`. */
export function tally(dir: string): string {
  const n: Record<string, number> = { up: 0, preview: 0, refresh: 0, destroy: 0, other: 0 };
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    for (const line of fs.readFileSync(path.join(dir, f), "utf8").split("\n")) {
      if (!line) continue;
      n[line in n && line !== "other" ? line : "other"]!++;
    }
  }
  return `pulumi processes: ${Object.entries(n).map(([k, v]) => `${k} ${v}`).join(", ")}`;
}

export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-gitbook-count-"));
  process.env.GITBOOK_TEST_PULUMI_COUNT = dir;
  return () => {
    console.log(tally(dir));
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
