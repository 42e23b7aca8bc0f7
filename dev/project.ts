/**
 * Reads a Pulumi project folder the way the CLI does: the project name and `main` from Pulumi.yaml,
 * project-level `config:` defaults there, and the stack's `Pulumi.<stack>.yaml` (in `stackConfigDir` when
 * set) overrides on top.
 * Values arrive namespaced (`docs-site:sections`), structured values as JSON text, as the engine
 * passes them to a program.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as yaml from "js-yaml";

export interface Project {
  dir: string;
  name: string;
  main: string;
  config: Record<string, string>;
  /** `secure:` values in the stack file that only the real CLI can decrypt. */
  skippedSecure: string[];
}

function asText(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

function namespaced(project: string, key: string): string {
  return key.includes(":") ? key : `${project}:${key}`;
}

export function readProject(dir: string, stack: string): Project {
  const doc = yaml.load(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as Record<string, any>;
  const name = String(doc.name);
  // Compiled JavaScript: `main` may name it, else bin/index.js beside the sources.
  const main = path.resolve(dir, doc.main && String(doc.main).endsWith(".js") ? doc.main : "bin/index.js");
  const config: Record<string, string> = {};
  for (const [k, v] of Object.entries((doc.config ?? {}) as Record<string, any>)) {
    const value = v && typeof v === "object" && !Array.isArray(v) && ("value" in v || "default" in v) ? (v.value ?? v.default) : v;
    if (value !== undefined) config[namespaced(name, k)] = asText(value);
  }
  const skippedSecure: string[] = [];
  // `stackConfigDir` moves the stack files elsewhere (relative to Pulumi.yaml), as the CLI allows.
  const stackDir = doc.stackConfigDir ? path.resolve(dir, String(doc.stackConfigDir)) : dir;
  const stackFile = path.join(stackDir, `Pulumi.${stack}.yaml`);
  if (fs.existsSync(stackFile)) {
    const sdoc = (yaml.load(fs.readFileSync(stackFile, "utf8")) ?? {}) as Record<string, any>;
    for (const [k, v] of Object.entries((sdoc.config ?? {}) as Record<string, any>)) {
      if (v && typeof v === "object" && "secure" in v) {
        skippedSecure.push(namespaced(name, k));
        continue;
      }
      config[namespaced(name, k)] = asText(v);
    }
  }
  return { dir, name, main, config, skippedSecure };
}

/**
 * Makes `<dir>/node_modules/pulumi-gitbook` point at this checkout, as `npm install` of a
 * `file:` dependency would, so the serialized provider's `require("pulumi-gitbook/impl")` resolves
 * from the program's folder exactly as it does for a user.
 */
export function linkPackage(dir: string, packageRoot: string): void {
  const nm = path.join(dir, "node_modules");
  const link = path.join(nm, "pulumi-gitbook");
  fs.mkdirSync(nm, { recursive: true });
  try {
    if (fs.realpathSync(link) === fs.realpathSync(packageRoot)) return;
    fs.rmSync(link, { recursive: true, force: true });
  } catch {
    // absent: create it below
  }
  try {
    fs.symlinkSync(path.relative(nm, packageRoot), link, "dir");
  } catch (e) {
    // Another run linked it at the same moment.
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
}
