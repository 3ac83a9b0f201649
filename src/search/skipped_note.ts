/**
 * What a search's result says about the files it could not look into, beyond its counts: a file over the size
 * limit may hold exactly what was asked for (ripgrep has no limit, so its answer would differ), and a file
 * that could not be read is a question for the caller. Ignored and binary files are what was asked for, and
 * say nothing more.
 *
 * @module
 */
import { sizeText } from "../fs/size_text.ts";
import type { SearchSkipped } from "./types.ts";

/**
 * The warnings a search's skipped files call for: files over `max_file_bytes` (with the argument that lifts
 * the limit) and files that could not be read.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { skippedWarnings } from "./skipped_note.ts";
 *
 * const skipped = { ignored: 3, binary: 1, too_large: 1, unreadable: 0 };
 * assert.deepEqual(skippedWarnings(skipped, { maxFileBytes: 16 * 1024 * 1024 }), [
 *   "1 file was not searched: larger than max_file_bytes (16 MiB); pass a larger max_file_bytes to search it",
 * ]);
 * ```
 *
 * @param skipped The search's skipped counts, and how many of the too large were over the parse limit.
 * @param limits The size limit the search had.
 * @param edit Whether the search chose what an edit changes (the warning then says nothing there changed).
 * @returns One warning per cause that calls for one; none when nothing was left out that way.
 */
export function skippedWarnings(
  skipped: SearchSkipped & { overParseLimit?: number | undefined },
  limits: { maxFileBytes: number },
  edit = false,
): string[] {
  const out: string[] = [];
  const unparsed = skipped.overParseLimit ?? 0;
  if (unparsed > 0) {
    out.push(
      `${notSearched(unparsed, edit)}: over the parse limit (the workspace option maxParseBytes); ` +
        "search_text and edit_replace_text read such files as text",
    );
  }
  const large = skipped.too_large - unparsed;
  if (large > 0) {
    out.push(
      `${notSearched(large, edit)}: larger than max_file_bytes (${sizeText(limits.maxFileBytes)}); ` +
        `pass a larger max_file_bytes to search ${large === 1 ? "it" : "them"}`,
    );
  }
  const unread = skipped.unreadable;
  if (unread > 0) {
    out.push(
      `${notSearched(unread, edit)}: could not be read (permissions; removed, or swapped for a link, since ` +
        "it was listed; or a name that is not valid UTF-8, which no path here can spell)",
    );
  }
  return out;
}

/** "1 file was not searched" / "3 files were not searched, so nothing in them was changed". */
function notSearched(n: number, edit: boolean): string {
  const files = n === 1 ? "1 file was" : `${n} files were`;
  return `${files} not searched${edit ? `, so nothing in ${n === 1 ? "it" : "them"} was changed` : ""}`;
}
