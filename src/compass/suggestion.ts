/**
 * The one-turn reminder a suggestion attaches: what the freeform call did and
 * the structural call to reach for next time, with its argument names.
 *
 * @module
 */
import type { TargetTool } from "./targets.ts";
import type { EditShape } from "./types.ts";

/** What each primitive does better than a text edit, and how it is called. */
const HOW: Readonly<Record<TargetTool, string>> = {
  edit_apply_node:
    'edit_apply_node {"path", "selector": {"name_path"} or {"pattern"} or {"query"}, "new_text"} replaces whole syntax nodes picked by structure, and refuses an ambiguous or stale selection instead of editing the wrong place',
  edit_insert_at_anchor:
    'edit_insert_at_anchor {"path", "selector", "position", "text"} inserts code before or after (or inside) a node you select, with the surrounding blank lines and indentation',
  edit_rename_symbol:
    "edit_rename_symbol renames a symbol and every reference to it, across files and by scope; a text edit misses the other references",
  edit_safe_text_patch:
    'edit_safe_text_patch {"path", "hunks": [{"old_text", "new_text"}], "expected_hash"} makes the same exact replacement, refuses with stale_base if the file changed since your read_file, and applies all hunks or none',
  replace_symbol:
    'replace_symbol {"path", "name_path", "new_text"} replaces a whole definition by its name path',
};

/** What the freeform call did, in a few words. */
function what(tool: string, shape: EditShape, rename: { from: string; to: string } | null): string {
  const where = shape.kind === "edit_text" ? shape.paths.map((p) => `"${p}"`).join(", ") : `"${shape.path}"`;
  if (rename) return `${tool} renamed "${rename.from}" to "${rename.to}" by text in ${where}`;
  if (shape.kind === "whole_file") return `${tool} rewrote the whole of ${where}`;
  return `${tool} edited ${where} by matching text`;
}

/**
 * The suggestion's text.
 *
 * @param tool The freeform tool called.
 * @param shape Its edit.
 * @param options The primitive named, and the rename it reads as (if any).
 * @returns One or two sentences for the model.
 *
 * @example
 * ```ts
 * import { suggestionText } from "./suggestion.ts";
 * import assert from "node:assert/strict";
 *
 * const text = suggestionText("write_file", { kind: "whole_file", path: "a.ts" }, {
 *   target: "edit_apply_node",
 *   rename: null,
 * });
 * assert.match(text, /^write_file rewrote the whole of "a.ts"\. For code with a grammar, prefer edit_apply_node/);
 * ```
 */
export function suggestionText(
  tool: string,
  shape: EditShape,
  options: { target: TargetTool; rename: { from: string; to: string } | null },
): string {
  const lead = options.target === "edit_safe_text_patch" ? "For a text edit" : "For code with a grammar";
  return `${what(tool, shape, options.rename)}. ${lead}, prefer ${HOW[options.target]}.`;
}
