/**
 * replace_symbol: replace a whole definition (signature and body) found by
 * name path — an adapter from the tool's arguments to the structural engine's
 * {@linkcode symbolReplacementEdit}.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { lineNumberAt, trimCode } from "../fs/lines.ts";
import { sourceEngine, symbolReplaceEngine, symbolTargetEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, STRING } from "./_result_schema.ts";

/** Arguments of replace_symbol. */
export interface ReplaceSymbolArgs {
  /** Relative path. */
  path: string;
  /** Name path of the symbol (e.g. "Class/method"). */
  name_path: string;
  /** The new definition, signature included (alias: `new_body`, the name this argument had first). */
  new_text: string;
  /** Version last read; refused with stale_base if the file moved on. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The replace_symbol tool. */
export const replaceSymbol: ToolDefinition<ReplaceSymbolArgs> = {
  name: "replace_symbol",
  description:
    "Replace a whole definition (function, method, class, struct, impl…) found by name path, e.g. 'Class/method', 'impl Display for Point/fmt', 'f[1]' for the second overload. new_text (alias new_body) is the complete new definition including its signature; it is re-indented to the destination. Keywords, decorators, annotations and attributes that new_text leaves out (export, Go 'type', Python decorators, Java @Override, C# [Attr], doc comments) are kept; to change them, include them in new_text. Use outline or find_symbol to see name paths.",
  inputSchema: objectSchema({
    path: PATH,
    name_path: {
      type: "string",
      minLength: 1,
      description: 'Name path of the symbol, e.g. "Outer/inner", "/Top", "f[1]"',
    },
    new_text: {
      type: "string",
      description: 'The complete new definition, signature included (alias: "new_body")',
    },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "name_path", "new_text"]),
  kind: "structural",
  mutates: true,
  // the same definition text again changes nothing
  behaviour: { idempotent: true },
  resultData: shape(
    {
      path: FILE_PATH,
      name_path: STRING,
      kind: STRING,
      start_line: INTEGER,
      end_line: INTEGER,
      unchanged: BOOLEAN,
    },
    ["path", "name_path"],
  ),
  aliases: { new_body: "new_text", target: "name_path", symbol: "name_path", code: "new_text" },
  async handler(args, { workspace, stage }) {
    const [{ applyTextEdits, stringLineFinder }, { symbolReplacementEdit }, { openSymbol }] = await Promise
      .all([
        sourceEngine(),
        symbolReplaceEngine(),
        symbolTargetEngine(),
      ]);
    const t = await openSymbol(workspace, stage, { ...args, tool: "replace_symbol" });
    const code = trimCode(args.new_text);
    if (code.trim() === "") {
      throw new RecoverableError("invalid_args", `Cannot replace "${t.symbol.name_path}" with empty code`, {
        hint: "Call remove_symbol to delete a definition",
        suggestedCall: { tool: "remove_symbol", args: { path: t.rel, name_path: t.symbol.name_path } },
        details: { path: t.rel, name_path: t.symbol.name_path },
      });
    }
    const lines = await stringLineFinder(workspace, t.language);
    let edit;
    try {
      edit = symbolReplacementEdit(t, code, lines);
    } finally {
      lines.dispose();
    }
    const text = applyTextEdits(t.text, [edit]);
    if (text === t.text) return { data: { path: t.rel, name_path: t.symbol.name_path, unchanged: true } };
    await stage.writeText(t.rel, { text, bom: t.bom });
    const startLine = lineNumberAt(t.text, edit.start);
    return {
      data: {
        path: t.rel,
        name_path: t.symbol.name_path,
        kind: t.symbol.kind,
        start_line: startLine,
        end_line: startLine + edit.text.split("\n").length - 1,
      },
    };
  },
};
