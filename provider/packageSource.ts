/**
 * Where the running copy of this package came from, as a dependency spec for a program this package
 * writes (`pulumi-gitbook new`, `pulumi-gitbook import`): the package is not on the npm registry, so a
 * program must name the checkout, tarball or git URL the user installed it from.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export interface OwnPackage {
  root: string;
  name: string;
  version: string;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** This package's root and package.json (found upwards: it runs from dist/bin/). */
export function ownPackage(from = __dirname): OwnPackage {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as Omit<OwnPackage, "root">;
      if (pkg.name === "pulumi-gitbook") return { ...pkg, root: dir };
    }
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-gitbook package.json above ${from}`);
  }
}

/** A path spec (`file:x`, `./x.tgz`, `/abs/checkout`) made relative to the new program; other specs as given. */
export function specFor(spec: string, base: string, target: string): string {
  const raw = spec.startsWith("file:") ? spec.slice("file:".length) : spec;
  const isPath = spec.startsWith("file:") || raw.startsWith(".") || path.isAbsolute(raw) || /\.t(ar\.)?gz$/.test(raw);
  if (!isPath) return spec;
  const rel = path.relative(target, path.resolve(base, raw)) || ".";
  return `file:${rel.startsWith(".") ? rel : `./${rel}`}`.split(path.sep).join("/");
}

/**
 * A checkout as a spec another machine (a teammate, CI) can install: its `origin` remote at the commit
 * checked out, when that remote is not a path on this machine, already holds the commit, and the
 * checkout has no uncommitted change. Otherwise undefined: only the checkout's path names what runs.
 */
export function gitSpec(checkout: string): string | undefined {
  const git = (...args: string[]) => {
    try {
      return execFileSync("git", ["-C", checkout, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      return undefined;
    }
  };
  const url = git("remote", "get-url", "origin");
  // git@host:owner/repo.git, as npm takes it: git+ssh://git@host/owner/repo.git.
  const scp = url && /^([\w.-]+@[\w.-]+):(?!\/\/)(.+)$/.exec(url);
  const remote = scp ? `ssh://${scp[1]}/${scp[2]}` : url;
  if (!remote || !/^(https|ssh|git):\/\//.test(remote)) return undefined;
  const commit = git("rev-parse", "HEAD");
  if (!commit || !git("branch", "-r", "--contains", commit) || git("status", "--porcelain", "--untracked-files=no") !== "") return undefined;
  return `git+${remote}#${commit}`;
}

/**
 * Where the running copy came from, as a spec for the new program's package.json. A copy outside any
 * node_modules is a checkout (or a link to one): its git URL when others can install from it
 * (gitSpec), else its path; a copy in a program's node_modules came from what npm recorded in that
 * program's lock (`resolved`).
 */
export function installedSpec(pkg: Pick<OwnPackage, "root">, target: string): { spec: string; from: string } | undefined {
  const real = fs.realpathSync(pkg.root);
  const at = real.split(path.sep).lastIndexOf("node_modules");
  if (at < 0) {
    const git = gitSpec(real);
    return git ? { spec: git, from: `the checkout ${real}, as its origin remote has it` } : { spec: specFor(real, real, target), from: `the checkout ${real}` };
  }
  const project = real.split(path.sep).slice(0, at).join(path.sep) || path.sep;
  const key = path.relative(project, real).split(path.sep).join("/");
  for (const lock of ["node_modules/.package-lock.json", "package-lock.json", "npm-shrinkwrap.json"]) {
    const file = path.join(project, lock);
    if (!fs.existsSync(file)) continue;
    const entry = (JSON.parse(fs.readFileSync(file, "utf8")) as { packages?: Record<string, { resolved?: string }> }).packages?.[key];
    if (entry?.resolved) return { spec: specFor(entry.resolved, project, target), from: `${file} (${entry.resolved})` };
  }
  return undefined;
}

/** What a program naming the package by `spec` needs before it is committed, if anything. */
export function specWarning(spec: string): string | undefined {
  return /^file:(\.\.|\/)/.test(spec)
    ? `package.json names pulumi-gitbook by a path on this machine outside the program (${spec}), which a teammate or CI does not have: before committing, name a git URL or a tarball they can reach (--package <spec>), or push the checkout's commit to its origin remote and run this again.`
    : undefined;
}

