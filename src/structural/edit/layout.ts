/**
 * Line layout helpers shared by anchors and node edits: line starts, blank
 * lines around an offset, siblings, what counts as a definition, and the
 * blank-line convention of a container.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Node } from "web-tree-sitter";
import { symbolRules } from "../../syntax/queries.ts";
import { flattenSymbols, type SymbolInfo } from "../../syntax/symbols.ts";
import type { Target } from "./selectors.ts";
import type { SourceFile } from "./source.ts";
import { blankLinesBelow, isBlankLine, lineEndAfter, lineStart, nextLineStart } from "../../fs/lines.ts";
import { closesBlock } from "./reindent.ts";

/**
 * Whether nothing but trivia follows `offset` on its line: spaces, a comment,
 * and (unless `separator` is false) one `;` or `,` before them.
 *
 * @param text The text.
 * @param offset An offset (UTF-16).
 * @param separator Whether a `;` or `,` counts as trivia (default true).
 * @returns True when the line ends there, as far as code is concerned.
 */
export function restIsTrivial(text: string, offset: number, separator = true): boolean {
  const nl = text.indexOf("\n", offset);
  const rest = text.slice(offset, nl === -1 ? text.length : nl).replace(/\r$/, "");
  return (separator ? TRIVIAL_REST : COMMENT_REST).test(rest);
}

const TRIVIAL_REST = /^[ \t]*(?:[;,][ \t]*)?(?:(?:\/\/|#|--|\/\*).*)?$/;
const COMMENT_REST = /^[ \t]*(?:(?:\/\/|#|--|\/\*).*)?$/;

/**
 * Whether nothing but a block closer, a dedent or the end of the file follows
 * the line ending at `end` (blank lines skipped).
 *
 * @param text The text.
 * @param end A line start (just past a line's ending).
 * @param indent The indentation of the construct that ends there.
 * @returns True when the construct is the last thing in its block.
 */
export function lastInBlock(text: string, end: number, indent: string): boolean {
  const below = blankLinesBelow(text, end);
  if (below.to >= text.length) return true;
  const nl = text.indexOf("\n", below.to);
  const line = text.slice(below.to, nl === -1 ? text.length : nl).replace(/\r$/, "");
  const lead = /^[ \t]*/.exec(line)![0];
  return closesBlock(line.trimStart()) || lead.length < indent.length;
}

/**
 * The outermost node of a target (its wrappers), and whether it has siblings
 * before and after it (comments count; the target's own decorations do not).
 */
export function siblingsOf(
  target: Target,
): { top: Node; hasPrev: boolean; hasNext: boolean; prev: Node | null; next: Node | null } {
  let top = target.node;
  while (top.parent && top.parent.startIndex >= target.fullStart && top.parent.endIndex <= target.fullEnd) {
    if (top.parent.parent === null) break;
    top = top.parent;
  }
  let prev = top.previousNamedSibling;
  while (prev && prev.startIndex >= target.fullStart) prev = prev.previousNamedSibling;
  const next = top.nextNamedSibling;
  return { top, hasPrev: prev !== null, hasNext: next !== null, prev, next };
}

/**
 * The blank lines below a construct, up to what follows it in its block; null
 * when it is the last thing in its block (what follows closes the block).
 *
 * @param text The text.
 * @param end Where the construct ends (UTF-16, exclusive).
 * @param indent The indentation of the construct's first line.
 * @returns A number of blank lines, or null.
 */
export function gapBelow(text: string, end: number, indent: string): number | null {
  const from = lineEndAfter(text, end);
  return lastInBlock(text, from, indent) ? null : blankLinesBelow(text, from).count;
}

/**
 * The one blank-line rule for code placed next to a construct (every
 * insertion tool uses it): what is already there keeps its distance. The new
 * code takes the gap the construct has on that side (to what follows it,
 * for "after"; to what precedes it, for "before"), else the gap it has on
 * the other side (at most two), else `fallback()` (the container's usual
 * gap: {@linkcode definitionGap}).
 *
 * @param side Where the code goes.
 * @param gaps Blank lines between the construct and its neighbour on each side (null: no neighbour).
 * @param fallback The gap to use when it has no neighbour.
 * @returns 0, 1 or 2.
 */
export function neighbourGap(
  side: "before" | "after",
  gaps: { before: number | null; after: number | null },
  fallback: () => number,
): number {
  const own = side === "after" ? gaps.after : gaps.before;
  const other = side === "after" ? gaps.before : gaps.after;
  if (own !== null) return own;
  return other !== null ? Math.min(2, other) : fallback();
}

/**
 * Whether a node is a Python docstring: a statement that is one string, the
 * first of a body (new code at the start of the body goes after it).
 *
 * @param language The file's language.
 * @param node The body's first item.
 * @returns True for a docstring.
 */
export function isDocstring(language: string, node: Node): boolean {
  if (!profileOf(language).functions.docstrings || node.type !== "expression_statement") return false;
  return node.namedChildCount === 1 && node.namedChild(0)?.type === "string";
}

/** Node types that are definitions when a language has no outline (fallback only). */
const DEF_TYPE =
  /(?:^|_)(?:function|method|class|interface|struct|enum|trait|impl|module|namespace|constructor|object|protocol)(?:_(?:definition|declaration|item|specifier))?$|^(?:decorated_definition|function_item|impl_item|trait_item|mod_item|type_declaration|method|singleton_method|class|module)$/;

/** Symbol kinds that get blank lines around them (not variables, fields, properties). */
const SPACED_KINDS = new Set([
  "function",
  "method",
  "class",
  "interface",
  "struct",
  "enum",
  "trait",
  "impl",
  "module",
  "namespace",
  "constructor",
  "object",
  "protocol",
  "union",
  "record",
  "macro",
]);

/** Which symbol kinds get blank lines around them. */
export function spacedKind(kind: string): boolean {
  return SPACED_KINDS.has(kind);
}

/** Start offsets of definitions (from the outline), used to tell definitions from statements. */
export type DefinitionStarts = Set<number>;

/**
 * Start offsets of the definitions of an outline (functions, classes, methods
 * …, not variables or fields): own and full starts.
 *
 * @param symbols The outline's top-level symbols.
 * @returns The starts.
 */
export function definitionStartsOf(symbols: SymbolInfo[]): DefinitionStarts {
  const out: DefinitionStarts = new Set();
  for (const s of flattenSymbols(symbols)) {
    if (!spacedKind(s.kind)) continue;
    out.add(s.range.start_utf16);
    out.add(s.full_range.start_utf16);
  }
  return out;
}

/** Whether a node is a definition (by the outline when there is one, else by its type). */
export function isDefinition(node: Node, defs: DefinitionStarts | null): boolean {
  if (defs && defs.size > 0) return defs.has(node.startIndex);
  return DEF_TYPE.test(node.type);
}

const DEF_LINE =
  /^(?:(?:export|default|pub(?:\([^)]*\))?|public|private|protected|internal|static|async|abstract|final|override|virtual|sealed|partial|open|unsafe|const|extern|inline)\s+)*(?:def|class|function|fn|func|impl|struct|enum|trait|interface|module|namespace|fun|object|record|type\s+\w+\s+(?:struct|interface))\b/;

/** Whether code to place starts with a definition (after decorators, attributes and comments). */
export function looksLikeDefinition(code: string): boolean {
  for (const raw of code.split("\n")) {
    const line = raw.trim();
    if (line === "" || /^(?:@|#\[|\[[A-Z]|\/\/|\/\*|\*|#(?!\[))/.test(line)) continue;
    if (DEF_LINE.test(line)) return true;
    // Java/C#/C++ members: modifiers, a type, a name and a parameter list.
    return /^(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|async|sealed)\s+)+[\w<>[\],.?\s]+\s+\w+\s*\(/
      .test(line);
  }
  return false;
}

/**
 * The blank lines between the line where one construct ends and the line
 * where the next starts (0 when they share a line).
 *
 * @param text The text.
 * @param end Where the first construct ends.
 * @param start Where the next one starts.
 * @returns The number of blank lines.
 */
export function blankLinesBetween(text: string, end: number, start: number): number {
  let n = 0;
  const from = nextLineStart(text, end);
  const to = lineStart(text, start);
  if (to <= from) return 0;
  for (const line of text.slice(from, to).split("\n")) if (isBlankLine(line)) n++;
  return text.slice(from, to).endsWith("\n") ? n - 1 : n;
}

/**
 * Blank lines to keep around a definition placed in `container`: the most
 * common gap between the container's definitions, else the language's
 * convention (Python: two at the top level, one inside; others: one).
 *
 * @param file The source file.
 * @param container The node whose children the new code joins.
 * @param defs Definition starts from the outline.
 * @returns 0, 1 or 2.
 */
export function definitionGap(
  file: SourceFile,
  container: Node | null,
  defs: DefinitionStarts | null,
): number {
  const rules = symbolRules(file.language);
  const topLevel = !container || container.parent === null;
  const blank = profileOf(file.language).functions.topLevelBlankLines;
  const fallback = topLevel ? blank : 1;
  if (!container) return fallback;
  const kids = container.namedChildren.filter((c): c is Node =>
    c !== null && !rules.comments.includes(c.type)
  );
  const counts = new Map<number, number>();
  for (let i = 1; i < kids.length; i++) {
    const a = kids[i - 1]!;
    const b = kids[i]!;
    if (!isDefinition(a, defs) && !isDefinition(b, defs)) continue;
    if (/decorator|attribute|annotation/.test(a.type)) continue;
    const gap = Math.min(2, blankLinesBetween(file.text, a.endIndex, b.startIndex));
    counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  let best = -1;
  let bestCount = 0;
  for (const [gap, count] of counts) {
    if (count > bestCount || (count === bestCount && gap > best)) {
      best = gap;
      bestCount = count;
    }
  }
  if (best === -1) return fallback;
  if (topLevel && blank > 1) return Math.max(best, blank);
  return best;
}
