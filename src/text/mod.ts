/**
 * The text engine: parse the formats models emit (SEARCH/REPLACE blocks,
 * unified diffs, `*** Begin Patch`, str_replace), place each block with the
 * matching ladder, explain failures with did-you-mean hints, and loop with
 * {@linkcode applyWithReflection}.
 *
 * ```ts
 * import { parseEdits } from "@graver/core/text";
 * import assert from "node:assert/strict";
 *
 * const parsed = parseEdits("a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n");
 * assert.equal(parsed.format, "search-replace");
 * ```
 *
 * @module
 */
export type {
  BlockMatch,
  BlockReport,
  Confidence,
  EditBlock,
  EditFormat,
  EditSink,
  FileOp,
  LineReader,
  MatchTier,
  ParsedEdits,
} from "./types.ts";
export { detectFormat, parseEdits } from "./parse_edits.ts";
export type { FormatOption } from "./parse_edits.ts";
export { parseSearchReplace } from "./parse_search_replace.ts";
export { parseUnifiedDiff } from "./parse_udiff.ts";
export { parseApplyPatch } from "./parse_apply_patch.ts";
export { EditStreamParser } from "./stream_parse.ts";
export { matchBlock } from "./match_block.ts";
export type { CandidateLines, FuzzyCandidate, MatchOptions, MatchOutcome } from "./match_block.ts";
export { applyEditOps } from "./apply_edit_ops.ts";
export type { ApplyEditOpsOptions, ApplyEditOpsResult, FileReport } from "./apply_edit_ops.ts";
export { strReplace } from "./str_replace.ts";
export type { StrReplaceArgs, StrReplaceResult } from "./str_replace.ts";
