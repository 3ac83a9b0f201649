import assert from "node:assert/strict";
import type { Workspace } from "../../../../src/mod.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { insertionEdit, statementLevel } from "../../../../src/structural/edit/anchors.ts";
import { selectTargets } from "../../../../src/structural/edit/selectors.ts";
import { applyTextEdits, loadSource } from "../../../../src/structural/edit/source.ts";
import { fixtureWorkspace, workspaceWith } from "../_fixtures.ts";

async function place(
  ws: Workspace,
  path: string,
  selector: unknown,
  position: string,
  code: string,
): Promise<string> {
  const file = await loadSource(ws, new Stage(ws.fs, ws.sandbox), { path, tool: "test" });
  const [target] = (await selectTargets(ws, file, { selector: selector as never })).targets;
  return applyTextEdits(file.text, [
    insertionEdit(file, target!, { position: position as never, rawCode: code, defs: null }),
  ]);
}

Deno.test("statementLevel() anchors an expression at its statement", async () => {
  const ws = await fixtureWorkspace(["isFinite.js"]);
  const file = await loadSource(ws, new Stage(ws.fs, ws.sandbox), { path: "isFinite.js", tool: "test" });
  const [cmp] = (await selectTargets(ws, file, { selector: { pattern: "$X !== Infinity" } })).targets;
  assert.equal(cmp!.node.type, "binary_expression");
  assert.equal(statementLevel(file, cmp!).node.type, "return_statement");
  const [ret] = (await selectTargets(ws, file, { selector: { query: "(return_statement) @r" } })).targets;
  assert.equal(statementLevel(file, ret!), ret);
});

Deno.test("insertionEdit() uses the indentation of the item it goes next to (C++ access specifiers)", async () => {
  const ws = await workspaceWith({ "h.cpp": "namespace n {\nclass A {\n public:\n  void f();\n};\n}\n" });
  assert.equal(
    await place(ws, "h.cpp", { query: "(class_specifier) @c" }, "last_child", "void g();"),
    "namespace n {\nclass A {\n public:\n  void f();\n  void g();\n};\n}\n",
  );
});

Deno.test("insertionEdit() handles Allman braces and empty C# bodies", async () => {
  const ws = await workspaceWith({
    "a.cs":
      "namespace N\n{\n    public class C\n    {\n    }\n\n    public class D\n    {\n        public void M()\n        {\n        }\n    }\n}\n",
  });
  assert.equal(
    await place(ws, "a.cs", "N/C", "first_child", "public int X;"),
    "namespace N\n{\n    public class C\n    {\n        public int X;\n    }\n\n    public class D\n    {\n        public void M()\n        {\n        }\n    }\n}\n",
  );
  assert.ok(
    (await place(ws, "a.cs", "N/D", "last_child", "public void Q()\n{\n}")).endsWith(
      "        public void M()\n        {\n        }\n\n        public void Q()\n        {\n        }\n    }\n}\n",
    ),
  );
});

Deno.test("insertionEdit() goes above a TypeScript decorator for before, and keeps the class's blank line between members", async () => {
  const ws = await workspaceWith({ "b.ts": "class A {\n  @dec()\n  m() {}\n\n  n() {}\n}\n" });
  assert.equal(
    await place(ws, "b.ts", "A/m", "before", "k() {}"),
    "class A {\n  k() {}\n\n  @dec()\n  m() {}\n\n  n() {}\n}\n",
  );
  assert.equal(
    await place(ws, "b.ts", "A/n", "after", "k() {}"),
    "class A {\n  @dec()\n  m() {}\n\n  n() {}\n\n  k() {}\n}\n",
  );
});

Deno.test("insertionEdit() leaves statements without blank lines between them", async () => {
  const ws = await fixtureWorkspace(["isNaN.js"]);
  assert.equal(
    await place(ws, "isNaN.js", { query: "(return_statement) @r" }, "after", "count++;"),
    "'use strict';\n\n/** @type {import('./isNaN')} */\nmodule.exports = Number.isNaN || function isNaN(a) {\n\treturn a !== a;\n\tcount++;\n};\n",
  );
});

Deno.test("insertionEdit() gives a one-entry JSON object's entry the comma the list needs", async () => {
  const ws = await workspaceWith({ "p.json": '{\n  "scripts": {\n    "build": "tsc"\n  }\n}\n' });
  assert.equal(
    await place(
      ws,
      "p.json",
      "scripts",
      "last_child",
      '"test": "deno test"',
    ),
    '{\n  "scripts": {\n    "build": "tsc",\n    "test": "deno test"\n  }\n}\n',
  );
});

Deno.test("insertionEdit() with inline keeps a new item on a one-line body's line, else splits it", async () => {
  const ws = await workspaceWith({ "a.ts": "enum E { A, B }\n" });
  const file = await loadSource(ws, new Stage(ws.fs, ws.sandbox), { path: "a.ts", tool: "test" });
  const [target] = (await selectTargets(ws, file, { selector: "E" })).targets;
  const at = (inline: boolean) =>
    applyTextEdits(file.text, [
      insertionEdit(file, target!, { position: "end_of_body", rawCode: "C", defs: null, inline }),
    ]);
  assert.equal(at(true), "enum E { A, B, C }\n");
  assert.equal(at(false), "enum E { A, B,\n    C\n}\n");
});
