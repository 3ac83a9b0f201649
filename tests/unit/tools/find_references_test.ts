import assert from "node:assert/strict";
import { GYP, ok, RXJS, workspaceOf, ZOD } from "./_bindings_fixtures.ts";

interface Files {
  path: string;
  references: { line: number; column: number; kind: string; text: string }[];
}

Deno.test("find_references() follows an export through imports, re-exports and barrels (rxjs)", async () => {
  const ws = await workspaceOf(RXJS);
  const res = ok(await ws.call("find_references", { path: "internal/operators/map.ts", target: "map" }));
  const files = res.data["files"] as Files[];
  const paths = files.map((f) => f.path);
  assert.ok(paths.includes("index.ts"), "the root barrel re-exports it");
  assert.ok(paths.includes("operators/index.ts"), "the operators barrel re-exports it");
  assert.ok(paths.includes("internal/operators/mapTo.ts"), "an operator imports it");
  const mapTo = files.find((f) => f.path === "internal/operators/mapTo.ts")!;
  assert.ok(mapTo.references.some((r) => r.kind === "definition" && r.text.includes("import { map }")));
  assert.ok(mapTo.references.some((r) => r.kind === "reference" && r.text.includes("map(")));
  const barrel = files.find((f) => f.path === "index.ts")!;
  assert.deepEqual(barrel.references.map((r) => r.kind), ["reexport_name"]);
  assert.equal(res.data["total"], files.reduce((n, f) => n + f.references.length, 0));
});

Deno.test("find_references() from a use finds the same symbol as from its declaration", async () => {
  const ws = await workspaceOf(RXJS);
  const fromDecl = ok(await ws.call("find_references", { path: "internal/operators/map.ts", target: "map" }));
  const text = RXJS["/internal/operators/mapTo.ts"]!;
  const line = text.split("\n").findIndex((l) => l.includes("import { map }")) + 1;
  const fromUse = ok(
    await ws.call("find_references", { path: "internal/operators/mapTo.ts", target: { line, column: 10 } }),
  );
  assert.deepEqual(fromUse.data["files"], fromDecl.data["files"]);
  assert.equal(
    (fromUse.data["target"] as { line: number }).line,
    line,
    "the target is where the call pointed",
  );
});

Deno.test("find_references() lists this.x in the class and leaves obj.x as unresolved", async () => {
  const ws = await workspaceOf(RXJS);
  const res = ok(
    await ws.call("find_references", { path: "internal/Subscriber.ts", target: "Subscriber/isStopped" }),
  );
  const own = (res.data["files"] as Files[]).find((f) => f.path === "internal/Subscriber.ts")!;
  assert.ok(own.references.some((r) => r.kind === "member_definition"));
  assert.ok(own.references.some((r) => r.kind === "member_this" && r.text.includes("this.isStopped")));
  assert.ok((res.data["unresolved"] as Files[]).length >= 0);
});

Deno.test("find_references() in Python: a module's function through `from gyp import easy_xml`", async () => {
  const ws = await workspaceOf(GYP);
  const res = ok(await ws.call("find_references", { path: "gyp/easy_xml.py", target: "WriteXmlIfChanged" }));
  const paths = (res.data["files"] as Files[]).map((f) => f.path);
  assert.deepEqual(paths, ["gyp/MSVSToolFile.py", "gyp/MSVSUserFile.py", "gyp/easy_xml.py"]);
  const kw = ok(
    await ws.call("find_references", { path: "gyp/easy_xml.py", target: { line: 12, column: 44 } }),
  );
  const test = (kw.data["files"] as Files[]).find((f) => f.path === "gyp/easy_xml_test.py")!;
  assert.deepEqual(test.references.map((r) => [r.kind, r.text.trim()]), [["keyword", "pretty=True,"]]);
});

Deno.test("find_references() refuses what it cannot resolve, with a hint", async () => {
  const ws = await workspaceOf(RXJS, { "notes.txt": "map\n" });
  const keyword = await ws.call("find_references", {
    path: "internal/util/isFunction.ts",
    target: { line: 5, column: 1 },
  });
  assert.ok(!keyword.ok && keyword.error.code === "not_found", "no name at the `export` keyword");
  const free = await workspaceOf({}, { "a.ts": "console.log(1);\n" });
  const res = await free.call("find_references", { path: "a.ts", target: { line: 1, column: 2 } });
  assert.ok(!res.ok && res.error.code === "unresolved", JSON.stringify(res));
  const missing = await free.call("find_references", { path: "a.ts", target: "nothing" });
  assert.ok(!missing.ok && missing.error.code === "not_found");
  const text = await ws.call("find_references", { path: "notes.txt", target: "map" });
  assert.ok(!text.ok && text.error.code === "unsupported_language");
  const lua = await workspaceOf({}, { "m.lua": "local function f() end\nf()\n" });
  const luaRes = await lua.call("find_references", { path: "m.lua", target: { line: 2, column: 1 } });
  assert.ok(!luaRes.ok && luaRes.error.code === "unsupported_language", JSON.stringify(luaRes));
});

Deno.test("find_references() and edit_rename_symbol() accept name_path and symbol as aliases of target", async () => {
  const ws = await workspaceOf(GYP);
  const byTarget = ok(await ws.call("find_references", { path: "gyp/easy_xml.py", target: "XmlToString" }));
  assert.ok((byTarget.data["total"] as number) >= 2);
  for (const alias of ["name_path", "symbol"]) {
    const res = ok(await ws.call("find_references", { path: "gyp/easy_xml.py", [alias]: "XmlToString" }));
    assert.deepEqual(res.data, byTarget.data, alias);
  }
  const plan = ok(
    await ws.call("edit_rename_symbol", {
      path: "gyp/easy_xml.py",
      symbol: "XmlToString",
      new_name: "xml_to_string",
      dry_run: true,
    }),
  );
  assert.equal(plan.data["renamed"], byTarget.data["total"]);
});

Deno.test("a line and column beside path stand for the target, in the four tools that take one", async () => {
  const ws = await workspaceOf(GYP);
  const byTarget = ok(await ws.call("find_references", { path: "gyp/easy_xml.py", target: "XmlToString" }));
  const { line, column } = byTarget.data["target"] as { line: number; column: number };
  const at = { line, column };
  const byPosition = ok(await ws.call("find_references", { path: "gyp/easy_xml.py", ...at }));
  assert.deepEqual(byPosition.data, byTarget.data);
  const plan = ok(
    await ws.call("edit_rename_symbol", {
      path: "gyp/easy_xml.py",
      ...at,
      new_name: "xml_to_string",
      dry_run: true,
    }),
  );
  assert.equal(plan.data["renamed"], byTarget.data["total"]);
  // Both forms at once: the schema names the stray arguments rather than guessing which one was meant.
  const both = await ws.call("find_references", { path: "gyp/easy_xml.py", target: "XmlToString", ...at });
  assert.equal(both.ok, false);
  assert.match(JSON.stringify(both), /unknown property \\"line\\"/);
});

Deno.test("find_references() follows an exported namespace import, and parses only the files that can name the symbol", async () => {
  const ws = await workspaceOf(ZOD, {
    "src/v4/ns.ts": 'import * as u from "./core/util.js";\nexport { u as helpers };\n',
    "src/v4/use.ts": 'import { helpers } from "./ns.js";\nexport const c = helpers.cached(() => 1);\n',
  });
  const res = ok(await ws.call("find_references", { path: "src/v4/core/util.ts", target: "cached" }));
  const files = (res.data["files"] as Files[]).map((f) => f.path);
  assert.ok(files.includes("src/v4/use.ts"), files.join(", "));
  // zod's files mostly import core as a namespace (`import * as core`): those without the word are not read
  // as candidates, and neither are those naming `cached` in comments only.
  assert.ok(ws.trees!.size < 15, `${ws.trees!.size} files parsed`);
});
