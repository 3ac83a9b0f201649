/**
 * The Deno match pool: workers (`new Worker(url, { type: "module" })`) that parse and match the files of a
 * structural search on the other cores (`structural/search/match_pool.ts`). A long-lived process (a server, an
 * agent session) gives one to its workspace (`createWorkspace({ matchPool })`); a one-shot command does not
 * (the workers' start would cost it more than they save). Deno keeps a process alive while a worker runs:
 * the pool ends its workers after `idleMs` without work, and `close()` ends them at once.
 *
 * @module
 */
import { MatchPool, type MatchWorker } from "../../structural/search/match_pool.ts";
import type { WasmLoader } from "../../syntax/grammars.ts";
import { createWasmLoader } from "../_posix.ts";

/** Options of {@linkcode createMatchPool}. */
export interface DenoMatchPoolOptions {
  /** The wasm the workers load (default: the vendored files, as `createWasmLoader()`). */
  wasm?: WasmLoader;
  /** How many workers (default: the cores but one, at least 2, at most 4). */
  size?: number;
  /** End idle workers after this many ms (default 5000). */
  idleMs?: number;
  /** A batch unanswered this long (plus 1 ms per 10,000 characters) ends its worker (default 10,000). */
  timeoutMs?: number;
  /** Characters a search parses on its own thread before it starts the workers (`MatchPoolOptions.startChars`). */
  startChars?: number;
}

/** The default size: the cores but one (the main thread reads and hashes), at least 2, at most 4. */
function defaultSize(): number {
  const cores = navigator.hardwareConcurrency || 2;
  return Math.min(4, Math.max(2, cores - 1));
}

/**
 * A pool of Deno workers for structural searches.
 *
 * @example
 * ```ts ignore
 * const matchPool = createMatchPool();
 * const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader(), matchPool });
 * // … searches …
 * matchPool.close();
 * ```
 *
 * @param options The wasm, the size and the limits.
 * @returns The pool (its workers start on the first search).
 */
export function createMatchPool(options: DenoMatchPoolOptions = {}): MatchPool {
  const url = new URL("./_match_worker_main.ts", import.meta.url);
  return new MatchPool({
    spawn: () => new Worker(url, { type: "module" }) as unknown as MatchWorker,
    wasm: options.wasm ?? createWasmLoader(),
    size: options.size ?? defaultSize(),
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.startChars !== undefined ? { startChars: options.startChars } : {}),
  });
}
