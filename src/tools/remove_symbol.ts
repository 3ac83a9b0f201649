/**
 * remove_symbol: delete a definition found by name path, with its attached
 * doc comments, decorators and attributes (unless told to keep them), and
 * the blank lines that separated it, so no stray blank lines remain.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import {
  blankLinesAbove,
  blankLinesBelow,
  indentOfLine,
  lineEndAfter,
  lineStart,
  startsLine,
} from "../fs/lines.ts";
import { emptiedBodyFiller } from "../structural/node_edit.ts";
import { isComma, terminatorAfter } from "../syntax/_tokens.ts";
import { definitionLevels } from "../syntax/symbols.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import {
  decorationsStart,
  endsLine,
  lastInBlock,
  openSymbol,
  symbolLocation,
  type SymbolTarget,
} from "./_symbol_edit.ts";
import type { ToolDefinition } from "./types.ts";

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

/** Where a removal that keeps the doc comments starts: at the first decorator or attribute, else the definition. */
function startWithoutDecorations(t: SymbolTarget): number {
  // Decorators and attributes go with what they decorate (left behind, they would decorate the next
  // definition); only the doc comments above them stay.
  return decorationsStart(definitionLevels(t.node, t.rules).at(-1)!, t.rules);
}

/**
 * The span to delete for a symbol span [start, end): whole lines plus the
 * blank lines that separated it (below it, or above it when it is the last
 * thing in its block).
 *
 * @param text The file text.
 * @param start Start offset (UTF-16).
 * @param end End offset (UTF-16).
 * @returns The span to delete.
 */
export function removalSpan(text: string, start: number, end: number): { start: number; end: number } {
  if (!startsLine(text, start) || !endsLine(text, end)) {
    let e = end;
    while (e < text.length && (text[e] === " " || text[e] === "\t")) e++;
    return { start, end: e };
  }
  const ls = lineStart(text, start);
  const le = lineEndAfter(text, end);
  const indent = indentOfLine(text, start);
  if (!lastInBlock(text, le, indent)) return { start: ls, end: blankLinesBelow(text, le).to };
  let from = blankLinesAbove(text, ls).from;
  if (le === text.length && !text.endsWith("\n") && from > 0) {
    // The symbol ended the file without a final newline: keep it that way.
    from -= from >= 2 && text[from - 2] === "\r" ? 2 : 1;
  }
  return { start: from, end: le };
}

/** Where the removal ends: after the comma that follows a list item, or the `;` that ends a C/C++ struct. */
function endWithSeparator(t: SymbolTarget, outer: Node): number {
  const next = outer.nextSibling;
  if (isComma(next)) return next.endIndex;
  return terminatorAfter(outer)?.endIndex ?? t.symbol.full_range.end_utf16;
}

/**
 * The text without the symbol's span [start, end) (whole lines and the blank lines that separated it): a list's
 * last item also takes the comma before it (`a, b` → `a`, one item per line or all on one).
 */
function withoutSymbol(t: SymbolTarget, outer: Node, start: number, end: number): string {
  const prev = outer.previousSibling;
  const comma = isComma(prev) && end === t.symbol.full_range.end_utf16 ? prev : null;
  if (comma && !startsLine(t.text, start) && /^[ \t]*$/.test(t.text.slice(comma.endIndex, start))) {
    return t.text.slice(0, comma.startIndex) + t.text.slice(end); // on one line: ", b" goes
  }
  const span = removalSpan(t.text, start, end);
  const text = t.text.slice(0, span.start) + t.text.slice(span.end);
  return comma && comma.endIndex <= span.start
    ? text.slice(0, comma.startIndex) + text.slice(comma.endIndex)
    : text;
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
  mutates: true,
  async handler(args, { workspace, stage }) {
    const t = await openSymbol(workspace, stage, { ...args, tool: "remove_symbol" });
    const start = args.with_decorations === false
      ? startWithoutDecorations(t)
      : t.symbol.full_range.start_utf16;
    const outer = definitionLevels(t.node, t.rules).at(-1)!;
    // The only statement of a Python body gives way to `pass` (an empty body is not Python).
    const filler = emptiedBodyFiller(outer, t.language);
    const end = endWithSeparator(t, outer);
    if (filler !== null && startsLine(t.text, start) && endsLine(t.text, end)) {
      const from = lineStart(t.text, start);
      const to = lineEndAfter(t.text, end);
      const text = `${t.text.slice(0, from)}${indentOfLine(t.text, start)}${filler}${t.eol}${
        t.text.slice(to)
      }`;
      await stage.writeText(t.rel, { text, bom: t.bom });
      return { data: { path: t.rel, removed: symbolLocation(t.symbol), filled_with: filler } };
    }
    const text = withoutSymbol(t, outer, start, end);
    await stage.writeText(t.rel, { text, bom: t.bom });
    return { data: { path: t.rel, removed: symbolLocation(t.symbol) } };
  },
};
