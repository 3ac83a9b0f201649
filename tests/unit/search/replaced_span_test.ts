/**
 * The span a replacement replaces: the match's own, or the wider one a fix's expansion found — and through the
 * tools, a list item deleted with its comma (`expand_end`), previewed with ast-grep's `replacementOffsets`, and
 * a widening that would pass over code refused rather than dropping it.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { replacedSpan } from "../../../src/search/replaced_span.ts";

Deno.test("replacedSpan is the match's span unless a fix's expansion widened it", () => {
  assert.deepEqual(replacedSpan({ start: 3, end: 8 }), { start: 3, end: 8 });
  assert.deepEqual(replacedSpan({ start: 3, end: 8, replaced: { start: 1, end: 9 } }), { start: 1, end: 9 });
});

Deno.test("expand_end / expand_start widen a rewrite to the sibling they find: items go with their commas", async () => {
  const text = "const a = [1, 2, 3];\nf(x, dropMe, y);\nconst o = { b: 1, c: 2 };\n";
  const backend = createMemoryBackend({ "/w/a.ts": text });
  const ws = await createWorkspace({ backend, root: "/w", wasm: createWasmLoader() });
  const read = async () => new TextDecoder().decode(await backend.readFile("/w/a.ts") as Uint8Array);
  try {
    const preview = await ws.call("search_structural", {
      rule: { kind: "number", regex: "^2$", inside: { kind: "array" } },
      rewrite: "",
      expand_end: { regex: "," },
      output_format: "ast-grep",
    });
    assert.ok(preview.ok, JSON.stringify(preview));
    const [m] = preview.data["ast_grep"] as {
      range: { byteOffset: { start: number; end: number } };
      replacementOffsets: { start: number; end: number };
    }[];
    assert.deepEqual(m!.range.byteOffset, { start: 14, end: 15 });
    assert.deepEqual(m!.replacementOffsets, { start: 14, end: 16 }, "the comma after the 2 goes too");
    const items = await ws.call("edit_rewrite_structural", {
      rule: { kind: "number", regex: "^2$", inside: { kind: "array" } },
      rewrite: "",
      expandEnd: "regex: ','", // ast-grep's name, as YAML text
    });
    assert.ok(items.ok, JSON.stringify(items));
    const args = await ws.call("edit_rewrite_structural", {
      rule: { kind: "identifier", regex: "^dropMe$", inside: { kind: "arguments" } },
      rewrite: "",
      expand_start: { regex: "," },
    });
    assert.ok(args.ok, JSON.stringify(args));
    assert.equal(await read(), "const a = [1,  3];\nf(x, y);\nconst o = { b: 1, c: 2 };\n");
    // A widening that would pass over code (stopBy end, past `b: 1`) is refused, nothing written.
    const greedy = await ws.call("edit_rewrite_structural", {
      rule: { kind: "pair", has: { field: "key", regex: "^c$" } },
      rewrite: "",
      expand_start: { regex: "^\\{$", stopBy: "end" },
    });
    assert.ok(!greedy.ok);
    assert.equal(greedy.error.code, "ambiguous");
    assert.match(
      greedy.error.message,
      /expandStart \/ expandEnd widen the replaced span over code .*\(pair\)/,
    );
    assert.equal(await read(), "const a = [1,  3];\nf(x, y);\nconst o = { b: 1, c: 2 };\n");
  } finally {
    await ws.close();
  }
});
