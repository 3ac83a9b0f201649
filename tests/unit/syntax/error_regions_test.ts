import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { describeRegions, errorRegions } from "../../../src/syntax/error_regions.ts";
import { fixtureUrl } from "../../_helpers.ts";

Deno.test("errorRegions() narrows ERROR nodes to the skipped tokens and merges what touches", async () => {
  // effect@4.1.0 src/internal/doNotation.ts, misread by tree-sitter-typescript@0.23.2.
  const text = await Deno.readTextFile(fixtureUrl("unparsed", "doNotation.ts"));
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const parsed = await ws.trees!.parse("doNotation.ts", "typescript", "v1", text);
  const regions = errorRegions(parsed.tree.rootNode);
  assert.deepEqual(regions.map((r) => [r.start_line, r.end_line]), [
    [8, 8],
    [13, 15],
    [24, 24],
    [28, 30],
    [41, 41],
    [65, 65],
    [92, 92],
  ]);
  assert.equal(describeRegions(regions), "line 8, lines 13–15, line 24 and 4 more regions");
  assert.deepEqual(errorRegions(parsed.tree.rootNode, 2).length, 2);
  const clean = await ws.trees!.parse("a.ts", "typescript", "v2", "export const a = 1;\n");
  assert.deepEqual(errorRegions(clean.tree.rootNode), []);
});

Deno.test("outlineOf() drops members a misparse left outside their container", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const { outlineOf, flattenSymbols } = await import("../../../src/syntax/symbols.ts");
  const text = await Deno.readTextFile(fixtureUrl("unparsed", "doNotation.ts"));
  const outline = await outlineOf(ws, "doNotation.ts", { text, version: "v1" });
  assert.deepEqual(flattenSymbols(outline.symbols).map((s) => s.name_path), ["Map", "bindTo", "bind"]);
  assert.equal(outline.error_regions?.length, 7);
});
