/**
 * Line geometry of a decoded text, in UTF-16 offsets: where a line starts and
 * ends, whether an offset opens its line, a line's indentation and its width
 * in columns, and the blank lines around a line start. Every engine that edits
 * on whole lines (the structural engine, the symbol tools) uses these, so a
 * line means the same thing everywhere: it ends after its "\n" (a "\r" before
 * it belongs to the line's ending), and only spaces and tabs are indentation.
 *
 * @module
 */

/**
 * Offset of the start of the line holding `offset`.
 *
 * @param text The text.
 * @param offset Any offset on the line (UTF-16).
 * @returns The offset just after the previous "\n" (0 on the first line).
 *
 * @example
 * ```ts
 * import { lineStart } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lineStart("ab\ncd", 4), 3);
 * ```
 */
export function lineStart(text: string, offset: number): number {
  return offset <= 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1;
}

/**
 * The 0-based row of an offset: how many "\n" come before it (from `from`,
 * an offset known to start row 0 of the count).
 *
 * @example
 * ```ts
 * import { rowOf } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(rowOf("a\nb\nc", 4), 2);
 * assert.equal(rowOf("a\nb\nc", 1), 0);
 * ```
 *
 * @param text The text.
 * @param offset An offset (UTF-16).
 * @param from Where to start counting (default 0).
 * @returns The number of line breaks in `[from, offset)`.
 */
export function rowOf(text: string, offset: number, from = 0): number {
  let row = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) row++;
  return row;
}

/**
 * The 1-based line of an offset, as `read_file` numbers lines and messages quote them: one more than the
 * "\n" before it. The one way an offset becomes a line number where no index of the text is kept.
 *
 * @param text The text.
 * @param offset An offset (UTF-16).
 * @returns The line (1-based).
 *
 * @example
 * ```ts
 * import { lineNumberAt } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lineNumberAt("a\nb\nc", 4), 3);
 * assert.equal(lineNumberAt("a\nb\nc", 0), 1);
 * ```
 */
export function lineNumberAt(text: string, offset: number): number {
  return rowOf(text, offset) + 1;
}

/**
 * The offset where a 1-based line starts, or -1 when the text has fewer line starts (a final "\n" opens
 * one more, empty line): {@linkcode lineNumberAt} the other way.
 *
 * @param text The text.
 * @param line The line (1-based).
 * @returns Its first offset (UTF-16), or -1.
 *
 * @example
 * ```ts
 * import { offsetOfLine } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(offsetOfLine("ab\ncd\n", 2), 3);
 * assert.equal(offsetOfLine("ab\ncd\n", 3), 6);
 * assert.equal(offsetOfLine("ab\ncd\n", 4), -1);
 * ```
 */
export function offsetOfLine(text: string, line: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", at);
    if (nl === -1) return -1;
    at = nl + 1;
  }
  return at;
}

/**
 * Offset of the start of the next line: just after the "\n" at or after
 * `offset` (the text's length on the last line).
 *
 * @param text The text.
 * @param offset Any offset on the line (UTF-16).
 * @returns The next line's start.
 *
 * @example
 * ```ts
 * import { nextLineStart } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(nextLineStart("ab\ncd", 1), 3);
 * assert.equal(nextLineStart("ab\ncd", 4), 5);
 * ```
 */
export function nextLineStart(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  return nl === -1 ? text.length : nl + 1;
}

/**
 * The start of the line after a span that ends (exclusive) at `end`: the
 * span's last character is what counts, so a span ending just after a "\n"
 * ends there.
 *
 * @param text The text.
 * @param end The span's end (UTF-16, exclusive).
 * @returns The start of the line after the span's last line.
 */
export function lineEndAfter(text: string, end: number): number {
  return nextLineStart(text, end > 0 ? end - 1 : 0);
}

/**
 * Whether only spaces and tabs precede `offset` on its line.
 *
 * @param text The text.
 * @param offset An offset (UTF-16).
 * @returns True when `offset` is the first non-blank character of its line (or in its indentation).
 */
export function startsLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

/**
 * The leading whitespace (spaces and tabs) of the line that holds an offset.
 *
 * @param text The text.
 * @param offset Any offset on the line (0-based, UTF-16 code units).
 * @returns The run of spaces and tabs that starts the line.
 *
 * @example
 * ```ts
 * import { indentOfLine } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "class A {\n\tfoo() {}\n}\n";
 * assert.equal(indentOfLine(text, text.indexOf("foo")), "\t");
 * ```
 */
export function indentOfLine(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start, start + 256))![0];
}

/**
 * The width of leading whitespace in columns, a tab counting `tabCols`
 * (not a tab stop: indentation compares runs, not screen positions).
 *
 * @param ws Spaces and tabs.
 * @param tabCols Columns of a tab (default 4).
 * @returns The number of columns.
 */
export function columnsOf(ws: string, tabCols = 4): number {
  let n = 0;
  for (const ch of ws) n += ch === "\t" ? tabCols : 1;
  return n;
}

/**
 * Whether a line (with or without its ending) holds nothing but spaces and tabs.
 *
 * @param line One line.
 * @returns True for a blank line.
 */
export function isBlankLine(line: string): boolean {
  return /^[ \t]*\r?\n?$/.test(line);
}

/**
 * The blank lines directly above the line start `at`.
 *
 * @param text The text.
 * @param at A line start.
 * @returns How many, and the start of the first of them (`at` when there are none).
 */
export function blankLinesAbove(text: string, at: number): { count: number; from: number } {
  let from = at;
  let count = 0;
  while (from > 0) {
    const prev = lineStart(text, from - 1);
    if (!isBlankLine(text.slice(prev, from - 1))) break;
    count++;
    from = prev;
  }
  return { count, from };
}

/**
 * The blank lines starting at the line start `at` (a last line without an
 * ending does not count: it ends the text, not a gap).
 *
 * @param text The text.
 * @param at A line start.
 * @returns How many, and the start of the line after them (`at` when there are none).
 */
export function blankLinesBelow(text: string, at: number): { count: number; to: number } {
  let to = at;
  let count = 0;
  while (to < text.length) {
    const nl = text.indexOf("\n", to);
    if (nl === -1 || !isBlankLine(text.slice(to, nl))) break;
    count++;
    to = nl + 1;
  }
  return { count, to };
}

/**
 * Code as a model wrote it, ready to place: leading blank lines and trailing
 * whitespace dropped (the first line's own indentation is kept).
 *
 * @param code The code.
 * @returns The trimmed code.
 *
 * @example
 * ```ts
 * import { trimCode } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(trimCode("\n\n  f();\n\n"), "  f();");
 * ```
 */
export function trimCode(code: string): string {
  // trimEnd() drops what /\s+$/ would, in one pass (the regex is quadratic on a long inner run of spaces).
  return code.replace(/^(?:[ \t]*\r?\n)+/, "").trimEnd();
}

/**
 * Split decoded text into lines without their endings, as `read_file`
 * numbers them: a final "\n" ends the last line (it opens no empty one), and
 * a "\r" before a "\n" belongs to the ending.
 *
 * @param text The decoded text.
 * @returns The lines (none for "").
 *
 * @example
 * ```ts
 * import { textLines } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(textLines("a\r\nb\n"), ["a", "b"]);
 * assert.deepEqual(textLines("a\n\nb"), ["a", "", "b"]);
 * assert.deepEqual(textLines(""), []);
 * ```
 */
export function textLines(text: string): string[] {
  if (text === "") return [];
  const out = text.split("\n");
  if (out[out.length - 1] === "") out.pop();
  return out.map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
}

/**
 * Lines `start`–`end` of a text (1-based, inclusive, as {@linkcode textLines} counts them) and how many lines
 * it has, in one scan that copies only the lines asked for: reading a range of a 50 MB file costs a pass
 * over it plus the range, where splitting it would hold every line at once.
 *
 * @param text The decoded text.
 * @param start First line wanted (1-based).
 * @param end Last line wanted (inclusive; past the end is clipped).
 * @returns The lines without their endings, and the text's line count.
 *
 * @example
 * ```ts
 * import { lineWindow } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(lineWindow("a\r\nb\nc\n", 2, 9), { lines: ["b", "c"], total: 3 });
 * assert.deepEqual(lineWindow("", 1, 1), { lines: [], total: 0 });
 * ```
 */
export function lineWindow(text: string, start: number, end: number): { lines: string[]; total: number } {
  const lines: string[] = [];
  const total = forEachLine(text, { start, end }, (line) => {
    lines.push(line);
  });
  return { lines, total };
}

/**
 * Call `visit` with each of lines `start`–`end` of a text (as {@linkcode textLines} counts them, endings
 * dropped), one at a time, in one scan: nothing but the line in hand is held.
 *
 * @param text The decoded text.
 * @param span First and last line (1-based, inclusive; past the end is clipped).
 * @param visit Called with the line and its number.
 * @returns How many lines the text has.
 *
 * @example
 * ```ts
 * import { forEachLine } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * const seen: string[] = [];
 * assert.equal(forEachLine("a\nb\nc", { start: 2, end: 3 }, (l, n) => void seen.push(`${n}:${l}`)), 3);
 * assert.deepEqual(seen, ["2:b", "3:c"]);
 * ```
 */
export function forEachLine(
  text: string,
  span: { start: number; end: number },
  visit: (line: string, n: number) => void,
): number {
  let total = 0;
  for (let at = 0; at < text.length;) {
    const newline = text.indexOf("\n", at);
    const stop = newline === -1 ? text.length : newline;
    total++;
    if (total >= span.start && total <= span.end) {
      visit(text.slice(at, stop > at && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop), total);
    }
    at = stop + 1;
  }
  return total;
}

/**
 * Number lines as `read_file` shows them: the line number right-aligned to
 * the width of the last number, a tab, the line.
 *
 * @param lines The lines to show.
 * @param first The number of the first one (1-based).
 * @returns One string per line.
 *
 * @example
 * ```ts
 * import { numberLines } from "./lines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(numberLines(["a", "b"], 9), [" 9\ta", "10\tb"]);
 * ```
 */
export function numberLines(lines: readonly string[], first: number): string[] {
  const width = String(first + lines.length - 1).length;
  return lines.map((l, i) => `${String(first + i).padStart(width)}\t${l}`);
}
