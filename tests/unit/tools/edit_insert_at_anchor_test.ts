import assert from "node:assert/strict";
import { fixture, fixtureWorkspace, ok, refused, stored, workspaceWith } from "../structural/_fixtures.ts";

const crlf = (t: string) => t.replace(/\r?\n/g, "\r\n");

Deno.test("edit_insert_at_anchor puts a method after a Python method with one blank line, re-indented into the class", async () => {
  const ws = await fixtureWorkspace(["MSVSUserFile.py"]);
  const original = fixture("MSVSUserFile.py");
  const d = ok(
    await ws.call("edit_insert_at_anchor", {
      path: "MSVSUserFile.py",
      selector: "Writer/AddConfig",
      position: "after",
      text: "def RemoveConfig(self, name):\n        del self.configurations[name]\n",
    }),
  );
  const after = await stored(ws, "MSVSUserFile.py");
  assert.equal(
    after,
    original.replace(
      '{"Name": name}]\n\n    def AddDebugSettings(',
      '{"Name": name}]\n\n    def RemoveConfig(self, name):\n        del self.configurations[name]\n\n    def AddDebugSettings(',
    ),
  );
  assert.deepEqual(d["inserted"], [{ start_line: 79, end_line: 80 }]);
});

Deno.test("edit_insert_at_anchor keeps two blank lines around a new top-level Python function", async () => {
  const ws = await fixtureWorkspace(["MSVSUserFile.py"]);
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "MSVSUserFile.py",
      selector: "_QuoteWin32CommandLineArgs",
      position: "before",
      text: "def _Helper():\n  return 1",
    }),
  );
  const after = await stored(ws, "MSVSUserFile.py");
  assert.ok(
    after.includes(
      "    return command\n\n\ndef _Helper():\n    return 1\n\n\ndef _QuoteWin32CommandLineArgs(args):",
    ),
  );
});

Deno.test("edit_insert_at_anchor after the last Python method lands inside the class, not after it", async () => {
  const ws = await fixtureWorkspace(["MSVSUserFile.py"]);
  const original = fixture("MSVSUserFile.py");
  for (const position of ["after", "end_of_body"] as const) {
    ok(
      await ws.call("edit_insert_at_anchor", {
        path: "MSVSUserFile.py",
        selector: position === "after" ? "Writer/WriteIfChanged" : "Writer",
        position,
        text: "def Last(self):\n    return self.name",
      }),
    );
    const after = await stored(ws, "MSVSUserFile.py");
    assert.equal(after, original.replace(/\n$/, "\n\n    def Last(self):\n        return self.name\n"));
    const outline = ok(await ws.call("outline", { path: "MSVSUserFile.py" }));
    assert.match(JSON.stringify(outline), /"Writer\/Last"/);
    ok(await ws.call("edit_apply_node", { path: "MSVSUserFile.py", selector: "Writer/Last", new_text: "" }));
    assert.equal(await stored(ws, "MSVSUserFile.py"), original);
  }
});

Deno.test("edit_insert_at_anchor puts a docstring-aware statement at start_of_body", async () => {
  const ws = await fixtureWorkspace(["MSVSUserFile.py"]);
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "MSVSUserFile.py",
      selector: "_FindCommandInPath",
      position: "start_of_body",
      text: "command = command.strip()",
    }),
  );
  assert.ok(
    (await stored(ws, "MSVSUserFile.py")).includes(
      'full path."""\n    command = command.strip()\n    if "/" in command',
    ),
  );
});

Deno.test("edit_insert_at_anchor converts space-indented code to tabs in a nested Go body (tabs file)", async () => {
  const ws = await fixtureWorkspace(["analyze.go"]);
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "analyze.go",
      selector: { pattern: "for _, folder := range ignoredFolders { $$$B }" },
      position: "last_child",
      text: 'if folder == "" {\n    panic("empty")\n}\n',
    }),
  );
  assert.ok(
    (await stored(ws, "analyze.go")).includes(
      '"/.*"))\n\t\tif folder == "" {\n\t\t\tpanic("empty")\n\t\t}\n\t}\n}\n',
    ),
  );
});

Deno.test("edit_insert_at_anchor converts tab-indented code to two spaces in a nested TypeScript body (spaces file)", async () => {
  const ws = await fixtureWorkspace(["dereference.ts"]);
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "dereference.ts",
      selector: { pattern: "for (let i = 0; i < length; i++) { $$$B }" },
      position: "first_child",
      text: "\tif (!subSchema[i]) {\n\t\tcontinue;\n\t}",
    }),
  );
  assert.ok(
    (await stored(ws, "dereference.ts")).includes(
      "for (let i = 0; i < length; i++) {\n          if (!subSchema[i]) {\n            continue;\n          }\n          dereference(subSchema[i]",
    ),
  );
});

Deno.test('edit_insert_at_anchor then edit_apply_node with "" gives back the original bytes (several languages)', async () => {
  const cases: { file: string; selector: unknown; position: string; text: string }[] = [
    {
      file: "MSVSUserFile.py",
      selector: "Writer/__init__",
      position: "after",
      text: "def Extra(self):\n    pass",
    },
    {
      file: "MSVSUserFile.py",
      selector: "_FindCommandInPath",
      position: "before",
      text: "def Extra():\n    pass",
    },
    {
      file: "lib.rs",
      selector: "language",
      position: "after",
      text: "/// Extra.\npub fn extra() -> u8 {\n    1\n}",
    },
    { file: "lib.rs", selector: "tests", position: "first_child", text: "fn extra() {}" },
    {
      file: "NativeSafeAreaContextSpec.java",
      selector: "NativeSafeAreaContextSpec",
      position: "last_child",
      text: "void extra() {}",
    },
    {
      file: "Find-VisualStudio.cs",
      selector: "IEnumSetupInstances",
      position: "before",
      text: "[ComImport]\npublic interface IExtra\n{\n}",
    },
    {
      file: "native_modules.rb",
      selector: "use_native_modules!",
      position: "before",
      text: "def extra\n  1\nend",
    },
    {
      file: "dereference.ts",
      selector: "resolveURI",
      position: "after",
      text: "function extra(): number {\n  return 1;\n}",
    },
    { file: "analyze.go", selector: "parse", position: "before", text: "func extra() int {\n\treturn 1\n}" },
  ];
  for (const c of cases) {
    const ws = await fixtureWorkspace([c.file]);
    const original = fixture(c.file);
    const ins = ok(
      await ws.call("edit_insert_at_anchor", {
        path: c.file,
        selector: c.selector,
        position: c.position,
        text: c.text,
      }),
    );
    assert.notEqual(await stored(ws, c.file), original);
    const name = /(?:def|fn|void|interface|function|func) (\w+)/.exec(c.text)![1]!;
    const anchor = (ins["anchors"] as { name_path?: string }[])[0]!.name_path ?? "";
    const inner = c.position.endsWith("child") ? `${anchor}/${name}` : name;
    const rm = await ws.call("edit_apply_node", { path: c.file, selector: inner, new_text: "" });
    ok(rm);
    assert.equal(await stored(ws, c.file), original, `${c.file} ${c.position}`);
  }
});

Deno.test("edit_insert_at_anchor never glues code onto an existing line", async () => {
  // A file without a final newline: the new code goes on a new line, and the file still ends without one.
  const noEol = fixture("isNaN.js").replace(/\n$/, "");
  const ws = await workspaceWith({ "isNaN.js": noEol, "one.js": "a(); b();\n" });
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "isNaN.js",
      selector: { pattern: "module.exports = $X" },
      position: "after",
      text: "module.exports.extra = 1;",
    }),
  );
  assert.equal(await stored(ws, "isNaN.js"), noEol + "\n\nmodule.exports.extra = 1;");
  // Two statements on one line: the line is split, never glued.
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "one.js",
      selector: { pattern: "a()" },
      position: "after",
      text: "x();",
    }),
  );
  assert.equal(await stored(ws, "one.js"), "a();\nx();\nb();\n");
  // An anchor inside an expression means its statement: before `a !== a` is before `return a !== a;`.
  const ws2 = await fixtureWorkspace(["isNaN.js"]);
  ok(
    await ws2.call("edit_insert_at_anchor", {
      path: "isNaN.js",
      selector: { pattern: "$A !== $A" },
      position: "before",
      text: "count++;",
    }),
  );
  assert.equal(
    await stored(ws2, "isNaN.js"),
    fixture("isNaN.js").replace("\treturn a !== a;", "\tcount++;\n\treturn a !== a;"),
  );
});

Deno.test("edit_insert_at_anchor writes CRLF lines into a CRLF file and goes above Rust attributes for before", async () => {
  const ws = await fixtureWorkspace(["lib.rs"], crlf);
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "lib.rs",
      selector: "tests/can_load_grammar",
      position: "before",
      text: "#[test]\nfn first() {\n    assert!(true);\n}\n",
    }),
  );
  const after = await stored(ws, "lib.rs");
  assert.ok(
    after.includes(
      "mod tests {\r\n    #[test]\r\n    fn first() {\r\n        assert!(true);\r\n    }\r\n\r\n    #[test]\r\n    fn can_load_grammar() {",
    ),
  );
  assert.ok(!/[^\r]\n/.test(after), "every line ends with CRLF");
});

Deno.test("edit_insert_at_anchor fills an empty body on its own lines", async () => {
  const ws = await workspaceWith({
    "a.ts": "class A {}\n",
    "b.rb": "class B\nend\n",
    "c.go": "package c\n\ntype T struct {\n}\n",
  });
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "a.ts",
      selector: "A",
      position: "first_child",
      text: "run() {\n  return 1;\n}",
    }),
  );
  assert.equal(await stored(ws, "a.ts"), "class A {\n  run() {\n    return 1;\n  }\n}\n");
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "b.rb",
      selector: "B",
      position: "end_of_body",
      text: "def x\n  1\nend",
    }),
  );
  assert.equal(await stored(ws, "b.rb"), "class B\n  def x\n    1\n  end\nend\n");
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "c.go",
      selector: "T",
      position: "first_child",
      text: "Name string",
    }),
  );
  assert.equal(await stored(ws, "c.go"), "package c\n\ntype T struct {\n\tName string\n}\n");
});

Deno.test("edit_insert_at_anchor refuses files without a grammar, a stale version and a body position without a body", async () => {
  const ws = await fixtureWorkspace(["MSVSUserFile.py"]);
  const ws2 = await workspaceWith({ "notes.txt": "hello\n" });
  const e = refused(
    await ws2.call("edit_insert_at_anchor", {
      path: "notes.txt",
      selector: "x",
      position: "after",
      text: "y",
    }),
  );
  assert.equal(e.code, "unsupported_language");
  assert.equal(e.suggested_call?.tool, "edit_safe_text_patch");
  const stale = refused(
    await ws.call("edit_insert_at_anchor", {
      path: "MSVSUserFile.py",
      selector: "Writer",
      position: "after",
      text: "x = 1",
      expected_version: "0".repeat(64),
    }),
  );
  assert.equal(stale.code, "stale_base");
  const noBody = refused(
    await ws.call("edit_insert_at_anchor", {
      path: "MSVSUserFile.py",
      selector: { pattern: "import os" },
      position: "first_child",
      text: "x = 1",
    }),
  );
  assert.equal(noBody.code, "no_match");
  assert.equal(await stored(ws, "MSVSUserFile.py"), fixture("MSVSUserFile.py"));
});

Deno.test("edit_insert_at_anchor re-indents code around a template literal but keeps the literal's content", async () => {
  const ws = await fixtureWorkspace(["dereference.ts"]);
  const code = [
    "    function describe(uri: string): string {",
    "        return `",
    "  uri: ${uri}",
    "`;",
    "    }",
  ].join("\n");
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "dereference.ts",
      selector: "resolveURI",
      position: "before",
      text: code,
    }),
  );
  assert.ok(
    (await stored(ws, "dereference.ts")).includes(
      "function describe(uri: string): string {\n  return `\n  uri: ${uri}\n`;\n}\n\nfunction resolveURI(",
    ),
  );
});

Deno.test("edit_insert_at_anchor keeps a BOM and every other line's ending in a mixed-ending file", async () => {
  const text = "\uFEFFclass A:\r\n    def f(self):\r\n        pass\n\n    def g(self):\r\n        pass\r\n";
  const ws = await workspaceWith({ "a.py": text });
  ok(
    await ws.call("edit_insert_at_anchor", {
      path: "a.py",
      selector: "A/f",
      position: "after",
      text: "def h(self):\n    pass",
    }),
  );
  assert.equal(
    await stored(ws, "a.py"),
    // Old lines keep their endings; the new ones take the dominant CRLF.
    "\uFEFFclass A:\r\n    def f(self):\r\n        pass\n\r\n    def h(self):\r\n        pass\r\n\n    def g(self):\r\n        pass\r\n",
  );
});

Deno.test("edit_insert_at_anchor makes an insertion once when nested matches share its anchor", async () => {
  const ws = await workspaceWith({ "a.ts": "function g() {\n  f(1); f(2);\n  return f(f(4));\n}\n" });
  const res = await ws.call("edit_insert_at_anchor", {
    path: "a.ts",
    selector: { pattern: "f($X)" },
    select: "all",
    position: "before",
    text: "log();",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(
    await stored(ws, "a.ts"),
    "function g() {\n  log();\n  f(1);\n  log();\n  f(2);\n  log();\n  return f(f(4));\n}\n",
  );
  assert.match(res.warnings.join("\n"), /1 match\(es\) led to the same edit/);
});
