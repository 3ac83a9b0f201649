/**
 * The token-run test of a structural search: which runs a pattern has, what may stand between two of their
 * tokens, and that it never turns away a file the matcher matches — on adversarial texts, and over real trees
 * no one here wrote (hono's published package and its declaration files, CPython's `email` package, go-cmp,
 * and the semver and smallvec crates from Debian's packages): for a table of patterns, for rules, and for
 * patterns taken from those trees' own code, every file that holds the pattern's texts but not its runs has
 * no match.
 */
import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { createMemoryBackend, createWorkspace, type Workspace } from "../../../../src/mod.ts";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { RecoverableError } from "../../../../src/errors.ts";
import { profileOf } from "../../../../src/languages/profiles.ts";
import { compilePattern } from "../../../../src/structural/edit/pattern.ts";
import { patternMatcherOf } from "../../../../src/structural/search/mod.ts";
import {
  MAX_GAP,
  mayHoldRun,
  type RunLexicon,
  tokenRuns,
  unnamedTokenWords,
} from "../../../../src/structural/search/token_runs.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });

async function runsOf(language: string, pattern: string): Promise<string[][]> {
  const parser = await ws.grammars!.parser(language);
  const { textNodes, closedNodes } = profileOf(language);
  try {
    return tokenRuns(compilePattern(parser, language, pattern).root, {
      textNodes: new Set(textNodes),
      closedNodes,
    });
  } finally {
    parser.delete();
  }
}

Deno.test("tokenRuns: adjacent tokens, broken at metavariables, optional separators and the end of a node", async () => {
  // A member expression ends at its property in any code (a closed node): the run goes on past it.
  assert.deepEqual(await runsOf("javascript", "c.req.header($A)"), [["c", ".", "req", ".", "header", "("]]);
  // Python's attribute is not closed (its object may be an identifier too): the run stops at its end.
  assert.deepEqual(await runsOf("python", "self.foo($X)"), [["self", ".", "foo"]]);
  assert.deepEqual(await runsOf("javascript", "new Response($$$A)"), [["new", "Response", "("]]);
  assert.deepEqual(await runsOf("javascript", "throw new Error($M)"), [["throw", "new", "Error", "("]]);
  assert.deepEqual(await runsOf("javascript", "return $X"), []);
  assert.deepEqual(await runsOf("javascript", "$A && $A"), []);
  // The comma next to `$$$B` may be left out: the run stops before it.
  assert.deepEqual(await runsOf("javascript", "f(a, $$$B)"), [["f", "(", "a"]]);
  // `new Foo` matches `new Foo(x)`: the identifier ends the node, so `+` is not in its run.
  assert.deepEqual(await runsOf("javascript", "new Foo + 1"), [["new", "Foo"], ["+", "1"]]);
  // A comment in the pattern is text between two tokens: no run across it.
  assert.deepEqual(await runsOf("javascript", "foo(/* x */ 1)"), [["foo", "("], ["1", ")"]]);
  assert.deepEqual(await runsOf("python", "def foo(self): $$$B"), [["def", "foo", "(", "self", ")", ":"]]);
  assert.deepEqual(await runsOf("go", "fmt.Println($$$A)"), [["fmt", ".", "Println", "("]]);
  assert.deepEqual(await runsOf("rust", "self.len()"), [["self", ".", "len", "(", ")"]]);
});

Deno.test("unnamedTokenWords: the keywords of a grammar, not its identifiers", async () => {
  const parser = await ws.grammars!.parser("javascript");
  try {
    const words = unnamedTokenWords(parser.language!);
    for (const w of ["async", "new", "static", "get", "typeof"]) assert.ok(words.has(w), w);
    for (const w of ["Response", "header", "req"]) assert.ok(!words.has(w), w);
  } finally {
    parser.delete();
  }
});

Deno.test("mayHoldRun: what may stand between two tokens, and where the test gives up", () => {
  const lexicon: RunLexicon = { keywords: new Set(["async", "await"]), commentStarts: ["//", "/*"] };
  const holds = (text: string, run: string[]) => mayHoldRun(text, run, lexicon);
  const run = ["c", ".", "req"];
  assert.ok(holds("x = c.req;", run));
  assert.ok(holds("x = c\n  .req;", run)); // layout
  assert.ok(holds("x = c?.req;", run)); // punctuation
  assert.ok(holds("x = c /* why */ .req;", run)); // a comment: the test gives up
  assert.ok(holds("x = c // why\n.req;", run));
  assert.ok(holds("x = c async . await req;", run)); // keywords
  assert.ok(!holds("x = c.res; y.req;", run)); // a word that is no keyword between
  assert.ok(!holds("x = cc.req;".replace("cc.req", "c.x.req"), run));
  assert.ok(!holds("const c = 1; req.header();", run));
  assert.ok(!holds("c", run)); // the text ends
  // A token glued to a name is part of it: `c` in `abc`, `req` in `request`, `new` in `newResponse`.
  assert.ok(!holds("abc.req", run));
  assert.ok(!holds("c.request", run));
  assert.ok(!holds("x.newResponse(1)", ["new", "Response", "("]));
  assert.ok(holds("x = new Response(1)", ["new", "Response", "("]));
  // A number is not a name: Python reads `1if` as `1` and `if`.
  assert.ok(holds("x = 1if c else 2", ["1", "if"]));
  assert.ok(holds("x = 2if c else 1", ["if", "c"]));
  // A long gap: the test gives up rather than scan on.
  assert.ok(holds(`c${" ".repeat(MAX_GAP + 10)}x.req`, run));
  assert.ok(!holds(`c${" ".repeat(MAX_GAP - 10)}x.req`, run));
});

Deno.test("mayHoldRun: comments the profile says may be skipped are skipped to their end", () => {
  const lexicon: RunLexicon = {
    keywords: new Set(),
    commentStarts: ["//", "/*", "<!--"],
    skippable: { line: ["//"], block: [{ open: "/*", close: "*/" }] },
  };
  const holds = (text: string) => mayHoldRun(text, ["c", ".", "req"], lexicon);
  assert.ok(holds("c // a comment\n  .req"));
  assert.ok(holds("c /* a\n comment */ .req"));
  assert.ok(!holds("c // a comment\n x.req")); // a word after the comment
  assert.ok(!holds("c /* a */ x.req"));
  assert.ok(holds("c /* never closed x.req")); // gives up
  assert.ok(holds("c <!-- x\n x.req")); // not skippable: gives up
});

/** Every file under a folder with one of the extensions, as path and text. */
async function filesUnder(
  root: string,
  extensions: string[],
  under: readonly string[] = [""],
): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${root}/${dir}`)) {
      const rel = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory) await walk(rel);
      else if (e.isFile && extensions.some((x) => e.name.endsWith(x))) {
        out.push({ path: rel, text: await Deno.readTextFile(`${root}/${rel}`) });
      }
    }
  };
  for (const dir of under) await walk(dir);
  return out.sort((a, b) => a.path < b.path ? -1 : 1);
}

/** The files the run test turns away among those holding the pattern's texts, after checking each has no match. */
async function turnedAway(
  workspace: Workspace,
  files: { path: string; text: string }[],
  query: { language: string; pattern?: string; rule?: Record<string, unknown> },
): Promise<number> {
  const { language, ...compiled } = query;
  const program = await patternMatcherOf(workspace).compile(language, compiled);
  let away = 0;
  for (const file of files) {
    if (!program.literals.every((l) => file.text.includes(l))) continue;
    if (program.mayHold === undefined || program.mayHold(file.text)) continue;
    away++;
    const hits = await program.match({ ...file, version: file.path });
    assert.equal(
      hits.length,
      0,
      `${JSON.stringify(compiled)} matches ${file.path}, which the run test turns away`,
    );
  }
  return away;
}

Deno.test("the run test turns away no file the matcher matches: adversarial texts", async () => {
  // `hits`: the matches the matcher finds, so that a case that should match is seen to.
  const cases: { language: string; pattern: string; text: string; hits: number }[] = [
    {
      language: "javascript",
      pattern: "c.req.header($A)",
      text: "c /* a */ . req\n  // b\n  .header(x);\n",
      hits: 1,
    },
    { language: "javascript", pattern: "c.req.header($A)", text: "c.req.header(x,);\n", hits: 1 }, // a trailing comma
    { language: "javascript", pattern: "c.req.header($A)", text: "(c).req.header(x);\n", hits: 0 },
    { language: "javascript", pattern: "c.req.header($A)", text: "c.req?.header(x);\n", hits: 0 },
    { language: "javascript", pattern: "c.req.header($A)", text: "c\n.req\n.header\n(x);\n", hits: 1 },
    {
      language: "javascript",
      pattern: "export function foo() {}",
      text: "export async function foo() {}\n",
      hits: 1,
    },
    { language: "javascript", pattern: "new Foo + 1", text: "x = new Foo(a, b) + 1;\n", hits: 1 },
    {
      language: "javascript",
      pattern: "throw new Error($M)",
      text: "throw /* x */ new\nError('m');\n",
      hits: 1,
    },
    {
      language: "javascript",
      pattern: "throw new Error($M)",
      text: "throw new\n<!-- x\nError(m);\n",
      hits: 1,
    },
    { language: "typescript", pattern: "f<T>($A)", text: "f < T > (a);\n", hits: 1 },
    {
      language: "python",
      pattern: "def foo(self): $$$B",
      text: "def foo(  # c\n    self,\n): pass\n",
      hits: 1,
    },
    { language: "python", pattern: "x = 1 if $C else 2", text: "x = 1if c else 2\n", hits: 1 },
    { language: "python", pattern: 'f("\\n\\t")', text: 'f("\\nx\\t")\n', hits: 1 }, // text between escapes
    { language: "python", pattern: "a.b($X)", text: "a \\\n  .b(1)\n", hits: 1 },
    {
      language: "go",
      pattern: "fmt.Println($$$A)",
      text: "package p\nfunc f() { fmt. /* x */ Println(1) }\n",
      hits: 1,
    },
    // C: a `//` comment goes on past a line ending in `\`, a block comment does not nest, `\` joins lines.
    {
      language: "c",
      pattern: "lexer->advance(lexer, $S)",
      text: "void f() { lexer-> // a \\\n  still the comment\n  advance(lexer, true); }\n",
      hits: 1,
    },
    {
      language: "c",
      pattern: "lexer->advance(lexer, $S)",
      text: "void f() { lexer /* x /* y */ -> advance \\\n (lexer, 1); }\n",
      hits: 1,
    },
    { language: "c", pattern: "a->b($X)", text: 'void f() { g("a->b(1)"); }\n', hits: 0 },
    {
      language: "rust",
      pattern: "fn main() { $$$B }",
      text: "fn main /* a */ ( /* b */ ) { x(); }\n",
      hits: 1,
    },
    {
      language: "rust",
      pattern: "pub fn $F() {}",
      text: "pub(crate) fn f() {}\npub async fn g() {}\n",
      hits: 1,
    },
  ];
  for (const c of cases) {
    const program = await patternMatcherOf(ws).compile(c.language, { pattern: c.pattern });
    const hits = await program.match({ path: "a", text: c.text, version: c.text });
    const at = `${c.pattern} on ${JSON.stringify(c.text)}`;
    assert.equal(hits.length, c.hits, at);
    if (hits.length > 0) assert.ok(program.mayHold?.(c.text) ?? true, at);
  }
  // The one kind of match it turns away, by design: across a syntax error. tree-sitter makes the text it
  // cannot read an extra ERROR node, which the matcher (as ast-grep does) passes over like a comment; a run
  // that let any text stand where an error might be would let everything stand, and no longer narrow.
  const broken = "x = c.req foo .header(a);\n";
  const across = await patternMatcherOf(ws).compile("javascript", { pattern: "c.req.header($A)" });
  assert.equal((await across.match({ path: "b.js", text: broken, version: broken })).length, 1);
  assert.equal(across.mayHold!(broken), false);
  // And the test does turn away a file that only holds the texts apart.
  const program = await patternMatcherOf(ws).compile("javascript", { pattern: "c.req.header($A)" });
  assert.equal(program.mayHold!("const c = 1; req.raw; header(c);\n"), false);
});

const HONO = new URL("../../../../node_modules/hono/dist", import.meta.url).pathname;

/** The real trees (absent ones are skipped), and the patterns tried on each. */
async function realTrees(): Promise<
  { root: string; extensions: string[]; language: string; patterns: string[]; under?: string[] }[]
> {
  const py = await new Deno.Command("python3", {
    args: ["-c", "import email, os; print(os.path.dirname(email.__file__))"],
    stdout: "piped",
    stderr: "null",
  }).output().then((o) => o.code === 0 ? new TextDecoder().decode(o.stdout).trim() : "", () => "");
  const trees = [
    {
      root: HONO,
      extensions: [".js"],
      language: "javascript",
      patterns: [
        "c.req.header($A)",
        "new Response($$$A)",
        "throw new Error($M)",
        "function $F($$$P) { $$$B }",
        "export function $F($$$P) { $$$B }",
        "const { $$$A } = $B",
        "export { $$$E }",
        "await $X",
        "c.json($$$A)",
        "Object.keys($X)",
        "this.$A = $B",
        "if ($C) { return $X }",
        "new URL($A)",
        "headers.set($K, $V)",
        'typeof $X === "string"',
        "return new Response($$$A)",
        "async ($$$P) => { $$$B }",
        "for (const $X of $Y) { $$$B }",
      ],
    },
    {
      root: `${HONO}/types`,
      extensions: [".d.ts"],
      language: "typescript",
      patterns: [
        "export declare const $N: $T;",
        "interface $I { $$$B }",
        "export type $T = $V;",
        "declare class $C { $$$B }",
        "Promise<void>",
        "export declare function $F($$$P): $R;",
        "Promise<$T>",
      ],
    },
    {
      root: py,
      extensions: [".py"],
      language: "python",
      patterns: [
        "self.$A = $B",
        "raise $E($$$A)",
        "isinstance($X, str)",
        "def $F(self): $$$B",
        "def __init__(self, $$$P): $$$B",
        "return self.$A",
        "for $V in $I: $$$B",
        "if $C is None: $$$B",
        "raise TypeError($$$A)",
        "import $M",
      ],
    },
    {
      root: "/usr/share/gocode/src/github.com/google/go-cmp",
      extensions: [".go"],
      language: "go",
      patterns: [
        "fmt.Sprintf($$$A)",
        "panic($M)",
        "if err != nil { $$$B }",
        "reflect.ValueOf($X)",
        "func ($R $T) String() string { $$$B }",
        "for $K, $V := range $X { $$$B }",
        "t.Errorf($$$A)",
      ],
    },
    {
      // C written by hand: the external scanners of the grammar packages graver depends on (not their
      // generated parser.c), with the headers beside them.
      root: NODE_MODULES,
      under: await scannerFolders(),
      extensions: ["scanner.c", ".h"],
      language: "c",
      patterns: [
        "lexer->advance(lexer, $S)",
        "lexer->lookahead == $C",
        "if ($C) { $$$B }",
        "return $X;",
        "static $T $F($$$P) { $$$B }",
        "array_push($A, $B)",
        "while ($C) { $$$B }",
        "switch ($X) { $$$C }",
        "sizeof($T)",
        "$A->$B = $C;",
      ],
    },
    {
      // C++ written by hand: node-addon-api's headers (a dependency of the grammar packages).
      root: NODE_MODULES,
      under: await packageFolders("node-addon-api"),
      extensions: [".h"],
      language: "cpp",
      patterns: [
        "return $X;",
        "if ($C) { $$$B }",
        "NAPI_THROW_IF_FAILED($$$A)",
        "napi_status status = $X;",
        "static_cast<$T>($X)",
        "std::move($X)",
        "$A.Env()",
        "inline $T $C::$M($$$P) { $$$B }",
      ],
    },
    ...["semver-1.0.14", "smallvec-1.9.0"].map((crate) => ({
      root: `/usr/share/cargo/registry/${crate}`,
      extensions: [".rs"],
      language: "rust",
      patterns: [
        "unsafe { $$$B }",
        "assert_eq!($$$A)",
        "fn $F(&self) -> $R { $$$B }",
        "let mut $V = $E;",
        "ptr::copy($$$A)",
        "Err($E)",
        "pub fn $F($$$P) -> $R { $$$B }",
        "Ok(())",
        "Some($X)",
        "self.len()",
        "return $X;",
      ],
    })),
  ];
  const present = await Promise.all(
    trees.map((t) => Deno.stat(t.root).then((s) => s.isDirectory, () => false)),
  );
  return trees.filter((_, i) => present[i]);
}

Deno.test("the run test turns away no file the matcher matches: real trees", async () => {
  let away = 0;
  for (const tree of await realTrees()) {
    const files = await filesUnder(tree.root, tree.extensions, tree.under);
    const workspace = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
    for (const pattern of tree.patterns) {
      away += await turnedAway(workspace, files, { language: tree.language, pattern });
    }
  }
  // The test is not vacuous where hono is installed (it always is: it is one of graver's dependencies).
  assert.ok(away > 0, "the run test turned no file away");
});

Deno.test("the run test turns away no file a rule matches: the runs of the patterns every match needs", async () => {
  const files = await filesUnder(HONO, [".js"]);
  const workspace = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const rules: Record<string, unknown>[] = [
    { pattern: "await $X", inside: { kind: "for_statement", stopBy: "end" } },
    { kind: "throw_statement", has: { pattern: "new Error($M)", stopBy: "end" } },
    { kind: "function_declaration", has: { pattern: "c.req.header($A)", stopBy: "end" } },
    { all: [{ pattern: "c.json($$$A)" }, { inside: { pattern: "if ($C) { $$$B }", stopBy: "end" } }] },
    { any: [{ pattern: "new Response($$$A)" }, { pattern: "c.body($$$A)" }] },
    { pattern: "new Response($$$A)", not: { has: { pattern: "c.req.header($A)", stopBy: "end" } } },
  ];
  let away = 0;
  for (const rule of rules) {
    away += await turnedAway(workspace, files, { language: "javascript", rule });
  }
  assert.ok(away > 0, "the run test turned no file away");
});

/** Node types whose small instances in a tree make patterns for it (the tree's own code, as a pattern). */
const DERIVED_KINDS = new Set([
  "call_expression",
  "member_expression",
  "new_expression",
  "return_statement",
  "throw_statement",
  "binary_expression",
  "subscript_expression",
  "call",
  "attribute",
  "selector_expression",
  "field_expression",
  "macro_invocation",
  "generic_type",
  "property_signature",
  "type_alias_declaration",
]);

/**
 * Patterns taken from a tree's code: the one-line texts under 60 characters of nodes of {@linkcode
 * DERIVED_KINDS} in every fifth file, each as written and with its first argument list made `$$$A`.
 */
async function derivedPatterns(language: string, files: { text: string }[], most: number): Promise<string[]> {
  const parser = await ws.grammars!.parser(language);
  const out = new Set<string>();
  try {
    for (const [i, file] of files.entries()) {
      if (i % 5 !== 0 || out.size >= most) continue;
      const tree = parser.parse(file.text)!;
      const cursor = tree.walk();
      for (let more = true; more;) {
        const n = cursor.currentNode;
        if (DERIVED_KINDS.has(n.type) && n.text.length < 60 && !n.text.includes("\n") && !n.hasError) {
          out.add(n.text).add(n.text.replace(/\(([^()]*)\)/, "($$$$$$A)"));
        }
        if (cursor.gotoFirstChild()) continue;
        while (!(more = cursor.gotoNextSibling()) && cursor.gotoParent());
      }
      cursor.delete();
      tree.delete();
    }
  } finally {
    parser.delete();
  }
  return [...out].slice(0, most);
}

Deno.test("the run test turns away no file the matcher matches: patterns taken from the trees' own code", async () => {
  let away = 0;
  for (const tree of await realTrees()) {
    const files = await filesUnder(tree.root, tree.extensions, tree.under);
    const workspace = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
    for (const pattern of await derivedPatterns(tree.language, files, 300)) {
      try {
        away += await turnedAway(workspace, files, { language: tree.language, pattern });
      } catch (err) {
        // A text some code holds that does not parse alone as a pattern is refused: skip it.
        if (!(err instanceof RecoverableError) || err.code !== "invalid_query") throw err;
      }
    }
  }
  assert.ok(away > 1000, `the run test turned ${away} files away`);
});

/** Whether a text holds an ASCII letter, digit or `_`. */
const hasWord = (text: string) => /[A-Za-z0-9_]/.test(text);

/**
 * What a parsed file shows of the facts the run test takes from a profile: the text of each extra that holds
 * a word, the type of each node with a word in text its children do not cover, and each closed node with a
 * child of a type that should stand only last standing elsewhere.
 */
function wordsOutsideTokens(
  root: Node,
  file: { text: string; closed: Readonly<Record<string, readonly string[]>> },
): { extras: string[]; uncovered: Set<string>; unclosed: string[] } {
  const { text, closed } = file;
  const extras: string[] = [];
  const uncovered = new Set<string>();
  const unclosed: string[] = [];
  const visit = (n: Node) => {
    if (n.isExtra) {
      // Text the parser could not read (an ERROR, in headers full of macros) is the one exception the run
      // test states: a match across a syntax error (the adversarial test pins it).
      if (n.type !== "ERROR" && hasWord(n.text)) extras.push(n.text);
      return;
    }
    const kids = n.children.filter((k): k is Node => k !== null);
    const tokens = kids.filter((k) => !k.isExtra);
    tokens.slice(0, -1).forEach((k) => {
      if (closed[n.type]?.includes(k.type)) {
        unclosed.push(`${n.type} > ${k.type} at ${k.startPosition.row + 1}`);
      }
    });
    let at = n.startIndex;
    for (const k of kids) {
      if (hasWord(text.slice(at, k.startIndex))) uncovered.add(n.type);
      at = k.endIndex;
    }
    if (kids.length > 0 && hasWord(text.slice(at, n.endIndex))) uncovered.add(n.type);
    kids.forEach(visit);
  };
  visit(root);
  return { extras, uncovered, unclosed };
}

Deno.test("the real trees' extras open with their profile's comment starts; uncovered text is in its text nodes; closed nodes end so", async () => {
  let comments = 0;
  for (const tree of await realTrees()) {
    const { commentStarts, skippableComments, textNodes, closedNodes } = profileOf(tree.language);
    const parser = await ws.grammars!.parser(tree.language);
    try {
      for (const file of await filesUnder(tree.root, tree.extensions, tree.under)) {
        const parsed = parser.parse(file.text)!;
        const { extras, uncovered, unclosed } = wordsOutsideTokens(parsed.rootNode, {
          text: file.text,
          closed: closedNodes,
        });
        parsed.delete();
        assert.deepEqual(unclosed, [], file.path);
        comments += extras.length;
        for (const e of extras) {
          assert.ok(commentStarts!.some((s) => e.startsWith(s)), `${file.path}: ${e}`);
          // A skippable comment ends where the test skips to: a line comment at its line's end, a block
          // comment at its first close.
          const line = skippableComments.line.some((l) => e.startsWith(l));
          if (line) assert.ok(!e.replace(/\r?\n$/, "").includes("\n"), e); // Rust's takes its newline

          const block = skippableComments.block.find((b) => e.startsWith(b.open));
          if (block) {
            assert.equal(e.indexOf(block.close, block.open.length), e.length - block.close.length, e);
          }
        }
        for (const type of uncovered) assert.ok(textNodes.includes(type), `${file.path}: ${type}`);
      }
    } finally {
      parser.delete();
    }
  }
  assert.ok(comments > 0);
});

/** graver's npm packages, as `deno install` lays them out. */
const NODE_MODULES = new URL("../../../../node_modules/.deno", import.meta.url).pathname;

/** The grammar packages' source folders that hold an external scanner (relative to `NODE_MODULES`). */
async function scannerFolders(): Promise<string[]> {
  const out: string[] = [];
  const look = async (dir: string, depth: number): Promise<void> => {
    for await (const e of Deno.readDir(`${NODE_MODULES}/${dir}`)) {
      if (e.isFile && e.name === "scanner.c") out.push(dir);
      else if (e.isDirectory && depth > 0) await look(`${dir}/${e.name}`, depth - 1); // links (deps) not followed
    }
  };
  const packages = await Array.fromAsync(Deno.readDir(NODE_MODULES)).catch(() => []);
  for (const pkg of packages) {
    if (pkg.isDirectory && /^(tree-sitter-|@tree-sitter-grammars\+)/.test(pkg.name)) await look(pkg.name, 5);
  }
  return out.sort();
}

/** The folders of an npm package of that name, each version's (relative to `NODE_MODULES`). */
async function packageFolders(name: string): Promise<string[]> {
  const packages = await Array.fromAsync(Deno.readDir(NODE_MODULES)).catch(() => []);
  return packages.filter((p) => p.isDirectory && p.name.startsWith(`${name}@`))
    .map((p) => `${p.name}/node_modules/${name}`).sort();
}
