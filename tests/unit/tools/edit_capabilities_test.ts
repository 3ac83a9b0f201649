import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, GRAMMARS as MANIFEST, Grammars } from "../../../src/mod.ts";
import { languagesWithTags } from "../../../src/syntax/queries.ts";
import { bindingLanguages } from "../../../src/syntax/bindings.ts";
import { ok, refused, workspaceWith } from "../structural/_fixtures.ts";

/** The languages with a binding query (find_references, edit_rename_symbol). */
const BINDING_LANGUAGES = [
  "c",
  "c_sharp",
  "cpp",
  "go",
  "java",
  "javascript",
  "kotlin",
  "php",
  "python",
  "ruby",
  "rust",
  "tsx",
  "typescript",
];

interface Row {
  language: string;
  grammar: boolean;
  tags_query: boolean;
  bindings_query: boolean;
  reference_scope?: "project" | "file";
  limits?: { capability: string; limit: string }[];
  capabilities: Record<string, boolean>;
  gaps: { capability: string; fallback: string }[];
}

Deno.test("edit_capabilities lists every manifest language with what works, from the grammars and tags queries", async () => {
  const ws = await workspaceWith({});
  const rows = ok(await ws.call("edit_capabilities", {}))["languages"] as Row[];
  assert.deepEqual(rows.map((r) => r.language), Object.keys(MANIFEST));
  const tags = new Set(languagesWithTags());
  const bindings = new Set(bindingLanguages());
  assert.deepEqual([...bindings].sort(), BINDING_LANGUAGES);
  for (const row of rows) {
    assert.equal(row.grammar, true, `${row.language} grammar loads`);
    assert.equal(row.tags_query, tags.has(row.language));
    assert.equal(row.capabilities["patterns"], true);
    assert.equal(row.capabilities["safe_text_patch"], true);
    assert.equal(row.capabilities["name_path_edits"], tags.has(row.language));
    assert.equal(row.capabilities["find_references"], bindings.has(row.language));
    assert.equal(row.capabilities["rename_symbol"], bindings.has(row.language));
    assert.equal(
      row.capabilities["change_signature"],
      ["typescript", "tsx", "javascript", "python"].includes(row.language),
    );
    const movable = ["typescript", "tsx", "javascript", "python"].includes(row.language);
    assert.equal(row.capabilities["move_decl"], movable);
    assert.equal(row.capabilities["move_file_imports"], movable);
    const inline = ["javascript", "python", "tsx", "typescript"].includes(row.language);
    const extract = inline || ["go", "rust"].includes(row.language);
    assert.equal(row.capabilities["extract_function"], extract, row.language);
    assert.equal(row.capabilities["inline"], inline, row.language);
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
  const scopes = Object.fromEntries(rows.map((r) => [r.language, r.reference_scope ?? null]));
  assert.equal(scopes["go"], "project");
  assert.equal(scopes["rust"], "project");
  assert.equal(scopes["python"], "project");
  assert.equal(scopes["java"], "file");
  assert.equal(scopes["c"], "file");
  assert.equal(scopes["lua"], null);
  const java = rows.find((r) => r.language === "java")!;
  assert.deepEqual(java.gaps.map((g) => g.capability), [
    "change_signature",
    "move_decl",
    "move_file_imports",
    "extract_function",
    "inline",
  ]);
  assert.deepEqual(java.limits!.map((l) => l.capability), ["find_references", "rename_symbol"]);
  assert.match(java.limits![0]!.limit, /scope "file"/);
  const go = rows.find((r) => r.language === "go")!;
  assert.equal(go.limits, undefined);
  assert.deepEqual(go.gaps.map((g) => g.capability), [
    "change_signature",
    "move_decl",
    "move_file_imports",
    "inline",
  ]);
  const lua = rows.find((r) => r.language === "lua")!;
  assert.deepEqual(lua.gaps.map((g) => g.capability), [
    "find_references",
    "rename_symbol",
    "change_signature",
    "move_decl",
    "move_file_imports",
    "extract_function",
    "inline",
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
  assert.deepEqual([...bindings].sort(), BINDING_LANGUAGES);
  for (const row of rows) {
    assert.equal(row.grammar, true);
    assert.equal(row.capabilities["name_path_edits"], tags.has(row.language));
    assert.equal(row.capabilities["find_references"], bindings.has(row.language));
    assert.equal(row.capabilities["rename_symbol"], bindings.has(row.language));
    assert.equal(
      row.capabilities["change_signature"],
      ["typescript", "tsx", "javascript", "python"].includes(row.language),
    );
    assert.equal(row.bindings_query, bindings.has(row.language));
  }
});
