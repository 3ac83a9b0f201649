/**
 * The changed lines between two texts, as hunks of removed and added rows
 * (unchanged context lines are not part of any hunk): the span both texts
 * share as prefix and suffix is skipped, the rest is diffed line by line with
 * jsdiff. Private to `src/guards/`.
 *
 * @module
 */
import { diffArrays } from "diff";
import { changedSpan } from "../syntax/trees.ts";

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

function rowOf(text: string, offset: number): number {
  let row = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) row++;
  return row;
}

/**
 * The hunks of changed lines from `before` to `after`, in order.
 *
 * @param before The old text.
 * @param after The new text.
 * @returns The hunks (empty when the texts are equal).
 */
export function lineHunks(before: string, after: string): LineHunk[] {
  const span = changedSpan(before, after);
  if (!span) return [];
  const first = rowOf(before, span.start); // the common prefix has the same rows in both texts
  const lastBefore = rowOf(before, span.oldEnd);
  const lastAfter = rowOf(after, span.newEnd);
  const oldLines = before.split("\n").slice(first, lastBefore + 1);
  const newLines = after.split("\n").slice(first, lastAfter + 1);
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
