/**
 * The inside of a `MatchPool` worker (`match_pool.ts`), runtime-neutral: it loads the tree-sitter runtime and
 * each grammar from the wasm the pool posts, compiles each query once with the same pattern matcher the main
 * thread uses (`patternMatcherOf`), keeps its own parse cache (one tree per path, reused by version), and
 * answers each batch of files with their sites (and, asked, the symbols of each file with sites; or, asked for
 * outlines, each file's symbols). For a file it could not match (over the parse limit, a trap, anything) it
 * answers `failed`: the pool's caller then matches that file on its own thread, which gives the answer (or the
 * error) the search would have given without a pool.
 * An adapter's worker module only wires its global scope to {@linkcode serveMatches}.
 *
 * @module
 */
import { Grammars, type WasmInput } from "../../syntax/grammars.ts";
import { flattenSymbols, outlineOf } from "../../syntax/symbols.ts";
import { TreeCache } from "../../syntax/trees.ts";
import type { Parsing, SymbolInfo } from "../../syntax/types.ts";
import type { MatchFile, MatchQuery } from "./match_pool.ts";
import { type LanguageProgram, patternMatcherOf } from "./pattern_matcher.ts";

/** The global scope of a worker, as far as this module uses it. */
export interface MatchWorkerScope {
  /** Answer the pool. */
  postMessage(message: unknown): void;
  /** Receives the pool's messages. */
  onmessage: ((event: MessageEvent) => void) | null;
}

/** Compiled queries kept per worker (a session searches a few patterns again and again). */
const PROGRAMS_KEPT = 16;

/** A message from the pool. */
interface PoolMessage {
  type: "init" | "grammar" | "match" | "outline" | "clear";
  runtime?: WasmInput;
  language?: string;
  wasm?: WasmInput;
  id?: number;
  query?: MatchQuery;
  files?: MatchFile[];
  /** With a match: outline each file that has sites too, in the same answer (`symbols`). */
  outline?: boolean;
}

/**
 * Serve a `MatchPool` from a worker's global scope.
 *
 * @example
 * ```ts ignore
 * // the adapter's worker module
 * serveMatches(self as unknown as MatchWorkerScope);
 * ```
 *
 * @param scope The worker's global scope.
 */
export function serveMatches(scope: MatchWorkerScope): void {
  let runtime: WasmInput | null = null;
  const grammarWasm = new Map<string, WasmInput>();
  const missing = (what: string) => Promise.reject(new Error(`The pool has not sent the ${what}`));
  const grammars = new Grammars({
    runtime: () => runtime === null ? missing("runtime") : Promise.resolve(runtime),
    grammar: (id) => grammarWasm.has(id) ? Promise.resolve(grammarWasm.get(id)!) : missing(`grammar "${id}"`),
  });
  const trees = new TreeCache(grammars);
  const matcher = patternMatcherOf({ grammars, trees });
  const programs = new Map<string, Promise<LanguageProgram>>();
  const programOf = (language: string, query: MatchQuery) => {
    const key = `${language}\0${JSON.stringify(query)}`;
    let program = programs.get(key);
    if (program === undefined) {
      if (programs.size >= PROGRAMS_KEPT) programs.delete(programs.keys().next().value!);
      programs.set(key, program = matcher.compile(language, query));
      program.catch(() => programs.delete(key));
    }
    return program;
  };
  // Batches are answered in the order they came: each waits for the one before it.
  let queue: Promise<void> = Promise.resolve();
  scope.onmessage = (event: MessageEvent) => {
    const m = event.data as PoolMessage;
    if (m.type === "init") {
      runtime = m.runtime!;
      scope.postMessage({ type: "ready" });
    } else if (m.type === "clear") {
      queue = queue.then(() => trees.clear());
    } else if (m.type === "grammar") {
      grammarWasm.set(m.language!, m.wasm!);
    } else if (m.type === "match") {
      queue = queue.then(async () => {
        const results = await matchBatch(() => programOf(m.language!, m.query!), m.files!);
        if (m.outline === true) await outlineMatched({ grammars, trees }, { files: m.files!, results });
        scope.postMessage({ type: "done", id: m.id, results });
      });
    } else if (m.type === "outline") {
      queue = queue.then(async () => {
        const results = await outlineBatch({ grammars, trees }, m.files!);
        scope.postMessage({ type: "done", id: m.id, results });
      });
    }
  };
}

/** Each file's sites, or why it was not matched. */
async function matchBatch(
  program: () => Promise<LanguageProgram>,
  files: MatchFile[],
): Promise<({ sites: unknown[] } | { failed: string })[]> {
  let compiled: LanguageProgram;
  try {
    compiled = await program();
  } catch (err) {
    return files.map(() => ({ failed: `the query did not compile (${String(err)})` }));
  }
  const out: ({ sites: unknown[] } | { failed: string })[] = [];
  for (const file of files) {
    try {
      out.push({ sites: await compiled.match(file) });
    } catch (err) {
      out.push({ failed: String(err) });
    }
  }
  return out;
}

/**
 * Add to each matched file's answer its symbols (as {@linkcode outlineBatch} gives them), while the worker holds
 * its tree: the search names each match's enclosing symbol, and asking for them afterwards cost a message to
 * the worker and back. A file whose outline fails is answered without (the pool asks again, and fails there).
 */
async function outlineMatched(
  parsing: Parsing,
  batch: {
    files: MatchFile[];
    results: ({ sites: unknown[]; symbols?: SymbolInfo[] } | { failed: string })[];
  },
): Promise<void> {
  for (const [i, result] of batch.results.entries()) {
    if (!("sites" in result) || result.sites.length === 0) continue;
    const [outlined] = await outlineBatch(parsing, [batch.files[i]!]);
    if (outlined && "sites" in outlined) result.symbols = outlined.sites;
  }
}

/** Each file's symbols, depth first, each without its children (they follow it in the list), or why not. */
async function outlineBatch(
  parsing: Parsing,
  files: MatchFile[],
): Promise<({ sites: SymbolInfo[] } | { failed: string })[]> {
  const out: ({ sites: SymbolInfo[] } | { failed: string })[] = [];
  for (const file of files) {
    try {
      const symbols = flattenSymbols((await outlineOf(parsing, file.path, file)).symbols);
      out.push({ sites: symbols.map((s) => ({ ...s, children: [] })) });
    } catch (err) {
      out.push({ failed: String(err) });
    }
  }
  return out;
}
