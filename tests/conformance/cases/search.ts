/**
 * Project-wide search and replace give the same answers in every runtime: the same matches (lines, UTF-16
 * columns, versions, ids, enclosing symbols) from the linear-time engine, and the same bytes after a
 * replacement across files (BOM and CRLF kept, groups expanded); the same structural matches (a pattern, a
 * rule with `nthChild`, a `field` and `utils`, given as an object and as YAML text, a rewrite preview marking
 * the site that would not fit) and the same bytes after a structural rewrite of the sites that fit
 * (re-indented, BOM and CRLF kept).
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

/** Code for the structural cases: a braceless if, a call in an operator, a Python file, a BOM and CRLF. */
const CODE: Record<string, string> = {
  "/c/src/check.ts": 'export function check(x: number) {\n  if (x < 0) throw new Error("negative");\n' +
    '  if (x > 9) {\n    throw new Error("big");\n  }\n  return scale(x) * 2;\n}\n',
  "/c/src/win.ts":
    '\uFEFFexport function win(a: string) {\r\n  if (!a) {\r\n    throw new Error("é" + a);\r\n  }\r\n}\r\n',
  "/c/lib/calc.py":
    "def calc(items):\n    if not items:\n        raise ValueError('empty')\n    return sum(items) * 2\n",
};

type StructuralEntry = {
  path: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  id: string;
  symbol?: string;
  metavariables: Record<string, { text: string }>;
  replacement?: string;
  replacement_does_not_fit?: string;
};

/** A structural page as plain lines: place, id, symbol, metavariables, replacement and whether it fits. */
function structuralLines(res: { data: Record<string, unknown> }): string[] {
  return (res.data["matches"] as StructuralEntry[]).map((m) =>
    [
      `${m.path}:${m.line}:${m.column}-${m.end_line}:${m.end_column}`,
      m.id,
      m.symbol ?? "-",
      JSON.stringify(Object.fromEntries(Object.entries(m.metavariables).map(([k, v]) => [k, v.text]))),
      m.replacement ?? "",
      m.replacement_does_not_fit === undefined ? "fits" : "does not fit",
    ].join(" ")
  );
}

/** Search and replace cases. */
export const SEARCH_CASES: Case[] = [
  {
    name: "search.structural_patterns_rules_and_previews",
    async run(ctx) {
      const ws = await createWorkspace({ backend: ctx.backend(CODE), root: "/c", grammars: ctx.grammars });
      const patterns = succeeded(await ws.call("search_structural", { pattern: "throw new Error($M)" }));
      const rule = succeeded(
        await ws.call("search_structural", {
          rule: { kind: "call_expression", nthChild: 1, inside: { field: "left", matches: "times-two" } },
          utils: { "times-two": { kind: "binary_expression", regex: "\\* 2$" } },
          language: "ts",
        }),
      );
      equal((rule.data["matches"] as unknown[]).length, 1, "the scale call");
      // The same rule as ast-grep's docs write it, YAML text (read by the yaml package in every runtime).
      const yamlRule = succeeded(
        await ws.call("search_structural", {
          rule: "kind: call_expression\nnthChild: 1\ninside:\n  field: left\n  matches: times-two\n",
          utils: "times-two:\n  kind: binary_expression\n  regex: '\\* 2$'\n",
          language: "ts",
        }),
      );
      equal(
        structuralLines(yamlRule).join("\n"),
        structuralLines(rule).join("\n"),
        "YAML reads as the object",
      );
      // ast-grep's rewriters: each identifier under the call's arguments rewritten by a sub-rule.
      const rewritten = succeeded(
        await ws.call("search_structural", {
          pattern: "scale($$$A)",
          transform: { B: { rewrite: { source: "$$$A", rewriters: ["id"] } } },
          rewriters: [{ id: "id", rule: { kind: "identifier" }, fix: "Number($$$)" }],
          rewrite: "scale($B)",
          language: "ts",
        }),
      );
      equal(
        (rewritten.data["matches"] as StructuralEntry[]).map((m) => m.replacement).join(","),
        "scale(Number($$$))",
        "the rewriters' replacement",
      );
      const preview = succeeded(
        await ws.call("search_structural", {
          pattern: "throw new Error($M)",
          rewrite: "log($M);\nthrow new Failure($M)",
        }),
      );
      const misfits = (preview.data["matches"] as StructuralEntry[]).filter((m) =>
        m.replacement_does_not_fit
      );
      equal(misfits.length, 1, "the throw of the braceless if does not fit");
      const python = succeeded(
        await ws.call("search_structural", { pattern: "raise $E($M)", language: "py" }),
      );
      return {
        patterns: structuralLines(patterns),
        rule: structuralLines(rule),
        preview: structuralLines(preview),
        python: structuralLines(python),
      };
    },
  },
  {
    name: "search.structural_rewrite_across_files",
    async run(ctx) {
      const backend = ctx.backend(CODE);
      const ws = await createWorkspace({ backend, root: "/c", grammars: ctx.grammars });
      // The braceless if's site would not fit: refused, nothing written; the others by the ids it names.
      const call = { pattern: "throw new Error($M)", rewrite: "log($M);\nthrow new Failure($M)" };
      const refusal = refused(await ws.call("edit_rewrite_structural", call), "syntax_error");
      const others = refusal.error.details?.["other_ids"] as string[];
      equal(others.length, 2, "the two throws in braces");
      const r = succeeded(await ws.call("edit_rewrite_structural", { ...call, ids: others }), "applied");
      const bytes = new Uint8Array(await backend.readFile("/c/src/win.ts") as Uint8Array);
      equal([...bytes.slice(0, 3)].join(","), "239,187,191", "the BOM is kept");
      const win = new TextDecoder().decode(bytes.slice(3));
      equal(
        win,
        'export function win(a: string) {\r\n  if (!a) {\r\n    log("é" + a);\r\n    throw new Failure("é" + a);\r\n  }\r\n}\r\n',
        "re-indented to its block, CRLF kept",
      );
      const check = new TextDecoder().decode(
        new Uint8Array(await backend.readFile("/c/src/check.ts") as Uint8Array),
      );
      return { win, check, versions: r.changes.map((c) => `${c.path} ${c.after_version}`).sort() };
    },
  },
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
