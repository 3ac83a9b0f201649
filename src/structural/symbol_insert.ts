/**
 * Inserting code next to a definition found by name path, or at the start or
 * end of its body. Next to it: on lines of its own (or, next to an item of a
 * one-line list, on that line), re-indented to its neighbours, with the gap the
 * anchor had to its neighbour, the comma a comma-separated list needs, after a
 * C/C++ `struct S {...};`'s `;`. Inside its body: the anchor's
 * {@linkcode insertionEdit}, one-line bodies kept on their line.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../errors.ts";
import { indentOfLine, lineEndAfter, lineStart, startsLine } from "../fs/lines.ts";
import { isComma, terminatorAfter } from "../syntax/tokens.ts";
import { definitionLevels } from "../syntax/symbols.ts";
import { restIsTrivial } from "./_layout.ts";
import { bodyOf, insertionEdit } from "./anchors.ts";
import { reindent } from "./reindent.ts";
import { symbolTarget } from "./selectors.ts";
import type { TextEdit } from "./source.ts";
import { conventionalGap, type SymbolTarget } from "./symbol_target.ts";

/** Where insert_code puts the code. */
export type InsertPosition = "before" | "after" | "start_of_body" | "end_of_body";

/** The positions next to a symbol (the others are inside its body). */
type Beside = "before" | "after";

interface Insertion {
  at: number;
  end: number;
  text: string;
  /** Where a list's last item gets the comma it lacks (before `at`), when the new item follows it. */
  commaAt?: number;
}

function place(t: SymbolTarget, code: string, indent: string): string {
  return reindent(code, { indent, eol: t.eol, unit: t.unit, ...t.codeLines });
}

/** A new list item on the anchor's line: `X, A` before it, `A, X` after it (after its comma, if it has one). */
function inlineItem(
  t: SymbolTarget,
  position: Beside,
  code: string,
  comma: Node | null,
): Insertion {
  const item = code.trim().replace(/[,;]$/, "");
  if (position === "before") {
    const at = t.symbol.full_range.start_utf16;
    return { at, end: at, text: `${item}, ` };
  }
  if (comma) return { at: comma.endIndex, end: comma.endIndex, text: ` ${item},` };
  const at = t.symbol.full_range.end_utf16;
  return { at, end: at, text: `, ${item}` };
}

/** The commas around a symbol that is an item of a comma-separated list; null when it is not one. */
function listSeparators(t: SymbolTarget): { after: Node | null } | null {
  const outer = outerNode(t);
  const next = outer.nextSibling;
  if (isComma(next)) return { after: next };
  if (isComma(outer.previousSibling)) return { after: null };
  // The only item of a container the language separates with commas (a JS object with one entry).
  return outer.parent && t.rules.comma_lists?.includes(outer.parent.type) ? { after: null } : null;
}

function outerNode(t: SymbolTarget): Node {
  const levels = definitionLevels(t.node, t.rules);
  return levels[levels.length - 1]!;
}

function insertion(t: SymbolTarget, position: Beside, code: string): Insertion {
  const text = t.text;
  const eol = t.eol;
  if (position === "before") {
    const anchor = t.symbol.full_range.start_utf16;
    const indent = indentOfLine(text, anchor);
    if (!startsLine(text, anchor)) {
      return { at: anchor, end: anchor, text: `${place(t, code, "").trimStart()} ` };
    }
    const gap = conventionalGap(t, "prev");
    const at = lineStart(text, anchor);
    return { at, end: at, text: place(t, code, indent) + eol + eol.repeat(gap) };
  }
  {
    const anchor = t.symbol.full_range.end_utf16;
    const indent = indentOfLine(text, t.symbol.full_range.start_utf16);
    if (!restIsTrivial(text, anchor)) {
      return { at: anchor, end: anchor, text: `${eol}${place(t, code, indent)}` };
    }
    const gap = conventionalGap(t, "next");
    const at = lineEndAfter(text, anchor);
    if (at === text.length && !text.endsWith("\n")) {
      return { at, end: at, text: eol + eol.repeat(gap) + place(t, code, indent) };
    }
    return { at, end: at, text: eol.repeat(gap) + place(t, code, indent) + eol };
  }
}

/**
 * Where and how the code goes, lists and terminators included: next to an item of a comma-separated list
 * (enum member, object entry) the new item brings its comma (or gives the anchor, the list's last item, the
 * one it lacks), and stays on the anchor's line when the list is written on one line; after a C/C++
 * `struct S {...};` it goes after the `;`.
 */
function placement(t: SymbolTarget, position: Beside, code: string): Insertion {
  const list = listSeparators(t);
  const endAt = (end: number): SymbolTarget => ({
    ...t,
    symbol: { ...t.symbol, full_range: { ...t.symbol.full_range, end_utf16: end } },
  });
  if (!list) {
    const semi = position === "after" ? terminatorAfter(outerNode(t)) : null;
    return insertion(semi ? endAt(semi.endIndex) : t, position, code);
  }
  const inline =
    !(position === "before"
      ? startsLine(t.text, t.symbol.full_range.start_utf16)
      : restIsTrivial(t.text, list.after ? list.after.endIndex : t.symbol.full_range.end_utf16, false));
  if (inline) return inlineItem(t, position, code, list.after);
  const withComma = /,\s*$/.test(code) ? code : `${code.replace(/\s+$/, "")},`;
  if (position === "before") return insertion(t, position, withComma);
  if (list.after) return insertion(endAt(list.after.endIndex), position, withComma);
  return { ...insertion(t, position, code), commaAt: t.symbol.full_range.end_utf16 };
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
  return insertionEdit(t, target, position, code, {
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
  const ins = placement(t, position, code);
  const edit = ins.commaAt !== undefined && ins.commaAt <= ins.at
    // The list's last item gets the comma it lacks: one edit from there, the text between kept.
    ? { start: ins.commaAt, end: ins.end, text: `,${t.text.slice(ins.commaAt, ins.at)}${ins.text}` }
    : { start: ins.at, end: ins.end, text: ins.text };
  return withLine(t, code, edit);
}

/** An edit with the 1-based line where the code's first line lands in the edited text. */
function withLine(t: SymbolTarget, code: string, edit: TextEdit): { edit: TextEdit; line: number } {
  // The code's first line, found by its text (placing only re-indents it; a comma may come first).
  const firstLine = code.trim().split("\n")[0]!.trim();
  const lead = edit.text.slice(0, Math.max(0, edit.text.indexOf(firstLine)));
  const line = t.text.slice(0, edit.start).split("\n").length + lead.split("\n").length - 1;
  return { edit, line };
}
