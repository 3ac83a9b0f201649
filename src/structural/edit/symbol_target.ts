/**
 * A symbol opened for an edit by name path: the file (through the stage,
 * version-checked, parsed), the one symbol the name path resolves to, its
 * siblings, and the blank-line gap new code next to it takes.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { indentOfLine } from "../../fs/lines.ts";
import type { Stage } from "../../fs/stage.ts";
import { parseNamePath, resolveNamePath } from "../../syntax/name_path.ts";
import { type SymbolRules, symbolRules } from "../../syntax/queries.ts";
import { outlineOf, type SymbolInfo, symbolNode } from "../../syntax/symbols.ts";
import { outlineForNames } from "../../syntax/named_symbols.ts";
import type { Outline, Parsing } from "../../syntax/types.ts";
import {
  blankLinesBetween,
  type DefinitionStarts,
  definitionStartsOf,
  gapBelow,
  neighbourGap,
} from "./layout.ts";
import { loadSource, type SourceFile, withIndentUnit } from "./source.ts";
import { appendAll } from "../../arrays.ts";

/**
 * A file opened for a symbol edit ({@linkcode SourceFile}: path, text, BOM,
 * version, line ending, indent unit, parse), with the resolved symbol.
 */
export interface SymbolTarget extends SourceFile {
  /** The symbol. */
  symbol: SymbolInfo;
  /** Its definition node. */
  node: Node;
  /** Its siblings in the outline (itself included), in document order. */
  siblings: SymbolInfo[];
  /** Whether it is a top-level symbol. */
  topLevel: boolean;
  /** The language's symbol rules. */
  rules: SymbolRules;
  /** Start offsets of the file's definitions (for the blank-line convention around new code). */
  defs: DefinitionStarts;
  /** Roles of the lines of the code being placed (multi-line strings kept, docstrings and comments moved). */
  codeLines?: { keepLines: ReadonlySet<number>; alignLines: ReadonlySet<number> };
}

function candidatesOf(
  list: SymbolInfo[],
): { name_path: string; kind: string; start_line: number; end_line: number }[] {
  return list.map((s) => ({
    name_path: s.name_path,
    kind: s.kind,
    start_line: s.full_range.start_line,
    end_line: s.full_range.end_line,
  }));
}

function siblingsOf(
  symbols: SymbolInfo[],
  target: SymbolInfo,
): { siblings: SymbolInfo[]; topLevel: boolean } {
  if (symbols.includes(target)) return { siblings: symbols, topLevel: true };
  const stack = [...symbols];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (s.children.includes(target)) return { siblings: s.children, topLevel: false };
    appendAll(stack, s.children);
  }
  return { siblings: [target], topLevel: true };
}

/**
 * Resolve a name path in a file: in a large file, first in the outline of the statements that mention its
 * names (`outlineForNames`), which finds the one symbol it names as the whole outline would; when that finds
 * none or several, in the whole outline (its candidates and did-you-means are the file's).
 */
async function lookUp(
  ws: Parsing,
  file: SourceFile,
  namePath: string,
): Promise<{ outline: Outline; res: ReturnType<typeof resolveNamePath> }> {
  const names = parseNamePath(namePath).segments.map((s) => s.name);
  const near = await outlineForNames(ws, file.rel, { text: file.text, version: file.version, names });
  const res = resolveNamePath(near.outline.symbols, namePath);
  if (res.status === "unique" || !near.partial) return { outline: near.outline, res };
  const outline = await outlineOf(ws, file.rel, { text: file.text, version: file.version });
  return { outline, res: resolveNamePath(outline.symbols, namePath) };
}

/**
 * Open `path` through the stage, check `expected_version`, outline it and
 * resolve `namePath` to exactly one symbol.
 *
 * @param ws The workspace.
 * @param stage The call's stage.
 * @param args Path, name path, expected version and the calling tool's name.
 * @returns The target; `ambiguous`, `not_found` or `unsupported_language` otherwise.
 */
export async function openSymbol(
  ws: Parsing,
  stage: Stage,
  args: { path: string; name_path: string; expected_version?: string | undefined; tool: string },
): Promise<SymbolTarget> {
  // No code to place yet: a file without indentation takes its language's habit.
  const file = withIndentUnit(
    await loadSource(ws, stage, { path: args.path, tool: args.tool, expectedVersion: args.expected_version }),
    "",
  );
  const rel = file.rel;
  const { outline, res } = await lookUp(ws, file, args.name_path);
  if (res.status === "ambiguous") {
    const cands = candidatesOf(res.candidates);
    throw new RecoverableError(
      "ambiguous",
      `Cannot pick "${args.name_path}" in "${rel}": ${cands.length} symbols match (${
        cands.slice(0, 5).map((c) => `${c.name_path} lines ${c.start_line}-${c.end_line}`).join(", ")
      })`,
      {
        hint: "Call again with one of the candidates' name_path (overloads are told apart by [i])",
        suggestedCall: { tool: args.tool, args: { path: rel, name_path: cands[0]!.name_path } },
        details: { path: rel, name_path: args.name_path, candidates: cands },
      },
    );
  }
  if (res.status === "not_found") {
    const near = res.suggestions;
    throw new RecoverableError("not_found", `Cannot find symbol "${args.name_path}" in "${rel}"`, {
      hint: near.length > 0
        ? `Did you mean ${near.slice(0, 5).map((n) => `"${n}"`).join(", ")}? Call outline to see every symbol`
        : `Call outline with {"path": "${rel}"} to see the symbols of the file`,
      suggestedCall: { tool: "outline", args: { path: rel } },
      details: { path: rel, name_path: args.name_path, did_you_mean: near },
    });
  }
  const node = symbolNode(res.symbol);
  if (!node) throw new Error(`Cannot locate the node of "${res.symbol.name_path}"`);
  const { siblings, topLevel } = siblingsOf(outline.symbols, res.symbol);
  return {
    ...file,
    symbol: res.symbol,
    node,
    siblings,
    topLevel,
    rules: symbolRules(file.language),
    defs: definitionStartsOf(outline.symbols),
  };
}

/** Blank lines between two consecutive symbols (by their full ranges). */
function gapBetween(text: string, a: SymbolInfo, b: SymbolInfo): number {
  return blankLinesBetween(text, a.full_range.end_utf16, b.full_range.start_utf16);
}

/**
 * The blank lines to keep between a symbol and new code next to it: the gap
 * to its next sibling, else to its previous one, else the language default.
 *
 * @param t The target.
 * @param prefer Which neighbour to measure first.
 * @returns A number of blank lines.
 */
export function conventionalGap(t: SymbolTarget, prefer: "next" | "prev"): number {
  const i = t.siblings.indexOf(t.symbol);
  const prev = i > 0 ? t.siblings[i - 1] : undefined;
  const next = i >= 0 && i + 1 < t.siblings.length ? t.siblings[i + 1] : undefined;
  let after = next ? Math.min(gapBetween(t.text, t.symbol, next), 2) : null;
  if (prefer === "next") {
    // What follows keeps its distance, a statement as well as a symbol.
    after = gapBelow(
      t.text,
      t.symbol.full_range.end_utf16,
      indentOfLine(t.text, t.symbol.full_range.start_utf16),
    ) ??
      after;
  }
  const before = prev ? Math.min(gapBetween(t.text, prev, t.symbol), 2) : null;
  return neighbourGap(prefer === "next" ? "after" : "before", { before, after }, () => {
    const blank = profileOf(t.language).functions.topLevelBlankLines;
    if (t.topLevel && blank > 1) return blank;
    return t.symbol.full_range.end_line > t.symbol.full_range.start_line || t.topLevel ? 1 : 0;
  });
}

/** The first token of a text (a word or one punctuation character). */
export function firstToken(text: string): string {
  return /^\s*([A-Za-z_$][\w$]*|\S)/.exec(text)?.[1] ?? "";
}
