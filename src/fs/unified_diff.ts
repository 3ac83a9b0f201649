/**
 * Unified diffs in the form `git apply` accepts, built on jsdiff's
 * `structuredPatch`.
 *
 * @module
 */
import { structuredPatch } from "diff";
import { looksBinary } from "./text.ts";

const DECODER = new TextDecoder();

/**
 * A git-style unified diff between two states of one file.
 *
 * @param path Relative path.
 * @param before Old bytes (null: file created).
 * @param after New bytes (null: file deleted).
 * @param options `context` lines (default 3); `fromPath` for renames; `oldMode`/`newMode`, the
 *   permission bits before and after (null or absent: 0o644), named as git does (`old mode 100644`,
 *   `new mode 100755`) when the executable bit changes.
 * @returns The diff text ("" when identical).
 *
 * @example One changed line
 * ```ts
 * import { unifiedDiff } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const enc = (s: string) => new TextEncoder().encode(s);
 * const d = unifiedDiff("a.txt", enc("x\ny\n"), enc("x\nz\n"));
 * assert.equal(d, "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n");
 * ```
 */
export function unifiedDiff(
  path: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
  options: { context?: number; fromPath?: string; oldMode?: number | null; newMode?: number | null } = {},
): string {
  const from = options.fromPath ?? path;
  const oldMode = gitMode(options.oldMode);
  const newMode = gitMode(options.newMode ?? options.oldMode);
  let header = `diff --git a/${from} b/${path}\n`;
  if (before === null) header += `new file mode ${newMode}\n`;
  if (after === null) header += `deleted file mode ${oldMode}\n`;
  const modeChanged = before !== null && after !== null && oldMode !== newMode;
  if (modeChanged) header += `old mode ${oldMode}\nnew mode ${newMode}\n`;
  if (from !== path) header += `rename from ${from}\nrename to ${path}\n`;
  if ((before && looksBinary(before)) || (after && looksBinary(after))) {
    return `${header}Binary files ${before ? `a/${from}` : "/dev/null"} and ${
      after ? `b/${path}` : "/dev/null"
    } differ\n`;
  }
  // The bytes as the decoder reads them (a BOM is no text); only the region that changed is ever decoded.
  const a = withoutBom(before ?? EMPTY);
  const b = withoutBom(after ?? EMPTY);
  if (sameBytes(a, b) && from === path && before !== null && after !== null) {
    return modeChanged ? header : "";
  }
  const context = options.context ?? 3;
  // Only the region that changed, with its context, is diffed: on a large file with a small edit the
  // diff costs what the edit touched, not the file (the hunks are the same).
  const middle = changedRegion(a, b, context);
  const patch = structuredPatch(from, path, middle.before, middle.after, undefined, undefined, { context });
  if (patch.hunks.length === 0) return header;
  let out = header;
  out += `--- ${before === null ? "/dev/null" : `a/${from}`}\n`;
  out += `+++ ${after === null ? "/dev/null" : `b/${path}`}\n`;
  for (const h of patch.hunks) {
    const oldStart = (h.oldLines === 0 ? h.oldStart - 1 : h.oldStart) + middle.linesBefore;
    const newStart = (h.newLines === 0 ? h.newStart - 1 : h.newStart) + middle.linesBefore;
    out += `@@ -${range(oldStart, h.oldLines)} +${range(newStart, h.newLines)} @@\n`;
    for (const line of h.lines) out += line + "\n";
  }
  return out;
}

/** git's file mode for permission bits: executable when the owner may execute. */
function gitMode(mode: number | null | undefined): string {
  return mode !== null && mode !== undefined && (mode & 0o100) !== 0 ? "100755" : "100644";
}

function range(start: number, lines: number): string {
  return lines === 1 ? `${start}` : `${start},${lines}`;
}

const EMPTY = new Uint8Array(0);
const NEWLINE = 0x0a;

/** `bytes` without a UTF-8 BOM (the decoder drops it too). */
function withoutBom(bytes: Uint8Array): Uint8Array {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
    ? bytes.subarray(3)
    : bytes;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Index of the last "\n" at or before `from` (-1 when none). */
function lastNewline(bytes: Uint8Array, from: number): number {
  return from < 0 ? -1 : bytes.lastIndexOf(NEWLINE, from);
}

/**
 * The part of two texts that differs, widened to whole lines and `keep`
 * lines of context on each side (the rest is the same in both), decoded, and
 * how many lines come before it. It works on the UTF-8 bytes: a "\n" is one
 * byte that is never part of another character, so lines are cut where the
 * decoded texts would be, and nothing outside the region is decoded.
 */
function changedRegion(
  a: Uint8Array,
  b: Uint8Array,
  keep: number,
): { before: string; after: string; linesBefore: number } {
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a[p] === b[p]) p++;
  // Back to the start of the line where they part, then `keep` lines more.
  let cut = lastNewline(a, p - 1) + 1;
  for (let i = 0; i < keep && cut > 0; i++) cut = lastNewline(a, cut - 2) + 1;
  let s = 0;
  while (s < max - cut && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  let endA = a.length;
  let endB = b.length;
  if (s > 0) {
    // The first line start inside the common end, then `keep` lines more.
    let at = a.indexOf(NEWLINE, a.length - s);
    for (let i = 0; i < keep && at !== -1; i++) at = a.indexOf(NEWLINE, at + 1);
    if (at !== -1) {
      endA = at + 1;
      endB = b.length - (a.length - endA);
    }
  }
  let linesBefore = 0;
  for (let i = a.indexOf(NEWLINE); i !== -1 && i < cut; i = a.indexOf(NEWLINE, i + 1)) linesBefore++;
  return {
    before: DECODER.decode(a.subarray(cut, endA)),
    after: DECODER.decode(b.subarray(cut, endB)),
    linesBefore,
  };
}
