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
  const oldText = before === null ? "" : DECODER.decode(before);
  const newText = after === null ? "" : DECODER.decode(after);
  if (oldText === newText && from === path && before !== null && after !== null) {
    return modeChanged ? header : "";
  }
  const patch = structuredPatch(from, path, oldText, newText, undefined, undefined, {
    context: options.context ?? 3,
  });
  if (patch.hunks.length === 0) return from !== path ? header : header;
  let out = header;
  out += `--- ${before === null ? "/dev/null" : `a/${from}`}\n`;
  out += `+++ ${after === null ? "/dev/null" : `b/${path}`}\n`;
  for (const h of patch.hunks) {
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
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
