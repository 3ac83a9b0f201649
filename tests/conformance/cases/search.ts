/**
 * Project-wide search and replace give the same answers in every runtime: the same matches (lines, UTF-16
 * columns, versions, ids, enclosing symbols) from the linear-time engine, and the same bytes after a
 * replacement across files (BOM and CRLF kept, groups expanded).
 *
 * @module
 */
import { createWorkspace } from "../../../src/mod.ts";
import { check, equal } from "../assert.ts";
import type { Case } from "../types.ts";
import { refused, succeeded } from "./_calls.ts";

const FILES: Record<string, string | Uint8Array> = {
  "/s/src/router.ts":
    "export class Router {\n  match(path: string) {\n    return this.routes.find((r) => r.path === path);\n  }\n}\n",
  "/s/src/app.ts":
    "\uFEFFimport { Router } from './router';\r\nconst r = new Router(); // Ünïcode router\r\n",
  "/s/lib/util.py": "def find(items, key):\n    return [i for i in items if i.key == key]\n",
  "/s/notes.md": "router notes\n",
  "/s/.hidden/x.ts": "Router\n",
  "/s/bin.dat": new Uint8Array([0x52, 0x6f, 0x75, 0x74, 0x65, 0x72, 0x00, 0x01]),
};

type Match = { path: string; line: number; column: number; symbol?: string; submatches: { id: string }[] };

/** Search and replace cases. */
export const SEARCH_CASES: Case[] = [
  {
    name: "search.text_matches",
    async run(ctx) {
      const ws = await createWorkspace({ backend: ctx.backend(FILES), root: "/s", grammars: ctx.grammars });
      const word = succeeded(
        await ws.call("search_text", { pattern: "router", ignore_case: true, word: true }),
      );
      const matches = (word.data["matches"] as Match[]).map((m) =>
        `${m.path}:${m.line}:${m.column} ${m.symbol ?? "-"} ${m.submatches.map((s) => s.id).join(",")}`
      );
      const summary = word.data["summary"] as { files_scanned: number; skipped: { binary: number } };
      equal(summary.skipped.binary, 1, "the binary file is skipped");
      const typed = succeeded(await ws.call("search_text", { pattern: "find\\(", type: ["ts", "py"] }));
      const found = (typed.data["matches"] as Match[]).map((m) =>
        `${m.path}:${m.line}:${m.column} ${m.symbol}`
      );
      equal(found.length, 2, "one match in each language");
      const refusal = refused(await ws.call("search_text", { pattern: "(?=x)" }), "invalid_args");
      check(/look-ahead/.test(refusal.error.message), "the look-ahead is named");
      return { matches, found, scanned: summary.files_scanned };
    },
  },
  {
    name: "search.replace_across_files",
    async run(ctx) {
      const backend = ctx.backend(FILES);
      const ws = await createWorkspace({ backend, root: "/s", grammars: ctx.grammars });
      const r = succeeded(
        await ws.call("edit_replace_text", {
          pattern: "new (\\w+)\\(\\)",
          replacement: "${1}.create()",
          glob: "src/**",
        }),
        "applied",
      );
      equal(r.data["replaced"], 1, "one occurrence");
      const bytes = new Uint8Array(await backend.readFile("/s/src/app.ts") as Uint8Array);
      equal([...bytes.slice(0, 3)].join(","), "239,187,191", "the BOM is kept");
      const text = new TextDecoder().decode(bytes.slice(3));
      equal(
        text,
        "import { Router } from './router';\r\nconst r = Router.create(); // Ünïcode router\r\n",
        "the replacement, CRLF kept",
      );
      refused(await ws.call("edit_replace_text", { pattern: "x", replacement: "${y}" }), "invalid_args");
      return { text, version: r.changes[0]!.after_version };
    },
  },
];
