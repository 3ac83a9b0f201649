/**
 * The browser adapter: wasm fetched from URLs, IndexedDB storage through
 * lightning-fs.
 *
 * @module
 */
import LightningFS from "@isomorphic-git/lightning-fs";
import type { Backend } from "../../fs/backend.ts";
import type { GrammarEntry, WasmLoader } from "../../syntax/grammars.ts";

/** Which runtime this adapter is for. */
export const RUNTIME = "browser";

/** Options for {@linkcode createWasmLoader}. */
export interface UrlWasmOptions {
  /** URL under which `wasm/web-tree-sitter.wasm` and `grammars/wasm/<id>.wasm` are served. */
  baseUrl: URL;
}

/**
 * Fetch wasm over HTTP(S) from where the app serves it.
 *
 * @param options The base URL.
 * @returns A loader for `Grammars`.
 */
export function createWasmLoader(options: UrlWasmOptions): WasmLoader {
  const bytes = async (rel: string) => {
    const url = new URL(rel, options.baseUrl);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`Cannot fetch "${url.href}": HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  };
  return {
    runtime: () => bytes("wasm/web-tree-sitter.wasm"),
    grammar: (id: string, _entry: GrammarEntry) => bytes(`grammars/wasm/${id}.wasm`),
  };
}

/**
 * A backend in IndexedDB (lightning-fs) whose writes can be made durable at
 * once. lightning-fs keeps its directory tree in memory and saves it to
 * IndexedDB 500 ms after the last write (and when it goes idle): a page closed
 * or reloaded within that window loses the commits of that window, whole — the
 * tree is saved as one record, so the store falls back to an earlier
 * consistent state. Call `flush()` after a commit the user must find again.
 */
export interface IndexedDbBackend extends Backend {
  /** Save the directory tree to IndexedDB now. */
  flush(): Promise<void>;
}

/**
 * A persistent backend in IndexedDB (lightning-fs). Checkpoints (the shadow
 * isomorphic-git repository under `.graver/checkpoints/`) work on it as on
 * any backend; instances over the same database (tabs, reloads) take turns
 * through lightning-fs's lock.
 *
 * @param name Database name.
 * @returns An fs.promises-shaped backend with `flush()`.
 */
export function createIndexedDbBackend(name: string): IndexedDbBackend {
  const fs = new LightningFS(name);
  return fs.promises as unknown as IndexedDbBackend;
}
