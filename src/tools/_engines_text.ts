/**
 * The text engines a tool handler loads on first call, as one module: bundlers make one lazy chunk of
 * them (a worker compiles every module it ships, so fewer, larger chunks start faster). Loaded through
 * `_lazy.ts`.
 *
 * @module
 */
export * from "../fs/lines.ts";
export * from "../text/apply_edit_ops.ts";
export * from "../text/keep_eol.ts";
export * from "../text/parse_edits.ts";
export * from "../text/str_replace.ts";
