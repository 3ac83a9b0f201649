/**
 * The text engine in every runtime: SEARCH/REPLACE with drift, a unified
 * diff, str_replace, and the refusals, on memfs, byte-exact.
 *
 * @module
 */
import { BackendFs, createWorkspace } from "../../../src/mod.ts";
import { equal, sameBytes } from "../assert.ts";
import type { Case } from "../types.ts";
import { refused, succeeded } from "./_calls.ts";

const enc = new TextEncoder();

const CRLF_TS = [
  "\uFEFFexport function area(w: number, h: number): number {",
  "  if (w < 0 || h < 0) {",
  '    throw new RangeError("negative");',
  "  }",
  "  return w * h;",
  "}",
  "",
].join("\r\n");

/** Text-engine cases. */
export const TEXT_ENGINE_CASES: Case[] = [
  {
    name: "text.search_replace_with_drift",
    async run(ctx) {
      const backend = ctx.backend({ "/src/area.ts": CRLF_TS });
      const fs = BackendFs.wrap(backend);
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      // The model lost the indentation and the CRLF endings, and used smart quotes.
      const response = [
        "src/area.ts",
        "```ts",
        "<<<<<<< SEARCH",
        "if (w < 0 || h < 0) {",
        "  throw new RangeError(\u201Cnegative\u201D);",
        "}",
        "=======",
        "if (w < 0 || h < 0) {",
        "  throw new RangeError(`negative size ${w}x${h}`);",
        "}",
        ">>>>>>> REPLACE",
        "```",
      ].join("\n");
      const res = succeeded(await ws.call("apply_edits", { text: response }), "applied");
      const expected = CRLF_TS.replace('"negative"', "`negative size ${w}x${h}`");
      sameBytes(await fs.read("/src/area.ts"), enc.encode(expected), "BOM, CRLF and indentation kept");
      return { diff: res.changes[0]!.diff, blocks: res.data["blocks"] ?? null };
    },
  },
  {
    name: "text.udiff_and_str_replace",
    async run(ctx) {
      const backend = ctx.backend({ "/a.py": "def f(x):\n    return x\n\n\ndef g(y):\n    return y\n" });
      const fs = BackendFs.wrap(backend);
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const diff = [
        "--- a/a.py",
        "+++ b/a.py",
        "@@ -4,3 +4,3 @@",
        " ",
        " def g(y):",
        "-    return y",
        "+    return y * 2",
        "",
      ].join("\n");
      succeeded(await ws.call("apply_edits", { text: diff }), "applied");
      succeeded(
        await ws.call("edit_file", { path: "a.py", old_string: "return x", new_string: "return -x" }),
        "applied",
      );
      sameBytes(
        await fs.read("/a.py"),
        enc.encode("def f(x):\n    return -x\n\n\ndef g(y):\n    return y * 2\n"),
        "a.py after a udiff and a str_replace",
      );
      return { ok: true };
    },
  },
  {
    name: "text.refusals_write_nothing",
    async run(ctx) {
      const src = "let a = 1;\nlet b = 1;\n";
      const backend = ctx.backend({ "/x.js": src });
      const fs = BackendFs.wrap(backend);
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const ambiguous = refused(
        await ws.call("edit_file", { path: "x.js", old_string: "= 1;", new_string: "= 2;" }),
        "ambiguous",
      );
      const missing = refused(
        await ws.call("edit_file", { path: "x.js", old_string: "let c = 1;", new_string: "let c = 2;" }),
        "no_match",
      );
      const broken = refused(
        await ws.call("edit_file", { path: "x.js", old_string: "let b = 1;", new_string: "let b = (1;" }),
        "syntax_error",
      );
      sameBytes(await fs.read("/x.js"), enc.encode(src), "x.js after three refusals");
      equal(broken.error.code, "syntax_error", "syntax guard through edit_file");
      return { ambiguous: ambiguous.error.details ?? null, missing: missing.error.message };
    },
  },
];
