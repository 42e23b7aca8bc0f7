/**
 * `npm run demo` prints, by default, what a newcomer reads in one screen or two: each step says what
 * it changes and why, then the plan's totals, the resources it touches (by kind when many), and each
 * changed value as old => new, drift included; never the CLI's whole output (722 lines before), which
 * `--verbose` adds. The steps are the demo's own; the runs are made up, shaped as the CLI prints them.
 */
import { describe, expect, it } from "vitest";
import type { Step } from "../../dev/report";
import { DEMO_LINE_BUDGET, PHASES, STEP_LINES, summarize, type RunView } from "../../scripts/demo";

const SITE = "pulumi-nodejs:dynamic/gitbook:Site";
const step = (op: Step["op"], type: string, name: string, changed?: string[]): Step => ({ urn: `urn:${name}`, type, name, op, ...(changed && { changed }) });

/** What `pulumi refresh --diff` prints when the site's title drifted: the title, and the titles its children's `names` repeat. */
const DRIFT: RunView = {
  op: "refresh",
  steps: [step("refresh", SITE, "docs", ["title"]), step("same", "pulumi-nodejs:dynamic/gitbook:SiteSection", "docs/guides")],
  stdout: [
    "Refreshing (dev):",
    "    ~ pulumi-nodejs:dynamic/gitbook:Site: (update)",
    "        [id=site_1]",
    '      ~ title         : "Acme Docs" => "Renamed by hand"',
    "    ~ pulumi-nodejs:dynamic/gitbook:SiteSection: (update)",
    "      ~ names         : {",
    '          ~ siteId: "Acme Docs (site_1)" => "Renamed by hand (site_1)"',
    "        }",
    "Resources:",
    "    ~ 1 updated",
    "    21 unchanged",
    "",
  ].join("\n"),
};

describe("the demo's output", () => {
  it("says, for every step, what it changes and why, and fits its budget", () => {
    for (const p of PHASES) expect(p.says.length, p.title).toBeGreaterThan(20);
    expect(DEMO_LINE_BUDGET).toBeLessThanOrEqual(150);
  });

  it("shows drift with its old and new values, not only the field's name", () => {
    const lines = summarize(PHASES[5]!, DRIFT, ["API requests: 12 (GET 12)"]);
    expect(lines).toContain('  ~ title: "Acme Docs" => "Renamed by hand"');
    expect(lines).toContain("  Plan: ~ 1 updated, 21 unchanged");
    expect(lines).toContain("  refresh Site docs: title");
    // What repeats the title for reviewers stays in --verbose.
    expect(lines.join("\n")).not.toContain("siteId");
  });

  it("names many resources by kind, and never prints more than a step's share, whatever the CLI printed", () => {
    const creates = Array.from({ length: 300 }, (_, i) => step("create", i % 2 ? SITE : "pulumi-nodejs:dynamic/gitbook:SiteSpace", `r${i}`));
    const preview: RunView = {
      op: "preview",
      steps: creates,
      stdout: [...creates.flatMap((s) => [`    + ${s.type}: (create)`, `        [urn=${s.urn}]`, '        title: "x"']), "Resources:", "    + 300 to create", ""].join("\n"),
    };
    for (const phase of PHASES) {
      const lines = summarize(phase, preview, ["API requests: 1 (GET 1)", "On the emulator: sites 0"]);
      expect(lines.length, phase.title).toBeLessThanOrEqual(STEP_LINES);
      expect(lines).toContain("  Plan: + 300 to create");
      expect(lines).toContain("  create: Site ×150, SiteSpace ×150");
      expect(lines.every((l) => l.length <= 110), lines.join("\n")).toBe(true);
    }
    const many = { ...DRIFT, stdout: DRIFT.stdout.replace("Resources:", Array.from({ length: 40 }, (_, i) => `      ~ title: "t${i}" => "u${i}"`).join("\n") + "\nResources:") };
    const cut = summarize(PHASES[5]!, many, ["API requests: 12 (GET 12)", "On the emulator: sites 1"]);
    expect(cut.length).toBeLessThanOrEqual(STEP_LINES);
    expect(cut).toContain("  On the emulator: sites 1");
  });
});
