/**
 * A lookup by name in a large file: instead of outlining a file of thousands of statements to find one symbol,
 * outline only the top-level statements that mention the name and their nearest defining neighbours — the
 * same symbols, name paths and neighbours as the whole outline, or null where that cannot be promised.
 *
 * @module
 */
import type { Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import { HEAD_CHARS } from "./grammars.ts";
import type { Parsing } from "./types.ts";
import type { Outline } from "./types.ts";
import { collect, hasOutline, outlineOf, symbolsOfMatches, tagsQuery } from "./symbols.ts";

/** Past this many characters, a lookup by name outlines only the top-level statements that mention the name. */
export const NAMED_LOOKUP_CHARS = 1024 * 1024;

/** How far a named lookup looks past a statement for the neighbour that holds a definition. */
const NEIGHBOUR_STEPS = 16;

/**
 * The outline of the parts of a large file where symbols named `names` can be ({@linkcode namedSymbols}), or,
 * on a file under {@linkcode NAMED_LOOKUP_CHARS}, when the whole outline is cached, or when that does not
 * apply, the whole outline (`partial: false`). The tags query, most of an outline's cost, then runs on a few
 * statements of a file of thousands.
 *
 * @param ws The workspace (grammars and parse cache).
 * @param rel Relative path (the parse cache's key).
 * @param file Its decoded text and version, and the names a lookup will resolve (each segment of a name path).
 * @returns The outline, and whether it is partial (a lookup that finds no one symbol must ask the whole one).
 */
export async function outlineForNames(
  ws: Parsing,
  rel: string,
  file: { text: string; version: string; names: readonly string[] },
): Promise<{ outline: Outline; partial: boolean }> {
  const { text, version } = file;
  const language = ws.grammars?.languageOf(rel, text.slice(0, HEAD_CHARS)) ?? null;
  if (text.length >= NAMED_LOOKUP_CHARS && ws.trees && language !== null) {
    const parsed = await ws.trees.parse(rel, language, version, text);
    const near = hasOutline(parsed) ? null : await namedSymbols(ws, { ...parsed, names: file.names });
    if (near) return { outline: near, partial: true };
  }
  return { outline: await outlineOf(ws, rel, { text, version }), partial: false };
}

/**
 * The outline of the top-level statements whose text mentions one of `names`, with, on each side of each, the
 * nearest statement that holds a definition (so a symbol's neighbours, its blank-line gaps and the definitions
 * around it are as in the whole outline). A symbol's name is text of its definition, so every symbol with one
 * of these names, and every symbol that holds it, is in those statements with the same name path as in the
 * whole outline (same-named siblings all mention the name). A statement too big to outline for a lookup (a
 * bundle's one function of 40,000 lines) is left out when it only uses the names. Null when this cannot
 * stand for the whole outline: the names are nowhere or everywhere, a big statement defines one of them, or a
 * neighbour is big or far.
 *
 * @param ws The workspace (its grammars).
 * @param parsed The language, tree and text of the file, and the names.
 * @returns The partial outline, or null (ask the whole one).
 */
export async function namedSymbols(
  ws: Parsing,
  parsed: { language: string; tree: Tree; text: string; names: readonly string[] },
): Promise<Outline | null> {
  const { text, names } = parsed;
  const query = await tagsQuery(ws, parsed.language);
  const root = parsed.tree.rootNode;
  const kids = root.children;
  const mentioned = statementsMentioning(text, { kids, names });
  if (mentioned.size === 0 || mentioned.size > kids.length / 4) return null;
  const found = new Map<number, QueryMatch[]>();
  const matchesOf = (i: number): QueryMatch[] => {
    let m = found.get(i);
    if (!m) found.set(i, m = query.matches(root, queryRange(kids[i]!)));
    return m;
  };
  const big = (i: number) => kids[i]!.endIndex - kids[i]!.startIndex > BIG_STATEMENT_CHARS;
  for (const i of mentioned) {
    if (big(i)) {
      if (definesAny(query, { root, node: kids[i]!, text, names })) return null;
      continue;
    }
    matchesOf(i);
    for (const step of [-1, 1]) {
      for (let j = i + step, n = 0; j >= 0 && j < kids.length; j += step, n++) {
        if (n === NEIGHBOUR_STEPS || big(j)) return null;
        if (matchesOf(j).some(isDefinitionMatch)) break;
      }
    }
  }
  if (found.size === 0) return null;
  const matches = [...found.keys()].sort((a, b) => a - b).flatMap((i) => found.get(i)!);
  return symbolsOfMatches(parsed, matches);
}

/** A top-level statement over this many characters is not outlined for a lookup by name. */
const BIG_STATEMENT_CHARS = 64 * 1024;

function isDefinitionMatch(m: QueryMatch): boolean {
  return m.captures.some((c) => c.name.startsWith("definition.") && c.name !== "definition.local");
}

/**
 * Whether a mention of one of the names inside `node` is where a definition is named (its `@name`), or lies in
 * a definition without a `@name` capture (whose name comes from its text): the query runs on each mention's
 * few characters only.
 */
function definesAny(
  query: Query,
  at: { root: Node; node: Node; text: string; names: readonly string[] },
): boolean {
  const { node, text } = at;
  for (const name of at.names) {
    if (name === "") continue;
    for (let from = text.indexOf(name, node.startIndex); from !== -1 && from < node.endIndex;) {
      const range = { startIndex: from * 2, endIndex: (from + name.length) * 2 };
      // As `collect` reads them: per definition node, the earliest pattern wins, and a local is no symbol.
      for (const r of collect(query.matches(at.root, range))) {
        if (!r.nameNode || r.nameNode.startIndex === from) return true;
      }
      from = text.indexOf(name, from + name.length);
    }
  }
  return false;
}

/**
 * A query range over one node. web-tree-sitter gives a node's offsets in UTF-16 code units (what JavaScript
 * strings index) but takes a query's range in bytes of the UTF-16 text it parsed, two per code unit; a range
 * from the root (not a query on the node itself) keeps the patterns that start at the root (`(program …)`).
 */
function queryRange(node: Node): { startIndex: number; endIndex: number } {
  return { startIndex: node.startIndex * 2, endIndex: node.endIndex * 2 };
}

/** The indexes of the top-level statements whose text holds one of the names. */
function statementsMentioning(text: string, at: { kids: Node[]; names: readonly string[] }): Set<number> {
  const { kids } = at;
  const out = new Set<number>();
  for (const name of at.names) {
    if (name === "") continue;
    for (let from = text.indexOf(name); from !== -1; from = text.indexOf(name, from + name.length)) {
      let lo = 0;
      let hi = kids.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (kids[mid]!.startIndex <= from) lo = mid;
        else hi = mid - 1;
      }
      if (kids[lo] && kids[lo]!.startIndex <= from && from < kids[lo]!.endIndex) out.add(lo);
    }
  }
  return out;
}
