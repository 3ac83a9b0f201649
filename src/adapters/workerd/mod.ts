/**
 * The workerd adapter: workerd forbids compiling wasm at run time, so the
 * runtime and grammar wasm arrive as precompiled `WebAssembly.Module`s
 * imported by the worker (miniflare `CompiledWasm` modules).
 *
 * @module
 */
import type { GrammarEntry, WasmLoader } from "../../syntax/grammars.ts";

/** Which runtime this adapter is for. */
export const RUNTIME = "workerd";

/** Options for {@linkcode createWasmLoader}. */
export interface ModuleWasmOptions {
  /** The tree-sitter runtime module. */
  runtime: WebAssembly.Module;
  /** Grammar modules by language id. */
  grammars: Record<string, WebAssembly.Module>;
}

/**
 * Hand precompiled modules to `Grammars`.
 *
 * @param options The imported modules.
 * @returns A loader for `Grammars`.
 */
export function createWasmLoader(options: ModuleWasmOptions): WasmLoader {
  return {
    runtime: () => Promise.resolve(options.runtime),
    grammar: (id: string, _entry: GrammarEntry) => {
      const m = options.grammars[id];
      return m
        ? Promise.resolve(m)
        : Promise.reject(new Error(`Cannot load grammar "${id}": the worker did not import its wasm module`));
    },
  };
}
