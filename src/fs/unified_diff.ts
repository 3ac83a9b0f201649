/**
 * Unified diffs in the form `git apply` accepts, built on jsdiff's
 * `structuredPatch`.
 *
 * @module
 */
import { structuredPatch } from "diff";
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
/** The most line edits the split looks for; a region that differs more is diffed whole. */
const SPLIT_MAX_EDITS = 2000;

/** A part of the changed region and the line where it starts, on each side, within the region. */
interface RegionPart {
  before: Uint8Array;
  after: Uint8Array;
  oldLine: number;
  newLine: number;
}

/**
 * The changed region in parts that each hold one group of nearby changes with their context: two edits far
 * apart in a large file (the changed region then spans nearly all of it) are diffed as two small parts, not as
 * one region of millions of lines. The groups come from a line diff of the region ({@linkcode lineEdits});
 * a small region, or one with more changes than that looks for, is one part.
 */
function regionParts(middle: { before: Uint8Array; after: Uint8Array }, context: number): RegionPart[] {
  const whole = [{ before: middle.before, after: middle.after, oldLine: 0, newLine: 0 }];
  if (Math.max(middle.before.length, middle.after.length) < SPLIT_REGION_BYTES) return whole;
  const a = linesOf(middle.before);
  const b = linesOf(middle.after);
  const changed = lineEdits(a, b, SPLIT_MAX_EDITS);
  if (changed === null || changed.length === 0) return whole;
  // Changes closer than two contexts share a hunk (as jsdiff groups them): they stay in one part.
  const groups: { a0: number; a1: number; b0: number; b1: number }[] = [];
  for (const [ai, bi, aEnd, bEnd] of changed) {
    const last = groups[groups.length - 1];
    if (last && ai - last.a1 <= 2 * context) {
      last.a1 = aEnd;
      last.b1 = bEnd;
    } else groups.push({ a0: ai, a1: aEnd, b0: bi, b1: bEnd });
  }
  return groups.map((g) => {
    const a0 = Math.max(0, g.a0 - context);
    const b0 = g.b0 - (g.a0 - a0);
    const a1 = Math.min(a.count, g.a1 + context);
    const b1 = g.b1 + (a1 - g.a1);
    return {
      before: middle.before.subarray(a.starts[a0]!, a.starts[a1]!),
      after: middle.after.subarray(b.starts[b0]!, b.starts[b1]!),
      oldLine: a0,
      newLine: b0,
    };
  });
}

/** The lines of some bytes: where each starts (then the end), and a hash of each. */
interface Lines {
  bytes: Uint8Array;
  count: number;
  starts: Int32Array;
  hashes: Int32Array;
}

function linesOf(bytes: Uint8Array): Lines {
  let count = 0;
  for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) count++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE) count++;
  const starts = new Int32Array(count + 1);
  const hashes = new Int32Array(count);
  let line = 0;
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < bytes.length; i++) {
    h = Math.imul(h ^ bytes[i]!, 0x01000193);
    if (bytes[i] === NEWLINE || i === bytes.length - 1) {
      hashes[line] = h;
      starts[++line] = i + 1;
      h = 0x811c9dc5 | 0;
    }
  }
  return { bytes, count, starts, hashes };
}

function sameLine(a: Lines, i: number, b: Lines, j: number): boolean {
  if (a.hashes[i] !== b.hashes[j]) return false;
  const [s, e, t] = [a.starts[i]!, a.starts[i + 1]!, b.starts[j]!];
  if (e - s !== b.starts[j + 1]! - t) return false;
  for (let k = 0; k < e - s; k++) if (a.bytes[s + k] !== b.bytes[t + k]) return false;
  return true;
}

/**
 * The runs of lines that differ between `a` and `b`, as `[aStart, bStart, aEnd, bEnd]` (0-based, end
 * exclusive) in order: a shortest line edit script (Myers' greedy algorithm), or null when it needs more than
 * `maxEdits` line insertions and deletions.
 */
function lineEdits(a: Lines, b: Lines, maxEdits: number): [number, number, number, number][] | null {
  const n = a.count;
  const m = b.count;
  const off = maxEdits + 1;
  const v = new Int32Array(2 * maxEdits + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= maxEdits; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2)); // entry k + d + 1 holds diagonal k before step d
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!)
        ? v[off + k + 1]!
        : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && sameLine(a, x, b, y)) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return changedRuns(trace, n, m);
    }
  }
  return null;
}

/** Walk the trace of {@linkcode lineEdits} back from the end: the runs of lines that are not kept. */
function changedRuns(trace: Int32Array[], n: number, m: number): [number, number, number, number][] {
  const runs: [number, number, number, number][] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const at = (kk: number) => v[kk + d + 1]!;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
    }
    if (d === 0) break;
    // One line deleted (x moves) or inserted (y moves): joined to the run it touches.
    const [ax, by] = [Math.max(prevX, 0), Math.max(prevY, 0)];
    const first = runs[0];
    if (first && first[0] === x && first[1] === y) {
      first[0] = ax;
      first[1] = by;
    } else runs.unshift([ax, by, x, y]);
    x = prevX;
    y = prevY;
  }
  return runs;
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
