/**
 * Anchors: where inserted code goes relative to a selected node — before or
 * after it, or as the first or last child of its body — re-indented to the
 * destination, on lines of its own (never glued onto an existing line), with
 * the blank lines the surrounding definitions use.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { isComma, terminatorAfter } from "../../syntax/tokens.ts";
import { symbolRules } from "../../syntax/queries.ts";
import { outlineOf } from "../../syntax/symbols.ts";
import type { Parsing } from "../../syntax/types.ts";
import {
  blankLinesAbove,
  blankLinesBelow,
  indentOfLine,
  lineStart,
  nextLineStart,
  startsLine,
  trimCode,
} from "../../fs/lines.ts";
import {
  blankLinesBetween,
  definitionGap,
  type DefinitionStarts,
  definitionStartsOf,
  gapBelow,
  isDefinition,
  isDocstring,
  looksLikeDefinition,
  neighbourGap,
  restIsTrivial,
  siblingsOf,
} from "./layout.ts";
import { reindent } from "./reindent.ts";
import { nodeTarget, type Target } from "./selectors.ts";
import { type SourceFile, type TextEdit, withIndentUnit } from "./source.ts";
import type { AnchorPosition } from "./anchor_positions.ts";

export { ANCHOR_POSITIONS, type AnchorPosition } from "./anchor_positions.ts";
export { type BodyInfo, bodyOf } from "./body_of.ts";
import { BODY_TYPE, type BodyInfo, bodyOf } from "./body_of.ts";

/** Options of {@linkcode insertionEdit}. */
export interface InsertOptions {
  /** Definition starts from the outline (null: tell definitions by node type). */
  defs: DefinitionStarts | null;
  /** Lines of the code to keep byte for byte (multi-line string content), see {@linkcode stringLineFinder}. */
  keepLines?: (code: string) => ReadonlySet<number>;
  /** Lines of the code that move with it keeping their own spacing (docstring and comment text). */
  alignLines?: (code: string) => ReadonlySet<number>;
  /** The code's indent unit when known (built from text bound in the same file). */
  codeUnit?: string;
  /** The column the code's first line stands for, in the code's own columns. */
  firstColumn?: number;
  /**
   * Next to an item that shares its line with others (`{ a, b }`), keep the code on that line rather than
   * splitting it (insert_code's one-line lists); default false.
   */
  inline?: boolean;
}

/** Code to place: trimmed, with the lines reindent must keep as they are or only move. */
/** Code ready to place: trimmed text and the roles of its lines. */
export interface Code {
  /** The code, trimmed. */
  text: string;
  /** Lines kept verbatim (inside multi-line strings). */
  keep: ReadonlySet<number> | undefined;
  /** Lines aligned with the line above rather than re-indented. */
  align: ReadonlySet<number> | undefined;
  /** The code's own indent unit, when it differs from the file's. */
  unit?: string;
  /** The column the code's first line sat at in its source. */
  firstColumn?: number;
  /** Stay on a line shared with other items instead of splitting it. */
  inline?: boolean;
}

function place(file: SourceFile, code: Code, indent: string): string {
  return reindent(code.text, {
    indent,
    eol: file.eol,
    unit: file.unit,
    ...(code.keep ? { keepLines: code.keep } : {}),
    ...(code.align ? { alignLines: code.align } : {}),
    ...(code.unit !== undefined && file.unit !== "" ? { codeUnit: code.unit } : {}),
    ...(code.firstColumn !== undefined ? { firstColumn: code.firstColumn } : {}),
  });
}

/**
 * Code placed on whole lines at a line start, with the blank lines needed
 * above and below (counting the blank lines already there).
 */
function atLineStart(
  file: SourceFile,
  at: number,
  code: Code,
  indent: string,
  needAbove: number,
  needBelow: number,
): TextEdit {
  const { text, eol } = file;
  const body = place(file, code, indent);
  const unterminated = at === text.length && text.length > 0 && !text.endsWith("\n");
  const atEnd = at >= text.length;
  const addAbove = Math.max(0, needAbove - blankLinesAbove(text, at).count);
  const addBelow = atEnd ? 0 : Math.max(0, needBelow - blankLinesBelow(text, at).count);
  const out = unterminated
    ? eol + eol.repeat(addAbove) + body
    : eol.repeat(addAbove) + body + eol + eol.repeat(addBelow);
  return { start: at, end: at, text: out };
}

/** Split a line: the code goes on its own line(s) between `at`'s left and right parts. */
function splitAt(file: SourceFile, at: number, code: Code, indent: string, tailIndent: string): TextEdit {
  const { text, eol } = file;
  let start = at;
  while (start > 0 && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
  let end = at;
  while (end < text.length && (text[end] === " " || text[end] === "\t")) end++;
  const body = place(file, code, indent);
  return { start, end, text: eol + body + eol + tailIndent };
}

function before(
  file: SourceFile,
  at: number,
  code: Code,
  indent: string,
  above: number,
  below: number,
): TextEdit {
  if (startsLine(file.text, at)) {
    return atLineStart(file, lineStart(file.text, at), code, indent, above, below);
  }
  if (code.inline) return { start: at, end: at, text: `${place(file, code, "").trim()} ` };
  return splitAt(file, at, code, indent, indentOfLine(file.text, at));
}

function after(
  file: SourceFile,
  at: number,
  code: Code,
  indent: string,
  above: number,
  below: number,
): TextEdit {
  // A span whose last character is its line's "\n" ends on that line.
  const end = at > 0 && file.text[at - 1] === "\n" ? at - 1 : at;
  if (restIsTrivial(file.text, end)) {
    return atLineStart(file, nextLineStart(file.text, end), code, indent, above, below);
  }
  if (code.inline) return { start: at, end: at, text: ` ${place(file, code, "").trim()}` };
  return splitAt(file, at, code, indent, indentOfLine(file.text, at));
}

/**
 * The one rule for code placed next to a construct, used by every insertion
 * tool: on whole lines of its own when the construct starts (before) or ends
 * (after) its line, with `above`/`below` blank lines (counting those already
 * there); otherwise on the construct's line when `code.inline` is set, else on
 * lines of its own that split the line.
 *
 * @param file The source file.
 * @param at The construct's start (before) or end (after).
 * @param position before | after.
 * @param code The code, trimmed, with its line roles.
 * @param indent The indentation its lines take.
 * @param above Blank lines wanted above it.
 * @param below Blank lines wanted below it.
 * @returns The text edit.
 */
function besideEdit(
  file: SourceFile,
  at: number,
  position: "before" | "after",
  code: Code,
  indent: string,
  above: number,
  below: number,
): TextEdit {
  return position === "before"
    ? before(file, at, code, indent, above, below)
    : after(file, at, code, indent, above, below);
}

/** A construct code goes next to: its outermost node and its span (decorations and docs included). */
export interface Beside {
  /** The outermost node (the one whose siblings are its neighbours: commas, a `;`). */
  outer: Node;
  /** Where the construct starts (UTF-16). */
  start: number;
  /** Where it ends (UTF-16). */
  end: number;
}

/** The comma after an item of a comma-separated list (null: none); null when it is not an item of one. */
function listSeparators(file: SourceFile, outer: Node): { after: Node | null } | null {
  const next = outer.nextSibling;
  if (isComma(next)) return { after: next };
  if (isComma(outer.previousSibling)) return { after: null };
  // The only item of a container the language separates with commas (a JS object with one entry).
  return commaList(file, outer.parent) ? { after: null } : null;
}

/** Whether the language separates a container's items with commas. */
function commaList(file: SourceFile, container: Node | null): boolean {
  return container !== null && symbolRules(file.language).comma_lists?.includes(container.type) === true;
}

/**
 * The one placement rule next to a construct, for every insertion tool:
 * {@linkcode besideEdit} on lines of its own with the gap given, and, next to
 * an item of a comma-separated list (enum member, object entry), the comma
 * the new item brings (or the one the list's last item lacks), on the item's
 * line when the list is written on one line; after a C/C++ `struct S {...};`,
 * after the `;`.
 *
 * @param file The source file.
 * @param at The construct.
 * @param position before | after.
 * @param code The code, trimmed, with its line roles.
 * @param indent The indentation its lines take.
 * @param blank Blank lines wanted above and below the code (counting those already there).
 * @returns The text edit.
 */
export function besidePlacement(
  file: SourceFile,
  at: Beside,
  { position, code, indent, blank }: {
    position: "before" | "after";
    code: Code;
    indent: string;
    blank: { above: number; below: number };
  },
): TextEdit {
  const { text } = file;
  const beside = (end: number, c: Code) =>
    besideEdit(file, position === "before" ? at.start : end, position, c, indent, blank.above, blank.below);
  const list = listSeparators(file, at.outer);
  if (!list) {
    const semi = position === "after" ? terminatorAfter(at.outer) : null;
    return beside(semi ? semi.endIndex : at.end, code);
  }
  const inline = position === "before"
    ? !startsLine(text, at.start)
    : !restIsTrivial(text, list.after ? list.after.endIndex : at.end, false);
  const item = code.text.trim().replace(/[,;]$/, "");
  if (inline) {
    // `X, A` before it, `A, X` after it (after its comma, if it has one).
    if (position === "before") return { start: at.start, end: at.start, text: `${item}, ` };
    if (list.after) return { start: list.after.endIndex, end: list.after.endIndex, text: ` ${item},` };
    return { start: at.end, end: at.end, text: `, ${item}` };
  }
  const withComma: Code = /,\s*$/.test(code.text)
    ? code
    : { ...code, text: `${code.text.replace(/\s+$/, "")},` };
  if (position === "before") return beside(at.end, withComma);
  if (list.after) return beside(list.after.endIndex, withComma);
  // After the list's last item: it gets the comma it lacks, in one edit from there, the text between kept.
  const edit = beside(at.end, code);
  if (edit.start < at.end) return edit;
  return { start: at.end, end: edit.end, text: `,${text.slice(at.end, edit.start)}${edit.text}` };
}

/** Whether a node holds statements or members (so its children are siblings one can insert between). */
function isContainer(node: Node): boolean {
  return node.parent === null || BODY_TYPE.test(node.type) ||
    /(?:^|_)(?:case|clause|default|program|module)$/.test(node.type);
}

/**
 * The statement or member a target belongs to: inserting "before" an
 * expression (`a !== a` in `return a !== a;`) means before its statement, never
 * inside it.
 *
 * @param file The source file.
 * @param target The selected node.
 * @returns The target itself when it is a child of a body, else its enclosing statement.
 */
export function statementLevel(file: SourceFile, target: Target): Target {
  if (target.symbol) return target;
  let stmt = target.node;
  while (stmt.parent && !isContainer(stmt.parent)) stmt = stmt.parent;
  if (stmt.startIndex >= target.fullStart && stmt.endIndex <= target.fullEnd) return target;
  return nodeTarget(file, stmt);
}

/**
 * The edit that inserts code at an anchor of a selected node.
 *
 * @param file The source file.
 * @param target The selected node.
 * @param position before | after | first_child | last_child | start_of_body | end_of_body.
 * @param rawCode The code to insert (any indentation; it is re-indented).
 * @param options Definition starts for blank-line conventions.
 * @returns The text edit; `no_match` when a body position is asked of a node without a body.
 */
export function insertionEdit(
  source: SourceFile,
  target: Target,
  { position, rawCode, ...options }: { position: AnchorPosition; rawCode: string } & InsertOptions,
): TextEdit {
  const file = withIndentUnit(source, rawCode);
  const codeIsDef = looksLikeDefinition(rawCode);
  const code = codeToPlace(rawCode, options);
  if (position === "before" || position === "after") {
    return besideAnchorEdit(file, target, { position, code, codeIsDef, defs: options.defs });
  }
  const body = bodyOf(file, target);
  if (!body) {
    throw new RecoverableError(
      "no_match",
      `Cannot insert at ${position} of the ${target.node.type} at line ${
        target.node.startPosition.row + 1
      } in "${file.rel}": it has no body`,
      {
        hint: 'Select the class, function or block itself, or use position "before" / "after"',
        details: { path: file.rel, node_type: target.node.type, line: target.node.startPosition.row + 1 },
      },
    );
  }
  return bodyEdit(file, body, { position, code, codeIsDef, defs: options.defs });
}

/** The code to insert, trimmed, with the line roles and layout hints the options give. */
function codeToPlace(rawCode: string, options: InsertOptions): Code {
  const trimmed = trimCode(rawCode);
  return {
    text: trimmed,
    keep: options.keepLines?.(trimmed),
    align: options.alignLines?.(trimmed),
    ...(options.codeUnit !== undefined ? { unit: options.codeUnit } : {}),
    ...(options.firstColumn !== undefined ? { firstColumn: options.firstColumn } : {}),
    ...(options.inline ? { inline: true } : {}),
  };
}

/** How the code goes in: where, the code, whether it is a definition, and the outline's definition starts. */
interface Placing<P> {
  position: P;
  code: Code;
  codeIsDef: boolean;
  defs: DefinitionStarts | null;
}

/** The edit that inserts code before or after the target's statement, keeping the neighbours' blank lines. */
function besideAnchorEdit(
  file: SourceFile,
  target: Target,
  { position, code, codeIsDef, defs }: Placing<"before" | "after">,
): TextEdit {
  const { text } = file;
  const anchor = statementLevel(file, target);
  const { top, hasPrev, hasNext, prev, next: after } = siblingsOf(anchor);
  const spaced = codeIsDef || isDefinition(anchor.node, defs) || isDefinition(top, defs) ||
    (anchor.symbol !== undefined && isDefinition(top, defs));
  // What is there keeps its distance (a comment sharing the anchor's line is part of it); with no
  // neighbour, a definition takes the container's usual gap.
  let next = after;
  while (next && next.startIndex < nextLineStart(text, anchor.fullEnd)) next = next.nextNamedSibling;
  const gap = neighbourGap(position, {
    before: prev ? blankLinesBetween(text, prev.endIndex, anchor.fullStart) : null,
    after: next
      ? blankLinesBetween(text, anchor.fullEnd, next.startIndex)
      : gapBelow(text, anchor.fullEnd, indentOfLine(text, anchor.fullStart)),
  }, () => spaced ? definitionGap(file, top.parent, defs) : 0);
  const indent = indentOfLine(text, anchor.fullStart);
  const blank = position === "before"
    ? { above: hasPrev ? gap : 0, below: gap }
    : { above: gap, below: hasNext ? gap : 0 };
  return besidePlacement(
    file,
    { outer: top, start: anchor.fullStart, end: anchor.fullEnd },
    { position, code, indent, blank },
  );
}

/** What placing code among a body's items needs: the items, the code (with its comma) and the layout helpers. */
interface BodyItems {
  items: Node[];
  realItems: Node[];
  code: Code;
  withComma: Code;
  listed: boolean;
  indentAt: (n: Node) => string;
  gapWith: (n: Node | undefined) => number;
}

/** The edit that inserts code at the start or end of a body, among its items. */
function bodyEdit(
  file: SourceFile,
  body: BodyInfo,
  { position, code, codeIsDef, defs }: Placing<AnchorPosition>,
): TextEdit {
  const { text } = file;
  const rules = symbolRules(file.language);
  const items = body.items;
  const realItems = items.filter((n) => !rules.comments.includes(n.type));
  if (items.length === 0) return intoEmptyBody(file, body, code);
  const firstStart = items[0]!.startIndex;
  const indentAt = (n: Node) =>
    startsLine(text, n.startIndex) ? indentOfLine(text, n.startIndex) : body.headerIndent + file.unit;
  const indent = indentAt(items[0]!);
  const gapWith = (n: Node | undefined) =>
    (codeIsDef || (n !== undefined && isDefinition(n, defs))) ? definitionGap(file, body.container, defs) : 0;
  // In a comma-separated body (enum members, object entries, arguments) the new item brings its comma.
  const listed = realItems.some((n) => isComma(n.nextSibling) || isComma(n.previousSibling)) ||
    commaList(file, body.container);
  const withComma: Code = listed && !/,\s*$/.test(code.text) ? { ...code, text: `${code.text},` } : code;
  switch (position) {
    case "start_of_body": {
      if (isDocstring(file.language, items[0]!)) {
        const nextItem = items[1];
        const gap = nextItem ? gapWith(nextItem) : 0;
        // The docstring keeps the blank lines written below it; the new code takes the next item's gap.
        const below = nextItem
          ? Math.min(2, blankLinesBetween(text, items[0]!.endIndex, nextItem.startIndex))
          : 0;
        return after(file, items[0]!.endIndex, code, indent, Math.max(gap, below), gap);
      }
      return before(file, firstStart, withComma, indent, 0, gapWith(items[0]));
    }
    case "first_child":
      return before(file, firstStart, withComma, indent, 0, gapWith(items[0]));
    default:
      return afterLastItem(file, position, { items, realItems, code, withComma, listed, indentAt, gapWith });
  }
}

/** The edit that inserts code after a body's last item (last_child: its last non-comment item). */
function afterLastItem(
  file: SourceFile,
  position: AnchorPosition,
  { items, realItems, code, withComma, listed, indentAt, gapWith }: BodyItems,
): TextEdit {
  const { text } = file;
  const last = position === "last_child"
    ? realItems[realItems.length - 1] ?? items[items.length - 1]!
    : items[items.length - 1]!;
  const trailing = position === "last_child" && items[items.length - 1] !== last ? gapWith(last) : 0;
  // Some grammars end a node after the whitespace that follows it (Scala): its code ends before that.
  let lastEnd = last.endIndex;
  while (lastEnd > last.startIndex && /\s/.test(text[lastEnd - 1]!)) lastEnd--;
  if (!listed) return after(file, lastEnd, code, indentAt(last), gapWith(last), trailing);
  // After the last item: after its comma, taking one too (as the list does), or give it the comma it lacks.
  const comma = isComma(last.nextSibling) ? last.nextSibling : null;
  if (comma) return after(file, comma.endIndex, withComma, indentAt(last), gapWith(last), trailing);
  const edit = after(file, lastEnd, code, indentAt(last), gapWith(last), trailing);
  return {
    start: lastEnd,
    end: edit.end,
    text: `,${text.slice(lastEnd, edit.start)}${edit.text}`,
  };
}

/**
 * The edit that puts code into a body with no items: on lines of its own between the brackets (or after the
 * header), one level deeper than the line that opens the body; nothing but whitespace is replaced.
 *
 * @param file The source file.
 * @param body The body (no items).
 * @param code The code to place.
 * @returns The text edit.
 */
export function intoEmptyBody(file: SourceFile, body: BodyInfo, code: Code): TextEdit {
  const { text, eol } = file;
  const indent = body.headerIndent + file.unit;
  const placed = place(file, code, indent);
  // Nothing between the brackets or after the header is ever replaced unless it is whitespace.
  const held = body.closerStart !== null
    ? text.slice(body.openerEnd ?? body.headerEnd, body.closerStart).trim() !== ""
    : false;
  if (held) {
    return { start: body.closerStart!, end: body.closerStart!, text: eol + placed + eol + body.headerIndent };
  }
  if (body.openerEnd !== null && body.closerStart !== null) {
    const inner = text.slice(body.openerEnd, body.closerStart);
    if (!inner.includes("\n")) {
      return { start: body.openerEnd, end: body.closerStart, text: eol + placed + eol + body.headerIndent };
    }
    const from = nextLineStart(text, body.openerEnd);
    const to = lineStart(text, body.closerStart);
    if (from <= to && text.slice(from, to).trim() === "" && startsLine(text, body.closerStart)) {
      return { start: from, end: to, text: placed + eol };
    }
    return { start: body.openerEnd, end: body.closerStart, text: eol + placed + eol + body.headerIndent };
  }
  if (body.closerStart !== null && !startsLine(text, body.closerStart)) {
    return { start: body.headerEnd, end: body.closerStart, text: eol + placed + eol + body.headerIndent };
  }
  const at = nextLineStart(text, body.headerEnd);
  const unterminated = at === text.length && !text.endsWith("\n");
  return { start: at, end: at, text: unterminated ? eol + placed : placed + eol };
}

/**
 * Start offsets of the file's definitions (functions, classes, methods …, not
 * variables or fields), or null when the language has no outline.
 */
export async function definitionStarts(ws: Parsing, file: SourceFile): Promise<DefinitionStarts | null> {
  try {
    return definitionStartsOf(
      (await outlineOf(ws, file.rel, { text: file.text, version: file.version })).symbols,
    );
  } catch {
    return null;
  }
}
