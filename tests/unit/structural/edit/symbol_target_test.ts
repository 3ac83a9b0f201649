import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { conventionalGap, firstToken, openSymbol } from "../../../../src/structural/edit/symbol_target.ts";
import { workspaceWith } from "../_fixtures.ts";

const PY =
  "class A:\n    def one(self):\n        pass\n\n    def two(self):\n        pass\n\n\ndef top():\n    pass\n";

Deno.test("openSymbol() resolves a name path to one symbol with its siblings and rules", async () => {
  const ws = await workspaceWith({ "a.py": PY });
  const t = await openSymbol(ws, new Stage(ws.fs, ws.sandbox), {
    path: "a.py",
    name_path: "A/two",
    tool: "t",
  });
  assert.equal(t.symbol.name_path, "A/two");
  assert.equal(t.node.type, "function_definition");
  assert.deepEqual(t.siblings.map((s) => s.name), ["one", "two"]);
  assert.equal(t.topLevel, false);
  assert.equal(t.unit, "    ");
});

Deno.test("openSymbol() refuses an unknown name path with not_found and did-you-mean names", async () => {
  const ws = await workspaceWith({ "a.py": PY });
  await assert.rejects(
    () => openSymbol(ws, new Stage(ws.fs, ws.sandbox), { path: "a.py", name_path: "A/tow", tool: "t" }),
    (e) =>
      e instanceof RecoverableError && e.code === "not_found" &&
      (e.details?.["did_you_mean"] as string[]).includes("A/two"),
  );
});

Deno.test("conventionalGap() takes the gap below the symbol, else to a neighbour, else the language's", async () => {
  const ws = await workspaceWith({ "a.py": PY });
  const stage = new Stage(ws.fs, ws.sandbox);
  const open = (name_path: string) => openSymbol(ws, stage, { path: "a.py", name_path, tool: "t" });
  assert.equal(conventionalGap(await open("A/one"), "next"), 1);
  assert.equal(conventionalGap(await open("A/two"), "next"), 1); // last in its class: the gap to `one`
  assert.equal(conventionalGap(await open("/A"), "next"), 2);
  assert.equal(conventionalGap(await open("top"), "next"), 2); // last in the file: Python's top-level gap
});

Deno.test("firstToken() reads a word or one punctuation character", () => {
  assert.equal(firstToken("  export class A {}"), "export");
  assert.equal(firstToken("@dec\ndef f(): pass"), "@");
  assert.equal(firstToken(""), "");
});
