/**
 * Prints the line coverage of provider/ and emulator/ from the json-summary vitest's coverage wrote
 * (`npm run coverage`), one line each: v8 gives it per file, and the figures are per folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "../..");
const summary = JSON.parse(fs.readFileSync(path.join(root, "coverage/coverage-summary.json"), "utf8")) as Record<string, { lines: { total: number; covered: number } }>;
for (const folder of ["provider", "emulator"]) {
  let total = 0;
  let covered = 0;
  for (const [file, s] of Object.entries(summary)) {
    if (!path.relative(root, file).startsWith(`${folder}${path.sep}`)) continue;
    total += s.lines.total;
    covered += s.lines.covered;
  }
  console.log(`${folder}/: ${((100 * covered) / total).toFixed(2)} % of ${total} lines`);
}
