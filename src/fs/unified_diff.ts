/**
 * Unified diffs in the form `git apply` accepts, built on jsdiff's
 * `structuredPatch`.
 *
 * @module
 */
import { structuredPatch } from "diff";
import { differingRuns, linesOf, type Run } from "./line_runs.ts";
import { looksBinary } from "./text.ts";

const DECODER = new TextDecoder();

/**
 * A git-style unified diff between two states of one file.
 *
 * @param path Relative path.
 * @param sides The old bytes (`before`, null: file created) and the new ones (`after`, null: file deleted).
 * @param options `context` lines (default 3); `fromPath` for renames; `oldMode`/`newMode`, the
 *   permission bits before and after (null or absent: 0o644), named as git does (`old mode 100644`,
 *   `new mode 100755`) when the executable bit changes.
 * @returns The diff text ("" when identical).
 *
 * @example One changed line
 * ```ts
 * import { unifiedDiff } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const enc = (s: string) => new TextEncoder().encode(s);
 * const d = unifiedDiff("a.txt", { before: enc("x\ny\n"), after: enc("x\nz\n") });
 * assert.equal(d, "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n");
 * ```
 */
export function unifiedDiff(
  path: string,
  sides: { before: Uint8Array | null; after: Uint8Array | null },
  options: { context?: number; fromPath?: string; oldMode?: number | null; newMode?: number | null } = {},
): string {
  const { before, after } = sides;
  const from = options.fromPath ?? path;
  const oldMode = gitMode(options.oldMode);
  const newMode = gitMode(options.newMode ?? options.oldMode);
  let header = `diff --git a/${from} b/${path}\n`;
  if (before === null) header += `new file mode ${newMode}\n`;
  if (after === null) header += `deleted file mode ${oldMode}\n`;
  const modeChanged = before !== null && after !== null && oldMode !== newMode;
  if (modeChanged) header += `old mode ${oldMode}\nnew mode ${newMode}\n`;
  if (from !== path) header += `rename from ${from}\nrename to ${path}\n`;
  if ((before && looksBinary(before)) || (after && looksBinary(after))) {
    return `${header}Binary files ${before ? `a/${from}` : "/dev/null"} and ${
      after ? `b/${path}` : "/dev/null"
    } differ\n`;
  }
  // The bytes as the decoder reads them (a BOM is no text); only the region that changed is ever decoded.
  const a = withoutBom(before ?? EMPTY);
  const b = withoutBom(after ?? EMPTY);
  if (sameBytes(a, b) && from === path && before !== null && after !== null) {
    return modeChanged ? header : "";
  }
  const context = options.context ?? 3;
  // Only the region that changed, with its context, is diffed: on a large file with a small edit the
  // diff costs what the edit touched, not the file (the hunks are the same).
  const middle = changedRegion(a, b, context);
  let hunks = "";
  for (const part of regionParts(middle, context)) {
    const patch = structuredPatch(
      from,
      path,
      DECODER.decode(part.before),
      DECODER.decode(part.after),
      "",
      "",
      {
        context,
      },
    );
    for (const h of patch.hunks) {
      const oldStart = (h.oldLines === 0 ? h.oldStart - 1 : h.oldStart) + middle.linesBefore + part.oldLine;
      const newStart = (h.newLines === 0 ? h.newStart - 1 : h.newStart) + middle.linesBefore + part.newLine;
      hunks += `@@ -${range(oldStart, h.oldLines)} +${range(newStart, h.newLines)} @@\n`;
      for (const line of h.lines) hunks += line + "\n";
    }
  }
  if (hunks === "") return header;
  return `${header}--- ${before === null ? "/dev/null" : `a/${from}`}\n+++ ${
    after === null ? "/dev/null" : `b/${path}`
  }\n${hunks}`;
}

/** A changed region this large (bytes, either side) is split into its hunks before jsdiff sees it. */
const SPLIT_REGION_BYTES = 1024 * 1024;
/** A changed region of more lines than this (either side) is split too where jsdiff would take long over it. */
const SPLIT_REGION_LINES = 256;
/** The most line edits the split looks for the shortest script with; past it, the window diff's runs. */
const SPLIT_MAX_EDITS = 1000;
/** jsdiff costs the lines times the edits: past this product, a region is split rather than diffed whole. */
const WHOLE_DIFF_COST = 4_000_000;
/** The most differing lines (both sides together) one part holds: jsdiff never sees many edits at once. */
const PART_MAX_LINES = 64;

/** A part of the changed region and the line where it starts, on each side, within the region. */
interface RegionPart {
  before: Uint8Array;
  after: Uint8Array;
  oldLine: number;
  newLine: number;
}

/** A part of a group: the lines it spans on each side, and whether it is the group's first or last (with context). */
interface Piece {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
  first: boolean;
  last: boolean;
}

/** Lines the runs of a group span on each side, and the runs. */
interface Group {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
  runs: Run[];
}

/**
 * The changed region in parts that each hold one group of nearby changes with their context: two edits far
 * apart in a large file (the changed region then spans nearly all of it) are diffed as two small parts, not as
 * one region of millions of lines; and a region of many edits (every line of a file rewritten) in parts of at
 * most {@linkcode PART_MAX_LINES} differing lines, as jsdiff costs the lines times the edits. The groups come
 * from a line diff of the region (`line_runs.ts`: the shortest script, or past {@linkcode SPLIT_MAX_EDITS}
 * edits a valid one found in linear time); a region small enough for jsdiff is one part.
 */
function regionParts(middle: { before: Uint8Array; after: Uint8Array }, context: number): RegionPart[] {
  const whole = [{ before: middle.before, after: middle.after, oldLine: 0, newLine: 0 }];
  const big = Math.max(middle.before.length, middle.after.length) >= SPLIT_REGION_BYTES;
  const a = linesOf(middle.before);
  const b = linesOf(middle.after);
  if (!big && Math.max(a.count, b.count) <= SPLIT_REGION_LINES) return whole;
  const changed = differingRuns(a, b, SPLIT_MAX_EDITS);
  const edits = changed.reduce((n, [a0, b0, a1, b1]) => n + (a1 - a0) + (b1 - b0), 0);
  if (changed.length === 0 || (!big && (a.count + b.count) * edits <= WHOLE_DIFF_COST)) return whole;
  return groupsOf(changed, context).flatMap(piecesOf).map((p) => {
    const a0 = p.first ? Math.max(0, p.a0 - context) : p.a0;
    const b0 = p.b0 - (p.a0 - a0);
    const a1 = p.last ? Math.min(a.count, p.a1 + context) : p.a1;
    const b1 = p.b1 + (a1 - p.a1);
    return {
      before: middle.before.subarray(a.starts[a0]!, a.starts[a1]!),
      after: middle.after.subarray(b.starts[b0]!, b.starts[b1]!),
      oldLine: a0,
      newLine: b0,
    };
  });
}

/** The runs in groups: runs closer than two contexts share a hunk (as jsdiff groups them), so one group. */
function groupsOf(runs: readonly Run[], context: number): Group[] {
  const groups: Group[] = [];
  for (const run of runs) {
    const [ai, bi, aEnd, bEnd] = run;
    const last = groups[groups.length - 1];
    if (last && ai - last.a1 <= 2 * context) {
      last.a1 = aEnd;
      last.b1 = bEnd;
      last.runs.push(run);
    } else groups.push({ a0: ai, a1: aEnd, b0: bi, b1: bEnd, runs: [run] });
  }
  return groups;
}

/**
 * A group cut where its runs part into pieces of at most {@linkcode PART_MAX_LINES} differing lines (a run
 * longer than that into slices), each marked first or last in its group: only those take context.
 */
function piecesOf(g: Group): Piece[] {
  const out: Piece[] = [];
  let start: [number, number] = [g.a0, g.b0]; // where the open piece starts
  let size = 0;
  for (const [a0, b0, a1, b1] of g.runs.flatMap(sliced)) {
    const lines = a1 - a0 + b1 - b0;
    if (size > 0 && size + lines > PART_MAX_LINES) {
      out.push({ a0: start[0], b0: start[1], a1: a0, b1: b0, first: out.length === 0, last: false });
      [start, size] = [[a0, b0], 0];
    }
    size += lines;
  }
  out.push({ a0: start[0], b0: start[1], a1: g.a1, b1: g.b1, first: out.length === 0, last: true });
  return out;
}

/** A run longer than {@linkcode PART_MAX_LINES} cut into slices of about that many lines, each side in step. */
function sliced(run: Run): Run[] {
  const [a0, b0, a1, b1] = run;
  const n = Math.ceil((a1 - a0 + b1 - b0) / PART_MAX_LINES);
  if (n <= 1) return [run];
  const at = (k: number): [number, number] => [
    a0 + Math.floor((k * (a1 - a0)) / n),
    b0 + Math.floor((k * (b1 - b0)) / n),
  ];
  return Array.from({ length: n }, (_, k) => [...at(k), ...at(k + 1)] as Run);
}

/** git's file mode for permission bits: executable when the owner may execute. */
function gitMode(mode: number | null | undefined): string {
  return mode !== null && mode !== undefined && (mode & 0o100) !== 0 ? "100755" : "100644";
}

function range(start: number, lines: number): string {
  return lines === 1 ? `${start}` : `${start},${lines}`;
}

const EMPTY = new Uint8Array(0);
const NEWLINE = 0x0a;

/** `bytes` without a UTF-8 BOM (the decoder drops it too). */
function withoutBom(bytes: Uint8Array): Uint8Array {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
    ? bytes.subarray(3)
    : bytes;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Index of the last "\n" at or before `from` (-1 when none). */
function lastNewline(bytes: Uint8Array, from: number): number {
  return from < 0 ? -1 : bytes.lastIndexOf(NEWLINE, from);
}

/**
 * The part of two texts that differs, widened to whole lines and `keep`
 * lines of context on each side (the rest is the same in both), still as
 * bytes, and how many lines come before it. It works on the UTF-8 bytes: a "\n" is one
 * byte that is never part of another character, so lines are cut where the
 * decoded texts would be, and nothing outside the region is decoded.
 */
function changedRegion(
  a: Uint8Array,
  b: Uint8Array,
  keep: number,
): { before: Uint8Array; after: Uint8Array; linesBefore: number } {
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a[p] === b[p]) p++;
  // Back to the start of the line where they part, then `keep` lines more.
  let cut = lastNewline(a, p - 1) + 1;
  for (let i = 0; i < keep && cut > 0; i++) cut = lastNewline(a, cut - 2) + 1;
  let s = 0;
  while (s < max - cut && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  let endA = a.length;
  let endB = b.length;
  if (s > 0) {
    // The first line start inside the common end, then `keep` lines more.
    let at = a.indexOf(NEWLINE, a.length - s);
    for (let i = 0; i < keep && at !== -1; i++) at = a.indexOf(NEWLINE, at + 1);
    if (at !== -1) {
      endA = at + 1;
      endB = b.length - (a.length - endA);
    }
  }
  let linesBefore = 0;
  for (let i = a.indexOf(NEWLINE); i !== -1 && i < cut; i = a.indexOf(NEWLINE, i + 1)) linesBefore++;
  return {
    before: a.subarray(cut, endA),
    after: b.subarray(cut, endB),
    linesBefore,
  };
}
