import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import { ok, textOf, workspaceOf } from "./_bindings_fixtures.ts";

Deno.test("edit_move_decl() moves a function with its imports; importers and the source follow", async () => {
  const ws = await workspaceOf({}, {
    "src/util.ts": [
      'import { pad } from "./pad.ts";',
      'import type { Options } from "./types.ts";',
      "",
      'const PREFIX = ">";',
      "",
      "/** Format a line. */",
      "export function format(s: string, o: Options): string {",
      "  return PREFIX + pad(s, o.width);",
      "}",
      "",
      "export function twice(s: string): string {",
      "  return format(s, { width: 2 }) + format(s, { width: 2 });",
      "}",
      "",
    ].join("\n"),
    "src/pad.ts": "export function pad(s: string, n: number): string {\n  return s.padStart(n);\n}\n",
    "src/types.ts": "export interface Options {\n  width: number;\n}\n",
    "src/app.ts":
      'import { format, twice } from "./util.ts";\nimport * as u from "./util.ts";\n\nconsole.log(format("a", { width: 1 }), twice("b"), u.format("c", { width: 3 }));\n',
    "src/index.ts": 'export * from "./util.ts";\n',
  });
  const cycle = await ws.call("edit_move_decl", {
    path: "src/util.ts",
    name_path: "format",
    to_path: "src/text/format.ts",
  });
  assert.ok(!cycle.ok && cycle.error.code === "import_cycle", JSON.stringify(cycle));
  const first = ok(
    await ws.call("edit_move_decl", {
      path: "src/util.ts",
      name_path: "PREFIX",
      to_path: "src/text/format.ts",
    }),
  );
  console.log(JSON.stringify(first.data, null, 1));
  for (const p of ["src/util.ts", "src/text/format.ts"]) console.log(`--- ${p}\n${await textOf(ws, p)}`);
  const res = ok(
    await ws.call("edit_move_decl", {
      path: "src/util.ts",
      name_path: "format",
      to_path: "src/text/format.ts",
    }),
  );
  console.log(JSON.stringify(res.data, null, 1));
  for (const p of ["src/util.ts", "src/text/format.ts", "src/app.ts", "src/index.ts"]) {
    console.log(`--- ${p}\n${await textOf(ws, p)}`);
  }
});
