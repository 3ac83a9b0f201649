import assert from "node:assert/strict";
import { RecoverableError } from "../../../src/errors.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { planRename } from "../../../src/structural/rename.ts";
import { GYP, workspaceOf } from "../tools/_bindings_fixtures.ts";

Deno.test("planRename() builds every file's new text and the text sweep, writing nothing", async () => {
  const ws = await workspaceOf(GYP);
  const plan = await planRename(ws, new Stage(ws.fs, ws.sandbox), "gyp/easy_xml.py", "XmlToString", "ToXml", {
    tool: "test",
  });
  assert.deepEqual([...plan.files.keys()].sort(), ["gyp/easy_xml.py", "gyp/easy_xml_test.py"]);
  assert.match(
    plan.files.get("gyp/easy_xml.py")!.text,
    /^def ToXml\(content, encoding="utf-8", pretty=False\):/m,
  );
  assert.match(plan.files.get("gyp/easy_xml_test.py")!.text, /easy_xml\.ToXml\(\["test"\]\)/);
  assert.deepEqual(plan.unresolved, []);
  assert.equal(plan.renamed.length, plan.search.sites.length);
  const current = new TextDecoder().decode((await ws.fs.read("/gyp/easy_xml.py"))!);
  assert.equal(current, GYP["/gyp/easy_xml.py"]);
});

Deno.test("planRename() refuses clashes in the symbol's scope, in a scope between, and captures", async () => {
  const ws = await workspaceOf({}, {
    "a.js": [
      "let total = 0;",
      "function add(n) {",
      "  const step = 1;",
      "  for (const item of [n]) { const total2 = item; total += total2 + step; }",
      "}",
      "function other() { return step; }",
      "",
    ].join("\n"),
  });
  const stage = () => new Stage(ws.fs, ws.sandbox);
  const code = async (target: string | { line: number; column: number }, name: string) => {
    try {
      await planRename(ws, stage(), "a.js", target, name, { tool: "test" });
      return "ok";
    } catch (e) {
      assert.ok(e instanceof RecoverableError);
      return e.code;
    }
  };
  assert.equal(await code("total", "add"), "name_clash", "same scope");
  assert.equal(await code("total", "total2"), "name_clash", "the loop's total2 would shadow it");
  assert.equal(
    await code({ line: 3, column: 9 }, "n"),
    "name_clash",
    "the parameter n is in the same function",
  );
  assert.equal(
    await code({ line: 3, column: 9 }, "total"),
    "name_clash",
    "total used below would be captured",
  );
  assert.equal(await code({ line: 3, column: 9 }, "stride"), "ok");
  assert.equal(await code("total", "total"), "already_applied");
  assert.equal(await code("total", "2x"), "invalid_args");
  assert.equal(await code({ line: 6, column: 27 }, "s"), "unresolved", "other()'s step is a free name");
});
