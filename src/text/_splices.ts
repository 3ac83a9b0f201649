/**
 * The changes a run of blocks made to one file, kept as splices of the file's own text (private): each
 * block's change arrives in the coordinates of the text as the blocks before it left it, and is mapped back,
 * so the file's new bytes are spliced from its old ones once at the end (no new text built, nor encoded).
 *
 * @module
 */
import type { TextSplice } from "../fs/text.ts";

/**
 * Add to `log` (ascending, disjoint splices of the original text) a splice of the current text, which is the
 * original with `log` applied.
 *
 * @param log The splices so far, in the original text's coordinates; updated in place.
 * @param splice A splice of the current text.
 * @returns False, with `log` unchanged, when the splice reaches into text an earlier splice inserted (the
 *   caller then builds the new text instead).
 */
export function addSplice(log: TextSplice[], splice: TextSplice): boolean {
  /** How far the current text is ahead of the original past the splices looked at so far. */
  let shift = 0;
  let i = 0;
  for (; i < log.length; i++) {
    const earlier = log[i]!;
    const from = earlier.from + shift;
    if (splice.to <= from) break;
    if (splice.from < from + earlier.insert.length || splice.from < from) return false;
    shift += earlier.insert.length - (earlier.to - earlier.from);
  }
  log.splice(i, 0, { from: splice.from - shift, to: splice.to - shift, insert: splice.insert });
  return true;
}
