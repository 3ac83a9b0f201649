/**
 * Line endings of a whole-file rewrite (private): new content, written with
 * LF by a model that read the file as LF text, takes the endings of the file
 * it replaces — each unchanged line its own, each changed line the one of the
 * line it replaces, each added line the file's dominant one.
 *
 * @module
 */
import { diffArrays } from "diff";
import { dominantEol, eolStyle, splitLinesKeepEnds } from "../fs/text.ts";
import { bodyOf, endingOf } from "./_doc.ts";

/**
 * The file's current text as {@linkcode keepLineEndings} needs it: its endings' style and dominant ending
 * (known from its bytes: `textShape` of `fs/text.ts`), and the text itself, asked for only when the endings are
 * mixed (each unchanged line then keeps its own).
 */
export interface PreviousText {
  /** Its line endings' style. */
  style: "lf" | "crlf" | "mixed";
  /** Its more common ending. */
  dominant: "\n" | "\r\n";
  /** The text (BOM stripped). */
  text(): string;
}

/** What {@linkcode keepLineEndings} made. */
export interface KeptEndings {
  /** The new text with the old file's line endings. */
  text: string;
  /** Lines of a mixed file that took the dominant ending (neither kept nor replacing a line). */
  defaulted: number;
  /** The dominant ending of the old file. */
  dominant: "\n" | "\r\n";
}

/**
 * Give `next` the line endings of `prev`: lines kept from `prev` keep their
 * own ending, a changed line takes the ending of the line it replaces (one
 * for one within a change), added lines take `prev`'s dominant ending. The
 * final-newline state of `next` is kept.
 *
 * @param prev The file's current text (BOM stripped), or its shape with the text on demand.
 * @param next The new content (any endings).
 * @returns The new text and how many lines defaulted to the dominant ending.
 */
export function keepLineEndings(prev: string | PreviousText, next: string): KeptEndings {
  const old = typeof prev === "string"
    ? { style: eolStyle(prev), dominant: dominantEol(prev), text: () => prev }
    : prev;
  const { dominant, style } = old;
  if (style !== "mixed" && (eolStyle(next) === style || !next.includes("\n"))) {
    // Every line already ends as the file's do: the text as it is, not split into lines and joined again
    // (on a 50 MB file that was two arrays of millions of strings and a second copy of the text).
    return { text: next, defaulted: 0, dominant };
  }
  const newLines = splitLinesKeepEnds(next);
  const newBodies = newLines.map(bodyOf);
  const lastEnds = newLines.length > 0 && endingOf(newLines[newLines.length - 1]!) !== "";
  if (style !== "mixed") {
    const eol = style === "crlf" ? "\r\n" : "\n";
    const text = newBodies.map((b, i) => i < newBodies.length - 1 || lastEnds ? b + eol : b).join("");
    return { text, defaulted: 0, dominant };
  }
  const oldLines = splitLinesKeepEnds(old.text());
  const oldBodies = oldLines.map(bodyOf);
  const endings: string[] = [];
  let defaulted = 0;
  const changes = diffArrays(oldBodies, newBodies, { maxEditLength: 5000 });
  if (changes === undefined) {
    // Too different to align: the dominant ending throughout.
    for (let i = 0; i < newBodies.length; i++) endings.push(dominant);
    defaulted = newBodies.length;
  } else {
    let o = 0;
    let removed: string[] = [];
    for (const c of changes) {
      if (c.removed) {
        removed = oldLines.slice(o, o + c.count).map((l) => endingOf(l) || dominant);
        o += c.count;
        continue;
      }
      if (c.added) {
        for (let k = 0; k < c.count; k++) {
          if (k < removed.length) endings.push(removed[k]!);
          else {
            endings.push(dominant);
            defaulted++;
          }
        }
      } else {
        for (let k = 0; k < c.count; k++) endings.push(endingOf(oldLines[o + k]!) || dominant);
        o += c.count;
      }
      removed = [];
    }
  }
  const text = newBodies.map((b, i) => i < newBodies.length - 1 || lastEnds ? b + endings[i]! : b).join("");
  return { text, defaulted, dominant };
}
