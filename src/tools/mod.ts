/**
 * The tool catalogue and the one dispatch path.
 *
 * ```ts
 * import { TOOLS } from "@graver/core/tools";
 * import assert from "node:assert/strict";
 *
 * assert.ok(TOOLS.some((t) => t.name === "read_file"));
 * ```
 *
 * @module
 */
export type {
  CallInProgress,
  ForwardContext,
  ForwardedCall,
  HandlerResult,
  JsonSchema,
  PipelineStep,
  ReadBudget,
  Reminder,
  StepResult,
  ToolBehaviour,
  ToolContext,
  ToolDefinition,
  ToolFailure,
  ToolHost,
  ToolResult,
  ToolSuccess,
} from "./types.ts";
export { describeTools, findTool, TOOLS } from "./catalogue.ts";
export { editsByStructure, TOOL_KINDS } from "../tool_kinds.ts";
export type { ToolKind } from "../tool_kinds.ts";
export type { ShownLines } from "../errors.ts";
export { dispatch, validateArgs } from "./dispatch.ts";
export type { DispatchOptions } from "./dispatch.ts";
export { DEFAULT_READ_TOKENS, estimateTokens, MAX_READ_LINES, readFile } from "./read_file.ts";
export { definitionGate, FREEFORM_TEXT_TOOLS } from "./definition_gate_step.ts";
export type { DefinitionGateMode, DefinitionGateStepOptions } from "./definition_gate_step.ts";
export { compassStep } from "./compass_step.ts";
export { findReferencesTool } from "./find_references.ts";
export type { FindReferencesArgs } from "./find_references.ts";
export { editRenameSymbol } from "./edit_rename_symbol.ts";
export type { EditRenameSymbolArgs } from "./edit_rename_symbol.ts";
export { editChangeSignature } from "./edit_change_signature.ts";
export type { EditChangeSignatureArgs, ParamEntryArg } from "./edit_change_signature.ts";
export { editExtractFunction } from "./edit_extract_function.ts";
export type { EditExtractFunctionArgs } from "./edit_extract_function.ts";
export { editInline } from "./edit_inline.ts";
export type { EditInlineArgs } from "./edit_inline.ts";
export { editMoveDecl } from "./edit_move_decl.ts";
export type { EditMoveDeclArgs } from "./edit_move_decl.ts";
export { strReplaceBasedEditTool, strReplaceEditor } from "./text_editor.ts";
export type { TextEditorArgs, TextEditorCommand } from "./text_editor.ts";
export { applyPatch } from "./apply_patch.ts";
export type { ApplyPatchArgs } from "./apply_patch.ts";
export {
  CATALOGUE_FORMATS,
  catalogueEntries,
  exportCatalogue,
  JSON_SCHEMA_DIALECT,
} from "./export_formats.ts";
export type { CatalogueEntry, CatalogueFormat, CatalogueOptions, ToolAnnotations } from "./export_formats.ts";
export { RESULT_DATA, resultSchema } from "./result_shapes.ts";
export { checkpointList, checkpointRestore, checkpointUndo } from "./checkpoint_tools.ts";
export type { CheckpointListArgs, CheckpointRestoreArgs, CheckpointUndoArgs } from "./checkpoint_tools.ts";
export { checkpointStep } from "./checkpoint_step.ts";
export type { ReadFileArgs } from "./read_file.ts";
export { listFiles } from "./list_files.ts";
export type { ListFilesArgs } from "./list_files.ts";
export { writeFile } from "./write_file.ts";
export type { WriteFileArgs } from "./write_file.ts";
export { createFile } from "./create_file.ts";
export type { CreateFileArgs } from "./create_file.ts";
export { deleteFile } from "./delete_file.ts";
export type { DeleteFileArgs } from "./delete_file.ts";
export { moveFile } from "./move_file.ts";
export type { MoveFileArgs } from "./move_file.ts";
export { applyEdits, MAX_EDIT_TEXT } from "./apply_edits.ts";
export type { ApplyEditsArgs } from "./apply_edits.ts";
export { editFile } from "./edit_file.ts";
export type { EditFileArgs } from "./edit_file.ts";
export { MAX_SYMBOLS, outline } from "./outline.ts";
export type { CompactSymbol, OutlineArgs } from "./outline.ts";
export {
  findSymbol,
  MAX_BODY_LINES,
  MAX_BODY_LINES_TOTAL,
  MAX_SEARCH_FILE_BYTES,
  MAX_SEARCH_FILES,
} from "./find_symbol.ts";
export type { FindSymbolArgs } from "./find_symbol.ts";
export { replaceSymbol } from "./replace_symbol.ts";
export type { ReplaceSymbolArgs } from "./replace_symbol.ts";
export { removeSymbol } from "./remove_symbol.ts";
export type { RemoveSymbolArgs } from "./remove_symbol.ts";
export { insertCode } from "./insert_code.ts";
export type { InsertCodeArgs } from "./insert_code.ts";
export { editApplyNode } from "./edit_apply_node.ts";
export type { EditApplyNodeArgs } from "./edit_apply_node.ts";
export { editInsertAtAnchor } from "./edit_insert_at_anchor.ts";
export type { EditInsertAtAnchorArgs } from "./edit_insert_at_anchor.ts";
export { editSafeTextPatch } from "./edit_safe_text_patch.ts";
export type { EditSafeTextPatchArgs, TextHunk } from "./edit_safe_text_patch.ts";
export { editDryRun, MAX_PLAN_OPS } from "./edit_dry_run.ts";
export { openEditStream, STREAM_TOOLS } from "./edit_stream.ts";
export type {
  EditStream,
  EditStreamHost,
  EditStreamOptions,
  StreamEvent,
  StreamRefusal,
  StreamTool,
} from "./edit_stream.ts";
export type { EditDryRunArgs, PlanOp, PlanOpResult } from "./edit_dry_run.ts";
export { editCapabilities } from "./edit_capabilities.ts";
export type { Capability, EditCapabilitiesArgs, LanguageCapabilities } from "./edit_capabilities.ts";
