/**
 * Line ranges: sets of 1-based, inclusive line spans kept sorted and merged
 * (1–200 plus 201–400 is 1–400), and the arithmetic the ledger and the edit
 * guard do on them: add, subtract, intersect, shift through an alignment of
 * two versions of a file, and print for a message.
 *
 * @module
 */

/** Lines `start` to `end` of a file, 1-based and inclusive of both. */
export interface LineRange {
  /** First line (1-based). */
  start: number;
  /** Last line (inclusive). */
  end: number;
}

/**
 * Sort and merge ranges: overlapping and touching ranges become one; empty
 * ones (end before start) are dropped.
 *
 * @param ranges Any ranges.
 * @returns The same lines as few sorted, disjoint, non-adjacent ranges.
 *
 * @example Reads add up
 * ```ts
 * import { mergeRanges } from "./line_ranges.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(mergeRanges([{ start: 201, end: 400 }, { start: 1, end: 200 }]), [{ start: 1, end: 400 }]);
 * ```
 */
export function mergeRanges(ranges: readonly LineRange[]): LineRange[] {
  const sorted = ranges.filter((r) => r.end >= r.start).map((r) => ({ start: r.start, end: r.end }))
    .sort((a, b) => a.start - b.start);
  const out: LineRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push(r);
  }
  return out;
}

/**
 * The lines of `ranges` that are not in `minus`.
 *
 * @param ranges Lines wanted.
 * @param minus Lines to take away.
 * @returns What is left, merged.
 *
 * @example
 * ```ts
 * import { subtractRanges } from "./line_ranges.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(subtractRanges([{ start: 80, end: 120 }], [{ start: 50, end: 100 }]), [{ start: 101, end: 120 }]);
 * ```
 */
export function subtractRanges(ranges: readonly LineRange[], minus: readonly LineRange[]): LineRange[] {
  const cut = mergeRanges(minus);
  const out: LineRange[] = [];
  for (const r of mergeRanges(ranges)) {
    let start = r.start;
    for (const m of cut) {
      if (m.end < start || m.start > r.end) continue;
      if (m.start > start) out.push({ start, end: m.start - 1 });
      start = m.end + 1;
      if (start > r.end) break;
    }
    if (start <= r.end) out.push({ start, end: r.end });
  }
  return out;
}

/**
 * The lines in both `a` and `b`.
 *
 * @param a Ranges.
 * @param b Ranges.
 * @returns Their intersection, merged.
 */
export function intersectRanges(a: readonly LineRange[], b: readonly LineRange[]): LineRange[] {
  return subtractRanges(a, subtractRanges(a, b));
}

/**
 * Whether `ranges` hold every line from `start` to `end`.
 *
 * @param ranges Merged or not.
 * @param start First line.
 * @param end Last line.
 * @returns True when no line of the span is missing.
 */
export function coversLines(ranges: readonly LineRange[], start: number, end: number): boolean {
  return subtractRanges([{ start, end }], ranges).length === 0;
}

/** How many lines the ranges hold. */
export function countLines(ranges: readonly LineRange[]): number {
  return mergeRanges(ranges).reduce((n, r) => n + r.end - r.start + 1, 0);
}

/**
 * Ranges for a message: `101–120`, `7`, `1–3, 9–12`.
 *
 * @param ranges Ranges.
 * @returns The text (with en dashes).
 */
export function formatRanges(ranges: readonly LineRange[]): string {
  return mergeRanges(ranges).map((r) => r.start === r.end ? `${r.start}` : `${r.start}–${r.end}`).join(", ");
}

/** A run of lines equal in two versions: old lines `old..old+length-1` are new lines `new..`. */
export interface UnchangedRun {
  /** First old line (1-based). */
  old: number;
  /** First new line (1-based). */
  new: number;
  /** How many lines. */
  length: number;
}

/**
 * Carry ranges of an old version to a new one through the runs of lines the
 * two share: a seen line that survived unchanged stays seen at its new
 * number; lines that changed or vanished drop out.
 *
 * @param ranges Ranges of the old version.
 * @param runs The unchanged runs (from an alignment of the two versions).
 * @returns The same lines, numbered in the new version.
 *
 * @example One line inserted at the top shifts what was seen below it
 * ```ts
 * import { remapRanges } from "./line_ranges.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(remapRanges([{ start: 5, end: 9 }], [{ old: 1, new: 2, length: 10 }]), [{ start: 6, end: 10 }]);
 * ```
 */
export function remapRanges(ranges: readonly LineRange[], runs: readonly UnchangedRun[]): LineRange[] {
  const out: LineRange[] = [];
  const merged = mergeRanges(ranges);
  for (const run of runs) {
    const runEnd = run.old + run.length - 1;
    for (const r of merged) {
      const start = Math.max(r.start, run.old);
      const end = Math.min(r.end, runEnd);
      if (start <= end) out.push({ start: start - run.old + run.new, end: end - run.old + run.new });
    }
  }
  return mergeRanges(out);
}

/** Ranges as compact pairs for JSON (`[[1, 200], [301, 310]]`). */
export function rangesToPairs(ranges: readonly LineRange[]): [number, number][] {
  return mergeRanges(ranges).map((r) => [r.start, r.end]);
}

/**
 * Ranges back from {@linkcode rangesToPairs}; malformed pairs are dropped.
 *
 * @param pairs `[start, end]` pairs.
 * @returns Merged ranges.
 */
export function pairsToRanges(pairs: unknown): LineRange[] {
  if (!Array.isArray(pairs)) return [];
  const out: LineRange[] = [];
  for (const p of pairs) {
    if (!Array.isArray(p) || !Number.isInteger(p[0]) || !Number.isInteger(p[1])) continue;
    if (p[0] >= 1 && p[1] >= p[0]) out.push({ start: p[0], end: p[1] });
  }
  return mergeRanges(out);
}
