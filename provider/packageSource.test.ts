/**
 * The spec a written program names this package by (`pulumi-gitbook new` and `import` alike): a
 * checkout is named by its git URL when another machine can install that (so the program is ready to
 * commit), and by its path only when nothing else names what runs; a path outside the program is
 * pointed out before it is committed.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { gitSpec, installedSpec, specWarning } from "./packageSource";

/** A checkout with one commit; `pushed` records it on origin's main, as a fetch would. */
function checkout(origin: string | undefined, pushed: boolean): { dir: string; commit: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-spec-"));
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { encoding: "utf8" }).trim();
  git("init", "-q");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "pulumi-gitbook" }));
  git("add", "package.json");
  git("commit", "-q", "-m", "one");
  if (origin) git("remote", "add", "origin", origin);
  if (pushed) git("update-ref", "refs/remotes/origin/main", "HEAD");
  return { dir, commit: git("rev-parse", "HEAD") };
}

describe("a checkout's spec", () => {
  it("is its origin's git URL at the commit checked out, when origin is reachable from elsewhere and holds the commit", () => {
    const https = checkout("https://github.com/acme/pulumi-gitbook.git", true);
    expect(gitSpec(https.dir)).toBe(`git+https://github.com/acme/pulumi-gitbook.git#${https.commit}`);
    expect(installedSpec({ root: https.dir }, path.join(os.tmpdir(), "program"))?.spec).toBe(`git+https://github.com/acme/pulumi-gitbook.git#${https.commit}`);
    const scp = checkout("git@github.com:acme/pulumi-gitbook.git", true);
    expect(gitSpec(scp.dir)).toBe(`git+ssh://git@github.com/acme/pulumi-gitbook.git#${scp.commit}`);
    expect(specWarning(`git+ssh://git@github.com/acme/pulumi-gitbook.git#${scp.commit}`)).toBeUndefined();
  });

  it("is its path, with a warning, when no other machine could install what runs", () => {
    const cases = {
      "no origin": checkout(undefined, false),
      "an origin on this machine": checkout("/srv/git/pulumi-gitbook", true),
      "a commit origin does not have": checkout("https://github.com/acme/pulumi-gitbook.git", false),
    };
    const dirty = checkout("https://github.com/acme/pulumi-gitbook.git", true);
    fs.writeFileSync(path.join(dirty.dir, "package.json"), "{}");
    for (const [why, c] of Object.entries({ ...cases, "an uncommitted change": dirty })) {
      expect(gitSpec(c.dir), why).toBeUndefined();
      const spec = installedSpec({ root: c.dir }, path.join(path.dirname(c.dir), "program"))!.spec;
      expect(spec, why).toBe(`file:../${path.basename(c.dir)}`);
      expect(specWarning(spec), why).toMatch(/^package\.json names pulumi-gitbook by a path on this machine outside the program \(file:\.\.\/gitbook-spec-\w+\)/);
    }
    // A tarball kept inside the program is committed with it.
    expect(specWarning("file:./pulumi-gitbook-0.1.0.tgz")).toBeUndefined();
  });
});
