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
export * from "./types.ts";
export * from "./parse_edits.ts";
export * from "./parse_search_replace.ts";
export * from "./parse_udiff.ts";
export * from "./parse_apply_patch.ts";
export * from "./match_block.ts";
export * from "./did_you_mean.ts";
export * from "./apply_edit_ops.ts";
export * from "./str_replace.ts";
