/**
 * `pulumi-gitbook import`: reads a GitBook organization and writes a Pulumi program that adopts every
 * object as it is (see generate.ts), with its project, stack and npm files.
 *
 * The token comes from GITBOOK_TOKEN (and the API from GITBOOK_API_URL) and goes nowhere but into the
 * requests' Authorization header: the written files name the setting, never its value. Progress,
 * notes and the request count go to stderr, so stdout stays free for a caller that pipes it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { DEFAULT_API_URL, GitbookClient, packageVersion } from "../client";
import { installedSpec, ownPackage, specWarning } from "../packageSource";
import { generateProgram, programFiles, type Style } from "./generate";
import { terminalLine } from "./emit";
import { PreviousProgram } from "./names";
import { downloadDocument, readOrganization } from "./read";
import type { OrgSnapshot, SiteSnapshot } from "./snapshot";

export interface ImportIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  /** Where a relative `--out` is resolved. */
  cwd: string;
  /** Downloads a processed OpenAPI document (tests serve their own). */
  download?: (url: string) => Promise<string>;
}

export const USAGE = `Usage: pulumi-gitbook import --org <organization-id> [options]

Reads a GitBook organization and writes a Pulumi program (TypeScript) that adopts every object as it
is: its first \`pulumi up\` reads each object and changes nothing.

Options:
  --org <id>             The organization (default: GITBOOK_ORGANIZATION_ID).
  --site <id>            Import only this site (repeat for more); teams, single sign-on and OpenAPI
                         specs are then left out. Default: the whole organization.
  --out <dir>            Where to write the program (default: gitbook).
  --style <style>        resources (default): one resource per object; docs-site: one DocsSite
                         component per site.
  --stack <name>         The stack whose settings file is written, Pulumi.<name>.yaml (default: dev).
  --project <name>       The Pulumi project name (default: gitbook).
  --retain-on-delete     Mark every resource retainOnDelete: \`pulumi destroy\` then forgets the
                         objects instead of deleting them in GitBook.
  --package <spec>       The pulumi-gitbook dependency written into package.json. Default: where this
                         copy was installed from (its checkout, or the tarball or git URL its
                         program's lock records), as pulumi-gitbook new writes it; else ^${packageVersion()}.
  --force                Overwrite files already in --out. Names in an index.ts already there (an
                         earlier import's) are kept, and each site's form (DocsSite or resources,
                         whatever --style says), so re-importing into a stack replaces nothing;
                         an object it declares that is still in GitBook but would be left out is
                         refused, writing nothing.
  --fetch-spec-urls      Allow downloading an OpenAPI document from outside the API: the processed
                         version of a spec uploaded as text, when the API does not give its text.
                         Without it, the import talks to GITBOOK_API_URL only.
  -h, --help             Show this help.

Environment: GITBOOK_TOKEN (required), GITBOOK_API_URL (default ${DEFAULT_API_URL}).
The token is used for the requests only and written nowhere.
`;

const NAME = /^[A-Za-z0-9_.-]+$/;
const STYLES: readonly Style[] = ["resources", "docs-site"];

interface Args {
  org: string;
  sites: string[];
  out: string;
  style: Style;
  stack: string;
  project: string;
  retainOnDelete: boolean;
  /** As given with --package; else where the running copy came from (see packageSpecFor). */
  packageSpec?: string;
  force: boolean;
  fetchSpecUrls: boolean;
}

/** Runs the command; resolves to its exit code (0 done, 1 failed, 2 usage). */
export async function runImport(argv: string[], io: Partial<ImportIo> = {}): Promise<number> {
  const out: ImportIo = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), ...io };
  const say = (line: string) => out.stderr.write(`${line}\n`);
  let args: Args | "help";
  try {
    args = parse(argv, out.env);
  } catch (e) {
    say(`pulumi-gitbook import: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args === "help") {
    out.stdout.write(USAGE);
    return 0;
  }
  const token = out.env.GITBOOK_TOKEN;
  if (!token) {
    say("pulumi-gitbook import: GITBOOK_TOKEN is not set: export the API token of an organization admin (it is used for the requests only, and written nowhere).");
    return 2;
  }
  const dir = path.resolve(out.cwd, args.out);
  try {
    return await importInto(dir, args, token, out, say);
  } catch (e) {
    // The API's answer may be quoted: each line escaped, as notes are.
    say(`pulumi-gitbook import: ${(e as Error).message.split("\n").map(terminalLine).join("\n")}`);
    return 1;
  }
}

async function importInto(dir: string, args: Args, token: string, io: ImportIo, say: (line: string) => void): Promise<number> {
  const apiUrl = io.env.GITBOOK_API_URL || undefined;
  // Before any request; the OpenAPI documents, known only after reading, are looked for again below.
  refuseToOverwrite(dir, Object.values(programFiles(args.stack)), args.force);
  // Re-importing into an earlier import's program keeps its names (so the stack's resources), and
  // each section's space, whatever moved in the app since. Its stack holds that organization's objects:
  // another organization's program would delete every one of them at its first up.
  const programPath = path.join(dir, programFiles(args.stack).program);
  const previous = fs.existsSync(programPath) ? PreviousProgram.parse(fs.readFileSync(programPath, "utf8")) : undefined;
  if (previous?.organizationId !== undefined && previous.organizationId !== args.org) {
    throw new Error(
      `${programPath} was imported from the GitBook organization ${JSON.stringify(previous.organizationId)}, not ${JSON.stringify(args.org)}: ` +
        "its stack holds that organization's objects, and the first `pulumi up` of a program of another one would delete them. Import into another folder (--out).",
    );
  }

  let requests = 0;
  let downloads = 0;
  const client = new GitbookClient({
    token,
    ...(apiUrl ? { apiUrl, apiUrlSetting: "GITBOOK_API_URL" } : {}),
    onAttempt: () => requests++,
    onRetry: (r) => say(`  ${terminalLine(`${r.method} ${r.path}: ${r.reason}`)}; retrying in ${(r.waitMs / 1000).toFixed(1)} s`),
  });
  const started = performance.now();
  let snapshot: OrgSnapshot;
  try {
    say(`Reading organization ${args.org} from ${client.apiUrl}`);
    snapshot = await readOrganization(client, {
      organizationId: args.org,
      siteIds: args.sites,
      // Progress and notes quote titles, hostnames and paths from GitBook: printed escaped (emit.ts).
      onProgress: (line) => say(`  ${terminalLine(line)}`),
      fetchSpecUrls: args.fetchSpecUrls,
      download: (url) => {
        downloads++;
        return (io.download ?? downloadDocument)(url);
      },
    });
  } finally {
    await client.close();
  }
  const ms = performance.now() - started;
  const took = ms < 10_000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
  if (client.apiUrl !== DEFAULT_API_URL) snapshot.apiUrl = client.apiUrl;

  if (previous) say(`Keeping the names ${path.basename(programPath)} already in ${dir} gives the objects it declares.`);
  const packageSpec = args.packageSpec ?? packageSpecFor(dir);
  const { files, notes } = generateProgram(snapshot, {
    previous,
    style: args.style,
    project: args.project,
    stack: args.stack,
    retainOnDelete: args.retainOnDelete,
    packageSpec,
  });
  refuseToOverwrite(dir, Object.keys(files), args.force);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }

  const objects = countObjects(snapshot);
  say(`Read ${objects} in ${requests} request${requests === 1 ? "" : "s"}${downloads ? ` and ${downloads} download${downloads === 1 ? "" : "s"}` : ""}, ${took}.`);
  say(`Wrote ${Object.keys(files).sort().join(", ")} to ${dir}`);
  for (const n of [...notes, ...[specWarning(packageSpec)].flatMap((w) => (w ? [w] : []))]) say(`Note: ${terminalLine(n)}`);
  say(
    [
      "Next:",
      `  cd ${shownDir(io.cwd, dir)} && npm install`,
      `  pulumi stack init ${args.stack}    (keeps the Pulumi.${args.stack}.yaml written here)`,
      "  pulumi config set --secret gitbook:token    (or export GITBOOK_TOKEN)",
      "  pulumi up    (adopts every object: reads each one and changes nothing)",
    ].join("\n"),
  );
  return 0;
}

// ---- Arguments -----------------------------------------------------------------------------------

function parse(argv: string[], env: NodeJS.ProcessEnv): Args | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        org: { type: "string" },
        site: { type: "string", multiple: true },
        out: { type: "string" },
        style: { type: "string" },
        stack: { type: "string" },
        project: { type: "string" },
        "retain-on-delete": { type: "boolean" },
        package: { type: "string" },
        force: { type: "boolean" },
        "fetch-spec-urls": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new Error((e as Error).message);
  }
  if (values.help) return "help";
  const org = values.org ?? env.GITBOOK_ORGANIZATION_ID;
  if (!org) throw new Error("--org is required (or set GITBOOK_ORGANIZATION_ID)");
  const style = (values.style ?? "resources") as Style;
  if (!STYLES.includes(style)) throw new Error(`--style must be ${STYLES.join(" or ")} (got ${JSON.stringify(values.style)})`);
  const stack = values.stack ?? "dev";
  const project = values.project ?? "gitbook";
  for (const [flag, v] of [["--stack", stack], ["--project", project]] as const) {
    if (!NAME.test(v)) throw new Error(`${flag} must be letters, digits, hyphens, underscores and dots (got ${JSON.stringify(v)})`);
  }
  return {
    org,
    sites: values.site ?? [],
    out: values.out ?? "gitbook",
    style,
    stack,
    project,
    retainOnDelete: values["retain-on-delete"] === true,
    ...(values.package !== undefined ? { packageSpec: values.package } : {}),
    force: values.force === true,
    fetchSpecUrls: values["fetch-spec-urls"] === true,
  };
}

// ---- Helpers -------------------------------------------------------------------------------------

/**
 * The package is not on the npm registry: the generated program names the checkout, tarball or git
 * URL this copy was installed from (as `pulumi-gitbook new` does), and the version range only when
 * that cannot be found.
 */
function packageSpecFor(dir: string): string {
  return installedSpec(ownPackage(__dirname), dir)?.spec ?? `^${packageVersion()}`;
}

/** The output folder as the user can type it from where they are. */
function shownDir(cwd: string, dir: string): string {
  const rel = path.relative(cwd, dir);
  return rel === "" ? "." : rel.startsWith("..") ? dir : rel;
}

function refuseToOverwrite(dir: string, files: readonly string[], force: boolean): void {
  if (force) return;
  const existing = files.filter((f) => fs.existsSync(path.join(dir, f)));
  if (existing.length) throw new Error(`${dir} already has ${existing.join(", ")}; pass --force to overwrite, or choose another --out`);
}

function countObjects(s: OrgSnapshot): string {
  const sum = (of: (site: SiteSnapshot) => number) => s.sites.reduce((n, x) => n + of(x), 0);
  const parts: [number, string][] = [
    [s.sites.length, "site"],
    [sum((x) => x.sections.length), "section"],
    [sum((x) => x.sections.reduce((m, y) => m + y.siteSpaces.length, 0)), "site space"],
    [sum((x) => x.sectionGroups.length), "section group"],
    [sum((x) => x.externalLinks.length), "external link"],
    [sum((x) => (x.adaptiveSchema ? 1 : 0)), "visitor schema"],
    [s.spaces.length, "space"],
    [s.collections.length, "collection"],
    [sum((x) => x.shareLinks.length), "share link"],
    [s.teams.length, "team"],
    [s.samlProviders.length, "SAML provider"],
    [s.openApiSpecs.length, "OpenAPI spec"],
  ];
  return parts.map(([n, noun]) => `${n} ${noun}${n === 1 ? "" : "s"}`).join(", ");
}
