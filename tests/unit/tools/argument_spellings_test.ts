/**
 * The argument spellings an agent guesses first are accepted (names are a contract with models: aliases are
 * added, never removed), and a refusal for an unknown argument names the canonical one.
 */
import assert from "node:assert/strict";
import { code, okData, open } from "./_files.ts";

const PY = {
  "/w/pkg/mod.py": "def helper(x):\n    y = x + 1\n    z = y * 2\n    return z\n",
  "/w/pkg/__init__.py": "",
};

Deno.test("move_file takes path / to_path / new_path / destination for from and to", async () => {
  const { ws } = await open({ "/w/one.txt": "1\n", "/w/two.txt": "2\n" });
  okData(await ws.call("move_file", { path: "one.txt", to_path: "uno.txt" }));
  okData(await ws.call("move_file", { source: "two.txt", new_path: "dos.txt" }));
  const listed = okData(await ws.call("list_files", {}));
  const names = JSON.stringify(listed);
  assert.ok(names.includes("uno.txt") && names.includes("dos.txt") && !names.includes("one.txt"), names);
  const wrong = await ws.call("move_file", { src: "uno.txt", dst: "x.txt" });
  assert.equal(code(wrong), "invalid_args");
  assert.match(!wrong.ok ? wrong.error.message + wrong.error.hint : "", /from/);
});

Deno.test("edit_move_decl takes new_path for to_path", async () => {
  const { ws } = await open(PY);
  const r = await ws.call("edit_move_decl", {
    path: "pkg/mod.py",
    name_path: "helper",
    new_path: "pkg/util.py",
  });
  assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
});

Deno.test("edit_extract_function takes start_line / end_line beside path for range", async () => {
  const { ws } = await open(PY);
  const args = { path: "pkg/mod.py", start_line: 2, end_line: 3, name: "step", dry_run: true };
  const r = await ws.call("edit_extract_function", args);
  assert.ok(r.ok && r.status === "dry_run", JSON.stringify(r));
  assert.equal(okData(r)["name"], "step");
  // Both shapes at once: the stray top-level lines are named, not silently dropped.
  const both = await ws.call("edit_extract_function", { ...args, range: { start_line: 2, end_line: 3 } });
  assert.equal(code(both), "invalid_args");
  assert.match(!both.ok ? both.error.message : "", /start_line/);
});

Deno.test("one name across tools: max_results for every limit, target for a symbol, code or new_text for inserted code", async () => {
  const { ws } = await open({
    ...PY,
    "/w/pkg/more.py": "def a():\n    return 1\n\n\ndef b():\n    return 2\n",
  });
  const listed = okData(await ws.call("list_files", { recursive: true, max_results: 1 }));
  assert.equal((listed["entries"] as string[]).length, 1);
  const outline = okData(await ws.call("outline", { path: "pkg/more.py", max_results: 1 }));
  assert.equal((outline["symbols"] as unknown[]).length, 1);
  const calls: [string, Record<string, unknown>][] = [
    ["replace_symbol", { path: "pkg/more.py", target: "a", code: "def a():\n    return 10" }],
    ["remove_symbol", { path: "pkg/more.py", target: "b" }],
    ["insert_code", {
      path: "pkg/more.py",
      target: "a",
      position: "after",
      new_text: "def c():\n    return 3",
    }],
    ["edit_apply_node", { path: "pkg/more.py", selector: "a", code: "def a():\n    return 11" }],
    ["edit_insert_at_anchor", {
      path: "pkg/more.py",
      selector: "a",
      position: "before",
      code: "# about a",
    }],
  ];
  for (const [tool, args] of calls) {
    const r = await ws.call(tool, { ...args, dry_run: true });
    assert.ok(r.ok && r.status === "dry_run", `${tool}: ${JSON.stringify(r)}`);
  }
});
