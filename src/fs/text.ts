/**
 * Text view of file bytes: strict UTF-8, BOM kept aside, binary refused.
 * Bytes are the truth; this is the only place they become strings.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";

/** A decoded text file. */
export interface TextFile {
  /** Content without the BOM. */
  text: string;
  /** Whether the bytes started with a UTF-8 BOM. */
  bom: boolean;
}

const BOM = [0xef, 0xbb, 0xbf];
const DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/**
 * The replacing decoder: what {@linkcode decodeText} tries first, as the fatal one holds a second copy of the
 * text while it decodes (Deno: 50 MB more at the peak of a 50 MB file's decode).
 */
const LENIENT = new TextDecoder("utf-8", { ignoreBOM: true });
const ENCODER = new TextEncoder();

/** True when the bytes hold a NUL in their first 8 KiB (git's binary test). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).indexOf(0) !== -1; // the engine's search, not a loop: every file read passes here
}

/**
 * True when the bytes hold a NUL anywhere: ripgrep's test of a file a search walks into (a NUL 150,000 bytes
 * in leaves the file out of `rg -c PATTERN .`, where the first 8 KiB would have let it in). The engine's
 * search: a whole file of hono's costs ~1 µs.
 *
 * @param bytes A file's bytes.
 * @returns Whether one is a NUL.
 */
export function holdsNul(bytes: Uint8Array): boolean {
  return bytes.indexOf(0) !== -1;
}

/**
 * Decode bytes as UTF-8 text, refusing binary and invalid UTF-8.
 *
 * @param bytes File content.
 * @param path The tool path, for the error message.
 * @returns The text and whether a BOM was present.
 *
 * @example Keep the BOM aside
 * ```ts
 * import { decodeText, encodeText } from "@graver/core/fs";
 * import assert from "node:assert/strict";
 *
 * const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
 * const file = decodeText(bytes, "a.txt");
 * assert.deepEqual(file, { text: "hi", bom: true });
 * assert.deepEqual(encodeText(file), bytes);
 * ```
 */
export function decodeText(bytes: Uint8Array, path: string): TextFile {
  if (looksBinary(bytes)) {
    throw new RecoverableError("binary_file", `Cannot edit "${path}" as text: it is a binary file`, {
      hint: "Binary files can only be replaced whole with write_file, moved or deleted",
      details: { path, size: bytes.length },
    });
  }
  const bom = bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
  const body = bom ? bytes.subarray(3) : bytes;
  // Without a U+FFFD in the result the bytes held no invalid sequence (each becomes one); with one (maybe
  // the file's own), the strict decoder tells.
  const text = LENIENT.decode(body);
  if (!text.includes("\uFFFD")) return { text, bom };
  try {
    return { text: DECODER.decode(body), bom };
  } catch (cause) {
    throw new RecoverableError("encoding", `Cannot edit "${path}" as text: it is not valid UTF-8`, {
      hint: "graver edits UTF-8 text only; convert the file to UTF-8 or replace it whole with write_file",
      details: { path, offset_byte: firstInvalidUtf8(bytes) },
      cause,
    });
  }
}

/**
 * Encode text back to bytes, restoring the BOM when the file had one.
 *
 * @param file Text and BOM flag.
 * @returns UTF-8 bytes.
 */
export function encodeText(file: TextFile): Uint8Array {
  const body = ENCODER.encode(file.text);
  if (!file.bom) return body;
  const out = new Uint8Array(body.length + 3);
  out.set(BOM, 0);
  out.set(body, 3);
  return out;
}

/** One replacement in a text: the UTF-16 span `[from, to)` and the text that takes its place. */
export interface TextSplice {
  /** Start (UTF-16 offset into the text, BOM excluded). */
  from: number;
  /** End (exclusive). */
  to: number;
  /** The new text. */
  insert: string;
}

/** UTF-8 length of `text` from `from` to `to` (UTF-16 offsets; a surrogate pair is 4 bytes). */
function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The bytes of a text file after replacing spans of its text, copied from the file's own bytes around the
 * spans: the new text is never built as one string nor the unchanged text encoded again (on a large file,
 * two copies of it fewer at once). BOM and line endings outside the spans stay as they were.
 *
 * @param file The file's bytes and their decoding ({@linkcode decodeText} of those bytes).
 * @param splices Ascending, non-overlapping spans of `file.text`.
 * @returns The new bytes.
 *
 * @example
 * ```ts
 * import { decodeText, spliceBytes } from "./text.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode("\ufeffé = 1;\r\nb = 2;\r\n");
 * const file = { ...decodeText(bytes, "a.ts"), bytes };
 * const out = spliceBytes(file, [{ from: 4, to: 5, insert: "10" }, { from: 12, to: 13, insert: "3" }]);
 * assert.equal(new TextDecoder("utf-8", { ignoreBOM: true }).decode(out), "\ufeffé = 10;\r\nb = 3;\r\n");
 * ```
 */
export function spliceBytes(file: TextFile & { bytes: Uint8Array }, splices: TextSplice[]): Uint8Array {
  const { bytes, text } = file;
  const head = file.bom ? 3 : 0;
  // Every character one byte (ASCII): text offsets are byte offsets past the BOM.
  const ascii = bytes.length - head === text.length;
  const parts: { from: number; to: number; insert: Uint8Array }[] = [];
  let char = 0;
  let byte = head;
  let size = bytes.length;
  for (const s of splices) {
    const from = byte + (ascii ? s.from - char : utf8Length(text, char, s.from));
    const to = from + (ascii ? s.to - s.from : utf8Length(text, s.from, s.to));
    const insert = ENCODER.encode(s.insert);
    parts.push({ from, to, insert });
    size += insert.length - (to - from);
    char = s.to;
    byte = to;
  }
  const out = new Uint8Array(size);
  let read = 0;
  let write = 0;
  for (const p of parts) {
    out.set(bytes.subarray(read, p.from), write);
    write += p.from - read;
    out.set(p.insert, write);
    write += p.insert.length;
    read = p.to;
  }
  out.set(bytes.subarray(read), write);
  return out;
}

/** Byte offset of the first invalid UTF-8 sequence (for error details). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let lo = 0;
  let hi = bytes.length;
  // Binary search on the longest valid prefix; cheap enough for error paths.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

/** The line ending that occurs most in `text` ("\n" when there is none). */
export function dominantEol(text: string): "\n" | "\r\n" {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? "\r\n" : "\n";
}

/** Split text into lines, each keeping its own ending ("" ending on the last unterminated line). */
export function splitLinesKeepEnds(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * Whether replacing `length` characters at `at` would split a CRLF pair (the
 * span starts at the "\n" of one, or ends at its "\r"), leaving a lone "\r".
 *
 * @param text The text.
 * @param at Start offset (UTF-16).
 * @param length Length of the span.
 * @returns True when the span cuts a "\r\n" in two.
 *
 * @example
 * ```ts
 * import { splitsCrlf } from "./text.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(splitsCrlf("a\r\nb", 2, 2), true); // "\nb"
 * assert.equal(splitsCrlf("a\r\nb", 1, 3), false); // "\r\nb"
 * ```
 */
export function splitsCrlf(text: string, at: number, length: number): boolean {
  return (text[at] === "\n" && text[at - 1] === "\r") ||
    (length > 0 && text[at + length - 1] === "\r" && text[at + length] === "\n");
}

/**
 * New text for a span of a text, with its bare "\n" line breaks made "\r\n"
 * when the line the span ends on ends with "\r\n" (or, on a last line
 * without an ending, when the text uses CRLF), so an edit never mixes line
 * endings into a CRLF region.
 *
 * @param text The text being edited.
 * @param end Offset where the replaced span ends.
 * @param newText The replacement.
 * @returns The replacement with the region's line endings.
 */
export function withRegionEol(text: string, end: number, newText: string): string {
  if (!/(?<!\r)\n/.test(newText) || !text.includes("\r\n")) return newText;
  return lineEndingAt(text, end, "\r\n") === "\r\n" ? newText.replace(/\r?\n/g, "\r\n") : newText;
}

/**
 * The line ending of the line that holds `offset` (a file mixing CRLF and LF keeps each region's own), or
 * `fallback` on a last line without one.
 *
 * @param text The file text.
 * @param offset Any offset on the line.
 * @param fallback The file's dominant line ending.
 * @returns "\r\n" or "\n".
 */
export function lineEndingAt(text: string, offset: number, fallback: "\n" | "\r\n"): "\n" | "\r\n" {
  const nl = text.indexOf("\n", offset);
  if (nl === -1) return fallback;
  return nl > 0 && text[nl - 1] === "\r" ? "\r\n" : "\n";
}

/**
 * The line-ending style of a text: "crlf" or "lf" when every line break is
 * that one (a text without any is "lf"), "mixed" when it has both.
 *
 * @param text The text (BOM stripped).
 * @returns "lf", "crlf" or "mixed".
 *
 * @example
 * ```ts
 * import { eolStyle } from "@graver/core/fs";
 * import assert from "node:assert/strict";
 *
 * assert.equal(eolStyle("a\r\nb\r\n"), "crlf");
 * assert.equal(eolStyle("a\r\nb\n"), "mixed");
 * assert.equal(eolStyle("a"), "lf");
 * ```
 */
export function eolStyle(text: string): "lf" | "crlf" | "mixed" {
  let crlf = false;
  let lf = false;
  for (let i = text.indexOf("\n"); i !== -1 && !(crlf && lf); i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf = true;
    else lf = true;
  }
  return styleOf(crlf, lf);
}

/** The style of a text's line endings from whether it has CRLF and LF ones. */
function styleOf(crlf: boolean, lf: boolean): "lf" | "crlf" | "mixed" {
  return crlf && lf ? "mixed" : crlf ? "crlf" : "lf";
}

/** What {@linkcode textShape} tells of a file's bytes without decoding them whole. */
export interface TextShape {
  /** Whether it starts with a UTF-8 BOM. */
  bom: boolean;
  /** Whether it holds no text (nothing, or a BOM alone). */
  empty: boolean;
  /** Its line endings' style, as {@linkcode eolStyle} tells it. */
  style: "lf" | "crlf" | "mixed";
  /** The more common ending, as {@linkcode dominantEol} tells it. */
  dominant: "\n" | "\r\n";
}

/** The piece {@linkcode textShape} checks at a time: its strings stay small, young and cheap to collect. */
const SHAPE_PIECE_BYTES = 64 * 1024;

/**
 * The BOM and line endings of a file's bytes, or null when they are not text ({@linkcode decodeText} would
 * refuse them: binary, or not UTF-8). The UTF-8 is checked piece by piece and the endings counted on the
 * bytes: no string of the whole file is made (a 50 MB file's rewrite needs no decoded copy of the old text).
 *
 * @example
 * ```ts
 * import { textShape } from "@graver/core/fs";
 * import assert from "node:assert/strict";
 *
 * const shape = textShape(new TextEncoder().encode("a\r\nb\r\nc\n"));
 * assert.deepEqual(shape, { bom: false, empty: false, style: "mixed", dominant: "\r\n" });
 * assert.equal(textShape(new Uint8Array([0xff, 0x41])), null);
 * ```
 *
 * @param bytes File content.
 * @returns Its shape, or null when it is not text.
 */
export function textShape(bytes: Uint8Array): TextShape | null {
  if (looksBinary(bytes)) return null;
  const bom = bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
  const body = bom ? bytes.subarray(3) : bytes;
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  try {
    for (let at = 0; at < body.length; at += SHAPE_PIECE_BYTES) {
      strict.decode(body.subarray(at, at + SHAPE_PIECE_BYTES), { stream: true });
    }
    strict.decode();
  } catch {
    return null;
  }
  let crlf = 0;
  let lf = 0;
  for (let i = body.indexOf(10); i !== -1; i = body.indexOf(10, i + 1)) {
    if (i > 0 && body[i - 1] === 13) crlf++;
    else lf++;
  }
  return {
    bom,
    empty: body.length === 0,
    style: styleOf(crlf > 0, lf > 0),
    dominant: crlf > lf ? "\r\n" : "\n",
  };
}
