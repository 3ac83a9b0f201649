/**
 * Shared by the Deno, Node and Bun adapters: `node:fs/promises` as a disk
 * backend, and wasm read from the vendored files on disk.
 *
 * @module
 */
import * as fsp from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Backend } from "../fs/backend.ts";
import type { GrammarEntry, WasmLoader } from "../syntax/grammars.ts";

/** The disk as a backend (paths are absolute backend paths). */
export function createDiskBackend(): Backend {
  return fsp as unknown as Backend;
}

/** Options for {@linkcode createWasmLoader}. */
export interface DiskWasmOptions {
  /** The repository (or package) root holding `wasm/` and `grammars/wasm/`. */
  baseUrl?: URL;
}

/** The repository root as seen from this file. */
export const DEFAULT_BASE: URL = new URL("../../", import.meta.url);

/**
 * Read vendored wasm from disk as bytes.
 *
 * @param options Where the vendored wasm lives.
 * @returns A loader for `Grammars`.
 */
export function createWasmLoader(options: DiskWasmOptions = {}): WasmLoader {
  const base = options.baseUrl ?? DEFAULT_BASE;
  const read = async (rel: string, what: string) => {
    const path = fileURLToPath(new URL(rel, base));
    try {
      return new Uint8Array(await fsp.readFile(path));
    } catch (cause) {
      throw new Error(
        `Cannot load ${what} from "${path}": run "deno task setup" to vendor the wasm files`,
        { cause },
      );
    }
  };
  return {
    runtime: () => read("wasm/web-tree-sitter.wasm", "the tree-sitter runtime"),
    grammar: (id: string, _entry: GrammarEntry) => read(`grammars/wasm/${id}.wasm`, `grammar "${id}"`),
  };
}

/** The process's current directory as an absolute posix path. */
export function cwd(): string {
  return process.cwd();
}
