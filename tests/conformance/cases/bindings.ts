/**
 * Binding-aware refactors in every runtime: the TypeScript and Python binding
 * queries compile and resolve the same way everywhere — find_references across
 * files, and edit_rename_symbol with a shorthand expansion, an import alias and
 * a Python keyword argument, committed.
 *
 * @module
 */
import { createWorkspace } from "../../../src/mod.ts";
import { check, equal } from "../assert.ts";
import type { Case } from "../types.ts";
import { succeeded } from "./_calls.ts";

const FILES = {
  "/src/math.ts": "export function clamp(n: number, max: number) {\n  return n > max ? max : n;\n}\n",
  "/src/app.ts": [
    'import { clamp } from "./math.js";',
    'import { clamp as limit } from "./math";',
    "const max = 3;",
    "export const out = { clamp, value: limit(clamp(5, max), max) };",
    "",
  ].join("\n"),
  "/pkg/__init__.py": "",
  "/pkg/core.py": "def scale(value, factor=2):\n    return value * factor\n",
  "/pkg/use.py": "from .core import scale\n\nprint(scale(1, factor=3), dict(factor=1))\n",
};

/** Binding cases. */
export const BINDING_CASES: Case[] = [
  {
    name: "bindings.find_references_and_rename",
    async run(ctx) {
      const backend = ctx.backend(FILES);
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const refs = succeeded(await ws.call("find_references", { path: "src/math.ts", target: "clamp" }));
      const files = refs.data["files"] as { path: string; references: { line: number; kind: string }[] }[];
      const where = files.flatMap((f) => f.references.map((r) => `${f.path}:${r.line}:${r.kind}`));
      equal(where, [
        "src/app.ts:1:definition",
        "src/app.ts:2:import_name",
        "src/app.ts:4:shorthand",
        "src/app.ts:4:reference",
        "src/math.ts:1:definition",
      ], "references of clamp");
      const renamed = succeeded(
        await ws.call("edit_rename_symbol", { path: "src/math.ts", target: "clamp", new_name: "bound" }),
      );
      const dec = new TextDecoder();
      const app = dec.decode(await backend.readFile("/src/app.ts") as Uint8Array);
      check(app.includes('import { bound } from "./math.js";'), "import renamed");
      check(app.includes('import { bound as limit } from "./math";'), "alias kept");
      check(app.includes("{ clamp: bound, value: limit(bound(5, max), max) }"), "shorthand expanded");
      const py = succeeded(
        await ws.call("edit_rename_symbol", {
          path: "pkg/core.py",
          target: { line: 1, column: 18 },
          new_name: "k",
        }),
      );
      const use = dec.decode(await backend.readFile("/pkg/use.py") as Uint8Array);
      equal(
        use,
        "from .core import scale\n\nprint(scale(1, k=3), dict(factor=1))\n",
        "keyword argument renamed",
      );
      return {
        references: where,
        ts_changes: renamed.changes.map((c) => c.path).sort(),
        py_changes: py.changes.map((c) => c.path).sort(),
      };
    },
  },
];
