/**
 * The text engines a tool handler loads on first call, as one module: bundlers make one lazy chunk of
 * them (a worker compiles every module it ships, so fewer, larger chunks start faster). Each engine module
 * is one namespace here, and each loader in `_lazy.ts` picks its own by name (`parseEngine` loads
 * `parseEdits`, that is `../text/parse_edits.ts`).
 *
 * @module
 */
export * as applyEditOps from "../text/apply_edit_ops.ts";
export * as keepEol from "../text/keep_eol.ts";
export * as parseEdits from "../text/parse_edits.ts";
export * as strReplace from "../text/str_replace.ts";
