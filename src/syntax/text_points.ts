/**
 * Points (row, UTF-16 column) of offsets in a text, and the tree-sitter edits between two texts: what an
 * incremental parse ({@linkcode editsBetween}) and a node's position need, found from line starts and the
 * nearest node rather than a scan from the top of the text.
 *
 * @module
 */
import type { Edit, Point, Tree } from "web-tree-sitter";
import { lineStart, rowOf } from "../fs/lines.ts";
import { changedRuns, changedSpan } from "../fs/text_changes.ts";

/** The Point (row, UTF-16 column) of a UTF-16 offset in `text`. */
export function pointAt(text: string, offset: number): Point {
  return { row: rowOf(text, offset), column: offset - lineStart(text, offset) };
}

/**
 * Advance a point from (`from`, `point`) to `to` in `text` by counting newlines in between.
 *
 * @param text The text.
 * @param move The known offset (`from`) and its point, and the offset to reach (`to`).
 * @returns The point at `to`.
 */
export function advancePoint(text: string, move: { from: number; point: Point; to: number }): Point {
  const { from, point, to } = move;
  const rows = rowOf(text, to, from);
  if (rows === 0) return { row: point.row, column: point.column + to - from };
  return { row: point.row + rows, column: to - lineStart(text, to) };
}

/**
 * The Point of a UTF-16 offset in the text `tree` was parsed from, found from the nearest node of the tree
 * instead of a scan from the top of the text.
 *
 * @param tree The tree of `text`.
 * @param text The text it was parsed from.
 * @param offset A UTF-16 offset in `text`.
 * @returns Its row and column (as {@linkcode pointAt} gives them).
 */
export function pointIn(tree: Tree, text: string, offset: number): Point {
  const anchor = tree.rootNode.descendantForIndex(offset);
  return anchor && anchor.startIndex <= offset
    ? advancePoint(text, { from: anchor.startIndex, point: anchor.startPosition, to: offset })
    : pointAt(text, offset);
}

/** More changed runs than this and an incremental parse edits one span around them all. */
const MAX_EDITS = 256;

/**
 * The tree-sitter edits that turn `oldText` (parsed as `tree`) into `text`, to apply in the order given
 * (last in the text first, so that each is in the old text's coordinates): one per run of changed lines,
 * narrowed to the characters that differ, so that a rename on 40 lines re-parses around 40 names instead
 * of everything from the first to the last. Empty when the texts are equal.
 *
 * @param tree The tree `oldText` was parsed as.
 * @param oldText The text before.
 * @param text The text after.
 * @returns The edits, last in the text first.
 */
export function editsBetween(tree: Tree, oldText: string, text: string): Edit[] {
  const runs = changedRuns(oldText, text);
  if (runs.length === 0) return [];
  if (runs.length > MAX_EDITS) {
    const span = changedSpan(oldText, text)!;
    const startPosition = pointIn(tree, oldText, span.start);
    return [{
      startIndex: span.start,
      oldEndIndex: span.oldEnd,
      newEndIndex: span.newEnd,
      startPosition,
      oldEndPosition: advancePoint(oldText, { from: span.start, point: startPosition, to: span.oldEnd }),
      newEndPosition: advancePoint(text, { from: span.start, point: startPosition, to: span.newEnd }),
    } as Edit];
  }
  const out: Edit[] = [];
  for (let i = runs.length - 1; i >= 0; i--) {
    const r = runs[i]!;
    const startPosition = { row: r.row, column: r.column };
    out.push({
      startIndex: r.oldStart,
      oldEndIndex: r.oldEnd,
      newEndIndex: r.oldStart + (r.newEnd - r.newStart),
      startPosition,
      oldEndPosition: advancePoint(oldText, { from: r.oldStart, point: startPosition, to: r.oldEnd }),
      newEndPosition: advancePoint(text, { from: r.newStart, point: startPosition, to: r.newEnd }),
    } as Edit);
  }
  return out;
}
