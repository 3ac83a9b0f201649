/**
 * TextIndex: positions of one decoded text — UTF-16 index to 1-based line
 * and to UTF-8 byte offset — so symbol ranges carry both units without
 * rescanning the text per lookup.
 *
 * @module
 */
import type { SymbolRange } from "./types.ts";

/**
 * Offsets of one text: UTF-16 index -> 1-based line and -> UTF-8 byte offset.
 * ASCII texts map bytes 1:1; others keep the positions of their non-ASCII
 * code units with the running count of extra bytes (binary search per lookup).
 */
export class TextIndex {
  readonly #text: string;
  /** Whether the text is all ASCII (bytes = UTF-16 units); found on the first byte offset asked for. */
  #ascii: boolean | null = null;
  #wide: Uint32Array | null = null;
  #extra: Int32Array | null = null;
  #lineStarts: Uint32Array | null = null;

  /**
   * Index a text (line starts and byte tables are built on first use).
   *
   * @param text The decoded text.
   */
  constructor(text: string) {
    this.#text = text;
  }

  /**
   * The byte offset of a UTF-16 index.
   *
   * @param index UTF-16 offset (0..length).
   * @returns UTF-8 byte offset.
   */
  byte(index: number): number {
    // deno-lint-ignore no-control-regex
    this.#ascii ??= !/[^\x00-\x7f]/.test(this.#text);
    if (this.#ascii) return index;
    if (!this.#wide) {
      const text = this.#text;
      const wide: number[] = [];
      const extra: number[] = [];
      let sum = 0;
      // deno-lint-ignore no-control-regex
      const re = /[^\x00-\x7f]/g;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        sum += unitBytes(text, m.index) - 1;
        wide.push(m.index);
        extra.push(sum);
      }
      this.#wide = Uint32Array.from(wide);
      this.#extra = Int32Array.from(extra);
    }
    // extra bytes of the non-ASCII units before index
    const wide = this.#wide;
    let lo = 0;
    let hi = wide.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (wide[mid]! < index) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? index : index + this.#extra![lo - 1]!;
  }

  /**
   * The 1-based line of a UTF-16 index.
   *
   * @param index UTF-16 offset.
   * @returns Line number.
   */
  line(index: number): number {
    const starts = this.#starts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /**
   * The 1-based line and column (UTF-16 code units) of a UTF-16 index.
   *
   * @param index UTF-16 offset.
   * @returns Line and column.
   */
  position(index: number): { line: number; column: number } {
    const line = this.line(index);
    return { line, column: index - this.#starts()[line - 1]! + 1 };
  }

  /**
   * The UTF-16 index of a 1-based line and column, or null when the line does
   * not exist or the column lies past its end.
   *
   * @param line 1-based line.
   * @param column 1-based column (UTF-16 code units).
   * @returns The offset, or null.
   */
  offset(line: number, column: number): number | null {
    const starts = this.#starts();
    const start = starts[line - 1];
    if (start === undefined || column < 1) return null;
    const end = line < starts.length ? starts[line]! : this.#text.length;
    const at = start + column - 1;
    return at <= end ? at : null;
  }

  #starts(): Uint32Array {
    if (!this.#lineStarts) {
      const text = this.#text;
      const list = [0];
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) list.push(i + 1);
      this.#lineStarts = Uint32Array.from(list);
    }
    return this.#lineStarts;
  }

  /**
   * A {@linkcode SymbolRange} from UTF-16 offsets; a span ending right after
   * a newline ends on the line before.
   *
   * @param start UTF-16 start offset.
   * @param end UTF-16 end offset (exclusive).
   * @returns The range.
   */
  range(start: number, end: number): SymbolRange {
    const last = end > start && this.#text.charCodeAt(end - 1) === 10 ? end - 1 : end;
    return {
      start_line: this.line(start),
      end_line: this.line(last),
      start_utf16: start,
      end_utf16: end,
      start_byte: this.byte(start),
      end_byte: this.byte(end),
    };
  }
}

function unitBytes(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff) return 4; // high surrogate carries the 4-byte sequence
  if (c >= 0xdc00 && c <= 0xdfff) return 0; // low surrogate: counted with its high half
  return 3;
}
