/**
 * What the structural tools (edit_apply_node, edit_insert_at_anchor) share on
 * the tool side: the selector, select and n argument schemas, opening the
 * file and resolving the selector from the call's arguments (a retry call
 * repeats them with the fix), and how results describe the edited lines.
 *
 * @module
 */
import { rowOf } from "../fs/lines.ts";
import type { Stage } from "../fs/stage.ts";
import type { SourceFile, TextEdit } from "../structural/edit/source.ts";
import type { Selection, SelectMode, Selector } from "../structural/edit/selectors.ts";
import { TextIndex } from "../syntax/text_index.ts";
import type { Parsing } from "../syntax/types.ts";
import type { JsonSchema } from "./types.ts";
import { selectorEngine, sourceEngine } from "./_lazy.ts";

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

/** The arguments every structural tool takes. */
export interface StructuralArgs {
  /** Relative path. */
  path: string;
  /** Name path, query or pattern. */
  selector: Selector;
  /** unique (default) | first | all | nth. */
  select?: SelectMode;
  /** With nth: 1-based. */
  n?: number;
  /** Version last read; refused with stale_base if the file moved on. */
  expected_version?: string;
}

/**
 * Open the file of a structural tool call and resolve its selector.
 *
 * @param ws The workspace.
 * @param stage The call's stage.
 * @param tool The tool's name (for messages and retry calls).
 * @param args The call's arguments (a retry call repeats them with the fix).
 * @returns The parsed file and the selection; `unsupported_language`, `stale_base`, `no_match`, `ambiguous` … otherwise.
 */
export async function openSelection(
  ws: Parsing,
  stage: Stage,
  tool: string,
  args: StructuralArgs,
): Promise<{ file: SourceFile; selection: Selection }> {
  const [{ loadSource }, { selectTargets }] = await Promise.all([sourceEngine(), selectorEngine()]);
  const file = await loadSource(ws, stage, { path: args.path, tool, expectedVersion: args.expected_version });
  const selection = await selectTargets(ws, file, {
    selector: args.selector,
    select: args.select,
    n: args.n,
    retry: (extra) => ({ tool, args: { ...args, path: file.rel, ...extra } }),
  });
  return { file, selection };
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
    const leadLines = rowOf(e.text, lead);
    const body = e.text.slice(lead).replace(/(?:\r?\n)+[ \t]*$/, "");
    const startLine = index.line(e.start) + delta + leadLines;
    const lines = body === "" ? 0 : body.split("\n").length;
    const removed = rowOf(before, e.end, e.start);
    delta += e.text.split("\n").length - 1 - removed;
    return { start_line: startLine, end_line: Math.max(startLine, startLine + lines - 1) };
  });
}
