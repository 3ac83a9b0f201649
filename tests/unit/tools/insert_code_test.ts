import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { outlineOf } from "../../../src/syntax/symbols.ts";
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

/** Real files, a member to insert next to, a container to insert into, and code that defines `probe`. */
const ROUND_TRIPS: { file: string; member: string; container?: string; code: string; probe: string }[] = [
  {
    file: "dereference.ts",
    member: "resolveURI",
    container: "dereference",
    code: "function graverProbe(): number {\n  return 1;\n}",
    probe: "graverProbe",
  },
  {
    file: "QueryClientProvider.tsx",
    member: "useQueryClient",
    container: "QueryClientProvider",
    code: "function GraverProbe() {\n  return <div />;\n}",
    probe: "GraverProbe",
  },
  {
    file: "base.js",
    member: "Diff/equals",
    container: "Diff",
    code: "graverProbe() {\n  return 1;\n}",
    probe: "graverProbe",
  },
  {
    file: "MSVSUserFile.py",
    member: "Writer/AddConfig",
    container: "Writer",
    code: "def graverProbe(self):\n    return 1",
    probe: "graverProbe",
  },
  {
    file: "analyze.go",
    member: "parse",
    code: "func graverProbe() int {\n\treturn 1\n}",
    probe: "graverProbe",
  },
  {
    file: "analyze.go",
    member: "analyze/Watch",
    container: "analyze",
    code: "GraverProbe int",
    probe: "GraverProbe",
  },
  {
    file: "lib.rs",
    member: "language",
    container: "tests",
    code: "fn graver_probe() -> u8 {\n    1\n}",
    probe: "graver_probe",
  },
  {
    file: "NativeSafeAreaContextSpec.java",
    member: "NativeSafeAreaContextSpec/getTypedExportedConstants",
    container: "NativeSafeAreaContextSpec",
    code: "int graverProbe() {\n  return 1;\n}",
    probe: "graverProbe",
  },
  {
    file: "tag.h",
    member: "tag_new",
    code: "static int graver_probe(void) {\n  return 1;\n}",
    probe: "graver_probe",
  },
  {
    file: "utilities.cc",
    member: "counters",
    code: "int graverProbe() {\n  return 1;\n}",
    probe: "graverProbe",
  },
  {
    file: "Find-VisualStudio.cs",
    member: "VisualStudioConfiguration/IEnumSetupInstances/Skip",
    container: "VisualStudioConfiguration/IEnumSetupInstances",
    code: "void GraverProbe();",
    probe: "GraverProbe",
  },
  {
    file: "native_modules.rb",
    member: "use_native_modules!",
    container: "use_native_modules!",
    code: "def graver_probe\n  1\nend",
    probe: "graver_probe",
  },
  {
    file: "SafeAreaView.kt",
    member: "SafeAreaView/setMode",
    container: "SafeAreaView",
    code: "fun graverProbe(): Int {\n  return 1\n}",
    probe: "graverProbe",
  },
  {
    file: "index.php",
    member: "register_block_core_file",
    code: "function graver_probe() {\n  return 1;\n}",
    probe: "graver_probe",
  },
  {
    file: "completion.sh",
    member: "_npm_completion[1]",
    code: "graver_probe() {\n  echo 1\n}",
    probe: "graver_probe",
  },
];

for (const c of ROUND_TRIPS) {
  const positions = c.container
    ? ["before", "after", "start_of_body", "end_of_body"] as const
    : ["before", "after"] as const;
  for (const position of positions) {
    Deno.test(`insert_code() then remove_symbol() restores the bytes of ${c.file} (${position})`, async () => {
      const original = await Deno.readTextFile(fixtureUrl("symbols", c.file));
      const ws = await workspace({ [`/${c.file}`]: original });
      const anchor = position === "before" || position === "after" ? c.member : c.container!;
      const ins = ok(
        await ws.call("insert_code", { path: c.file, name_path: anchor, position, code: c.code }),
      );
      const after = await read(ws, c.file);
      assert.notEqual(after, original);
      const probeLine = after.split("\n")[(ins.data["start_line"] as number) - 1]!;
      assert.ok(
        probeLine.includes(c.code.split("\n")[0]!.trim()),
        `the code starts on its own line: ${probeLine}`,
      );
      ok(await ws.call("remove_symbol", { path: c.file, name_path: c.probe }));
      assert.equal(await read(ws, c.file), original);
    });
  }
}

Deno.test("insert_code() after the last Python method stays inside the class, re-indented", async () => {
  const text = "class A:\n    def one(self):\n        return 1\n\n\ndef top():\n    pass\n";
  const ws = await workspace({ "/a.py": text });
  ok(
    await ws.call("insert_code", {
      path: "a.py",
      name_path: "A/one",
      position: "after",
      code: "def two(self):\n    return 2\n",
    }),
  );
  const out = await read(ws, "a.py");
  assert.equal(
    out,
    "class A:\n    def one(self):\n        return 1\n\n    def two(self):\n        return 2\n\n\ndef top():\n    pass\n",
  );
  const { symbols } = await outlineOf(ws, "a.py", { text: out, version: "v2" });
  assert.deepEqual(symbols[0]!.children.map((s) => s.name_path), ["A/one", "A/two"]);
});

Deno.test("insert_code() at end_of_body of a Python class lands after the last method, inside the class", async () => {
  const text = "class A:\n    @property\n    def one(self):\n        return 1\nX = 1\n";
  const ws = await workspace({ "/a.py": text });
  ok(
    await ws.call("insert_code", {
      path: "a.py",
      name_path: "A",
      position: "end_of_body",
      code: "def two(self):\n  return 2",
    }),
  );
  assert.equal(
    await read(ws, "a.py"),
    "class A:\n    @property\n    def one(self):\n        return 1\n\n    def two(self):\n        return 2\nX = 1\n",
  );
});

Deno.test("insert_code() never glues code onto an existing line and uses the file's tabs and CRLF", async () => {
  const text =
    "package p\r\n\r\ntype T struct {\r\n\tA int\r\n}\r\n\r\nfunc (t *T) Get() int {\r\n\treturn t.A\r\n}\r\n";
  const ws = await workspace({ "/t.go": text });
  ok(
    await ws.call("insert_code", {
      path: "t.go",
      name_path: "T/Get",
      position: "before",
      code: "func (t *T) Set(a int) {\n    t.A = a\n}",
    }),
  );
  assert.equal(
    await read(ws, "t.go"),
    "package p\r\n\r\ntype T struct {\r\n\tA int\r\n}\r\n\r\nfunc (t *T) Set(a int) {\r\n\tt.A = a\r\n}\r\n\r\nfunc (t *T) Get() int {\r\n\treturn t.A\r\n}\r\n",
  );
});

Deno.test("insert_code() re-indents nested code into a method body", async () => {
  const text = "class A {\n  run() {\n    go();\n  }\n}\n";
  const ws = await workspace({ "/a.ts": text });
  ok(
    await ws.call("insert_code", {
      path: "a.ts",
      name_path: "A/run",
      position: "end_of_body",
      code: "if (x) {\n    stop();\n}",
    }),
  );
  assert.equal(
    await read(ws, "a.ts"),
    "class A {\n  run() {\n    go();\n    if (x) {\n      stop();\n    }\n  }\n}\n",
  );
});

Deno.test("insert_code() opens an empty body", async () => {
  const ws = await workspace({ "/a.ts": "class A {}\n" });
  ok(
    await ws.call("insert_code", {
      path: "a.ts",
      name_path: "A",
      position: "start_of_body",
      code: "run() {}",
    }),
  );
  assert.equal(await read(ws, "a.ts"), "class A {\n    run() {}\n}\n");
});

Deno.test("insert_code() opens an empty Ruby class and goes after a Python docstring", async () => {
  const ws = await workspace({
    "/b.rb": "class A\n  def a\n  end\nend\n\nclass B\nend\n",
    "/c.py": 'class C:\n    """Doc."""\n',
  });
  ok(
    await ws.call("insert_code", {
      path: "b.rb",
      name_path: "B",
      position: "end_of_body",
      code: "def x\n  1\nend",
    }),
  );
  assert.equal(
    await read(ws, "b.rb"),
    "class A\n  def a\n  end\nend\n\nclass B\n  def x\n    1\n  end\nend\n",
  );
  ok(
    await ws.call("insert_code", { path: "c.py", name_path: "C", position: "start_of_body", code: "x = 1" }),
  );
  assert.equal(await read(ws, "c.py"), 'class C:\n    """Doc."""\n    x = 1\n');
});

Deno.test("insert_code() after the last symbol keeps a file without a final newline that way", async () => {
  const ws = await workspace({ "/a.rs": "fn a() {}" });
  ok(await ws.call("insert_code", { path: "a.rs", name_path: "a", position: "after", code: "fn b() {}" }));
  assert.equal(await read(ws, "a.rs"), "fn a() {}\n\nfn b() {}");
  ok(await ws.call("remove_symbol", { path: "a.rs", name_path: "b" }));
  assert.equal(await read(ws, "a.rs"), "fn a() {}");
});

Deno.test("insert_code() refuses body positions on a symbol without a body", async () => {
  const ws = await workspace({ "/a.ts": "const x = 1;\n" });
  const res = await ws.call("insert_code", {
    path: "a.ts",
    name_path: "x",
    position: "end_of_body",
    code: "y",
  });
  assert.ok(!res.ok && res.error.code === "invalid_args");
  assert.equal(res.error.suggested_call?.args["position"], "after");
});

Deno.test("insert_code() goes above a Python method's decorators and a Rust method's attributes and docs", async () => {
  const py =
    "class A:\n    def one(self):\n        pass\n\n    @property\n    def two(self):\n        return 2\n";
  const ws = await workspace({
    "/a.py": py,
    "/p.rs": "impl P {\n    /// New.\n    #[inline]\n    fn new() {}\n}\n",
  });
  ok(
    await ws.call("insert_code", {
      path: "a.py",
      name_path: "A/two",
      position: "before",
      code: "def mid(self):\n    pass",
    }),
  );
  assert.equal(
    await read(ws, "a.py"),
    "class A:\n    def one(self):\n        pass\n\n    def mid(self):\n        pass\n\n    @property\n    def two(self):\n        return 2\n",
  );
  ok(
    await ws.call("insert_code", {
      path: "p.rs",
      name_path: "P/new",
      position: "before",
      code: "fn old() {}",
    }),
  );
  assert.equal(
    await read(ws, "p.rs"),
    "impl P {\n    fn old() {}\n\n    /// New.\n    #[inline]\n    fn new() {}\n}\n",
  );
});

async function inserted(file: string, text: string, args: Record<string, unknown>): Promise<string> {
  const ws = await workspace({ [`/${file}`]: text });
  const res: ToolResult = await ws.call("insert_code", { path: file, ...args });
  if (!res.ok) assert.fail(JSON.stringify(res.error));
  return await read(ws, file);
}

Deno.test("insert_code() at the end or start of an enum keeps every member and adds the comma the list needs", async () => {
  // Regression: a last member followed by "," sent the insert down the empty-body path, which replaced them all.
  const c = "enum TokenType {\n    DESCENDANT_OP,\n    ERROR_RECOVERY,\n};\n";
  assert.equal(
    await inserted("s.c", c, { name_path: "TokenType", position: "end_of_body", code: "EXTRA" }),
    "enum TokenType {\n    DESCENDANT_OP,\n    ERROR_RECOVERY,\n    EXTRA,\n};\n",
  );
  const bare = "enum E {\n    A,\n    B\n};\n";
  assert.equal(
    await inserted("s.c", bare, { name_path: "E", position: "end_of_body", code: "C" }),
    "enum E {\n    A,\n    B,\n    C\n};\n",
  );
  assert.equal(
    await inserted("s.c", bare, { name_path: "E", position: "start_of_body", code: "Z" }),
    "enum E {\n    Z,\n    A,\n    B\n};\n",
  );
  const inline = "enum E { A, B }\n";
  assert.equal(
    await inserted("e.ts", inline, { name_path: "E", position: "end_of_body", code: "C" }),
    "enum E { A, B, C }\n",
  );
  assert.equal(
    await inserted("e.ts", inline, { name_path: "E", position: "start_of_body", code: "Z" }),
    "enum E { Z, A, B }\n",
  );
});

Deno.test("insert_code() finds the braces of a TypeScript type alias and a C typedef struct as their body", async () => {
  const ts = "type Options = {\n  a: string;\n  b: number;\n};\n";
  assert.equal(
    await inserted("o.ts", ts, { name_path: "Options", position: "end_of_body", code: "c: boolean;" }),
    "type Options = {\n  a: string;\n  b: number;\n  c: boolean;\n};\n",
  );
  const c = "typedef struct {\n    int x;\n    int y;\n} Point;\n";
  assert.equal(
    await inserted("p.h", c, { name_path: "Point", position: "start_of_body", code: "int z;" }),
    "typedef struct {\n    int z;\n    int x;\n    int y;\n} Point;\n",
  );
});

Deno.test("insert_code() never replaces what a body holds, even when its last child does not end its line", async () => {
  const ts = "class A { one() {} two() {} }\n";
  const out = await inserted("a.ts", ts, { name_path: "A", position: "end_of_body", code: "three() {}" });
  assert.equal(out, "class A { one() {} two() {} three() {} }\n");
});

Deno.test("insert_code() next to an item of a one-line list stays on that line", async () => {
  const ts = "enum E { A, B }\n";
  assert.equal(
    await inserted("e.ts", ts, { name_path: "E/A", position: "after", code: "X" }),
    "enum E { A, X, B }\n",
  );
  assert.equal(
    await inserted("e.ts", ts, { name_path: "E/B", position: "after", code: "X" }),
    "enum E { A, B, X }\n",
  );
  assert.equal(
    await inserted("e.ts", ts, { name_path: "E/A", position: "before", code: "X" }),
    "enum E { X, A, B }\n",
  );
  const js = "let a, b = 1;\nf();\n";
  assert.equal(
    await inserted("a.js", js, { name_path: "b", position: "after", code: "c = 2;" }),
    "let a, b = 1, c = 2;\nf();\n",
  );
});

Deno.test("insert_code() in a file mixing CRLF and LF takes the anchor's own line ending", async () => {
  // Real shape: idb-keyval's dist file, CRLF inside functions and LF between them.
  const text = "function a() {\r\n  return 1;\r\n}\n\nexport { a };\n";
  const ws = await workspace({ "/m.js": text });
  const res = await ws.call("insert_code", {
    path: "m.js",
    name_path: "a",
    position: "after",
    code: "function b() {}",
  });
  assert.ok(res.ok, JSON.stringify(res));
  const after = await read(ws, "m.js");
  assert.equal(after, "function a() {\r\n  return 1;\r\n}\n\nfunction b() {}\n\nexport { a };\n");
  const back = await ws.call("remove_symbol", { path: "m.js", name_path: "b" });
  assert.ok(back.ok);
  assert.equal(await read(ws, "m.js"), text);
});

Deno.test("insert_code() next to the only entry of a JavaScript object adds the comma, and remove takes it back", async () => {
  // Real shape: @jridgewell/sourcemap-codec's `td` fallback, an object literal with one method.
  const text = "const codec = {\n  decode(buf) {\n    return buf;\n  }\n};\n";
  const ws = await workspace({ "/a.js": text });
  const res = await ws.call("insert_code", {
    path: "a.js",
    name_path: "codec/decode",
    position: "after",
    code: "encode(s) {\n  return s;\n}",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(
    await read(ws, "a.js"),
    "const codec = {\n  decode(buf) {\n    return buf;\n  },\n\n  encode(s) {\n    return s;\n  }\n};\n",
  );
  assert.ok((await ws.call("remove_symbol", { path: "a.js", name_path: "codec/encode" })).ok);
  assert.equal(await read(ws, "a.js"), text);
});

Deno.test("insert_code() in JSON puts the commas a one-entry object needs, at every position", async () => {
  const text = '{\n  "name": "x",\n  "scripts": {\n    "test": "deno test"\n  }\n}\n';
  const cases: [string, string, string, string][] = [
    ["scripts/test", "after", '"lint": "deno lint"', '    "test": "deno test",\n    "lint": "deno lint"\n'],
    ["scripts", "end_of_body", '"build": "x"', '    "test": "deno test",\n    "build": "x"\n'],
    ["scripts", "start_of_body", '"build": "x"', '    "build": "x",\n    "test": "deno test"\n'],
  ];
  for (const [namePath, position, code, inner] of cases) {
    const out = await inserted("p.json", text, { name_path: namePath, position, code });
    assert.equal(out, `{\n  "name": "x",\n  "scripts": {\n${inner}  }\n}\n`, `${namePath} ${position}`);
    assert.doesNotThrow(() => JSON.parse(out));
  }
});

Deno.test("insert_code() after a one-member enum gives it its comma (C, Rust, C#, Java, Kotlin)", async () => {
  const cases: [string, string, string, string, string][] = [
    ["e.c", "enum Color {\n    RED\n};\n", "Color/RED", "GREEN", "enum Color {\n    RED,\n    GREEN\n};\n"],
    ["e.rs", "enum Color {\n    Red\n}\n", "Color/Red", "Green", "enum Color {\n    Red,\n    Green\n}\n"],
    ["E.cs", "enum Color\n{\n    Red\n}\n", "Color/Red", "Green", "enum Color\n{\n    Red,\n    Green\n}\n"],
    ["E.java", "enum Color {\n    RED\n}\n", "Color/RED", "GREEN", "enum Color {\n    RED,\n    GREEN\n}\n"],
    [
      "e.kt",
      "enum class Color {\n    RED\n}\n",
      "Color/RED",
      "GREEN",
      "enum class Color {\n    RED,\n    GREEN\n}\n",
    ],
  ];
  for (const [path, text, namePath, code, want] of cases) {
    assert.equal(await inserted(path, text, { name_path: namePath, position: "after", code }), want, path);
    const parent = namePath.split("/")[0]!;
    assert.equal(
      await inserted(path, text, { name_path: parent, position: "end_of_body", code }),
      want,
      path,
    );
  }
});
