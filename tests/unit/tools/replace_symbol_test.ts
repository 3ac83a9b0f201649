import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import type { ToolResult } from "../../../src/tools/types.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";
import { fixtureUrl } from "../../_helpers.ts";

async function workspace(files: Record<string, string>): Promise<Workspace> {
  return await createWorkspace({ backend: createMemoryBackend(files), wasm: createWasmLoader() });
}

async function read(ws: Workspace, path: string): Promise<string> {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode((await ws.fs.read(`/${path}`))!);
}

function ok(res: ToolResult): ToolResult & { ok: true } {
  if (!res.ok) assert.fail(`${res.tool} failed: ${JSON.stringify(res.error)}`);
  return res as ToolResult & { ok: true };
}

async function replaced(file: string, text: string, namePath: string, newBody: string): Promise<string> {
  const ws = await workspace({ [`/${file}`]: text });
  ok(await ws.call("replace_symbol", { path: file, name_path: namePath, new_body: newBody }));
  return await read(ws, file);
}

const GO =
  "package p\n\n// Point is a point.\ntype Point struct {\n\tX int\n}\n\nfunc (p *Point) Move(dx int) {\n\tp.X += dx\n}\n";

Deno.test("replace_symbol() never doubles or drops Go's type keyword", async () => {
  const want =
    "package p\n\n// Point is a point.\ntype Point struct {\n\tX int\n\tY int\n}\n\nfunc (p *Point) Move(dx int) {\n\tp.X += dx\n}\n";
  assert.equal(await replaced("p.go", GO, "Point", "type Point struct {\n    X int\n    Y int\n}"), want);
  assert.equal(await replaced("p.go", GO, "Point", "Point struct {\n    X int\n    Y int\n}"), want);
});

Deno.test("replace_symbol() replaces a Go method named through its receiver and keeps its doc", async () => {
  const out = await replaced("p.go", GO, "Point/Move", "func (p *Point) Move(dx int) {\n  p.X -= dx\n}\n");
  assert.equal(out, GO.replace("p.X += dx", "p.X -= dx"));
});

const TS = [
  "export class A {",
  "  first(): number {",
  "    return 1;",
  "  }",
  "",
  "  second(): number {",
  "    return 2;",
  "  }",
  "}",
  "",
  "export const f = () => 1;",
  "",
].join("\n");

Deno.test("replace_symbol() replaces a nested method, re-indented, without touching its neighbours", async () => {
  const out = await replaced("a.ts", TS, "A/first", "first(): number {\n  const x = 10;\n  return x;\n}");
  assert.equal(
    out,
    TS.replace(
      "  first(): number {\n    return 1;\n  }",
      "  first(): number {\n    const x = 10;\n    return x;\n  }",
    ),
  );
  assert.ok(out.includes("  second(): number {\n    return 2;\n  }\n}\n"), "no stray or eaten brace");
});

Deno.test("replace_symbol() keeps export and const unless the new code brings them", async () => {
  const want = TS.replace("export const f = () => 1;", "export const f = () => 2;");
  assert.equal(await replaced("a.ts", TS, "f", "f = () => 2"), want);
  assert.equal(await replaced("a.ts", TS, "f", "const f = () => 2;"), want);
  assert.equal(await replaced("a.ts", TS, "f", "const f = () => 2"), want, "the declaration's ';' is kept");
  assert.equal(await replaced("a.ts", TS, "f", "export const f = () => 2;"), want);
});

const PY =
  "class A:\n    @staticmethod\n    def run():\n        return 1\n\n    def other(self):\n        pass\n";

Deno.test("replace_symbol() keeps a Python method's decorators unless the new code has its own", async () => {
  assert.equal(
    await replaced("a.py", PY, "A/run", "def run():\n    return 2"),
    PY.replace("return 1", "return 2"),
  );
  assert.equal(
    await replaced("a.py", PY, "A/run", "@classmethod\ndef run(cls):\n    return 2"),
    PY.replace(
      "@staticmethod\n    def run():\n        return 1",
      "@classmethod\n    def run(cls):\n        return 2",
    ),
  );
});

Deno.test("replace_symbol() on a Rust impl method keeps its attribute and doc when the code omits them", async () => {
  const rs =
    "struct P;\n\nimpl P {\n    /// Make one.\n    #[inline]\n    pub fn new() -> Self {\n        P\n    }\n}\n";
  assert.equal(
    await replaced("p.rs", rs, "P/new", "pub fn new() -> Self {\n    P {}\n}"),
    rs.replace("        P\n", "        P {}\n"),
  );
  assert.equal(
    await replaced("p.rs", rs, "impl P/new", "/// Made.\n#[must_use]\npub fn new() -> Self {\n    P\n}"),
    rs.replace("    /// Make one.\n    #[inline]\n", "    /// Made.\n    #[must_use]\n"),
  );
  assert.equal(
    await replaced("p.rs", rs, "impl P/new", "#[must_use]\npub fn new() -> Self {\n    P\n}"),
    // The new code brings an attribute, not a doc comment: the attribute is replaced, the doc stays.
    rs.replace("    #[inline]\n", "    #[must_use]\n"),
  );
});

Deno.test("replace_symbol() replaces a C# method with its attribute", async () => {
  const cs = "class A\n{\n    [Obsolete]\n    public void M()\n    {\n    }\n}\n";
  assert.equal(
    await replaced("a.cs", cs, "A/M", '[Obsolete("no")]\npublic void M()\n{\n    Run();\n}'),
    'class A\n{\n    [Obsolete("no")]\n    public void M()\n    {\n        Run();\n    }\n}\n',
  );
});

Deno.test("replace_symbol() answers ambiguous overloads with every candidate, and takes f[i]", async () => {
  const ts = "function f(a: string): void;\nfunction f(a: number): void;\nfunction f(a: unknown) {}\n";
  const ws = await workspace({ "/o.ts": ts });
  const res = await ws.call("replace_symbol", {
    path: "o.ts",
    name_path: "f",
    new_body: "function f(a: boolean): void;",
  });
  assert.ok(!res.ok && res.error.code === "ambiguous");
  assert.deepEqual(
    (res.error.details!["candidates"] as { name_path: string; start_line: number }[]).map((
      c,
    ) => [c.name_path, c.start_line]),
    [["f[0]", 1], ["f[1]", 2], ["f[2]", 3]],
  );
  ok(
    await ws.call("replace_symbol", {
      path: "o.ts",
      name_path: "f[1]",
      new_body: "function f(a: boolean): void;",
    }),
  );
  assert.equal(await read(ws, "o.ts"), ts.replace("a: number", "a: boolean"));
});

Deno.test("replace_symbol() refuses a missing symbol with did-you-mean names and a file without grammar with the text fallback", async () => {
  const ws = await workspace({ "/a.ts": TS, "/notes.txt": "hello\n" });
  const missing = await ws.call("replace_symbol", { path: "a.ts", name_path: "A/frist", new_body: "x() {}" });
  assert.ok(!missing.ok && missing.error.code === "not_found");
  assert.deepEqual(missing.error.details!["did_you_mean"], ["A/first"]);
  const txt = await ws.call("replace_symbol", { path: "notes.txt", name_path: "x", new_body: "y" });
  assert.ok(!txt.ok && txt.error.code === "unsupported_language");
  assert.match(txt.error.hint, /edit_safe_text_patch/);
});

Deno.test("replace_symbol() checks expected_version and refuses code that does not parse, writing nothing", async () => {
  const ws = await workspace({ "/a.ts": TS });
  const stale = await ws.call("replace_symbol", {
    path: "a.ts",
    name_path: "f",
    new_body: "f = () => 3",
    expected_version: "0".repeat(64),
  });
  assert.ok(!stale.ok && stale.error.code === "stale_base");
  const broken = await ws.call("replace_symbol", {
    path: "a.ts",
    name_path: "A/first",
    new_body: "first() {\n  return (1;\n}",
  });
  assert.ok(!broken.ok && broken.error.code === "syntax_error");
  assert.equal(await read(ws, "a.ts"), TS);
});

Deno.test("replace_symbol() keeps CRLF line endings and the BOM", async () => {
  const text = "\uFEFFclass A {\r\n  m() {\r\n    return 1;\r\n  }\r\n}\r\n";
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": text }),
    wasm: createWasmLoader(),
  });
  ok(await ws.call("replace_symbol", { path: "a.ts", name_path: "A/m", new_body: "m() {\n  return 2;\n}" }));
  assert.equal(await read(ws, "a.ts"), text.replace("return 1", "return 2"));
});

Deno.test("replace_symbol() replaces a nested function by its path, re-indented to its depth", async () => {
  const py = "def outer():\n    def inner():\n        return 1\n\n    return inner\n";
  assert.equal(
    await replaced("n.py", py, "outer/inner", "def inner():\n    x = 2\n    return x"),
    "def outer():\n    def inner():\n        x = 2\n        return x\n\n    return inner\n",
  );
  const js = "function outer() {\n\tfunction inner() {\n\t\treturn 1;\n\t}\n\treturn inner;\n}\n";
  assert.equal(
    await replaced("n.js", js, "outer/inner", "function inner() {\n  return 2;\n}"),
    "function outer() {\n\tfunction inner() {\n\t\treturn 2;\n\t}\n\treturn inner;\n}\n",
  );
});

Deno.test("replace_symbol() takes an escaped '/' in a name path", async () => {
  const json = '{\n  "paths": {\n    "src/a": 1,\n    "src/b": 2\n  }\n}\n';
  assert.equal(
    await replaced("c.json", json, "paths/src\\/b", '"src/b": 3'),
    '{\n  "paths": {\n    "src/a": 1,\n    "src/b": 3\n  }\n}\n',
  );
});

Deno.test("replace_symbol() keeps annotations and attributes written inside the definition when new code omits them", async () => {
  const cases: [string, string, string, string, string][] = [
    [
      "A.java",
      'class A {\n  /** Doc. */\n  @Override\n  @SuppressWarnings("x")\n  public void run() {\n    go();\n  }\n}\n',
      "A/run",
      "public void run() {\n  stop();\n}",
      'class A {\n  /** Doc. */\n  @Override\n  @SuppressWarnings("x")\n  public void run() {\n    stop();\n  }\n}\n',
    ],
    [
      "A.java",
      "class A {\n  @Override void run() {\n    go();\n  }\n}\n",
      "A/run",
      "void run() {\n  stop();\n}",
      "class A {\n  @Override void run() {\n    stop();\n  }\n}\n",
    ],
    [
      "A.cs",
      "class A {\n  /// Doc.\n  [Obsolete]\n  public void Run() {\n    Go();\n  }\n}\n",
      "A/Run",
      "public void Run() {\n  Stop();\n}",
      "class A {\n  /// Doc.\n  [Obsolete]\n  public void Run() {\n    Stop();\n  }\n}\n",
    ],
    [
      "a.kt",
      'class A {\n  @Deprecated("x")\n  fun run() {\n    go()\n  }\n}\n',
      "A/run",
      "fun run() {\n  stop()\n}",
      'class A {\n  @Deprecated("x")\n  fun run() {\n    stop()\n  }\n}\n',
    ],
    [
      "a.php",
      "<?php\nclass A {\n  #[Pure]\n  public function run() {\n    go();\n  }\n}\n",
      "A/run",
      "public function run() {\n  stop();\n}",
      "<?php\nclass A {\n  #[Pure]\n  public function run() {\n    stop();\n  }\n}\n",
    ],
  ];
  for (const [file, text, namePath, body, want] of cases) {
    assert.equal(await replaced(file, text, namePath, body), want, `${file} ${namePath}`);
  }
});

Deno.test("replace_symbol() replaces inner annotations when the new code brings its own, never doubling them", async () => {
  const java = "class A {\n  @Override\n  public void run() {\n    go();\n  }\n}\n";
  assert.equal(
    await replaced("A.java", java, "A/run", "@Deprecated\npublic void run() {\n  stop();\n}"),
    "class A {\n  @Deprecated\n  public void run() {\n    stop();\n  }\n}\n",
  );
  assert.equal(
    await replaced("A.java", java, "A/run", "@Override public void run() {\n  stop();\n}"),
    "class A {\n  @Override public void run() {\n    stop();\n  }\n}\n",
  );
  const cs = "class A {\n  [Obsolete]\n  public void Run() {\n    Go();\n  }\n}\n";
  assert.equal(
    await replaced("A.cs", cs, "A/Run", "[Pure]\npublic void Run() {\n  Stop();\n}"),
    "class A {\n  [Pure]\n  public void Run() {\n    Stop();\n  }\n}\n",
  );
});

Deno.test("replace_symbol() leaves code copied from the file as it is, in a file that mixes tabs and spaces", async () => {
  // A declaration indented with spaces in a tab-indented file (real: for-each's index.d.ts).
  const text =
    "declare function f(\n    a: string,\n    b: number,\n): void;\n\nfunction g() {\n\treturn 1;\n}\n";
  const own = "declare function f(\n    a: string,\n    b: number,\n): void;";
  assert.equal(await replaced("i.d.ts", text, "f", own), text);
  const edited = "declare function f(\n    a: string,\n    b: boolean,\n): void;";
  assert.equal(await replaced("i.d.ts", text, "f", edited), text.replace("b: number", "b: boolean"));
});

Deno.test("replace_symbol() re-indents adjacent string literals on several lines as code (Python implicit concatenation)", async () => {
  const py =
    'class A:\n    def f(self):\n        raise E(\n            f"a {self.x} "\n            f"b"\n        )\n';
  // The model wrote the method at the top level: it goes back to its depth, both literals with it.
  const code = 'def f(self):\n    raise E(\n        f"a {self.x} "\n        f"b"\n    )';
  assert.equal(await replaced("a.py", py, "A/f", code), py);
});

Deno.test("replace_symbol() converts a function written in another indent unit back to the file's (real: sharp's utilities.cc)", async () => {
  const text = await Deno.readTextFile(fixtureUrl("symbols", "utilities.cc"));
  const start = text.indexOf("Napi::Value libvipsVersion(");
  const end = text.indexOf("\n}\n", start) + 2;
  const original = text.slice(start, end);
  // The model's copy uses four spaces where the file uses two; the #ifdef lines stay at column 0.
  const fourSpaces = original.split("\n").map((l) => l.startsWith("  ") ? `  ${l}` : l).join("\n");
  assert.equal(await replaced("utilities.cc", text, "libvipsVersion", fourSpaces), text);
});

Deno.test("replace_symbol() with new annotations keeps the doc comment above them (Java, TypeScript)", async () => {
  const java = "class A {\n  /** Runs. */\n  @Override\n  public void run() {\n    go();\n  }\n}\n";
  assert.equal(
    await replaced("A.java", java, "A/run", "@Override\n@Deprecated\npublic void run() {\n  stop();\n}"),
    "class A {\n  /** Runs. */\n  @Override\n  @Deprecated\n  public void run() {\n    stop();\n  }\n}\n",
  );
  const ts = "class A {\n  // Runs.\n  @Input()\n  run(): void {}\n}\n";
  assert.equal(
    await replaced("a.ts", ts, "A/run", "@Output()\nrun(): void {}"),
    "class A {\n  // Runs.\n  @Output()\n  run(): void {}\n}\n",
  );
});

Deno.test("replace_symbol takes new_text, and new_body (its first name) as an alias", async () => {
  const { createMemoryBackend, createWorkspace } = await import("../../../src/mod.ts");
  const { GRAMMARS } = await import("../structural/_fixtures.ts");
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": "export function f() {\n  return 1;\n}\n" }),
    grammars: GRAMMARS,
  });
  const viaNew = await ws.call("replace_symbol", {
    path: "a.ts",
    name_path: "f",
    new_text: "function f() {\n  return 2;\n}",
  });
  assert.ok(viaNew.ok && viaNew.status === "applied", JSON.stringify(viaNew));
  const viaOld = await ws.call("replace_symbol", {
    path: "a.ts",
    name_path: "f",
    new_body: "function f() {\n  return 3;\n}",
  });
  assert.ok(viaOld.ok && viaOld.status === "applied", JSON.stringify(viaOld));
  assert.equal(
    new TextDecoder().decode((await ws.fs.read("/a.ts"))!),
    "export function f() {\n  return 3;\n}\n",
  );
  const both = await ws.call("replace_symbol", {
    path: "a.ts",
    name_path: "f",
    new_body: "x",
    new_text: "y",
  });
  assert.ok(!both.ok && both.error.code === "invalid_args");
});
