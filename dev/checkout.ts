// The checkout these development tools work in: found upwards, since they run both from the
// sources (vitest) and compiled from dist/ (bench, demo), at different depths.
import { execFileSync } from "node:child_process";
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

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=pulumi-gitbook tests", "-c", "user.email=tests@localhost", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();

/**
 * This checkout's sources as one commit of a new repository at `dir` (returned with the commit's
 * SHA): every file git tracks, as it is on disk, and every new file git does not ignore, so that a
 * test of a clone runs the code under test, uncommitted edits included. No node_modules, no dist/,
 * nothing ignored. When the working tree is clean, the commit holds the tree HEAD holds.
 */
export function sourceRepo(dir: string): { repo: string; sha: string } {
  const files = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0").filter(Boolean);
  fs.mkdirSync(dir, { recursive: true });
  for (const file of files) {
    const from = path.join(ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not committed yet
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.cpSync(from, path.join(dir, file), { verbatimSymlinks: true });
  }
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "the working tree under test");
  return { repo: dir, sha: git(dir, "rev-parse", "HEAD") };
}

/** A `git clone` of `repo` into `dest`: the checkout a user has right after cloning. */
export function cloneInto(repo: string, dest: string): string {
  git(path.dirname(dest), "clone", "-q", repo, dest);
  return dest;
}
