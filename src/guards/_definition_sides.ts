/**
 * One side of a text edit as the definition gate sees it: the file's guarded
 * definitions (from the tags query, and the language's definition keywords
 * as a floor) with their header rows, and the row arithmetic of hunks. Private
 * to the gate.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../errors.ts";
import { querySource, symbolRules } from "../syntax/queries.ts";
import { outlineOf, symbolNode } from "../syntax/symbols.ts";
import { TextIndex } from "../syntax/text_index.ts";
import type { Parsing, SymbolInfo } from "../syntax/types.ts";
import { GATED_KINDS, type KeywordRule, keywordRules } from "./_definition_keywords.ts";
import type { LineHunk } from "../fs/text_changes.ts";
import type { LineSpan, TouchedDefinition } from "./definition_findings.ts";

/** A definition of one side, as plain data (its tree may be freed once the other side is parsed). */
export interface Def {
  kind: string;
  name: string;
  namePath: string | null;
  /** Rows (0-based, inclusive) of the definition node. */
  start: number;
  end: number;
  /** Header rows, as inclusive intervals. */
  header: [number, number][];
  startOffset: number;
  endOffset: number;
}

/** What the gate knows of one side of the edit. */
export interface Side {
  text: string;
  lines: string[];
  symbols: SymbolInfo[];
  defs: Def[];
}

export type Rows = [number, number];

function overlaps(a: Rows, b: Rows): boolean {
  return a[0] <= b[1] && b[0] <= a[1];
}

/** The rows a hunk removes (old text) or adds (new text), or null when it removes/adds none. */
export function removedRows(h: LineHunk): Rows | null {
  return h.removed > 0 ? [h.beforeStart, h.beforeStart + h.removed - 1] : null;
}

/** The rows a hunk adds (new text), or null when it adds none. */
export function addedRows(h: LineHunk): Rows | null {
  return h.added > 0 ? [h.afterStart, h.afterStart + h.added - 1] : null;
}

/** Where a hunk sits in one text: its rows, or for a pure insertion/removal the gap between two rows. */
export function placeIn(h: LineHunk, side: "before" | "after"): Rows {
  const rows = side === "before" ? removedRows(h) : addedRows(h);
  if (rows) return rows;
  const at = side === "before" ? h.beforeStart : h.afterStart;
  return [at - 1, at];
}

/** The row where a definition's header ends: the last token before its body, comments skipped. */
function headerEndRow(
  node: Node,
  bodyStart: number,
  text: string,
  comments: string[],
  index: TextIndex,
): number {
  const start = node.startIndex;
  let k = bodyStart - 1;
  for (;;) {
    while (k >= start && /\s/.test(text[k]!)) k--;
    if (k < start) return index.line(start) - 1;
    const leaf = node.descendantForIndex(k);
    let c: Node | null = leaf;
    while (c && c.id !== node.id && !comments.includes(c.type)) c = c.parent;
    if (!c || c.id === node.id) return index.line(k) - 1;
    k = c.startIndex - 1;
  }
}

/** Header rows of a definition node: to where its body starts, or its first line and its name's line. */
function headerOf(
  node: Node,
  bodyStart: number | undefined,
  name: string,
  text: string,
  comments: string[],
  index: TextIndex,
): [number, number][] {
  const first = index.line(node.startIndex) - 1;
  if (bodyStart !== undefined && bodyStart > node.startIndex) {
    return [[first, headerEndRow(node, bodyStart, text, comments, index)]];
  }
  const at = name === "" ? -1 : text.indexOf(name, node.startIndex);
  const nameRow = at >= 0 && at < node.endIndex ? index.line(at) - 1 : first;
  return nameRow === first ? [[first, first]] : [[first, first], [nameRow, nameRow]];
}

/** The body of a definition node found by its keyword: its `body` field, or a child of a body type. */
function bodyNodeOf(node: Node, bodies: readonly string[]): Node | null {
  const body = node.childForFieldName("body");
  if (body) return body;
  for (const c of node.namedChildren) if (c && bodies.includes(c.type)) return c;
  return null;
}

/** A definition found by its keyword: the declaration node, or in a parse error the name after the keyword. */
interface KeywordHit {
  /** The declaration, or (recovered) the name node that follows the keyword inside an ERROR node. */
  node: Node;
  /** True when the parser could not build the declaration (its keyword and name sit in an ERROR node). */
  recovered: boolean;
}

const NAME_LIKE = /identifier|constant|name/;

/** The token right after `leaf` on its line (the first leaf of its next sibling), or null. */
function tokenAfter(leaf: Node): Node | null {
  let n = leaf.nextSibling;
  while (n && n.childCount > 0) n = n.firstChild;
  return n && n.startPosition.row === leaf.endPosition.row ? n : null;
}

/** The definition a keyword token heads, or null when it heads an expression or a type. */
function keywordDefinition(leaf: Node, rules: KeywordRule[]): KeywordHit | null {
  for (const rule of rules) {
    if (rule.chain.length === 1 && rule.chain[0] === "ERROR") {
      // inside a parse error, the keyword followed by a name is still a declaration
      const name = leaf.parent?.type === "ERROR" ? tokenAfter(leaf) : null;
      if (name && NAME_LIKE.test(name.type)) return { node: name, recovered: true };
      continue;
    }
    let n: Node | null = leaf;
    let ok = true;
    for (let i = rule.chain.length - 1; i >= 0; i--) {
      n = n?.parent ?? null;
      if (!n || n.type !== rule.chain[i]) {
        ok = false;
        break;
      }
    }
    if (!ok || !n) continue;
    if (rule.needsBody && !n.childForFieldName("body")) continue;
    return { node: n, recovered: false };
  }
  return null;
}

const KEYWORD_KINDS: Record<string, string> = {
  fn: "function",
  def: "function",
  func: "function",
  fun: "function",
  function: "function",
};

/** Function-like kinds: what is defined inside them is local to a call. */
export const SCOPES = new Set(["function", "method", "constructor"]);

/** The symbols of guarded kinds, depth first, each marked when it sits inside a function-like symbol. */
function guardedSymbols(symbols: SymbolInfo[]): { symbol: SymbolInfo; local: boolean }[] {
  const out: { symbol: SymbolInfo; local: boolean }[] = [];
  const walk = (list: SymbolInfo[], local: boolean) => {
    for (const s of list) {
      if (GATED_KINDS.has(s.kind)) out.push({ symbol: s, local });
      if (s.children.length > 0) walk(s.children, local || SCOPES.has(s.kind));
    }
  };
  walk(symbols, false);
  return out;
}

/** Whether a definition keyword of the language's table heads `node` (a declaration, not a bound expression). */
function declaredByKeyword(node: Node, keywords: Map<string, KeywordRule[]>): boolean {
  if (keywords.size === 0) return false;
  for (const leaf of node.descendantsOfType([...keywords.keys()])) {
    const hit = leaf ? keywordDefinition(leaf, keywords.get(leaf.type) ?? []) : null;
    if (hit && !hit.recovered && hit.node.id === node.id) return true;
  }
  return false;
}

/** What {@linkcode sideOf} parses: one text of the edited file and the rows the edit touches in it. */
export interface SideInput {
  /** Relative path (the parse cache's key). */
  path: string;
  /** The file's language. */
  language: string;
  /** The side's text. */
  text: string;
  /** The text's version. */
  version: string;
  /** Rows around the edit: guarded definitions that reach them are collected. */
  region: Rows;
  /** Rows the edit changed on this side: the keyword floor looks for definitions there. */
  changed: Rows[];
}

/** What the phases of {@linkcode sideOf} share. */
interface SideScan {
  text: string;
  comments: string[];
  bodies: string[];
  index: TextIndex;
  keywords: Map<string, KeywordRule[]>;
  defs: Def[];
  /** `start:end` offsets of the definition nodes already collected. */
  seen: Set<string>;
}

/**
 * Parse one side and collect its guarded definitions near `region` (rows), plus
 * the definitions the keyword floor finds on `changed` rows. Everything is
 * copied out of the tree before returning.
 *
 * @param ws Grammars and parse cache.
 * @param input The side's text and the rows the edit touches.
 * @returns The side as plain data.
 */
export async function sideOf(ws: Parsing, input: SideInput): Promise<Side> {
  const { path, language, text, version } = input;
  const parsed = await ws.trees!.parse(path, language, version, text);
  const symbols = await outlineSymbols(ws, input);
  const rules = symbolRules(language);
  const scan: SideScan = {
    text,
    comments: rules.comments,
    bodies: rules.bodies ?? [],
    index: new TextIndex(text),
    keywords: keywordRules(language),
    defs: [],
    seen: new Set<string>(),
  };
  collectOutlineDefs(scan, symbols, input.region);
  if (scan.keywords.size > 0) collectKeywordDefs(scan, parsed.tree.rootNode, input.changed);
  return { text, lines: text.split("\n"), symbols, defs: scan.defs };
}

/** The side's outline symbols; none when the language has no tags query or its outline is unsupported. */
async function outlineSymbols(ws: Parsing, input: SideInput): Promise<SymbolInfo[]> {
  if (querySource(input.language, "tags") === null) return [];
  try {
    return (await outlineOf(ws, input.path, { text: input.text, version: input.version })).symbols;
  } catch (err) {
    if (!(err instanceof RecoverableError && err.code === "unsupported_language")) throw err;
    return [];
  }
}

/** The guarded outline symbols that reach `region`, as definitions. */
function collectOutlineDefs(scan: SideScan, symbols: SymbolInfo[], region: Rows): void {
  const { text, comments, index, keywords, defs, seen } = scan;
  for (const { symbol: s, local } of guardedSymbols(symbols)) {
    const start = s.range.start_line - 1;
    const end = s.range.end_line - 1;
    if (end < region[0] || start > region[1]) continue;
    const node = symbolNode(s);
    if (!node) continue;
    // inside a function, only a declaration counts (a nested `def`), not a closure bound to a local
    if (local && !declaredByKeyword(node, keywords)) continue;
    seen.add(`${node.startIndex}:${node.endIndex}`);
    defs.push({
      kind: s.kind,
      name: s.name,
      namePath: s.name_path,
      start,
      end,
      header: headerOf(node, s.body_range?.start_utf16, s.name, text, comments, index),
      startOffset: s.range.start_utf16,
      endOffset: s.range.end_utf16,
    });
  }
}

/** The keyword floor: definitions headed by a definition keyword on the changed rows, not collected yet. */
function collectKeywordDefs(scan: SideScan, root: Node, changed: Rows[]): void {
  const { keywords, seen } = scan;
  const types = [...keywords.keys()];
  for (const rows of changed) {
    const found = root.descendantsOfType(types, { row: rows[0], column: 0 }, {
      row: rows[1] + 1,
      column: 0,
    });
    for (const leaf of found) {
      if (!leaf || leaf.startPosition.row < rows[0] || leaf.startPosition.row > rows[1]) continue;
      const hit = keywordDefinition(leaf, keywords.get(leaf.type) ?? []);
      if (!hit) continue;
      const key = `${hit.node.startIndex}:${hit.node.endIndex}`;
      if (seen.has(key)) continue;
      seen.add(key);
      scan.defs.push(keywordDef(scan, leaf, hit));
    }
  }
}

/** A definition the keyword floor found, from its keyword `leaf` and what {@linkcode keywordDefinition} returned. */
function keywordDef(scan: SideScan, leaf: Node, hit: KeywordHit): Def {
  const def = hit.node;
  const kind = KEYWORD_KINDS[leaf.type] ?? leaf.type;
  if (hit.recovered) {
    // no declaration node: its keyword and name are the header
    return {
      kind,
      name: def.text,
      namePath: null,
      start: leaf.startPosition.row,
      end: def.endPosition.row,
      header: [[leaf.startPosition.row, def.endPosition.row]],
      startOffset: leaf.startIndex,
      endOffset: def.endIndex,
    };
  }
  const name = def.childForFieldName("name")?.text ?? "";
  const body = bodyNodeOf(def, scan.bodies);
  return {
    kind,
    name,
    namePath: null,
    start: def.startPosition.row,
    end: def.endPosition.row,
    header: headerOf(def, body?.startIndex, name, scan.text, scan.comments, scan.index),
    startOffset: def.startIndex,
    endOffset: def.endIndex,
  };
}

/** The definitions of a side whose header rows the given rows touch, outer first. */
export function touching(side: Side, rows: Rows | null): Def[] {
  if (!rows) return [];
  return side.defs.filter((d) => d.header.some((iv) => overlaps(iv, rows))).sort((a, b) =>
    a.start - b.start || b.end - a.end
  );
}

/** Rows as 1-based lines, the empty "line" after a final newline left out. */
export function span(side: Side, rows: Rows | null): LineSpan | undefined {
  if (!rows) return undefined;
  const last = Math.max(1, side.text.endsWith("\n") ? side.lines.length - 1 : side.lines.length);
  const end = Math.min(rows[1] + 1, last);
  return { start_line: Math.min(rows[0] + 1, end), end_line: end };
}

/** Whether every row of the range is blank (no rows: true). */
export function allBlank(side: Side, rows: Rows | null): boolean {
  if (!rows) return true;
  for (let r = rows[0]; r <= rows[1]; r++) if ((side.lines[r] ?? "").trim() !== "") return false;
  return true;
}

/** The text of the rows (no rows: ""). */
export function linesOf(side: Side, rows: Rows | null): string {
  return rows ? side.lines.slice(rows[0], rows[1] + 1).join("\n") : "";
}

/** A definition as a finding reports it. */
export function describe(d: Def, side: "before" | "after"): TouchedDefinition {
  const out: TouchedDefinition = {
    kind: d.kind,
    name: d.name,
    side,
    lines: { start_line: d.start + 1, end_line: d.end + 1 },
  };
  if (d.namePath !== null) out.name_path = d.namePath;
  return out;
}
