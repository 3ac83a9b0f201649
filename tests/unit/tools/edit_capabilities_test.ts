import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, GRAMMARS as MANIFEST, Grammars } from "../../../src/mod.ts";
import { languagesWithTags } from "../../../src/syntax/queries.ts";
import { bindingLanguages } from "../../../src/syntax/bindings.ts";
import { ok, refused, workspaceWith } from "../structural/_fixtures.ts";

interface Row {
  language: string;
  grammar: boolean;
  tags_query: boolean;
  bindings_query: boolean;
  capabilities: Record<string, boolean>;
  gaps: { capability: string; fallback: string }[];
}

Deno.test("edit_capabilities lists every manifest language with what works, from the grammars and tags queries", async () => {
  const ws = await workspaceWith({});
  const rows = ok(await ws.call("edit_capabilities", {}))["languages"] as Row[];
  assert.deepEqual(rows.map((r) => r.language), Object.keys(MANIFEST));
  const tags = new Set(languagesWithTags());
  const bindings = new Set(bindingLanguages());
  assert.deepEqual([...bindings].sort(), ["javascript", "python", "tsx", "typescript"]);
  for (const row of rows) {
    assert.equal(row.grammar, true, `${row.language} grammar loads`);
    assert.equal(row.tags_query, tags.has(row.language));
    assert.equal(row.capabilities["patterns"], true);
    assert.equal(row.capabilities["safe_text_patch"], true);
    assert.equal(row.capabilities["name_path_edits"], tags.has(row.language));
    assert.equal(row.capabilities["find_references"], bindings.has(row.language));
    assert.equal(row.capabilities["rename_symbol"], bindings.has(row.language));
    assert.equal(row.capabilities["move_decl"], bindings.has(row.language));
    assert.equal(row.capabilities["move_file_imports"], bindings.has(row.language));
    assert.equal(row.bindings_query, bindings.has(row.language));
    // Every gap names its fallback.
    assert.deepEqual(
      row.gaps.map((g) => g.capability),
      Object.entries(row.capabilities).filter(([, v]) => !v).map(([k]) => k),
    );
    for (const g of row.gaps) assert.ok(g.fallback.length > 0);
  }
  const python = rows.find((r) => r.language === "python")!;
  assert.deepEqual(python.gaps, []);
  const go = rows.find((r) => r.language === "go")!;
  assert.deepEqual(go.gaps.map((g) => g.capability), [
    "find_references",
    "rename_symbol",
    "move_decl",
    "move_file_imports",
  ]);
});

Deno.test("edit_capabilities without grammars leaves only the safe text patch, and refuses an unknown language", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({}) });
  const rows = ok(await ws.call("edit_capabilities", { language: "go" }))["languages"] as Row[];
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.grammar, false);
  assert.deepEqual(Object.entries(rows[0]!.capabilities).filter(([, v]) => v).map(([k]) => k), [
    "safe_text_patch",
  ]);
  assert.ok(
    rows[0]!.gaps.find((g) => g.capability === "patterns")!.fallback.includes("edit_safe_text_patch"),
  );
  assert.equal(refused(await ws.call("edit_capabilities", { language: "cobol" })).code, "not_found");
});

Deno.test("edit_capabilities is data: it loads no grammar wasm and no runtime", async () => {
  let loads = 0;
  // Fresh SHA-256 keys, so no grammar loaded earlier in this process is shared.
  const manifest = Object.fromEntries(
    Object.entries(MANIFEST).map(([id, e]) => [id, { ...e, sha256: `unloaded-${e.sha256}` }]),
  );
  const grammars = new Grammars({
    runtime: () => (loads++, Promise.reject(new Error("runtime wasm asked for"))),
    grammar: (id) => (loads++, Promise.reject(new Error(`grammar "${id}" asked for`))),
  }, manifest);
  const ws = await createWorkspace({ backend: createMemoryBackend({}), grammars });
  const rows = ok(await ws.call("edit_capabilities", {}))["languages"] as Row[];
  assert.equal(loads, 0);
  assert.deepEqual(rows.map((r) => r.language), Object.keys(MANIFEST));
  const tags = new Set(languagesWithTags());
  const bindings = new Set(bindingLanguages());
  assert.deepEqual([...bindings].sort(), ["javascript", "python", "tsx", "typescript"]);
  for (const row of rows) {
    assert.equal(row.grammar, true);
    assert.equal(row.capabilities["name_path_edits"], tags.has(row.language));
    assert.equal(row.capabilities["find_references"], bindings.has(row.language));
    assert.equal(row.capabilities["rename_symbol"], bindings.has(row.language));
    assert.equal(row.bindings_query, bindings.has(row.language));
  }
});
