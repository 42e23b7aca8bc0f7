/**
 * Whether a copy of the package holds, file for file and byte for byte, what `npm pack` packs from
 * this checkout: the files test/install/tarball.test.ts type-checks and previews. A git URL's install
 * (npm clones, installs, runs `prepare`, packs) and a fresh clone's `npm ci` (which runs the same
 * `prepare`) are each compared with it, so that neither route needs a type-check and a preview of
 * its own (issue 23: each costs seconds of CPU).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { expect } from "vitest";
import { ROOT } from "../../dev/checkout";

/** What `npm pack` would pack from the package in `dir`, by relative path, without running its scripts. */
export function packList(dir: string): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir, encoding: "utf8" });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
}

/** Every file under `dir`, by relative path, but a nested node_modules. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Expects `files` (relative to `dir`, the package's copy: an installed one, or a clone that built
 * itself) to be what `npm pack` packs from this checkout, every file the copy's package.json names
 * among them, each the same as this checkout's.
 */
export function expectSameAsPacked(dir: string, files: string[]): void {
  const packed = packList(ROOT);
  expect(files.filter((f) => !packed.includes(f))).toEqual([]);
  expect(packed.filter((f) => !files.includes(f) && !staleOutput(f))).toEqual([]);
  // Every file the package.json names (main, types, bin, typesVersions, exports) is there: what the
  // tarball route imports and type-checks, whatever the `files` list (which `npm pack` reads too)
  // leaves out.
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const named = (v: unknown): string[] => (typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(named) : []);
  const entries = [...new Set(named([manifest.main, manifest.types, manifest.bin, manifest.typesVersions, manifest.exports]).map((f) => path.normalize(f)))];
  expect(entries.length).toBeGreaterThan(10);
  expect(entries.filter((f) => !files.includes(f))).toEqual([]);
  expect(files.filter((f) => !sameFile(path.join(dir, f), path.join(ROOT, f)))).toEqual([]);
}

/**
 * Whether `file` of the pack is built output whose source is gone from the checkout: a build leaves
 * it in dist/ (tsc never deletes), `npm pack` of this checkout packs it, and a clean build has none.
 */
function staleOutput(file: string): boolean {
  const m = /^dist\/(?:types-node10\/)?(.+?)(?:\.d\.ts|\.js)(?:\.map)?$/.exec(file);
  return !!m && !fs.existsSync(path.join(ROOT, `${m[1]}.ts`));
}

/**
 * Whether two files are the same, byte for byte; declarations (.d.ts) up to the order of a union's
 * members and of an inferred object type's (zod's enums), which tsc prints in the order its checker
 * met them: a fresh build (a clone's) and an incremental one (a developer's checkout after edits)
 * differ there, the content the same.
 */
function sameFile(a: string, b: string): boolean {
  const [x, y] = [fs.readFileSync(a, "utf8"), fs.readFileSync(b, "utf8")];
  return x === y || (a.endsWith(".d.ts") && unionsSorted(x) === unionsSorted(y));
}

/** The declarations printed again with every union's and object type's members in one order. */
function unionsSorted(text: string): string {
  const file = ts.createSourceFile("x.d.ts", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const printer = ts.createPrinter();
  const sortUnions: ts.TransformerFactory<ts.SourceFile> = (ctx) => {
    const key = (t: ts.Node) => printer.printNode(ts.EmitHint.Unspecified, t, file);
    const sorted = <T extends ts.Node>(nodes: readonly T[]) => ts.factory.createNodeArray([...nodes].sort((p, q) => (key(p) < key(q) ? -1 : key(p) > key(q) ? 1 : 0)));
    const visit = (node: ts.Node): ts.Node => {
      const n = ts.visitEachChild(node, visit, ctx);
      if (ts.isUnionTypeNode(n)) return ts.factory.updateUnionTypeNode(n, sorted(n.types));
      if (ts.isTypeLiteralNode(n)) return ts.factory.updateTypeLiteralNode(n, sorted(n.members));
      return n;
    };
    return (sf) => ts.visitNode(sf, visit) as ts.SourceFile;
  };
  const [out] = ts.transform(file, [sortUnions]).transformed;
  return printer.printFile(out!);
}
