/**
 * search_structural equals ast-grep: for a table of patterns in TypeScript, JavaScript, Python, Go and Rust
 * on real code no one here wrote — hono's published package (node_modules/hono/dist: `.js`, and `.d.ts`
 * under types/), CPython's `email` package, go-cmp and the semver and smallvec crates from Debian's packages —
 * graver's set of matches (path, start line, start column) equals `ast-grep run -p P --lang L --json`'s on
 * the same tree. Where they differ by design, the row says so and checks the difference exactly:
 *
 * - Go's `fmt.Sprintf($$$A)`: ast-grep's `run -p` reads a lone `pkg.F(x)` as a type conversion and finds
 *   nothing (its FAQ says to give a context); graver tries the pattern inside a function body first. The
 *   oracle is then ast-grep's own recommended rule (`context` + `selector`), run with `ast-grep scan`.
 * - Python's `def $F(self, $$$P): $$$B`: graver lets the comma next to `$$$P` go when `$$$P` is empty, so
 *   methods of `self` alone match too; ast-grep requires the comma. Every extra is such a method.
 *
 * The rule rows (`kind`, `regex`, `nthChild`, `matches` of `utils`, a pattern object (`context` and `selector`), `inside`/`has`/`precedes`/`follows` with `stopBy`,
 * `inside`/`has` with a `field`, `all`/`any`/`not`,
 * `constraints`) equal ast-grep's `scan --inline-rules` of the same rule object (its `constraints` put beside
 * the rule, where ast-grep's YAML has them).
 *
 * And a rewrite: the same single-line rewrite through graver (edit_rewrite_structural) and through
 * `ast-grep run -p P -r R -U` on two copies of a tree gives byte-identical files.
 *
 * ast-grep comes from the `@ast-grep/cli` npm package (tools/, installed by scripts/install_runtimes.ts);
 * without it the test is skipped with the reason printed, and so is a language whose tree is absent.
 */
import assert from "node:assert/strict";
import { createWorkspace } from "../../../src/mod.ts";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import {
  astGrepPath,
  astGrepRuleSet,
  astGrepSet,
  graverSet,
  type SgCase,
  sgTrees as trees,
} from "./_astgrep.ts";

interface Row extends SgCase {
  /** The tree's name in {@linkcode trees}. */
  tree: string;
  /** An ast-grep YAML rule that is the oracle instead of `run -p` (see the module's doc). */
  oracle?: string;
  /** Matches graver finds beyond ast-grep's, by design: each must pass this test of its line's text. */
  extra?: { why: string; line: RegExp };
}

const TABLE: Row[] = [
  // JavaScript: hono's package.
  { tree: "hono", lang: "js", name: "a call with a literal receiver", pattern: "c.req.header($A)" },
  { tree: "hono", lang: "js", name: "new with any arguments", pattern: "new Response($$$A)" },
  { tree: "hono", lang: "js", name: "if with a block (an else may follow)", pattern: "if ($C) { $$$B }" },
  { tree: "hono", lang: "js", name: "return (its ; skipped)", pattern: "return $X" },
  { tree: "hono", lang: "js", name: "functions, async ones too", pattern: "function $F($$$P) { $$$B }" },
  { tree: "hono", lang: "js", name: "await of anything", pattern: "await $X" },
  { tree: "hono", lang: "js", name: "a method call on any receiver", pattern: "$A.then($B)" },
  { tree: "hono", lang: "js", name: "destructuring", pattern: "const { $$$A } = $B" },
  { tree: "hono", lang: "js", name: "throw new Error", pattern: "throw new Error($M)" },
  { tree: "hono", lang: "js", name: "export lists", pattern: "export { $$$E }" },
  // `$$$C` where the grammar takes only cases: an ERROR holding the metavariable alone, which stands for it.
  {
    tree: "hono",
    lang: "js",
    name: "switch statements (not a method named switch)",
    pattern: "switch ($X) { $$$C }",
  },
  // TypeScript: hono's declaration files.
  { tree: "hono_types", lang: "ts", name: "declared constants", pattern: "export declare const $N: $T;" },
  { tree: "hono_types", lang: "ts", name: "interfaces", pattern: "interface $I { $$$B }" },
  { tree: "hono_types", lang: "ts", name: "type aliases", pattern: "export type $T = $V;" },
  { tree: "hono_types", lang: "ts", name: "declared classes", pattern: "declare class $C { $$$B }" },
  // Python: CPython's email package.
  { tree: "email", lang: "py", name: "attribute assignments", pattern: "self.$A = $B" },
  { tree: "email", lang: "py", name: "raise with arguments", pattern: "raise $E($$$A)" },
  { tree: "email", lang: "py", name: "a call with a literal argument", pattern: "isinstance($X, str)" },
  { tree: "email", lang: "py", name: "for loops", pattern: "for $V in $I: $$$B" },
  { tree: "email", lang: "py", name: "if blocks", pattern: "if $C: $$$B" },
  {
    tree: "email",
    lang: "py",
    name: "decorators (a decorator alone: no definition after it)",
    pattern: "@$D",
  },
  { tree: "email", lang: "py", name: "methods of self alone", pattern: "def $F(self): $$$B" },
  {
    tree: "email",
    lang: "py",
    name: "methods with self first",
    pattern: "def $F(self, $$$P): $$$B",
    extra: {
      why: "graver: the comma next to an empty $$$P is optional, so def f(self) matches too",
      line: /^\s*def \w+\(self\):/,
    },
  },
  // Go: go-cmp.
  {
    tree: "go_cmp",
    lang: "go",
    name: "methods with a receiver",
    pattern: "func ($R $T) $M($$$P) $RET { $$$B }",
  },
  { tree: "go_cmp", lang: "go", name: "range loops", pattern: "for $K, $V := range $X { $$$B }" },
  { tree: "go_cmp", lang: "go", name: "short declarations", pattern: "$X := $Y" },
  { tree: "go_cmp", lang: "go", name: "panic", pattern: "panic($M)" },
  { tree: "go_cmp", lang: "go", name: "functions with one result", pattern: "func $F($$$P) $R { $$$B }" },
  {
    tree: "go_cmp",
    lang: "go",
    name: "switch statements (read in a function body)",
    pattern: "switch $X { $$$C }",
  },
  {
    tree: "go_cmp",
    lang: "go",
    name: "a package function call (ast-grep's run -p finds none; its recommended rule is the oracle)",
    pattern: "fmt.Sprintf($$$A)",
    oracle:
      'id: sprintf\nlanguage: go\nrule:\n  pattern:\n    context: "func t() { fmt.Sprintf($$$A) }"\n    selector: call_expression',
  },
  // Rust: semver and smallvec.
  { tree: "smallvec", lang: "rs", name: "unsafe blocks", pattern: "unsafe { $$$B }" },
  { tree: "smallvec", lang: "rs", name: "a macro call", pattern: "assert_eq!($$$A)" },
  { tree: "smallvec", lang: "rs", name: "a method on anything", pattern: "$X.len()" },
  { tree: "smallvec", lang: "rs", name: "methods of &self", pattern: "fn $F(&self) -> $R { $$$B }" },
  { tree: "smallvec", lang: "rs", name: "let mut", pattern: "let mut $V = $E;" },
  { tree: "smallvec", lang: "rs", name: "a path call", pattern: "ptr::copy($$$A)" },
  { tree: "semver", lang: "rs", name: "Err(...)", pattern: "Err($E)" },
  { tree: "semver", lang: "rs", name: "return with ;", pattern: "return $X;" },
  // TypeScript written by hand: ajv's sources.
  {
    tree: "ajv",
    lang: "ts",
    name: "exported functions (`default` is not passed over, `async` is)",
    pattern: "export function $F($$$P): $R { $$$B }",
  },
  { tree: "ajv", lang: "ts", name: "calls on this", pattern: "this.$A($$$B)" },
  // Patterns the grammar reads only as one ERROR node: a node of any kind whose children match (ast-grep's).
  {
    tree: "ajv",
    lang: "ts",
    name: "imports from an unquoted $B (an ERROR pattern; `type` not passed over)",
    pattern: "import {$$$A} from $B",
  },
  {
    tree: "ajv",
    lang: "ts",
    name: "namespace imports (an ERROR pattern)",
    pattern: "import * as $N from $M",
  },
  {
    tree: "ajv",
    lang: "ts",
    name: "a node with $A ? $B first (an ERROR pattern: conditionals, optional fields)",
    pattern: "$A ? $B",
  },
  { tree: "ajv", lang: "ts", name: "optional chains", pattern: "$A?.$B" },
  // Rule objects (ast-grep runs them with `scan --inline-rules`).
  ...([
    ["hono", "js", "await in a loop", {
      pattern: "await $X",
      inside: { kind: "for_statement", stopBy: "end" },
    }],
    ["hono", "js", "kind and regex", { kind: "call_expression", regex: "^console\\." }],
    ["hono", "js", "has, to the end", {
      kind: "function_declaration",
      has: { pattern: "throw $E", stopBy: "end" },
    }],
    ["go_cmp", "go", "a pattern object: a call read in a function body (context and selector)", {
      pattern: { context: "func t() { fmt.Sprintf($$$A) }", selector: "call_expression" },
    }],
    ["ajv", "ts", "a pattern object: readonly class fields (no string pattern reads one)", {
      pattern: { context: "class A { readonly $F: $T }", selector: "public_field_definition" },
    }],
    ["ajv", "ts", "has a comment below (comments are nodes a relation sees)", {
      kind: "function_declaration",
      has: { kind: "comment", regex: "^//", stopBy: "end" },
    }],
    ["hono", "js", "all and not", {
      all: [{ kind: "if_statement" }, { not: { has: { kind: "else_clause" } } }],
    }],
    ["hono", "js", "any of two patterns", {
      any: [{ pattern: "new Error($M)" }, { pattern: "new TypeError($M)" }],
    }],
    ["hono", "js", "inside, one level", { kind: "arrow_function", inside: { kind: "arguments" } }],
    ["hono", "js", "a pattern with has", {
      pattern: "$A.$B($$$C)",
      has: { kind: "arrow_function", stopBy: "end" },
    }],
    ["email", "py", "assignments in __init__", {
      pattern: "self.$A = $B",
      inside: {
        kind: "function_definition",
        stopBy: "end",
        has: { kind: "identifier", regex: "^__init__$" },
      },
    }],
    ["email", "py", "functions that never return", {
      kind: "function_definition",
      not: { has: { kind: "block", has: { kind: "return_statement", stopBy: "end" } } },
    }],
    ["smallvec", "rs", "unsafe in push or insert", {
      kind: "unsafe_block",
      inside: { kind: "function_item", stopBy: "end", has: { kind: "identifier", regex: "^(push|insert)$" } },
    }],
    ["smallvec", "rs", "any of two methods", {
      any: [{ pattern: "$X.len()" }, { pattern: "$X.capacity()" }],
    }],
    ["go_cmp", "go", "if with a return anywhere", {
      kind: "if_statement",
      has: { kind: "return_statement", stopBy: "end" },
    }],
    ["hono", "js", "precedes: a statement just before a return", {
      kind: "expression_statement",
      precedes: { kind: "return_statement" },
    }],
    ["hono", "js", "follows, to the end", {
      pattern: "return $X",
      follows: { pattern: "const $A = $B", stopBy: "end" },
    }],
    ["hono", "js", "precedes, up to a stopBy rule", {
      kind: "lexical_declaration",
      precedes: { pattern: "return $X", stopBy: { kind: "if_statement" } },
    }],
    ["hono", "js", "constraints: a method name", {
      pattern: "$O.$M($$$A)",
      constraints: { M: { regex: "^(get|set)$" } },
    }],
    ["hono", "js", "constraints: kind and regex", {
      pattern: "new $C($$$A)",
      constraints: { C: { kind: "identifier", regex: "Error$" } },
    }],
    ["email", "py", "follows: a return right after an if", {
      kind: "return_statement",
      follows: { kind: "if_statement" },
    }],
    ["email", "py", "constraints: a called name", {
      pattern: "$F($$$A)",
      constraints: { F: { regex: "^isinstance$" } },
    }],
    ["go_cmp", "go", "follows an if, to the end", {
      kind: "return_statement",
      follows: { kind: "if_statement", stopBy: "end" },
    }],
    ["smallvec", "rs", "precedes: a let before an expression", {
      kind: "let_declaration",
      precedes: { kind: "expression_statement" },
    }],
    ["go_cmp", "go", "panics in functions", {
      kind: "call_expression",
      regex: "^panic\\(",
      inside: { kind: "function_declaration", stopBy: "end" },
    }],
    // A relation's field: the target in that field of the enclosing node (inside), the field's node (has).
    ["hono", "js", "inside a field: calls in an if's condition", {
      kind: "call_expression",
      inside: { kind: "if_statement", field: "condition", stopBy: "end" },
    }],
    ["hono", "js", "inside a field, one level: calls an arrow function returns", {
      kind: "call_expression",
      inside: { kind: "arrow_function", field: "body" },
    }],
    ["hono", "js", "has a field: ifs whose consequence throws", {
      kind: "if_statement",
      has: { field: "consequence", pattern: "throw $E", stopBy: "end" },
    }],
    ["email", "py", "inside a field: calls in a while loop's condition", {
      kind: "call",
      inside: { kind: "while_statement", field: "condition", stopBy: "end" },
    }],
    ["go_cmp", "go", "inside a field: returns in an if's alternative", {
      kind: "return_statement",
      inside: { kind: "if_statement", field: "alternative", stopBy: "end" },
    }],
    // Utility rules: matches names a rule of the top's utils (ast-grep's config has utils beside the rule).
    ["hono", "js", "matches: calls with an arrow function argument, by a utility rule", {
      kind: "call_expression",
      has: { kind: "arguments", has: { matches: "callback" } },
      utils: { callback: { any: [{ kind: "arrow_function" }, { kind: "function_expression" }] } },
    }],
    ["email", "py", "matches: one utility naming another", {
      matches: "self-call",
      utils: {
        "self-call": { kind: "call", has: { matches: "self-attribute" } },
        "self-attribute": { kind: "attribute", regex: "^self\\." },
      },
    }],
    // Where a node stands among its parent's named children (nthChild: a number, CSS's An+B, an object).
    ["hono", "js", "nthChild: callbacks passed first", {
      kind: "arrow_function",
      nthChild: 1,
      inside: { kind: "arguments" },
    }],
    ["email", "py", "nthChild from the end: a call's last argument when it is a string", {
      kind: "string",
      nthChild: { position: 1, reverse: true },
      inside: { kind: "argument_list" },
    }],
    ["go_cmp", "go", "nthChild An+B of a rule's siblings: every other case clause", {
      kind: "expression_case",
      nthChild: { position: "2n+1", ofRule: { kind: "expression_case" } },
    }],
    ["smallvec", "rs", "has a field, one level: functions returning an Option", {
      kind: "function_item",
      has: { field: "return_type", kind: "generic_type", regex: "^Option<" },
    }],
  ] as [string, string, string, Record<string, unknown>][]).map(([tree, lang, name, rule]) => ({
    tree,
    lang,
    name: `rule: ${name}`,
    pattern: "",
    rule,
  })),
];

const bin = await astGrepPath();
if (bin === null) {
  console.log(
    "astgrep_equality_test: skipped, ast-grep is not installed (deno run -A scripts/install_runtimes.ts installs @ast-grep/cli into tools/)",
  );
}

/** The text of a `path:line:column` entry's line. */
async function lineOf(root: string, entry: string): Promise<string> {
  const [, path, line] = /^(.*):(\d+):\d+$/.exec(entry)!;
  return (await Deno.readTextFile(`${root}/${path}`)).split("\n")[Number(line) - 1] ?? "";
}

Deno.test({
  name: "search_structural's matches equal ast-grep's on real trees in five languages",
  ignore: bin === null,
  async fn(t) {
    const where = await trees();
    for (const [name, root] of Object.entries(where)) {
      if (root === null) {
        console.log(`astgrep_equality_test: the ${name} tree is not installed: its rows are skipped`);
      }
    }
    for (const row of TABLE) {
      const root = where[row.tree];
      if (!root) continue;
      await t.step(
        `${row.lang}: ${row.name} — ${row.rule ? JSON.stringify(row.rule) : row.pattern}`,
        async () => {
          const theirs = row.oracle
            ? await astGrepRuleSet(bin!, root, row.oracle)
            : await astGrepSet(bin!, root, row);
          const ours = await graverSet(root, row);
          assert.ok(theirs.size > 0, "a row must find something");
          const missing = [...theirs].filter((m) => !ours.has(m));
          assert.deepEqual(missing, [], "every ast-grep match is graver's");
          const extra = [...ours].filter((m) => !theirs.has(m));
          if (!row.extra) assert.deepEqual(extra, [], "graver finds nothing more");
          else {
            assert.ok(extra.length > 0, `the row documents a difference: ${row.extra.why}`);
            for (const m of extra) {
              assert.match(await lineOf(root, m), row.extra.line, `${m}: ${row.extra.why}`);
            }
          }
        },
      );
    }
  },
});

/** Copy a tree (files only, hidden ones too). */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(`${from}/${e.name}`, `${to}/${e.name}`);
    else if (e.isFile) await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

/** Every file of a tree, by relative path. */
async function filesOf(root: string, prefix = ""): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(`${root}/${prefix}`)) {
    const rel = `${prefix}${e.name}`;
    if (e.isDirectory) { for (const [k, v] of await filesOf(root, `${rel}/`)) out.set(k, v); }
    else if (e.isFile) out.set(rel, await Deno.readTextFile(`${root}/${rel}`));
  }
  return out;
}

/**
 * `keepsLayout`: a known difference. Where the template writes a metavariable between the same tokens as the
 * pattern (`Error($M)` → `TypeError($M)`), graver keeps the source's line breaks and spaces inside them; ast-grep
 * writes the template's. Each differing file is ast-grep's but for whitespace, and keeps the original's lines.
 *
 * `keepsSemicolon`: a known difference. The pattern and the template leave out the statement's `;`; ast-grep
 * replaces the whole statement, `;` and all, and graver keeps the `;`: each changed line of graver's is
 * ast-grep's with one `;` more.
 */
const REWRITES: {
  tree: string;
  lang: string;
  pattern: string;
  rewrite: string;
  keepsSemicolon?: true;
  keepsLayout?: true;
}[] = [
  { tree: "hono", lang: "js", pattern: "c.req.header($A)", rewrite: "c.req.headerValue($A)" },
  {
    tree: "hono",
    lang: "js",
    pattern: "throw new Error($M)",
    rewrite: "throw fail($M)",
    keepsSemicolon: true,
  },
  { tree: "email", lang: "py", pattern: "isinstance($X, str)", rewrite: "is_text($X)" },
  { tree: "go_cmp", lang: "go", pattern: "panic($M)", rewrite: "fail($M)" },
  {
    tree: "ajv",
    lang: "ts",
    pattern: "throw new Error($M)",
    rewrite: "throw new TypeError($M)",
    keepsLayout: true,
  },
];

/** Each differing file is ast-grep's but for whitespace, with the original's line count; there is one. */
function assertLayoutKept(
  paths: string[],
  files: { ours: Map<string, string>; theirs: Map<string, string>; original: Map<string, string> },
): void {
  assert.ok(paths.length > 0, "the two differ where a match spans lines");
  const squeezed = (text: string) => text.replace(/\s+/g, "");
  const lines = (text: string) => text.split("\n").length;
  for (const path of paths) {
    assert.equal(squeezed(files.ours.get(path)!), squeezed(files.theirs.get(path)!), path);
    assert.equal(lines(files.ours.get(path)!), lines(files.original.get(path)!), path);
    assert.ok(lines(files.theirs.get(path)!) < lines(files.original.get(path)!), path);
  }
}

/** Each of the files' differing lines is ast-grep's with one `;` put in, and there is at least one. */
function assertOneSemicolonMore(
  paths: string[],
  files: { ours: Map<string, string>; theirs: Map<string, string> },
): void {
  assert.ok(paths.length > 0, "the two differ where ast-grep took the `;` away");
  for (const path of paths) {
    const ours = files.ours.get(path)!.split("\n");
    const theirs = files.theirs.get(path)!.split("\n");
    assert.equal(ours.length, theirs.length, path);
    ours.forEach((line, i) => {
      if (line === theirs[i]) return;
      const at = [...line].findIndex((c, j) =>
        c === ";" && line.slice(0, j) + line.slice(j + 1) === theirs[i]
      );
      assert.ok(at >= 0, `${path}:${i + 1}: ${line} / ${theirs[i]}`);
    });
  }
}

Deno.test({
  name: "a single-line rewrite through graver equals ast-grep -U's, file for file",
  ignore: bin === null,
  async fn(t) {
    const where = await trees();
    for (const r of REWRITES) {
      const root = where[r.tree];
      if (!root) continue;
      await t.step(`${r.lang}: ${r.pattern} -> ${r.rewrite}`, async () => {
        const dir = await Deno.makeTempDir({ prefix: "graver-sg-" });
        try {
          await copyTree(root, `${dir}/theirs`);
          await copyTree(root, `${dir}/ours`);
          const out = await new Deno.Command(bin!, {
            args: ["run", "-p", r.pattern, "-r", r.rewrite, "--lang", r.lang, "-U", "."],
            cwd: `${dir}/theirs`,
            stdout: "null",
            stderr: "piped",
          }).output();
          assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
          const ws = await createWorkspace({
            backend: createDiskBackend(),
            root: `${dir}/ours`,
            wasm: createWasmLoader(),
          });
          const res = await ws.call("edit_rewrite_structural", {
            pattern: r.pattern,
            rewrite: r.rewrite,
            language: r.lang,
          });
          assert.ok(res.ok, JSON.stringify(res).slice(0, 800));
          const theirs = await filesOf(`${dir}/theirs`);
          const ours = await filesOf(`${dir}/ours`);
          const differing = [...theirs].filter(([path, text]) => ours.get(path) !== text).map(([p]) => p);
          const original = await filesOf(root);
          if (r.keepsSemicolon) assertOneSemicolonMore(differing, { ours, theirs });
          else if (r.keepsLayout) assertLayoutKept(differing, { ours, theirs, original });
          else assert.deepEqual(differing, [], "every file is byte-identical");
          assert.ok(
            [...theirs].some(([p, text]) => original.get(p) !== text),
            "the rewrite changed something",
          );
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });
    }
  },
});

/** The JSON rows: a pattern and a rewrite (ast-grep shows replacements with `-r` and no `-U`). */
const JSON_ROWS: { tree: string; lang: string; pattern: string; rewrite?: string }[] = [
  { tree: "hono", lang: "js", pattern: "c.req.header($A)" },
  { tree: "hono", lang: "js", pattern: "new Response($$$A)", rewrite: "Response.from($$$A)" },
  { tree: "hono", lang: "js", pattern: "throw new Error($M)" },
  { tree: "hono_types", lang: "ts", pattern: "export declare const $N: $T;" },
  { tree: "email", lang: "py", pattern: "raise $E($$$A)" },
  { tree: "email", lang: "py", pattern: "isinstance($X, str)", rewrite: "is_text($X)" },
  { tree: "go_cmp", lang: "go", pattern: "panic($M)" },
  { tree: "smallvec", lang: "rs", pattern: "assert_eq!($$$A)" },
  { tree: "semver", lang: "rs", pattern: "Err($E)" },
];

/** A match's place, to sort both answers the same way (ast-grep prints files in no fixed order). */
const placeOf = (m: { file: string; range: { byteOffset: { start: number } } }) =>
  `${m.file.replace(/^\.\//, "")}\0${String(m.range.byteOffset.start).padStart(10, "0")}`;

Deno.test({
  name: 'search_structural with output_format "ast-grep" answers exactly what ast-grep run --json prints',
  ignore: bin === null,
  async fn(t) {
    const where = await trees();
    for (const row of JSON_ROWS) {
      const root = where[row.tree];
      if (!root) continue;
      await t.step(`${row.lang}: ${row.pattern}${row.rewrite ? ` -r ${row.rewrite}` : ""}`, async () => {
        const args = ["run", "-p", row.pattern, "--lang", row.lang, "--json=compact", "."];
        if (row.rewrite) args.splice(3, 0, "-r", row.rewrite);
        const out = await new Deno.Command(bin!, { args, cwd: root, stdout: "piped", stderr: "piped" })
          .output();
        assert.ok(out.code <= 1, new TextDecoder().decode(out.stderr));
        const theirs = (JSON.parse(new TextDecoder().decode(out.stdout)) as { file: string }[])
          .map((m) => ({ ...m, file: m.file.replace(/^\.\//, "") }));
        // Every string whole: the default result budget (100,000 characters) would cut the longest.
        const ws = await createWorkspace({
          backend: createDiskBackend(),
          root,
          wasm: createWasmLoader(),
          resultChars: 1e9,
        });
        const res = await ws.call("search_structural", {
          pattern: row.pattern,
          language: row.lang,
          output_format: "ast-grep",
          max_results: 100_000,
          max_chars: 1e9,
          ...(row.rewrite ? { rewrite: row.rewrite } : {}),
        });
        assert.ok(res.ok, JSON.stringify(res).slice(0, 800));
        const ours = res.data["ast_grep"] as typeof theirs;
        assert.ok(theirs.length > 0, "a row must find something");
        const sort = (ms: typeof theirs) =>
          [...ms].sort((a, b) => placeOf(a as never) < placeOf(b as never) ? -1 : 1);
        assert.deepEqual(sort(ours), sort(theirs));
      });
    }
  },
});
