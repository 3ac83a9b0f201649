/**
 * Placing a block in a text that earlier blocks changed, without building that text (private). A later block
 * sees the earlier blocks' result; when its SEARCH text occurs once in the text before those changes, as an
 * exact match far from every change, and nowhere in the stretches the changes made, the ladder would answer the
 * same on the changed text as on the text before them: that match, moved by the changes before it. Any other
 * block is left to the ladder on the changed text.
 *
 * @module
 */
import type { TextSplice } from "../fs/text.ts";
import type { TextDoc } from "./_doc.ts";
import { exactCands } from "./_match_lines.ts";
import { changedStretches, shiftAt, touchesSpan } from "./_splices.ts";
import { matchBlockIn, type MatchOptions } from "./match_block.ts";
import type { BlockMatch, EditBlock } from "./types.ts";

/** What {@linkcode matchAfterSplices} places: a block, in a text changed by splices. */
export interface SplicedBlock {
  /** The changes so far, as ascending, disjoint splices of the text before them. */
  splices: readonly TextSplice[];
  /** The block (its line hint in the changed text's lines). */
  block: EditBlock;
  /** Ladder options. */
  options: MatchOptions;
}

/**
 * The ladder's match of a block in `doc`'s text with `splices` applied, found in `doc` itself, or null when
 * that cannot be told without the changed text (then the caller builds it and runs the ladder there).
 *
 * It is told when the block is plain (no `@@` anchor, no `*** End of File`, one reading, not replace-all), the
 * changes wrote no carriage return, and the block's SEARCH lines occur exactly once in the text before the
 * changes, as an exact tier hit (LF-only text). Then, in the changed text, the exact tier finds that hit and no
 * other: the text within reach of the hit and of its already-applied check is unchanged (no splice within the
 * longer of SEARCH and REPLACE, plus one character, of it), and the stretches the splices changed, with that
 * margin, do not hold the SEARCH text. A later block whose SEARCH only exists after an earlier block's
 * replacement, or that an earlier block removed, fails these checks and goes to the ladder.
 *
 * @param doc The text before the changes.
 * @param spliced The splices, the block and the ladder's options.
 * @returns The match in the changed text's lines and offsets, or null.
 */
export function matchAfterSplices(doc: TextDoc, spliced: SplicedBlock): BlockMatch | null {
  const { splices, block } = spliced;
  if (!isPlain(block) || splices.some((s) => s.insert.includes("\r"))) return null;
  const cands = exactCands(doc, block.search);
  const span = cands.length === 1 ? cands[0]!.textSpan : undefined;
  if (!span) return null;
  const needle = block.search.join("\n");
  const reach = Math.max(needle.length, block.replace.join("\n").length) + 1;
  if (touchesSpan(splices, { from: span.from - reach, to: span.to + reach })) return null;
  const text = doc.text;
  if (changedStretches(text, splices, needle.length + 1).some((s) => s.includes(needle))) return null;
  const outcome = matchBlockIn(doc, block, spliced.options);
  if (!outcome.ok || outcome.match.tier !== "exact" || outcome.match.textSpan?.from !== span.from) {
    return null;
  }
  const shift = shiftAt(text, splices, span.from);
  const m = outcome.match;
  return {
    ...m,
    start: m.start + shift.lines,
    end: m.end + shift.lines,
    textSpan: { from: span.from + shift.chars, to: span.to + shift.chars },
  };
}

/** A block the exact tier alone decides: no anchor, no end-of-file mark, one reading, one place. */
function isPlain(block: EditBlock): boolean {
  return block.search.length > 0 && !block.anchors?.length && !block.atEnd && !block.alternatives &&
    !block.replaceAll;
}
