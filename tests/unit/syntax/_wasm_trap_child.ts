/**
 * Child process of trees_test.ts: starts the tree-sitter runtime with a small wasm memory (40 MB at most),
 * so that parsing a few megabytes aborts the runtime (`Aborted()`, out of memory) as a 200 MB file does
 * with the default 2 GB; then checks that later parses, of another file and another language, still work.
 * Prints one JSON line.
 */
import * as ts from "web-tree-sitter";
import { Grammars } from "../../../src/mod.ts";
import { TreeCache } from "../../../src/syntax/trees.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";

const loader = createWasmLoader();
await ts.Parser.init({
  wasmBinary: await loader.runtime(),
  locateFile: (name: string) => name,
  wasmMemory: new WebAssembly.Memory({ initial: 512, maximum: 640 }),
} as never);
const cache = new TreeCache(new Grammars(loader), { maxParseBytes: 64 * 1024 * 1024 });
const unit = await Deno.readTextFile(new URL("../../../src/fs/stage.ts", import.meta.url));
const big = unit.repeat(Math.ceil(6e6 / unit.length));
const outcome = (p: Promise<{ tree: { rootNode: { hasError: boolean } } }>) =>
  p.then(
    (r) => ({ ok: true, hasError: r.tree.rootNode.hasError }),
    (e) => ({ ok: false, code: e?.code ?? null, message: String(e?.message ?? e).slice(0, 300) }),
  );
const result = {
  big: await outcome(cache.parse("big.ts", "typescript", "v1", big)),
  small: await outcome(cache.parse("stage.ts", "typescript", "v2", unit)),
  python: await outcome(cache.parse("m.py", "python", "v3", "def f():\n    return 1\n")),
  traps: cache.traps,
};
console.log(JSON.stringify(result));
