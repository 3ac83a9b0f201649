/**
 * Where two states of a text differ: the one span outside their common prefix
 * and suffix ({@linkcode changedSpan}), the runs of changed lines inside it
 * ({@linkcode lineHunks}), and each run narrowed to the characters that
 * differ ({@linkcode changedRuns}) — what an incremental re-parse edits and
 * what a line-level guard compares.
 *
 * @module
 */
import { diffArrays } from "diff";
import { nextLineStart, rowOf } from "./lines.ts";

const CHUNK = 4096;

/** The single changed span between two texts: offsets in `before` [start, oldEnd) became `after` [start, newEnd). */
export interface ChangedSpan {
  /** Where the texts start to differ (the length of their common prefix). */
  start: number;
  /** The end of the changed part in the old text (its common suffix starts there). */
  oldEnd: number;
  /** The end of the changed part in the new text. */
  newEnd: number;
}

/**
 * The single changed span between two texts (common prefix and suffix), compared in chunks first.
 *
 * @example
 * ```ts
 * import { changedSpan } from "./text_changes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(changedSpan("abcdef", "abXYef"), { start: 2, oldEnd: 4, newEnd: 4 });
 * ```
 *
 * @param before The old text.
 * @param after The new text.
 * @returns The span, or null when the texts are equal.
 */
export function changedSpan(before: string, after: string): ChangedSpan | null {
  if (before === after) return null;
  const min = Math.min(before.length, after.length);
  let start = 0;
  while (start + CHUNK <= min && before.slice(start, start + CHUNK) === after.slice(start, start + CHUNK)) {
    start += CHUNK;
  }
  while (start < min && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let oldEnd = before.length;
  let newEnd = after.length;
  while (
    oldEnd - CHUNK >= start && newEnd - CHUNK >= start &&
    before.slice(oldEnd - CHUNK, oldEnd) === after.slice(newEnd - CHUNK, newEnd)
  ) {
    oldEnd -= CHUNK;
    newEnd -= CHUNK;
  }
  while (oldEnd > start && newEnd > start && before.charCodeAt(oldEnd - 1) === after.charCodeAt(newEnd - 1)) {
    oldEnd--;
    newEnd--;
  }
  return { start, oldEnd, newEnd };
}

/** One run of changed lines. Rows are 0-based. */
export interface LineHunk {
  /** First removed row of the old text; for a pure insertion, the old row the new lines go before. */
  beforeStart: number;
  /** How many rows of the old text it removes. */
  removed: number;
  /** First added row of the new text; for a pure removal, the new row where the old lines were. */
  afterStart: number;
  /** How many rows of the new text it adds. */
  added: number;
}

/** A hunk with where its rows are: [beforeOffset, beforeEnd) of the old text, [afterOffset, afterEnd) of the new. */
interface PlacedHunk extends LineHunk {
  beforeOffset: number;
  beforeEnd: number;
  afterOffset: number;
  afterEnd: number;
}

/** The lines of a text with their "\n" (the last one may have none): a line that gains one has changed. */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length - 1; i++) lines[i] += "\n";
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The changed lines of the region outside the common prefix and suffix (whole lines of it, each with its line
 * break, so that offsets stay exact), compared pairwise when both sides have as many lines (a rename, a
 * reworded line) and with jsdiff otherwise.
 */
function placedHunks(before: string, after: string): PlacedHunk[] {
  const span = changedSpan(before, after);
  if (!span) return [];
  const from = before.lastIndexOf("\n", span.start - 1) + 1; // the common prefix: the same offset in both texts
  const first = rowOf(before, from);
  // Up to the end of the line where the change ends: the text from there on is the common suffix in both.
  const oldTo = nextLineStart(before, span.oldEnd);
  const newTo = span.newEnd + (oldTo - span.oldEnd);
  const oldLines = linesOf(before.slice(from, oldTo));
  const newLines = linesOf(after.slice(from, newTo));
  const out: PlacedHunk[] = [];
  let open: PlacedHunk | null = null;
  // Rows and offsets of the next old and new line.
  let b = first;
  let a = first;
  let bo = from;
  let ao = from;
  const oldStep = (i: number) => oldLines[i]!.length;
  const newStep = (j: number) => newLines[j]!.length;
  const close = () => {
    if (open) out.push(open);
    open = null;
  };
  /** Lines [i, i + removed) of the old side and [j, j + added) of the new side join the open hunk. */
  const take = (i: number, removed: number, j: number, added: number) => {
    open ??= {
      beforeStart: b,
      removed: 0,
      afterStart: a,
      added: 0,
      beforeOffset: bo,
      beforeEnd: bo,
      afterOffset: ao,
      afterEnd: ao,
    };
    for (let k = i; k < i + removed; k++) bo += oldStep(k);
    for (let k = j; k < j + added; k++) ao += newStep(k);
    open.removed += removed;
    open.added += added;
    b += removed;
    a += added;
    open.beforeEnd = bo;
    open.afterEnd = ao;
  };
  /** `count` lines the same on both sides, from line i (old) and j (new). */
  const keep = (i: number, j: number, count: number) => {
    close();
    for (let k = 0; k < count; k++) {
      bo += oldStep(i + k);
      ao += newStep(j + k);
    }
    b += count;
    a += count;
  };
  if (oldLines.length === newLines.length) {
    for (let i = 0; i < oldLines.length; i++) {
      if (oldLines[i] === newLines[i]) keep(i, i, 1);
      else take(i, 1, i, 1);
    }
  } else {
    let i = 0;
    let j = 0;
    for (const part of diffArrays(oldLines, newLines)) {
      const n = part.value.length;
      if (part.added) {
        take(i, 0, j, n);
        j += n;
      } else if (part.removed) {
        take(i, n, j, 0);
        i += n;
      } else {
        keep(i, j, n);
        i += n;
        j += n;
      }
    }
  }
  close();
  return out;
}

/**
 * The hunks of changed lines from `before` to `after`, in order, for a reader: lines compared without their
 * line breaks (a text that ends with one has an empty last line), so a block removed next to a blank line is
 * reported on its own lines.
 *
 * @example
 * ```ts
 * import { lineHunks } from "./text_changes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(lineHunks("a\nb\nc\n", "a\nB\nc\nd\n"), [
 *   { beforeStart: 1, removed: 1, afterStart: 1, added: 1 },
 *   { beforeStart: 3, removed: 0, afterStart: 3, added: 1 },
 * ]);
 * ```
 *
 * @param before The old text.
 * @param after The new text.
 * @returns The hunks (empty when the texts are equal).
 */
export function lineHunks(before: string, after: string): LineHunk[] {
  const span = changedSpan(before, after);
  if (!span) return [];
  // The rows from the change's first to its last, on each side (the common prefix has the same rows in both).
  const from = before.lastIndexOf("\n", span.start - 1) + 1;
  const first = rowOf(before, from);
  const lineEnd = (text: string, at: number) => {
    const nl = text.indexOf("\n", at);
    return nl < 0 ? text.length : nl;
  };
  const oldLines = before.slice(from, lineEnd(before, span.oldEnd)).split("\n");
  const newLines = after.slice(from, lineEnd(after, span.newEnd)).split("\n");
  const out: LineHunk[] = [];
  let b = first;
  let a = first;
  let open: LineHunk | null = null;
  for (const part of diffArrays(oldLines, newLines)) {
    const n = part.value.length;
    if (!part.added && !part.removed) {
      if (open) out.push(open);
      open = null;
      b += n;
      a += n;
      continue;
    }
    open ??= { beforeStart: b, removed: 0, afterStart: a, added: 0 };
    if (part.removed) {
      open.removed += n;
      b += n;
    } else {
      open.added += n;
      a += n;
    }
  }
  if (open) out.push(open);
  return out;
}

/** One changed run: old [oldStart, oldEnd) became new [newStart, newEnd); `row` is the old row of `oldStart`. */
export interface ChangedRun {
  /** Start in the old text. */
  oldStart: number;
  /** End in the old text (exclusive). */
  oldEnd: number;
  /** Start in the new text. */
  newStart: number;
  /** End in the new text (exclusive). */
  newEnd: number;
  /** 0-based row of `oldStart` in the old text (the same row of the same line holds `newStart` in the new). */
  row: number;
  /** 0-based column (UTF-16) of `oldStart` on its row, and of `newStart` on its row. */
  column: number;
}

/**
 * The changed runs between two texts, in order: one per hunk of changed lines, narrowed to the characters that
 * differ. A rename of a name used on 30 lines is 30 short runs where {@linkcode changedSpan} is one long span.
 *
 * @example
 * ```ts
 * import { changedRuns } from "./text_changes.ts";
 * import assert from "node:assert/strict";
 *
 * const runs = changedRuns("let a = 1;\nf();\nuse(a);\n", "let b = 1;\nf();\nuse(b);\n");
 * assert.deepEqual(runs.map((r) => [r.row, r.column, r.oldEnd - r.oldStart]), [[0, 4, 1], [2, 4, 1]]);
 * ```
 *
 * @param before The old text.
 * @param after The new text.
 * @returns The runs (empty when the texts are equal).
 */
export function changedRuns(before: string, after: string): ChangedRun[] {
  const out: ChangedRun[] = [];
  for (const h of placedHunks(before, after)) {
    let oldStart = h.beforeOffset;
    let newStart = h.afterOffset;
    let oldEnd = h.beforeEnd;
    let newEnd = h.afterEnd;
    while (
      oldStart < oldEnd && newStart < newEnd && before.charCodeAt(oldStart) === after.charCodeAt(newStart)
    ) {
      oldStart++;
      newStart++;
    }
    while (
      oldEnd > oldStart && newEnd > newStart && before.charCodeAt(oldEnd - 1) === after.charCodeAt(newEnd - 1)
    ) {
      oldEnd--;
      newEnd--;
    }
    const lineBreak = before.lastIndexOf("\n", oldStart - 1);
    const row = h.beforeStart + rowOf(before, oldStart, h.beforeOffset);
    out.push({ oldStart, oldEnd, newStart, newEnd, row, column: oldStart - (lineBreak + 1) });
  }
  return out;
}
