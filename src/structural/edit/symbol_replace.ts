/**
 * Replacing a whole definition found by name path: what the new code
 * includes is replaced, what it leaves out is kept — `export`, Go's `type`, a
 * `const` declaration, decorators, annotations, attributes and doc comments
 * stay unless the new code brings its own, so a keyword or annotation is
 * never lost or doubled. The code is re-indented to the destination.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Node } from "web-tree-sitter";
import { columnsOf, indentOfLine } from "../../fs/lines.ts";
import { lineEndingAt } from "../../fs/text.ts";
import type { SymbolRules } from "../../syntax/queries.ts";
import { definitionLevels } from "../../syntax/symbols.ts";
import { copiedFrom, reindent } from "./reindent.ts";
import { afterInnerDecorations, decorationsStart } from "./decorations.ts";
import type { TextEdit, TextLines } from "./source.ts";
import { firstToken, type SymbolTarget } from "./symbol_target.ts";

/** A line of a comment (not a decorator or attribute). */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|--|#(?!\[)|<!--)/;

/** Code that opens with a decorator, annotation or attribute (`@X`, `[X]`, `#[X]`). */
const LEADING_DECORATION = /^\s*(?:@|\[|#\[)/;

/** Lines of code that are comments, decorators or attributes before the definition proper. */
const DECORATION_LINE = /^\s*(?:\/\/|\/\*|\*|@|--|\[|#\[)/;
/** A `#` line: a comment in most languages with `#` comments, a preprocessor directive in the C family. */
const HASH_LINE = /^\s*#/;

/**
 * Split code into its leading comment/decorator lines and the definition.
 * Block comments (`/* *\/`, Lua's `--[[ ]]`) count whole; `#` lines count
 * except in C, C++ and C#, where they are preprocessor directives.
 *
 * @param code Trimmed code.
 * @param language Language id of the destination (default: `#` lines are comments).
 * @returns The two parts (`docs` is "" when there are none).
 */
export function splitLeadingDecorations(code: string, language = ""): { docs: string; def: string } {
  const lines = code.split("\n");
  const hashIsComment = !profileOf(language).hashLinesArePreprocessor;
  let i = 0;
  let until: string | null = null; // the end marker of the block comment being read
  for (; i < lines.length - 1; i++) {
    const l = lines[i]!;
    if (until !== null) {
      if (l.includes(until)) until = null;
      continue;
    }
    if (!DECORATION_LINE.test(l) && !(hashIsComment && HASH_LINE.test(l))) break;
    const lua = /^\s*--\[(=*)\[/.exec(l);
    if (lua) {
      if (!l.slice(lua[0].length).includes(`]${lua[1]}]`)) until = `]${lua[1]}]`;
    } else if (/^\s*\/\*/.test(l) && !l.includes("*/")) until = "*/";
  }
  if (until !== null) i = 0; // a comment that never closes before the last line: no split
  if (i === 0) return { docs: "", def: code };
  return { docs: lines.slice(0, i).join("\n"), def: lines.slice(i).join("\n") };
}

/** The keyword text a wrapper adds before its child (e.g. "export ", "type "), without decorations. */
function keywordPrefix(level: Node, child: Node, text: string, rules: SymbolRules): string {
  let from = -1;
  for (const c of level.children) {
    if (!c || c.startIndex >= child.startIndex) break;
    if (rules.decorations.includes(c.type) || rules.comments.includes(c.type)) continue;
    if (from === -1) from = c.startIndex;
  }
  return from === -1 ? "" : text.slice(from, child.startIndex);
}

/** What {@linkcode symbolReplacementEdit} needs of a symbol: its file, its node and its outline entry. */
export type ReplacedSymbol = Pick<
  SymbolTarget,
  "text" | "language" | "eol" | "unit" | "symbol" | "node" | "rules"
>;

/**
 * The edit that replaces a symbol with new code (signature included): the
 * span covers the wrappers whose keyword the code repeats, the decorations and
 * doc comments when the code brings its own, and a `;` after the node the code
 * ends with; the code is re-indented to the span's line (code copied from the
 * span stays as it is), with the line ending of the region.
 *
 * @param t The symbol.
 * @param code The new definition, trimmed (not blank).
 * @param lines The lines of the code inside multi-line strings and comments (see {@linkcode stringLineFinder}).
 * @returns The text edit.
 */
export function symbolReplacementEdit(
  t: ReplacedSymbol,
  code: string,
  lines: Partial<TextLines> = {},
): TextEdit {
  const { docs, def } = splitLeadingDecorations(code, t.language);
  const levels = definitionLevels(t.node, t.rules); // innermost first
  const outer = levels[levels.length - 1]!;
  const tok = firstToken(def);
  // The outermost wrapper whose keyword prefix the new code repeats.
  let chosen = 0;
  for (let i = levels.length - 1; i >= 1; i--) {
    const prefix = keywordPrefix(levels[i]!, levels[i - 1]!, t.text, t.rules);
    if (prefix.trim() !== "" && firstToken(prefix) === tok) {
      chosen = i;
      break;
    }
  }
  const level = levels[chosen]!;
  // Where each node's own text ends: the outline's range stops at the last token (see contentEnd in symbols.ts).
  const own = Math.max(t.symbol.range.end_utf16, t.symbol.full_range.end_utf16);
  const endOf = (n: { endIndex: number }) => Math.min(n.endIndex, own);
  let start: number;
  let end: number;
  let replacement: string;
  if (docs !== "") {
    // The new code brings its own docs/decorators: replace them with the wrappers.
    let injected = "";
    for (let i = levels.length - 1; i > chosen; i--) {
      injected += keywordPrefix(levels[i]!, levels[i - 1]!, t.text, t.rules);
    }
    // Decorators alone replace the decorators: the doc comment above them stays.
    const bringsComments = docs.split("\n").some((l) => COMMENT_LINE.test(l));
    start = bringsComments
      ? Math.min(t.symbol.full_range.start_utf16, outer.startIndex)
      : decorationsStart(outer, t.rules);
    end = endOf(outer);
    const suffix = t.text.slice(endOf(level), end).trim();
    replacement = `${docs}\n${injected}${def}${suffix !== "" && !def.endsWith(suffix) ? suffix : ""}`;
  } else {
    start = level.startIndex;
    end = endOf(level);
    // Annotations and attributes written inside the definition node stay unless the new code brings its own.
    const inner = chosen === 0 && !LEADING_DECORATION.test(def)
      ? afterInnerDecorations(t.node, t.rules)
      : null;
    if (inner !== null) start = inner;
    const suffix = chosen > 0 ? t.text.slice(endOf(t.node), end).trim() : "";
    replacement = `${def}${suffix !== "" && !def.endsWith(suffix) ? suffix : ""}`;
  }
  // Code that brings the `;` ending the definition outside its node (C/C++ `struct S {...};`) replaces it.
  const semi = /;\s*$/.test(replacement) ? /^[ \t]*;/.exec(t.text.slice(end)) : null;
  if (semi) end += semi[0].length;
  // A file mixing CRLF and LF keeps the region's own line ending.
  const placed = placeReplacement(t.text, start, {
    end,
    code: replacement,
    eol: lineEndingAt(t.text, start, t.eol),
    unit: t.unit,
    lines,
  });
  return { start, end, text: placed };
}

/**
 * Code re-indented to replace the span [start, end) of a text: its first line
 * goes where the span starts, its later lines to the span's line (code whose
 * later lines sit where the span's do was copied from there and stays as it is).
 *
 * @param text The text.
 * @param start The span's start.
 * @param end The span's end.
 * @param code The code, trimmed.
 * @param options The line ending and indent unit to write, and the roles of the code's lines.
 * @returns The code to put in the span's place.
 */
export function placeReplacement(
  text: string,
  start: number,
  { end, code, ...options }: {
    end: number;
    code: string;
    eol: "\n" | "\r\n";
    unit: string;
    lines?: Partial<TextLines>;
  },
): string {
  const { lines = {} } = options;
  const indent = indentOfLine(text, start);
  const keep = lines.keepLines?.(code);
  const align = lines.alignLines?.(code);
  const copied = copiedFrom(code, text.slice(start, end));
  return reindent(code, {
    indent,
    eol: options.eol,
    unit: options.unit,
    indentFirstLine: false,
    ...(keep ? { keepLines: keep } : {}),
    ...(align ? { alignLines: align } : {}),
    ...(copied
      ? { firstColumn: columnsOf(indent) }
      : lines.firstColumn !== undefined
      ? { firstColumn: lines.firstColumn }
      : {}),
    ...(lines.codeUnit !== undefined && options.unit !== "" ? { codeUnit: lines.codeUnit } : {}),
  });
}
