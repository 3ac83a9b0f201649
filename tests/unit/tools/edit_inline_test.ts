import assert from "node:assert/strict";
import { ok, textOf, workspaceOf } from "./_bindings_fixtures.ts";

const DIFF_JS = Deno.readTextFileSync(new URL("../../../node_modules/diff/dist/diff.js", import.meta.url));
const TEXTWRAP = Deno.readTextFileSync("/usr/lib/python3.11/textwrap.py");

function lineCol(text: string, needle: string, offset = 0): { line: number; column: number } {
  const i = text.indexOf(needle) + offset;
  return { line: text.slice(0, i).split("\n").length, column: i - (text.lastIndexOf("\n", i - 1) + 1) + 1 };
}

Deno.test("edit_inline() commits the inlined calls and the removed declaration, with its data", async () => {
  const ws = await workspaceOf({ "/diff.js": DIFF_JS });
  const res = ok(await ws.call("edit_inline", { path: "diff.js", target: "removeSuffix" }));
  assert.equal(res.status, "applied");
  assert.deepEqual(res.data, {
    kind: "function",
    name: "removeSuffix",
    inlined: 4,
    lines: [661, 662, 692, 705],
    removed: true,
  });
  const after = await textOf(ws, "diff.js");
  assert.match(after, /insertion\.value = replaceSuffix\(insertion\.value, commonWsSuffix, ''\);/);
  assert.ok(!after.includes("removeSuffix"));
});

Deno.test("edit_inline() dry_run writes nothing; name_path and position aliases work", async () => {
  const ws = await workspaceOf({ "/textwrap.py": TEXTWRAP });
  const target = lineCol(TEXTWRAP, "    w = TextWrapper(width=width, max_lines=1", 4);
  const res = ok(await ws.call("edit_inline", { path: "textwrap.py", position: target, dry_run: true }));
  assert.equal(res.status, "dry_run");
  assert.match(
    res.changes[0]!.diff,
    /\+    return TextWrapper\(width=width, max_lines=1, \*\*kwargs\)\.fill\(/,
  );
  assert.equal(await textOf(ws, "textwrap.py"), TEXTWRAP);
  const byName = await ws.call("edit_inline", { path: "diff.js", name_path: "removeSuffix", dry_run: true });
  assert.ok(!byName.ok && byName.error.code === "not_found", "the path is checked first");
});

Deno.test("edit_inline() composes with edit_extract_function in an edit_dry_run plan: extract, then inline back", async () => {
  const ws = await workspaceOf({ "/textwrap.py": TEXTWRAP });
  const start =
    TEXTWRAP.slice(0, TEXTWRAP.indexOf("    return w.fill(' '.join(text.strip().split()))")).split("\n")
      .length;
  const res = ok(
    await ws.call("edit_dry_run", {
      plan: [
        {
          tool: "edit_extract_function",
          args: { path: "textwrap.py", range: { start_line: start, end_line: start }, name: "_short" },
        },
        { tool: "edit_inline", args: { path: "textwrap.py", target: "_short" } },
      ],
    }),
  );
  assert.equal(res.data["status"], "ok");
  const ops = res.data["ops"] as { data: Record<string, unknown> }[];
  assert.equal(ops[1]!.data["removed"], true);
  assert.deepEqual(res.changes, [], "inlining the extracted function gives back the original bytes");
  assert.equal(await textOf(ws, "textwrap.py"), TEXTWRAP);
});

Deno.test("edit_inline() refusals carry their code and hint, and write nothing", async () => {
  const ws = await workspaceOf({ "/diff.js": DIFF_JS, "/m.rb": "def f\n  1\nend\n" });
  const cases: [Record<string, unknown>, string][] = [
    [{ path: "diff.js", target: "replacePrefix" }, "control_flow_escapes"],
    [{ path: "diff.js", target: "diffChars" }, "value_reference"],
    [{ path: "diff.js", target: lineCol(DIFF_JS, "const hasTrailingNl", 6) }, "unsupported_call_site"],
    [{ path: "diff.js", target: lineCol(DIFF_JS, "let oldPos = basePath.oldPos", 4) }, "unresolved"],
    [{ path: "m.rb", target: "f" }, "unsupported_language"],
  ];
  for (const [args, code] of cases) {
    const before = await textOf(ws, args["path"] as string);
    const res = await ws.call("edit_inline", args);
    assert.ok(!res.ok, JSON.stringify(res).slice(0, 300));
    assert.equal(res.error.code, code, res.error.message);
    assert.ok(res.error.hint.length > 0);
    assert.equal(await textOf(ws, args["path"] as string), before);
  }
});
