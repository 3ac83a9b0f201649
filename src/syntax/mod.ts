/**
 * Tree-sitter grammars loaded from WASM, the parse cache and the syntax guard.
 *
 * ```ts
 * import { GRAMMARS } from "@graver/core/syntax";
 * import assert from "node:assert/strict";
 *
 * assert.ok("typescript" in GRAMMARS);
 * ```
 *
 * @module
 */
export type { Parsing, SyntaxGuardMode } from "./types.ts";
export { GRAMMARS, Grammars } from "./grammars.ts";
export type { GrammarEntry, GrammarManifest, WasmInput, WasmLoader } from "./grammars.ts";
export { syntaxProblems, TreeCache } from "./trees.ts";
export type { ParsedFile, SyntaxProblem } from "./trees.ts";
export { flattenSymbols, outlineOf } from "./symbols.ts";
export type { Outline, SymbolInfo, SymbolRange } from "./symbols.ts";
export { parseNamePath, resolveNamePath } from "./name_path.ts";
export { isMarkdownPath, markdownHeadings, markdownOutline, readOutline } from "./markdown_outline.ts";
export type { MarkdownHeading } from "./markdown_outline.ts";
export type { NamePathResolution, NamePathSegment, ParsedNamePath } from "./name_path.ts";
export type { ErrorRegion } from "./error_regions.ts";
export { findSyntaxRegressions } from "./syntax_guard.ts";
export type { SyntaxRegression } from "./syntax_guard.ts";
export { MAX_SPAN_SYMBOLS, omittedNotice, summarizeSpan } from "./line_summary.ts";
export type { SpanSummary, SpanSymbol } from "./line_summary.ts";
export { bindingLanguages, fileBindings } from "./bindings.ts";
export type {
  Binding,
  BindingKind,
  ExportRecord,
  FileBindings,
  ImportRecord,
  Occurrence,
  OccurrenceKind,
  Scope,
  ScopeKind,
} from "./binding_model.ts";
export { ModuleResolver, tsconfigMapping } from "./module_resolution.ts";
export type { PathMapping } from "./module_resolution.ts";
