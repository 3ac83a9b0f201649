/**
 * Text edits on import statements shared by the move refactors: taking items
 * out of a comma-separated list (`{ a, b }`, `from m import a, b`) and
 * adding lines after a statement.
 *
 * @module
 */
import { indentOfLine, lineEndAfter } from "../fs/lines.ts";
import type { TextEdit } from "./source.ts";

/**
 * The edits that remove some items of a comma-separated list, with the
 * separators between them (a trailing comma after the last item stays).
 *
 * @param items The list's items, in order (spans).
 * @param drop Indexes of the items to remove (not all of them).
 * @returns The edits.
 */
export function listItemRemovals(
  items: { start: number; end: number }[],
  drop: ReadonlySet<number>,
): TextEdit[] {
  let lastKept = -1;
  for (let i = 0; i < items.length; i++) if (!drop.has(i)) lastKept = i;
  if (lastKept < 0) throw new RangeError("Cannot remove every item of a list this way");
  const edits: TextEdit[] = [];
  for (const i of [...drop].sort((a, b) => a - b)) {
    if (i < lastKept) edits.push({ start: items[i]!.start, end: items[i + 1]!.start, text: "" });
  }
  if (lastKept < items.length - 1) {
    edits.push({ start: items[lastKept]!.end, end: items[items.length - 1]!.end, text: "" });
  }
  return edits;
}

/**
 * The edit that adds lines after the line a statement ends on, at the statement's indentation.
 *
 * @param text The file's text.
 * @param statement The statement's span.
 * @param lines The lines to add (no line endings).
 * @param eol The file's line ending.
 * @returns The edit.
 */
export function linesAfter(
  text: string,
  statement: { start: number; end: number },
  lines: string[],
  eol: string,
): TextEdit {
  const indent = indentOfLine(text, statement.start);
  const at = lineEndAfter(text, statement.end);
  const body = lines.map((l) => indent + l).join(eol);
  if (at >= text.length && !text.endsWith("\n")) return { start: at, end: at, text: eol + body };
  return { start: at, end: at, text: body + eol };
}
