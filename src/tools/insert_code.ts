/**
 * insert_code: insert code before or after a definition found by name path,
 * or at the start or end of its body — an adapter from the tool's arguments to
 * the structural engine's {@linkcode symbolInsertionEdit}. Removing the code
 * again with remove_symbol restores the original bytes.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { trimCode } from "../fs/lines.ts";
import { lineEndingAt } from "../fs/text.ts";
import type { InsertPosition } from "../structural/edit/symbol_insert.ts";
import { sourceEngine, symbolInsertEngine, symbolTargetEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { FILE_PATH, INTEGER, shape, STRING } from "./_result_schema.ts";

/** Arguments of insert_code. */
export interface InsertCodeArgs {
  /** Relative path. */
  path: string;
  /** Name path of the anchor symbol. */
  name_path: string;
  /** before | after the symbol, or start_of_body | end_of_body inside it. */
  position: InsertPosition;
  /** The code to insert. */
  code: string;
  /** Version last read; refused with stale_base if the file moved on. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The insert_code tool. */
export const insertCode: ToolDefinition<InsertCodeArgs> = {
  name: "insert_code",
  description:
    "Insert code next to a definition found by name path: before or after it, or at the start or end of its body (e.g. a new method at end_of_body of a class). The code goes on its own lines, re-indented to its neighbours, with their blank-line convention. Use outline or find_symbol to see name paths.",
  inputSchema: objectSchema({
    path: PATH,
    name_path: {
      type: "string",
      minLength: 1,
      description: 'Name path of the anchor symbol, e.g. "Class" or "Class/method"',
    },
    position: {
      type: "string",
      enum: ["before", "after", "start_of_body", "end_of_body"],
      description: "before | after the symbol, or start_of_body | end_of_body inside it",
    },
    code: {
      type: "string",
      minLength: 1,
      description: "The code to insert (any indentation; it is re-indented)",
    },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "name_path", "position", "code"]),
  kind: "structural",
  mutates: true,
  // inserting adds code and never replaces any; a second call adds it again
  behaviour: { destructive: false },
  resultData: shape(
    { path: FILE_PATH, anchor: STRING, position: STRING, start_line: INTEGER, end_line: INTEGER },
    ["path", "anchor", "position"],
  ),
  aliases: { text: "code", target: "name_path", new_text: "code" },
  async handler(args, { workspace, stage }) {
    const [{ applyTextEdits, codeLineRoles }, { symbolInsertionEdit }, { openSymbol }] = await Promise.all([
      sourceEngine(),
      symbolInsertEngine(),
      symbolTargetEngine(),
    ]);
    const t = await openSymbol(workspace, stage, { ...args, tool: "insert_code" });
    const code = trimCode(args.code);
    t.codeLines = await codeLineRoles(workspace, t.language, code);
    if (code.trim() === "") {
      throw new RecoverableError("invalid_args", "Cannot insert empty code", {
        hint: "Pass the code to insert in code",
        details: { path: t.rel },
      });
    }
    // In a file that mixes CRLF and LF, the new lines take the anchor's own line ending.
    const r = t.symbol.full_range;
    const near = args.position === "after" || args.position === "end_of_body"
      ? Math.max(r.start_utf16, r.end_utf16 - 1)
      : r.start_utf16;
    t.eol = lineEndingAt(t.text, near, t.eol);
    const { edit, line: startLine } = symbolInsertionEdit(t, args.position, code);
    const text = applyTextEdits(t.text, [edit]);
    await stage.writeText(t.rel, { text, bom: t.bom });
    return {
      data: {
        path: t.rel,
        anchor: t.symbol.name_path,
        position: args.position,
        start_line: startLine,
        end_line: startLine + code.split("\n").length - 1,
      },
    };
  },
};
