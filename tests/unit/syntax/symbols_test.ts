import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { isRecoverable } from "../../../src/errors.ts";
import { flattenSymbols, outlineOf, type SymbolInfo, TextIndex } from "../../../src/syntax/symbols.ts";
import { resolveNamePath } from "../../../src/syntax/name_path.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";
import { fixtureUrl } from "../../_helpers.ts";

const FIXTURES = new URL("../../fixtures/symbols/", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

async function workspace(files: Record<string, string> = {}): Promise<Workspace> {
  return await createWorkspace({ backend: createMemoryBackend(files), wasm: createWasmLoader() });
}

const SOURCES = [
  ["dereference.ts", "typescript"],
  ["context.d.ts", "typescript"],
  ["QueryClientProvider.tsx", "tsx"],
  ["base.js", "javascript"],
  ["MSVSUserFile.py", "python"],
  ["analyze.go", "go"],
  ["lib.rs", "rust"],
  ["NativeSafeAreaContextSpec.java", "java"],
  ["tag.h", "c"],
  ["utilities.cc", "cpp"],
  ["Find-VisualStudio.cs", "c_sharp"],
  ["native_modules.rb", "ruby"],
  ["SafeAreaView.kt", "kotlin"],
  ["index.php", "php"],
  ["completion.sh", "bash"],
  ["addLog-2.lua", "lua"],
  ["PathResolver.scala", "scala"],
  ["meta.zig", "zig"],
] as const;

/** Every range's offsets agree with the text: bytes = UTF-8 length of the prefix, lines = newlines + 1. */
function assertRangesConsistent(text: string, symbols: SymbolInfo[]): void {
  const enc = new TextEncoder();
  for (const s of flattenSymbols(symbols)) {
    for (const r of [s.range, s.full_range, ...(s.body_range ? [s.body_range] : [])]) {
      assert.equal(
        r.start_byte,
        enc.encode(text.slice(0, r.start_utf16)).length,
        `${s.name_path} start_byte`,
      );
      assert.equal(r.end_byte, enc.encode(text.slice(0, r.end_utf16)).length, `${s.name_path} end_byte`);
      assert.equal(
        r.start_line,
        text.slice(0, r.start_utf16).split("\n").length,
        `${s.name_path} start_line`,
      );
      assert.ok(r.end_line >= r.start_line, `${s.name_path} end_line`);
    }
    assert.ok(s.full_range.start_utf16 <= s.range.start_utf16 && s.full_range.end_utf16 >= s.range.end_utf16);
    assert.ok(
      s.name_path.endsWith(s.name.replaceAll("/", "\\/")) || /\[\d+\]$/.test(s.name_path),
      s.name_path,
    );
  }
}

for (const [file, language] of SOURCES) {
  Deno.test(`outlineOf() matches the golden outline of ${file} (${language})`, async () => {
    const text = await Deno.readTextFile(fixtureUrl("symbols", file));
    const ws = await workspace();
    const outline = await outlineOf(ws, file, { text, version: "v1" });
    assert.equal(outline.language, language);
    assert.ok(outline.symbols.length > 0, "the file has definitions");
    assertRangesConsistent(text, outline.symbols);
    const golden = new URL(`${file}.outline.json`, FIXTURES);
    const json = JSON.stringify(outline.symbols, null, 1) + "\n";
    if (UPDATE) await Deno.writeTextFile(golden, json);
    assert.equal(json, await Deno.readTextFile(golden));
  });
}

Deno.test("outlineOf() nests methods, keeps docs and decorators in full_range, and finds bodies", async () => {
  const ws = await workspace();
  const text = [
    "/** Doc of A. */",
    "export class A {",
    "  @dec()",
    "  run(): void {}",
    "}",
    "",
  ].join("\n");
  const { symbols } = await outlineOf(ws, "a.ts", { text, version: "v1" });
  const a = symbols[0]!;
  assert.equal(a.kind, "class");
  assert.equal(a.doc, "Doc of A.");
  assert.equal(a.full_range.start_line, 1);
  assert.equal(a.range.start_line, 2);
  const run = a.children[0]!;
  assert.equal(run.name_path, "A/run");
  assert.equal(run.kind, "method");
  assert.equal(run.full_range.start_line, 3, "the decorator belongs to the method");
  assert.equal(run.body_range?.start_line, 4);
});

Deno.test("outlineOf() gives UTF-8 byte offsets that differ from UTF-16 ones after non-ASCII text", async () => {
  const ws = await workspace();
  const text = "// héllo 🎉 世界\nfunction ünïcode() {}\nfunction after() {}\n";
  const { symbols } = await outlineOf(ws, "u.js", { text, version: "v1" });
  const after = symbols.find((s) => s.name === "after")!;
  assert.equal(after.range.start_utf16, text.indexOf("function after"));
  assert.equal(
    after.range.start_byte,
    new TextEncoder().encode(text.slice(0, text.indexOf("function after"))).length,
  );
  assert.notEqual(after.range.start_byte, after.range.start_utf16);
  assert.equal(symbols[0]!.name, "ünïcode");
});

Deno.test("outlineOf() indexes same-name siblings (overloads) and escapes '/' in names", async () => {
  const ws = await workspace();
  const ts = "function f(a: string): void;\nfunction f(a: number): void;\nfunction f(a: unknown) {}\n";
  const { symbols } = await outlineOf(ws, "o.ts", { text: ts, version: "v1" });
  assert.deepEqual(symbols.map((s) => s.name_path), ["f[0]", "f[1]", "f[2]"]);
  const json = await outlineOf(ws, "k.json", { text: '{"a/b": {"c": 1}}\n', version: "v1" });
  assert.equal(json.symbols[0]!.name_path, "a\\/b");
  assert.equal(json.symbols[0]!.children[0]!.name_path, "a\\/b/c");
  const hit = resolveNamePath(json.symbols, "a\\/b/c");
  assert.ok(hit.status === "unique" && hit.symbol.name === "c");
});

Deno.test("outlineOf() names a Rust impl block by its header and answers to the type's name", async () => {
  const ws = await workspace();
  const text =
    "struct Point;\nimpl fmt::Display for Point {\n    fn fmt(&self) {}\n}\nimpl Point {\n    fn new() {}\n}\n";
  const { symbols } = await outlineOf(ws, "p.rs", { text, version: "v1" });
  assert.deepEqual(symbols.map((s) => s.name), ["Point", "impl fmt::Display for Point", "impl Point"]);
  const byHeader = resolveNamePath(symbols, "impl fmt::Display for Point/fmt");
  assert.ok(byHeader.status === "unique" && byHeader.symbol.name === "fmt");
  const byType = resolveNamePath(symbols, "Point/new");
  assert.ok(byType.status === "unique" && byType.symbol.name === "new");
});

Deno.test("outlineOf() lets a Go method be named by its receiver type", async () => {
  const ws = await workspace();
  const text = "package p\n\ntype A struct{}\ntype B struct{}\n\nfunc (a *A) Run() {}\nfunc (b B) Run() {}\n";
  const { symbols } = await outlineOf(ws, "m.go", { text, version: "v1" });
  assert.equal(resolveNamePath(symbols, "Run").status, "ambiguous");
  const b = resolveNamePath(symbols, "B/Run");
  assert.ok(b.status === "unique" && b.symbol.range.start_line === 7);
});

Deno.test("outlineOf() caches per version and follows staged edits incrementally", async () => {
  const ws = await workspace();
  const first = await outlineOf(ws, "c.py", { text: "def a():\n    pass\n", version: "v1" });
  assert.equal(await outlineOf(ws, "c.py", { text: "def a():\n    pass\n", version: "v1" }), first);
  const before = ws.trees!.incrementalParses;
  const second = await outlineOf(ws, "c.py", {
    text: "def a():\n    pass\n\n\ndef b():\n    pass\n",
    version: "v2",
  });
  assert.deepEqual(second.symbols.map((s) => s.name), ["a", "b"]);
  assert.equal(ws.trees!.incrementalParses, before + 1);
});

Deno.test("outlineOf() refuses a file without a grammar with unsupported_language naming the text fallback", async () => {
  const ws = await workspace();
  await assert.rejects(outlineOf(ws, "notes.txt", { text: "hello\n", version: "v1" }), (e) => {
    assert.ok(isRecoverable(e, "unsupported_language"));
    assert.match(e.hint, /edit_safe_text_patch/);
    return true;
  });
});

Deno.test("TextIndex maps UTF-16 offsets to lines and bytes, astral characters included", () => {
  const text = "a\n🎉b\nc";
  const index = new TextIndex(text);
  assert.equal(index.line(0), 1);
  assert.equal(index.line(2), 2);
  assert.equal(index.line(text.length), 3);
  assert.equal(index.byte(2), 2);
  assert.equal(index.byte(4), 6, "the emoji is 2 UTF-16 units and 4 bytes");
  assert.equal(index.byte(text.length), new TextEncoder().encode(text).length);
});

Deno.test("outlineOf() lists nested functions but not the locals of a function", async () => {
  const ws = await workspace();
  const text = [
    "export function outer() {",
    "  const limit = 3;",
    "  const api = { get() {} };",
    "  function helper() {}",
    "  return { limit, api, helper };",
    "}",
    "const TOP = 1;",
    "",
  ].join("\n");
  const { symbols } = await outlineOf(ws, "l.ts", { text, version: "v1" });
  assert.deepEqual(flattenSymbols(symbols).map((s) => `${s.kind} ${s.name_path}`), [
    "function outer",
    "function outer/helper",
    "constant TOP",
  ]);
});

Deno.test("outlineOf() reads C's `typedef struct X {...} X;` as one symbol whose fields are X/field", async () => {
  const ws = await workspace();
  const text =
    "typedef struct Meta {\n  int major;\n  int minor;\n} Meta;\n\ntypedef struct {\n  int x;\n} Point;\n";
  const outline = await outlineOf(ws, "m.h", { text, version: "v1" });
  assert.deepEqual(flattenSymbols(outline.symbols).map((s) => `${s.kind} ${s.name_path}`), [
    "type Meta",
    "field Meta/major",
    "field Meta/minor",
    "type Point",
    "field Point/x",
  ]);
});

Deno.test("outlineOf() does not list a loop's variables or a block's, even at the top level of a script", async () => {
  const ws = await workspace();
  const text =
    "var chars = 'ab';\nfor (let i = 0; i < 2; i++) {\n  const c = i;\n}\nfor (var j = 0; j < 2; j++) {}\n" +
    "describe(() => {\n  const fixture = 1;\n  function helper() {}\n});\nexport const k = 1;\n";
  for (const path of ["a.js", "a.ts"]) {
    const outline = await outlineOf(ws, path, { text, version: "v1" });
    assert.deepEqual(
      outline.symbols.map((s) => `${s.kind} ${s.name_path}`),
      ["variable chars", "function helper", "constant k"],
      path,
    );
  }
});

Deno.test("outlineOf() lists what a TypeScript namespace or module declares (its body is a block, not a scope)", async () => {
  const ws = await workspace();
  const text =
    "namespace N {\n  const x = 1;\n  let y = 2;\n  export const z = 3;\n  function f() {\n    const local = 1;\n  }\n}\n" +
    'declare module "m" {\n  const a: number;\n}\n';
  const outline = await outlineOf(ws, "n.ts", { text, version: "v1" });
  assert.deepEqual(flattenSymbols(outline.symbols).map((s) => `${s.kind} ${s.name_path}`), [
    "namespace N",
    "constant N/x",
    "variable N/y",
    "constant N/z",
    "function N/f",
    'module "m"',
    'constant "m"/a',
  ]);
});
