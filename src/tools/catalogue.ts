/**
 * The tool catalogue: one data table every surface is generated from.
 *
 * @module
 */
import { checkpointList, checkpointRestore, checkpointUndo } from "./checkpoint_tools.ts";
import { createFile } from "./create_file.ts";
import { applyEdits } from "./apply_edits.ts";
import { applyPatch } from "./apply_patch.ts";
import { deleteFile } from "./delete_file.ts";
import { editApplyNode } from "./edit_apply_node.ts";
import { editCapabilities } from "./edit_capabilities.ts";
import { editChangeSignature } from "./edit_change_signature.ts";
import { editDryRun } from "./edit_dry_run.ts";
import { editExtractFunction } from "./edit_extract_function.ts";
import { editFile } from "./edit_file.ts";
import { editInline } from "./edit_inline.ts";
import { editInsertAtAnchor } from "./edit_insert_at_anchor.ts";
import { editMoveDecl } from "./edit_move_decl.ts";
import { editRenameSymbol } from "./edit_rename_symbol.ts";
import { editSafeTextPatch } from "./edit_safe_text_patch.ts";
import { findReferencesTool } from "./find_references.ts";
import { findSymbol } from "./find_symbol.ts";
import { insertCode } from "./insert_code.ts";
import { listFiles } from "./list_files.ts";
import { moveFile } from "./move_file.ts";
import { outline } from "./outline.ts";
import { readFile } from "./read_file.ts";
import { removeSymbol } from "./remove_symbol.ts";
import { replaceSymbol } from "./replace_symbol.ts";
import { searchTextTool } from "./search_text.ts";
import { editReplaceText } from "./edit_replace_text.ts";
import { searchStructuralTool } from "./search_structural.ts";
import { editRewriteStructural } from "./edit_rewrite_structural.ts";
import { strReplaceBasedEditTool, strReplaceEditor } from "./text_editor.ts";
import type { JsonSchema, ToolDefinition } from "./types.ts";
import { writeFile } from "./write_file.ts";

/** The `syntax_guard` argument every mutating tool accepts (dispatch reads it). */
const SYNTAX_GUARD: JsonSchema = {
  type: "string",
  enum: ["refuse", "warn", "off"],
  description:
    'When the edit adds parse errors: "refuse" (the default: nothing written), "warn" (write and say where), or "off" — for code the grammar cannot read',
};

/** The `allow_read_only` argument every mutating tool accepts (dispatch reads it). */
const ALLOW_READ_ONLY: JsonSchema = {
  type: "boolean",
  description:
    "Change files whose owner may not write them (mode 0444 and the like), keeping their mode (default false: refused)",
};

/** The `full_diff` argument every mutating tool accepts (dispatch reads it: `result_fit.ts`). */
const FULL_DIFF: JsonSchema = {
  type: "boolean",
  description:
    "Return whole diffs even past the result budget (default false: very long lines are shortened)",
};

/** Arguments dispatch handles for every tool of a kind, added to each schema that lacks them. */
function withCommonArgs(tool: ToolDefinition): ToolDefinition {
  const props = tool.inputSchema["properties"] as Record<string, JsonSchema> | undefined;
  if (!tool.mutates || tool.previewOnly || !props || "syntax_guard" in props) return tool;
  return {
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: {
        ...props,
        syntax_guard: SYNTAX_GUARD,
        allow_read_only: ALLOW_READ_ONLY,
        full_diff: FULL_DIFF,
      },
    },
  };
}

/** Every tool, in the order surfaces list them. */
export const TOOLS: readonly ToolDefinition[] = ([
  // files
  readFile,
  listFiles,
  writeFile,
  createFile,
  deleteFile,
  moveFile,
  // text engine — add rows here
  applyEdits,
  editFile,
  // search
  searchTextTool,
  editReplaceText,
  searchStructuralTool,
  editRewriteStructural,
  // structural engine — add rows here
  outline,
  findSymbol,
  replaceSymbol,
  removeSymbol,
  insertCode,
  editApplyNode,
  editInsertAtAnchor,
  editSafeTextPatch,
  // bindings: references and refactors across files
  findReferencesTool,
  editRenameSymbol,
  editChangeSignature,
  editMoveDecl,
  editExtractFunction,
  editInline,
  editDryRun,
  editCapabilities,
  // checkpoints
  checkpointList,
  checkpointUndo,
  checkpointRestore,
  // compatibility aliases: shapes models are trained on, forwarded by dispatch to the tools above
  strReplaceBasedEditTool,
  strReplaceEditor,
  applyPatch,
] as unknown as ToolDefinition[]).map(withCommonArgs);

/** Find a tool by name. */
export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** The catalogue as data: name, description, JSON Schema. */
export function describeTools(): { name: string; description: string; inputSchema: JsonSchema }[] {
  return TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}
