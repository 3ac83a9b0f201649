/** The one removal (removalEdit) as edit_apply_node and remove_symbol both make it. */
import assert from "node:assert/strict";
import { ok, stored, workspaceWith } from "../_fixtures.ts";

Deno.test("removalEdit() takes the blank lines below a node, or above it when it is the last in its block", async () => {
  const text = "class A {\n  a() {}\n\n  b() {}\n\n  c() {}\n}\n";
  for (
    const [name, want] of [
      ["A/a", "class A {\n  b() {}\n\n  c() {}\n}\n"],
      ["A/b", "class A {\n  a() {}\n\n  c() {}\n}\n"],
      ["A/c", "class A {\n  a() {}\n\n  b() {}\n}\n"],
    ]
  ) {
    for (const call of ["edit_apply_node", "remove_symbol"]) {
      const ws = await workspaceWith({ "a.ts": text });
      const args = call === "edit_apply_node"
        ? { path: "a.ts", selector: name, new_text: "" }
        : { path: "a.ts", name_path: name };
      ok(await ws.call(call, args));
      assert.equal(await stored(ws, "a.ts"), want, `${call} ${name}`);
    }
  }
});

Deno.test("removalEdit() takes the `;` after a C struct, and keeps an inline list tidy", async () => {
  const ws = await workspaceWith({
    "s.c": "struct A {\n  int x;\n};\n\nint f(void);\n",
    "e.ts": "enum E { A, B, C }\n",
  });
  ok(await ws.call("edit_apply_node", { path: "s.c", selector: "A", new_text: "" }));
  assert.equal(await stored(ws, "s.c"), "int f(void);\n");
  ok(await ws.call("edit_apply_node", { path: "e.ts", selector: "E/B", new_text: "" }));
  assert.equal(await stored(ws, "e.ts"), "enum E { A, C }\n");
});
