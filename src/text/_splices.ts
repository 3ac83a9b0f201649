/**
 * The changes a run of blocks made to one file, kept as splices of the file's own text (private): each
 * block's change arrives in the coordinates of the text as the blocks before it left it, and is mapped back,
 * so the file's new bytes are spliced from its old ones once at the end (no new text built, nor encoded).
 *
 * @module
 */
import { rowOf } from "../fs/lines.ts";
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

/**
 * The current text: `text` with `log` (ascending, disjoint splices of it) applied.
 *
 * @param text The original text.
 * @param log The splices, in the original text's coordinates.
 * @returns The text they make.
 */
export function applySplices(text: string, log: readonly TextSplice[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const s of log) {
    parts.push(text.slice(at, s.from), s.insert);
    at = s.to;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * Whether a splice of `log` replaces, inserts at or borders on `[from, to]` of the original text (a splice
 * ending at `from` or starting at `to` counts: the characters next to a span decide line boundaries).
 */
export function touchesSpan(log: readonly TextSplice[], span: { from: number; to: number }): boolean {
  return log.some((s) => s.from <= span.to && s.to >= span.from);
}

/**
 * How far the splices before `offset` (an offset of the original text outside every splice) move it in the
 * current text: characters and line feeds added (negative: removed).
 *
 * @param text The original text.
 * @param log The splices, in the original text's coordinates.
 * @param offset An offset of the original text that no splice covers.
 * @returns The shift in characters and in lines.
 */
export function shiftAt(
  text: string,
  log: readonly TextSplice[],
  offset: number,
): { chars: number; lines: number } {
  let chars = 0;
  let lines = 0;
  for (const s of log) {
    if (s.from >= offset) break;
    chars += s.insert.length - (s.to - s.from);
    lines += rowOf(s.insert, s.insert.length) - rowOf(text, s.to, s.from);
  }
  return { chars, lines };
}

/**
 * The stretches of the current text that the splices changed, each with `margin` characters of unchanged text
 * on both sides (splices closer than twice the margin share one stretch): what a search of the current text
 * for a string up to `margin - 1` characters long, or a line boundary beside one, must look at besides the
 * original text.
 *
 * @param text The original text.
 * @param log The splices, in the original text's coordinates.
 * @param margin Unchanged characters kept on each side.
 * @returns The stretches, as text of the current text.
 */
export function changedStretches(text: string, log: readonly TextSplice[], margin: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < log.length) {
    const parts = [text.slice(Math.max(0, log[i]!.from - margin), log[i]!.from), log[i]!.insert];
    let end = log[i]!.to;
    for (i++; i < log.length && log[i]!.from - end < 2 * margin; i++) {
      parts.push(text.slice(end, log[i]!.from), log[i]!.insert);
      end = log[i]!.to;
    }
    parts.push(text.slice(end, end + margin));
    out.push(parts.join(""));
  }
  return out;
}
