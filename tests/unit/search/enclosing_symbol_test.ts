import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { enclosingSymbolsOf, MAX_SYMBOL_FILE_CHARS } from "../../../src/search/enclosing_symbol.ts";
import { flattenSymbols, outlineOf } from "../../../src/syntax/symbols.ts";

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

Deno.test("enclosingSymbolsOf() names, for every line of real files, the shortest definition holding it (the deepest listed of equally short ones)", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const names = enclosingSymbolsOf(ws);
  const dist = new URL("../../../node_modules/hono/dist/", import.meta.url);
  for (const name of ["hono-base.js", "context.js", "request.js", "types.d.ts", "jsx/base.js"]) {
    const text = await Deno.readTextFile(new URL(name, dist)).catch(() => null);
    if (text === null) continue;
    const path = name.replace("/", "_");
    const flat = flattenSymbols((await outlineOf(ws, path, { text, version: `v-${name}` })).symbols);
    const lines = Array.from({ length: text.split("\n").length }, (_, i) => i + 1);
    const expected = lines.map((line) => {
      let best: (typeof flat)[number] | null = null;
      for (const s of flat) {
        const r = s.full_range;
        if (r.start_line > line || r.end_line < line) continue;
        const span = r.end_line - r.start_line;
        if (best === null || span <= best.full_range.end_line - best.full_range.start_line) best = s;
      }
      return best?.name_path ?? null;
    });
    assert.ok(expected.some((n) => n !== null), name);
    assert.deepEqual(await names({ path, text, version: `v-${name}` }, lines), expected, name);
  }
});
