import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend, createWorkspace, Grammars, type Workspace } from "../../../src/mod.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { findSyntaxRegressions, guardSyntax } from "../../../src/syntax/syntax_guard.ts";
import { enc, snapshot } from "../../_helpers.ts";

const GRAMMARS = new Grammars(createWasmLoader());

const FILES = {
  "/a.ts": "export const a = 1;\n",
  "/broken.ts": "const = 1;\nexport const b = 1;\n",
  "/notes.unknown": "plain\n",
  "/bin/run": "#!/usr/bin/env python3\nprint('hi')\n",
};

function open(grammars: Grammars | null = GRAMMARS): Promise<Workspace> {
  return createWorkspace({ backend: createMemoryBackend(FILES), ...(grammars ? { grammars } : {}) });
}

/** Stage `writes` (null deletes) on a fresh stage of `ws` and run the guard on its changes. */
async function guard(ws: Workspace, writes: Record<string, string | Uint8Array | null>) {
  const stage = new Stage(ws.fs, ws.sandbox);
  for (const [rel, content] of Object.entries(writes)) {
    if (content === null) await stage.remove(rel);
    else await stage.write(rel, typeof content === "string" ? enc(content) : content);
  }
  return findSyntaxRegressions(ws, stage.changes());
}

Deno.test("findSyntaxRegressions() reports a new parse error with its line and language", async () => {
  const ws = await open();
  const out = await guard(ws, { "a.ts": "export const a = 1;\nexport const b = ;\n" });
  assert.equal(out.length, 1);
  assert.equal(out[0]!.path, "a.ts");
  assert.equal(out[0]!.language, "typescript");
  assert.ok(out[0]!.problems.length > 0);
  assert.equal(out[0]!.problems[0]!.line, 2);
});

Deno.test("findSyntaxRegressions() ignores errors that were already there", async () => {
  const ws = await open();
  assert.deepEqual(await guard(ws, { "broken.ts": "const = 1;\nexport const b = 2;\n" }), []);
});

Deno.test("findSyntaxRegressions() reports only the new error next to a pre-existing one", async () => {
  const ws = await open();
  const out = await guard(ws, { "broken.ts": "const = 1;\nexport const b = 2;\nfunction f( {\n" });
  assert.equal(out.length, 1);
  assert.ok(out[0]!.problems.every((p) => p.line >= 3), JSON.stringify(out[0]!.problems));
});

Deno.test("findSyntaxRegressions() checks a new file and one found by its shebang", async () => {
  const ws = await open();
  const out = await guard(ws, { "new.py": "def f(:\n", "bin/run": "#!/usr/bin/env python3\nprint('hi'\n" });
  assert.deepEqual(out.map((r) => [r.path, r.language]), [["bin/run", "python"], ["new.py", "python"]]);
});

Deno.test("findSyntaxRegressions() skips files without a grammar, deleted files and binary content", async () => {
  const ws = await open();
  const out = await guard(ws, {
    "notes.unknown": "{{{ not code",
    "a.ts": null,
    "img.ts": new Uint8Array([0x89, 0x50, 0x00, 0x01]),
  });
  assert.deepEqual(out, []);
});

Deno.test("findSyntaxRegressions() finds nothing in a workspace without grammars", async () => {
  const ws = await open(null);
  assert.equal(ws.grammars, null);
  assert.deepEqual(await guard(ws, { "a.ts": "export const a = ;\n" }), []);
});

Deno.test("dispatch() runs the syntax guard: new parse errors refused, pre-existing ones not", async () => {
  const backend = createMemoryBackend(FILES);
  const ws = await createWorkspace({ backend, grammars: GRAMMARS });
  const refused = await ws.call("write_file", { path: "a.ts", content: "export const a = ;\n" });
  assert.ok(!refused.ok && refused.error.code === "syntax_error", JSON.stringify(refused));
  assert.equal((await snapshot(backend))["/a.ts"], "export const a = 1;\n");
  const ok = await ws.call("write_file", { path: "broken.ts", content: "const = 1;\nexport const b = 2;\n" });
  assert.ok(ok.ok, JSON.stringify(ok));
  const plain = await ws.call("write_file", { path: "notes.unknown", content: "{{{ not code" });
  assert.ok(plain.ok);
});

Deno.test("guardSyntax() refuses, warns or stays off as asked", async () => {
  const ws = await open();
  const changes = [{ path: "a.ts", baseVersion: null, before: null, after: enc("export const a = ;\n") }];
  await assert.rejects(
    () => guardSyntax(ws, changes, { tool: "write_file", mode: "refuse" }),
    (e) => e instanceof Error && "code" in e && e.code === "syntax_error" && /"a.ts" line 1/.test(e.message),
  );
  const warnings = await guardSyntax(ws, changes, { tool: "write_file", mode: "warn" });
  assert.deepEqual(warnings, ['The edit introduces syntax errors at "a.ts" line 1']);
  assert.deepEqual(await guardSyntax(ws, changes, { tool: "write_file", mode: "off" }), []);
});

Deno.test("findSyntaxRegressions() counts a Python body left empty (which tree-sitter accepts) as a new error", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({
      "/m.py": "def f():\n    return 1\n\n\ndef g():\n    pass\n",
      "/old.py": "def f():\n\ndef g():\n    pass\n",
    }),
    grammars: GRAMMARS,
  });
  const out = await guard(ws, { "m.py": "def f():\n\n\ndef g():\n    pass\n" });
  assert.equal(out.length, 1);
  assert.deepEqual(out[0]!.problems.map((p) => [p.kind, p.line, p.text]), [
    ["empty", 1, "function_definition with an empty block"],
  ]);
  // An empty body that was already there does not block an unrelated edit.
  assert.deepEqual(await guard(ws, { "old.py": "def f():\n\ndef g():\n    return 2\n" }), []);
  // The refusal says what to write.
  const res = await ws.call("apply_edits", {
    text: "m.py\n<<<<<<< SEARCH\n    return 1\n=======\n>>>>>>> REPLACE\n",
  });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "syntax_error");
  assert.match(res.error.hint, /put `pass` in it/);
});

Deno.test("guardSyntax() says a file already had errors, that the grammar may not support it, and how to write anyway", async () => {
  const ws = await open();
  const res = await ws.call("write_file", { path: "broken.ts", content: "const = 1;\nexport const b = ;\n" });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "syntax_error");
  assert.match(
    res.error.message,
    /"broken\.ts" already had 1 syntax error before the edit, so the grammar may not support/,
  );
  assert.match(res.error.hint, /syntax_guard: "warn" to write anyway .* or "off"/);
});

Deno.test("guardSyntax() does not say 'fix the new code' when the new errors are outside the lines the edit changed", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/m.py": "class A:\n    def f(self):\n        return 1\n" }),
    grammars: GRAMMARS,
  });
  const res = await ws.call("edit_file", { path: "m.py", old_string: "class A:", new_string: "class A" });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "syntax_error");
  assert.doesNotMatch(res.error.hint, /Fix the new code/);
  assert.match(res.error.hint, /outside the lines the edit changed \(line 1 of "m\.py"\)/);
  assert.deepEqual((res.error.details as { files: { edited_lines: unknown }[] }).files[0]!.edited_lines, {
    start_line: 1,
    end_line: 1,
  });
});

Deno.test("guardSyntax() gives the `pass` hint only for a genuinely empty body, not a broken def header", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({
      "/m.py": "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n",
    }),
    grammars: GRAMMARS,
  });
  const res = await ws.call("edit_file", {
    path: "m.py",
    old_string: "def f(self):",
    new_string: "def f(self, x:",
  });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "syntax_error");
  assert.doesNotMatch(res.error.hint, /`pass`/);
  const kinds = (res.error.details as { files: { problems: { kind: string }[] }[] }).files[0]!.problems.map((
    p,
  ) => p.kind);
  assert.ok(!kinds.includes("empty"), kinds.join());
});

Deno.test("findSyntaxRegressions() sees a body emptied deep in a real file, and only where the edit landed", async () => {
  const real = Deno.readTextFileSync(new URL("../../fixtures/real/MSVSUserFile.py", import.meta.url));
  // Many copies: the edit sits thousands of lines from the top, with an old empty body far above it.
  const big = "def stub():\n\n" + real.repeat(20);
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/big.py": big }), grammars: GRAMMARS });
  // Emptying the last method's body (its lines removed) is refused at that method's line …
  const method = big.lastIndexOf("    def WriteIfChanged(self):");
  assert.ok(method > big.length * 0.9);
  const emptied = big.slice(0, method) + "    def WriteIfChanged(self):\n\n" + "x = 1\n";
  const out = await guard(ws, { "big.py": emptied });
  assert.equal(out.length, 1, JSON.stringify(out));
  const line = big.slice(0, method).split("\n").length;
  assert.deepEqual(out[0]!.problems.map((p) => [p.kind, p.line]), [["empty", line]]);
  // … while an edit elsewhere is not blamed for the empty body that was already there.
  assert.deepEqual(await guard(ws, { "big.py": big.replace("def stub():\n", "def stub2():\n") }), []);
});
