import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { isRecoverable } from "../../../src/errors.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import {
  definitionGateError,
  type DefinitionGateVerdict,
  judgeDefinitionEdit,
  renameCall,
} from "../../../src/guards/definition_gate.ts";
import type { ToolResult } from "../../../src/tools/types.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });

function edit(source: string, from: string, to: string): string {
  const at = source.indexOf(from);
  assert.ok(at >= 0 && source.indexOf(from, at + 1) < 0, `exactly one ${JSON.stringify(from)}`);
  return source.slice(0, at) + to + source.slice(at + from.length);
}

async function judge(path: string, before: string, after: string): Promise<DefinitionGateVerdict> {
  return await judgeDefinitionEdit(ws, { path, before, after });
}

/** Run the suggested structural call on the old text in a fresh workspace; return the file it leaves. */
async function runSuggestion(path: string, before: string, verdict: DefinitionGateVerdict): Promise<string> {
  const call = verdict.findings[0]?.suggested_call;
  assert.ok(call, `a suggested call in ${JSON.stringify(verdict.findings)}`);
  const w: Workspace = await createWorkspace({
    backend: createMemoryBackend({ [`/${path}`]: before }),
    wasm: createWasmLoader(),
  });
  const res: ToolResult = await w.call(call.tool, call.args);
  assert.ok(res.ok, JSON.stringify(res));
  return new TextDecoder().decode((await w.fs.read(`/${path}`))!);
}

/**
 * One language's cases, each an edit of `source`:
 * - `body`: statements inside a body, several lines: passes;
 * - `quoted`: definition keywords in comments and strings, or heading an expression, several lines: passes;
 * - `header`: a header and its body, several lines: replace_symbol with `header[2]`;
 * - `rename`: one line changing a definition's name: a rename of `rename[2]` to `rename[3]`;
 * - `remove`: a whole definition removed: remove_symbol with `remove[1]`;
 * - `add`: a definition added after `add[0]`: insert_code after `add[2]`.
 */
interface LanguageCase {
  path: string;
  source: string;
  body: [string, string];
  quoted: [string, string];
  header: [string, string, string];
  rename: [string, string, string, string];
  remove: [string, string];
  add: [string, string, string];
}

const CASES: Record<string, LanguageCase> = {
  rust: {
    path: "src/point.rs",
    source: [
      "/// A point.",
      "struct Point {",
      "    x: i32,",
      "}",
      "",
      "impl Point {",
      "    fn norm(&self) -> i32 {",
      "        let a = self.x;",
      "        a * a",
      "    }",
      "}",
      "",
      "async fn apply(f: fn(i32) -> i32) -> impl Fn(i32) -> i32 {",
      "    let g = f;",
      "    move |x| g(x)",
      "}",
      "",
    ].join("\n"),
    body: ["        let a = self.x;\n        a * a", "        let a = self.x + 1;\n        a * 2"],
    quoted: [
      "    let g = f;\n",
      '    // fn helper() {} and struct S; are not code here\n    let s = "impl Foo { fn x() {} }";\n    let t: fn(i32) -> i32 = f;\n    let h: Box<dyn Fn(i32) -> i32> = Box::new(t);\n    let g = f;\n',
    ],
    header: [
      "    fn norm(&self) -> i32 {\n        let a = self.x;",
      "    fn norm(&self, k: i32) -> i32 {\n        let a = self.x * k;",
      "impl Point/norm",
    ],
    rename: ["async fn apply(", "async fn apply_all(", "apply", "apply_all"],
    remove: [
      "\nasync fn apply(f: fn(i32) -> i32) -> impl Fn(i32) -> i32 {\n    let g = f;\n    move |x| g(x)\n}\n",
      "apply",
    ],
    add: ["    move |x| g(x)\n}\n", "\nfn twice(x: i32) -> i32 {\n    x * 2\n}\n", "apply"],
  },
  python: {
    path: "pkg/shapes.py",
    source: [
      "class Shape:",
      '    """A shape."""',
      "",
      "    def area(self, scale):",
      "        w = self.w * scale",
      "        return w * w",
      "",
      "",
      "async def load(path):",
      "    data = await read(path)",
      "    return data",
      "",
    ].join("\n"),
    body: [
      "        w = self.w * scale\n        return w * w",
      "        w = self.w * scale * 2\n        return w ** 2",
    ],
    quoted: [
      "    data = await read(path)\n",
      '    # def helper(): and class X: in a comment\n    note = """\n    class Y:\n        def z(self): pass\n    """\n    f = lambda x: x\n    data = await read(path)\n',
    ],
    header: [
      "    def area(self, scale):\n        w = self.w * scale",
      "    def area(self, scale, k):\n        w = self.w * scale * k",
      "Shape/area",
    ],
    rename: ["async def load(path):", "async def fetch(path):", "load", "fetch"],
    remove: ["\n\nasync def load(path):\n    data = await read(path)\n    return data\n", "load"],
    add: ["    return data\n", "\n\ndef save(path, data):\n    write(path, data)\n", "load"],
  },
  go: {
    path: "geo/point.go",
    source: [
      "package geo",
      "",
      "// Point is a point.",
      "type Point struct {",
      "\tX int",
      "}",
      "",
      "// Shape has an area.",
      "type Shape interface {",
      "\tArea() int",
      "}",
      "",
      "func (p *Point) Move(dx int) {",
      "\tp.X += dx",
      "\tp.X *= 2",
      "}",
      "",
      "func Run() {",
      "\tp := &Point{}",
      "\tp.Move(1)",
      "}",
      "",
    ].join("\n"),
    body: ["\tp.X += dx\n\tp.X *= 2", "\tp.X -= dx\n\tp.X *= 3"],
    quoted: [
      "\tp.Move(1)\n",
      '\t// func f() and type S struct are comments\n\tdone := make(chan struct{})\n\tvar any interface{} = "func g() {}"\n\tgo func() {\n\t\tdone <- struct{}{}\n\t}()\n\t_ = any\n\tp.Move(1)\n',
    ],
    header: [
      "func (p *Point) Move(dx int) {\n\tp.X += dx",
      "func (p *Point) Move(dx, dy int) {\n\tp.X += dx + dy",
      "Move",
    ],
    rename: ["func Run() {", "func Start() {", "Run", "Start"],
    remove: ["\nfunc Run() {\n\tp := &Point{}\n\tp.Move(1)\n}\n", "Run"],
    add: ["\tp.Move(1)\n}\n", "\nfunc Stop() {\n\tprintln(1)\n}\n", "Run"],
  },
  typescript: {
    path: "src/cache.ts",
    source: [
      "export interface Entry {",
      "  key: string;",
      "}",
      "",
      "export class Cache {",
      "  private items = new Map<string, Entry>();",
      "",
      "  get(key: string): Entry | undefined {",
      "    const hit = this.items.get(key);",
      "    return hit;",
      "  }",
      "}",
      "",
      "export async function warm(cache: Cache): Promise<void> {",
      '  cache.get("a");',
      '  cache.get("b");',
      "}",
      "",
    ].join("\n"),
    body: [
      "    const hit = this.items.get(key);\n    return hit;",
      "    const hit = this.items.get(key.trim());\n    return hit ?? undefined;",
    ],
    quoted: [
      '  cache.get("b");\n',
      '  // function f() and class C are only words here\n  const label = "interface I { enum E }";\n  const cb = function (x: number) {\n    return x;\n  };\n  const K = class {};\n  cache.get("b" + label + cb(1) + String(K));\n',
    ],
    header: [
      "  get(key: string): Entry | undefined {\n    const hit = this.items.get(key);",
      "  get(key: string, fallback?: Entry): Entry | undefined {\n    const hit = this.items.get(key) ?? fallback;",
      "Cache/get",
    ],
    rename: ["export async function warm(", "export async function preload(", "warm", "preload"],
    remove: [
      '\nexport async function warm(cache: Cache): Promise<void> {\n  cache.get("a");\n  cache.get("b");\n}\n',
      "warm",
    ],
    add: [
      '  cache.get("b");\n}\n',
      '\nexport function cold(cache: Cache): void {\n  cache.get("c");\n}\n',
      "warm",
    ],
  },
  javascript: {
    path: "lib/emitter.js",
    source: [
      "class Emitter {",
      "  emit(name) {",
      "    const list = this.handlers[name];",
      "    list.forEach((h) => h());",
      "  }",
      "}",
      "",
      "function create() {",
      "  const e = new Emitter();",
      "  return e;",
      "}",
      "",
      "module.exports = { create };",
      "",
    ].join("\n"),
    body: [
      "    const list = this.handlers[name];\n    list.forEach((h) => h());",
      "    const list = this.handlers[name] || [];\n    list.forEach((h) => h(name));",
    ],
    quoted: [
      "  const e = new Emitter();\n",
      "  // function f() and class C in a comment\n  const e = new Emitter();\n  e.on('x', function (a) {\n    return `class ${a}`;\n  });\n",
    ],
    header: [
      "  emit(name) {\n    const list = this.handlers[name];",
      "  emit(name, ...args) {\n    const list = this.handlers[name] || [];",
      "Emitter/emit",
    ],
    rename: ["function create() {", "function make() {", "create", "make"],
    remove: ["\nfunction create() {\n  const e = new Emitter();\n  return e;\n}\n", "create"],
    add: ["  return e;\n}\n", "\nfunction destroy(e) {\n  e.off();\n}\n", "create"],
  },
  java: {
    path: "src/main/java/demo/Counter.java",
    source: [
      "package demo;",
      "",
      "public class Counter {",
      "    private int count;",
      "",
      "    public int next(int step) {",
      "        count += step;",
      "        return count;",
      "    }",
      "",
      "    enum Mode { UP, DOWN }",
      "}",
      "",
    ].join("\n"),
    body: [
      "        count += step;\n        return count;",
      "        count += step * 2;\n        return count - 1;",
    ],
    quoted: [
      "        return count;\n",
      '        // class X and interface Y in a comment\n        String s = "enum Z { A }";\n        Class<?> c = Counter.class;\n        Runnable r = new Runnable() {\n            public void run() {}\n        };\n        return count;\n',
    ],
    header: [
      "    public int next(int step) {\n        count += step;",
      "    public int next(int step, int times) {\n        count += step * times;",
      "Counter/next",
    ],
    rename: ["    enum Mode { UP, DOWN }", "    enum Direction { UP, DOWN }", "Counter/Mode", "Direction"],
    remove: [
      "\n    public int next(int step) {\n        count += step;\n        return count;\n    }\n",
      "Counter/next",
    ],
    add: [
      "        return count;\n    }\n",
      "\n    public void reset() {\n        count = 0;\n    }\n",
      "Counter/next",
    ],
  },
  kotlin: {
    path: "app/Counter.kt",
    source: [
      "package app",
      "",
      "class Counter {",
      "    private var count = 0",
      "",
      "    fun next(step: Int): Int {",
      "        count += step",
      "        return count",
      "    }",
      "}",
      "",
      "enum class Mode { UP, DOWN }",
      "",
    ].join("\n"),
    body: [
      "        count += step\n        return count",
      "        count += step * 2\n        return count - 1",
    ],
    quoted: [
      "        return count\n",
      '        // fun f() and class C are comments\n        val s = "interface I"\n        val g = fun(x: Int): Int = x + 1\n        count = g(count)\n        return count\n',
    ],
    header: [
      "    fun next(step: Int): Int {\n        count += step",
      "    fun next(step: Int, times: Int): Int {\n        count += step * times",
      "Counter/next",
    ],
    rename: ["enum class Mode {", "enum class Direction {", "Mode", "Direction"],
    remove: [
      "\n    fun next(step: Int): Int {\n        count += step\n        return count\n    }\n",
      "Counter/next",
    ],
    add: ["        return count\n    }\n", "\n    fun reset() {\n        count = 0\n    }\n", "Counter/next"],
  },
  c: {
    path: "src/point.c",
    source: [
      "#include <sys/stat.h>",
      "",
      "struct point {",
      "    int x;",
      "};",
      "",
      "int size_of(const char *path)",
      "{",
      "    struct stat st;",
      "    stat(path, &st);",
      "    return (int)st.st_size;",
      "}",
      "",
      "enum mode { UP, DOWN };",
      "",
    ].join("\n"),
    body: [
      "    stat(path, &st);\n    return (int)st.st_size;",
      "    if (stat(path, &st) != 0) return -1;\n    return (int)st.st_size + 1;",
    ],
    quoted: [
      "    stat(path, &st);\n",
      '    /* struct s { int a; } and enum e { A } in a comment */\n    const char *s = "struct point { int x; };";\n    struct point p;\n    enum mode m = UP;\n    stat(path, &st);\n',
    ],
    header: [
      "int size_of(const char *path)\n{\n    struct stat st;",
      "long size_of(const char *path, int follow)\n{\n    struct stat st = {0};",
      "size_of",
    ],
    rename: ["enum mode { UP, DOWN };", "enum direction { UP, DOWN };", "mode", "direction"],
    remove: [
      "\nint size_of(const char *path)\n{\n    struct stat st;\n    stat(path, &st);\n    return (int)st.st_size;\n}\n",
      "size_of",
    ],
    add: ["    int x;\n};\n", "\nstruct size {\n    int w;\n};\n", "point"],
  },
  cpp: {
    path: "src/counter.cpp",
    source: [
      "namespace demo {",
      "",
      "class Counter {",
      "public:",
      "  int next(int step) {",
      "    count_ += step;",
      "    return count_;",
      "  }",
      "",
      "private:",
      "  int count_ = 0;",
      "};",
      "",
      "struct Pair {",
      "  int a;",
      "};",
      "",
      "}  // namespace demo",
      "",
    ].join("\n"),
    body: ["    count_ += step;\n    return count_;", "    count_ += step * 2;\n    return count_ - 1;"],
    quoted: [
      "    return count_;\n",
      '    // class C and struct S in a comment\n    const char* s = "enum class E { A };";\n    struct Pair p{};\n    (void)s;\n    return count_ + p.a;\n',
    ],
    header: [
      "  int next(int step) {\n    count_ += step;",
      "  int next(int step, int times) {\n    count_ += step * times;",
      "demo/Counter/next",
    ],
    rename: ["struct Pair {", "struct Couple {", "demo/Pair", "Couple"],
    remove: ["\nstruct Pair {\n  int a;\n};\n", "demo/Pair"],
    add: ["  int a;\n};\n", "\nstruct Triple {\n  int a, b, c;\n};\n", "demo/Pair"],
  },
  c_sharp: {
    path: "src/Counter.cs",
    source: [
      "namespace Demo",
      "{",
      "    public class Counter",
      "    {",
      "        private int count;",
      "",
      "        public int Next(int step)",
      "        {",
      "            count += step;",
      "            return count;",
      "        }",
      "    }",
      "",
      "    public struct Pair",
      "    {",
      "        public int A;",
      "    }",
      "}",
      "",
    ].join("\n"),
    body: [
      "            count += step;\n            return count;",
      "            count += step * 2;\n            return count - 1;",
    ],
    quoted: [
      "            return count;\n",
      '            // class C and interface I in a comment\n            var s = "enum E { A }";\n            System.Func<int, int> f = delegate (int x) { return x; };\n            return f(count) + s.Length;\n',
    ],
    header: [
      "        public int Next(int step)\n        {\n            count += step;",
      "        public int Next(int step, int times)\n        {\n            count += step * times;",
      "Demo/Counter/Next",
    ],
    rename: ["    public struct Pair", "    public struct Couple", "Demo/Pair", "Couple"],
    remove: ["\n    public struct Pair\n    {\n        public int A;\n    }\n", "Demo/Pair"],
    add: [
      "        public int A;\n    }\n",
      "\n    public interface IShape\n    {\n        int Area();\n    }\n",
      "Demo/Pair",
    ],
  },
  ruby: {
    path: "lib/counter.rb",
    source: [
      "class Counter",
      "  def next(step)",
      "    @count += step",
      "    @count",
      "  end",
      "",
      "  def reset",
      "    @count = 0",
      "  end",
      "end",
      "",
    ].join("\n"),
    body: ["    @count += step\n    @count", "    @count += step * 2\n    @count - 1"],
    quoted: [
      "    @count = 0\n",
      '    # def f and class C in a comment\n    label = "def g; end"\n    handler = lambda { |x| x }\n    @count = handler.call(0)\n',
    ],
    header: [
      "  def next(step)\n    @count += step",
      "  def next(step, times)\n    @count += step * times",
      "Counter/next",
    ],
    rename: ["  def reset", "  def clear", "Counter/reset", "clear"],
    remove: ["\n  def reset\n    @count = 0\n  end\n", "Counter/reset"],
    add: ["    @count = 0\n  end\n", "\n  def total\n    @count\n  end\n", "Counter/reset"],
  },
};

for (const [language, c] of Object.entries(CASES)) {
  Deno.test(`definition gate (${language}): the sample parses and edits inside bodies pass`, async () => {
    const v = await judge(c.path, c.source, edit(c.source, ...c.body));
    assert.equal(v.language, language);
    assert.deepEqual(v.findings, []);
  });

  Deno.test(`definition gate (${language}): keywords in comments, strings and expressions never count`, async () => {
    const after = edit(c.source, ...c.quoted);
    const v = await judge(c.path, c.source, after);
    assert.deepEqual(v.findings, [], JSON.stringify(v.findings));
  });

  Deno.test(`definition gate (${language}): a rewritten header is routed to replace_symbol with its name path`, async () => {
    const [from, to, namePath] = c.header;
    const after = edit(c.source, from, to);
    const v = await judge(c.path, c.source, after);
    assert.equal(v.findings.length, 1, JSON.stringify(v.findings));
    const f = v.findings[0]!;
    assert.equal(f.edit, "replace");
    assert.equal(f.suggested_call?.tool, "replace_symbol");
    assert.equal(f.suggested_call?.args["name_path"], namePath);
    // the suggested call does what the edit would have done
    assert.equal(await runSuggestion(c.path, c.source, v), after);
  });

  Deno.test(`definition gate (${language}): a one-line rename is refused and routed to the rename tool`, async () => {
    const [from, to, namePath, newName] = c.rename;
    const v = await judge(c.path, c.source, edit(c.source, from, to));
    assert.equal(v.findings.length, 1, JSON.stringify(v.findings));
    const f = v.findings[0]!;
    assert.equal(f.edit, "rename");
    assert.deepEqual(f.rename, {
      name_path: namePath,
      from: namePath.slice(namePath.lastIndexOf("/") + 1),
      to: newName,
    });
    assert.deepEqual(f.suggested_call, {
      tool: "edit_rename_symbol",
      args: { path: c.path, name_path: namePath, new_name: newName },
    });
    const err = definitionGateError(v, { tool: "edit_file" });
    assert.match(err.message, /edit_rename_symbol/);
  });

  Deno.test(`definition gate (${language}): a removed definition is routed to remove_symbol`, async () => {
    const [from, namePath] = c.remove;
    const after = edit(c.source, from, "");
    const v = await judge(c.path, c.source, after);
    assert.equal(v.findings.length, 1, JSON.stringify(v.findings));
    assert.equal(v.findings[0]!.edit, "remove");
    assert.deepEqual(v.findings[0]!.suggested_call, {
      tool: "remove_symbol",
      args: { path: c.path, name_path: namePath },
    });
    assert.equal(await runSuggestion(c.path, c.source, v), after);
  });

  Deno.test(`definition gate (${language}): an added definition is routed to insert_code next to its sibling`, async () => {
    const [anchor, code, namePath] = c.add;
    const after = edit(c.source, anchor, anchor + code);
    const v = await judge(c.path, c.source, after);
    assert.equal(v.findings.length, 1, JSON.stringify(v.findings));
    const f = v.findings[0]!;
    assert.equal(f.edit, "insert");
    assert.equal(f.suggested_call?.tool, "insert_code");
    assert.equal(f.suggested_call?.args["name_path"], namePath);
    assert.equal(f.suggested_call?.args["position"], "after");
    assert.equal(await runSuggestion(c.path, c.source, v), after);
  });
}

Deno.test("definition gate: data and markup files, and files with no grammar, pass whatever they hold", async () => {
  const files: [string, string, string, string][] = [
    ["package.json", "json", '{\n  "a": 1,\n  "b": 2\n}\n', '{\n  "function": "class X {}",\n  "c": 3\n}\n'],
    ["ci.yaml", "yaml", "jobs:\n  a: 1\n  b: 2\n", "jobs:\n  def: class\n  fn: struct\n"],
    [
      "Cargo.toml",
      "toml",
      '[package]\nname = "a"\nversion = "1"\n',
      '[package]\nname = "fn"\nedition = "struct"\n',
    ],
    ["site.css", "css", "a {\n  color: red;\n}\n", ".class {\n  color: blue;\n}\n"],
    ["index.html", "html", "<p>\n  a\n</p>\n", "<script>\nfunction f() {}\nclass A {}\n</script>\n"],
  ];
  for (const [path, language, before, after] of files) {
    const v = await judge(path, before, after);
    assert.equal(v.language, language);
    assert.equal(v.skipped, "not_code", path);
    assert.deepEqual(v.findings, []);
  }
  for (const path of ["README.md", "notes.txt", "App.swift"]) {
    const v = await judge(path, "# A\n\nfn a() {}\n", "# B\n\ndef b():\n    class C: pass\n");
    assert.equal(v.skipped, "no_grammar", path);
    assert.deepEqual(v.findings, []);
  }
});

Deno.test("definition gate: one-line edits of a header that keep its name pass (a parameter added)", async () => {
  const c = CASES["python"]!;
  const v = await judge(
    c.path,
    c.source,
    edit(c.source, "def area(self, scale):", "def area(self, scale=1):"),
  );
  assert.deepEqual(v.findings, []);
  const one = await judge(
    c.path,
    c.source,
    edit(c.source, "        return w * w", "        return w * w * 2"),
  );
  assert.deepEqual(one.findings, []);
});

Deno.test("definition gate: a one-line header change refused when the same edit changes that definition's body", async () => {
  const c = CASES["python"]!;
  const after = edit(
    c.source,
    "    def area(self, scale):\n        w = self.w * scale\n        return w * w",
    "    def area(self, scale=1):\n        w = self.w * scale\n        return w * w * 2",
  );
  const v = await judge(c.path, c.source, after);
  assert.equal(v.findings.length, 1, JSON.stringify(v.findings));
  assert.equal(v.findings[0]!.edit, "replace");
  assert.equal(await runSuggestion(c.path, c.source, v), after);
  // a change in a nested definition's body is that definition's business, not the class header's
  const cls = await judge(
    c.path,
    c.source,
    edit(edit(c.source, "class Shape:", "class Shape(Base):"), "return w * w", "return w * w * 2"),
  );
  assert.deepEqual(cls.findings, []);
});

Deno.test("definition gate: nested declarations count, closures bound to locals do not", async () => {
  const before = "def outer(xs):\n    total = 0\n    return total\n";
  const nested = await judge(
    "a.py",
    before,
    edit(before, "    total = 0\n", "    total = 0\n\n    def inner(x):\n        return x * 2\n"),
  );
  assert.equal(nested.findings[0]?.edit, "insert");
  assert.equal(nested.findings[0]?.definitions[0]?.name_path, "outer/inner");
  const ts = "export function outer(xs: number[]): number {\n  let total = 0;\n  return total;\n}\n";
  const closure = await judge(
    "a.ts",
    ts,
    edit(
      ts,
      "  let total = 0;\n",
      "  let total = 0;\n  const add = (x: number) => {\n    total += x;\n  };\n  xs.forEach(add);\n",
    ),
  );
  assert.deepEqual(closure.findings, []);
  const declared = await judge(
    "a.ts",
    ts,
    edit(
      ts,
      "  let total = 0;\n",
      "  let total = 0;\n  function add(x: number) {\n    total += x;\n  }\n  xs.forEach(add);\n",
    ),
  );
  assert.equal(declared.findings[0]?.definitions[0]?.name_path, "outer/add");
});

Deno.test("definition gate: the keyword floor counts a definition the outline cannot list (inside a parse error)", async () => {
  // an unclosed call before the edit leaves the rest of the file in an ERROR node
  const before = "x = foo(\n\ndef a():\n    return 1\n";
  const v = await judge("a.py", before, "x = foo(\n\nprint(2)\nprint(3)\n");
  assert.equal(v.findings.length, 1, JSON.stringify(v.findings));
  assert.equal(v.findings[0]!.definitions[0]!.name, "a");
  assert.equal(v.findings[0]!.definitions[0]!.name_path, undefined);
  assert.equal(v.findings[0]!.suggested_call, undefined);
  const err = definitionGateError(v, { tool: "edit_file" });
  assert.match(err.hint, /outline/);
});

Deno.test("definition gate: a multi-line rename that changes nothing else is a rename", async () => {
  const c = CASES["go"]!;
  const after = edit(c.source, "func Run() {\n\tp := &Point{}", "func Start() {\n\tp := &Point{}");
  const v = await judge(c.path, c.source, after);
  assert.equal(v.findings[0]?.edit, "rename");
  const multi = "def load(path):\n    return read(path)\n";
  const renamed = await judge("a.py", multi, "def fetch(path):\n    return read(path) # fetch\n");
  assert.equal(renamed.findings[0]?.edit, "replace", "more than the name changed");
});

Deno.test("renameCall() names the rename tool (edit_rename_symbol), or none when told", async () => {
  assert.equal(renameCall("a.py", "load", { newName: "fetch", renameTool: null }), undefined);
  assert.deepEqual(renameCall("a.py", "load", { newName: "fetch" }), {
    tool: "edit_rename_symbol",
    args: { path: "a.py", name_path: "load", new_name: "fetch" },
  });
  assert.deepEqual(renameCall("a.py", "load", { newName: "fetch", renameTool: "edit_rename_symbol" }), {
    tool: "edit_rename_symbol",
    args: { path: "a.py", name_path: "load", new_name: "fetch" },
  });
  const c = CASES["python"]!;
  const v = await judgeDefinitionEdit(ws, {
    path: c.path,
    before: c.source,
    after: edit(c.source, "async def load(path):", "async def fetch(path):"),
  }, { renameTool: "edit_rename_symbol" });
  assert.deepEqual(v.findings[0]!.suggested_call, {
    tool: "edit_rename_symbol",
    args: { path: c.path, name_path: "load", new_name: "fetch" },
  });
  const err = definitionGateError(v, { tool: "apply_edits" });
  assert.match(
    err.message,
    /^Cannot edit "pkg\/shapes\.py" with apply_edits: line 9 renames function "load" to "fetch"/,
  );
  assert.match(err.hint, /edit_rename_symbol/);
});

Deno.test("definitionGateError() says what, where and what to call, and counts the other findings", async () => {
  const c = CASES["rust"]!;
  const after = edit(edit(c.source, ...c.remove), "/// A point.\nstruct Point {\n    x: i32,\n}\n", "");
  const v = await judge(c.path, c.source, after);
  assert.equal(v.findings.length, 2, JSON.stringify(v.findings));
  const err = definitionGateError(v, { tool: "edit_file" });
  assert.ok(isRecoverable(err, "definition_gate"));
  assert.equal(
    err.message,
    'Cannot edit "src/point.rs" with edit_file: lines 1–4 remove struct "Point"; use remove_symbol (and 1 more definition edit in this file)',
  );
  assert.deepEqual(err.suggestedCall, { tool: "remove_symbol", args: { path: c.path, name_path: "Point" } });
  assert.equal((err.details!["findings"] as unknown[]).length, 2);
  assert.throws(() => definitionGateError({ path: "a", language: null, findings: [] }), TypeError);
});
