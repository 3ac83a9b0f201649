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
export * from "./catalogue.ts";
export * from "./dispatch.ts";
export * from "./types.ts";
export * from "./read_file.ts";
export * from "./list_files.ts";
export * from "./write_file.ts";
export * from "./create_file.ts";
export * from "./delete_file.ts";
export * from "./move_file.ts";
export * from "./apply_edits.ts";
export * from "./edit_file.ts";
export * from "./outline.ts";
export * from "./find_symbol.ts";
export * from "./replace_symbol.ts";
export * from "./remove_symbol.ts";
export * from "./insert_code.ts";
export * from "./edit_apply_node.ts";
export * from "./edit_insert_at_anchor.ts";
export * from "./edit_safe_text_patch.ts";
export * from "./edit_dry_run.ts";
export * from "./edit_capabilities.ts";
