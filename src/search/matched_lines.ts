/**
 * From match offsets to the lines they are on, without splitting the text: line starts are found once per
 * file, only as far as its last match ({@linkcode LineStarts}, which a caller may keep for the next search of
 * the same text), and only the lines that are shown — matched lines and their context — are ever cut out of
 * the text.
 *
 * @module
 */

/** One matched line of a file (a multi-line match: the line it starts on). */
export interface MatchedLine {
  /** 1-based line number. */
  line: number;
  /** Offset of the line's first character. */
  start: number;
  /** Offset of the end of the last line a match on this line reaches (its "\n", or the text's end). */
  end: number;
  /** Start/end offsets of the matches that start on this line, flat: `[s0, e0, s1, e1, …]`. */
  spans: number[];
}

/** End of the line holding `offset` (its "\n", or the text's end). */
function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  return nl === -1 ? text.length : nl;
}

/**
 * Where a text's lines start, found as far as a question needs and kept for the next: a warm session that
 * searches the same held text again finds the lines of its matches by bisection instead of counting line ends
 * up to each (a 9 MB file with a match near its end costs 200,000 `indexOf` calls to count).
 */
export class LineStarts {
  readonly #text: string;
  /** Offsets of the line starts found so far, in order (line 1 starts at 0). */
  readonly #starts: number[] = [0];
  /** Where to look for the next line end; -1 once the text's end is reached. */
  #from = 0;

  /**
   * Start with none found beyond the first line.
   *
   * @param text The text.
   */
  constructor(text: string) {
    this.#text = text;
  }

  /** How many line starts have been found so far (what holding them costs grows with it). */
  get found(): number {
    return this.#starts.length;
  }

  /**
   * The line holding `offset`, from a line known to start at or before it.
   *
   * @param offset A text offset.
   * @param from A 1-based line that starts at or before `offset` (1 by default).
   * @returns Its 1-based line number and the line's start.
   */
  lineAt(offset: number, from = 1): { line: number; start: number } {
    const starts = this.#starts;
    while (this.#from !== -1 && starts[starts.length - 1]! <= offset) {
      const nl = this.#text.indexOf("\n", this.#from);
      this.#from = nl === -1 ? -1 : nl + 1;
      if (nl !== -1) starts.push(nl + 1);
    }
    let lo = from - 1; // starts[lo] <= offset
    let hi = starts.length; // starts[hi] > offset, or past the end
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid;
    }
    return { line: lo + 1, start: starts[lo]! };
  }
}

/**
 * Group a file's matches by the line each starts on.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchedLines } from "./matched_lines.ts";
 *
 * const lines = matchedLines("ab\ncab\n", [0, 1, 4, 5, 5, 6]);
 * assert.deepEqual(lines.map((l) => [l.line, l.spans]), [[1, [0, 1]], [2, [4, 5, 5, 6]]]);
 * ```
 *
 * @param text The file's text.
 * @param hits Start/end offsets of its matches, in order (from `scanText`).
 * @param options `lines`: the text's {@linkcode LineStarts}, kept by the caller for the next search of the
 *   same text (a fresh one by default).
 * @returns The matched lines, in order.
 */
export function matchedLines(
  text: string,
  hits: number[],
  options: { lines?: LineStarts } = {},
): MatchedLine[] {
  const lines = options.lines ?? new LineStarts(text);
  const out: MatchedLine[] = [];
  let at = { line: 1, start: 0 };
  for (let k = 0; k < hits.length; k += 2) {
    const s = hits[k]!;
    const e = hits[k + 1]!;
    at = lines.lineAt(s, at.line);
    const reach = e > s ? e - 1 : s; // the match's last character
    const last = out[out.length - 1];
    if (last !== undefined && last.line === at.line) {
      last.spans.push(s, e);
      // The line's end is looked for again only when a match runs past it: each match of a long line looking
      // for its end made the square of the line's length (150 lines of 100,000 `x`s: 37 s).
      if (reach > last.end) last.end = lineEnd(text, reach);
    } else out.push({ line: at.line, start: at.start, end: lineEnd(text, reach), spans: [s, e] });
  }
  return out;
}

/** A line's text without its line end ("\r" included). */
export function lineText(text: string, start: number, end: number): string {
  return text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
}

/** Line and 1-based column of `offset`, counted from a known line start before it. */
export function positionAfter(
  text: string,
  from: { line: number; start: number },
  offset: number,
): { line: number; column: number } {
  let { line, start } = from;
  for (let nl = text.indexOf("\n", start); nl !== -1 && nl < offset; nl = text.indexOf("\n", start)) {
    line++;
    start = nl + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * Lines and columns of offsets asked in order, each line's end looked for once: {@linkcode positionAfter}
 * from a line's start looks for that line's end again at each call, and the matches of a long line (a
 * minified file's) asked one by one made the square of its length.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { PositionCursor } from "./matched_lines.ts";
 *
 * const at = new PositionCursor("ab\ncd\n");
 * assert.deepEqual([at.at(1), at.at(3), at.at(4)], [{ line: 1, column: 2 }, { line: 2, column: 1 }, { line: 2, column: 2 }]);
 * ```
 */
export class PositionCursor {
  readonly #text: string;
  #line = 1;
  #start = 0;
  /** The first "\n" at or after `#start`, or -1. */
  #next: number;

  /** @param text The text. */
  constructor(text: string) {
    this.#text = text;
    this.#next = text.indexOf("\n");
  }

  /**
   * The line and 1-based column of `offset` (an offset before the last one asked starts again from the top).
   *
   * @param offset A text offset.
   * @returns Its position.
   */
  at(offset: number): { line: number; column: number } {
    if (offset < this.#start) {
      this.#line = 1;
      this.#start = 0;
      this.#next = this.#text.indexOf("\n");
    }
    while (this.#next !== -1 && this.#next < offset) {
      this.#line++;
      this.#start = this.#next + 1;
      this.#next = this.#text.indexOf("\n", this.#start);
    }
    return { line: this.#line, column: offset - this.#start + 1 };
  }
}

/**
 * The `count` lines before the line that starts at `start`, nearest last.
 *
 * @param text The file's text.
 * @param options Where the line starts and how many lines to take.
 * @returns Their texts.
 */
export function linesBefore(text: string, options: { start: number; count: number }): string[] {
  const out: string[] = [];
  let end = options.start - 1; // the "\n" ending the previous line
  while (out.length < options.count && end >= 0) {
    const s = text.lastIndexOf("\n", end - 1) + 1;
    out.unshift(lineText(text, s, end));
    end = s - 1;
  }
  return out;
}

/**
 * The `count` lines after the line that ends at `end` (its "\n"), nearest first. A final line end starts no
 * line of its own.
 *
 * @param text The file's text.
 * @param options Where the line ends and how many lines to take.
 * @returns Their texts.
 */
export function linesAfter(text: string, options: { end: number; count: number }): string[] {
  const out: string[] = [];
  let start = options.end + 1;
  while (out.length < options.count && start < text.length) {
    const e = lineEnd(text, start);
    out.push(lineText(text, start, e));
    start = e + 1;
  }
  return out;
}
