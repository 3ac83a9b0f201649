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
  indentOfLine,
  lineEndAfter,
  lineStart,
  startsLine,
  trimCode,
} from "../../fs/lines.ts";
import { lastInBlock, restIsTrivial } from "./layout.ts";
import { placeReplacement, symbolReplacementEdit } from "./symbol_replace.ts";
import type { Target } from "./selectors.ts";
import { type SourceFile, type TextEdit, type TextLines, withIndentUnit } from "./source.ts";
import type { Node } from "web-tree-sitter";
import { isComma, terminatorAfter } from "../../syntax/tokens.ts";
import { definitionLevels } from "../../syntax/symbols.ts";
import { symbolRules } from "../../syntax/queries.ts";

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
  { newText, ...options }: { newText: string } & Partial<TextLines>,
): TextEdit {
  if (newText.trim() === "") return removalEdit(source, target);
  const file = withIndentUnit(source, newText);
  if (target.symbol && options.firstColumn === undefined && options.codeUnit === undefined) {
    // A symbol is replaced the one way replace_symbol replaces it (wrappers, decorations, doc comments kept or taken).
    const rules = symbolRules(file.language);
    return symbolReplacementEdit(
      { ...file, symbol: target.symbol, node: target.node, rules },
      trimCode(newText),
      options,
    );
  }
  const { start, end } = replacementSpan(file, target, newText);
  const placed = placeReplacement(file.text, start, {
    end,
    code: trimCode(newText),
    eol: file.eol,
    unit: file.unit,
    lines: options,
  });
  return { start, end, text: placed };
}

/**
 * The edit that removes a selected node with its decorations and attached
 * doc comments (`target.fullStart`), and what separates it from its
 * neighbours: a list item's comma (the one after it, or for a last item the
 * one before it: `a, b` → `a`), the `;` after a C/C++ `struct S {...};`.
 *
 * One blank-line rule: a node standing on lines of its own goes with its
 * whole lines and the blank lines below it, or, when it is the last thing in
 * its block (nothing but a closer, a dedent or the end of the file follows),
 * the blank lines above it. So inserting a node with its neighbours' gap and
 * removing it gives back the original bytes, and a file without a final
 * newline keeps not having one. A node sharing its line with other code is
 * cut out of the line. The only statement of a body the language refuses
 * empty (Python) gives way to the language's filler (`pass`).
 *
 * @param file The source file.
 * @param target The selected node (its `fullStart` says where the removal starts).
 * @returns The text edit.
 */
export function removalEdit(file: SourceFile, target: Target): TextEdit {
  const { text } = file;
  const rules = symbolRules(file.language);
  const outer = definitionLevels(outermostAt(target.node), rules).at(-1)!;
  const start = target.fullStart;
  const next = outer.nextSibling;
  const separator = isComma(next) && /^[ \t]*$/.test(text.slice(target.fullEnd, next.startIndex))
    ? next
    : terminatorAfter(outer);
  const end = Math.max(target.fullEnd, separator?.endIndex ?? 0);
  const filler = emptiedBodyFiller(outer, file.language);
  if (filler !== null && startsLine(text, start) && restIsTrivial(text, end)) {
    const from = lineStart(text, start);
    return {
      start: from,
      end: lineEndAfter(text, end),
      text: `${indentOfLine(text, start)}${filler}${file.eol}`,
    };
  }
  // A list's last item goes with the comma before it.
  const prev = outer.previousSibling;
  const comma = separator === null && isComma(prev) ? prev : null;
  if (comma && !startsLine(text, start) && /^[ \t]*$/.test(text.slice(comma.endIndex, start))) {
    return { start: comma.startIndex, end, text: "" }; // on one line: ", b" goes
  }
  const span = removalSpan(text, start, end);
  if (comma && comma.endIndex <= span.start) {
    return { start: comma.startIndex, end: span.end, text: text.slice(comma.endIndex, span.start) };
  }
  return { ...span, text: "" };
}

/** The outermost node spanning exactly what `node` spans (a name-path target may be an inner one). */
function outermostAt(node: Node): Node {
  let n = node;
  while (n.parent && n.parent.startIndex === n.startIndex && n.parent.endIndex === n.endIndex) n = n.parent;
  return n;
}

/** The span [start, end) removes: whole lines and the blank lines that separated it, or its place on a shared line. */
function removalSpan(text: string, start: number, end: number): { start: number; end: number } {
  if (!startsLine(text, start) || !restIsTrivial(text, end)) {
    let e = end;
    while (e < text.length && (text[e] === " " || text[e] === "\t")) e++;
    let s = start;
    if (e === end || text[e] === "\n" || text[e] === "\r") {
      while (s > 0 && (text[s - 1] === " " || text[s - 1] === "\t")) s--; // nothing follows: no trailing space
    }
    return { start: s, end: e };
  }
  const from = lineStart(text, start);
  const to = lineEndAfter(text, end);
  if (!lastInBlock(text, to, indentOfLine(text, start))) {
    return { start: from, end: blankLinesBelow(text, to).to };
  }
  let above = blankLinesAbove(text, from).from;
  if (to === text.length && !text.endsWith("\n") && above > 0) {
    // The last line has no newline: take the newline before it instead, so the file still ends without one.
    above -= above >= 2 && text[above - 2] === "\r" ? 2 : 1;
  }
  return { start: above, end: to };
}
