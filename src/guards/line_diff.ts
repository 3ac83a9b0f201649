/**
 * Line diff for the ledger and the edit guard: align two versions of a file
 * line by line (jsdiff's `diffArrays` on the middle, after the common prefix
 * and suffix), and say which lines of the old version an edit needs the
 * session to have seen.
 *
 * @module
 */
import { diffArrays } from "diff";
import type { LineRange, UnchangedRun } from "./line_ranges.ts";

/** Most differing lines an alignment looks for before it gives up (the versions then share nothing). */
export const MAX_ALIGN_EDITS = 5000;

/**
 * The runs of lines two versions share, in order.
 *
 * @param before Lines of the old version (or their fingerprints).
 * @param after Lines of the new version.
 * @returns The unchanged runs; empty when the versions differ too much to align.
 *
 * @example
 * ```ts
 * import { alignLines } from "./line_diff.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(alignLines(["a", "b", "c"], ["a", "x", "c"]), [
 *   { old: 1, new: 1, length: 1 },
 *   { old: 3, new: 3, length: 1 },
 * ]);
 * ```
 */
export function alignLines(before: readonly string[], after: readonly string[]): UnchangedRun[] {
  let prefix = 0;
  const shortest = Math.min(before.length, after.length);
  while (prefix < shortest && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shortest - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) suffix++;
  const runs: UnchangedRun[] = [];
  if (prefix > 0) runs.push({ old: 1, new: 1, length: prefix });
  const oldMid = before.slice(prefix, before.length - suffix);
  const newMid = after.slice(prefix, after.length - suffix);
  if (oldMid.length > 0 && newMid.length > 0) {
    const parts = diffArrays(oldMid as string[], newMid as string[], { maxEditLength: MAX_ALIGN_EDITS });
    let o = prefix + 1;
    let n = prefix + 1;
    for (const p of parts ?? []) {
      const count = p.count ?? p.value.length;
      if (p.added) n += count;
      else if (p.removed) o += count;
      else {
        runs.push({ old: o, new: n, length: count });
        o += count;
        n += count;
      }
    }
  }
  if (suffix > 0) {
    runs.push({ old: before.length - suffix + 1, new: after.length - suffix + 1, length: suffix });
  }
  return runs;
}

/** One changed place between two versions: `oldCount` old lines from `old` became `newCount` new lines from `new`. */
export interface LineHunk {
  /** First old line replaced, or for a pure insertion the old line it goes before (1-based). */
  old: number;
  /** Old lines replaced or removed (0: a pure insertion). */
  oldCount: number;
  /** First new line. */
  new: number;
  /** New lines (0: a pure removal). */
  newCount: number;
}

/**
 * The changed places between two versions, from their unchanged runs.
 *
 * @param runs From {@linkcode alignLines}.
 * @param oldTotal Lines of the old version.
 * @param newTotal Lines of the new version.
 * @returns The hunks, in order.
 */
export function hunksOf(runs: readonly UnchangedRun[], oldTotal: number, newTotal: number): LineHunk[] {
  const out: LineHunk[] = [];
  let o = 1;
  let n = 1;
  for (const r of [...runs, { old: oldTotal + 1, new: newTotal + 1, length: 0 }]) {
    if (r.old > o || r.new > n) out.push({ old: o, oldCount: r.old - o, new: n, newCount: r.new - n });
    o = r.old + r.length;
    n = r.new + r.length;
  }
  return out;
}

/** What an edit needs the session to have seen of the old version, for one hunk. */
export interface EditNeed {
  /** The old lines the edit replaces or removes; for a pure insertion, the lines either side of it. */
  lines: LineRange;
  /** A pure insertion: seeing any one line of `lines` is enough to know where it lands. */
  anyOf: boolean;
  /**
   * Other placements of the same removal (a block of repeated lines can slide
   * up or down and give the same result): having seen one of them is enough.
   */
  alternatives: LineRange[];
}

/** Most alternative placements considered for one sliding hunk. */
const MAX_ALTERNATIVES = 64;

/**
 * Which old lines an edit needs the session to have seen, hunk by hunk: the
 * lines it replaces or removes, and for a pure insertion a neighbouring line
 * (any placement the diff could have chosen for a repeated block counts).
 *
 * @param before Lines of the version the edit starts from.
 * @param after Lines it produces.
 * @returns One need per hunk (none for an insertion into an empty file).
 *
 * @example Changing line 2 needs line 2; appending after it needs line 2 or 3
 * ```ts
 * import { editNeeds } from "./line_diff.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(editNeeds(["a", "b", "c"], ["a", "B", "c"]).map((n) => n.lines), [{ start: 2, end: 2 }]);
 * const ins = editNeeds(["a", "b", "c"], ["a", "b", "new", "c"]);
 * assert.deepEqual(ins.map((n) => [n.lines, n.anyOf]), [[{ start: 2, end: 3 }, true]]);
 * ```
 */
export function editNeeds(before: readonly string[], after: readonly string[]): EditNeed[] {
  const out: EditNeed[] = [];
  const total = before.length;
  for (const h of hunksOf(alignLines(before, after), total, after.length)) {
    if (h.oldCount === 0) {
      if (total === 0) continue;
      // The inserted block may slide over equal lines: every placement's neighbours count.
      const block = after.slice(h.new - 1, h.new - 1 + h.newCount);
      let lo = h.old - 1; // old lines before the insertion point
      let hi = lo;
      let up = [...block];
      while (lo > 0 && up[up.length - 1] === before[lo - 1]) {
        up = [before[lo - 1]!, ...up.slice(0, -1)];
        lo--;
      }
      let down = [...block];
      while (hi < total && down[0] === before[hi]) {
        down = [...down.slice(1), before[hi]!];
        hi++;
      }
      out.push({
        lines: { start: Math.max(1, lo), end: Math.min(total, hi + 1) },
        anyOf: true,
        alternatives: [],
      });
      continue;
    }
    const lines = { start: h.old, end: h.old + h.oldCount - 1 };
    const alternatives: LineRange[] = [];
    if (h.newCount === 0) {
      // A removed block of repeated lines may slide too.
      let a = h.old;
      while (
        a > 1 && before[a - 2] === before[a + h.oldCount - 2] && alternatives.length < MAX_ALTERNATIVES
      ) {
        a--;
        alternatives.push({ start: a, end: a + h.oldCount - 1 });
      }
      a = h.old;
      while (
        a + h.oldCount <= total && before[a - 1] === before[a + h.oldCount - 1] &&
        alternatives.length < MAX_ALTERNATIVES
      ) {
        a++;
        alternatives.push({ start: a, end: a + h.oldCount - 1 });
      }
    }
    out.push({ lines, anyOf: false, alternatives });
  }
  return out;
}
