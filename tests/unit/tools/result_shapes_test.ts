/**
 * Every tool's real result, on a real Python file (tests/fixtures/real/MSVSUserFile.py,
 * from node-gyp), checked against its published result schema with the
 * eval-free validator dispatch uses (@cfworker/json-schema, draft 2020-12).
 */
import assert from "node:assert/strict";
import { Validator } from "@cfworker/json-schema";
import { createMemoryBackend, createWorkspace, type ToolResult } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { TOOLS } from "../../../src/tools/catalogue.ts";
import { RESULT_DATA, resultSchema } from "../../../src/tools/result_shapes.ts";

const SOURCE = await Deno.readTextFile(new URL("../../fixtures/real/MSVSUserFile.py", import.meta.url));

function check(tool: string, result: ToolResult): void {
  const v = new Validator(resultSchema(tool) as never, "2020-12", false);
  const out = v.validate(result);
  assert.ok(
    out.valid,
    `${tool}: ${JSON.stringify(out.errors.slice(-3))}\n${JSON.stringify(result).slice(0, 400)}`,
  );
}

Deno.test("every real tool has a result data shape; aliases answer with the real tool's", () => {
  for (const t of TOOLS) {
    if (t.forward) assert.equal(RESULT_DATA[t.name], undefined, t.name);
    else assert.ok(RESULT_DATA[t.name], `RESULT_DATA lacks ${t.name}`);
  }
});

Deno.test("each tool's real success and refusal match its result schema", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/w/gyp/MSVSUserFile.py": SOURCE, "/w/notes.txt": "one\ntwo\n" }),
    root: "/w",
    wasm: createWasmLoader(),
    checkpoints: true,
  });
  const py = "gyp/MSVSUserFile.py";
  const calls: [string, Record<string, unknown>][] = [
    ["read_file", { path: py, start_line: 1, end_line: 5 }],
    ["list_files", { recursive: true }],
    ["search_text", { pattern: "def \\w+", "-C": 1 }],
    ["search_text", { pattern: "Writer", output_mode: "count" }],
    ["search_text", { pattern: "one", literal: true, output_mode: "files_with_matches" }],
    ["search_structural", { pattern: "self.$A = $B", language: "python" }],
    ["search_structural", { pattern: "self.$A = $B", max_chars: 10 }],
    ["outline", { path: py }],
    ["find_symbol", { name_path: "Writer/AddConfig", include_body: true }],
    ["edit_capabilities", { language: "python" }],
    ["edit_file", { path: "notes.txt", old_string: "one", new_string: "1" }],
    ["edit_file", { path: "notes.txt", edits: [{ oldText: "two", newText: "2" }] }],
    ["apply_edits", { text: "notes.txt\n<<<<<<< SEARCH\n2\n=======\nzwei\n>>>>>>> REPLACE\n" }],
    ["edit_safe_text_patch", { path: "notes.txt", hunks: [{ old_text: "zwei\n", new_text: "deux\n" }] }],
    ["write_file", { path: "notes.txt", content: "un\ndeux\n" }],
    ["edit_replace_text", { pattern: "(d)eux", replacement: "${1}EUX", path: "notes.txt" }],
    ["edit_rewrite_structural", { pattern: "self.name = $B", rewrite: "self.title = $B", dry_run: true }],
    ["create_file", { path: "new.txt", content: "n\n" }],
    ["move_file", { from: "new.txt", to: "moved.txt" }],
    ["delete_file", { path: "moved.txt" }],
    ["replace_symbol", {
      path: py,
      name_path: "Writer/AddConfig",
      new_text:
        'def AddConfig(self, name):\n    self.configurations[name] = ["Configuration", {"Name": name}]',
    }],
    ["insert_code", {
      path: py,
      name_path: "Writer/AddConfig",
      position: "after",
      code: "def Extra(self):\n    pass",
    }],
    ["remove_symbol", { path: py, name_path: "Writer/Extra" }],
    ["edit_apply_node", {
      path: py,
      selector: { name_path: "_QuoteWin32CommandLineArgs" },
      new_text: "def _QuoteWin32CommandLineArgs(args):\n    return args",
    }],
    ["edit_insert_at_anchor", {
      path: py,
      selector: { name_path: "Writer" },
      position: "end_of_body",
      text: "def Last(self):\n    pass",
    }],
    ["edit_dry_run", { plan: [{ tool: "write_file", args: { path: "notes.txt", content: "x\n" } }] }],
    ["find_references", { path: py, target: "Writer/AddConfig" }],
    ["edit_rename_symbol", { path: py, target: "Writer/AddConfig", new_name: "AddConfiguration" }],
    ["edit_change_signature", {
      path: py,
      name_path: "_QuoteWin32CommandLineArgs",
      params: ["args", { name: "quote", default: "True" }],
    }],
    ["write_file", { path: "gyp/a.py", content: "def helper():\n    return 1\n" }],
    ["edit_move_decl", { path: "gyp/a.py", name_path: "helper", to_path: "gyp/b.py" }],
    ["edit_extract_function", { path: py, range: { start_line: 30, end_line: 30 }, name: "search_paths" }],
    ["edit_inline", { path: py, target: { line: 31, column: 21 } }],
    ["str_replace_based_edit_tool", { command: "view", path: py, view_range: [1, 2] }],
    ["apply_patch", { input: "*** Begin Patch\n*** Add File: p.txt\n+p\n*** End Patch\n" }],
    ["checkpoint_list", {}],
    ["checkpoint_undo", {}],
  ];
  const covered = new Set<string>();
  for (const [tool, args] of calls) {
    const r = await ws.call(tool, args);
    assert.ok(r.ok, `${tool}: ${JSON.stringify(r)}`);
    check(tool, r);
    check(r.tool, r); // an alias's result has the real tool's data
    covered.add(tool);
  }
  const listed = await ws.call("checkpoint_list", { limit: 3 });
  assert.ok(listed.ok);
  const oldest = (listed.data["checkpoints"] as { id: string }[])[2]!.id;
  const restored = await ws.call("checkpoint_restore", { id: oldest });
  assert.ok(restored.ok, JSON.stringify(restored));
  check("checkpoint_restore", restored);
  covered.add("checkpoint_restore");
  for (const t of TOOLS) {
    if (!t.forward || t.name !== "str_replace_editor") assert.ok(covered.has(t.name), t.name);
  }
  const refusal = await ws.call("read_file", { path: "nope.py" });
  assert.ok(!refusal.ok);
  check("read_file", refusal);
  // a schema that is wrong for a result fails: the check has teeth
  const wrong = { ...refusal, ok: true };
  assert.equal(
    new Validator(resultSchema("read_file") as never, "2020-12", false).validate(wrong).valid,
    false,
  );
});
