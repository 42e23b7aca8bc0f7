/**
 * The package's modules import each other without a cycle (issue 23). In a cycle, whichever module
 * Node loads first sees the other's exports as undefined until that one has finished loading: it works
 * only while every use waits inside a function, and a top-level use added later fails, or not,
 * depending on which module a program happens to load first. Type-only imports are erased by tsc and
 * do not count.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { expect, it } from "vitest";
import { ROOT } from "../../dev/checkout";

const DIRS = ["provider", "emulator", "bin", "dev", "bench", "scripts"];

function sources(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sources(full);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The modules of this checkout that `file` loads when it runs: relative imports and re-exports that carry a value. */
function valueImports(file: string): string[] {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const node of sf.statements) {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      // `import { type A, type B } from` loads nothing either.
      if (clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)) continue;
      spec = node.moduleSpecifier;
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly) {
      spec = node.moduleSpecifier;
    }
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith(".")) continue;
    const target = path.resolve(path.dirname(file), spec.text);
    const found = [`${target}.ts`, path.join(target, "index.ts")].find((f) => fs.existsSync(f));
    if (found) out.push(found);
  }
  return out;
}

/** The strongly connected components of more than one module (Tarjan), each as paths relative to the checkout. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(ROOT, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

it("the package's modules import each other without a cycle", () => {
  const files = DIRS.flatMap((d) => sources(path.join(ROOT, d)));
  expect(files.length).toBeGreaterThan(100);
  const graph = new Map(files.map((f) => [f, valueImports(f)]));
  expect([...graph.values()].flat().length).toBeGreaterThan(300);
  expect(cycles(graph)).toEqual([]);
});

it("sees a cycle of value imports, and not one of type-only imports", () => {
  const graph = new Map([
    ["/a.ts", ["/b.ts"]],
    ["/b.ts", ["/c.ts"]],
    ["/c.ts", ["/a.ts"]],
    ["/d.ts", ["/a.ts"]],
  ]);
  expect(cycles(graph).map((c) => c.length)).toEqual([3]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-cycles-"));
  try {
    fs.writeFileSync(path.join(dir, "a.ts"), 'import type { B } from "./b";\nimport { type C } from "./c";\nimport { d } from "./d";\nexport { e } from "./e";\n');
    for (const f of ["b", "c", "d", "e"]) fs.writeFileSync(path.join(dir, `${f}.ts`), "export {};\n");
    expect(valueImports(path.join(dir, "a.ts")).map((f) => path.basename(f))).toEqual(["d.ts", "e.ts"]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
