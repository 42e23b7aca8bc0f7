/**
 * What a misspelt name was meant to be: the edit distance between two names, and the known name nearest
 * to one that is not known (a property of a kind, a claim of a visitor schema).
 */

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known name `name` most likely misspells, ignoring case: the nearest by edit distance, when it is
 * at most two edits away (a swap of two letters is two) or a third of the name's length; else, a known
 * name it begins or that begins with it (`desc` for `description`). Undefined when none is that close.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(lower, k.toLowerCase());
    if (!best || distance < best.distance) best = { name: k, distance };
  }
  if (best && best.distance <= Math.max(2, Math.floor(name.length / 3))) return best.name;
  return known.find((k) => k.toLowerCase().startsWith(lower) || lower.startsWith(k.toLowerCase()));
}
