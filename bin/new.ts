/**
 * `pulumi-gitbook new <dir>`: writes a minimal TypeScript Pulumi program that uses this package, laid
 * out as `pulumi new typescript` lays one out (Pulumi.yaml, package.json, the template's tsconfig.json
 * unchanged, index.ts), with two stacks that differ by config only: `dev` against the emulator on this
 * machine, `prod` against api.gitbook.com.
 *
 * The package is not on the npm registry, so the program's package.json cannot name a version. It
 * names where the running copy came from: the checkout it runs from (`file:` path), or, for a copy
 * installed into some program's node_modules, the spec npm recorded for it (a tarball's `file:` path,
 * a git URL). `--package <spec>` says it instead. A `file:` spec is written relative to the new
 * program, as npm writes one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { installedSpec, ownPackage, specFor, specWarning, type OwnPackage } from "../provider/packageSource";
import { programPackageJson, TSCONFIG_JSON } from "../provider/programFiles";

export { TEMPLATE_TSCONFIG } from "../provider/programFiles";

/** The dev stack's emulator, as its comment tells the user to start it: its seed fixes the organization's ID. */
export const DEV_EMULATOR = { port: 8080, token: "dev-token", seed: 1 } as const;

const USAGE = `usage: pulumi-gitbook new <dir> [--package <spec>] [--name <project>] [--org <organization-id>]
  writes a TypeScript Pulumi program using pulumi-gitbook into <dir> (new or empty), with stacks
  dev (the emulator on this machine) and prod (api.gitbook.com)
  --package  how the program's package.json names pulumi-gitbook: a tarball or checkout path, or a
             git URL (default: where this copy was installed from)
  --name     the Pulumi project's name (default: the folder's name)
  --org      the GitBook organization ID for the prod stack (else set it later with pulumi config)
`;

class UsageError extends Error {}

interface Args {
  dir: string;
  packageSpec?: string;
  name?: string;
  org?: string;
}

function parseArgs(argv: string[]): Args | "help" {
  const rest = [...argv];
  const args: Partial<Args> = {};
  while (rest.length) {
    const a = rest.shift()!;
    if (a === "-h" || a === "--help") return "help";
    const value = () => {
      const v = rest.shift();
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === "--package") args.packageSpec = value();
    else if (a === "--name") args.name = value();
    else if (a === "--org") args.org = value();
    else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}`);
    else if (args.dir === undefined) args.dir = a;
    else throw new UsageError(`one folder only (got ${args.dir} and ${a})`);
  }
  if (args.dir === undefined) throw new UsageError("name the folder to write the program into");
  return args as Args;
}

/** A Pulumi project name from a folder name: letters, digits, `-`, `_` and `.`. */
function projectName(dir: string): string {
  const name = path
    .basename(path.resolve(dir))
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "");
  return name || "gitbook-docs";
}

const INDEX_TS = `import * as pulumi from "@pulumi/pulumi";
import * as gitbook from "pulumi-gitbook";

// Settings that differ between stacks: Pulumi.dev.yaml and Pulumi.prod.yaml.
const config = new pulumi.Config();
const title = config.require("title");

// The space holds the pages people write in the GitBook app. \`protect\` makes any run that would
// delete or replace it fail (remove the option first to really delete it); the dev stack turns it off.
const guides = new gitbook.Space("guides", { title: "Guides" }, { protect: config.getBoolean("protectContent") ?? true });

// A site with one section showing that space. Who may read it is \`visibility\`; it goes live with
// \`published: true\`. docs/reference.md in pulumi-gitbook lists every resource and setting.
const site = new gitbook.Site("docs", { title, visibility: "unlisted" });
new gitbook.SiteSection("guides", { siteId: site.id, spaceId: guides.id, title: "Guides", path: "guides" });

export const siteId = site.id;
export const siteUrl = site.urls.apply((u) => u.app);
`;

export interface Skeleton {
  files: Record<string, string>;
}

/** The program's files, by name. */
export function skeleton(opts: { name: string; packageSpec: string; own: OwnPackage; devOrganizationId: string; org?: string }): Skeleton {
  const { name, own } = opts;
  const { port, token, seed } = DEV_EMULATOR;
  const dev = `# dev: the GitBook API emulator on this machine (no account, nothing leaves the machine).
# Start it in another shell before \`pulumi up\`; its seed gives the organization the ID below:
#   npx pulumi-gitbook emulator --port ${port} --token ${token} --seed ${seed}
# It keeps its objects in memory: after restarting it, \`pulumi refresh\` finds them gone.
config:
  gitbook:apiUrl: http://127.0.0.1:${port}
  # The emulator's token, not a secret. A real token goes in as a secret (see Pulumi.prod.yaml).
  gitbook:token: ${token}
  gitbook:organizationId: ${opts.devOrganizationId}
  ${name}:title: Docs (dev)
  ${name}:protectContent: "false"
`;
  const prod = `# prod: GitBook itself. Set the API token (an organization admin's) once, as a secret:
#   pulumi config set --secret gitbook:token <token> --stack prod
${opts.org ? "" : "# and the organization's ID (the part after /o/ in the app's URLs):\n#   pulumi config set gitbook:organizationId <organization-id> --stack prod\n"}config:
  gitbook:apiUrl: https://api.gitbook.com
${opts.org ? `  gitbook:organizationId: ${opts.org}\n` : ""}  ${name}:title: Docs
`;
  return {
    files: {
      "Pulumi.yaml": `name: ${name}\ndescription: A GitBook docs site, declared with pulumi-gitbook\nruntime:\n  name: nodejs\n  options:\n    packagemanager: npm\n`,
      "package.json": programPackageJson(name, opts.packageSpec, own),
      "tsconfig.json": TSCONFIG_JSON,
      "index.ts": INDEX_TS,
      "Pulumi.dev.yaml": dev,
      "Pulumi.prod.yaml": prod,
      ".gitignore": "/bin/\n/node_modules/\n",
    },
  };
}

/** The organization ID the emulator seeds when started as Pulumi.dev.yaml says. */
async function devOrganizationId(): Promise<string> {
  const { Emulator } = await import("../emulator");
  const emu = await Emulator.start({ port: 0, token: DEV_EMULATOR.token, seed: DEV_EMULATOR.seed, contract: false });
  try {
    return emu.seeded.organizationId;
  } finally {
    await emu.close();
  }
}

export async function runNew(argv: string[]): Promise<number> {
  let args: Args | "help";
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`pulumi-gitbook new: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (args === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  const dir = path.resolve(args.dir);
  if (fs.existsSync(dir)) {
    if (!fs.statSync(dir).isDirectory()) {
      process.stderr.write(`pulumi-gitbook new: ${dir} is a file; name a new or empty folder.\n`);
      return 1;
    }
    const present = fs.readdirSync(dir);
    if (present.length > 0) {
      process.stderr.write(`pulumi-gitbook new: ${dir} is not empty (${present.slice(0, 3).join(", ")}${present.length > 3 ? ", ..." : ""}); nothing was written. Name a new or empty folder.\n`);
      return 1;
    }
  }
  const own = ownPackage();
  const found = args.packageSpec ? { spec: specFor(args.packageSpec, process.cwd(), dir), from: "--package" } : installedSpec(own, dir);
  if (!found) {
    process.stderr.write(
      `pulumi-gitbook new: cannot tell where this copy of pulumi-gitbook (${own.root}) was installed from; nothing was written. ` +
        "Pass --package with a tarball path (npm pack in a checkout writes one), a checkout path or a git URL.\n",
    );
    return 1;
  }
  const name = args.name ?? projectName(dir);
  const { files } = skeleton({ name, packageSpec: found.spec, own, devOrganizationId: await devOrganizationId(), org: args.org });
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  const { port, token, seed } = DEV_EMULATOR;
  process.stdout.write(
    [
      `Wrote the Pulumi project ${name} to ${dir}`,
      `  pulumi-gitbook: ${found.spec} (from ${found.from})`,
      ...[specWarning(found.spec)].flatMap((w) => (w ? [`  Note: ${w}`] : [])),
      "",
      "Next:",
      `  cd ${args.dir} && npm install`,
      `  npx pulumi-gitbook emulator --port ${port} --token ${token} --seed ${seed}   # in another shell: dev's GitBook`,
      "  pulumi login --local   # or the backend you use",
      "  pulumi stack init dev && pulumi up",
      "Against GitBook itself:",
      "  pulumi stack init prod",
      "  pulumi config set --secret gitbook:token <token>",
      ...(args.org ? [] : ["  pulumi config set gitbook:organizationId <organization-id>"]),
      "  pulumi up",
      "",
    ].join("\n"),
  );
  return 0;
}
