/**
 * Tests deploy through the CLI that scripts/pulumi-cli.sh built, and a build from other sources than
 * the checkout's tools/pulumi-cli is refused (dev/pulumiCli.ts cliStale): a direct `vitest run` does not
 * rebuild, and a language host built before a change ran in its place (its test timed out).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../dev/checkout";
import { cliStale } from "../../dev/pulumiCli";

describe("the built Pulumi CLI", () => {
  const src = path.join(ROOT, "tools/pulumi-cli");
  const stamp = (bin: string, text: string) => fs.writeFileSync(path.join(bin, ".stamp"), text);

  it("is accepted with the stamp scripts/pulumi-cli.sh writes for the sources, and refused once a source differs", () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-clibuild-"));
    try {
      // The script's own hash: cat go.mod go.sum language-host/main.go | sha256sum.
      const hash = execFileSync("bash", ["-c", "cat go.mod go.sum language-host/main.go | sha256sum | cut -d' ' -f1"], { cwd: src, encoding: "utf8" });
      stamp(bin, hash);
      expect(cliStale(bin, src)).toBeUndefined();
      stamp(bin, hash.replace(/^./, (c) => (c === "0" ? "1" : "0")));
      expect(cliStale(bin, src)).toMatch(/was built from other sources than .*run `npm run pulumi-cli`/);
      fs.rmSync(path.join(bin, ".stamp"));
      expect(cliStale(bin, src)).toMatch(/npm run pulumi-cli/);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
