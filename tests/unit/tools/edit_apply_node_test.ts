import assert from "node:assert/strict";
import { fixture, fixtureWorkspace, ok, refused, stored, workspaceWith } from "../structural/_fixtures.ts";

Deno.test("edit_apply_node rewrites every console.log($$$ARGS) with select all, keeping the bound arguments", async () => {
  const ws = await fixtureWorkspace(["check-napi.js"]);
  const amb = refused(
    await ws.call("edit_apply_node", {
      path: "check-napi.js",
      selector: { pattern: "console.log($$$ARGS)" },
      new_text: "logger.info($$$ARGS)",
    }),
  );
  assert.equal(amb.code, "ambiguous");
  assert.deepEqual((amb.details!["candidates"] as { start_line: number }[]).map((c) => c.start_line), [
    28,
    32,
  ]);
  assert.equal(amb.suggested_call?.args["select"], "nth");
  const d = ok(
    await ws.call("edit_apply_node", {
      path: "check-napi.js",
      selector: { pattern: "console.log($$$ARGS)" },
      new_text: "logger.info($$$ARGS)",
      select: "all",
    }),
  );
  assert.equal((d["replaced"] as unknown[]).length, 2);
  // Only the callee changes: the arguments keep their lines, indentation and layout.
  assert.equal(
    await stored(ws, "check-napi.js"),
    fixture("check-napi.js").replaceAll("console.log(", "logger.info("),
  );
});

Deno.test("edit_apply_node replaces the one match of $A === $A, putting $A's binding into the new code", async () => {
  const ws = await fixtureWorkspace(["validate.ts"]);
  const original = fixture("validate.ts");
  ok(
    await ws.call("edit_apply_node", {
      path: "validate.ts",
      selector: { pattern: "$A === $A" },
      new_text: "!Number.isNaN($A)",
    }),
  );
  assert.equal(
    await stored(ws, "validate.ts"),
    original.replace("instance === instance)", "!Number.isNaN(instance))"),
  );
});

Deno.test("edit_apply_node re-indents a flush-left Python method into its class and leaves the neighbours alone", async () => {
  const ws = await fixtureWorkspace(["MSVSUserFile.py"]);
  const original = fixture("MSVSUserFile.py");
  ok(
    await ws.call("edit_apply_node", {
      path: "MSVSUserFile.py",
      selector: "Writer/AddConfig",
      new_text:
        'def AddConfig(self, name):\n    """Adds a configuration."""\n    self.configurations[name] = ["Configuration", {"Name": name}]\n',
    }),
  );
  const start = original.indexOf("    def AddConfig");
  const end = original.indexOf("\n\n    def AddDebugSettings");
  assert.equal(
    await stored(ws, "MSVSUserFile.py"),
    original.slice(0, start) +
      '    def AddConfig(self, name):\n        """Adds a configuration."""\n        self.configurations[name] = ["Configuration", {"Name": name}]' +
      original.slice(end),
  );
});

Deno.test("edit_apply_node does not duplicate the Go `type` keyword when the new code repeats it", async () => {
  const ws = await fixtureWorkspace(["analyze.go"]);
  const original = fixture("analyze.go");
  ok(
    await ws.call("edit_apply_node", {
      path: "analyze.go",
      selector: "analyze",
      new_text:
        'type analyze struct {\n    PackageName string `json:"packageName"`\n    FuncName string `json:"functionName"`\n}',
    }),
  );
  const after = await stored(ws, "analyze.go");
  assert.ok(!after.includes("type type"));
  assert.equal(
    after,
    original.replace(
      /type analyze struct \{[^}]*\}/,
      'type analyze struct {\n\tPackageName string `json:"packageName"`\n\tFuncName string `json:"functionName"`\n}',
    ),
  );
});

Deno.test("edit_apply_node replaces a Java method without eating the next one, and refuses a stray brace", async () => {
  const ws = await fixtureWorkspace(["NativeSafeAreaContextSpec.java"]);
  const original = fixture("NativeSafeAreaContextSpec.java");
  const stray = refused(
    await ws.call("edit_apply_node", {
      path: "NativeSafeAreaContextSpec.java",
      selector: { query: "(constructor_declaration) @ctor" },
      new_text:
        "public NativeSafeAreaContextSpec(ReactApplicationContext reactContext) {\n  super(reactContext);\n}\n}",
    }),
  );
  assert.equal(stray.code, "syntax_error");
  assert.equal(await stored(ws, "NativeSafeAreaContextSpec.java"), original);
  ok(
    await ws.call("edit_apply_node", {
      path: "NativeSafeAreaContextSpec.java",
      selector: { query: "(constructor_declaration) @ctor" },
      new_text:
        "public NativeSafeAreaContextSpec(ReactApplicationContext reactContext) {\n  super(reactContext);\n  init();\n}",
    }),
  );
  assert.equal(
    await stored(ws, "NativeSafeAreaContextSpec.java"),
    original.replace("    super(reactContext);\n  }\n", "    super(reactContext);\n    init();\n  }\n"),
  );
});

Deno.test("edit_apply_node keeps a Rust attribute the new code does not repeat, and replaces it when it does", async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  const original = fixture("lib.rs");
  ok(
    await ws.call("edit_apply_node", {
      path: "lib.rs",
      selector: "tests/can_load_grammar",
      new_text: "fn can_load_grammar() {}",
    }),
  );
  assert.equal(
    await stored(ws, "lib.rs"),
    original.replace(/fn can_load_grammar\(\) \{[^]*?\n {4}\}/, "fn can_load_grammar() {}"),
  );
  ok(
    await ws.call("edit_apply_node", {
      path: "lib.rs",
      selector: "tests/can_load_grammar",
      new_text: "#[test]\n#[ignore]\nfn can_load_grammar() {}",
    }),
  );
  assert.ok(
    (await stored(ws, "lib.rs")).includes(
      "mod tests {\n    #[test]\n    #[ignore]\n    fn can_load_grammar() {}\n}",
    ),
  );
});

Deno.test('edit_apply_node with "" removes a node with its doc comment and the blank line it leaves', async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  const original = fixture("lib.rs");
  ok(await ws.call("edit_apply_node", { path: "lib.rs", selector: "HIGHLIGHT_QUERY", new_text: "" }));
  assert.equal(
    await stored(ws, "lib.rs"),
    original.replace(
      '/// The syntax highlighting query for this language.\npub const HIGHLIGHT_QUERY: &str = include_str!("../../queries/highlights.scm");\n\n',
      "",
    ),
  );
});

Deno.test("edit_apply_node previews with dry_run and writes nothing", async () => {
  const ws = await fixtureWorkspace(["isNaN.js"]);
  const r = await ws.call("edit_apply_node", {
    path: "isNaN.js",
    selector: { pattern: "$A !== $A" },
    new_text: "Number.isNaN($A)",
    dry_run: true,
  });
  assert.ok(r.ok && r.status === "dry_run");
  assert.match(r.changes[0]!.diff, /^-\treturn a !== a;\n\+\treturn Number\.isNaN\(a\);$/m);
  assert.equal(await stored(ws, "isNaN.js"), fixture("isNaN.js"));
});

Deno.test("edit_apply_node answers code passed as a name path with the pattern call to make", async () => {
  const ws = await fixtureWorkspace(["isNaN.js"]);
  const e = refused(
    await ws.call("edit_apply_node", { path: "isNaN.js", selector: "a !== a", new_text: "false" }),
  );
  assert.equal(e.code, "no_match");
  assert.deepEqual(e.suggested_call?.args["selector"], { pattern: "a !== a" });
  ok(await ws.call(e.suggested_call!.tool, e.suggested_call!.args));
  assert.equal(await stored(ws, "isNaN.js"), fixture("isNaN.js").replace("return a !== a;", "return false;"));
});

Deno.test("edit_apply_node refuses an ambiguous name path with each candidate's unique name path", async () => {
  const ws = await workspaceWith({
    "a.ts": "class A {\n  f(a: number): void;\n  f(a: string): void;\n  f(a: any) {}\n}\n",
  });
  const e = refused(
    await ws.call("edit_apply_node", { path: "a.ts", selector: "A/f", new_text: "f(a: any) { return a; }" }),
  );
  assert.equal(e.code, "ambiguous");
  const cands = e.details!["candidates"] as { name_path: string; start_line: number }[];
  assert.deepEqual(cands.map((c) => [c.name_path, c.start_line]), [["A/f[0]", 2], ["A/f[1]", 3], [
    "A/f[2]",
    4,
  ]]);
  assert.equal(e.suggested_call?.args["selector"], "A/f[0]");
  ok(
    await ws.call("edit_apply_node", {
      path: "a.ts",
      selector: "A/f[2]",
      new_text: "f(a: any) { return a; }",
    }),
  );
  assert.equal(
    await stored(ws, "a.ts"),
    "class A {\n  f(a: number): void;\n  f(a: string): void;\n  f(a: any) { return a; }\n}\n",
  );
});

Deno.test("edit_apply_node removing a list item takes its comma (JSON keys, one per line or inline)", async () => {
  const json = '{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}\n';
  const cases: [string, string][] = [
    ["a", '{\n  "b": 2,\n  "c": 3\n}\n'],
    ["b", '{\n  "a": 1,\n  "c": 3\n}\n'],
    ["c", '{\n  "a": 1,\n  "b": 2\n}\n'],
  ];
  for (const [key, want] of cases) {
    const ws = await workspaceWith({ "p.json": json });
    ok(await ws.call("edit_apply_node", { path: "p.json", selector: key, new_text: "" }));
    assert.equal(await stored(ws, "p.json"), want, key);
  }
  const ws = await workspaceWith({ "q.json": '{"a": 1, "b": 2}\n' });
  ok(await ws.call("edit_apply_node", { path: "q.json", selector: "b", new_text: "" }));
  assert.equal(await stored(ws, "q.json"), '{"a": 1}\n');
});

Deno.test("edit_apply_node refuses new code that parses but would not fit its place; warn writes it, saying so", async () => {
  const text =
    "function find(tags, name) {\n  const tag = tags.get(name);\n  if (!tag)\n    throw new Error(name);\n  return tag;\n}\n";
  const ws = await workspaceWith({ "find.js": text });
  const args = {
    path: "find.js",
    selector: { pattern: "throw new Error($M);" },
    new_text: "const err = new Error($M);\nerr.code = 404;\nthrow err;",
  };
  const e = refused(await ws.call("edit_apply_node", args));
  assert.equal(e.code, "syntax_error");
  assert.match(e.message, /find\.js:4:5: the if_statement that held it \(line 3\)/);
  assert.equal(await stored(ws, "find.js"), text);
  const removal = refused(await ws.call("edit_apply_node", { ...args, new_text: "" }));
  assert.match(removal.message, /would take the code after it in its place/);
  assert.equal(await stored(ws, "find.js"), text);
  // In braces it fits.
  ok(await ws.call("edit_apply_node", { ...args, new_text: `{\n${args.new_text}\n}`, dry_run: true }));
  const warned = await ws.call("edit_apply_node", { ...args, syntax_guard: "warn" });
  assert.ok(warned.ok);
  assert.ok(warned.warnings.some((w) => /does not fit.*written as asked \(syntax_guard warn\)/.test(w)));
  assert.match(
    await stored(ws, "find.js"),
    /if \(!tag\)\n {4}const err = new Error\(name\);\n {4}err\.code = 404;/,
  );
});

Deno.test("edit_apply_node refuses pattern edits that would drop a comment inside a match; $$$ keeps it", async () => {
  const text = "foo(a, /* keep me */ b);\nfoo(c, d);\n";
  const ws = await workspaceWith({ "cm.js": text });
  const e = refused(
    await ws.call("edit_apply_node", {
      path: "cm.js",
      selector: { pattern: "foo($A, $B)" },
      new_text: "bar($B, $A)",
      select: "all",
    }),
  );
  assert.equal(e.code, "ambiguous");
  assert.deepEqual(e.details!["sites"], [{ line: 1, column: 1, comments: ["/* keep me */"] }]);
  assert.equal(await stored(ws, "cm.js"), text);
  ok(
    await ws.call("edit_apply_node", {
      path: "cm.js",
      selector: { pattern: "foo($$$A)" },
      new_text: "bar($$$A)",
      select: "all",
    }),
  );
  assert.equal(await stored(ws, "cm.js"), "bar(a, /* keep me */ b);\nbar(c, d);\n");
});
