/**
 * The edit primitives every structural edit is made of: re-indentation,
 * selectors (name paths, tree-sitter queries, code patterns with
 * metavariables), anchors and insertion places, node and symbol edits, and
 * the source file they apply to.
 *
 * @module
 */
export { detectIndentUnit, reindent } from "./reindent.ts";
export type { ReindentOptions } from "./reindent.ts";
export { compilePattern, matchPattern } from "./pattern.ts";
export type { Binding, CompiledPattern, MetaVariable, PatternMatch, PatternNode } from "./pattern.ts";
export type { SelectMode, Selector, SelectorKind } from "./selectors.ts";
export { ANCHOR_POSITIONS } from "./anchors.ts";
export type { AnchorPosition } from "./anchors.ts";
export type { InsertPosition } from "./symbol_insert.ts";
