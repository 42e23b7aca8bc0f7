/**
 * Text from GitBook never becomes code: a property test over arbitrary strings. Every GitBook-sourced
 * field of a snapshot gets strings made of what breaks generated code (line terminators, `*\/`,
 * backticks, `${`, quotes, backslashes, U+2028/U+2029, lone and paired surrogates, NUL, names the
 * program or JavaScript reserve); the program is generated in both styles and compiled in process
 * with the TypeScript compiler. It must compile without a diagnostic, hold nothing but its imports
 * and declarations (no statement a value smuggled in), and carry every value exactly: as a string
 * literal of the program, or quoted as one in a comment.
 *
 * The generator is seeded (the emulator's PRNG, no dependency): a failure names its seed, and the
 * same seed replays it.
 */
import * as path from "node:path";
import yaml from "js-yaml";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createPrng } from "../../emulator/store";
import { comment, literal } from "./emit";
import { generateProgram, type Style } from "./generate";
import { PreviousProgram } from "./names";
import type { OrgSnapshot } from "./snapshot";

const ROOT = path.resolve(__dirname, "../..");

// ---- Arbitrary strings ---------------------------------------------------------------------------

/** What breaks generated code, and names JavaScript, CommonJS or the program reserve. */
const PIECES = [
  "\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085", "*/", "/*", "//", "`", "${", "}", "'", '"', "\\", "\\u2028", "\u0000", "\t", "\u001b", "\ufeff",
  "\ud800", "\udc00", "\udbff\udfff", "😀", "𝒜", "é", "<!--", "-->", "#!", "#", ":", "---", "\n}); process.exit(1); (() => {\n", "\u2028process.exit(1)\u2028",
  // Bidirectional controls (Trojan Source, CVE-2021-42574): they reorder how a line shows, not what it runs.
  "\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200f", "\u061c",
  "require", "module", "exports", "__proto__", "constructor", "toString", "gitbook", "pulumi", "class", "await", "a", "Z", "0", " ", "-", "/", ".",
];

/** `min` pieces at least: an empty condition or title is one GitBook does not have (and reads as none). */
function arbitrary(next: () => number, min = 0): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  let s = "";
  for (let n = min + Math.floor(next() * 8); n > 0; n--) s += next() < 0.8 ? pick(PIECES) : String.fromCharCode(Math.floor(next() * 0x10000));
  return s;
}

// ---- A snapshot with such a string in every field GitBook gives ------------------------------------

interface Case {
  snapshot: OrgSnapshot;
  /** Every value the program must carry exactly. */
  values: { field: string; value: string }[];
  /** Documents written beside the program, by the value they hold. */
  documents: string[];
}

/**
 * `enums`: settings GitBook keeps to a list (a site's type, a visibility) get arbitrary strings too;
 * a required one the resource refuses is then written as is with a FIXME (and so fails type checking,
 * by design), so only the parse is asserted for those.
 */
function arbitraryCase(seed: number, enums: boolean, tame = false): Case {
  const next = createPrng(seed);
  const values: Case["values"] = [];
  /** A string the program must carry. */
  const track = (field: string, value: string) => {
    values.push({ field, value });
    return value;
  };
  const v = (field: string, unique = false) => {
    // DocsSite's titles are 2 characters at least.
    let s = arbitrary(next, tame ? 2 : 1);
    // IDs and names are unique in GitBook; a suffix keeps them so without taming the rest.
    if (unique) s += `#${values.length}`;
    values.push({ field, value: s });
    return s;
  };
  /** A setting from a list: arbitrary or one GitBook has. */
  const e = (field: string, ...allowed: string[]) => (enums ? v(field) : allowed[Math.floor(next() * allowed.length)]!);
  const id = () => v("id", true);
  /**
   * `tame`: conditions, paths and URLs shaped as GitBook keeps them (holding arbitrary text where
   * they can), so the site passes DocsSite's own checks and the component is written.
   */
  const cond = (field: string) => (tame ? track(field, `visitor.claims.staff == ${JSON.stringify(arbitrary(next, 1))}`) : v(field));
  const urlish = (field: string) => (tame ? track(field, `https://example.com/${encodeURIComponent(arbitrary(next, 1).toWellFormed())}`) : v(field));
  const pathish = (field: string) => (tame ? track(field, `p${values.length}`) : v(field));
  const at = "2025-01-01T00:00:00.000Z";

  const collectionId = id();
  const spaceA = id();
  const spaceB = id();
  const groupId = id();
  const sectionA = id();
  const sectionB = id();
  const linkId = id();
  const teamId = id();
  const claim = v("claim");
  const snapshot: OrgSnapshot = {
    // The user's (--org, GITBOOK_API_URL), not GitBook's; in the files all the same.
    organizationId: v("organizationId"),
    apiUrl: arbitrary(next, 1),
    scope: "organization",
    sites: [
      {
        id: id(),
        title: v("title"),
        type: e("type", "ultimate", "premium", "basic"),
        visibility: e("visibility", "public", "share-link", "unlisted"),
        basename: v("basename"),
        agentsContext: e("agentsContext", "included", "excluded"),
        proxy: v("proxy"),
        adaptiveContent: { enabled: true },
        published: true,
        adaptiveSchema: {
          type: "object",
          properties: { staff: { type: "string", description: v("description") }, [claim]: { type: "boolean", description: v("description") }, ["__proto__"]: { type: "boolean", description: v("description") } },
          additionalProperties: false,
        },
        createdAt: at,
        topLevel: [sectionA, groupId, "unknown-item"],
        sections: [
          {
            id: sectionA,
            title: v("title"),
            path: pathish("path"),
            icon: v("icon"),
            condition: cond("condition"),
            description: v("description"),
            default: true,
            siteSpaces: [
              // The condition of a section's own site space is quoted in a comment.
              // Its ID and path are the SiteSection's outputs, not inputs: the program has no use for them.
              { id: arbitrary(next, 1), path: arbitrary(next), condition: cond("condition"), default: true, space: { id: spaceA, title: v("title") } },
              { id: id(), path: pathish("path"), condition: cond("condition"), default: false, space: { id: spaceB } },
            ],
          },
          {
            id: sectionB,
            title: v("title"),
            path: pathish("path"),
            default: false,
            groupId,
            draft: true,
            siteSpaces: [{ id: arbitrary(next, 1), path: arbitrary(next), default: true, space: { id: spaceB } }],
          },
          // No space: not imported, and said so in a comment.
          { id: id(), title: v("title"), path: arbitrary(next), default: false, siteSpaces: [] },
        ],
        sectionGroups: [{ id: groupId, title: v("title"), icon: v("icon"), draft: false, itemIds: [linkId, sectionB] }],
        externalLinks: [{ id: linkId, title: v("title"), url: urlish("url"), description: v("description"), icon: v("icon"), draft: true, condition: cond("condition"), groupId }],
        unknownItems: [{ id: id(), object: v("object") }],
        shareLinks: [
          { id: id(), name: v("name"), active: true, createdAt: at },
          { id: id(), active: false, createdAt: at },
        ],
        rootSiteSpaces: [{ id: id(), path: pathish("path"), default: false, space: { id: arbitrary(next, 1), title: v("title") } }],
      },
    ],
    spaces: [
      { id: spaceA, title: v("title"), emoji: v("emoji"), parent: collectionId, language: e("language", "en", "fr"), editMode: e("editMode", "live", "locked"), defaultLevel: e("defaultLevel", "read", "inherit"), createdAt: at },
      { id: spaceB, title: v("title"), icon: v("icon"), createdAt: at },
    ],
    collections: [{ id: collectionId, title: v("title"), description: v("description"), defaultLevel: e("defaultLevel", "read", "inherit") }],
    teams: [{ id: teamId, title: v("title"), members: [{ user: v("user"), role: "owner" }] }],
    samlProviders: [
      { id: id(), label: v("label"), entityID: v("entityID"), certificate: v("certificate"), ssoURL: v("ssoURL"), defaultTeamId: teamId, defaultRole: e("defaultRole", "viewer", "editor"), createdAt: at },
      { id: id(), label: v("label"), defaultTeamId: id(), defaultRole: null },
    ],
    openApiSpecs: [
      { id: id(), slug: v("slug"), visibility: e("visibility", "public", "private"), processingState: "complete", source: { url: v("url") } },
      { id: id(), slug: v("slug"), visibility: e("visibility", "public", "private"), processingState: "complete", lastProcessErrorCode: v("lastProcessErrorCode"), source: { text: { document: { content: arbitrary(next), format: "yaml" } } } },
      { id: id(), slug: v("slug"), visibility: e("visibility", "public", "private"), processingState: "complete", source: { text: { unavailable: arbitrary(next) } } },
    ],
  };
  const spec = snapshot.openApiSpecs[1]!.source as { text: { document: { content: string } } };
  return { snapshot, values, documents: [spec.text.document.content] };
}

// ---- Compiling in process ------------------------------------------------------------------------

/** Where the program of case `i` sits: beside the package, so that its imports resolve as a user's would. */
const fileOf = (i: number) => path.join(ROOT, "generated-program", String(i), "index.ts");
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  esModuleInterop: true,
  skipLibCheck: true,
  types: ["node"],
  typeRoots: [path.join(ROOT, "node_modules/@types")],
  baseUrl: ROOT,
  // The package as its users get it: its built declarations.
  paths: { "pulumi-gitbook": [path.join(ROOT, "dist/provider/index.d.ts")] },
};
const host = ts.createCompilerHost(OPTIONS);
const cache = new Map<string, ts.SourceFile | undefined>();
let sources = new Map<string, string>();
const getSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (file, language) => {
  const text = sources.get(path.resolve(file));
  if (text !== undefined) return ts.createSourceFile(file, text, language, true);
  if (!cache.has(file)) cache.set(file, getSourceFile(file, language));
  return cache.get(file);
};
const fileExists = host.fileExists.bind(host);
host.fileExists = (file) => sources.has(path.resolve(file)) || fileExists(file);
let previous: ts.Program | undefined;

/**
 * Compiles the programs together, each a module of its own in one TypeScript program: one checker
 * resolves the package's and the SDK's types once for all of them (a program per case spent most of
 * this file's CPU resolving them again). Answers each program's file and diagnostics, in order.
 */
function compile(texts: string[]): { file: ts.SourceFile; diagnostics: string[] }[] {
  sources = new Map(texts.map((t, i) => [fileOf(i), t]));
  const program = ts.createProgram({ rootNames: [...sources.keys()], options: OPTIONS, host, oldProgram: previous });
  previous = program;
  return texts.map((_, i) => {
    const file = program.getSourceFile(fileOf(i))!;
    // Some errors come only with the emit (TS2441: `const exports` in a CommonJS module), which is then run in memory.
    const emitted = program.emit(file, () => {}).diagnostics;
    const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file), ...emitted].map(
      (d) => `${d.start === undefined ? "" : `${file.getLineAndCharacterOfPosition(d.start).line + 1}: `}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
    return { file, diagnostics: [...new Set(diagnostics)] };
  });
}

/** Every string the program holds as a literal (object keys included), as its value. */
function stringLiterals(file: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const walk = (n: ts.Node) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) out.add(n.text);
    if (ts.isIdentifier(n) && ts.isPropertyAssignment(n.parent) && n.parent.name === n) out.add(n.text);
    ts.forEachChild(n, walk);
  };
  walk(file);
  return out;
}

/** The program's comments, each as written. */
function comments(file: ts.SourceFile): string[] {
  const out = new Set<string>();
  const walk = (n: ts.Node) => {
    for (const r of ts.getLeadingCommentRanges(file.text, n.pos) ?? []) out.add(file.text.slice(r.pos, r.end));
    ts.forEachChild(n, walk);
  };
  walk(file);
  for (const r of ts.getLeadingCommentRanges(file.text, file.endOfFileToken.pos) ?? []) out.add(file.text.slice(r.pos, r.end));
  return [...out];
}

/**
 * What a generated program may hold at its top level: imports, `const x = new gitbook.Kind(...)`,
 * and the --retain-on-delete transform. Anything else is a value that escaped into code.
 */
function unexpectedStatements(file: ts.SourceFile): string[] {
  return file.statements
    .filter((s) => {
      if (ts.isImportDeclaration(s)) return false;
      if (ts.isVariableStatement(s)) {
        const [d, ...more] = s.declarationList.declarations;
        return !(more.length === 0 && d && ts.isIdentifier(d.name) && d.initializer && ts.isNewExpression(d.initializer) && /^gitbook\.\w+$/.test(d.initializer.expression.getText(file)));
      }
      return !s.getText(file).startsWith("pulumi.runtime.registerResourceTransform(");
    })
    .map((s) => s.getText(file));
}

/**
 * What the program must not hold raw: the characters that reorder a line as shown (the bidirectional
 * embeddings, overrides, isolates and marks) and the C1 controls (a terminal showing the file may act on them).
 */
const BIDI = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** How many programs held a DocsSite: arbitrary text must reach the component too, not only the fallback. */
let docsSites = 0;

interface Run {
  c: Case;
  style: Style;
  typeCheck: boolean;
  /** Named in a failure, so that the seed replays it. */
  label: string;
}

/** Generates each run's program, checks its text and files, then compiles them all (see compile) and checks each. */
function check(runs: Run[]): void {
  const failing = <T>(run: Run, f: () => T): T => {
    try {
      return f();
    } catch (e) {
      throw new Error(`${run.label}: ${(e as Error).message}`);
    }
  };
  const texts = runs.map((run) => failing(run, () => generated(run)));
  compile(texts).forEach((compiled, i) => failing(runs[i]!, () => carried(runs[i]!, texts[i]!, compiled)));
}

function generated({ c, style }: Run): string {
  const { files } = generateProgram(c.snapshot, { style, project: "gitbook", stack: "dev", retainOnDelete: true, packageSpec: "^0.1.0" });
  const text = files["index.ts"]!;
  if (text.includes("new gitbook.DocsSite(")) docsSites++;
  // Re-imported over itself, whatever its strings, the program reads back as it was written: every name
  // kept, every site in its form, nothing refused, the same text.
  const again = generateProgram(c.snapshot, { style, project: "gitbook", stack: "dev", retainOnDelete: true, packageSpec: "^0.1.0", previous: PreviousProgram.parse(text) });
  const [was, is] = [text.split("\n"), again.files["index.ts"]!.split("\n")];
  const at = Math.max(was.findIndex((l, i) => l !== is[i]), is.length > was.length ? was.length : -1);
  expect(at, `re-imported, line ${at + 1} ${JSON.stringify(was[at])} became ${JSON.stringify(is[at])}`).toBe(-1);
  // A value may hold bidirectional or C1 controls, but the program shows them escaped: raw, they would make a
  // reader (or a reviewer of its diff) see the line in another order than it runs, or drive a terminal.
  expect(text.match(BIDI) ?? [], text).toEqual([]);
  // Documents are files of their own, under openapi/, whatever the slug.
  const documents = Object.entries(files).filter(([f]) => f.startsWith("openapi/"));
  for (const [f] of documents) expect(f).toMatch(/^openapi\/[a-z0-9-]+\.(json|yaml)$/);
  expect(documents.map(([, content]) => content)).toEqual(c.documents);
  // The stack and project files hold the organization and API URL exactly, each on one line.
  const stack = files["Pulumi.dev.yaml"]!;
  expect(stack.split("\n").filter((l) => l.startsWith("  gitbook:"))).toHaveLength(2);
  expect(yaml.load(stack)).toEqual({ config: { "gitbook:organizationId": c.snapshot.organizationId, "gitbook:apiUrl": c.snapshot.apiUrl } });
  expect(yaml.load(files["Pulumi.yaml"]!)).toEqual({
    name: "gitbook",
    runtime: "nodejs",
    description: `The GitBook organization ${c.snapshot.organizationId}, imported with pulumi-gitbook.`,
  });
  return text;
}

function carried({ c, typeCheck }: Run, text: string, { file, diagnostics }: ReturnType<typeof compile>[number]): void {
  // A module of its own: a script's declarations would be global to the programs compiled beside it.
  expect(ts.isExternalModule(file), text).toBe(true);
  const shown = typeCheck ? diagnostics : diagnostics.filter((d) => !/is not assignable|No overload matches/.test(d));
  expect(shown, text).toEqual([]);
  // parseDiagnostics is internal to TypeScript's SourceFile, not in its types.
  expect((file as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics ?? [], text).toEqual([]);
  expect(unexpectedStatements(file), text).toEqual([]);
  const literals = stringLiterals(file);
  const quoted = comments(file).join("\n");
  for (const { field, value } of c.values) {
    const carried = literals.has(value) || quoted.includes(comment(literal(value)).slice(3));
    expect(carried, `${field} ${literal(value)} is not carried exactly by\n${text}`).toBe(true);
  }
}

const SEEDS = Array.from({ length: 8 }, (_, i) => i + 1);

describe("text from GitBook in the generated program", () => {
  it("compiles a program whose site-space condition holds a newline (and a site titled `exports`), and keeps the condition", () => {
    const c = arbitraryCase(0, false);
    const condition = "visitor.claims.beta == true\nprocess.exit(1)";
    const own = c.snapshot.sites[0]!.sections[0]!.siteSpaces[0]!;
    c.values.find((x) => x.value === own.condition)!.value = condition;
    own.condition = condition;
    // A site named after a CommonJS module's own variable: TypeScript refuses a top-level `const exports`.
    const site = c.snapshot.sites[0]!;
    c.values.find((x) => x.value === site.title)!.value = "exports";
    site.title = "exports";
    check([{ c, style: "resources", typeCheck: true, label: "seed 0" }]);
  });

  for (const style of ["resources", "docs-site"] as const) {
    it(`carries arbitrary strings exactly and compiles (--style ${style})`, () => {
      check(
        SEEDS.flatMap((seed) => [
          { c: arbitraryCase(seed, false), style, typeCheck: true, label: `seed ${seed}` },
          { c: arbitraryCase(seed + 1000, true), style, typeCheck: false, label: `seed ${seed}, enums` },
          { c: arbitraryCase(seed + 2000, false, true), style, typeCheck: true, label: `seed ${seed}, tame` },
        ]),
      );
      if (style === "docs-site") expect(docsSites).toBeGreaterThan(0);
    }, 120_000);
  }
});
