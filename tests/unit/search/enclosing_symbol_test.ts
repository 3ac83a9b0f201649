import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { enclosingSymbolsOf, MAX_SYMBOL_FILE_CHARS } from "../../../src/search/enclosing_symbol.ts";

const TEXT = "class A {\n  run() {\n    go();\n  }\n}\nend();\n";

Deno.test("enclosingSymbolsOf() names the innermost definition holding each line, null outside every one", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const names = enclosingSymbolsOf(ws);
  assert.deepEqual(await names({ path: "a.ts", text: TEXT, version: "v1" }, [1, 3, 6]), ["A", "A/run", null]);
  // no grammar for the file, or too large to parse for a search: no names, the matches stand
  assert.deepEqual(await names({ path: "a.unknownext", text: TEXT, version: "v1" }, [3]), [null]);
  const big = TEXT + " ".repeat(MAX_SYMBOL_FILE_CHARS);
  assert.deepEqual(await names({ path: "b.ts", text: big, version: "v2" }, [3]), [null]);
});

Deno.test("enclosingSymbolsOf() on a workspace without grammars answers nulls", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({}) });
  assert.deepEqual(await enclosingSymbolsOf(ws)({ path: "a.ts", text: TEXT, version: "v1" }, [3]), [null]);
});
