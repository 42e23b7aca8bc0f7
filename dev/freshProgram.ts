/**
 * A new user's TypeScript program, as `pulumi new typescript` lays it out (Pulumi.yaml, package.json,
 * the template's tsconfig.json, index.ts), with this package installed from a tarball. Installing
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
 * Writes the program into `dir` (index.ts as given) and its package-lock.json, with `tarball` (the
 * packed package, `npm pack`'s file) as a dependency. `npm install --offline` then installs it.
 */
export function writeFreshProgram(dir: string, tarball: string, indexTs: string, opts: { name?: string } = {}): FreshProgram {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string };
  const name = opts.name ?? "fresh-program";
  // The template's package.json; versions are those this checkout tests with.
  const at = (n: string) => (lockClosure([n])[`node_modules/${n}`]!.version as string);
  const tarballSpec = `file:${path.relative(dir, tarball)}`;
  const packageJson = {
    name,
    main: "index.ts",
    devDependencies: { "@types/node": `^${at("@types/node")}`, typescript: `^${at("typescript")}` },
    dependencies: { "@pulumi/pulumi": `^${at("@pulumi/pulumi")}`, [pkg.name]: tarballSpec },
  };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(packageJson, null, 4) + "\n");
  writeOfflineLock(dir, packageJson);
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(TEMPLATE_TSCONFIG, null, 4) + "\n");
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\ndescription: A new TypeScript program using pulumi-gitbook\nruntime:\n  name: nodejs\n  options:\n    packagemanager: npm\n`);
  fs.writeFileSync(path.join(dir, "index.ts"), indexTs);
  return { dir, packageJson };
}

/**
 * The package-lock.json that lets `npm install --offline` install `packageJson` (a program depending
 * on @pulumi/pulumi, typescript, @types/node and this package by a `file:` tarball spec): each package
 * pinned at the version and integrity this checkout's lock holds, which npm's cache has.
 */
export function writeOfflineLock(dir: string, packageJson: { name: string; dependencies: Record<string, string>; devDependencies: Record<string, string> }): void {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    engines?: Record<string, string>;
    bin?: Record<string, string>;
  };
  const tarballSpec = packageJson.dependencies[pkg.name];
  if (!tarballSpec?.startsWith("file:")) throw new Error(`${dir}/package.json names ${pkg.name} by ${tarballSpec}, not a file: tarball spec`);
  const { name } = packageJson;
  const packages: Record<string, LockEntry> = {
    "": { name, dependencies: packageJson.dependencies, devDependencies: packageJson.devDependencies },
    ...lockClosure(["@pulumi/pulumi", "typescript", "@types/node", ...Object.keys(pkg.dependencies)]),
    [`node_modules/${pkg.name}`]: {
      version: pkg.version,
      resolved: tarballSpec,
      dependencies: pkg.dependencies,
      peerDependencies: pkg.peerDependencies,
      ...(pkg.engines ? { engines: pkg.engines } : {}),
      ...(pkg.bin ? { bin: pkg.bin } : {}),
    },
  };
  fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify({ name, lockfileVersion: 3, requires: true, packages }, null, 2) + "\n");
}
