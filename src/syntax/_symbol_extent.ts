/**
 * The extent of a definition in its file's text, beyond its node: the doc
 * comments and decorations attached above it, and where its own text ends when
 * a grammar stretches the node over trailing whitespace or the next
 * definition's doc comment. Private to the symbol engine (`symbols.ts`).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { SymbolRules } from "./queries.ts";
import type { TextIndex } from "./text_index.ts";

/** What the extent functions read: the file's text and index, the language's rules and doc pattern. */
export interface ExtentContext {
  /** The decoded text. */
  text: string;
  /** The language's symbol rules. */
  rules: SymbolRules;
  /** A comment counts as doc only when it matches this (null: any adjacent comment). */
  docPattern: RegExp | null;
  /** Line lookups on `text`. */
  index: TextIndex;
}

/**
 * Strip comment markers from a doc comment.
 *
 * @param raw Comment text(s) as written.
 * @returns The text without `//`, `///`, `#`, `--`, `/* *\/` and leading `*`.
 */
export function stripCommentMarkers(raw: string): string {
  const lines = raw.replace(/^\s*\/\*+!?/, "").replace(/\*+\/\s*$/, "").split("\n");
  return lines.map((l) => l.replace(/^\s*(?:\/\/[\/!]?|#+|--+|\*(?!\/))\s?/, "").trimEnd()).join("\n").trim();
}

/** What is attached before a definition: where it starts, and its doc comment (markers stripped). */
export interface Attached {
  /** Start of the first attached comment or decoration (the definition's own start when none). */
  start: number;
  /** The doc comment text, or undefined. */
  doc: string | undefined;
}

/** Comment markers of every grammar (`//`, `/*`, `*\/`, `#`, `--`, `<!--`). */
const COMMENT_MARK = /\/\/|\/\*|\*\/|#|--|<!--/;

/**
 * Whether the text alone shows that nothing can be attached before `start`:
 * the definition starts its line and the line above is blank, or ends a
 * statement or block (`;`, `{`, `,`, `}` — which neither a decorator nor a
 * comment's last line without a comment marker can end with). Saves asking
 * the tree for siblings for most definitions.
 */
function nothingAttachable(text: string, start: number): boolean {
  const ls = text.lastIndexOf("\n", start - 1);
  for (let i = ls + 1; i < start; i++) if (text[i] !== " " && text[i] !== "\t") return false;
  if (ls <= 0) return ls < 0;
  const prev = text.slice(text.lastIndexOf("\n", ls - 1) + 1, ls).trimEnd();
  if (prev.trim() === "") return true; // a blank line separates whatever is above
  const last = prev[prev.length - 1];
  return (last === ";" || last === "{" || last === "," || last === "}") && !COMMENT_MARK.test(prev);
}

/**
 * Decorations and doc comments directly before `outer` (no blank line
 * between). A node's end row is the line of its end offset minus one, so each
 * sibling costs one `endIndex` for both its row and its text.
 *
 * @param outer The definition's outermost wrapper.
 * @param cx The file's text, index and the language's rules.
 * @returns Where the attached block starts and its doc text.
 */
export function attachedBefore(outer: Node, cx: ExtentContext): Attached {
  const { rules, docPattern, text, index } = cx;
  if (nothingAttachable(text, outer.startIndex)) return { start: outer.startIndex, doc: undefined };
  let start = outer.startIndex;
  let nextRow = outer.startPosition.row;
  let docs: string[] | null = null;
  let sib = outer.previousSibling;
  let sibType = sib ? sib.type : "";
  while (sib) {
    const isComment = rules.comments.includes(sibType);
    if (!isComment && !rules.decorations.includes(sibType)) break;
    const sibEnd = sib.endIndex;
    if (index.line(sibEnd) - 1 < nextRow - 1) break; // a blank line separates it
    const before = sib.previousSibling;
    const beforeType = before ? before.type : "";
    if (isComment) {
      const comment = text.slice(sib.startIndex, sibEnd);
      if (docPattern && !docPattern.test(comment)) break;
      if (
        before && index.line(before.endIndex) - 1 === sib.startPosition.row &&
        !rules.comments.includes(beforeType)
      ) break; // trailing comment of the previous line
      (docs ??= []).unshift(comment);
    }
    start = sib.startIndex;
    nextRow = sib.startPosition.row;
    sib = before;
    sibType = beforeType;
  }
  if (start === outer.startIndex) {
    const inner = commentInsidePrevious(outer, cx);
    if (inner) return inner;
  }
  return { start, doc: docs ? stripCommentMarkers(docs.join("\n")) : undefined };
}

/**
 * A block doc comment right above a definition that the grammar put inside
 * the previous node (Scala ends an expression-bodied `def` after the next
 * definition's doc comment). Looked up only when the text before the
 * definition ends with `*\/` on the line above.
 */
function commentInsidePrevious(outer: Node, cx: ExtentContext): Attached | null {
  const { text, rules, docPattern } = cx;
  let i = outer.startIndex - 1;
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  if (i < 0 || text[i] !== "\n") return null; // something else before it on its line
  i--;
  if (text[i] === "\r") i--;
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  if (i < 1 || text[i] !== "/" || text[i - 1] !== "*") return null;
  let comment = outer.tree.rootNode.descendantForIndex(i, i);
  // Some grammars give a block comment tokens of its own (`/*`, `*/`).
  if (comment && !rules.comments.includes(comment.type) && comment.parent) comment = comment.parent;
  if (!comment || !rules.comments.includes(comment.type) || comment.endIndex !== i + 1) return null;
  if (outer.parent && comment.parent && outer.parent.equals(comment.parent)) return null; // a sibling: seen above
  const raw = text.slice(comment.startIndex, comment.endIndex);
  if (docPattern && !docPattern.test(raw)) return null;
  return { start: comment.startIndex, doc: stripCommentMarkers(raw) };
}

/** The column of the first non-blank character of the line holding `offset`. */
function indentColumn(text: string, offset: number): number {
  const ls = text.lastIndexOf("\n", offset - 1) + 1;
  let i = ls;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  return i - ls;
}

/** Whether a character code is a space, tab, CR or LF. */
function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * Where a definition's own text ends. Some grammars end a node after trailing
 * whitespace, or after a comment that follows its last token (Scala's
 * `def f =` bodies take in the next definition's doc comment); the range stops
 * at the last token instead, keeping trailing comments indented deeper than
 * the definition itself (a comment closing a Python body stays in it).
 *
 * @param def The definition node.
 * @param cx The file's text and the language's rules.
 * @param range Its start offset, and its end offset as the grammar gives it.
 * @returns The end of its last token.
 */
export function contentEnd(def: Node, cx: ExtentContext, range: { start: number; end: number }): number {
  const { start, end } = range;
  const text = cx.text;
  let trimmed = end;
  while (trimmed > start && isSpace(text.charCodeAt(trimmed - 1))) trimmed--;
  const tail = text.slice(Math.max(start, text.lastIndexOf("\n", trimmed - 1) + 1), trimmed);
  if (!/\*\/|\/\/|#|--|\]\]|-->/.test(tail)) return trimmed; // cannot end with a comment
  // The last token that is not a comment, looking into the last children.
  let node = def;
  let last = -1;
  for (let depth = 0; depth < 64; depth++) {
    let c = node.lastChild;
    while (c && cx.rules.comments.includes(c.type)) c = c.previousSibling;
    if (!c) break;
    last = c.endIndex;
    if (c.childCount === 0) break;
    node = c;
  }
  if (last < 0 || last >= trimmed) return trimmed;
  const own = indentColumn(text, start);
  let cut = trimmed;
  for (let ls = text.indexOf("\n", last); ls !== -1 && ls < trimmed; ls = text.indexOf("\n", ls + 1)) {
    if (indentColumn(text, ls + 1) <= own) {
      cut = ls;
      break;
    }
  }
  while (cut > last && isSpace(text.charCodeAt(cut - 1))) cut--;
  return cut;
}
