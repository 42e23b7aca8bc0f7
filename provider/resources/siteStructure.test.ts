import { describe, expect, it } from "vitest";
import { createPrng } from "../../emulator/store";
import { ApiSiteStructure } from "./siteStructure";
import { idsIn, longestIncreasing, movesFor, sectionsOfGroup, treeOf, type Move } from "./siteStructure";

/** Applies moves the way GitBook's sort does: the item is taken out, then put before or after its anchor. */
function apply(order: readonly string[], moves: readonly Move[]): string[] {
  let out = [...order];
  for (const m of moves) {
    out = out.filter((id) => id !== m.id);
    out.splice(out.indexOf(m.anchor) + (m.position === "after" ? 1 : 0), 0, m.id);
  }
  return out;
}

describe("movesFor", () => {
  it("sends nothing when the listed items are already in order, unlisted ones anywhere", () => {
    expect(movesFor(["a", "b", "c"], ["a", "b", "c"])).toEqual([]);
    expect(movesFor(["x", "a", "y", "b", "c"], ["a", "b", "c"])).toEqual([]);
    expect(movesFor(["a", "b", "c"], [])).toEqual([]);
  });

  it("swaps two neighbours with one move", () => {
    const moves = movesFor(["a", "b", "c"], ["a", "c", "b"]);
    expect(moves).toHaveLength(1);
    expect(apply(["a", "b", "c"], moves)).toEqual(["a", "c", "b"]);
  });

  it("moves only the items out of the longest run already in order", () => {
    // b c d are in order: only a and e move.
    const moves = movesFor(["a", "b", "c", "d", "e"], ["e", "b", "c", "d", "a"]);
    expect(moves.map((m) => m.id).sort()).toEqual(["a", "e"]);
    expect(apply(["a", "b", "c", "d", "e"], moves)).toEqual(["e", "b", "c", "d", "a"]);
    // A full reversal of n keeps one item: n - 1 moves.
    expect(movesFor(["a", "b", "c", "d"], ["d", "c", "b", "a"])).toHaveLength(3);
  });

  it("puts items ahead of the first staying one before their successor", () => {
    const moves = movesFor(["c", "d", "a", "b"], ["a", "b", "c", "d"]);
    expect(moves).toHaveLength(2);
    expect(apply(["c", "d", "a", "b"], moves)).toEqual(["a", "b", "c", "d"]);
  });

  it("reaches the wanted relative order with n - LIS moves and never moves an unlisted item, for 500 shuffles", () => {
    const rand = createPrng(7);
    const shuffle = <T>(xs: T[]) => {
      for (let i = xs.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [xs[i], xs[j]] = [xs[j]!, xs[i]!];
      }
      return xs;
    };
    for (let round = 0; round < 500; round++) {
      const n = 1 + Math.floor(rand() * 12);
      const current = shuffle(Array.from({ length: n }, (_, i) => `i${i}`));
      const wanted = shuffle(current.filter(() => rand() < 0.7));
      const moves = movesFor(current, wanted);
      const after = apply(current, moves);
      expect(after.filter((id) => wanted.includes(id))).toEqual(wanted);
      const at = new Map(current.map((id, i) => [id, i]));
      expect(moves.length).toBe(wanted.length - longestIncreasing(wanted.map((id) => at.get(id)!)).size);
      expect(moves.every((m) => wanted.includes(m.id) && wanted.includes(m.anchor))).toBe(true);
      // An unlisted item keeps its place relative to the other unlisted ones.
      expect(after.filter((id) => !wanted.includes(id))).toEqual(current.filter((id) => !wanted.includes(id)));
    }
  });
});

describe("longestIncreasing", () => {
  it("finds the indices of a longest strictly increasing run", () => {
    expect([...longestIncreasing([3, 1, 2, 5, 4])].sort()).toHaveLength(3);
    expect(longestIncreasing([])).toEqual(new Set());
    expect([...longestIncreasing([0, 1, 2])].sort()).toEqual([0, 1, 2]);
    const idx = [...longestIncreasing([5, 0, 6, 1, 7, 2, 3])].sort((a, b) => a - b);
    expect(idx.map((i) => [5, 0, 6, 1, 7, 2, 3][i])).toEqual([0, 1, 2, 3]);
  });
});

describe("treeOf", () => {
  const section = (id: string, siteSpaces: string[] = []) => ({
    object: "site-section",
    id,
    title: `Section ${id}`,
    path: id,
    siteSpaces: siteSpaces.map((ss) => ({ object: "site-space", id: ss, path: ss, space: { id: `spc_${ss}` } })),
  });

  it("takes a structure apart into containers, in order, with nested groups and unknown kinds", () => {
    const structure = ApiSiteStructure.parse({
      type: "sections",
      structure: [
        section("a", ["a1", "a2"]),
        {
          object: "site-section-group",
          id: "g",
          title: "G",
          children: [section("b"), { object: "site-external-link", id: "l", title: "Blog", url: "https://b.test" }, { object: "site-section-group", id: "h", title: "H", children: [section("c")] }],
        },
        { object: "site-something-new", id: "n" },
      ],
    });
    const tree = treeOf(structure);
    expect(idsIn(tree, "")).toEqual(["a", "g", "n"]);
    expect(idsIn(tree, "group:g")).toEqual(["b", "l", "h"]);
    expect(idsIn(tree, "section:a")).toEqual(["a1", "a2"]);
    expect(sectionsOfGroup(tree, "g")).toEqual(["b"]);
    expect(sectionsOfGroup(tree, "h")).toEqual(["c"]);
    expect(tree.byId.get("c")).toMatchObject({ type: "site-section", container: "group:h" });
    expect(tree.byId.get("a2")).toMatchObject({ type: "site-space", container: "section:a" });
    expect(idsIn(tree, "group:nope")).toEqual([]);
  });

  it("refuses a known kind of item that lacks its fields", () => {
    expect(ApiSiteStructure.safeParse({ type: "sections", structure: [{ object: "site-external-link", id: "l", title: "No URL" }] }).success).toBe(false);
  });
});
