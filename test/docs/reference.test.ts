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

  it("types and describes every input and output, nested fields expanded", () => {
    // Every table row: `| \`name\` | type | ... | description |` (cells split on unescaped pipes).
    const table = generated.split("\n").filter((l) => l.startsWith("| `"));
    const cells = table.map((l) => l.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()));
    const problems: string[] = [];
    cells.forEach((c, i) => {
      const name = c[0]!;
      const type = c[1]!;
      const description = c[c.length - 1]!;
      if (!type || /\b(any|unknown)\b/.test(type)) problems.push(`${name}: type is ${JSON.stringify(type)}`);
      if (!description) problems.push(`${name}: no description`);
      // An object (or list of objects) says what it holds in the rows right after it.
      const field = name.replace(/`/g, "");
      const next = cells[i + 1]?.[0]?.replace(/`/g, "") ?? "";
      if (/^object(\[\])?$/.test(type) && !next.startsWith(`${field}.`) && !next.startsWith(`${field}[`)) problems.push(`${name}: typed ${type} with no rows for its fields`);
    });
    expect(table.length).toBeGreaterThan(100);
    expect(problems, "type and `.describe()` these fields in their zod schema (scripts/reference.ts renders them)").toEqual([]);
  });

  it("states each resource's limits and replace rules, as the schemas and diff rules have them", () => {
    expect(generated).toContain("| `title` | string | yes | 1 to 64 characters | change updates in place | Name of the team, 1 to 64 characters. |");
    expect(generated).toContain("| `proxy` | string | no | at most 512 characters; pattern `^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$` | change updates in place; removal clears it |");
    expect(generated).toContain("Replaced when `organizationId` or `siteId` or `spaceId` changes. The old object is deleted before its replacement is created");
    expect(generated).toContain("| `url` | string | Published URL, carrying the secret share key. Secret. |");
  });
});
