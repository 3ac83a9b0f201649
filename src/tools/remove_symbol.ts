/**
 * remove_symbol: delete a definition found by name path, with its attached
 * doc comments, decorators and attributes (unless told to keep the docs), and
 * the blank lines that separated it — the structural engine's one removal
 * ({@linkcode removalEdit}) of the symbol's node.
 *
 * @module
 */
import { nodeEditEngine, selectorEngine, sourceEngine, symbolsEngine, symbolTargetEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { SymbolInfo } from "../syntax/symbols.ts";
import type { ToolDefinition } from "./types.ts";
import { FILE_PATH, shape, TARGET } from "./_result_schema.ts";

/** Arguments of remove_symbol. */
export interface RemoveSymbolArgs {
  /** Relative path. */
  path: string;
  /** Name path of the symbol. */
  name_path: string;
  /** Also remove the attached doc comments (default true; decorators and attributes always go with the definition). */
  with_decorations?: boolean;
  /** Version last read; refused with stale_base if the file moved on. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** Wire form of a symbol location for results. */
function symbolLocation(s: SymbolInfo): Record<string, unknown> {
  return {
    name_path: s.name_path,
    kind: s.kind,
    start_line: s.full_range.start_line,
    end_line: s.full_range.end_line,
  };
}
/** The remove_symbol tool. */
export const removeSymbol: ToolDefinition<RemoveSymbolArgs> = {
  name: "remove_symbol",
  description:
    "Delete a definition found by name path (e.g. 'Class/method'), with its decorators, attributes and doc comments (with_decorations false keeps the doc comments; decorators always go, since left behind they would decorate the next definition) and the blank lines that separated it. Use outline or find_symbol to see name paths.",
  inputSchema: objectSchema({
    path: PATH,
    name_path: { type: "string", minLength: 1, description: 'Name path of the symbol, e.g. "Outer/inner"' },
    with_decorations: {
      type: "boolean",
      description:
        "Also remove the attached doc comments (default true); decorators and attributes always go with the definition",
    },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "name_path"]),
  aliases: { target: "name_path", symbol: "name_path" },
  kind: "structural",
  mutates: true,
  // a removed symbol is not found twice
  behaviour: { idempotent: true },
  resultData: shape({ path: FILE_PATH, removed: TARGET }, ["path", "removed"]),
  async handler(args, { workspace, stage }) {
    const [
      { emptiedBodyFiller, removalEdit },
      { decorationsStart, symbolTarget },
      { applyTextEdits },
      { definitionLevels },
      { openSymbol },
    ] = await Promise.all([
      nodeEditEngine(),
      selectorEngine(),
      sourceEngine(),
      symbolsEngine(),
      symbolTargetEngine(),
    ]);
    const t = await openSymbol(workspace, stage, { ...args, tool: "remove_symbol" });
    const target = symbolTarget(t, t.symbol);
    // Decorators and attributes go with what they decorate (left behind, they would decorate the next
    // definition); with_decorations false keeps only the doc comments above them.
    const outer = definitionLevels(t.node, t.rules).at(-1)!;
    if (args.with_decorations === false) target.fullStart = decorationsStart(outer, t.rules);
    const edit = removalEdit(t, target);
    await stage.writeText(t.rel, { text: applyTextEdits(t.text, [edit]), bom: t.bom });
    // The only statement of a Python body gives way to `pass` (an empty body is not Python).
    const filler = emptiedBodyFiller(outer, t.language);
    const filled = filler !== null && edit.text.trim() === filler;
    return {
      data: { path: t.rel, removed: symbolLocation(t.symbol), ...(filled ? { filled_with: filler } : {}) },
    };
  },
};
