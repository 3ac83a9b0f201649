/**
 * The enclosing symbol of a match: the name path of the innermost definition whose lines hold it (the
 * breadcrumb an editor shows above the line), from the file's outline. Files without a grammar, and files
 * too large to parse for a search's sake, have none.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { flattenSymbols, outlineOf } from "../syntax/symbols.ts";
import type { Parsing, SymbolInfo } from "../syntax/types.ts";

/** Larger files are not parsed to name enclosing symbols (a search stays a search, not a parse of the tree). */
export const MAX_SYMBOL_FILE_CHARS = 1_000_000;

/** Names the enclosing symbol of lines in one file: null for each line outside every definition. */
export type EnclosingSymbols = (
  file: { path: string; text: string; version: string },
  lines: readonly number[],
) => Promise<(string | null)[]>;

/**
 * Where a file's symbols may come from other than a parse on this thread (a worker that holds its tree):
 * every symbol depth first, as `flattenSymbols` lists them; undefined sends the lookup to this thread's parse.
 */
export type SymbolsElsewhere = (
  file: { path: string; text: string; version: string },
) => Promise<SymbolInfo[] | undefined>;

/**
 * The innermost symbol of each line of a file (index: the 1-based line; undefined outside every symbol),
 * from its symbols depth first: each symbol paints its lines, the longest first and, among equally long
 * ones, in depth-first order, so that a line ends with the shortest symbol holding it (the deepest listed
 * of equally short ones). Made once per list of symbols: the matches of a file, and the next search's, are
 * each one look-up.
 */
function innermostByLine(symbols: readonly SymbolInfo[]): (string | undefined)[] {
  let byLine = BY_LINE.get(symbols);
  if (byLine !== undefined) return byLine;
  byLine = [];
  const span = (s: SymbolInfo) => s.full_range.end_line - s.full_range.start_line;
  const order = symbols.map((_, i) => i).sort((a, b) => span(symbols[b]!) - span(symbols[a]!) || a - b);
  for (const i of order) {
    const { start_line, end_line } = symbols[i]!.full_range;
    for (let line = start_line; line <= end_line; line++) byLine[line] = symbols[i]!.name_path;
  }
  BY_LINE.set(symbols, byLine);
  return byLine;
}

/** Each symbol list's line table ({@linkcode innermostByLine}), for as long as the list lives. */
const BY_LINE = new WeakMap<readonly SymbolInfo[], (string | undefined)[]>();

/** A file's symbols depth first, by its outline's top-level list (an outline is cached per parse). */
const FLAT = new WeakMap<readonly SymbolInfo[], SymbolInfo[]>();

/** The symbols of an outline's top-level list, depth first, listed once per list. */
function flatOnce(topLevel: SymbolInfo[]): SymbolInfo[] {
  let flat = FLAT.get(topLevel);
  if (flat === undefined) FLAT.set(topLevel, flat = flattenSymbols(topLevel));
  return flat;
}

/**
 * Enclosing symbols from a workspace's grammars and parse cache (a tree parsed for a file's version is
 * reused by the next search and by every other tool).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryBackend, createWorkspace } from "../mod.ts";
 * import { createWasmLoader } from "../adapters/deno/mod.ts";
 * import { enclosingSymbolsOf } from "./enclosing_symbol.ts";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
 * const names = enclosingSymbolsOf(ws);
 * const text = "class A {\n  run() {\n    go();\n  }\n}\nend();\n";
 * assert.deepEqual(await names({ path: "a.ts", text, version: "v1" }, [3, 6]), ["A/run", null]);
 * ```
 *
 * @param parsing The workspace's grammars and parse cache.
 * @param elsewhere Where a file's symbols may come from first (a match pool's workers).
 * @returns The lookup; it answers nulls for a file it cannot outline.
 */
export function enclosingSymbolsOf(parsing: Parsing, elsewhere?: SymbolsElsewhere): EnclosingSymbols {
  return async (file, lines) => {
    const none = lines.map(() => null);
    if (parsing.grammars === null || file.text.length > MAX_SYMBOL_FILE_CHARS) return none;
    let symbols: SymbolInfo[];
    try {
      symbols = await elsewhere?.(file) ?? flatOnce(
        (await outlineOf(parsing, file.path, { text: file.text, version: file.version })).symbols,
      );
    } catch (err) {
      // No grammar or no symbol query for this file: no breadcrumb, the match stands.
      if (err instanceof RecoverableError) return none;
      throw err;
    }
    const byLine = innermostByLine(symbols);
    return lines.map((line) => byLine[line] ?? null);
  };
}

/**
 * Set each entry's `symbol` where the lookup names one (the entries of one file).
 *
 * @param entries One file's matches, each with its 1-based line.
 * @param file That file's text and version.
 * @param enclosing The lookup, or undefined when symbols are not asked for.
 */
export async function nameEnclosingSymbols(
  entries: { path: string; line: number; symbol?: string }[],
  file: { text: string; version: string },
  enclosing: EnclosingSymbols | undefined,
): Promise<void> {
  if (enclosing === undefined || entries.length === 0) return;
  const names = await enclosing({ path: entries[0]!.path, ...file }, entries.map((e) => e.line));
  entries.forEach((e, i) => {
    if (names[i]) e.symbol = names[i]!;
  });
}
