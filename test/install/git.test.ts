/**
 * The package from a git URL (README install option 3): `npm install git+file://<repository>`, where
 * the repository is one commit of this working tree (the code under test, uncommitted edits
 * included). npm clones it, installs the clone's own dependencies and runs its `prepare` (the
 * build) there, packs it and installs the pack; offline, with npm's cache as `npm ci` filled it.
 * Then the checks every install gets (test/install/installed.ts) but the type-check and the preview:
 * what npm installs here is, file for file and byte for byte (a declaration up to its unions' order:
 * see sameFile), what `npm pack` packs from this checkout, which is what test/install/tarball.test.ts
 * type-checks and previews.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { expect, it } from "vitest";
import { ROOT, sourceRepo } from "../../dev/checkout";
import { describeInstalledProgram } from "./installed";

/** Every file under `dir`, by relative path, but a nested node_modules. */
function filesUnder(dir: string): string[] {
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
 * met them: a fresh build (what npm's clone makes) and an incremental one (a developer's checkout
 * after edits) differ there, the content the same.
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

describeInstalledProgram(
  "the package from a git URL in a new TypeScript program",
  async (tmp) => {
    const { repo, sha } = sourceRepo(path.join(tmp, "repository"));
    return { spec: `git+file://${repo}`, gitCommit: sha };
  },
  (installed) => {
    it("npm lists only protobufjs's install script: the package was built in npm's clone, and what it installs runs nothing", () => {
      expect(installed().npmStderr).toContain("protobufjs@");
      expect(installed().npmStderr).not.toContain("pulumi-gitbook@");
    });

    it("installs, byte for byte, the files `npm pack` packs from this checkout (the tarball route's, which it type-checks and previews)", () => {
      const pkg = path.join(installed().program, "node_modules/pulumi-gitbook");
      const packed = (JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" })) as { files: { path: string }[] }[])[0]!.files
        .map((f) => f.path)
        .sort();
      const got = filesUnder(pkg);
      expect(got.filter((f) => !packed.includes(f))).toEqual([]);
      expect(packed.filter((f) => !got.includes(f) && !staleOutput(f))).toEqual([]);
      // Every file the package.json names (main, types, bin, typesVersions, exports) is there: what
      // the tarball route imports and type-checks, whatever the `files` list (which `npm pack` above
      // reads too) leaves out.
      const manifest = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8"));
      const named = (v: unknown): string[] => (typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(named) : []);
      const entries = [...new Set(named([manifest.main, manifest.types, manifest.bin, manifest.typesVersions, manifest.exports]).map((f) => path.normalize(f)))];
      expect(entries.length).toBeGreaterThan(10);
      expect(entries.filter((f) => !got.includes(f))).toEqual([]);
      expect(got.filter((f) => !sameFile(path.join(pkg, f), path.join(ROOT, f)))).toEqual([]);
    });
  },
  { runsProgram: false },
);
