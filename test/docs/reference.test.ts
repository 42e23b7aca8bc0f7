/**
 * docs/reference.md is generated from the code (scripts/reference.ts). This fails when the checked-in
 * file is not what the generator produces now — a schema limit, a `.describe()` text, an output or a
 * replace rule changed without regenerating — and says how to fix it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { generateReference, packageRoot, REFERENCE_FILE, REGENERATE } from "../../scripts/reference";

describe("docs/reference.md", () => {
  const root = packageRoot(__dirname);
  const generated = generateReference(root);

  it("is what the generator produces from the code", () => {
    const file = path.join(root, REFERENCE_FILE);
    const checkedIn = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (checkedIn !== generated) {
      const a = checkedIn.split("\n");
      const b = generated.split("\n");
      const line = a.findIndex((l, i) => l !== b[i]);
      expect.fail(
        `${REFERENCE_FILE} is out of date: run \`${REGENERATE}\` and commit the result.\n` +
          `First difference at line ${line + 1}:\n  checked in: ${a[line] ?? "(end of file)"}\n  generated:  ${b[line] ?? "(end of file)"}`,
      );
    }
  });

  it("documents every output of every resource", () => {
    const undocumented = generated.split("\n").filter((l) => /^\| `[^`]+` \| [^|]+ \|\s*\|$/.test(l));
    expect(undocumented, "describe these outputs in the resource's outputs schema (or the component's doc comments)").toEqual([]);
  });

  it("states each resource's limits and replace rules, as the schemas and diff rules have them", () => {
    expect(generated).toContain("| `title` | string | yes | 1 to 64 characters | change updates in place | Name of the team, 1 to 64 characters. |");
    expect(generated).toContain("| `proxy` | string | no | at most 512 characters; pattern `^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$` | change updates in place; removal clears it |");
    expect(generated).toContain("Replaced when `organizationId` or `siteId` or `spaceId` changes. The old object is deleted before its replacement is created");
    expect(generated).toContain("| `url` | string | Published URL, carrying the secret share key. Secret. |");
  });
});
