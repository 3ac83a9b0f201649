import assert from "node:assert/strict";
import {
  bracketsBalance,
  recogniseEdit,
  renameOf,
  STRUCTURAL_TOOLS,
} from "../../../src/compass/edit_shape.ts";
import { editsByStructure } from "../../../src/tool_kinds.ts";
import { TOOLS } from "../../../src/tools/catalogue.ts";

Deno.test("recogniseEdit() reads every str_replace spelling, hunks, whole-file writes and apply_edits text", () => {
  for (const [o, n] of [["old_text", "new_text"], ["old_string", "new_string"], ["old_str", "new_str"]]) {
    assert.deepEqual(recogniseEdit("edit_file", { path: "a.ts", [o!]: "f(1)", [n!]: "f(2)" }), {
      kind: "str_replace",
      path: "a.ts",
      hunk: { oldText: "f(1)", newText: "f(2)" },
      replaceAll: false,
    });
  }
  // mixed spellings of the two roles are fine; an embedder's own str_replace tool is read the same way
  assert.equal(
    recogniseEdit("str_replace", { path: "a.ts", old_str: "a", new_text: "b" })?.kind,
    "str_replace",
  );
  assert.equal(
    (recogniseEdit("edit_file", { path: "a.ts", old_string: "a", new_string: "b", replace_all: true }) as {
      replaceAll: boolean;
    }).replaceAll,
    true,
  );
  assert.deepEqual(
    recogniseEdit("edit_safe_text_patch", {
      path: "a.ts",
      hunks: [{ old_text: "a", new_text: "b" }, { old_string: "c", new_string: "d" }],
    }),
    { kind: "hunks", path: "a.ts", hunks: [{ oldText: "a", newText: "b" }, { oldText: "c", newText: "d" }] },
  );
  assert.deepEqual(recogniseEdit("write_file", { path: "a.ts", content: "x" }), {
    kind: "whole_file",
    path: "a.ts",
  });
  assert.deepEqual(recogniseEdit("create_file", { path: "a.ts", content: "" }), {
    kind: "whole_file",
    path: "a.ts",
  });
  assert.deepEqual(
    recogniseEdit("apply_edits", { text: "a.ts\n<<<<<<< SEARCH\n" }, { editPaths: ["a.ts", "b.py"] }),
    { kind: "edit_text", paths: ["a.ts", "b.py"] },
  );
});

Deno.test("recogniseEdit() is inert for structural tools, reads and shapes it does not understand", () => {
  // the tools that edit by structure (or only preview) are known by their kind, whatever their name
  const structural = TOOLS.filter((t) => editsByStructure(t.kind));
  assert.deepEqual(structural.map((t) => t.name).sort(), [...STRUCTURAL_TOOLS].sort());
  for (const tool of structural) {
    const args = { path: "a.ts", old_text: "a", new_text: "b" };
    assert.equal(recogniseEdit(tool.name, args, { kind: tool.kind! }), null, tool.name);
  }
  const inert: [string, Record<string, unknown>][] = [
    ["read_file", { path: "a.ts" }],
    ["edit_file", { path: "a.ts", old_string: "", new_string: "new file" }], // creates a file
    ["edit_file", { path: "a.ts", old_string: "a", old_str: "a", new_string: "b" }], // two spellings
    ["edit_file", { path: "a.ts", old_string: "a" }], // no new text
    ["edit_file", { old_string: "a", new_string: "b" }], // no path
    ["edit_file", { path: 3, old_string: "a", new_string: "b" }],
    ["edit_file", { path: "a.ts", old_string: 1, new_string: "b" }],
    ["edit_safe_text_patch", { path: "a.ts", hunks: [] }],
    ["edit_safe_text_patch", { path: "a.ts", hunks: [{ old_text: "a" }] }],
    ["edit_safe_text_patch", { path: "a.ts", hunks: ["a"] }],
    ["write_file", { path: "a.ts" }],
    ["apply_edits", { text: "garbage" }], // no paths parsed
    ["delete_file", { path: "a.ts" }],
    ["move_file", { from: "a.ts", to: "b.ts" }],
  ];
  for (const [tool, args] of inert) {
    assert.equal(recogniseEdit(tool, args), null, JSON.stringify([tool, args]));
  }
});

Deno.test("renameOf() accepts one identifier renamed everywhere in the hunk, nothing else", () => {
  assert.deepEqual(
    renameOf({
      oldText: "function total(a) { return total(a - 1); }",
      newText: "function sum(a) { return sum(a - 1); }",
    }),
    {
      from: "total",
      to: "sum",
    },
  );
  assert.deepEqual(renameOf({ oldText: "x", newText: "y" }), { from: "x", to: "y" });
  assert.equal(renameOf({ oldText: "f(a)", newText: "f(a)" }), null, "no change");
  assert.equal(renameOf({ oldText: "f(a, b)", newText: "g(a, c)" }), null, "two identifiers");
  assert.equal(renameOf({ oldText: "let x = 1", newText: "const x = 1" }), null, "a keyword");
  assert.equal(renameOf({ oldText: "f(1)", newText: "f(2)" }), null, "a number");
  assert.equal(renameOf({ oldText: "f(a)", newText: "f( a)" }), null, "spacing");
  assert.equal(renameOf({ oldText: "f(a)", newText: "f(a.b)" }), null, "more tokens");
  assert.deepEqual(renameOf({ oldText: "naïve()", newText: "ingénu()" }), { from: "naïve", to: "ingénu" });
  assert.equal(renameOf({ oldText: 'log("total")', newText: 'log("sum")' }), null, "a word in a string");
  assert.equal(renameOf({ oldText: "x = 1 // total", newText: "x = 1 // sum" }), null, "a word in a comment");
  assert.equal(renameOf({ oldText: "/* total */ f()", newText: "/* sum */ f()" }), null);
  assert.deepEqual(renameOf({ oldText: 'total("total")', newText: 'sum("total")' }), {
    from: "total",
    to: "sum",
  });
});

Deno.test("bracketsBalance() tells text spanning whole nodes from text cutting through them", () => {
  assert.ok(bracketsBalance("f(a, [1, 2], { b })"));
  assert.ok(bracketsBalance('s = ")"'), "brackets in strings do not count");
  assert.ok(!bracketsBalance("if (a) {"));
  assert.ok(!bracketsBalance("}\nfunction g() {"));
  assert.ok(!bracketsBalance("(]"));
});
