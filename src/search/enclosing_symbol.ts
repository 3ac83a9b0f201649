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

/** The innermost symbol holding `line` (1-based), from a depth-first list. */
function innermost(symbols: readonly SymbolInfo[], line: number): SymbolInfo | null {
  let best: SymbolInfo | null = null;
  for (const s of symbols) {
    const r = s.full_range;
    if (r.start_line > line || r.end_line < line) continue;
    if (best === null || r.end_line - r.start_line <= best.full_range.end_line - best.full_range.start_line) {
      best = s;
    }
  }
  return best;
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
      symbols = await elsewhere?.(file) ?? flattenSymbols(
        (await outlineOf(parsing, file.path, { text: file.text, version: file.version })).symbols,
      );
    } catch (err) {
      // No grammar or no symbol query for this file: no breadcrumb, the match stands.
      if (err instanceof RecoverableError) return none;
      throw err;
    }
    return lines.map((line) => innermost(symbols, line)?.name_path ?? null);
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
