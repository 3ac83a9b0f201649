import assert from "node:assert/strict";
import type { Workspace } from "../../../../src/mod.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { removalEdit, replacementEdit, replacementSpan } from "../../../../src/structural/edit/node_edit.ts";
import { selectTargets } from "../../../../src/structural/edit/selectors.ts";
import { applyTextEdits, loadSource } from "../../../../src/structural/edit/source.ts";
import { fixture, fixtureWorkspace, workspaceWith } from "../_fixtures.ts";

async function target(ws: Workspace, path: string, selector: unknown) {
  const file = await loadSource(ws, new Stage(ws.fs, ws.sandbox), { path, tool: "test" });
  const [t] = (await selectTargets(ws, file, { selector: selector as never })).targets;
  return { file, t: t! };
}

Deno.test("replacementSpan() widens to a wrapper whose keyword the new code repeats (Go type, TS export)", async () => {
  const ws = await workspaceWith({ "a.ts": "export class A {}\n\nclass B {}\n" });
  const { file, t } = await target(ws, "a.ts", "A");
  assert.deepEqual(replacementSpan(file, t, "class A { x = 1 }"), { start: t.start, end: t.end });
  const wide = replacementSpan(file, t, "export class A { x = 1 }");
  assert.equal(file.text.slice(wide.start, wide.end), "export class A {}");
  const go = await fixtureWorkspace(["analyze.go"]);
  const g = await target(go, "analyze.go", "analyze");
  const span = replacementSpan(g.file, g.t, "type analyze struct{}");
  assert.match(g.file.text.slice(span.start, span.end), /^type analyze struct \{/);
});

Deno.test("replacementEdit() re-indents continuation lines to the node's line and leaves the first line in place", async () => {
  const ws = await fixtureWorkspace(["analyze.go"]);
  const { file, t } = await target(ws, "analyze.go", { pattern: "regexp.MustCompile($X)" });
  const edit = replacementEdit(file, t, { newText: "regexp.MustCompile(\n    $X,\n)" });
  assert.equal(edit.text, "regexp.MustCompile(\n\t\t\t$X,\n\t\t)");
});

Deno.test("removalEdit() removes whole lines and the blank line the node leaves, keeping the end-of-file state", async () => {
  const ws = await workspaceWith({
    "a.py": "def a():\n    pass\n\n\ndef b():\n    pass",
    "b.py": "x = 1\ny = 2\n",
  });
  const { file, t } = await target(ws, "a.py", "b");
  assert.equal(applyTextEdits(file.text, [removalEdit(file, t)]), "def a():\n    pass");
  const b = await target(ws, "b.py", { pattern: "y = 2" });
  assert.equal(applyTextEdits(b.file.text, [removalEdit(b.file, b.t)]), "x = 1\n");
  // A node sharing its line with others is cut out of the line.
  const ws2 = await workspaceWith({ "c.js": "a(); b(); c();\n" });
  const c = await target(ws2, "c.js", { pattern: "b();" });
  assert.equal(applyTextEdits(c.file.text, [removalEdit(c.file, c.t)]), "a(); c();\n");
});

Deno.test("removalEdit() takes the Rust doc comment and attribute with the item", async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  const { file, t } = await target(ws, "lib.rs", "tests/can_load_grammar");
  const out = applyTextEdits(file.text, [removalEdit(file, t)]);
  assert.equal(
    out,
    fixture("lib.rs").replace(/\n {4}#\[test\]\n {4}fn can_load_grammar[^]*?\n {4}\}\n/, "\n"),
  );
  assert.ok(out.endsWith("mod tests {\n}\n"));
});
