// The command's arguments (its runs through the real CLI are test/faults/killed.test.ts).
import { describe, expect, it } from "vitest";
import { runRecover } from "./command";

async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runRecover(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env, cwd: "/" });
  return { code, out, err };
}

describe("pulumi-gitbook recover's arguments", () => {
  it("prints its help", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Usage: pulumi-gitbook recover");
  });

  it.each([
    [["--adopt", "urn:x"], "--adopt takes URN=ID"],
    [["--adopt", "urn:x=id", "--drop", "urn:x"], "both --adopt and --drop"],
    [["--check", "--accept"], "--check only reads the checkpoint"],
    [["--since", "2026-01-31T14:05:00Z"], "Unknown option '--since'"],
    [["--what"], "Unknown option '--what'"],
  ])("refuses %j before running anything", async (argv, message) => {
    const r = await run(argv, { PULUMI_CLI: "/nonexistent/pulumi" });
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it("says when the Pulumi CLI is missing", async () => {
    const r = await run([], { PULUMI_CLI: "/nonexistent/pulumi" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("/nonexistent/pulumi was not found: install the Pulumi CLI, or set PULUMI_CLI to it");
  });
});
