/**
 * Adaptive-content conditions checked against a site's visitor schema: a section, site space or link
 * whose `condition` names a claim the schema does not declare fails at preview, naming the condition,
 * the claim and the nearest claim the schema does declare.
 *
 * The schema is a SiteAdaptiveSchema's `jsonSchema` (GitBook's SiteAdaptiveJSONSchema): its top-level
 * `properties` are the signed claims, `properties.unsigned.properties` the unsigned ones, and a claim
 * of type `object` holds further claims in its own `properties`.
 *
 * GitBook's conditions are JavaScript expressions over the visitor's data (its docs: "write your
 * condition as an expression", e.g. `visitor.claims.isBetaUser == true`,
 * `visitor.claims.unsigned.language == "fr"`, `!visitor.claims.unsigned.example_attribute_A`, combined
 * with `&&` and `||`). A claim is named by a member chain that starts at the identifier `visitor`
 * followed by `claims`: `.name`, `?.name` and `["name"]` / `?.["name"]` (a string literal) each name
 * the next part. What is read, and what is never failed:
 * - The expression is tokenized as JavaScript is: strings, template literals (their `${…}` parts are
 *   read as expressions), regular expression literals and comments are not code, so a claim written
 *   inside a string is not a reference. `x.visitor.claims.a` is not the visitor's (a property of x).
 * - A chain stops at a part it cannot name for certain (`[key]`, `[0]`, a string with escapes), and a
 *   part that is called (`visitor.claims.roles.includes("admin")`) is a method, not a claim.
 * - Only parts read inside the schema's objects of claims are checked: once the chain reaches a claim
 *   that is a value (boolean, string, number, array), the rest (`.length`, `.includes`) is the value's
 *   own. A part fails only when the object it is read from declares no claim of that name: a schema
 *   accepts no undeclared claim (`additionalProperties: false`), so that claim is certainly missing.
 * - An expression that cannot be tokenized (an unterminated string, say) is not checked at all.
 *
 * The provider cannot check this inside one resource: a SiteAdaptiveSchema does not see the
 * conditions of the site's sections and site spaces, nor they its schema. `DocsSite` runs the check
 * at preview, where the schema and every condition of the site are known, and `checkConditions` is
 * exported for a program that declares its resources one by one.
 */
import { editDistance } from "../framework/nearest";

/** The part of a SiteAdaptiveJSONSchema the check reads: claims by name, objects of claims nested. */
export interface ClaimsSchema {
  properties?: Record<string, ClaimSchema>;
}

export interface ClaimSchema {
  type?: string;
  properties?: Record<string, ClaimSchema>;
}

/** A condition and where it is written, e.g. `{ where: 'section "guides"', condition: 'visitor.claims.beta' }`. */
export interface ConditionToCheck {
  where: string;
  condition: string;
}

/** A condition naming a claim the schema does not declare. */
export interface ConditionProblem {
  where: string;
  condition: string;
  /** The claim as the condition names it, e.g. `visitor.claims.unsigned.plna`. */
  claim: string;
  /** The first part of it the schema lacks, e.g. `visitor.claims.unsigned.plna` (or `visitor.claims.account` for `visitor.claims.account.plan`). */
  missing: string;
  /** The declared claim nearest to it, when the schema declares any. */
  nearest?: string;
  /** One line naming all of the above. */
  message: string;
}

// ---- Checking -----------------------------------------------------------------------------------------

/** Every condition's problems, in order: one per claim named but not declared. */
export function checkConditions(schema: ClaimsSchema, conditions: readonly ConditionToCheck[]): ConditionProblem[] {
  const declared = declaredClaimPaths(schema);
  return conditions.flatMap(({ where, condition }) => problemsOf(schema, declared, where, condition));
}

/** One condition's problems (see checkConditions). */
export function checkCondition(schema: ClaimsSchema, condition: string, where = "condition"): ConditionProblem[] {
  return checkConditions(schema, [{ where, condition }]);
}

function problemsOf(schema: ClaimsSchema, declared: readonly string[][], where: string, condition: string): ConditionProblem[] {
  const problems: ConditionProblem[] = [];
  for (const path of claimReferences(condition) ?? []) {
    const missing = firstMissing(schema, path);
    if (!missing) continue;
    const claim = claimName(path);
    const nearest = nearestClaim(path, declared);
    const lacks = missing.length === 1 ? "declares no such claim" : `declares no ${JSON.stringify(missing.at(-1))} in ${claimName(missing.slice(0, -1))}`;
    const hint = nearest ? `; nearest declared claim: ${claimName(nearest)}` : "; it declares no claims at all";
    problems.push({
      where,
      condition,
      claim,
      missing: claimName(missing),
      ...(nearest ? { nearest: claimName(nearest) } : {}),
      message: `${where}: condition ${JSON.stringify(condition)} names the claim ${claim}, but the site's adaptive schema ${lacks}${hint}`,
    });
  }
  return problems;
}

/** The claims of an object of claims (the root, `unsigned`, an `object` claim); undefined for a value. */
function claimsOf(node: ClaimSchema | ClaimsSchema, isRoot: boolean): Record<string, ClaimSchema> | undefined {
  if (!isRoot && (node as ClaimSchema).type !== "object") return undefined;
  const props = node.properties;
  return props && typeof props === "object" ? props : undefined;
}

/** The path up to and including the first part the schema certainly lacks; undefined when every part read inside objects of claims is declared. */
function firstMissing(schema: ClaimsSchema, path: readonly string[]): string[] | undefined {
  let node: ClaimSchema | ClaimsSchema = schema;
  for (let i = 0; i < path.length; i++) {
    const claims = claimsOf(node, i === 0);
    // Past a value claim the parts are the value's own (`.length`, a method): nothing more to check.
    if (!claims) return undefined;
    const next = Object.hasOwn(claims, path[i]!) ? claims[path[i]!] : undefined;
    if (!next) return path.slice(0, i + 1);
    node = next;
  }
  return undefined;
}

/** Every claim path the schema declares, objects of claims included (`["unsigned"]`, `["unsigned", "language"]`). */
export function declaredClaimPaths(schema: ClaimsSchema): string[][] {
  const out: string[][] = [];
  const walk = (node: ClaimSchema | ClaimsSchema, prefix: string[], isRoot: boolean) => {
    for (const [name, claim] of Object.entries(claimsOf(node, isRoot) ?? {})) {
      out.push([...prefix, name]);
      walk(claim, [...prefix, name], false);
    }
  };
  walk(schema, [], true);
  return out;
}

/** The claims a condition may name, as it would name them: `visitor.claims.isBetaUser`, `visitor.claims.unsigned.language`. */
export function declaredClaims(schema: ClaimsSchema): string[] {
  return declaredClaimPaths(schema).map(claimName);
}

/** `visitor.claims.a.b`, with `["…"]` for a part that is not an identifier. */
export function claimName(path: readonly string[]): string {
  return path.reduce((acc, part) => (/^[A-Za-z_$][\w$]*$/.test(part) ? `${acc}.${part}` : `${acc}[${JSON.stringify(part)}]`), "visitor.claims");
}

/**
 * The declared claim closest to `path`. The usual slips come first: the same claim read as signed
 * instead of unsigned (or the reverse), then a sibling with a close name (a prefix, or a few letters
 * apart), then a claim of that name under another object.
 */
function nearestClaim(path: readonly string[], declared: readonly string[][]): string[] | undefined {
  const leaf = path.at(-1)!.toLowerCase();
  const parent = path.slice(0, -1).join(".");
  const score = (claim: readonly string[]): number => {
    const [a, b] = path.length < claim.length ? [path, claim] : [claim, path];
    if (b.length === a.length + 1 && b[0] === "unsigned" && a.every((x, i) => x === b[i + 1])) return 0.25;
    const other = claim.at(-1)!.toLowerCase();
    const near = other.startsWith(leaf) || leaf.startsWith(other) ? 0.5 : editDistance(leaf, other);
    const elsewhere = claim.slice(0, -1).join(".");
    return near + (elsewhere === parent ? 0 : 1 + editDistance(parent, elsewhere) / 10);
  };
  let best: { claim: string[]; score: number } | undefined;
  for (const claim of declared) {
    const s = score(claim);
    if (!best || s < best.score) best = { claim, score: s };
  }
  return best?.claim;
}

// ---- Reading the claims an expression names ------------------------------------------------------------

type Token = { kind: "name" | "string" | "number" | "punct" | "literal"; value: string; exact?: boolean };

/**
 * The claims an expression names, each as its path below `visitor.claims` (`["unsigned", "plan"]`);
 * undefined when the expression cannot be tokenized.
 */
export function claimReferences(expression: string): string[][] | undefined {
  let tokens: Token[];
  try {
    tokens = tokenize(expression);
  } catch {
    return undefined;
  }
  const refs: string[][] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== "name" || t.value !== "visitor") return;
    const before = tokens[i - 1];
    if (before?.kind === "punct" && (before.value === "." || before.value === "?.")) return;
    const first = memberAt(tokens, i + 1);
    if (!first || first.name !== "claims") return;
    const path: string[] = [];
    let at = first.next;
    let m = memberAt(tokens, at);
    for (; m?.name !== undefined; m = memberAt(tokens, at)) {
      path.push(m.name);
      at = m.next;
    }
    // A part that is called is a method of what precedes it, not a claim. (A chain stopped at a part
    // it cannot name, `m` defined, ends before that part: what came before still counts.)
    if (m === undefined && isCall(tokens, at)) path.pop();
    if (path.length > 0) refs.push(path);
  });
  return refs;
}

function isCall(tokens: readonly Token[], i: number): boolean {
  const punct = (k: number, v: string) => tokens[k]?.kind === "punct" && tokens[k]!.value === v;
  return punct(i, "(") || (punct(i, "?.") && punct(i + 1, "("));
}

/** The member access at `i`: its name (undefined when not certain), and the index after it; undefined when there is none. */
function memberAt(tokens: readonly Token[], i: number): { name: string | undefined; next: number } | undefined {
  const t = tokens[i];
  if (t?.kind !== "punct") return undefined;
  if (t.value === "." || (t.value === "?." && tokens[i + 1]?.kind === "name")) {
    const name = tokens[i + 1];
    return name?.kind === "name" ? { name: name.value, next: i + 2 } : undefined;
  }
  const open = t.value === "?." ? i + 1 : i;
  if (tokens[open]?.kind !== "punct" || tokens[open]!.value !== "[") return undefined;
  const key = tokens[open + 1];
  const close = tokens[open + 2];
  if (key?.kind === "string" && key.exact && close?.kind === "punct" && close.value === "]") return { name: key.value, next: open + 3 };
  return { name: undefined, next: open + 1 };
}

const NAME_START = /[\p{ID_Start}$_]/u;
const NAME_PART = /[\p{ID_Continue}$\u200c\u200d]/u;
/** After these a `/` divides; elsewhere it starts a regular expression literal. */
const ENDS_OPERAND = new Set([")", "]", "}"]);

/** JavaScript's tokens, as far as finding member chains needs; throws on an unterminated string, template, comment or regex. */
function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`unterminated ${what}`);
  };
  const operandEnded = () => {
    const last = out.at(-1);
    return last !== undefined && (last.kind !== "punct" || ENDS_OPERAND.has(last.value));
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith("//", i)) {
      const end = src.indexOf("\n", i);
      i = end < 0 ? src.length : end + 1;
    } else if (src.startsWith("/*", i)) {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) fail("comment");
      i = end + 2;
    } else if (c === '"' || c === "'") {
      const { value, exact, end } = quoted(src, i);
      out.push({ kind: "string", value, exact });
      i = end;
    } else if (c === "`") {
      i = template(src, i, out);
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(src[i + 1] ?? ""))) {
      const m = /^(?:0[xXbBoO][\da-fA-F_]+n?|\d[\d_]*\.?[\d_]*(?:[eE][+-]?\d+)?n?|\.\d[\d_]*(?:[eE][+-]?\d+)?)/.exec(src.slice(i))!;
      out.push({ kind: "number", value: m[0] });
      i += m[0].length;
    } else if (NAME_START.test(c)) {
      let j = i + 1;
      while (j < src.length && NAME_PART.test(src[j]!)) j++;
      out.push({ kind: "name", value: src.slice(i, j) });
      i = j;
    } else if (c === "/" && !operandEnded()) {
      i = regex(src, i, fail);
      out.push({ kind: "literal", value: "regex" });
    } else if (src.startsWith("...", i)) {
      out.push({ kind: "punct", value: "..." });
      i += 3;
    } else if (c === "?" && src[i + 1] === "." && !/[0-9]/.test(src[i + 2] ?? "")) {
      out.push({ kind: "punct", value: "?." });
      i += 2;
    } else {
      out.push({ kind: "punct", value: c });
      i++;
    }
  }
  return out;
}

/** A quoted string from `start`: its value, whether that value is certain (no escapes but \\, \' and \"), and the index after it. */
function quoted(src: string, start: number): { value: string; exact: boolean; end: number } {
  const q = src[start]!;
  let value = "";
  let exact = true;
  for (let i = start + 1; i < src.length; i++) {
    const c = src[i]!;
    if (c === q) return { value, exact, end: i + 1 };
    if (c === "\n") break;
    if (c === "\\") {
      const next = src[i + 1];
      if (next === undefined) break;
      if (next === "\\" || next === "'" || next === '"') value += next;
      else exact = false;
      i++;
    } else {
      value += c;
    }
  }
  throw new Error("unterminated string");
}

/** A template literal from `start`; its `${…}` parts are tokenized as expressions, each in parentheses so no chain runs across. Returns the index after it. */
function template(src: string, start: number, out: Token[]): number {
  out.push({ kind: "literal", value: "template" });
  for (let i = start + 1; i < src.length; i++) {
    const c = src[i]!;
    if (c === "\\") i++;
    else if (c === "`") return i + 1;
    else if (c === "$" && src[i + 1] === "{") {
      const end = closingBrace(src, i + 2);
      out.push({ kind: "punct", value: "(" }, ...tokenize(src.slice(i + 2, end)), { kind: "punct", value: ")" });
      i = end;
    }
  }
  throw new Error("unterminated template");
}

/** The index of the `}` closing a `${` whose content starts at `from`, past nested braces, strings and templates. */
function closingBrace(src: string, from: number): number {
  let depth = 0;
  for (let i = from; i < src.length; i++) {
    const c = src[i]!;
    if (c === '"' || c === "'") i = quoted(src, i).end - 1;
    else if (c === "`") i = template(src, i, []) - 1;
    else if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) return i;
      depth--;
    }
  }
  throw new Error("unterminated template");
}

/** A regular expression literal from `start` (a `/` where an operand begins); returns the index after its flags. */
function regex(src: string, start: number, fail: (what: string) => never): number {
  let inClass = false;
  for (let i = start + 1; i < src.length; i++) {
    const c = src[i]!;
    if (c === "\\") i++;
    else if (c === "\n") break;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) {
      let j = i + 1;
      while (j < src.length && /[a-z]/i.test(src[j]!)) j++;
      return j;
    }
  }
  return fail("regular expression");
}
