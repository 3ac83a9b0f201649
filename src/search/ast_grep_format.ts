/**
 * ast-grep's JSON match shape (`ast-grep run --json`), for harnesses already written for it: a structural
 * search with `output_format: "ast-grep"` (and `graver sg --format ast-grep`) answers each match as ast-grep
 * prints it — `text`, `range` (UTF-8 `byteOffset`s, 0-based `line`s, `column`s counted in characters),
 * `file`, `lines` (the whole lines the match spans), `charCount` (characters before it on its first line and
 * after it on its last), `replacement` and `replacementOffsets` when a rewrite is given, `language` (ast-grep's
 * name of it), and `metaVariables` (`single`, `multi` — each node a `$$$X` bound, separators included — and
 * `transformed`, always empty: graver has no transforms), left out when the pattern binds none.
 *
 * @module
 */
import { profileOf } from "../languages/profiles.ts";
import { replacedSpan } from "./replaced_span.ts";
import type {
  AstGrepMatch,
  AstGrepNode,
  AstGrepPosition,
  AstGrepRange,
  StructuralBinding,
  StructuralHit,
} from "./types.ts";

export type { AstGrepMatch, AstGrepNode, AstGrepPosition, AstGrepRange } from "./types.ts";

/**
 * ast-grep's name of a language, from graver's display name: ast-grep writes each as a Rust type name, so an
 * acronym is capitalised as a word (`TSX` → `Tsx`, `JSON` → `Json`) and `+`/`#` are spelt out (`C++` → `Cpp`,
 * `C#` → `CSharp`).
 *
 * @param language graver's language id.
 * @returns ast-grep's name.
 */
export function astGrepLanguageName(language: string): string {
  const shown = profileOf(language).displayName.replace(/\+\+$/, "pp").replace(/#$/, "Sharp");
  return /^[A-Z]{2,}$/.test(shown) ? shown[0] + shown.slice(1).toLowerCase() : shown;
}

/** Whether a UTF-16 code unit is the second half of a surrogate pair (not a character of its own). */
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** UTF-8 length of one UTF-16 code unit (a pair's two units count 2 + 2). */
function utf8Units(unit: number): number {
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  return unit >= 0xd800 && unit <= 0xdfff ? 2 : 3;
}

/** Offsets of one text in ast-grep's terms: lines found once, bytes and characters counted within a line. */
export class TextPlaces {
  readonly #text: string;
  /** UTF-16 offset of each line's start. */
  readonly #starts: number[] = [0];
  /** UTF-8 offset of each line's start. */
  readonly #bytes: number[] = [0];

  /**
   * Index the lines of a text.
   *
   * @param text The file's text (a BOM dropped).
   */
  constructor(text: string) {
    this.#text = text;
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      bytes += utf8Units(unit);
      if (unit === 10) {
        this.#starts.push(i + 1);
        this.#bytes.push(bytes);
      }
    }
  }

  /** The 0-based line holding a UTF-16 offset. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** A UTF-16 offset as line, column (characters) and UTF-8 byte offset. */
  at(offset: number): AstGrepPosition & { byte: number } {
    const line = this.lineOf(offset);
    let column = 0;
    let byte = this.#bytes[line]!;
    for (let i = this.#starts[line]!; i < offset; i++) {
      const unit = this.#text.charCodeAt(i);
      byte += utf8Units(unit);
      if (!isLowSurrogate(unit)) column++;
    }
    return { line, column, byte };
  }

  /** A range of UTF-16 offsets in ast-grep's terms. */
  range(start: number, end: number): AstGrepRange {
    const s = this.at(start);
    const e = this.at(end);
    return {
      byteOffset: { start: s.byte, end: e.byte },
      start: { line: s.line, column: s.column },
      end: { line: e.line, column: e.column },
    };
  }

  /** The UTF-16 offset where a line's text ends (before its line end). */
  lineEnd(line: number): number {
    const next = this.#starts[line + 1];
    if (next === undefined) return this.#text.length;
    return this.#text[next - 2] === "\r" ? next - 2 : next - 1;
  }

  /** The UTF-16 offset where a line starts. */
  lineStart(line: number): number {
    return this.#starts[line]!;
  }
}

/** Characters (code points) of a slice of text. */
function characters(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (!isLowSurrogate(text.charCodeAt(i))) n++;
  return n;
}

/** A bound node in ast-grep's terms. */
function node(text: string, places: TextPlaces, span: { start: number; end: number }): AstGrepNode {
  return { text: text.slice(span.start, span.end), range: places.range(span.start, span.end) };
}

/** The metavariables of a hit as ast-grep groups them, or undefined when it bound none. */
function metaVariables(
  text: string,
  places: TextPlaces,
  bindings: Record<string, StructuralBinding>,
): AstGrepMatch["metaVariables"] {
  const entries = Object.entries(bindings);
  if (entries.length === 0) return undefined;
  const single: Record<string, AstGrepNode> = {};
  const multi: Record<string, AstGrepNode[]> = {};
  for (const [name, b] of entries) {
    if (b.parts) multi[name] = b.parts.map((p) => node(text, places, p));
    else if (b.start >= 0) single[name] = node(text, places, b);
  }
  return { single, multi, transformed: {} };
}

/**
 * The hits of one file as ast-grep's JSON matches.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { astGrepMatches } from "./ast_grep_format.ts";
 *
 * const text = 'const s = "é"; log(s, 1);\n';
 * const start = text.indexOf("log");
 * const [m] = astGrepMatches(
 *   { path: "a.js", language: "javascript", text },
 *   [{ start, end: start + 9, metavariables: { A: { start: start + 4, end: start + 5, text: "s" } } }],
 * );
 * assert.deepEqual(m!.range, { byteOffset: { start: 16, end: 25 }, start: { line: 0, column: 15 }, end: { line: 0, column: 24 } });
 * assert.deepEqual([m!.lines, m!.charCount, m!.language], ['const s = "é"; log(s, 1);', { leading: 15, trailing: 1 }, "JavaScript"]);
 * assert.equal(m!.metaVariables!.single["A"]!.range.byteOffset.start, 20);
 * ```
 *
 * @param file The file's path, language and text (a BOM dropped).
 * @param hits Its hits, in document order.
 * @returns One ast-grep match per hit.
 */
export function astGrepMatches(
  file: { path: string; language: string; text: string },
  hits: readonly StructuralHit[],
): AstGrepMatch[] {
  const { text } = file;
  const places = new TextPlaces(text);
  const language = astGrepLanguageName(file.language);
  // Characters are code units where the text has no surrogate pair: counted once, not along each match's line
  // (the matches of a long line each counted it again, the square of its length).
  const count = /[\uD800-\uDFFF]/.test(text) ? characters : (part: string) => part.length;
  return hits.map((hit) => {
    const range = places.range(hit.start, hit.end);
    const first = places.lineStart(range.start.line);
    const last = places.lineEnd(range.end.line);
    const out: AstGrepMatch = {
      text: text.slice(hit.start, hit.end),
      range,
      file: file.path,
      lines: text.slice(first, Math.max(last, hit.end)),
      charCount: {
        leading: count(text.slice(first, hit.start)),
        trailing: count(text.slice(hit.end, Math.max(last, hit.end))),
      },
    } as AstGrepMatch;
    // ast-grep prints the replacement before the language: the same order here, for byte-equal output.
    if (hit.replacement !== undefined) {
      out.replacement = hit.replacement;
      const span = replacedSpan(hit);
      out.replacementOffsets = span.start === hit.start && span.end === hit.end
        ? { ...range.byteOffset }
        : { ...places.range(span.start, span.end).byteOffset };
    }
    out.language = language;
    const vars = metaVariables(text, places, hit.metavariables);
    if (vars) out.metaVariables = vars;
    return out;
  });
}
