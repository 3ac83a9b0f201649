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
const ENCODER = new TextEncoder();

/** True when the bytes hold a NUL in their first 8 KiB (git's binary test). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
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
  try {
    return { text: DECODER.decode(bom ? bytes.subarray(3) : bytes), bom };
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
  return crlf && lf ? "mixed" : crlf ? "crlf" : "lf";
}
