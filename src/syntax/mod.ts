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
export * from "./grammars.ts";
export * from "./syntax_guard.ts";
export * from "./trees.ts";
export * from "./queries.ts";
export * from "./symbols.ts";
export * from "./name_path.ts";
export * from "./unsupported_language.ts";
