/**
 * Argument schemas and glue shared by the structural tools (edit_apply_node,
 * edit_insert_at_anchor): the selector schema, definition starts from the
 * outline, and how results describe what changed.
 *
 * @module
 */
import type { JsonSchema } from "../tools/types.ts";
import { flattenSymbols, outlineOf, TextIndex } from "../syntax/symbols.ts";
import type { Parsing } from "../syntax/types.ts";
import { type DefinitionStarts, spacedKind } from "./_layout.ts";
import type { SourceFile, TextEdit } from "./source.ts";

/** The selector argument: a name path string, or an object with one of name_path, query, pattern. */
export const SELECTOR: JsonSchema = {
  type: ["string", "object"],
  minLength: 1,
  description:
    'What to edit. A name path string ("Class/method", "/top_level", "name[1]" for the 2nd overload), or one of: {"name_path": "...", "substring": true}; {"pattern": "console.log($$$ARGS)"} — code with $X for one node, $$$X for any number, $_ for an unnamed one; {"query": "(call_expression) @call", "capture": "call"} — a tree-sitter query. Add "within": "Class/method" to a pattern or query to match only inside that symbol',
  properties: {
    name_path: { type: "string", minLength: 1 },
    substring: { type: "boolean" },
    query: { type: "string", minLength: 1 },
    capture: { type: "string", minLength: 1 },
    pattern: { type: "string", minLength: 1 },
    within: { type: "string", minLength: 1, description: "Only matches inside this symbol (name path)" },
  },
  additionalProperties: false,
};

/** The select argument. */
export const SELECT: JsonSchema = {
  type: "string",
  enum: ["unique", "first", "all", "nth"],
  description:
    'Which matches to edit: "unique" (default: refuse with every candidate when several match), "first", "all", or "nth" with n',
};

/** The n argument. */
export const NTH: JsonSchema = {
  type: "integer",
  minimum: 1,
  description: 'With select "nth": which match, 1-based in document order',
};

/**
 * Start offsets of the file's definitions (functions, classes, methods …, not
 * variables or fields), or null when the language has no outline.
 */
export async function definitionStarts(ws: Parsing, file: SourceFile): Promise<DefinitionStarts | null> {
  try {
    const outline = await outlineOf(ws, file.rel, file.text, file.version);
    const out: DefinitionStarts = new Set();
    for (const s of flattenSymbols(outline.symbols)) {
      if (!spacedKind(s.kind)) continue;
      out.add(s.range.start_utf16);
      out.add(s.full_range.start_utf16);
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * Where each edit's new text lies in the edited file (1-based lines).
 *
 * @param before The text before.
 * @param edits The edits applied.
 * @returns One line range per edit, in document order.
 */
export function editedLines(before: string, edits: TextEdit[]): { start_line: number; end_line: number }[] {
  const index = new TextIndex(before);
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let delta = 0;
  return sorted.map((e) => {
    const lead = e.text.length - e.text.replace(/^(?:\r?\n)+/, "").length;
    const leadLines = e.text.slice(0, lead).split("\n").length - 1;
    const body = e.text.slice(lead).replace(/(?:\r?\n)+[ \t]*$/, "");
    const startLine = index.line(e.start) + delta + leadLines;
    const lines = body === "" ? 0 : body.split("\n").length;
    const removed = before.slice(e.start, e.end).split("\n").length - 1;
    delta += e.text.split("\n").length - 1 - removed;
    return { start_line: startLine, end_line: Math.max(startLine, startLine + lines - 1) };
  });
}
