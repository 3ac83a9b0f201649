import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { lazyEngine } from "../../../src/tools/_lazy.ts";
import { isRecoverable } from "../../../src/errors.ts";
import { startGraph } from "../_start_graph.ts";

const SRC = new URL("../../../src/", import.meta.url);

/** Engines no call needs before it runs: each is loaded by the handler (or step) that uses it. */
const ENGINES =
  /^(structural|text|search)\/|^guards\/definition_gate\.ts$|^syntax\/(symbols|queries|bindings|syntax_guard|line_summary)\.ts$/;

Deno.test("opening a workspace and listing the tools evaluates no engine: the handlers load theirs on first call", async () => {
  for (const entry of ["tools/catalogue.ts", "tools/dispatch.ts", "workspace.ts"]) {
    const graph = await startGraph(entry);
    assert.ok(graph.has("tools/read_file.ts") && graph.has("tools/edit_extract_function.ts"), entry);
    // data, not engines: the anchor positions (edit_insert_at_anchor's enum), the refactors' language lists,
    // search_text's argument aliases
    const data = new Set([
      "structural/edit/anchor_positions.ts",
      "structural/shared/refactor_languages.ts",
      "search/text_aliases.ts",
    ]);
    const engines = [...graph].filter((f) => ENGINES.test(f) && !data.has(f));
    assert.deepEqual(engines, [], `${entry} evaluates at start: ${engines.join(", ")}`);
  }
});

Deno.test("a search loads the search engines alone: no edit parser, matcher or applier of the text engines", async () => {
  const graph = await startGraph("tools/_engines_search.ts");
  assert.ok(graph.has("search/search_text.ts") && graph.has("search/structural_search.ts"));
  const edits = [...graph].filter((f) => f.startsWith("text/"));
  assert.deepEqual(edits, [], `the search engines evaluate: ${edits.join(", ")}`);
  // re2js (through the RE2 program's module) loads only for a pattern that needs a program: not for -F.
  const re2 = [...graph].filter((f) => f === "syntax/linear_regex.ts" || f === "search/text_program.ts");
  assert.deepEqual(re2, [], `the search engines evaluate: ${re2.join(", ")}`);
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": "export const total = 1;\n" }),
    wasm: createWasmLoader(),
  });
  const found = await ws.call("search_text", { pattern: "total", symbols: false });
  assert.ok(found.ok, JSON.stringify(found));
  assert.deepEqual((found.data["matches"] as { line: number }[]).map((m) => m.line), [1]);
});

Deno.test("a structural search loads the pattern matcher alone: no other structural engine, and RE2 only for a regex", async () => {
  const graph = await startGraph("tools/_engines_pattern.ts");
  assert.ok(graph.has("structural/search/pattern_matcher.ts") && graph.has("structural/edit/site_fit.ts"));
  // The rest of the structural chunk (~28 ms of a one-shot `graver sg`), and re2js (~14 ms): the matcher
  // loads the RE2 compiler only for a query with a `regex` or a `replace`.
  const others = [...graph].filter((f) =>
    /^structural\/(rename|extract|inline|move_decl|move_file|change_signature|references)\//.test(f) ||
    f === "syntax/linear_regex.ts"
  );
  assert.deepEqual(others, [], `the structural search's chunk evaluates: ${others.join(", ")}`);
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.js": "const fooBar = 1;\nconsole.log(fooBar);\n" }),
    wasm: createWasmLoader(),
  });
  const plain = await ws.call("search_structural", { pattern: "console.log($A)", symbols: false });
  assert.ok(plain.ok, JSON.stringify(plain));
  // A rule's regex and a transformation's replace (ast-grep's string form too) still compile and match.
  const rule = await ws.call("search_structural", {
    rule: { pattern: "console.log($A)", has: { kind: "identifier", regex: "^foo", stopBy: "end" } },
    language: "js",
    rewrite: "log($B)",
    transform: { B: 'replace($A, replace="([A-Z])", by="_$1")' },
  });
  assert.ok(rule.ok, JSON.stringify(rule));
  const [match] = rule.data["matches"] as { replacement?: string }[];
  assert.equal(match?.replacement, "log(foo_Bar)");
});

Deno.test("the first call of a tool loads its engine and answers as before; later calls reuse it", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": "export function total(a: number) {\n  return a + 1;\n}\n" }),
    wasm: createWasmLoader(),
  });
  const outline = await ws.call("outline", { path: "a.ts" });
  assert.ok(outline.ok, JSON.stringify(outline));
  assert.equal((outline.data["symbols"] as { name_path: string }[])[0]!.name_path, "total");
  for (const name of ["sum", "plus"]) {
    const from = name === "sum" ? "total" : "sum";
    const r = await ws.call("edit_rename_symbol", { path: "a.ts", target: from, new_name: name });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
  }
  const read = await ws.call("read_file", { path: "a.ts" });
  assert.ok(read.ok);
  assert.match(String(read.data["content"]), /function plus\(a: number\)/);
});

Deno.test("an engine that cannot be loaded is refused as internal with a hint, not thrown as a crash", async () => {
  const missing = lazyEngine(
    "the structural engine (missing)",
    () => import(new URL("no_such_engine.ts", SRC).href),
  );
  const err = await missing().then(() => null, (e: unknown) => e);
  assert.ok(isRecoverable(err), String(err));
  assert.equal(err.code, "internal");
  assert.match(err.message, /^Cannot load the structural engine \(missing\): /);
  assert.match(err.hint, /Nothing was written/);
  assert.deepEqual(err.details, { engine: "the structural engine (missing)" });
});
