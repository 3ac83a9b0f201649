/**
 * The structural engines (and the syntax and guard modules they share) a tool handler loads on first
 * call, as one module: bundlers make one lazy chunk of them (a worker compiles every module it ships, so
 * fewer, larger chunks start faster). Loaded through `_lazy.ts`.
 *
 * @module
 */
export * from "../guards/definition_gate.ts";
export * from "../structural/anchors.ts";
export * from "../structural/edit_targets.ts";
export * from "../structural/extract.ts";
export * from "../structural/imports_rewrite.ts";
export * from "../structural/inline.ts";
export * from "../structural/move_decl.ts";
export * from "../structural/node_edit.ts";
export * from "../structural/references.ts";
export * from "../structural/rename.ts";
export * from "../structural/selectors.ts";
export * from "../structural/signature.ts";
export * from "../structural/source.ts";
export * from "../structural/symbol_insert.ts";
export * from "../structural/symbol_replace.ts";
export * from "../structural/symbol_target.ts";
export * from "../syntax/bindings.ts";
export * from "../syntax/line_summary.ts";
export * from "../syntax/markdown_outline.ts";
export * from "../syntax/queries.ts";
export * from "../syntax/symbols.ts";
