/**
 * A new user's TypeScript program, as `pulumi new typescript` lays it out (Pulumi.yaml, package.json,
 * the template's tsconfig.json, index.ts), with this package installed from a tarball, a checkout or
 * a git URL. Installing
 * needs no network: the program's package-lock.json pins each package at the version and integrity
 * this checkout's own lock holds, so npm takes every tarball from its cache (which `npm ci` here
 * filled) and asks the registry nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./checkout";

// pulumi/templates' typescript tsconfig.json, stated once where `pulumi-gitbook new` writes it.
import { TEMPLATE_TSCONFIG } from "../bin/new";

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [k: string]: unknown;
}

/**
 * The lock entries a program needs for `roots` (package names a program depends on), taken from
 * this checkout's package-lock.json with their nesting, found as Node.js resolves a name.
 */
function lockClosure(roots: string[]): Record<string, LockEntry> {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const all = lock.packages;
  const out: Record<string, LockEntry> = {};
  const resolve = (from: string, name: string): string | undefined => {
    let dir = from;
    for (;;) {
      const at = `${dir ? `${dir}/` : ""}node_modules/${name}`;
      if (all[at]) return at;
      if (!dir) return undefined;
      const cut = dir.lastIndexOf("node_modules/");
      dir = cut <= 0 ? "" : dir.slice(0, cut - 1);
    }
  };
  const visit = (from: string, name: string, optional: boolean) => {
    const at = resolve(from, name);
    if (!at) {
      if (optional) return;
      throw new Error(`package-lock.json has no ${name} for ${from || "the root"}`);
    }
    if (out[at]) return;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = all[at]!;
    out[at] = entry;
    for (const d of Object.keys(entry.dependencies ?? {})) visit(at, d, false);
    for (const d of Object.keys(entry.optionalDependencies ?? {})) visit(at, d, true);
    for (const d of Object.keys(entry.peerDependencies ?? {})) visit(at, d, !!entry.peerDependenciesMeta?.[d]?.optional);
  };
  for (const r of roots) visit("", r, false);
  return out;
}

export interface FreshProgram {
  dir: string;
  packageJson: { name: string; main: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
}

/**
 * Writes the program into `dir` (index.ts as given) and its package-lock.json, with this package
 * from `source`: an absolute path (`npm pack`'s tarball, or a checkout), written as a `file:` spec
 * relative to the program as npm writes one, or a git URL (locked at `opts.gitCommit`).
 * `npm install --offline` then installs it.
 */
export function writeFreshProgram(dir: string, source: string, indexTs: string, opts: { name?: string; gitCommit?: string } = {}): FreshProgram {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string };
  const name = opts.name ?? "fresh-program";
  // The template's package.json; versions are those this checkout tests with.
  const at = (n: string) => (lockClosure([n])[`node_modules/${n}`]!.version as string);
  const spec = path.isAbsolute(source) ? `file:${path.relative(dir, source)}` : source;
  const packageJson = {
    name,
    main: "index.ts",
    devDependencies: { "@types/node": `^${at("@types/node")}`, typescript: `^${at("typescript")}` },
    dependencies: { "@pulumi/pulumi": `^${at("@pulumi/pulumi")}`, [pkg.name]: spec },
  };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(packageJson, null, 4) + "\n");
  writeOfflineLock(dir, packageJson, { gitCommit: opts.gitCommit });
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(TEMPLATE_TSCONFIG, null, 4) + "\n");
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\ndescription: A new TypeScript program using pulumi-gitbook\nruntime:\n  name: nodejs\n  options:\n    packagemanager: npm\n`);
  fs.writeFileSync(path.join(dir, "index.ts"), indexTs);
  return { dir, packageJson };
}

/**
 * The package-lock.json that lets `npm install --offline` install `packageJson` (a program depending
 * on @pulumi/pulumi, typescript, @types/node and this package): each package pinned at the version
 * and integrity this checkout's lock holds, which npm's cache has. This package is named by any spec
 * the README offers, each locked as npm locks it: a tarball (`file:x.tgz`), a checkout (`file:dir`, a
 * link whose target's own entry lists its dependencies, which npm does not install there), or a git
 * URL (`git+...`, resolved at `gitCommit`; npm clones it, offline, and prepares it in the clone).
 */
export function writeOfflineLock(
  dir: string,
  packageJson: { name: string; dependencies: Record<string, string>; devDependencies: Record<string, string> },
  opts: { gitCommit?: string } = {},
): void {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    license?: string;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    engines?: Record<string, string>;
    bin?: Record<string, string>;
  };
  const spec = packageJson.dependencies[pkg.name];
  const manifest = {
    version: pkg.version,
    dependencies: pkg.dependencies,
    peerDependencies: pkg.peerDependencies,
    ...(pkg.engines ? { engines: pkg.engines } : {}),
    ...(pkg.bin ? { bin: pkg.bin } : {}),
  };
  let own: Record<string, LockEntry>;
  if (spec?.startsWith("file:") && /\.t(ar\.)?gz$/.test(spec)) {
    own = { [`node_modules/${pkg.name}`]: { ...manifest, resolved: spec } };
  } else if (spec?.startsWith("file:")) {
    const target = spec.slice("file:".length);
    own = {
      [`node_modules/${pkg.name}`]: { resolved: target, link: true },
      [target]: { name: pkg.name, ...manifest, license: pkg.license, devDependencies: pkg.devDependencies },
    };
  } else if (spec?.startsWith("git+")) {
    if (!opts.gitCommit) throw new Error(`${dir}/package.json names ${pkg.name} by the git URL ${spec}: pass the commit npm is to lock (gitCommit)`);
    own = { [`node_modules/${pkg.name}`]: { ...manifest, resolved: `${spec.replace(/#.*$/, "")}#${opts.gitCommit}` } };
  } else {
    throw new Error(`${dir}/package.json names ${pkg.name} by ${spec}, not a tarball, checkout or git URL`);
  }
  const { name } = packageJson;
  const packages: Record<string, LockEntry> = {
    "": { name, dependencies: packageJson.dependencies, devDependencies: packageJson.devDependencies },
    ...lockClosure(["@pulumi/pulumi", "typescript", "@types/node", ...Object.keys(pkg.dependencies)]),
    ...own,
  };
  fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify({ name, lockfileVersion: 3, requires: true, packages }, null, 2) + "\n");
}
