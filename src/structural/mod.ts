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
export * from "./reindent.ts";
export * from "./source.ts";
export * from "./pattern.ts";
export * from "./selectors.ts";
export * from "./anchors.ts";
export * from "./node_edit.ts";
