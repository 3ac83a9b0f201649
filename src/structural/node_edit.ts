/**
 * Node edits: replace a selected node with new code (re-indented to where the
 * node sits, without eating its neighbours or duplicating its wrapper's
 * keyword) or remove it with its decorations and doc comments, leaving the
 * blank lines as they were before such a node was added.
 *
 * @module
 */
import {
  blankLinesAbove,
  blankLinesBelow,
  columnsOf,
  indentOfLine,
  lineStart,
  nextLineStart,
  startsLine,
} from "../fs/lines.ts";
import { restIsTrivial, siblingsOf } from "./_layout.ts";
import { copiedFrom, reindent } from "./reindent.ts";
import type { Target } from "./selectors.ts";
import { type SourceFile, type TextEdit, type TextLines, withIndentUnit } from "./source.ts";
import type { Node } from "web-tree-sitter";
import { isComma } from "../syntax/_tokens.ts";
import { symbolRules } from "../syntax/queries.ts";

function firstWord(s: string): string {
  return /^\s*([^\s(){}[\]<>:;,]+)/.exec(s)?.[1] ?? "";
}

/** The first marker of leading trivia: `@`, `#[`, `[`, `///`, `/**`, `//`, `#`, `--`. */
function leadMarker(s: string): string {
  const t = s.trimStart();
  return /^(?:#\[|\/\/\/|\/\*\*|\/\/|\/\*|--|[@#[])/.exec(t)?.[0] ?? "";
}

/**
 * The span a replacement covers: the node itself, widened to its decorations
 * and doc comments when the new code brings its own, and to a wrapper (Go
 * `type`, `export`) when the new code starts with the wrapper's keyword.
 *
 * @param file The source file.
 * @param target The selected node.
 * @param newText The replacement as given.
 * @returns Start and end offsets (UTF-16).
 */
export function replacementSpan(
  file: SourceFile,
  target: Target,
  newText: string,
): { start: number; end: number } {
  const { text } = file;
  let start = target.start;
  let end = target.end;
  const lead = text.slice(target.fullStart, target.start);
  const marker = leadMarker(newText);
  if (lead.trim() !== "" && marker !== "" && leadMarker(lead) === marker) start = target.fullStart;
  const word = firstWord(newText);
  if (word !== "" && word !== firstWord(text.slice(start, end))) {
    for (let up = target.node.parent; up && up.parent; up = up.parent) {
      if (up.startIndex < target.fullStart || up.endIndex > Math.max(target.fullEnd, end)) break;
      if (firstWord(text.slice(up.startIndex, up.endIndex)) === word) {
        start = Math.min(start, up.startIndex);
        end = Math.max(end, up.endIndex);
        break;
      }
    }
  }
  // New code ending with the `;` that follows the node (outside it) replaces that `;` too.
  const semi = /;\s*$/.test(newText) ? /^[ \t]*;/.exec(text.slice(end)) : null;
  if (semi) end += semi[0].length;
  return { start, end };
}

/**
 * The statement that must replace `node` when removing it would leave its
 * body empty in a language that refuses empty bodies (Python's `pass`), or
 * null. `node` may be a statement or a definition inside a wrapper.
 *
 * @param node The node being removed (its outermost wrapper is looked at).
 * @param language Language id.
 * @returns The filler, or null.
 */
export function emptiedBodyFiller(node: Node, language: string): string | null {
  const rules = symbolRules(language);
  const empty = rules.empty_body;
  if (!empty) return null;
  if (empty.types.includes(node.type)) return empty.filler; // the whole body (it spans just its one statement)
  let item = node;
  while (item.parent && !empty.types.includes(item.parent.type) && item.parent.parent) {
    if (item.parent.namedChildren.filter((c) => c !== null && !rules.comments.includes(c.type)).length > 1) {
      return null; // the node shares its wrapper with others: the body keeps them
    }
    item = item.parent;
  }
  const body = item.parent;
  if (!body || !empty.types.includes(body.type)) return null;
  const others = body.namedChildren.filter((c) =>
    c !== null && c.id !== item.id && !rules.comments.includes(c.type)
  );
  return others.length === 0 ? empty.filler : null;
}

/**
 * The edit that replaces a selected node. An empty replacement removes the
 * node (see {@linkcode removalEdit}).
 *
 * @param file The source file.
 * @param target The selected node.
 * @param newText The new code (any indentation: it is re-indented to the node's line).
 * @param options `keepLines`: lines of the code to keep as they are (multi-line string content);
 *   `alignLines`: lines that move with the code keeping their spacing (docstring and comment text).
 * @returns The text edit.
 */
export function replacementEdit(
  source: SourceFile,
  target: Target,
  newText: string,
  options: Partial<TextLines> = {},
): TextEdit {
  if (newText.trim() === "") return removalEdit(source, target);
  const file = withIndentUnit(source, newText);
  const { start, end } = replacementSpan(file, target, newText);
  const code = newText.replace(/^(?:[ \t]*\r?\n)+/, "").replace(/\s+$/, "");
  const indent = indentOfLine(file.text, start);
  const keep = options.keepLines?.(code);
  const align = options.alignLines?.(code);
  // Code whose later lines sit where the replaced text's do was copied from there: its first line is at `indent`.
  const copied = copiedFrom(code, file.text.slice(start, end));
  const placed = reindent(code, {
    indent,
    eol: file.eol,
    unit: file.unit,
    indentFirstLine: false,
    ...(keep ? { keepLines: keep } : {}),
    ...(align ? { alignLines: align } : {}),
    ...(copied
      ? { firstColumn: columnsOf(indent) }
      : options.firstColumn !== undefined
      ? { firstColumn: options.firstColumn }
      : {}),
    ...(options.codeUnit !== undefined && file.unit !== "" ? { codeUnit: options.codeUnit } : {}),
  });
  return { start, end, text: placed };
}

/**
 * The edit that removes a selected node with its decorations and attached
 * doc comments. Whole lines go when the node stands on lines of its own; the
 * blank lines left around it are reduced to what separated its neighbours
 * (so inserting then removing a node gives back the original bytes).
 *
 * @param file The source file.
 * @param target The selected node.
 * @returns The text edit.
 */
export function removalEdit(file: SourceFile, target: Target): TextEdit {
  const edit = removalSpanEdit(file, target);
  // A list item goes with its separator: the comma after it, or, for the last item, the comma before it.
  const outer = outermostAt(target.node);
  const next = outer.nextSibling;
  const prev = outer.previousSibling;
  const { text } = file;
  if (
    isComma(next) && next.startIndex >= target.fullEnd &&
    /^[ \t]*$/.test(text.slice(target.fullEnd, next.startIndex))
  ) {
    if (edit.end <= next.startIndex) {
      // the comma right after the item (same line): take it and the spaces after it
      let end = next.endIndex;
      while (end < text.length && (text[end] === " " || text[end] === "\t")) end++;
      return { start: edit.start, end: Math.max(edit.end, end), text: edit.text };
    }
    return edit;
  }
  if (isComma(prev) && !isComma(next) && prev.endIndex <= edit.start) {
    // the last item: the comma before it goes, with what separates them on its line
    const between = text.slice(prev.endIndex, edit.start);
    const sameLine = /^[ \t]*$/.test(between);
    return { start: prev.startIndex, end: edit.end, text: sameLine ? edit.text : between + edit.text };
  }
  return edit;
}

/** The outermost node spanning exactly what `node` spans (a name-path target may be an inner one). */
function outermostAt(node: Node): Node {
  let n = node;
  while (n.parent && n.parent.startIndex === n.startIndex && n.parent.endIndex === n.endIndex) n = n.parent;
  return n;
}

function removalSpanEdit(file: SourceFile, target: Target): TextEdit {
  const { text } = file;
  const s = target.fullStart;
  const e = target.fullEnd;
  // The last statement of a body the language refuses empty (Python) gives way to its filler (`pass`).
  const filler = emptiedBodyFiller(target.node, file.language);
  if (filler !== null && startsLine(text, s) && restIsTrivial(text, e)) {
    const start = lineStart(text, s);
    return { start, end: nextLineStart(text, e), text: `${indentOfLine(text, s)}${filler}${file.eol}` };
  }
  if (!startsLine(text, s) || !restIsTrivial(text, e)) {
    let end = e;
    while (end < text.length && (text[end] === " " || text[end] === "\t")) end++;
    let start = s;
    if (end === e || text[end] === "\n" || text[end] === "\r") {
      while (start > 0 && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
    }
    return { start, end, text: "" };
  }
  let start = lineStart(text, s);
  let end = nextLineStart(text, e);
  const { hasPrev, hasNext } = siblingsOf(target);
  const above = blankLinesAbove(text, start);
  const below = blankLinesBelow(text, end);
  if (!hasPrev && hasNext) end = below.to;
  else if (hasPrev && !hasNext) start = above.from;
  else if (hasPrev && hasNext) {
    if (above.count <= below.count) start = above.from;
    else end = below.to;
  }
  if (end === text.length && !text.endsWith("\n") && start > 0) {
    // The last line has no newline: take the newline before it instead, so the file still ends without one.
    start = start - (text[start - 2] === "\r" ? 2 : 1);
  }
  return { start, end, text: "" };
}
