/**
 * What README.md, its guides (docs/*.md), CONTRIBUTING.md and CHANGELOG.md state that the repository
 * can check: the commands they name exist, every resource kind in the feature table is one the
 * package exports (and every one is listed), links point at files that exist, file paths at files git
 * tracks (what a clean clone has), anchors at headings that exist, the package is never installed from
 * the npm registry (it is not published there), and the Pulumi CLI's build time is stated as the build
 * script states it. The README stays one page (at most 300 lines) and each guide opens with the task it
 * serves. Each fails naming the stale statement and its file.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../dev/checkout";
import * as gitbook from "../../provider";
import { resources } from "../../provider/resources";

const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");
const README = read("README.md");
/** The guides the README links to: every Markdown file in docs/ but the generated reference. */
const GUIDES = fs
  .readdirSync(path.join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md") && f !== "reference.md")
  .map((f) => `docs/${f}`);
const DOCS = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", ...GUIDES].filter((f) => fs.existsSync(path.join(ROOT, f)));
/** Where users read commands: everything but the changelog, which records what was. */
const PROSE = DOCS.filter((f) => f !== "CHANGELOG.md");
const named = (re: RegExp) => PROSE.flatMap((f) => [...read(f).matchAll(re)].map((m) => `${m[1]!} (${f})`));

/**
 * The files (and their folders) a clean clone has. A path that exists only on this machine (an
 * ignored bench result, a build output) passes `existsSync` here and fails for every reader.
 */
const TRACKED = new Set(
  execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter(Boolean)
    .flatMap((f) => f.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"))),
);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");

function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    const m = !inFence && /^#{1,6} (.*)$/.exec(line);
    if (m) out.add(anchorOf(m[1]!));
    for (const a of line.matchAll(/<a id="([^"]+)"><\/a>/g)) out.add(a[1]!);
  }
  return out;
}

describe("README.md and its guides", () => {
  it("is one page: at most 300 lines", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(300);
  });

  it.each(GUIDES.concat("CONTRIBUTING.md"))("%s opens with the task it serves, and the README links it", (file) => {
    const [title, , first] = read(file).split("\n");
    expect(title).toMatch(/^# /);
    expect(first).toMatch(/^\*\*Task: /);
    expect(README).toContain(`](${file})`);
  });

  it("names only npm scripts that package.json has, in every document", () => {
    const scripts = Object.keys(JSON.parse(read("package.json")).scripts as Record<string, string>);
    const all = [...new Set(named(/\bnpm run ([\w:-]+)/g))];
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((s) => !scripts.includes(s.split(" ")[0]!)), "npm scripts package.json lacks").toEqual([]);
  });

  it("names only pulumi-gitbook commands that `pulumi-gitbook --help` lists, and documents each", () => {
    const help = execFileSync(process.execPath, [path.join(ROOT, "dist/bin/pulumi-gitbook.js"), "--help"], { encoding: "utf8" });
    const commands = [...help.matchAll(/^ {2}(\w[\w-]*) /gm)].map((m) => m[1]!);
    const anywhere = [...new Set(named(/(?:npx |`)pulumi-gitbook ([a-z][\w-]*)/g))];
    expect(anywhere.filter((c) => !commands.includes(c.split(" ")[0]!)), "commands the bin does not have").toEqual([]);
    const inReadme = [...README.matchAll(/\bpulumi-gitbook ([a-z][\w-]*)/g)].map((m) => m[1]!);
    expect(commands.filter((c) => !inReadme.includes(c)), "commands README never mentions").toEqual([]);
  });

  it("lists every resource kind the package exports in its feature table, and no other", () => {
    const section = README.slice(README.indexOf("## The resources"));
    const table = section.slice(0, section.indexOf("\n\n", section.indexOf("|---")));
    const listed = [...table.matchAll(/^\| \[`(\w+)`\]\(docs\/reference\.md#(\w+)\)/gm)].map((m) => [m[1]!, m[2]!] as const);
    const kinds = [...resources.map((r) => r.kind), "DocsSite"];
    expect(listed.map(([k]) => k).sort()).toEqual([...kinds].sort());
    for (const [k, anchor] of listed) {
      expect(gitbook, `README's table lists ${k}`).toHaveProperty(k);
      expect(anchor).toBe(k.toLowerCase());
    }
  });

  it.each(DOCS)("%s links only to files and headings that exist", (file) => {
    const text = read(file);
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      const [p, hash] = target.split("#") as [string, string | undefined];
      const at = p ? path.join(ROOT, path.dirname(file), p) : path.join(ROOT, file);
      if (!TRACKED.has(path.relative(ROOT, at)) && at !== ROOT) broken.push(`${target}: no such file in the repository`);
      else if (hash && at.endsWith(".md") && !anchors(fs.readFileSync(at, "utf8")).has(hash)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it.each(DOCS)("%s names only repository files that exist", (file) => {
    const top = new Set(fs.readdirSync(ROOT).filter((f) => !["dist", "node_modules", ".pulumi-cli", "docs"].includes(f)));
    const missing = [...read(file).matchAll(/`((?:[\w.-]+\/)+[\w.-]*)`/g)]
      .map((m) => m[1]!)
      .filter((p) => top.has(p.split("/")[0]!) && (p.endsWith("/") || /\.\w+$/.test(p)))
      .filter((p) => !TRACKED.has(p.replace(/\/$/, "")));
    expect([...new Set(missing)]).toEqual([]);
  });

  it("never installs the package from the npm registry, where it is not published", () => {
    const installs = PROSE.flatMap((f) => [...read(f).matchAll(/\bnpm (?:install|i|add)(?=\s)[^\n`]*/g)].map((m) => m[0]));
    const fromRegistry = installs.filter((line) => /(^|\s)pulumi-gitbook(@[\w.^~-]+)?(\s|$)/.test(line));
    expect(fromRegistry, "install from a tarball, a checkout or a git URL instead").toEqual([]);
    const workflow = read("examples/github-actions/pulumi.yml");
    expect(workflow).not.toMatch(/npm (install|i|add) pulumi-gitbook\b/);
  });

  it("states the Pulumi CLI's build time as the build script does", () => {
    const script = read("scripts/pulumi-cli.sh");
    const stated = /a cold build takes (\d+ to \d+ minutes)/.exec(script)?.[1];
    expect(stated, "scripts/pulumi-cli.sh states the cold build time").toBeDefined();
    expect(README).toContain(`cold: ${stated}`);
    expect(read("CONTRIBUTING.md")).toContain(`cold: ${stated}`);
    // No other duration for the build anywhere it is described.
    const claims = PROSE.flatMap((f) => [...read(f).matchAll(/(?:builds?|built)[^.]*?(\d+(?:\s*(?:to|–|-)\s*\d+)?) minutes/g)].map((m) => m[0]));
    expect(claims.filter((c) => !c.includes(stated!))).toEqual([]);
    expect(read("dev/pulumiCli.ts")).toContain(stated!);
  });

  it("links the changelog, which has an entry for this version", () => {
    expect(README).toContain("[CHANGELOG.md](CHANGELOG.md)");
    const version = JSON.parse(read("package.json")).version as string;
    expect(read("CHANGELOG.md")).toMatch(new RegExp(`^## ${version.replace(/\./g, "\\.")}\\b`, "m"));
  });
});
