/**
 * Project-wide search and replace: `search_text`'s engine (a linear-time, ripgrep-compatible text search whose matches
 * carry occurrence ids that a guarded edit can name), reading through the narrow `SearchFiles` interface, and `edit_replace_text`'s plan on the same scan;
 * `search_structural`'s engine (code patterns over the same files, the pattern engine handed in) and
 * `edit_rewrite_structural`'s plan.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeSearchTextArgs, searchText } from "./mod.ts";
 *
 * const files = {
 *   async *files() { yield { path: "a.txt" }; },
 *   read: async () => new TextEncoder().encode("hello world\n"),
 * };
 * const result = await searchText(files, normalizeSearchTextArgs({ pattern: "world" }));
 * assert.equal(result.matches![0]!.column, 7);
 * ```
 *
 * @module
 */
export { searchText } from "./search_text.ts";
export { DECODED_TEXT_BYTES, decodedTextCounts, DecodedTexts, decodedTexts } from "./decoded_texts.ts";
export type { DecodedTextCounts } from "./decoded_texts.ts";
export type { SearchTextOptions } from "./search_text.ts";
export { enclosingSymbolsOf, MAX_SYMBOL_FILE_CHARS } from "./enclosing_symbol.ts";
export type { EnclosingSymbols } from "./enclosing_symbol.ts";
export { planTextReplace } from "./replace_text.ts";
export type { FileReplacement, ReplacedSite, TextReplacePlan, TextReplaceQuery } from "./replace_text.ts";
export { expandTemplate, parseTemplate } from "./replace_template.ts";
export type { PatternGroups, ReplaceTemplate } from "./replace_template.ts";
export {
  cursorFor,
  DEFAULT_MAX_CHARS,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_RESULTS,
  normalizeSearchTextArgs,
  SEARCH_TEXT_ALIASES,
} from "./text_args.ts";
export { normalizeStructuralArgs, withRuleTexts } from "./structural_args.ts";
export { searchStructural } from "./structural_search.ts";
export type { SearchStructuralOptions } from "./structural_search.ts";
export { planStructuralRewrite } from "./structural_rewrite.ts";
export type { StructuralRewritePlan, StructuralRewriteQuery } from "./structural_rewrite.ts";
export { formatOccurrenceId, occurrenceIsCurrent, parseOccurrenceId } from "./occurrence_id.ts";
export type { Occurrence } from "./occurrence_id.ts";
export { walkSearchFiles } from "./walk_files.ts";
export { skippedWarnings } from "./skipped_note.ts";
export { readAsErrorWarnings } from "./structural_page.ts";
export { fileTypeNames } from "./file_types.ts";
export type {
  FileCount,
  FileMatch,
  FileScope,
  LineMatch,
  OutputMode,
  SearchFile,
  SearchFiles,
  SearchSkipped,
  SearchSummary,
  SearchTextQuery,
  SearchTextResult,
  SourceSkipped,
  StructuralBinding,
  StructuralHit,
  StructuralMatch,
  StructuralMatcher,
  StructuralMetavariable,
  StructuralProgram,
  StructuralQuery,
  StructuralSearchResult,
  StructuralSummary,
  Submatch,
} from "./types.ts";
