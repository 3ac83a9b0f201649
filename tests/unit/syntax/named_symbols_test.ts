/**
 * A lookup by name in a large file outlines only the statements that mention the name (`namedSymbols`): every
 * symbol it resolves must be the whole outline's, byte for byte, with the same neighbours. Checked on two real
 * large files: TypeScript's compiler (`_tsc.js`, 6 MB, flat, with a 2 MB function inside) and `lib.dom.d.ts`
 * (1.9 MB of declarations), a sample of their symbols each.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { parseNamePath, resolveNamePath } from "../../../src/syntax/name_path.ts";
import { flattenSymbols, outlineOf } from "../../../src/syntax/symbols.ts";
import { NAMED_LOOKUP_CHARS, namedSymbols, outlineForNames } from "../../../src/syntax/named_symbols.ts";
import type { SymbolInfo } from "../../../src/syntax/types.ts";
import { createWorkspace } from "../../../src/workspace.ts";

const TS_LIB = fileURLToPath(new URL("../../../node_modules/typescript/lib/", import.meta.url));

/** The full ranges of a symbol's neighbours among its siblings. */
function neighbours(symbols: SymbolInfo[], target: SymbolInfo): unknown {
  const walk = (list: SymbolInfo[]): unknown => {
    const i = list.indexOf(target);
    if (i >= 0) return [list[i - 1]?.full_range ?? null, list[i + 1]?.full_range ?? null];
    for (const s of list) {
      const found = walk(s.children);
      if (found) return found;
    }
    return null;
  };
  return walk(symbols);
}

async function sameAsWhole(file: string, rel: string, options: { atLeast: number }) {
  const text = await Deno.readTextFile(`${TS_LIB}${file}`);
  assert.ok(text.length >= NAMED_LOOKUP_CHARS);
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const whole = await outlineOf(ws, rel, { text, version: "v1" });
  const parsed = await ws.trees!.parse(rel, ws.grammars!.languageOf(rel, text)!, "v1", text);
  // Top-level symbols and nested ones (a method, a function in a function), 40 of each.
  const sample = (list: SymbolInfo[]) =>
    list.filter((_, k) => k % Math.max(1, Math.floor(list.length / 40)) === 0);
  let partial = 0;
  for (const s of [...sample(whole.symbols), ...sample(flattenSymbols(whole.symbols))]) {
    const near = await namedSymbols(ws, {
      ...parsed,
      names: parseNamePath(s.name_path).segments.map((x) => x.name),
    });
    if (!near) continue;
    const a = resolveNamePath(whole.symbols, s.name_path);
    const b = resolveNamePath(near.symbols, s.name_path);
    // Not found or ambiguous in part of the file sends the lookup to the whole outline: only a unique answer counts.
    if (b.status !== "unique") continue;
    partial++;
    assert.equal(a.status, "unique", s.name_path);
    if (a.status !== "unique") continue;
    assert.deepEqual(b.symbol, a.symbol, s.name_path);
    assert.deepEqual(neighbours(near.symbols, b.symbol), neighbours(whole.symbols, a.symbol), s.name_path);
  }
  assert.ok(partial >= options.atLeast, `${partial} lookups answered from part of ${file}`);
}

Deno.test("namedSymbols(): in TypeScript's 6 MB compiler, each symbol found from the statements naming it is the whole outline's", async () => {
  await sameAsWhole("_tsc.js", "tsc.js", { atLeast: 40 });
});

Deno.test("namedSymbols(): in lib.dom.d.ts, each symbol found from the statements naming it is the whole outline's", async () => {
  await sameAsWhole("lib.dom.d.ts", "dom.d.ts", { atLeast: 40 });
});

Deno.test("outlineForNames(): a small file, or a name defined inside a big statement, gets the whole outline", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const small = await outlineForNames(ws, "a.js", { text: "function f() {}\n", version: "v1", names: ["f"] });
  assert.equal(small.partial, false);
  // One statement of 1.3 MB (a function holding the definition) among small ones: the lookup cannot be partial.
  const inner = Array.from({ length: 70_000 }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const small10 = Array.from({ length: 10 }, (_, i) => `function f${i}() {}\n`).join("");
  const text = `${small10}function outer() {\n${inner}\n  function target() {}\n}\nfunction b() {}\n`;
  const big = await outlineForNames(ws, "b.js", { text, version: "v1", names: ["target"] });
  assert.equal(big.partial, false);
  assert.equal(resolveNamePath(big.outline.symbols, "target").status, "unique");
  // A name only small statements mention: those and their neighbours, the big function not outlined.
  const near = await outlineForNames(ws, "c.js", { text, version: "v1", names: ["f3"] });
  assert.equal(near.partial, true);
  assert.deepEqual(near.outline.symbols.map((s) => s.name_path), ["f2", "f3", "f4"]);
});
