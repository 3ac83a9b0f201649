import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import type { ToolResult } from "../../../src/tools/types.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";

async function workspace(files: Record<string, string>): Promise<Workspace> {
  return await createWorkspace({ backend: createMemoryBackend(files), wasm: createWasmLoader() });
}

async function removed(
  file: string,
  text: string,
  namePath: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const ws = await workspace({ [`/${file}`]: text });
  const res: ToolResult = await ws.call("remove_symbol", { path: file, name_path: namePath, ...extra });
  if (!res.ok) assert.fail(JSON.stringify(res.error));
  return new TextDecoder().decode((await ws.fs.read(`/${file}`))!);
}

const TS = "class A {\n  one() {}\n\n  /** Two. */\n  @dec\n  two() {}\n\n  three() {}\n}\n";

Deno.test("remove_symbol() removes a middle method with its doc and decorator, leaving no stray blank line", async () => {
  assert.equal(await removed("a.ts", TS, "A/two"), "class A {\n  one() {}\n\n  three() {}\n}\n");
});

Deno.test("remove_symbol() removes the first and the last method of a class cleanly", async () => {
  assert.equal(
    await removed("a.ts", TS, "A/one"),
    "class A {\n  /** Two. */\n  @dec\n  two() {}\n\n  three() {}\n}\n",
  );
  assert.equal(
    await removed("a.ts", TS, "A/three"),
    "class A {\n  one() {}\n\n  /** Two. */\n  @dec\n  two() {}\n}\n",
  );
});

Deno.test("remove_symbol() with_decorations false keeps the doc comment; decorators go with what they decorate", async () => {
  // Left behind, `#[test]` would turn `b` into a test and `@property` would decorate the next method.
  assert.equal(
    await removed("r.rs", "/// Doc.\n#[test]\nfn a() {}\n\nfn b() {}\n", "a", { with_decorations: false }),
    "/// Doc.\nfn b() {}\n",
  );
  const py =
    "class A:\n    # Size.\n    @property\n    def size(self):\n        return 1\n\n    def other(self):\n        pass\n";
  assert.equal(
    await removed("a.py", py, "A/size", { with_decorations: false }),
    "class A:\n    # Size.\n    def other(self):\n        pass\n",
  );
});

Deno.test("remove_symbol() removes the last Python method without leaving blank lines inside the class", async () => {
  const py =
    "class A:\n    def one(self):\n        pass\n\n    @property\n    def two(self):\n        pass\n\n\ndef top():\n    pass\n";
  assert.equal(
    await removed("a.py", py, "A/two"),
    "class A:\n    def one(self):\n        pass\n\n\ndef top():\n    pass\n",
  );
});

Deno.test("remove_symbol() removes a Go method named by receiver, with its doc comment", async () => {
  const go =
    "package p\n\ntype T struct{}\n\n// Get gets.\nfunc (t T) Get() int {\n\treturn 1\n}\n\nfunc F() {}\n";
  assert.equal(await removed("t.go", go, "T/Get"), "package p\n\ntype T struct{}\n\nfunc F() {}\n");
});

Deno.test("remove_symbol() removes a C# method with its attribute and a Kotlin method", async () => {
  const cs = "class A\n{\n    [Obsolete]\n    void M() { }\n\n    void N() { }\n}\n";
  assert.equal(await removed("a.cs", cs, "A/M"), "class A\n{\n    void N() { }\n}\n");
  const kt = "class A {\n    fun a() = 1\n\n    fun b() = 2\n}\n";
  assert.equal(await removed("a.kt", kt, "A/b"), "class A {\n    fun a() = 1\n}\n");
});

Deno.test("remove_symbol() keeps a file without a final newline that way", async () => {
  assert.equal(await removed("a.js", "function a() {}\n\nfunction b() {}", "b"), "function a() {}");
});

Deno.test("remove_symbol() refuses a name path that matches several overloads", async () => {
  const ws = await workspace({ "/a.ts": "function f(): void;\nfunction f(a?: number) {}\n" });
  const res = await ws.call("remove_symbol", { path: "a.ts", name_path: "f" });
  assert.ok(!res.ok && res.error.code === "ambiguous");
  assert.equal((res.error.details!["candidates"] as unknown[]).length, 2);
});

Deno.test("remove_symbol() takes an enum member's comma with it (C, C#, TypeScript; one per line or inline)", async () => {
  const c = "typedef enum {\n    AREA,\n    BASE,\n    BR\n} TagType;\n";
  assert.equal(await removed("tag.h", c, "TagType/BASE"), "typedef enum {\n    AREA,\n    BR\n} TagType;\n");
  // the last member without a trailing comma takes the comma before it
  assert.equal(await removed("tag.h", c, "TagType/BR"), "typedef enum {\n    AREA,\n    BASE\n} TagType;\n");
  const cs = "enum State : uint\n{\n    None = 0,\n    Local = 1,\n    Done = 2,\n}\n";
  assert.equal(
    await removed("s.cs", cs, "State/Local"),
    "enum State : uint\n{\n    None = 0,\n    Done = 2,\n}\n",
  );
  assert.equal(
    await removed("s.cs", cs, "State/Done"),
    "enum State : uint\n{\n    None = 0,\n    Local = 1,\n}\n",
  );
  const ts = "enum E { A, B, C }\n";
  assert.equal(await removed("e.ts", ts, "E/B"), "enum E { A, C }\n");
  assert.equal(await removed("e.ts", ts, "E/C"), "enum E { A, B }\n");
  assert.equal(await removed("e.ts", ts, "E/A"), "enum E { B, C }\n");
});

Deno.test("remove_symbol() of the last name of a `let` list keeps the statement's `;`", async () => {
  assert.equal(await removed("a.js", "let a, b = 1;\nf();\n", "b"), "let a;\nf();\n");
});

Deno.test("remove_symbol() of the only method of a Python class leaves `pass`, not an empty body", async () => {
  const py = "class A:\n    def only(self):\n        return 1\n\n\nclass B:\n    pass\n";
  assert.equal(await removed("a.py", py, "A/only"), "class A:\n    pass\n\n\nclass B:\n    pass\n");
  const ws = await workspace({ "/a.py": py });
  const res = await ws.call("edit_apply_node", { path: "a.py", selector: "A/only", new_text: "" });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(
    new TextDecoder().decode((await ws.fs.read("/a.py"))!),
    "class A:\n    pass\n\n\nclass B:\n    pass\n",
  );
});
