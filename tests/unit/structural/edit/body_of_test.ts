import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { bodyOf } from "../../../../src/structural/edit/body_of.ts";
import { selectTargets } from "../../../../src/structural/edit/selectors.ts";
import { loadSource } from "../../../../src/structural/edit/source.ts";
import { fixtureWorkspace } from "../_fixtures.ts";

Deno.test("bodyOf() finds the body, its items and delimiters across grammars", async () => {
  const ws = await fixtureWorkspace(["analyze.go", "MSVSUserFile.py", "lib.rs"]);
  const stage = new Stage(ws.fs, ws.sandbox);
  const go = await loadSource(ws, stage, { path: "analyze.go", tool: "test" });
  const [init] = (await selectTargets(ws, go, { selector: "init" })).targets;
  const goBody = bodyOf(go, init!)!;
  // Go wraps statements in a statement_list: the items are the statements.
  assert.deepEqual(goBody.items.map((n) => n.type), [
    "short_var_declaration",
    "comment",
    "comment",
    "for_statement",
  ]);
  assert.equal(go.text.slice(goBody.openerEnd! - 1, goBody.openerEnd!), "{");
  const py = await loadSource(ws, stage, { path: "MSVSUserFile.py", tool: "test" });
  const [writer] = (await selectTargets(ws, py, { selector: "Writer" })).targets;
  const pyBody = bodyOf(py, writer!)!;
  assert.equal(pyBody.openerEnd, null);
  assert.equal(pyBody.closerStart, null);
  assert.deepEqual(pyBody.items.map((n) => n.type), [
    "expression_statement",
    ...Array(4).fill("function_definition"),
  ]);
  const rs = await loadSource(ws, stage, { path: "lib.rs", tool: "test" });
  const [grammar] = (await selectTargets(ws, rs, { selector: "GRAMMAR" })).targets;
  assert.equal(bodyOf(rs, grammar!), null);
});
