// The emulator a Pulumi program's stack talks to, read from the stack's settings file in the folder
// the command runs in (what `pulumi-gitbook new` writes: `gitbook:apiUrl: http://127.0.0.1:8080` and
// the emulator's plain `gitbook:token` in Pulumi.dev.yaml), so that `pulumi-gitbook emulator` and its
// `edit`/`delete`/`export`/`import` need no flag there. Only plain top-level values of the `config:`
// block are read: a `secure:` value needs the stack's secrets provider, which only `pulumi` has (the
// emulator's token is never a secret), and the package ships no YAML parser.
import * as fs from "node:fs";
import * as path from "node:path";

export interface StackEmulator {
  /** The settings file, relative to the folder: `Pulumi.dev.yaml`. */
  file: string;
  url?: string;
  token?: string;
  organizationId?: string;
}

/** A top-level scalar of a YAML file (`key: value`, quoted or not), or undefined. */
function scalar(text: string, key: string, indent = ""): string | undefined {
  const m = new RegExp(`^${indent}${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:[ \\t]*(.*?)[ \\t]*$`, "m").exec(text);
  const raw = m?.[1]?.replace(/[ \t]+#.*$/, "");
  if (!raw) return undefined;
  const quoted = /^(["'])(.*)\1$/.exec(raw);
  return quoted ? quoted[2] : raw;
}

const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\/?$/;

/**
 * The stack settings of the Pulumi project in `dir` that point at an emulator on this machine: those
 * of `stack` when given, else of the one stack whose `gitbook:apiUrl` is a loopback `http` URL.
 * Undefined outside a project, or when no stack points at one. Throws (for the caller's usage error)
 * when `stack` has no settings file, or when several stacks would do.
 */
export function stackEmulator(dir: string, stack?: string): StackEmulator | undefined {
  const project = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!project) {
    if (stack) throw new Error(`--stack ${stack}: no Pulumi.yaml in ${dir}; run this in the program's folder`);
    return undefined;
  }
  const configDir = path.join(dir, scalar(fs.readFileSync(project, "utf8"), "stackConfigDir") ?? ".");
  const read = (file: string): StackEmulator => {
    const config = fs.readFileSync(path.join(configDir, file), "utf8");
    const value = (key: string) => scalar(config, `gitbook:${key}`, "[ \\t]+");
    const url = value("apiUrl");
    const token = value("token");
    const organizationId = value("organizationId");
    return { file: path.relative(dir, path.join(configDir, file)), ...(url && { url }), ...(token && { token }), ...(organizationId && { organizationId }) };
  };
  if (stack) {
    const file = `Pulumi.${stack}.yaml`;
    if (!fs.existsSync(path.join(configDir, file))) throw new Error(`--stack ${stack}: ${path.relative(dir, path.join(configDir, file))} does not exist`);
    return read(file);
  }
  const stacks = fs.existsSync(configDir) ? fs.readdirSync(configDir).filter((f) => /^Pulumi\.[^.]+\.ya?ml$/.test(f)).sort() : [];
  const local = stacks.map(read).filter((s) => s.url !== undefined && LOOPBACK.test(s.url));
  if (local.length > 1) throw new Error(`${local.map((s) => s.file).join(" and ")}: each points at an emulator on this machine; give --stack <name>`);
  return local[0];
}

/** The port of a loopback URL, when it names one. */
export function portOf(url: string): number | undefined {
  const m = /:(\d+)\/?$/.exec(url);
  return m ? Number(m[1]) : undefined;
}
