/**
 * The structural engine in every runtime: outline with name paths, symbol
 * edits, pattern selectors, the safe text patch and a dry-run plan.
 *
 * @module
 */
import { BackendFs, createWorkspace } from "../../../src/mod.ts";
import { check, equal, sameBytes } from "../assert.ts";
import type { Case } from "../types.ts";
import { refused, succeeded } from "./_calls.ts";

const enc = new TextEncoder();

const SHAPES_TS = [
  "/** A shape with an area. */",
  "export interface Shape {",
  "  area(): number;",
  "}",
  "",
  "export class Square implements Shape {",
  "  constructor(private side: number) {}",
  "",
  "  area(): number {",
  '    console.log("area", this.side);',
  "    return this.side * this.side;",
  "  }",
  "}",
  "",
].join("\n");

const SHAPES_PY = [
  "class Circle:",
  "    def __init__(self, r):",
  "        self.r = r",
  "",
  "    @property",
  "    def area(self):",
  "        return 3.14159 * self.r * self.r",
  "",
].join("\n");

interface OutlineSymbol {
  name_path: string;
  kind: string;
  children?: OutlineSymbol[];
}

interface FullSymbol {
  name: string;
  name_path: string;
  kind: string;
  range: { start_utf16: number; end_utf16: number };
  full_range: { start_utf16: number; end_utf16: number; start_line: number };
  children: FullSymbol[];
}

function flatSymbols(symbols: FullSymbol[]): FullSymbol[] {
  return symbols.flatMap((s) => [s, ...flatSymbols(s.children)]);
}

function flatten(symbols: OutlineSymbol[]): string[] {
  return symbols.flatMap((s) => [`${s.kind} ${s.name_path}`, ...flatten(s.children ?? [])]);
}

/** Structural cases. */
export const STRUCTURAL_CASES: Case[] = [
  {
    name: "structural.outline_and_symbol_edits",
    async run(ctx) {
      const backend = ctx.backend({ "/src/shapes.ts": SHAPES_TS, "/src/circle.py": SHAPES_PY });
      const fs = BackendFs.wrap(backend);
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const outline = succeeded(await ws.call("outline", { path: "src/shapes.ts" }));
      const names = flatten(outline.data["symbols"] as OutlineSymbol[]);
      check(names.some((n) => n.endsWith(" Square/area")), `outline lists Square/area: ${names.join(", ")}`);
      const found = succeeded(await ws.call("find_symbol", { name_path: "area" }));
      const replaced = succeeded(
        await ws.call("replace_symbol", {
          path: "src/shapes.ts",
          name_path: "Square/area",
          new_body: "area(): number {\n  return this.side ** 2;\n}",
        }),
        "applied",
      );
      sameBytes(
        await fs.read("/src/shapes.ts"),
        enc.encode(SHAPES_TS.replace(
          '  area(): number {\n    console.log("area", this.side);\n    return this.side * this.side;\n  }',
          "  area(): number {\n    return this.side ** 2;\n  }",
        )),
        "Square/area replaced and re-indented",
      );
      succeeded(
        await ws.call("insert_code", {
          path: "src/circle.py",
          name_path: "Circle",
          position: "end_of_body",
          code: "def diameter(self):\n    return 2 * self.r",
        }),
        "applied",
      );
      sameBytes(
        await fs.read("/src/circle.py"),
        enc.encode(SHAPES_PY + "\n    def diameter(self):\n        return 2 * self.r\n"),
        "method appended inside the Python class",
      );
      succeeded(
        await ws.call("remove_symbol", { path: "src/circle.py", name_path: "Circle/diameter" }),
        "applied",
      );
      sameBytes(
        await fs.read("/src/circle.py"),
        enc.encode(SHAPES_PY),
        "insert then remove restores the bytes",
      );
      const missing = refused(
        await ws.call("replace_symbol", {
          path: "src/shapes.ts",
          name_path: "Square/perimeter",
          new_body: "perimeter() { return 4; }",
        }),
        "not_found",
      );
      return { names, found: found.data, diff: replaced.changes[0]!.diff, missing: missing.error.message };
    },
  },
  {
    name: "structural.patterns_patch_and_plan",
    async run(ctx) {
      const backend = ctx.backend({ "/src/shapes.ts": SHAPES_TS, "/notes.txt": "alpha\nbeta\n" });
      const fs = BackendFs.wrap(backend);
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const removed = succeeded(
        await ws.call("edit_apply_node", {
          path: "src/shapes.ts",
          selector: { pattern: "console.log($$$ARGS)" },
          new_text: "",
        }),
        "applied",
      );
      sameBytes(
        await fs.read("/src/shapes.ts"),
        enc.encode(SHAPES_TS.replace('    console.log("area", this.side);\n', "")),
        "the console.log statement removed with its line",
      );
      const noGrammar = refused(
        await ws.call("edit_apply_node", { path: "notes.txt", selector: "alpha", new_text: "x" }),
        "unsupported_language",
      );
      equal(noGrammar.error.suggested_call?.tool, "edit_safe_text_patch", "fallback named");
      const notes = await fs.read("/notes.txt");
      const { versionOf } = await import("../../../src/mod.ts");
      succeeded(
        await ws.call("edit_safe_text_patch", {
          path: "notes.txt",
          hunks: [{ old_text: "beta", new_text: "gamma" }],
          expected_hash: await versionOf(notes!),
        }),
        "applied",
      );
      refused(
        await ws.call("edit_safe_text_patch", {
          path: "notes.txt",
          hunks: [{ old_text: "alpha", new_text: "omega" }],
          expected_hash: await versionOf(notes!),
        }),
        "stale_base",
      );
      const before = await fs.read("/src/shapes.ts");
      const plan = succeeded(
        await ws.call("edit_dry_run", {
          plan: [
            {
              tool: "edit_file",
              args: { path: "src/shapes.ts", old_string: "side * this.side", new_string: "side * 2" },
            },
            {
              tool: "edit_file",
              args: { path: "src/shapes.ts", old_string: "side * 2", new_string: "side * 4" },
            },
          ],
        }),
      );
      sameBytes(await fs.read("/src/shapes.ts"), before!, "a dry-run plan writes nothing");
      equal(plan.data["status"], "ok", "plan status");
      return {
        removed: removed.changes[0]!.diff,
        plan: plan.changes.map((c) => c.diff),
        capabilities: succeeded(await ws.call("edit_capabilities", { language: "python" })).data,
      };
    },
  },
  {
    name: "structural.round_trips_on_real_samples",
    async run(ctx) {
      // Every code sample (one real file per language): replacing each of its first symbols with its own text
      // changes nothing, and inserting a copy after it then removing the copy gives the original bytes back.
      const report: Record<string, number> = {};
      for (const sample of ctx.samples) {
        if (["json", "yaml", "toml", "css", "html"].includes(sample.language)) continue;
        const name = sample.file.slice(sample.file.lastIndexOf("/") + 1);
        const ws = await createWorkspace({
          backend: ctx.backend({ [`/${name}`]: sample.text }),
          grammars: ctx.grammars,
        });
        const outline = succeeded(await ws.call("outline", { path: name, detail: "full" }));
        const symbols = flatSymbols(outline.data["symbols"] as FullSymbol[]).slice(0, 6);
        for (const s of symbols) {
          const own = sample.text.slice(s.range.start_utf16, s.range.end_utf16);
          const same = succeeded(
            await ws.call("replace_symbol", {
              path: name,
              name_path: `/${s.name_path}`,
              new_body: own,
              dry_run: true,
            }),
          );
          equal(
            same.changes.length,
            0,
            `${sample.file}: replacing /${s.name_path} with its own text changes nothing`,
          );
          const semi = /^[ \t]*;/.test(sample.text.slice(s.full_range.end_utf16)) ? ";" : "";
          const copy = sample.text.slice(s.full_range.start_utf16, s.full_range.end_utf16) + semi;
          const inserted = await ws.call("insert_code", {
            path: name,
            name_path: `/${s.name_path}`,
            position: "after",
            code: copy,
          });
          if (!inserted.ok) continue; // copying code that holds parse errors (zsh in a bash file) is refused
          const line = inserted.data["start_line"] as number;
          const after = succeeded(await ws.call("outline", { path: name, detail: "full" }));
          const copies = flatSymbols(after.data["symbols"] as FullSymbol[]).filter((x) =>
            x.name === s.name && x.kind === s.kind && x.full_range.start_line === line
          );
          equal(copies.length, 1, `${sample.file}: the copy of /${s.name_path} is at line ${line}`);
          succeeded(
            await ws.call("remove_symbol", { path: name, name_path: `/${copies[0]!.name_path}` }),
            "applied",
          );
          sameBytes(
            await BackendFs.wrap(ws.fs).read(`/${name}`),
            enc.encode(sample.text),
            `${sample.file}: insert then remove of /${s.name_path}`,
          );
          report[sample.language] = (report[sample.language] ?? 0) + 1;
        }
        await ws.close();
      }
      return report;
    },
  },
];
