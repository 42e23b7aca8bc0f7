/**
 * The README's workflow example shows the plan a reviewer reads in a pull request: `pulumi preview
 * --diff` of a change to the docs-site example's navigation, as the CLI prints it (and the workflow's
 * action posts it). This deploys the example's dev stack on the emulator, previews the same change
 * through the real CLI, and checks that the README's snippet is exactly what the CLI printed, up to
 * the objects' IDs, so the snippet cannot go stale.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EXAMPLE_DIR, exampleConfig } from "../../dev/example";
import { readProject } from "../../dev/project";
import { describeDeployments, ROOT, startDeployment, steps, type Deployment } from "../support/lifecycle";

const README = path.join(ROOT, "README.md");
/** The README's snippet sits in the fenced block right after this marker. */
const MARKER = "<!-- plan: test/cli/readmePlan.test.ts -->";

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

describeDeployments("the README's pull-request plan", () => {
  let d: Deployment;
  const run = (op: "preview" | "up", config: Record<string, string> = {}, flags: string[] = []) =>
    d.run(op, undefined, { programDir: EXAMPLE_DIR, config: { ...exampleConfig(d.emu), ...config }, flags });

  beforeAll(async () => {
    d = await startDeployment({ stack: "dev" });
  });
  afterAll(async () => d?.close());

  it("is what `pulumi preview --diff` prints for the change, names and all", async () => {
    expect((await run("up")).error).toBeUndefined();
    d.emu.log.reset();
    const r = await run("preview", { "docs-site:sections": movedTutorials() }, ["--diff"]);
    expect(r.error).toBeUndefined();
    expect(steps(r).filter((s) => !s.startsWith("same "))).toEqual(["update docs/order"]);
    expect(d.emu.log.count()).toBe(0);
    if (process.env.PRINT_PLAN) console.log(r.stdout);
    expect(normalised(r.stdout)).toContain('"Tutorials (<id');
    expect(normalised(readmeSnippet())).toEqual(normalised(r.stdout));
  });
});
