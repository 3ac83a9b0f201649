/** A text file as the ladder sees it: lines with their endings, lazily keyed (private). @module */
import { dominantEol, splitLinesKeepEnds } from "../fs/text.ts";
import { appendLineStarts, appendOffset, countNewlines, type Offsets, scanState } from "./_newlines.ts";

/** Characters scanned for line starts at a time (a look at an early line does not scan the whole file). */
const STEP = 16384;

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

/** Any character from U+00A0 on: every character of {@linkcode UNICODE_FOLD} is one. */
const FROM_NBSP_RE = /[\u00a0-\uffff]/g;

/**
 * Whether `text` holds a character of {@linkcode UNICODE_FOLD}. A one-byte string with none of them is
 * ruled out by a scan for characters from U+00A0 on (several times faster than the fold pattern's); the first
 * such characters are checked one by one, and after that the fold pattern scans the rest.
 */
export function hasFoldable(text: string): boolean {
  FROM_NBSP_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  for (let seen = 0; (m = FROM_NBSP_RE.exec(text)) !== null; seen++) {
    if (Object.hasOwn(UNICODE_FOLD, m[0])) return true;
    if (seen === 64) {
      UNICODE_FOLD_RE.lastIndex = FROM_NBSP_RE.lastIndex;
      const found = UNICODE_FOLD_RE.test(text);
      UNICODE_FOLD_RE.lastIndex = 0;
      return found;
    }
  }
  return false;
}

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
  /** Line starts found so far (ascending), then the text's length once {@linkcode TextDoc.#complete}. */
  readonly #starts: Offsets = { data: new Int32Array(1), length: 1 };
  /** Whether {@linkcode TextDoc.#starts} holds every line start (the scan reached the end). */
  #complete = false;
  /** Where the scan for the next line start resumes. */
  #scan = 0;
  /** Whether the fast newline scanner is used on this text (see {@linkcode scanState}); made on first scan. */
  #scanState: { fast: boolean } | null = null;
  /** An offset past {@linkcode TextDoc.#scan} whose line was counted: how many line feeds lie before it. */
  #counted: { at: number; line: number } | null = null;
  #keys = new Map<KeyKind, string[]>();
  /** Lines whose trim key is a given key, for keys already looked up (see {@linkcode TextDoc.positionsOf}). */
  readonly #positions = new Map<string, number[]>();
  #foldable: boolean | null = null;

  /** @param text The file's text. */
  constructor(text: string) {
    this.text = text;
  }

  /** The ending new lines take (the file's dominant one). */
  get eol(): "\n" | "\r\n" {
    // A text without a carriage return is LF-only: no need to count its line endings.
    return this.#eol ??= this.text.indexOf("\r") === -1 ? "\n" : dominantEol(this.text);
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
   * Where each line starts (UTF-16 offsets), then the text's length, found as far as line `i` + 1 and past
   * `offset` (or to the end): what lets the ladder read the few lines it looks at without splitting the whole
   * file, and without scanning far past the last line it looks at.
   */
  #startsTo(i: number, offset = -1): Offsets {
    const out = this.#starts;
    if (this.#complete) return out;
    const text = this.text;
    let at = this.#scan;
    while (out.length <= i + 1 || out.data[out.length - 1]! <= offset) {
      if (at >= text.length) {
        // A final newline ends the last line; otherwise the unterminated rest is a line of its own.
        if (out.data[out.length - 1] !== text.length) appendOffset(out, text.length);
        this.#complete = true;
        break;
      }
      const to = Math.min(text.length, at + STEP);
      appendLineStarts(text, { from: at, to, out }, this.#scanner);
      at = to;
    }
    this.#scan = at;
    return out;
  }

  /** Entry `i` of the line starts found so far (undefined past them, as an array would say). */
  #start(o: Offsets, i: number): number | undefined {
    return i >= 0 && i < o.length ? o.data[i] : undefined;
  }

  /** The newline scan state of this text. */
  get #scanner(): { fast: boolean } {
    return this.#scanState ??= scanState(this.text);
  }

  /** Every line start, then the text's length. */
  get #offsets(): Offsets {
    return this.#startsTo(Infinity);
  }

  /** How many lines (as {@linkcode TextDoc.lines} counts them). */
  get lineCount(): number {
    return this.#lines ? this.#lines.length : this.#offsets.length - 1;
  }

  /** Whether line `i` (0-based) exists, i.e. `i < lineCount`, found without scanning past it. */
  hasLine(i: number): boolean {
    if (i < 0) return false;
    if (this.#lines) return i < this.#lines.length;
    return i + 1 < this.#startsTo(i).length;
  }

  /** UTF-16 offset where line `i` (0-based) starts; `lineCount` gives the text's length. */
  offsetOf(i: number): number {
    return this.#start(this.#startsTo(i), i)!;
  }

  /** Line `i` (0-based) with its ending, as in {@linkcode TextDoc.lines}. */
  line(i: number): string {
    if (this.#lines) return this.#lines[i]!;
    const o = this.#startsTo(i);
    return this.text.slice(this.#start(o, i), this.#start(o, i + 1));
  }

  /** Line `i` (0-based) without its ending, as in {@linkcode TextDoc.bodies}. */
  body(i: number): string {
    if (this.#bodies) return this.#bodies[i]!;
    return bodyOf(this.line(i));
  }

  /** Lines `from` to `to` (exclusive, clamped like `Array.slice`) without their endings. */
  bodySlice(from: number, to: number): string[] {
    if (this.#bodies) return this.#bodies.slice(from, to);
    const out: string[] = [];
    for (let i = Math.max(0, from); i < to && this.hasLine(i); i++) out.push(this.body(i));
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
        k[line] = foldUnicode(this.body(line)).trim();
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
        k[line] = KEYERS.squash(this.body(line));
      }
    } else if (kind === "trim" && !this.#bodies) {
      // Straight from the text: a line's trim key is its text trimmed (the ending is whitespace too).
      const { data, length } = this.#offsets;
      const text = this.text;
      k = new Array(length - 1);
      for (let i = 0; i + 1 < length; i++) k[i] = text.slice(data[i]!, data[i + 1]!).trim();
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
    // Keys looked up before (by the fuzzy tier, then the did-you-mean) are not looked up again.
    const found = new Map<string, number[]>();
    let longest = 0;
    for (const w of wanted) {
      const known = this.#positions.get(w);
      if (known) {
        out.set(w, known);
        continue;
      }
      found.set(w, []);
      longest = Math.max(longest, w.length);
    }
    if (found.size > 0 && !this.#keys.has("trim") && !found.has("")) {
      // Without the keys, each wanted key is searched for in the text (no line is keyed but those that hold it).
      for (const [w, list] of found) {
        this.forEachLineKeyed(w, (i) => {
          list.push(i);
          return true;
        });
        this.#positions.set(w, list);
        out.set(w, list);
      }
    } else if (found.size > 0) {
      // Which lengths are wanted, as a table (a Set lookup per line costs more than the rest of the pass).
      const lengths = new Uint8Array(longest + 1);
      for (const w of found.keys()) lengths[w.length] = 1;
      const keys = this.keys("trim");
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        if (k.length > longest || lengths[k.length] === 0) continue;
        const list = found.get(k);
        if (list) list.push(i);
      }
      for (const [w, list] of found) {
        this.#positions.set(w, list);
        out.set(w, list);
      }
    }
    return out;
  }

  /**
   * Visit the lines (0-based, ascending) whose trim key is `key` (not empty): from the trim keys when they are
   * built, else by searching the text for `key`, so that no line is keyed but the ones that hold it.
   *
   * @param key A trim key (not empty).
   * @param visit Called with each line; returns false to stop.
   */
  forEachLineKeyed(key: string, visit: (line: number) => boolean): void {
    const keys = this.#keys.get("trim");
    if (keys) {
      for (let i = 0; i < keys.length; i++) if (keys[i] === key && !visit(i)) return;
      return;
    }
    const text = this.text;
    // A line whose trim key is `key` holds it at its first non-blank character: the first hit in each line decides.
    for (let o = text.indexOf(key); o !== -1;) {
      const i = this.lineAt(o);
      if (this.line(i).trim() === key && !visit(i)) return;
      o = this.hasLine(i + 1) ? text.indexOf(key, this.offsetOf(i + 1)) : -1;
    }
  }

  /**
   * Whether the text holds a character of {@linkcode UNICODE_FOLD}: a scan for any character from U+00A0 on
   * first (all of them are), which most source files do not have at all.
   */
  get foldable(): boolean {
    return this.#foldable ??= hasFoldable(this.text);
  }

  /** 0-based line index of a UTF-16 offset (an offset past a final newline is the line after it). */
  lineAt(offset: number): number {
    const text = this.text;
    if (!this.#complete && offset >= this.#scan && this.#scanner.fast) {
      // Past the starts found so far: the line feeds before `offset` are counted, not listed (a hit's line
      // number is often all that is asked of a large file), from the last offset counted to when it is before.
      let from = this.#scan;
      let line = this.#starts.length - 1;
      const mark = this.#counted;
      if (mark !== null && mark.at > from && mark.at <= offset) ({ at: from, line } = mark);
      const at = Math.min(offset, text.length);
      line += countNewlines(text, { from, to: at }, this.#scanner);
      this.#counted = { at, line };
      return line;
    }
    // The starts up to the first one past `offset` (all of them when it is past the last line).
    const o = this.#startsTo(0, offset);
    const data = o.data;
    // Line starts are every entry but an unterminated text's closing length (found only at the end).
    let hi = !this.#complete || text === "" || text.charCodeAt(text.length - 1) === 10
      ? o.length - 1
      : o.length - 2;
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (data[mid]! <= offset) lo = mid;
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
