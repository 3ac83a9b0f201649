import assert from "node:assert/strict";
import { symbolRules } from "../../../../src/syntax/queries.ts";
import { decorationsStart, isDecoration } from "../../../../src/structural/edit/decorations.ts";
import { workspaceWith } from "../_fixtures.ts";

Deno.test("isDecoration() knows decorators, annotations and attribute lists, and nothing else", () => {
  assert.equal(isDecoration("decorator", symbolRules("typescript")), true);
  for (const type of ["marker_annotation", "annotation", "attribute_list", "attribute_item"]) {
    assert.equal(isDecoration(type, symbolRules("java")), true, type);
  }
  for (const type of ["modifiers", "identifier", "comment", "method_declaration"]) {
    assert.equal(isDecoration(type, symbolRules("java")), false, type);
  }
});

// Regression (issue 22, item 10): a query selector's #match? ran on V8's backtracking RegExp, so this predicate
// against one long identifier held the call (and a server's event loop) for as long as it took.

Deno.test("decorationsStart() takes in the attributes above a Rust function, a comment between them included", async () => {
  const text = "const X: u8 = 1;\n\n#[inline]\n// why\n#[must_use]\nfn f() -> u8 {\n    X\n}\n";
  const ws = await workspaceWith({});
  const tree = await ws.trees!.parseDetached("rust", text);
  const def = tree.rootNode.descendantsOfType("function_item")[0]!;
  assert.equal(decorationsStart(def, symbolRules("rust")), text.indexOf("#[inline]"));
  const konst = tree.rootNode.descendantsOfType("const_item")[0]!;
  assert.equal(decorationsStart(konst, symbolRules("rust")), 0);
});
