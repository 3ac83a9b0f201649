/**
 * Inserting code next to a definition found by name path, or at the start or
 * end of its body: on lines of its own (or, next to an item of a one-line
 * list, on that line), re-indented to its neighbours, with the gap the anchor
 * had to its neighbour, the comma a comma-separated list needs, after a C/C++
 * `struct S {...};`'s `;`, and after a Python docstring at `start_of_body`.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../errors.ts";
import { indentOfLine, lineEndAfter, lineStart, startsLine } from "../fs/lines.ts";
import { isComma, terminatorAfter } from "../syntax/tokens.ts";
import { definitionLevels } from "../syntax/symbols.ts";
import { blankLinesBetween, isDocstring, restIsTrivial } from "./_layout.ts";
import { bodyOf, intoEmptyBody } from "./anchors.ts";
import { reindent } from "./reindent.ts";
import { symbolTarget } from "./selectors.ts";
import type { TextEdit } from "./source.ts";
import { conventionalGap, type SymbolTarget } from "./symbol_target.ts";

/** Where insert_code puts the code. */
export type InsertPosition = "before" | "after" | "start_of_body" | "end_of_body";

interface Insertion {
  at: number;
  end: number;
  text: string;
  /** Where a list's last item gets the comma it lacks (before `at`), when the new item follows it. */
  commaAt?: number;
}

/** The blank lines between two nodes, at most two (the gap new code next to them takes). */
function gapBetween(text: string, a: Node, b: Node): number {
  return Math.min(blankLinesBetween(text, a.endIndex, b.startIndex), 2);
}

function place(t: SymbolTarget, code: string, indent: string): string {
  return reindent(code, { indent, eol: t.eol, unit: t.unit, ...t.codeLines });
}

/** A new list item on the anchor's line: `X, A` before it, `A, X` after it (after its comma, if it has one). */
function inlineItem(
  t: SymbolTarget,
  position: "before" | "after",
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

function insertion(t: SymbolTarget, position: InsertPosition, code: string): Insertion {
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
  if (position === "after") {
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
  const info = bodyOf(t, symbolTarget(t, t.symbol));
  if (!info) {
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
  const children = [...info.items];
  const listType = (info.container ?? info.node)?.type ?? "";
  const doc = children.length > 0 && isDocstring(t.language, children[0]!) ? children.shift()! : null;
  if (position === "start_of_body" && children.length > 0) {
    const first = children[0]!;
    // In a comma-separated body (enum members, object entries) the new first item brings its comma.
    const commaList = isComma(first.nextSibling) || t.rules.comma_lists?.includes(listType) === true;
    const item = commaList && !/,\s*$/.test(code) ? `${code.replace(/\s+$/, "")},` : code;
    if (startsLine(text, first.startIndex)) {
      const gap = children.length > 1 ? gapBetween(text, first, children[1]!) : 0;
      const at = lineStart(text, first.startIndex);
      return {
        at,
        end: at,
        text: place(t, item, indentOfLine(text, first.startIndex)) + eol + eol.repeat(gap),
      };
    }
    return { at: first.startIndex, end: first.startIndex, text: `${place(t, item, "").trim()} ` };
  }
  if (position === "start_of_body" && doc && children.length === 0) {
    const at = lineEndAfter(text, doc.endIndex);
    return { at, end: at, text: place(t, code, indentOfLine(text, doc.startIndex)) + eol };
  }
  if (position === "end_of_body" && (children.length > 0 || doc)) {
    const last = children.length > 0 ? children[children.length - 1]! : doc!;
    // After the last item of a comma-separated body: after its comma (the new item takes one too, as the
    // list does), or, when it has none, give it one.
    const comma = isComma(last.nextSibling) ? last.nextSibling : null;
    const listed = comma !== null || isComma(last.previousSibling) ||
      t.rules.comma_lists?.includes(listType) === true;
    const item = comma && !/,\s*$/.test(code) ? `${code.replace(/\s+$/, "")},` : code;
    const commaAt = listed && !comma ? last.endIndex : undefined;
    let end = comma ? comma.endIndex : last.endIndex;
    while (end > last.startIndex && /\s/.test(text[end - 1]!)) end--; // some grammars end a node after whitespace
    if (restIsTrivial(text, end)) {
      const prev = children.length > 1 ? children[children.length - 2]! : null;
      const gap = prev ? gapBetween(text, prev, last) : 0;
      const at = lineEndAfter(text, end);
      const lead = at === text.length && !text.endsWith("\n") ? eol : "";
      return {
        at,
        end: at,
        text: lead + eol.repeat(gap) + place(t, item, indentOfLine(text, last.startIndex)) + eol,
        ...(commaAt !== undefined ? { commaAt } : {}),
      };
    }
    // Something follows on the same line (`{ a, b }`): the new item goes right after, on that line.
    return {
      at: end,
      end,
      text: ` ${place(t, item, "").trim()}`,
      ...(commaAt !== undefined ? { commaAt } : {}),
    };
  }
  const edit = intoEmptyBody(t, info, {
    text: code,
    keep: t.codeLines?.keepLines,
    align: t.codeLines?.alignLines,
  });
  return { at: edit.start, end: edit.end, text: edit.text };
}

/**
 * Where and how the code goes, lists and terminators included: next to an item of a comma-separated list
 * (enum member, object entry) the new item brings its comma (or gives the anchor, the list's last item, the
 * one it lacks), and stays on the anchor's line when the list is written on one line; after a C/C++
 * `struct S {...};` it goes after the `;`.
 */
function placement(t: SymbolTarget, position: InsertPosition, code: string): Insertion {
  const list = position === "before" || position === "after" ? listSeparators(t) : null;
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
  if (inline) return inlineItem(t, position as "before" | "after", code, list.after);
  const withComma = /,\s*$/.test(code) ? code : `${code.replace(/\s+$/, "")},`;
  if (position === "before") return insertion(t, position, withComma);
  if (list.after) return insertion(endAt(list.after.endIndex), position, withComma);
  return { ...insertion(t, position, code), commaAt: t.symbol.full_range.end_utf16 };
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
  const ins = placement(t, position, code);
  const leadingBreaks = /^(?:\r?\n)*/.exec(ins.text)![0].split("\n").length - 1;
  const line = t.text.slice(0, ins.at).split("\n").length + leadingBreaks;
  if (ins.commaAt !== undefined && ins.commaAt <= ins.at) {
    // The list's last item gets the comma it lacks: one edit from there, the text between kept.
    const between = t.text.slice(ins.commaAt, ins.at);
    return { edit: { start: ins.commaAt, end: ins.end, text: `,${between}${ins.text}` }, line };
  }
  return { edit: { start: ins.at, end: ins.end, text: ins.text }, line };
}
