/**
 * The syntax guard: an edit that introduces parse errors in a file with a
 * grammar is refused with `syntax_error` and nothing is written.
 *
 * @module
 */
import { BackendFs, createWorkspace } from "../../../src/mod.ts";
import { equal, sameBytes } from "../assert.ts";
import type { Case } from "../types.ts";
import { refused, succeeded } from "./_calls.ts";

const enc = new TextEncoder();

/** Syntax-guard cases. */
export const SYNTAX_GUARD_CASES: Case[] = [
  {
    name: "syntax_guard.refuses_new_errors",
    async run(ctx) {
      const ts = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
      const py = "def add(a, b):\n    return a + b\n";
      const backend = ctx.backend({ "/src/add.ts": ts, "/src/add.py": py, "/src/old.ts": "let x = ;\n" });
      const fs = BackendFs.wrap(backend);
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const broken = refused(
        await ws.call("write_file", {
          path: "src/add.ts",
          content: "export function add(a: number, b: number): number {\n  return a + ;\n}\n",
        }),
        "syntax_error",
      );
      sameBytes(await fs.read("/src/add.ts"), enc.encode(ts), "src/add.ts after a refused edit");
      const pyBroken = refused(
        await ws.call("write_file", { path: "src/add.py", content: "def add(a, b:\n    return a + b\n" }),
        "syntax_error",
      );
      sameBytes(await fs.read("/src/add.py"), enc.encode(py), "src/add.py after a refused edit");
      // A valid edit lands; errors that were already there do not block.
      succeeded(
        await ws.call("write_file", { path: "src/add.ts", content: ts.replace("a + b", "b + a") }),
        "applied",
      );
      succeeded(
        await ws.call("write_file", { path: "src/old.ts", content: "let x = ;\nlet y = 2;\n" }),
        "applied",
      );
      const files = broken.error.details?.["files"] as { path: string; problems: { line: number }[] }[];
      equal(files.map((f) => f.path), ["src/add.ts"], "files with new syntax errors");
      return {
        ts: { message: broken.error.message, details: broken.error.details },
        py: { message: pyBroken.error.message, details: pyBroken.error.details },
      };
    },
  },
];
