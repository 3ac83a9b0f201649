/**
 * What a tool is, as the policies read it. Every tool definition declares its
 * kind (`ToolDefinition.kind`); the read guard, the definition gate and the
 * compass decide from the kind, never from a list of tool names, so a new tool
 * of a known kind is judged the right way without editing any policy.
 *
 * | kind            | what it does                                                   | who reads it                                   |
 * | --------------- | -------------------------------------------------------------- | ---------------------------------------------- |
 * | `read`          | shows files or facts, changes nothing                          | (the ledger records what it showed)            |
 * | `freeform_edit` | a text edit the model writes free-hand (old/new text, patches) | definition gate; compass routes and rewrites it |
 * | `text_patch`    | an exact text patch, hash-guarded, for any file                | compass routes it; the gate leaves it alone    |
 * | `whole_file`    | writes a file's whole content                                  | read guard: all of it must be read; compass    |
 * | `file`          | deletes or moves files                                         | —                                              |
 * | `structural`    | edits by syntax: nodes, symbols, refactors                     | compass never routes it                        |
 * | `derived`       | edits the named file and what follows from it elsewhere (a rename's references) | read guard judges the named file only; compass never routes it |
 * | `rewrite`       | edits every occurrence a search selects, across files          | read guard judges no file, names the changed lines not seen; compass never routes it |
 * | `plan`          | previews other calls, never commits                            | compass never routes it                        |
 * | `session`       | the session's own history (checkpoints)                        | —                                              |
 * | `alias`         | a compatibility shape forwarded to a real tool                 | (policies see the real tool)                   |
 *
 * @module
 */

/** What a tool is (see the table in this module's documentation). */
export type ToolKind =
  | "read"
  | "freeform_edit"
  | "text_patch"
  | "whole_file"
  | "file"
  | "structural"
  | "derived"
  | "rewrite"
  | "plan"
  | "session"
  | "alias";

/** Every {@linkcode ToolKind}, in the order the documentation lists them. */
export const TOOL_KINDS: readonly ToolKind[] = Object.freeze([
  "read",
  "freeform_edit",
  "text_patch",
  "whole_file",
  "file",
  "structural",
  "derived",
  "rewrite",
  "plan",
  "session",
  "alias",
]);

/**
 * Whether a tool of this kind edits code by structure (or only previews): the
 * compass router leaves such calls alone.
 *
 * @param kind The tool's kind (undefined for a tool that declares none).
 * @returns True for `structural`, `derived`, `rewrite` and `plan`.
 *
 * @example
 * ```ts
 * import { editsByStructure } from "./tool_kinds.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(editsByStructure("derived"), true);
 * assert.equal(editsByStructure("freeform_edit"), false);
 * assert.equal(editsByStructure(undefined), false);
 * ```
 */
export function editsByStructure(kind: ToolKind | undefined): boolean {
  return kind === "structural" || kind === "derived" || kind === "rewrite" || kind === "plan";
}
