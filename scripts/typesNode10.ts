/**
 * Part of `npm run build`: writes dist/types-node10, the package's declarations for programs that
 * resolve modules the way `pulumi new typescript`'s tsconfig.json does (`"moduleResolution": "node"`,
 * `"module": "commonjs"`, no `esModuleInterop`, no `skipLibCheck`).
 *
 * Why: such a compiler reads package.json `types`, not `exports`, and for `zod` that is zod's CommonJS
 * declarations, whose locale files are `export =` modules that zod default-imports. Without
 * `esModuleInterop` each is error TS1259, so a user's `tsc` failed with dozens of errors in zod's
 * files, none in theirs. These copies import `zod/index.js` instead: that resolver takes it to zod's
 * ESM declarations, the same types without `export =`. Compilers that read `exports` (node16,
 * nodenext, bundler) take the declarations beside the JavaScript, which import `zod`, where that
 * path would not resolve; they allow the default imports anyway.
 *
 * package.json points `types` and `typesVersions` here; test/install/tarball.test.ts compiles a
 * program with the template's tsconfig against the packed package.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "../dev/checkout";

const DIST = path.join(ROOT, "dist");
export const NODE10_TYPES = path.join(DIST, "types-node10");
/** The folders of dist/ that the package publishes declarations from. */
const PUBLISHED = ["provider", "emulator", "bin"];

/** `from "zod"` / `import("zod/v4/core")` -> the same module named by its ESM declaration file. */
export function node10Declaration(text: string): string {
  return text.replace(/(\bfrom\s+|\bimport\s*\(\s*)(["'])zod((?:\/[\w.-]+)*)\2/g, (_m, lead: string, q: string, sub: string) => `${lead}${q}zod${sub}/index.js${q}`);
}

function declarations(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? declarations(p) : e.name.endsWith(".d.ts") ? [p] : [];
  });
}

export function writeNode10Types(): number {
  fs.rmSync(NODE10_TYPES, { recursive: true, force: true });
  let n = 0;
  for (const top of PUBLISHED) {
    for (const file of declarations(path.join(DIST, top))) {
      const target = path.join(NODE10_TYPES, path.relative(DIST, file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, node10Declaration(fs.readFileSync(file, "utf8")));
      n++;
    }
  }
  return n;
}

if (require.main === module) {
  const n = writeNode10Types();
  if (n === 0) {
    console.error("typesNode10: no declarations under dist/: run tsc first (npm run build does)");
    process.exit(1);
  }
}
