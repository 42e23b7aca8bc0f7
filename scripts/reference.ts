/**
 * `npm run docs`: writes docs/reference.md from the code, so the reference cannot drift from it.
 *
 * - Inputs come from each resource's zod schema (zod's JSON Schema export gives the type, whether
 *   it is required, its limits and its `.describe()` text).
 * - Outputs come from each resource's outputs schema, the same way; the DocsSite component's from its
 *   class members, typed by the compiler and described by their doc comments.
 * - What a change or a removal of each input does comes from the rule the field declares (fields.ts),
 *   and the replacement order from the resource's declaration.
 * - Examples are the function bodies of scripts/referenceExamples.ts, which `tsc` type-checks.
 *
 * test/docs/reference.test.ts fails when the checked-in file differs from what this produces.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { z } from "zod";
import { docsSiteTopologySchema } from "../provider/components/topology";
import type { Resource } from "../provider/framework/define";
import type { DiffRules } from "../provider/framework/diff";
import { ruleOf } from "../provider/framework/fields";
import { resources } from "../provider/resources";

export const REFERENCE_FILE = "docs/reference.md";
export const REGENERATE = "npm run docs";

const COMPONENT_FILE = "provider/components/docsSite.ts";
const EXAMPLES_FILE = "scripts/referenceExamples.ts";

// ---- Inputs, from the zod schemas -----------------------------------------------------------------

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  default?: unknown;
  description?: string;
};

interface Row {
  name: string;
  type: string;
  required: string;
  limits: string;
  /** What changing and removing the input does (top-level inputs of resources only). */
  effect?: string;
  description: string;
}

/**
 * How a schema's `$ref`s resolve (zod puts recursive types, such as a visitor schema's claims, in
 * `$defs`), and which ones are being expanded on the current path: a recursive type is expanded once
 * and then named by the row that expands it.
 */
interface Walk {
  defs: Record<string, JsonSchema>;
  expanding: Map<string, string>;
}

const walkOf = (root: JsonSchema): Walk => ({ defs: root.$defs ?? {}, expanding: new Map() });

function resolve(s: JsonSchema, walk: Walk): JsonSchema {
  if (!s.$ref) return s;
  const def = walk.defs[s.$ref.replace("#/$defs/", "")];
  if (!def) throw new Error(`unresolved ${s.$ref} in a schema`);
  return { ...def, description: s.description ?? def.description };
}

/** A union's variants, and the `type` constant that tells each apart when every variant has one. */
function variantsOf(s: JsonSchema): { variants: JsonSchema[]; tags?: string[] } | undefined {
  const variants = s.oneOf ?? s.anyOf;
  if (!variants) return undefined;
  const tags = variants.map((v) => v.properties?.type?.const);
  return { variants, tags: tags.every((t) => typeof t === "string") ? (tags as string[]) : undefined };
}

/** A record's value schema (`Record<string, V>`), when the object is one. */
const recordValue = (s: JsonSchema): JsonSchema | undefined =>
  typeof s.additionalProperties === "object" && Object.keys(s.additionalProperties).length > 0 ? s.additionalProperties : undefined;

function typeOf(raw: JsonSchema, walk: Walk): string {
  if (raw.$ref && walk.expanding.has(raw.$ref)) return `same as \`${walk.expanding.get(raw.$ref)}\``;
  const s = resolve(raw, walk);
  const union = variantsOf(s);
  if (union?.tags) return `object, by \`type\`: ${union.tags.map((t) => `\`${JSON.stringify(t)}\``).join(" \\| ")}`;
  if (union) return union.variants.map((v) => typeOf(v, walk)).join(" \\| ");
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.enum) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(" \\| ");
  if (s.type === "array") {
    if (!s.items) throw new Error("an array schema without items");
    const item = typeOf(s.items, walk);
    return item.includes(" ") ? `list of (${item})` : `${item}[]`;
  }
  if (s.type === "object") {
    const value = recordValue(s);
    if (!value) return "object";
    const v = typeOf(value, walk);
    return v.includes(" ") ? `map from name to (${v})` : `map from name to ${v}`;
  }
  if (s.type === "null") return "`null`";
  if (typeof s.type === "string") return s.type;
  // A nullable scalar: zod writes `type: ["string", "null"]`.
  if (Array.isArray(s.type) && s.type.length > 0) return s.type.map((t) => (t === "null" ? "`null`" : t)).join(" \\| ");
  throw new Error(`no type to document in ${JSON.stringify(s).slice(0, 200)}`);
}

function limitsOf(s: JsonSchema): string {
  const out: string[] = [];
  const { minLength: min, maxLength: max } = s;
  if (max !== undefined) out.push(min ? `${min} to ${max} characters` : `at most ${max} characters`);
  else if (min !== undefined && min > 1) out.push(`at least ${min} characters`);
  if (s.pattern) out.push(`pattern \`${s.pattern}\``);
  if (s.minItems) out.push(`at least ${s.minItems} item${s.minItems > 1 ? "s" : ""}`);
  if (s.maxItems !== undefined) out.push(`at most ${s.maxItems} item${s.maxItems === 1 ? "" : "s"}`);
  if (s.minimum !== undefined) out.push(`at least ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`at most ${s.maximum}`);
  if (s.default !== undefined) out.push(`default \`${JSON.stringify(s.default)}\``);
  for (const alt of s.anyOf ?? []) {
    const inner = limitsOf(alt);
    if (inner) out.push(inner);
  }
  return out.join("; ");
}

const nestedRequired = (n: string, s: JsonSchema, req: string[]) => (req.includes(n) && s.default === undefined ? "yes" : "no");

/**
 * The rows under a field named `full`: an object's fields (`source.url`), a list's items
 * (`members[].user`), a map's values (`properties.<name>`) and each variant of a union, named by its
 * `type` (`sections[type="group"].title`), so that no row is left typed only `object`.
 */
function nestedRows(raw: JsonSchema, full: string, walk: Walk): Row[] {
  if (raw.$ref && walk.expanding.has(raw.$ref)) return [];
  const s = resolve(raw, walk);
  const inner = (): Row[] => {
    const union = variantsOf(s);
    if (union) {
      return union.variants.flatMap((v, i) => {
        // Untagged variants are told apart by the fields they require (`source{url}`).
        const label = union.tags ? `${full}[type=${JSON.stringify(union.tags[i])}]` : `${full}{${(v.required ?? Object.keys(v.properties ?? {})).join(",")}}`;
        return v.properties ? rows(v, `${label}.`, nestedRequired, walk) : nestedRows(v, label, walk);
      });
    }
    if (s.type === "array" && s.items) {
      const item = resolve(s.items, walk);
      // A list of plain values is described by its own row; a list of a union names each variant.
      if (variantsOf(item)) return nestedRows(s.items, full, walk);
      return item.properties ? rows(item, `${full}[].`, nestedRequired, walk) : nestedRows(s.items, `${full}[]`, walk);
    }
    if (s.type === "object") {
      const out = s.properties ? rows(s, `${full}.`, nestedRequired, walk) : [];
      const value = recordValue(s);
      if (value) {
        const name = `${full}.<name>`;
        const v = resolve(value, walk);
        out.push({ name, type: typeOf(value, walk), required: "no", limits: limitsOf(v), description: v.description ?? `An entry of \`${full}\`, under its name.` });
        out.push(...nestedRows(value, name, walk));
      }
      return out;
    }
    return [];
  };
  if (!raw.$ref) return inner();
  walk.expanding.set(raw.$ref, full);
  try {
    return inner();
  } finally {
    walk.expanding.delete(raw.$ref);
  }
}

/** One row per field, nested fields (`source.url`, `members[].user`) after their parent. */
function rows(schema: JsonSchema, prefix: string, required: (field: string, s: JsonSchema, parentRequired: string[]) => string, walk: Walk): Row[] {
  const out: Row[] = [];
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const full = `${prefix}${name}`;
    const s = resolve(raw, walk);
    out.push({ name: full, type: typeOf(raw, walk), required: required(name, s, schema.required ?? []), limits: limitsOf(s), description: s.description ?? "" });
    out.push(...nestedRows(raw, full, walk));
  }
  return out;
}

/** What changing and removing an input does, from the rule its field declares. */
function effectOf(def: Resource, name: string): string {
  if (name === "adoptId") return "used only at the first creation";
  if (name === "allowReplacement") return "never compared or sent: allows the plan a replacement";
  const shape = def.schema.shape as Record<string, z.ZodType>;
  const rule = ruleOf(shape[name]!);
  if (rule.display) return "shown in plans only: never compared nor sent, so a change to it alone changes nothing";
  if (rule.local) return "provider-local: never sent to or read from GitBook; a change is recorded in state with no request";
  const change = rule.change === "replace" ? "change replaces" : "change updates in place";
  if (rule.live) return `${change}; managed only while declared, removal keeps the current value`;
  const required = !(shape[name] instanceof z.ZodOptional);
  if (required) return change;
  const remove = rule.remove === "clear" ? "removal clears it" : typeof rule.remove === "object" ? `removal sets ${code(JSON.stringify(rule.remove.reset))}` : "removal keeps the current value";
  return `${change}; ${remove}`;
}

function inputRows(def: Resource): Row[] {
  const schema = z.toJSONSchema(def.schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const top = new Set(Object.keys(def.schema.shape));
  return rows(schema, "", (name, s, req) => {
    // check() fills organizationId from stack config, so a program may leave it out.
    if (name === "organizationId") return "no (`gitbook:organizationId`)";
    return req.includes(name) && s.default === undefined ? "yes" : "no";
  }, walkOf(schema)).map((r) => (top.has(r.name) ? { ...r, effect: effectOf(def, r.name) } : { ...r, effect: "" }));
}

/** The outputs that are not inputs, nested fields after their parent. */
function outputRows(def: Resource): OutputDoc[] {
  const schema = z.toJSONSchema(def.outputs, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const inputs = new Set(Object.keys(def.schema.shape));
  return rows(schema, "", () => "", walkOf(schema))
    .filter((r) => !inputs.has(r.name.split(/[.[{]/)[0]!))
    .map((r) => ({ name: r.name, type: r.type, description: r.description + (def.secretOutputs.includes(r.name) ? " Secret." : "") }));
}

// ---- The component's outputs, from its class -------------------------------------------------------

interface OutputDoc {
  name: string;
  type: string;
  description: string;
}

function compilerFor(root: string, files: string[]): ts.Program {
  const configPath = path.join(root, "tsconfig.json");
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, root);
  return ts.createProgram(
    files.map((f) => path.join(root, f)),
    { ...parsed.options, noEmit: true },
  );
}

function docOf(symbol: ts.Symbol | undefined, checker: ts.TypeChecker): string {
  return symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s+/g, " ").trim() : "";
}

/**
 * The public readonly members of class `className` in `file`. For a resource, those holding
 * `pulumi.Output<T>` are its outputs (typed T); a member's own doc comment wins, else the doc of the
 * same field in `<className>Outputs`.
 */
function classOutputs(program: ts.Program, root: string, file: string, className: string): OutputDoc[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(root, file));
  if (!source) throw new Error(`${file} is not part of the program`);
  let outputsType: ts.Type | undefined;
  let cls: ts.ClassDeclaration | undefined;
  source.forEachChild((n) => {
    if (ts.isClassDeclaration(n) && n.name?.text === className) cls = n;
    if (ts.isTypeAliasDeclaration(n) && n.name.text === `${className}Outputs`) outputsType = checker.getTypeAtLocation(n);
  });
  if (!cls) throw new Error(`${file} declares no class ${className}`);
  const out: OutputDoc[] = [];
  for (const m of cls.members) {
    if (!ts.isPropertyDeclaration(m) || !ts.isIdentifier(m.name) || !m.type) continue;
    const mods = ts.getModifiers(m) ?? [];
    if (!mods.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword) || mods.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
    const name = m.name.text;
    let typeNode: ts.TypeNode = m.type;
    if (ts.isTypeReferenceNode(typeNode) && typeNode.typeName.getText(source).endsWith("Output") && typeNode.typeArguments?.length === 1) {
      typeNode = typeNode.typeArguments[0]!;
    } else {
      // A resource (or a record of them) is shown by its class name, as the program writes it.
      out.push({ name: m.name.text, type: typeNode.getText(source), description: docOf(checker.getSymbolAtLocation(m.name), checker) });
      continue;
    }
    // An output that may be absent is simply not in the table's type: the description says when.
    const type = checker.getNonNullableType(checker.getTypeFromTypeNode(typeNode));
    const shown = checker
      .typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType)
      .replace(/\?: ([^;]+?) \| undefined;/g, "?: $1;");
    const own = docOf(checker.getSymbolAtLocation(m.name), checker);
    out.push({ name, type: shown, description: own || docOf(outputsType?.getProperty(name), checker) });
  }
  return out;
}

// ---- Examples, from scripts/referenceExamples.ts ---------------------------------------------------

function examples(program: ts.Program, root: string): Map<string, string> {
  const source = program.getSourceFile(path.join(root, EXAMPLES_FILE));
  if (!source) throw new Error(`${EXAMPLES_FILE} is not part of the program`);
  const out = new Map<string, string>();
  source.forEachChild((n) => {
    if (!ts.isFunctionDeclaration(n) || !n.name || !n.body || !(ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return;
    const text = n.body.getText(source).slice(1, -1).replace(/^\n/, "").trimEnd();
    const indent = Math.min(...text.split("\n").filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
    const body = text
      .split("\n")
      .map((l) => l.slice(indent))
      // `export_("x", v)` stands for a top-level `export const x = v` (which a function cannot hold).
      .map((l) => l.replace(/^export_\("(\w+)", (.*)\);/, "export const $1 = $2;"))
      .join("\n");
    const imports = [...(body.includes("fs.") ? ['import * as fs from "node:fs";'] : []), 'import * as gitbook from "pulumi-gitbook";'];
    out.set(n.name.text, `${imports.join("\n")}\n\n${body}`);
  });
  return out;
}

// ---- Rendering ---------------------------------------------------------------------------------------

// Types arrive with their pipes escaped already: escape only the bare ones.
const cell = (s: string) => s.replace(/\\?\|/g, "\\|").replace(/\n/g, " ");
const code = (s: string) => `\`${s}\``;

const typeCell = (t: string) => (t.includes("`") ? t : cell(t));

function inputTable(list: Row[]): string[] {
  const effects = list.some((r) => r.effect !== undefined);
  return [
    `| Input | Type | Required | Limits |${effects ? " Change / removal |" : ""} Description |`,
    `|---|---|---|---|${effects ? "---|" : ""}---|`,
    ...list.map((r) => `| ${code(r.name)} | ${typeCell(r.type)} | ${r.required} | ${cell(r.limits)} |${effects ? ` ${cell(r.effect ?? "")} |` : ""} ${cell(r.description)} |`),
  ];
}

function outputTable(list: OutputDoc[], typesAreCode = true): string[] {
  if (list.length === 0) return ["None besides the inputs."];
  return ["| Output | Type | Description |", "|---|---|---|", ...list.map((o) => `| ${code(o.name)} | ${typesAreCode ? code(cell(o.type)) : typeCell(o.type)} | ${cell(o.description)} |`)];
}

function replacement(kind: string, diff: DiffRules, adoptable: boolean, holds?: string): string[] {
  const inPlace = diff.fields.filter((f) => !diff.replaceOn.includes(f) && !(diff.localFields ?? []).includes(f));
  const dbr = diff.deleteBeforeReplace;
  const order =
    typeof dbr === "object"
      ? `The replacement is created before the old object is deleted when ${dbr.map(code).join(" or ")} changes; otherwise the old one goes first, since the two would collide (\`up --replace\`, which the engine orders without asking, fails on that collision and changes nothing).`
      : dbr
        ? "The old object is deleted before its replacement is created (the two would collide, or are one object), also when `up --replace` forces it."
        : "The replacement is created before the old object is deleted.";
  const live = diff.liveFields ?? [];
  return [
    `Replaced when ${diff.replaceOn.map(code).join(" or ")} changes. ${order}`,
    ...(holds
      ? ["", `A replacement deletes the ${kind} with ${holds.replace(/,$/, "")} (to GitBook's trash), so a plan that would replace one fails at preview, naming it and the field, unless the program sets \`allowReplacement: true\`.`]
      : []),
    "",
    `Updated in place: ${inPlace.map(code).join(", ")}.${adoptable ? " `adoptId` matters only at the first creation; a replacement is refused while it is still set (remove it, and the replacement creates a new object)." : ""}`,
    ...(live.length
      ? [
          "",
          `Managed only while declared: ${live.map(code).join(", ")}. Left out of the program, GitBook's default applies to a new object, and an adopted object keeps its value; removing one from the program changes nothing. The output always holds the object's actual value.`,
        ]
      : []),
  ];
}

function anchor(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9 -]/g, "").replace(/ /g, "-");
}

export function generateReference(root: string): string {
  const program = compilerFor(root, [COMPONENT_FILE, EXAMPLES_FILE]);
  const ex = examples(program, root);
  const lines: string[] = [
    "# pulumi-gitbook reference",
    "",
    `<!-- Generated by \`${REGENERATE}\` (scripts/reference.ts) from the resources' declarations. Do not edit by hand. -->`,
    "",
    'Every resource is a Pulumi dynamic resource imported from `pulumi-gitbook` (`import * as gitbook from "pulumi-gitbook"`).',
    "Inputs are checked before anything is sent to GitBook: a value outside its limits fails `pulumi preview` naming the input.",
    "Every input is also an output of the same name, and every resource's `id` is the GitBook ID of its object.",
    "",
    ...[...resources.map((r) => r.kind), "DocsSite"].map((k) => `- [${k}](#${anchor(k)})`),
    "",
  ];
  for (const r of resources) {
    const kind = r.kind;
    const example = ex.get(kind);
    if (!example) throw new Error(`${EXAMPLES_FILE} has no example function ${kind}`);
    lines.push(
      `## ${kind}`,
      "",
      r.summary,
      "",
      "### Inputs",
      "",
      ...inputTable(inputRows(r)),
      "",
      "### Outputs",
      "",
      ...outputTable(outputRows(r), false),
      "",
      "### Replacement",
      "",
      ...replacement(kind, r.diff, "adoptId" in r.schema.shape, r.holds),
      "",
      "### Example",
      "",
      "```ts",
      example,
      "```",
      "",
    );
  }
  const topology = z.toJSONSchema(docsSiteTopologySchema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  // The site's own fields are the Site's inputs, documented above: its row links there instead.
  const topologyRows = rows(topology, "", nestedRequired, walkOf(topology))
    .filter((row) => !row.name.startsWith("site."))
    .map((row) => (row.name === "site" ? { ...row, type: "object: the [Site](#site)'s inputs" } : row));
  lines.push(
    "## DocsSite",
    "",
    "A component that declares a whole site from one topology object: the Site, a SiteSection per section, a SiteSpace per further space of a section, and a ShareLink per share link, all children of the component.",
    "Child names come from the keys (`<name>/<sectionKey>`, `<name>/<sectionKey>/<siteSpaceKey>`, `<name>/<shareLinkKey>`), so reordering entries replaces nothing. A created space is named by its own key alone (`<name>/spaces/<key>`: `space.key`, or its entry's key, unique across the topology), so moving its entry to another section or group, or renaming the section around it, keeps the same Space and its pages. A renamed key keeps every child it names when the old key is listed in the entry's `formerKeys` (Pulumi aliases); spaces created by earlier versions under `<name>/<sectionKey>/space` or `<name>/<sectionKey>/<siteSpaceKey>/space` are recognised the same way, so upgrading replaces nothing.",
    "The topology is checked when the component is constructed: a mistake names its path (e.g. `sections[2].siteSpaces[0].path must be 1 to 100 characters`) before anything is registered.",
    "Field values may be Outputs (checked by the resource instead); the lists, keys and `default` flags must be plain values.",
    "",
    "### Topology",
    "",
    ...inputTable(topologyRows),
    "",
    "### Outputs",
    "",
    ...outputTable(classOutputs(program, root, COMPONENT_FILE, "DocsSite")),
    "",
    "### Example",
    "",
    "```ts",
    ex.get("DocsSite") ?? "",
    "```",
    "",
  );
  return lines.join("\n");
}

/** The repository root: the nearest folder up from here whose package.json is this package's. */
export function packageRoot(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-gitbook") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-gitbook package.json above ${from}`);
  }
}

if (require.main === module) {
  const root = packageRoot();
  const file = path.join(root, REFERENCE_FILE);
  const text = generateReference(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const before = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  fs.writeFileSync(file, text);
  console.log(`${REFERENCE_FILE}: ${before === text ? "already up to date" : "written"} (${resources.length} resources and DocsSite)`);
}
