/**
 * The structural engine: re-indentation, selectors (name paths, tree-sitter
 * queries, code patterns with metavariables), anchors and node edits.
 *
 * ```ts
 * import { reindent } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * assert.equal(reindent("x();\n", { indent: "\t", eol: "\n" }), "\tx();\n");
 * ```
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
export { findReferences, MAX_PROJECT_FILES } from "./references.ts";
export type { FindReferencesOptions, ReferenceSearch, ReferenceSite, ReferenceTarget } from "./references.ts";
export { planRename, stageRename } from "./rename.ts";
export type { RenameOptions, RenamePlan, TextOccurrence } from "./rename.ts";
export { planChangeSignature, SIGNATURE_LANGUAGES, stageChangeSignature } from "./signature.ts";
export type {
  ChangeSignatureOptions,
  FunctionDecl,
  Param,
  ParamEntry,
  ParamList,
  ParamMapping,
  ParamRole,
  SignatureCallSite,
  SignaturePlan,
} from "./signature.ts";
export { extractLanguages, planExtract, stageExtract } from "./extract.ts";
export type { ExtractOptions, ExtractPlan, LineRange as ExtractRange } from "./extract.ts";
export { inlineLanguages, planInline } from "./inline.ts";
export type { InlineOptions, InlinePlan } from "./inline.ts";
export { planMoveDecl, stageMoveDecl } from "./move_decl.ts";
export type { MoveDeclOptions, MoveDeclPlan } from "./move_decl.ts";
export { importsUpdatable, moduleWorld, movableSystem, planImportUpdates } from "./imports_rewrite.ts";
export type { ImportChange, ImportUpdatePlan, ModuleWorld, UnresolvedImport } from "./imports_rewrite.ts";
