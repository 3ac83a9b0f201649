/**
 * The structural engines (and the syntax and guard modules they share) a tool handler loads on first
 * call, as one module: bundlers make one lazy chunk of them (a worker compiles every module it ships, so
 * fewer, larger chunks start faster). Each engine module is one namespace here, and each loader in
 * `_lazy.ts` (or the one tool that uses it) picks its own by name (edit_rename_symbol's loader takes `rename`,
 * that is `../structural/rename/rename.ts`).
 *
 * @module
 */
export * as definitionGate from "../guards/definition_gate.ts";
export * as anchors from "../structural/edit/anchors.ts";
export * as editTargets from "../structural/edit/edit_targets.ts";
export * as extract from "../structural/extract/extract.ts";
export * as importsRewrite from "../structural/move_file/imports_rewrite.ts";
export * as inline from "../structural/inline/inline.ts";
export * as moveDecl from "../structural/move_decl/move_decl.ts";
export * as nodeEdit from "../structural/edit/node_edit.ts";
export * as references from "../structural/references/references.ts";
export * as rename from "../structural/rename/rename.ts";
export * as selectors from "../structural/edit/selectors.ts";
export * as signature from "../structural/change_signature/signature.ts";
export * as source from "../structural/edit/source.ts";
export * as symbolInsert from "../structural/edit/symbol_insert.ts";
export * as symbolReplace from "../structural/edit/symbol_replace.ts";
export * as symbolTarget from "../structural/edit/symbol_target.ts";
export * as bindings from "../syntax/bindings.ts";
export * as lineSummary from "../syntax/line_summary.ts";
export * as markdownOutline from "../syntax/markdown_outline.ts";
export * as queries from "../syntax/queries.ts";
export * as symbols from "../syntax/symbols.ts";
