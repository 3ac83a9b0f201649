import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { planImportUpdates } from "../../../../src/structural/move_file/imports_rewrite.ts";
import { moduleReferences } from "../../../../src/structural/shared/module_imports.ts";
import { ModuleResolver } from "../../../../src/syntax/module_resolution.ts";
import {
  ecmaSpecifier,
  pythonSpecifier,
  relativeSpecifier,
} from "../../../../src/syntax/module_specifier.ts";
import { GRAMMARS, RXJS, workspaceOf } from "../../tools/_bindings_fixtures.ts";

Deno.test("ecmaSpecifier() keeps the extension habit, the directory form and a trailing slash", () => {
  const r = new ModuleResolver(["a/x.ts", "b/c/x.ts", "b/lib/index.ts", "b/y.js"]);
  const from = "b/c/main.ts";
  assert.equal(ecmaSpecifier(r, from, "b/c/x.ts", { source: "../a/x.js", target: "a/x.ts" }), "./x.js");
  assert.equal(ecmaSpecifier(r, from, "b/c/x.ts", { source: "../a/x.ts", target: "a/x.ts" }), "./x.ts");
  assert.equal(ecmaSpecifier(r, from, "b/c/x.ts", { source: "../a/x", target: "a/x.ts" }), "./x");
  assert.equal(
    ecmaSpecifier(r, from, "b/lib/index.ts", { source: "./lib/", target: "lib/index.ts" }),
    "../lib/",
  );
  assert.equal(
    ecmaSpecifier(r, from, "b/lib/index.ts", { source: "./lib/index", target: "lib/index.ts" }),
    "../lib/index",
  );
  assert.equal(ecmaSpecifier(r, from, "b/y.js", { source: "./y.js", target: "y.js" }), "../y.js");
  assert.equal(relativeSpecifier("", ""), ".");
});

Deno.test("pythonSpecifier() keeps relative relative, absolute absolute, and src/ layouts", () => {
  const r = new ModuleResolver([
    "src/app/__init__.py",
    "src/app/core/m.py",
    "src/app/x.py",
    "pkg/__init__.py",
  ]);
  assert.equal(
    pythonSpecifier(r, "src/app/x.py", "src/app/core/m.py", { source: ".m", target: "src/app/m.py" }),
    ".core.m",
  );
  assert.equal(
    pythonSpecifier(r, "src/app/x.py", "src/app/core/m.py", { source: "app.m", target: "src/app/m.py" }),
    "app.core.m",
  );
  assert.equal(
    pythonSpecifier(r, "src/app/core/m.py", "src/app/__init__.py", { source: ".", target: "" }),
    "..",
  );
  assert.equal(pythonSpecifier(r, "src/app/x.py", "nope.py", { source: ".n", target: "n.py" }), null);
});

Deno.test("moduleReferences() finds every kind of module reference and skips comments and strings", async () => {
  const parser = await GRAMMARS.parser("typescript");
  const text = [
    "// import { x } from './comment';",
    "import a, { b } from './a';",
    "import './side';",
    "export * from './all';",
    "import fs = require('./req');",
    "const s = 'import x from \"./string\"';",
    "const lazy = import(`./template`);",
    "",
  ].join("\n");
  const refs = moduleReferences(parser.parse(text)!, text, "ecmascript");
  assert.deepEqual(refs.map((r) => [r.kind, r.source]), [
    ["import", "./a"],
    ["import", "./side"],
    ["export", "./all"],
    ["require", "./req"],
  ]);
  parser.delete();
});

Deno.test("planImportUpdates() on rxjs: a new path that would capture another import is answered; nothing is written", async () => {
  const ws = await workspaceOf(RXJS, {
    "internal/util/helpers/index.ts": "export const helper = 1;\n",
    "internal/demo.ts": "import { helper } from './util/helpers';\nimport { noop } from './util/noop';\n",
  });
  const plan = await planImportUpdates(
    ws,
    new Stage(ws.fs, ws.sandbox),
    new Map([["internal/util/noop.ts", "internal/util/helpers.ts"]]),
  );
  assert.deepEqual(plan.unresolved, []);
  assert.equal(
    plan.files.get("internal/demo.ts"),
    "import { helper } from './util/helpers/index';\nimport { noop } from './util/helpers';\n",
    "helpers.ts would take ./util/helpers over: the directory import spells its index",
  );
  assert.ok(plan.updated.length > 10);
  const current = new TextDecoder().decode((await ws.fs.read("/internal/demo.ts"))!);
  assert.match(current, /from '\.\/util\/helpers';\nimport \{ noop \} from '\.\/util\/noop';/);
});
