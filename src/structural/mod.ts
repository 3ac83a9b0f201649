/**
 * Structural edits and refactors, each area in a folder of its own:
 *
 * - `edit/`: the edit primitives — re-indentation, selectors (name paths,
 *   tree-sitter queries, code patterns with metavariables), anchors, node and
 *   symbol edits, the source file and its target version;
 * - `references/`: the reference search the refactors build on;
 * - one folder per refactor, each exporting its plan (and stage) pair from
 *   its `mod.ts`: `rename/`, `change_signature/`, `extract/`, `inline/`,
 *   `move_decl/`, `move_file/` (the imports a file move rewrites);
 * - `shared/`: what several refactors use (side effects, data flow,
 *   statement ranges, the project's files, names, import edits, the
 *   languages each refactor supports).
 *
 * A module whose name starts with `_` is private to its folder.
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
export { ANCHOR_POSITIONS, compilePattern, detectIndentUnit, matchPattern, reindent } from "./edit/mod.ts";
export type {
  AnchorPosition,
  Binding,
  CompiledPattern,
  InsertPosition,
  MetaVariable,
  PatternMatch,
  PatternNode,
  ReindentOptions,
  SelectMode,
  Selector,
  SelectorKind,
} from "./edit/mod.ts";
export { findReferences, MAX_PROJECT_FILES } from "./references/mod.ts";
export type {
  FindReferencesOptions,
  ReferenceSearch,
  ReferenceSite,
  ReferenceTarget,
} from "./references/mod.ts";
export { planRename, stageRename } from "./rename/mod.ts";
export type { RenameOptions, RenamePlan, TextOccurrence } from "./rename/mod.ts";
export { planChangeSignature, SIGNATURE_LANGUAGES, stageChangeSignature } from "./change_signature/mod.ts";
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
} from "./change_signature/mod.ts";
export { extractLanguages, planExtract, stageExtract } from "./extract/mod.ts";
export type { ExtractOptions, ExtractPlan, LineRange as ExtractRange } from "./extract/mod.ts";
export { inlineLanguages, planInline } from "./inline/mod.ts";
export type { InlineOptions, InlinePlan } from "./inline/mod.ts";
export { planMoveDecl, stageMoveDecl } from "./move_decl/mod.ts";
export type { MoveDeclOptions, MoveDeclPlan } from "./move_decl/mod.ts";
export { importsUpdatable, moduleWorld, movableSystem, planImportUpdates } from "./move_file/mod.ts";
export type { ImportChange, ImportUpdatePlan, ModuleWorld, UnresolvedImport } from "./move_file/mod.ts";
