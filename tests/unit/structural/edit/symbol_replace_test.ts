import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { applyTextEdits } from "../../../../src/structural/edit/source.ts";
import {
  splitLeadingDecorations,
  symbolReplacementEdit,
} from "../../../../src/structural/edit/symbol_replace.ts";
import { openSymbol } from "../../../../src/structural/edit/symbol_target.ts";
import { workspaceWith } from "../_fixtures.ts";

Deno.test("splitLeadingDecorations() splits comments and decorators off the definition, not C preprocessor lines", () => {
  assert.deepEqual(splitLeadingDecorations("/** Doc. */\n@dec\nf() {}"), {
    docs: "/** Doc. */\n@dec",
    def: "f() {}",
  });
  assert.deepEqual(splitLeadingDecorations("# note\ndef f(): pass", "python"), {
    docs: "# note",
    def: "def f(): pass",
  });
  assert.deepEqual(splitLeadingDecorations("#define X 1\nint f();", "c"), {
    docs: "",
    def: "#define X 1\nint f();",
  });
});

Deno.test("symbolReplacementEdit() keeps the export the new code leaves out and takes the one it repeats", async () => {
  const text = "export function f() {\n  return 1;\n}\n";
  const ws = await workspaceWith({ "a.ts": text });
  const t = await openSymbol(ws, new Stage(ws.fs, ws.sandbox), { path: "a.ts", name_path: "f", tool: "t" });
  const plain = symbolReplacementEdit(t, "function f() {\n    return 2;\n}");
  assert.equal(applyTextEdits(text, [plain]), "export function f() {\n  return 2;\n}\n");
  const exported = symbolReplacementEdit(t, "export function f() {\n  return 3;\n}");
  assert.equal(applyTextEdits(text, [exported]), "export function f() {\n  return 3;\n}\n");
});
