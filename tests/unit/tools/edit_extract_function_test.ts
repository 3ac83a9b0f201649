import assert from "node:assert/strict";
import { assertReparses, ok, RXJS, textOf, workspaceOf } from "./_bindings_fixtures.ts";

const TEXTWRAP = Deno.readTextFileSync("/usr/lib/python3.11/textwrap.py");
const DIFF_JS = Deno.readTextFileSync(new URL("../../../node_modules/diff/dist/diff.js", import.meta.url));

function linesAt(text: string, needle: string, count: number): { start_line: number; end_line: number } {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `"${needle}" not found`);
  const start = text.slice(0, i).split("\n").length;
  return { start_line: start, end_line: start + count - 1 };
}

const MARGIN = linesAt(TEXTWRAP, "    margin = None", 24);

Deno.test("edit_extract_function() commits one file: the call, the new function, its data", async () => {
  const ws = await workspaceOf({ "/textwrap.py": TEXTWRAP });
  const res = ok(
    await ws.call("edit_extract_function", { path: "textwrap.py", range: MARGIN, name: "common_margin" }),
  );
  assert.equal(res.status, "applied");
  assert.deepEqual(res.changes.map((c) => c.path), ["textwrap.py"]);
  assert.match(res.changes[0]!.diff, /\+ {4}margin, text = common_margin\(text\)/);
  assert.deepEqual(res.data, {
    name: "common_margin",
    kind: "function",
    line: (await textOf(ws, "textwrap.py")).split("\n").indexOf("def common_margin(text):") + 1,
    parameters: ["text"],
    returns: ["margin", "text"],
    async: false,
    generator: false,
    call: "margin, text = common_margin(text)",
  });
  await assertReparses("python", TEXTWRAP, await textOf(ws, "textwrap.py"), "textwrap.py");
});

Deno.test("edit_extract_function() dry_run previews and writes nothing; aliases lines and function_name work", async () => {
  const ws = await workspaceOf({ "/textwrap.py": TEXTWRAP });
  const res = ok(
    await ws.call("edit_extract_function", {
      path: "textwrap.py",
      lines: MARGIN,
      function_name: "common_margin",
      dry_run: true,
    }),
  );
  assert.equal(res.status, "dry_run");
  assert.match(res.changes[0]!.diff, /\+def common_margin\(text\):/);
  assert.equal(await textOf(ws, "textwrap.py"), TEXTWRAP);
});

Deno.test("edit_extract_function() composes in an edit_dry_run plan: extract, then rename the new function", async () => {
  const ws = await workspaceOf({ "/diff.js": DIFF_JS });
  const range = linesAt(DIFF_JS, "const retLines = [], linesAndNewlines", 15);
  const res = ok(
    await ws.call("edit_dry_run", {
      plan: [
        { tool: "edit_extract_function", args: { path: "diff.js", range, name: "mergeLines" } },
        {
          tool: "edit_rename_symbol",
          args: { path: "diff.js", target: "mergeLines", new_name: "joinLineTokens" },
        },
      ],
    }),
  );
  assert.equal(res.data["status"], "ok");
  const diff = res.changes[0]!.diff;
  assert.match(diff, /\+ {8}const retLines = joinLineTokens\(value, options\);/);
  assert.match(diff, /\+ {4}function joinLineTokens\(value, options\) \{/);
  assert.doesNotMatch(diff, /mergeLines/);
  assert.equal(await textOf(ws, "diff.js"), DIFF_JS, "a plan writes nothing");
});

Deno.test("edit_extract_function() refusals carry their code, say where and what next, and write nothing", async () => {
  const scan = RXJS["/internal/operators/scanInternals.ts"]!;
  const ws = await workspaceOf({
    "/textwrap.py": TEXTWRAP,
    "/diff.js": DIFF_JS,
    "/scan.ts": scan,
    "/Main.java": "class Main {\n  void f() {\n    int x = 1;\n    g(x);\n  }\n}\n",
    "/plain.js": "function f() {\n  const a = this.a;\n  return a;\n}\n",
  });
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [
      {
        path: "textwrap.py",
        range: linesAt(TEXTWRAP, "                if cur_len + l <= width:", 7),
        name: "fit",
      },
      "control_flow_escapes",
      /the break at line \d+ jumps to a loop outside them/,
    ],
    [
      { path: "scan.ts", range: linesAt(scan, "          // Always increment the index.", 13), name: "step" },
      "types_required",
      /the type of "value" \(declared at line \d+\)/,
    ],
    [{ path: "textwrap.py", range: MARGIN, name: "dedent" }, "name_clash", /"dedent" is already declared/],
    [
      { path: "diff.js", range: linesAt(DIFF_JS, "const retLines = [], linesAndNewlines", 14), name: "m" },
      "invalid_args",
      /the for_statement at lines \d+-\d+ .* straddles it/,
    ],
    [
      { path: "Main.java", range: { start_line: 3, end_line: 4 }, name: "h" },
      "unsupported_language",
      /not java/,
    ],
    [
      { path: "plain.js", range: { start_line: 2, end_line: 2 }, name: "g" },
      "unresolved",
      /"this" at line 2/,
    ],
    [{ path: "textwrap.py", range: { start_line: 9, end_line: 3 }, name: "g" }, "invalid_args", /end_line/],
  ];
  for (const [args, code, message] of cases) {
    const before = await textOf(ws, args["path"] as string);
    const res = await ws.call("edit_extract_function", args);
    assert.ok(!res.ok, `${code}: ${JSON.stringify(res).slice(0, 300)}`);
    assert.equal(res.error.code, code, res.error.message);
    assert.match(res.error.message, message);
    assert.match(res.error.message, new RegExp(`"${args["path"]}"`));
    assert.ok(res.error.hint.length > 0);
    assert.equal(await textOf(ws, args["path"] as string), before, `${code}: nothing written`);
  }
});

Deno.test("edit_capabilities tells which languages edit_extract_function supports", async () => {
  const ws = await workspaceOf({});
  for (
    const [language, supported] of [
      ["typescript", true],
      ["tsx", true],
      ["javascript", true],
      [
        "python",
        true,
      ],
      [
        "go",
        true,
      ],
      ["rust", true],
      ["java", false],
    ] as const
  ) {
    const res = ok(await ws.call("edit_capabilities", { language }));
    const row = (res.data["languages"] as { capabilities: Record<string, boolean> }[])[0]!;
    assert.equal(row.capabilities["extract_function"], supported, language);
  }
});

Deno.test("edit_extract_function() refuses a TypeScript interface or type alias, and a `declare global` block's contents (rxjs's types.ts)", async () => {
  // The soak's case: extracting `interface SymbolConstructor` out of `declare global { … }` wrote a function
  // call into the ambient block (TS1036) and hid the interface from everything that used it.
  const types = Deno.readTextFileSync(
    new URL(
      "../../../node_modules/rxjs/src/internal/types.ts",
      import.meta.url,
    ),
  );
  const local = "export function f(): number {\n  type N = number;\n  const n: N = 1;\n  return n;\n}\n";
  const ws = await workspaceOf({ "/internal/types.ts": types, "/local.ts": local });
  for (
    const [path, range] of [
      ["internal/types.ts", { start_line: 12, end_line: 14 }],
      ["local.ts", { start_line: 2, end_line: 2 }],
    ] as const
  ) {
    const res = await ws.call("edit_extract_function", { path, range, name: "moved" });
    assert.ok(!res.ok && res.error.code === "invalid_args", JSON.stringify(res));
    assert.match(res.error.message, /cannot move into a function/);
  }
  assert.equal(await textOf(ws, "internal/types.ts"), types, "nothing written");
});
