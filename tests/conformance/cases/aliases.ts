/**
 * The compatibility aliases and the catalogue export in every runtime:
 * Anthropic's text editor and Codex's apply_patch land byte-exact through
 * the real tools on a BOM + CRLF file; the MCP export is the same data.
 *
 * @module
 */
import { BackendFs, createWorkspace } from "../../../src/mod.ts";
import { exportCatalogue } from "../../../src/tools/export_formats.ts";
import { equal, sameBytes } from "../assert.ts";
import type { Case } from "../types.ts";
import { refused, succeeded } from "./_calls.ts";

const enc = new TextEncoder();

const CRLF_PY = [
  "\uFEFFdef area(w, h):",
  "    return w * h",
  "",
  "",
  "def perimeter(w, h):",
  "    return 2 * (w + h)",
  "",
]
  .join("\r\n");

/** Alias cases. */
export const ALIAS_CASES: Case[] = [
  {
    name: "aliases.text_editor_and_apply_patch",
    async run(ctx) {
      const backend = ctx.backend({ "/geo.py": CRLF_PY });
      const fs = BackendFs.wrap(backend);
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const view = succeeded(
        await ws.call("str_replace_based_edit_tool", { command: "view", path: "geo.py", view_range: [1, 2] }),
        "read",
      );
      equal(view.tool, "read_file", "view runs as read_file");
      equal(view.data["content"], "1\tdef area(w, h):\n2\t    return w * h", "view_range content");
      succeeded(
        await ws.call("str_replace_editor", {
          command: "insert",
          path: "geo.py",
          insert_line: 2,
          new_str: "    # m²",
        }),
        "applied",
      );
      succeeded(
        await ws.call("str_replace_based_edit_tool", {
          command: "str_replace",
          path: "geo.py",
          old_str: "return 2 * (w + h)",
          new_str: "return 2 * w + 2 * h",
        }),
        "applied",
      );
      const patch = succeeded(
        await ws.call("apply_patch", {
          input:
            "*** Begin Patch\n*** Update File: geo.py\n@@ def area(w, h):\n-    return w * h\n+    return abs(w * h)\n*** End Patch\n",
        }),
        "applied",
      );
      equal(patch.tool, "apply_edits", "apply_patch runs as apply_edits");
      const expected = CRLF_PY.replace("return w * h", "return abs(w * h)\r\n    # m²")
        .replace("return 2 * (w + h)", "return 2 * w + 2 * h");
      sameBytes(await fs.read("/geo.py"), enc.encode(expected), "BOM and CRLF kept through every alias");
      refused(await ws.call("str_replace_editor", { command: "undo_edit", path: "geo.py" }), "invalid_args");
      const mcp = exportCatalogue("mcp");
      return { diff: patch.changes[0]!.diff, mcp_tools: mcp.map((t) => t["name"] as string) };
    },
  },
];
