/**
 * What a user sees from the real `pulumi` CLI (built by `npm run pulumi-cli`; local file backend;
 * the emulator): the main example's dev stack with the token given both ways, what `pulumi stack
 * export` holds, and the plans `preview --diff` and `preview --json` print (the `--diff` one is the
 * README's pull-request plan, checked against the README's block).
 * Every other suite that deploys programs (test/lifecycle, test/examples, test/faults) also runs
 * through the CLI when it is built; this one exists only for the CLI. The example's prod stack is
 * deployed by test/examples/docsSite.test.ts.
 *
 * Each run here serves several checks: the one `up` of the example is read for its state export,
 * its stack config and its requests; one `preview --diff` is both the README's plan and the proof that
 * nothing else differs. Issue 40 moved this file's other runs into runs other files make: the destroy with
 * the token from GITBOOK_TOKEN alone is the example's second up and prod destroy (test/examples/docsSite.test.ts), and
 * the failing `up` (a create refused, a partial failure, a secret input) is test/lifecycle/errors.test.ts's.
 *
 * Outside CI, without a built CLI, it skips and says how to build it; in CI it fails instead.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Emulator } from "../../emulator";
import { createCliStack, cliMissing, type CliStack } from "../../dev/pulumiCli";
import { EXAMPLE_DIR, exampleConfig } from "../../dev/example";
import { readProject } from "../../dev/project";
import { filesUnder, ROOT, steps } from "../support/lifecycle";
import { GIT_SYNC_QUESTION, ORG_QUESTION } from "../support/provider";

const missing = cliMissing();
if (missing && process.env.CI === "true") throw new Error(`CI must run the CLI suite, and ${missing}`);
if (missing) console.warn(`test/cli skipped: ${missing}`);

const README = path.join(ROOT, "README.md");
/** The README's snippet sits in the fenced block right after this marker. */
const MARKER = "<!-- plan: test/cli/cli.test.ts -->";

/** The snippet in the README. */
function readmeSnippet(): string {
  const text = fs.readFileSync(README, "utf8");
  const at = text.indexOf(MARKER);
  if (at < 0) throw new Error(`README.md has no ${MARKER}`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(at))!;
  return block[1]!;
}

/**
 * The plan with what differs between runs made uniform: each object's ID, numbered in order of first
 * appearance, and warnings about the machine's CLI install (not part of the plan).
 */
function normalised(plan: string): string {
  const ids = new Map<string, string>();
  return plan
    .split("\n")
    .filter((l) => !l.startsWith("warning: using pulumi-resource"))
    // The CLI's progress ticker ("@ previewing update...."), printed only when a preview is slow: a loaded
    // machine's, never the README's.
    .filter((l) => !/^@ [a-z]+ [a-z]+\.*$/.test(l))
    .map((l) => l.trimEnd())
    .join("\n")
    .trim()
    .replace(/\b[a-z]+_[a-z0-9]{7,}\b/g, (id) => ids.get(id) ?? (ids.set(id, `<id ${ids.size + 1}>`), ids.get(id)!));
}

/** The change the README's pull request makes: Tutorials moves up, before Guides. */
function movedTutorials(): string {
  const sections = JSON.parse(readProject(EXAMPLE_DIR, "dev").config["docs-site:sections"]!) as { key?: string }[];
  const i = sections.findIndex((s) => s.key === "tutorials");
  const j = sections.findIndex((s) => s.key === "guides");
  [sections[i], sections[j]] = [sections[j]!, sections[i]!];
  return JSON.stringify(sections);
}

describe.skipIf(!!missing)("the main example's dev stack through the Pulumi CLI", () => {
  let emu: Emulator;
  let dir: string;
  let stack: CliStack;
  let config: Record<string, string>;
  beforeAll(async () => {
    emu = await Emulator.start();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-cli-example-"));
    stack = await createCliStack(dir, EXAMPLE_DIR, "dev");
    config = exampleConfig(emu);
  });
  afterAll(async () => {
    await emu?.close();
  });

  it("deploys with the token as secure config, and keeps it, absolute paths and secrets out of `pulumi stack export`, with one __provider text per kind", async () => {
    const up = await stack.run("up", config);
    expect(up.code, up.stdout).toBe(0);
    expect(emu.store.sites.size).toBe(1);
    expect(fs.readFileSync(stack.configFile, "utf8")).toMatch(/gitbook:token:\n\s+secure: v1:/);
    const exported = stack.exported();
    const text = JSON.stringify(exported);
    expect(text).not.toContain(emu.token);
    for (const [file, body] of filesUnder(dir)) expect(body, file).not.toContain(emu.token);
    const resources = exported.deployment.resources ?? [];
    const providers = new Map<string, Set<string>>();
    for (const r of resources.filter((x) => x.custom && String(x.type).startsWith("pulumi-nodejs:dynamic"))) {
      const p = String(r.outputs.__provider);
      expect(p).not.toMatch(/\/(work|home|tmp|usr|root)\//);
      if (!providers.has(r.type)) providers.set(r.type, new Set());
      providers.get(r.type)!.add(p);
    }
    expect(providers.size).toBeGreaterThan(3);
    for (const [type, texts] of providers) expect(texts.size, type).toBe(1);
    const links = resources.filter((x) => String(x.type).endsWith("gitbook:ShareLink"));
    expect(links.length).toBe(1);
    expect(links[0]!.outputs.url).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
    expect(text).not.toContain([...emu.store.shareLinks.values()][0]!.key);
  });

  // The README's workflow example shows the plan a reviewer reads in a pull request: this preview
  // makes the same change, and the README's block must be what the CLI printed, up to the objects'
  // IDs, so the snippet cannot go stale. That only the order changes also shows the up converged.
  it("prints the README's pull-request plan in `preview --diff`, old and new values and names, with nothing else changed and no request but the question whether the token sees the organization", async () => {
    emu.log.reset();
    const r = await stack.run("preview", { ...config, "docs-site:sections": movedTutorials() }, { flags: ["--diff"] });
    expect(r.code, r.stdout).toBe(0);
    expect(steps(r).filter((s) => !s.startsWith("same "))).toEqual(["update docs/order"]);
    // And, for the order of the site, whether Git Sync owns its structure.
    expect(emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [GIT_SYNC_QUESTION]: 1 });
    if (process.env.PRINT_PLAN) console.log(r.stdout);
    expect(normalised(r.stdout)).toContain('"Tutorials (<id');
    expect(normalised(readmeSnippet())).toEqual(normalised(r.stdout));
  });

  it("prints a plan a pull-request comment can be built from in `preview --json`", async () => {
    emu.log.reset();
    const { file } = await stack.writeRunConfig({ ...config, "docs-site:sections": movedTutorials() });
    const json = await stack.pulumi(["preview", "--json", "-s", "dev", "--config-file", file, "--non-interactive"]);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as { steps: Array<{ op: string; urn: string }>; changeSummary: Record<string, number> };
    expect(plan.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`)).toEqual(["update docs/order"]);
    expect(plan.changeSummary.update).toBe(1);
    expect(emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [GIT_SYNC_QUESTION]: 1 });
  });
});
