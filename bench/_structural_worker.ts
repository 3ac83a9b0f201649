/**
 * The worker of `structural_workers.bench.ts`: it loads the tree-sitter runtime and one grammar from the wasm
 * it is sent (a compiled `WebAssembly.Module` or bytes), compiles the pattern with the same matcher the main
 * thread uses, and answers match requests with the sites as plain data.
 *
 * Messages in: `{ type: "init", runtime, grammar, language, query }`, `{ type: "match", id, files: [{ path, text,
 * version }] }`, `{ type: "reset" }` (drop every cached tree). Out: `{ type: "ready" }`, `{ id, sites }` or
 * `{ id, error }`.
 *
 * @module
 */
import { Grammars, type WasmInput } from "../src/syntax/grammars.ts";
import { TreeCache } from "../src/syntax/trees.ts";
import { type LanguageProgram, patternMatcherOf } from "../src/structural/search/pattern_matcher.ts";

const scope = self as unknown as {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
};

let trees: TreeCache | null = null;
let program: LanguageProgram | null = null;

scope.onmessage = async (event: MessageEvent) => {
  const m = event.data;
  if (m.type === "init") {
    const wasm = { runtime: m.runtime as WasmInput, grammar: m.grammar as WasmInput };
    const grammars = new Grammars({
      runtime: () => Promise.resolve(wasm.runtime),
      grammar: () => Promise.resolve(wasm.grammar),
    });
    trees = new TreeCache(grammars);
    program = await patternMatcherOf({ grammars, trees }).compile(m.language, m.query);
    scope.postMessage({ type: "ready" });
  } else if (m.type === "reset") {
    trees!.clear();
    scope.postMessage({ type: "reset" });
  } else if (m.type === "match") {
    try {
      const sites = [];
      for (const f of m.files) sites.push(await program!.match(f));
      scope.postMessage({ id: m.id, sites });
    } catch (err) {
      scope.postMessage({ id: m.id, error: String(err) });
    }
  }
};
