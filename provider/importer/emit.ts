/**
 * How text reaches the generated files. Everything the import writes that came from GitBook (titles,
 * conditions, descriptions, URLs, keys, paths, emoji, IDs, error messages) goes through one of these,
 * never into a file raw: a value GitBook holds is data, and must never become code.
 *
 * - `literal`: a value as a TypeScript (and JSON) literal holding exactly that value, on one line.
 * - `comment`: a `//` line. Text quoted in a comment is quoted with `literal`; whatever else a comment
 *   holds has its line terminators and control characters escaped, so it can never end the comment.
 * - `yamlString`: a double-quoted YAML scalar, printable ASCII only.
 * - `terminalLine`: a line the command prints, escaped as a comment is.
 */

/**
 * The bidirectional controls (embeddings, overrides, isolates, marks): raw, they change the order a
 * line is shown in, not what it runs, so a value holding one could show a reader (or a reviewer of the
 * program's diff) a line other than the one it is (Trojan Source, CVE-2021-42574). Written escaped.
 */
const BIDI = "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";

/**
 * JSON.stringify escapes quotes, backslashes, control characters and lone surrogates, but leaves
 * U+2028 and U+2029 as they are: valid inside a string literal, yet each ends a line anywhere else
 * (a comment, an editor, a diff). They are escaped too, so a literal is one line wherever it lands,
 * and so are the C1 controls and the bidirectional controls, so it shows as what it is.
 */
export function literal(v: string | number | boolean | null): string {
  const text = JSON.stringify(v) as string | undefined;
  if (text === undefined || (typeof v === "number" && !Number.isFinite(v))) throw new Error(`not a literal value: ${String(v)}`);
  return text.replace(UNSAFE_IN_LITERAL, escape);
}

// The C1 controls too (JSON.stringify escapes only C0): a terminal showing the file or a note may act on them.
const UNSAFE_IN_LITERAL = new RegExp(`[\\u0080-\\u009f\\u2028\\u2029${BIDI}]`, "g");

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Characters a comment line must not hold raw: line terminators (which end it), other control
 * characters, the byte-order mark, lone surrogates (which UTF-8 cannot encode) and the bidirectional
 * controls (which reorder it as shown).
 */
const UNSAFE_IN_COMMENT = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\ufeff${BIDI}]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`, "g");

/** One `//` comment line: nothing in `text` can end it early. */
export function comment(text: string): string {
  return `// ${text.replace(UNSAFE_IN_COMMENT, escape)}`;
}

/**
 * One line for the terminal (a note, a progress line): what a comment line escapes is escaped here too,
 * so text from GitBook can neither drive the terminal (escape sequences), nor start a line of its own,
 * nor reorder the line as shown.
 */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_IN_COMMENT, escape);
}

/** A double-quoted YAML scalar: JSON's escapes are YAML's, and everything outside printable ASCII is escaped. */
export function yamlString(s: string): string {
  return literal(s).replace(/[^\x20-\x7e]/gu, (c) => {
    const cp = c.codePointAt(0)!;
    return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, "0")}` : `\\u${cp.toString(16).padStart(4, "0")}`;
  });
}
