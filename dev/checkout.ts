// The checkout these development tools work in: found upwards, since they run both from the
// sources (vitest) and compiled from dist/ (bench, demo), at different depths.
import * as fs from "node:fs";
import * as path from "node:path";

export const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "tools/pulumi-cli/go.mod"))) {
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-gitbook checkout above ${__dirname}`);
    dir = path.dirname(dir);
  }
  return dir;
})();
