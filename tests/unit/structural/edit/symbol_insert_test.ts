import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { applyTextEdits } from "../../../../src/structural/edit/source.ts";
import { symbolInsertionEdit } from "../../../../src/structural/edit/symbol_insert.ts";
import { openSymbol } from "../../../../src/structural/edit/symbol_target.ts";
import { workspaceWith } from "../_fixtures.ts";

Deno.test("symbolInsertionEdit() gives a list's last item its comma in the same edit and says where the code lands", async () => {
  const text = "enum E {\n  A,\n  B\n}\n";
  const ws = await workspaceWith({ "e.ts": text });
  const t = await openSymbol(ws, new Stage(ws.fs, ws.sandbox), { path: "e.ts", name_path: "E/B", tool: "t" });
  const { edit, line } = symbolInsertionEdit(t, "after", "C");
  assert.equal(applyTextEdits(text, [edit]), "enum E {\n  A,\n  B,\n  C\n}\n");
  assert.equal(line, 4);
});

Deno.test("symbolInsertionEdit() puts a method after its neighbour with the class's gap", async () => {
  const text = "class A {\n  one() {}\n\n  two() {}\n}\n";
  const ws = await workspaceWith({ "a.ts": text });
  const t = await openSymbol(ws, new Stage(ws.fs, ws.sandbox), {
    path: "a.ts",
    name_path: "A/one",
    tool: "t",
  });
  const { edit, line } = symbolInsertionEdit(t, "after", "mid() {}");
  assert.equal(applyTextEdits(text, [edit]), "class A {\n  one() {}\n\n  mid() {}\n\n  two() {}\n}\n");
  assert.equal(line, 4);
});
