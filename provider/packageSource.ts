/**
 * Where the running copy of this package came from, as a dependency spec for a program this package
 * writes (`pulumi-gitbook new`, `pulumi-gitbook import`): the package is not on the npm registry, so a
 * program must name the checkout, tarball or git URL the user installed it from.
 */
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
 * Where the running copy came from, as a spec for the new program's package.json. A copy outside any
 * node_modules is a checkout (or a link to one); a copy in a program's node_modules came from what
 * npm recorded in that program's lock (`resolved`).
 */
export function installedSpec(pkg: Pick<OwnPackage, "root">, target: string): { spec: string; from: string } | undefined {
  const real = fs.realpathSync(pkg.root);
  const at = real.split(path.sep).lastIndexOf("node_modules");
  if (at < 0) return { spec: specFor(real, real, target), from: `the checkout ${real}` };
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

