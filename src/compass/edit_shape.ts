/**
 * Edit shapes: which freeform edit a tool call is, read from its tool's kind
 * and its args alone (no file access). A call the router cannot read is `null`, and
 * the router leaves it alone.
 *
 * @module
 */
import { editsByStructure, type ToolKind } from "../tool_kinds.ts";
import type { EditShape, ShapeHunk } from "./types.ts";

export { bracketsBalance } from "../syntax/brackets.ts";

/**
 * Tools that already edit by structure (or only preview).
 *
 * @deprecated The router reads each tool's kind (`structural`, `derived`, `rewrite`, `plan`: see
 * {@linkcode editsByStructure}) instead of this list; kept for embedders that read it.
 */
export const STRUCTURAL_TOOLS: readonly string[] = Object.freeze([
  "edit_apply_node",
  "edit_insert_at_anchor",
  "replace_symbol",
  "remove_symbol",
  "insert_code",
  "edit_dry_run",
  "edit_rename_symbol",
  "edit_extract_function",
  "edit_change_signature",
  "edit_inline",
  "edit_move_decl",
  "edit_replace_text",
  "edit_rewrite_structural",
]);

const OLD_NAMES = ["old_text", "old_string", "old_str"] as const;
const NEW_NAMES = ["new_text", "new_string", "new_str"] as const;

/** The one string among `names` in `obj`, or undefined when none or several are given (or one is not a string). */
function one(obj: Readonly<Record<string, unknown>>, names: readonly string[]): string | undefined {
  const given = names.filter((n) => obj[n] !== undefined);
  if (given.length !== 1) return undefined;
  const v = obj[given[0]!];
  return typeof v === "string" ? v : undefined;
}

/** An old/new pair from an object spelling it old_text|old_string|old_str and new_text|new_string|new_str. */
function hunkOf(obj: unknown): ShapeHunk | null {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return null;
  const o = obj as Record<string, unknown>;
  const oldText = one(o, OLD_NAMES);
  const newText = one(o, NEW_NAMES);
  if (oldText === undefined || newText === undefined || oldText === "") return null;
  return { oldText, newText };
}

/** Options of {@linkcode recogniseEdit}. */
export interface RecogniseOptions {
  /** The files an edit text (apply_edits' `text`) edits, parsed by the caller. */
  editPaths?: readonly string[];
  /**
   * What the tool is (its definition's kind): structural, derived and plan tools are never read as a
   * freeform edit; `whole_file` reads `content` as a whole-file rewrite. Without it, the args decide.
   */
  kind?: ToolKind;
}

/**
 * The freeform edit a call makes, or null when the call is structural, not
 * an edit, or shaped in a way the router does not understand. The tool's
 * kind, not its name, says whether it edits by structure.
 *
 * @param _tool The tool name (its kind decides, not its name).
 * @param args Its (validated) args.
 * @param options `editPaths`: the files an edit text edits (parsed by the caller); `kind`: the tool's kind.
 * @returns The shape, or null.
 *
 * @example A str_replace call and a structural one
 * ```ts
 * import { recogniseEdit } from "./edit_shape.ts";
 * import assert from "node:assert/strict";
 *
 * const shape = recogniseEdit("edit_file", { path: "a.ts", old_string: "a", new_string: "b" });
 * assert.equal(shape?.kind, "str_replace");
 * const node = { path: "a.ts", selector: {}, new_text: "" };
 * assert.equal(recogniseEdit("edit_apply_node", node, { kind: "structural" }), null);
 * ```
 */
export function recogniseEdit(
  _tool: string,
  args: Readonly<Record<string, unknown>>,
  options: RecogniseOptions = {},
): EditShape | null {
  if (editsByStructure(options.kind)) return null;
  const path = args["path"];
  // An edit text names its files inside (SEARCH/REPLACE, a diff): the caller parsed them.
  if (typeof args["text"] === "string" && path === undefined) {
    const paths = options.editPaths ?? [];
    return paths.length > 0 ? { kind: "edit_text", paths: [...paths] } : null;
  }
  if (typeof path !== "string" || path === "") return null;
  if (writesWholeFile(options.kind, args)) {
    return typeof args["content"] === "string" ? { kind: "whole_file", path } : null;
  }
  if (Array.isArray(args["hunks"])) {
    const hunks = args["hunks"].map(hunkOf);
    if (hunks.length === 0 || hunks.some((h) => h === null)) return null;
    return { kind: "hunks", path, hunks: hunks as ShapeHunk[] };
  }
  const hunk = hunkOf(args);
  if (!hunk) return null;
  return { kind: "str_replace", path, hunk, replaceAll: args["replace_all"] === true };
}

/** Whether a call rewrites a whole file: its tool's kind says so, or, with no kind, a `content` argument does. */
function writesWholeFile(kind: ToolKind | undefined, args: Readonly<Record<string, unknown>>): boolean {
  return kind === undefined ? typeof args["content"] === "string" : kind === "whole_file";
}

/** Words that look like identifiers but are keywords in the languages rename is meant for. */
const KEYWORDS = new Set(
  ("abstract and as async await break case catch class const continue def default defer del do elif else enum " +
    "export extends false final finally fn for from func function go if impl implements import in instanceof " +
    "interface is let match mod mut new nil none not null or package private protected pub public return self " +
    "static struct super switch this throw throws true try type typeof undefined use var void while with yield")
    .split(" "),
);

// String literals and comments are single tokens: a word changed inside one is not a rename.
const TOKEN =
  /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|\/\/[^\n]*|\/\*[\s\S]*?\*\/|[\p{L}_$][\p{L}\p{N}_$]*|\s+|./gsu;
const IDENT = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/**
 * Whether one replacement reads like a symbol rename: the old and new text
 * differ only in occurrences of one identifier, every one of them renamed to
 * the same new identifier (keywords excluded; words inside string literals
 * and comments do not count).
 *
 * @param hunk The replacement.
 * @returns The old and new names, or null.
 *
 * @example
 * ```ts
 * import { renameOf } from "./edit_shape.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(renameOf({ oldText: "total(a, b)", newText: "sum(a, b)" }), { from: "total", to: "sum" });
 * assert.equal(renameOf({ oldText: "total(a, b)", newText: "total(a, c + 1)" }), null);
 * ```
 */
export function renameOf(hunk: ShapeHunk): { from: string; to: string } | null {
  const a = hunk.oldText.match(TOKEN) ?? [];
  const b = hunk.newText.match(TOKEN) ?? [];
  if (a.length !== b.length || a.length === 0) return null;
  let from: string | null = null;
  let to: string | null = null;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (x === y) continue;
    if (!IDENT.test(x) || !IDENT.test(y) || KEYWORDS.has(x) || KEYWORDS.has(y)) return null;
    if (from === null) [from, to] = [x, y];
    else if (x !== from || y !== to) return null;
  }
  return from !== null && to !== null ? { from, to } : null;
}
