/**
 * Inserting code next to a definition found by name path, or at the start or
 * end of its body: the anchor's rules ({@linkcode besidePlacement} next to it,
 * with the gap the symbol has to its neighbour; {@linkcode insertionEdit}
 * inside its body, one-line bodies kept on their line).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { indentOfLine } from "../../fs/lines.ts";
import { definitionLevels } from "../../syntax/symbols.ts";
import { besidePlacement, bodyOf, insertionEdit } from "./anchors.ts";
import { symbolTarget } from "./selectors.ts";
import type { TextEdit } from "./source.ts";
import { conventionalGap, type SymbolTarget } from "./symbol_target.ts";

/** Where insert_code puts the code. */
export type InsertPosition = "before" | "after" | "start_of_body" | "end_of_body";

function outerNode(t: SymbolTarget): Node {
  const levels = definitionLevels(t.node, t.rules);
  return levels[levels.length - 1]!;
}

/** Code next to the symbol: the anchor's placement rule, with the gap the symbol has to its neighbour. */
function besideSymbol(t: SymbolTarget, position: "before" | "after", code: string): TextEdit {
  const range = t.symbol.full_range;
  const gap = conventionalGap(t, position === "before" ? "prev" : "next");
  const lines = t.codeLines;
  return besidePlacement(
    t,
    { outer: outerNode(t), start: range.start_utf16, end: range.end_utf16 },
    {
      position,
      code: { text: code, keep: lines?.keepLines, align: lines?.alignLines, inline: position === "before" },
      indent: indentOfLine(t.text, range.start_utf16),
      blank: position === "before" ? { above: 0, below: gap } : { above: gap, below: 0 },
    },
  );
}

/**
 * Code at the start or end of a symbol's body: the anchor's {@linkcode insertionEdit}, with one-line bodies
 * kept on their line; `invalid_args` for a symbol without a body.
 */
function intoBody(t: SymbolTarget, position: "start_of_body" | "end_of_body", code: string): TextEdit {
  const target = symbolTarget(t, t.symbol);
  if (!bodyOf(t, target)) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot insert at ${position} of "${t.symbol.name_path}" in "${t.rel}": it has no body`,
      {
        hint: 'Use position "before" or "after" to insert next to it',
        suggestedCall: {
          tool: "insert_code",
          args: { path: t.rel, name_path: t.symbol.name_path, position: "after", code },
        },
        details: { path: t.rel, name_path: t.symbol.name_path, kind: t.symbol.kind },
      },
    );
  }
  const lines = t.codeLines;
  return insertionEdit(t, target, {
    position,
    rawCode: code,
    defs: t.defs,
    ...(lines ? { keepLines: () => lines.keepLines, alignLines: () => lines.alignLines } : {}),
    inline: true,
  });
}

/**
 * The edit that inserts code at a position of a symbol.
 *
 * @param t The anchor symbol (its `codeLines` set for the code, its `eol` the anchor's line ending).
 * @param position before | after the symbol, or start_of_body | end_of_body inside it.
 * @param code The code, trimmed.
 * @returns The edit, and where the code's first line lands (`line`: 1-based, in the edited text); `invalid_args`
 *   for a body position of a symbol without a body.
 */
export function symbolInsertionEdit(
  t: SymbolTarget,
  position: InsertPosition,
  code: string,
): { edit: TextEdit; line: number } {
  if (position === "start_of_body" || position === "end_of_body") {
    return withLine(t, code, intoBody(t, position, code));
  }
  return withLine(t, code, besideSymbol(t, position, code));
}

/** An edit with the 1-based line where the code's first line lands in the edited text. */
function withLine(t: SymbolTarget, code: string, edit: TextEdit): { edit: TextEdit; line: number } {
  // The code's first line, found by its text (placing only re-indents it; a comma may come first).
  const firstLine = code.trim().split("\n")[0]!.trim();
  const lead = edit.text.slice(0, Math.max(0, edit.text.indexOf(firstLine)));
  const line = t.text.slice(0, edit.start).split("\n").length + lead.split("\n").length - 1;
  return { edit, line };
}
