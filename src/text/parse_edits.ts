/**
 * Parse a model's edit response in any supported format, auto-detected or
 * forced.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { looksLikeApplyPatch, parseApplyPatch } from "./parse_apply_patch.ts";
import { looksLikeSearchReplace, parseSearchReplace } from "./parse_search_replace.ts";
import { looksLikeUnifiedDiff, parseUnifiedDiff } from "./parse_udiff.ts";
import type { EditFormat, ParsedEdits } from "./types.ts";

/** `format` values accepted by {@linkcode parseEdits}. */
export type FormatOption = EditFormat | "auto";

/** Which format `text` is written in, or null when none is recognised. */
export function detectFormat(text: string): EditFormat | null {
  if (looksLikeApplyPatch(text)) return "apply-patch";
  if (looksLikeSearchReplace(text)) return "search-replace";
  if (looksLikeUnifiedDiff(text)) return "udiff";
  return null;
}

/**
 * Parse edits into file operations.
 *
 * @param text The model's response: SEARCH/REPLACE blocks, a unified diff or a `*** Begin Patch` envelope.
 * @param options `format` to force one (default "auto").
 * @returns The format and the operations.
 * @throws RecoverableError `invalid_args` for unrecognised or malformed input.
 *
 * @example Auto-detect a unified diff
 * ```ts
 * import { parseEdits } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const parsed = parseEdits("--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n+b\n");
 * assert.equal(parsed.format, "udiff");
 * ```
 */
export function parseEdits(text: string, options: { format?: FormatOption } = {}): ParsedEdits {
  const format = options.format === undefined || options.format === "auto"
    ? detectFormat(text)
    : options.format;
  if (format === null) throw unknownFormat();
  const ops = format === "search-replace"
    ? parseSearchReplace(text)
    : format === "udiff"
    ? parseUnifiedDiff(text)
    : parseApplyPatch(text);
  if (ops.length === 0) throw noEdit(format);
  return { format, ops };
}

/** The refusal of edit input in no format the engine reads. */
export function unknownFormat(): RecoverableError {
  return new RecoverableError(
    "invalid_args",
    "Cannot parse edits: no SEARCH/REPLACE block, unified diff or *** Begin Patch found",
    {
      hint:
        "Write the file path on its own line, then <<<<<<< SEARCH, the exact old lines, =======, the new lines and >>>>>>> REPLACE",
      details: { formats: ["search-replace", "udiff", "apply-patch"] },
    },
  );
}

/** The refusal of edit input in a known format that holds no edit. */
export function noEdit(format: EditFormat): RecoverableError {
  return new RecoverableError("invalid_args", `Cannot parse edits as ${format}: no edit found`, {
    hint: 'Check the markers of the format, or pass format: "auto"',
    details: { format },
  });
}
