import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/mod.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import {
  applyTextEdits,
  loadSource,
  stringLineFinder,
  withIndentUnit,
} from "../../../../src/structural/edit/source.ts";
import { fixtureWorkspace, workspaceWith } from "../_fixtures.ts";

Deno.test("loadSource() reads through the stage, finds the grammar, line ending and indent unit", async () => {
  const ws = await fixtureWorkspace(["analyze.go", "MSVSUserFile.py"], (t) => t.replace(/\n/g, "\r\n"));
  const stage = new Stage(ws.fs, ws.sandbox);
  const go = await loadSource(ws, stage, { path: "analyze.go", tool: "test" });
  assert.equal(go.language, "go");
  assert.equal(go.eol, "\r\n");
  assert.equal(go.unit, "\t");
  assert.equal(go.problems, 0);
  const py = await loadSource(ws, stage, { path: "MSVSUserFile.py", tool: "test" });
  assert.equal(py.unit, "    ");
  await assert.rejects(
    loadSource(ws, stage, { path: "analyze.go", tool: "test", expectedVersion: "f".repeat(64) }),
    (e) => e instanceof RecoverableError && e.code === "stale_base",
  );
  // Staged content is what gets parsed.
  await stage.writeText("analyze.go", { text: "package main\n", bom: false });
  assert.equal((await loadSource(ws, stage, { path: "analyze.go", tool: "test" })).text, "package main\n");
});

Deno.test("loadSource() answers unsupported_language with edit_safe_text_patch for files with no grammar", async () => {
  const ws = await workspaceWith({ "a.txt": "x\n" });
  await assert.rejects(
    loadSource(ws, new Stage(ws.fs, ws.sandbox), { path: "a.txt", tool: "edit_apply_node" }),
    (e) => {
      assert.ok(e instanceof RecoverableError && e.code === "unsupported_language");
      assert.equal(e.suggestedCall?.tool, "edit_safe_text_patch");
      assert.match(e.message, /^Cannot run edit_apply_node on "a\.txt"/);
      return true;
    },
  );
});

Deno.test("withIndentUnit() takes the code's unit when the file has no indentation yet", async () => {
  const ws = await workspaceWith({ "a.ts": "class A {}\n", "b.go": "package b\n" });
  const stage = new Stage(ws.fs, ws.sandbox);
  const ts = await loadSource(ws, stage, { path: "a.ts", tool: "test" });
  assert.equal(ts.unit, "");
  assert.equal(withIndentUnit(ts, "f() {\n  x();\n}").unit, "  ");
  const go = await loadSource(ws, stage, { path: "b.go", tool: "test" });
  assert.equal(withIndentUnit(go, "x := 1").unit, "\t");
});

Deno.test("applyTextEdits() applies edits in any order and refuses overlaps", () => {
  assert.equal(
    applyTextEdits("abcdef", [{ start: 4, end: 6, text: "EF" }, { start: 0, end: 0, text: ">" }]),
    ">abcdEF",
  );
  assert.throws(
    () => applyTextEdits("abcdef", [{ start: 0, end: 3, text: "" }, { start: 2, end: 4, text: "" }]),
    TypeError,
  );
});

Deno.test("stringLineFinder() finds multi-line string content but lets Python docstrings move with the code", async () => {
  const ws = await workspaceWith({});
  const ts = await stringLineFinder(ws, "typescript");
  assert.deepEqual([...ts.find("const q = `\n  select *\n    from t\n`;\nf();")], [1, 2, 3]);
  ts.dispose();
  const go = await stringLineFinder(ws, "go");
  assert.deepEqual([...go.find("x := `a\n  b`\ny := 1")], [1]);
  go.dispose();
  const py = await stringLineFinder(ws, "python");
  assert.deepEqual([...py.find('def f():\n    """Doc\n    more."""\n    s = """a\n  b"""\n')], [4]);
  py.dispose();
});
