/** A text file as the ladder sees it: lines with their endings, lazily keyed (private). @module */
import { dominantEol, splitLinesKeepEnds } from "../fs/text.ts";

/** Unicode punctuation and spaces models substitute, and their ASCII forms. */
export const UNICODE_FOLD: Record<string, string> = {
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2018": "'",
  "\u2019": "'",
  "\u201a": "'",
  "\u201b": "'",
  "\u2032": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u201f": '"',
  "\u2033": '"',
  "\u00ab": '"',
  "\u00bb": '"',
  "\u2026": "...",
  "\u00a0": " ",
  "\u2002": " ",
  "\u2003": " ",
  "\u2007": " ",
  "\u2008": " ",
  "\u2009": " ",
  "\u200a": " ",
  "\u202f": " ",
  "\u205f": " ",
  "\u3000": " ",
  "\u200b": "",
  "\u200c": "",
  "\u200d": "",
  "\u2060": "",
  "\ufeff": "",
};

/** Matches any character of {@linkcode UNICODE_FOLD}. */
export const UNICODE_FOLD_RE = new RegExp(`[${Object.keys(UNICODE_FOLD).join("")}]`, "g");

/** Fold Unicode punctuation and spaces to ASCII. */
export function foldUnicode(s: string): string {
  return s.replace(UNICODE_FOLD_RE, (c) => UNICODE_FOLD[c] ?? c);
}

/** Strip the line ending of one line. */
export function bodyOf(line: string): string {
  if (line.endsWith("\r\n")) return line.slice(0, -2);
  if (line.endsWith("\n")) return line.slice(0, -1);
  return line;
}

/** The ending of one line ("" on an unterminated last line). */
export function endingOf(line: string): string {
  if (line.endsWith("\r\n")) return "\r\n";
  if (line.endsWith("\n")) return "\n";
  return "";
}

/** Whitespace between two tokens of a line that is not exactly one space. */
const INNER_SPACE_RE = /\S(?:[^\S\n]{2,}|[^\S \n])\S/g;

/** Key functions of the ladder's line-level tiers. */
export type KeyKind = "trim_end" | "trim" | "unicode" | "squash";

const KEYERS: Record<KeyKind, (s: string) => string> = {
  trim_end: (s) => s.trimEnd(),
  trim: (s) => s.trim(),
  unicode: (s) => foldUnicode(s).trim(),
  squash: (s) => s.replace(/\s+/g, " ").trim(),
};

/** Key one line for a tier. */
export function keyOf(kind: KeyKind, s: string): string {
  return KEYERS[kind](s);
}

/** A text with lazily computed lines, bodies and per-tier keys. */
export class TextDoc {
  /** The text (BOM stripped). */
  readonly text: string;
  #eol: "\n" | "\r\n" | null = null;
  #lines: string[] | null = null;
  #bodies: string[] | null = null;
  #starts: number[] | null = null;
  #keys = new Map<KeyKind, string[]>();

  /** @param text The file's text. */
  constructor(text: string) {
    this.text = text;
  }

  /** The ending new lines take (the file's dominant one). */
  get eol(): "\n" | "\r\n" {
    return this.#eol ??= dominantEol(this.text);
  }

  /** Lines with endings. */
  get lines(): string[] {
    return this.#lines ??= splitLinesKeepEnds(this.text);
  }

  /** Lines without endings. */
  get bodies(): string[] {
    return this.#bodies ??= this.lines.map(bodyOf);
  }

  /**
   * Where each line starts (UTF-16 offsets), then the text's length: what lets the ladder read the few lines it
   * looks at without splitting the whole file.
   */
  get #offsets(): number[] {
    if (this.#starts) return this.#starts;
    const text = this.text;
    const out = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) out.push(i + 1);
    // A final newline ends the last line; otherwise the unterminated rest is a line of its own.
    if (out[out.length - 1] !== text.length) out.push(text.length);
    return this.#starts = out;
  }

  /** How many lines (as {@linkcode TextDoc.lines} counts them). */
  get lineCount(): number {
    return this.#lines ? this.#lines.length : this.#offsets.length - 1;
  }

  /** UTF-16 offset where line `i` (0-based) starts; `lineCount` gives the text's length. */
  offsetOf(i: number): number {
    return this.#offsets[i]!;
  }

  /** Line `i` (0-based) with its ending, as in {@linkcode TextDoc.lines}. */
  line(i: number): string {
    if (this.#lines) return this.#lines[i]!;
    const o = this.#offsets;
    return this.text.slice(o[i]!, o[i + 1]!);
  }

  /** Line `i` (0-based) without its ending, as in {@linkcode TextDoc.bodies}. */
  body(i: number): string {
    if (this.#bodies) return this.#bodies[i]!;
    return bodyOf(this.line(i));
  }

  /** Lines `from` to `to` (exclusive, clamped like `Array.slice`) without their endings. */
  bodySlice(from: number, to: number): string[] {
    if (this.#bodies) return this.#bodies.slice(from, to);
    const n = this.lineCount;
    const out: string[] = [];
    for (let i = Math.max(0, from); i < Math.min(n, to); i++) out.push(this.body(i));
    return out;
  }

  /** Per-tier keys of every line. */
  keys(kind: KeyKind): string[] {
    let k = this.#keys.get(kind);
    if (k) return k;
    if (kind === "unicode") {
      // Fold only the lines that hold a foldable character (found by one scan of the text).
      const trim = this.keys("trim");
      k = trim;
      UNICODE_FOLD_RE.lastIndex = 0;
      for (const m of this.text.matchAll(UNICODE_FOLD_RE)) {
        if (k === trim) k = [...trim];
        const line = this.lineAt(m.index);
        k[line] = foldUnicode(this.bodies[line]!).trim();
      }
    } else if (kind === "squash") {
      // Only lines with a whitespace run (or a tab, NBSP, …) between two tokens differ from their trim key.
      const trim = this.keys("trim");
      k = trim;
      let last = -1;
      for (const m of this.text.matchAll(INNER_SPACE_RE)) {
        const line = this.lineAt(m.index);
        if (line === last) continue;
        last = line;
        if (k === trim) k = [...trim];
        k[line] = KEYERS.squash(this.bodies[line]!);
      }
    } else if (kind === "trim" && !this.#bodies) {
      // Straight from the text: a line's trim key is its text trimmed (the ending is whitespace too).
      const o = this.#offsets;
      const text = this.text;
      k = new Array(o.length - 1);
      for (let i = 0; i + 1 < o.length; i++) k[i] = text.slice(o[i]!, o[i + 1]!).trim();
    } else k = this.bodies.map(KEYERS[kind]);
    this.#keys.set(kind, k);
    return k;
  }

  /**
   * 0-based lines whose trim key is one of `wanted` (one pass, a length check
   * before any hashing; no index of the whole file is built).
   */
  positionsOf(wanted: Iterable<string>): Map<string, number[]> {
    const out = new Map<string, number[]>();
    let longest = 0;
    for (const w of wanted) {
      out.set(w, []);
      longest = Math.max(longest, w.length);
    }
    // Which lengths are wanted, as a table (a Set lookup per line costs more than the rest of the pass).
    const lengths = new Uint8Array(longest + 1);
    for (const w of out.keys()) lengths[w.length] = 1;
    const keys = this.keys("trim");
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k.length > longest || lengths[k.length] === 0) continue;
      const list = out.get(k);
      if (list) list.push(i);
    }
    return out;
  }

  /** 0-based line index of a UTF-16 offset (an offset past a final newline is the line after it). */
  lineAt(offset: number): number {
    const o = this.#offsets;
    // Line starts are every entry but an unterminated text's closing length.
    const text = this.text;
    let hi = text === "" || text.charCodeAt(text.length - 1) === 10 ? o.length - 1 : o.length - 2;
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (o[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Whether the keys of `kind` are computed already (a tier may then use them instead of searching the text). */
  hasKeys(kind: KeyKind): boolean {
    return this.#keys.has(kind);
  }
}

/** Leading whitespace of a line. */
export function leadOf(s: string): string {
  let i = 0;
  while (i < s.length && (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9)) i++;
  return s.slice(0, i);
}

/** Display width of leading whitespace with tab stops every `tab` columns. */
export function widthOf(lead: string, tab: number): number {
  let w = 0;
  for (let i = 0; i < lead.length; i++) {
    w = lead.charCodeAt(i) === 9 ? (Math.floor(w / tab) + 1) * tab : w + 1;
  }
  return w;
}
