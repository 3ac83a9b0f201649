import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/mod.ts";
import { compilePattern, matchPattern } from "../../../../src/structural/edit/pattern.ts";
import { fixtureUrl } from "../../../_helpers.ts";
import { fixture, GRAMMARS } from "../_fixtures.ts";

async function matches(language: string, pattern: string, text: string) {
  const parser = await GRAMMARS.parser(language);
  const compiled = compilePattern(parser, language, pattern);
  const tree = parser.parse(text)!;
  const found = matchPattern(compiled, tree.rootNode, { text }).map((m) => ({
    line: m.node.startPosition.row + 1,
    text: m.node.text,
    bindings: Object.fromEntries(Object.entries(m.bindings).map(([k, b]) => [k, b.text])),
  }));
  tree.delete();
  parser.delete();
  return { compiled, found };
}

Deno.test("compilePattern()/matchPattern() find console.log($$$ARGS) calls with their arguments (JavaScript)", async () => {
  const { compiled, found } = await matches("javascript", "console.log($$$ARGS)", fixture("check-napi.js"));
  assert.equal(compiled.root.type, "call_expression");
  assert.deepEqual(compiled.metavariables, ["ARGS"]);
  assert.deepEqual(found.map((f) => f.line), [28, 32]);
  assert.equal(
    found[0]!.bindings["ARGS"],
    "command + ' exited with code: ' + code + ' and signal: ' + signal",
  );
});

Deno.test("matchPattern() makes a metavariable used twice bind equal text ($A === $A, TypeScript)", async () => {
  const text = fixture("validate.ts");
  const { found } = await matches("typescript", "$A === $A", text);
  assert.deepEqual(found.map((f) => [f.line, f.text]), [[249, "instance === instance"]]);
  // Without the repeat every === comparison matches.
  const any = await matches("typescript", "$A === $B", text);
  assert.ok(any.found.length > 20);
});

Deno.test("matchPattern() matches $A !== $A in a tab-indented JavaScript file", async () => {
  const { found } = await matches("javascript", "$A !== $A", fixture("isNaN.js"));
  assert.deepEqual(found.map((f) => f.bindings["A"]), ["a"]);
  assert.deepEqual((await matches("javascript", "$A !== $A", fixture("isFinite.js"))).found, []);
});

Deno.test("compilePattern() parses Python def $NAME($$$P): $$$B with metavariables the grammar rejects as `$`", async () => {
  const { compiled, found } = await matches("python", "def $NAME($$$P): $$$B", fixture("MSVSUserFile.py"));
  assert.equal(compiled.root.type, "function_definition");
  assert.deepEqual(found.map((f) => f.bindings["NAME"]), [
    "_FindCommandInPath",
    "_QuoteWin32CommandLineArgs",
    "__init__",
    "AddConfig",
    "AddDebugSettings",
    "WriteIfChanged",
  ]);
  assert.equal(found[3]!.bindings["P"], "self, name");
  // A fixed leaf narrows it: only methods whose first parameter is self.
  const methods = await matches("python", "def $NAME(self, $$$P): $$$B", fixture("MSVSUserFile.py"));
  assert.equal(methods.found.length, 4);
});

Deno.test("compilePattern() finds the context a statement needs (Go, Java, C#, Rust, Ruby)", async () => {
  const go = await matches("go", "fmt.Println($$$A)", fixture("analyze.go"));
  assert.equal(go.found.length, 1);
  assert.match(go.found[0]!.bindings["A"]!, /^"Wrong number of args/);
  const goErr = await matches("go", "if err != nil { $$$B }", fixture("analyze.go"));
  assert.ok(goErr.found.length >= 2);
  const java = await matches(
    "java",
    "Preconditions.checkState($$$ARGS)",
    "class A { void m() { Preconditions.checkState(a, b); } }",
  );
  assert.equal(java.found[0]!.bindings["ARGS"], "a, b");
  const javaReal = await matches("java", "constants.put($K, $V)", fixture("NativeSafeAreaContextSpec.java"));
  assert.ok(javaReal.compiled.root.type === "method_invocation");
  const cs = await matches("c_sharp", "Marshal.ReleaseComObject($X)", fixture("Find-VisualStudio.cs"));
  assert.equal(cs.compiled.root.type, "invocation_expression");
  // Rust macros read `$X` as two tokens: the pattern falls back to another spelling of the metavariable.
  const rust = await matches("rust", "include_str!($PATH)", fixture("lib.rs"));
  assert.deepEqual(rust.found.map((f) => f.bindings["PATH"]), [
    '"../../grammar.js"',
    '"../../queries/highlights.scm"',
    '"../../src/node-types.json"',
  ]);
  const ruby = await matches("ruby", "Pod::UI.warn($$$ARGS)", fixture("native_modules.rb"));
  assert.ok(ruby.found.length >= 1);
});

Deno.test("compilePattern() refuses a pattern that does not parse or is only a metavariable", async () => {
  const parser = await GRAMMARS.parser("typescript");
  for (const bad of ["console.log(", "$X", "   "]) {
    assert.throws(
      () => compilePattern(parser, "typescript", bad),
      (e) => e instanceof RecoverableError && e.code === "invalid_query" && e.hint.length > 0,
    );
  }
  parser.delete();
});

Deno.test("compilePattern() reads a pattern the grammar takes only as one ERROR node as ast-grep does: any kind, by its children", async () => {
  const text = 'import {a, b} from "./x"\nimport c from "./c"\nexport {c} from "./y"\nconst v = p ? q : r\n';
  const imports = await matches("typescript", "import {$$$A} from $B", text);
  assert.equal(imports.compiled.root.anyKind, true);
  assert.deepEqual(imports.found.map((f) => [f.line, f.bindings["A"], f.bindings["B"]]), [[
    1,
    "a, b",
    '"./x"',
  ]]);
  // Under a search's smart strictness, the code's children may go on past the pattern's (`: r`).
  const parser = await GRAMMARS.parser("typescript");
  const ternary = { ...compilePattern(parser, "typescript", "$A ? $B"), smart: true };
  const tree = parser.parse(text)!;
  assert.deepEqual(matchPattern(ternary, tree.rootNode, { text }).map((m) => m.node.text), ["p ? q : r"]);
  tree.delete();
  // A pattern that parses whole is read as before.
  assert.equal(compilePattern(parser, "typescript", 'import {$$$A} from "$B"').root.anyKind, undefined);
  // A pattern cut short is still refused: its brackets do not close.
  for (const cut of ["f($A", "if ($C) {", "import {$$$A from $B"]) {
    assert.throws(() => compilePattern(parser, "typescript", cut), (e) => e instanceof RecoverableError);
  }
  parser.delete();
});

Deno.test("compilePattern() reads $$$C where the grammar takes no name, and a node alone its grammar objects to around it", async () => {
  const js = "switch (k) {\n  case 1: f();\n  default: g();\n}\nclass A { switch(x) { return x; } }\n";
  const switches = await matches("javascript", "switch ($X) { $$$C }", js);
  assert.equal(switches.compiled.root.type, "switch_statement", "not a method named switch");
  assert.deepEqual(switches.found.map((f) => [f.line, f.bindings["X"]]), [[1, "k"]]);
  // Go reads a `switch` only inside a function body, where `$$$C` among its cases is such an ERROR.
  const go = "package p\nfunc f(k int) {\n\tswitch k {\n\tcase 1:\n\t\tg()\n\t}\n}\n";
  const goSwitches = await matches("go", "switch $X { $$$C }", go);
  assert.equal(goSwitches.compiled.root.type, "expression_switch_statement");
  assert.deepEqual(goSwitches.found.map((f) => [f.line, f.bindings["X"]]), [[3, "k"]]);
  const py = "@property\ndef a(self): pass\n\n@functools.cache\ndef b(): pass\n";
  const decorators = await matches("python", "@$D", py);
  assert.equal(decorators.compiled.root.type, "decorator");
  assert.deepEqual(decorators.found.map((f) => f.bindings["D"]), ["property", "functools.cache"]);
});

Deno.test("compilePattern() spells $$$P as a typed parameter and $$$B as a statement for Java and C#", async () => {
  const java = await matches(
    "java",
    "public NativeSafeAreaContextSpec($$$P) { $$$B }",
    fixture("NativeSafeAreaContextSpec.java"),
  );
  assert.equal(java.compiled.root.type, "constructor_declaration");
  assert.deepEqual(java.found.map((f) => f.bindings), [{
    P: "ReactApplicationContext reactContext",
    B: "super(reactContext);",
  }]);
  const ifs = await matches("java", "if ($C) { $$$B }", fixture("NativeSafeAreaContextSpec.java"));
  assert.deepEqual(ifs.found.map((f) => f.line), [37, 43, 49]);
  const cs = await matches(
    "c_sharp",
    "public static void $M($$$P) { $$$B }",
    fixture("Find-VisualStudio.cs"),
  );
  assert.equal(cs.compiled.root.type, "method_declaration");
  assert.ok(cs.found.length >= 1);
  const each = await matches("c_sharp", "foreach ($T $X in $E) { $$$B }", fixture("Find-VisualStudio.cs"));
  assert.deepEqual(each.found.map((f) => [f.bindings["T"], f.bindings["X"]]), [[
    "ISetupPackageReference",
    "package",
  ]]);
});

Deno.test("compilePattern() spells $$$P as a `name: Type` parameter for Kotlin and Scala", async () => {
  const kt = Deno.readTextFileSync(fixtureUrl("symbols", "SafeAreaView.kt"));
  const all = await matches("kotlin", "fun $F($$$P) { $$$B }", kt);
  assert.equal(all.compiled.root.type, "function_declaration");
  // no modifiers and no return type in the pattern: `private fun` and `fun f(): T` are other shapes
  assert.deepEqual(all.found.map((f) => f.bindings["F"]), [
    "setStateWrapper",
    "setMode",
    "setEdges",
    "setCornerAdaptation",
  ]);
  const set = all.found.find((f) => f.bindings["F"] === "setMode")!;
  assert.equal(set.bindings["P"], "mode: SafeAreaViewMode");
  // a typed parameter before $$$P: only functions with at least one parameter
  const typed = await matches("kotlin", "override fun $F($A: WindowInsets, $$$P): WindowInsets { $$$B }", kt);
  assert.deepEqual(typed.found.map((f) => [f.bindings["F"], f.bindings["A"], f.bindings["P"]]), [[
    "dispatchApplyWindowInsets",
    "insets",
    "",
  ]]);
  const scala = Deno.readTextFileSync(fixtureUrl("symbols", "PathResolver.scala"));
  const defs = await matches("scala", "def $F($$$P): String = { $$$B }", scala);
  assert.equal(defs.compiled.root.type, "function_definition");
  assert.ok(
    defs.found.some((f) => f.bindings["F"] === "mkLines" && f.bindings["P"]!.startsWith("header: String")),
  );
});

Deno.test("several $$$ lists over a long list end in a refusal, not a hang; the same lists over a short one match", async () => {
  const long = `f(${Array.from({ length: 3000 }, (_, i) => i % 10).join(", ")});\n`;
  const started = performance.now();
  await assert.rejects(
    () => matches("javascript", "f($$$A, 1, $$$B, 2, $$$C, 3, $$$D, $X, $X)", long),
    (err) =>
      err instanceof RecoverableError && err.code === "limit_exceeded" &&
      /at line 1: its \$\$\$ lists/.test(err.message) &&
      err.details?.["items"] === 6001,
  );
  // The steps are counted, not timed: the refusal is the same on any machine (and it comes in seconds).
  assert.ok(performance.now() - started < 60_000);
  const short = await matches(
    "javascript",
    "f($$$A, 1, $$$B, 2, $$$C, 3, $$$D, $X, $X)",
    "f(0, 1, 5, 2, 3, 7, 7);\n",
  );
  assert.deepEqual(short.found.map((f) => f.bindings), [{ A: "0", B: "5", C: "", D: "", X: "7" }]);
});

Deno.test("one $$$ before a fixed tail scans a long list once: [$$$A] over an array of 300,000 items matches", async () => {
  // Each length of the run was copied out before it was tried: the square of the list's length, no answer.
  const items = Array.from({ length: 300_000 }, (_, i) => i);
  const text = `const x = [${items.join(",")}];\n`;
  const { found } = await matches("javascript", "[$$$A]", text);
  assert.equal(found.length, 1);
  assert.equal(found[0]!.bindings["A"], items.join(","));
  const tail = await matches("javascript", "[$$$A, 299999]", text);
  assert.equal(tail.found[0]!.bindings["A"], items.slice(0, -1).join(","));
});

Deno.test("smart strictness notes the code it passes over after the pattern's end (a tail), not a `;` alone", async () => {
  const parser = await GRAMMARS.parser("javascript");
  const text = "function f(a) {\n  if (a) return 1;\n  else if (b) return 2;\n  if (c) return 3;\n}\n";
  const tree = parser.parse(text)!;
  const smart = { ...compilePattern(parser, "javascript", "if ($C) return $X;"), smart: true };
  const found = matchPattern(smart, tree.rootNode, { text }).map((
    m,
  ) => [m.node.startPosition.row + 1, m.tail]);
  const tail = { start: text.indexOf("else"), end: text.indexOf("2;") + 2 };
  assert.deepEqual(found, [
    [2, [{ kind: "else_clause", ...tail }]],
    [3, undefined],
    [4, undefined],
  ]);
  // `return $X` passes over the `;` of `return 1;`: punctuation, not code a rewrite would lose.
  const bare = { ...compilePattern(parser, "javascript", "return $X"), smart: true };
  assert.ok(matchPattern(bare, tree.rootNode, { text }).every((m) => m.tail === undefined));
  // Exact matching (a node edit's) passes nothing over: the `if` with an `else` does not match at all.
  const exact = compilePattern(parser, "javascript", "if ($C) return $X;");
  assert.deepEqual(matchPattern(exact, tree.rootNode, { text }).map((m) => m.node.startPosition.row + 1), [
    3,
    4,
  ]);
  tree.delete();
  parser.delete();
});
