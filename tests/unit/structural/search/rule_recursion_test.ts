/**
 * Utility rules that name themselves through a relation (ast-grep's recursive rules): what they match on real
 * grammars and real files (compared with ast-grep where it is installed), that a rule which comes back to the
 * same node ends (ast-grep overflows its stack on it), and that a tree deeper than the recursion may go is
 * refused `limit_exceeded`, not a crash.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../../src/mod.ts";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { RecoverableError } from "../../../../src/errors.ts";
import { patternMatcherOf } from "../../../../src/structural/search/mod.ts";
import { MAX_UTILITY_DEPTH } from "../../../../src/structural/search/rule.ts";
import { inProcess, project, stripAnsi } from "../../surfaces/_cli.ts";
import { astGrepPath, runAstGrep } from "../../search/_astgrep.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const matcher = patternMatcherOf(ws);
let version = 0;

async function found(
  rule: Record<string, unknown>,
  text: string,
  language = "javascript",
): Promise<string[]> {
  const program = await matcher.compile(language, { rule });
  const sites = await program.match({ path: "r.js", text, version: `v${version++}` });
  return sites.map((s) => text.slice(s.start, s.end));
}

/** Arrays that hold a number at any depth: a utility rule that names itself inside has. */
const NESTED_NUMBER = {
  all: [{ kind: "array" }, { matches: "holds-number" }],
  utils: { "holds-number": { any: [{ kind: "number" }, { has: { matches: "holds-number" } }] } },
};

Deno.test("a utility rule that names itself inside has matches at every depth", async () => {
  const text = 'const x = [[1], [["a", [2]]], ["b"], []];\n';
  assert.deepEqual(await found(NESTED_NUMBER, text), [
    '[[1], [["a", [2]]], ["b"], []]',
    "[1]",
    '[["a", [2]]]',
    '["a", [2]]',
    "[2]",
  ]);
  // Through inside, up the tree: numbers with nothing but arrays between them and their statement.
  const onlyArraysUp = {
    all: [{ kind: "number" }, { matches: "up" }],
    utils: {
      up: {
        inside: { any: [{ kind: "expression_statement" }, { all: [{ kind: "array" }, { matches: "up" }] }] },
      },
    },
  };
  assert.deepEqual(await found(onlyArraysUp, "[[1], f([2]), 3];\n"), ["1", "3"]);
  // Binding through the recursion: the innermost call's argument.
  const program = await matcher.compile("javascript", {
    rule: {
      matches: "wraps",
      utils: {
        wraps: {
          any: [{ pattern: "wrap($X)", not: { has: { kind: "call_expression", stopBy: "end" } } }, {
            pattern: "wrap($$$)",
            has: { matches: "wraps", stopBy: "end" },
          }],
        },
      },
    },
  });
  const sites = await program.match({ path: "w.js", text: "wrap(wrap(wrap(1)));\n", version: "w1" });
  assert.equal(sites.length, 3);
  assert.ok(
    sites.every((s) => s.metavariables["X"]?.text === "1"),
    JSON.stringify(sites.map((s) => s.metavariables)),
  );
});

Deno.test("a cycle that stays at one node is refused; one through has and inside back to the node ends", async () => {
  await assert.rejects(
    matcher.compile("javascript", {
      rule: { matches: "a", utils: { a: { all: [{ kind: "array" }, { matches: "a" }] } } },
    }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "invalid_args" &&
      /makes utils "a" match itself at the same node \(a → a\)/.test(e.message),
  );
  // a at an array looks for b below; b looks for a above, back at the array: ast-grep 0.51 overflows its stack.
  const rule = {
    all: [{ kind: "array" }, { matches: "a" }],
    utils: {
      a: { has: { matches: "b" } },
      b: { any: [{ kind: "number" }, { inside: { matches: "a" } }] },
    },
  };
  const text = "const x = [[1], [[2]], []];\n";
  const answer = await found(rule, text);
  assert.ok(answer.includes("[1]") && !answer.includes("[]"), JSON.stringify(answer));
});

Deno.test("recursion past MAX_UTILITY_DEPTH levels is refused limit_exceeded, not a stack overflow", async () => {
  const deep = (n: number) => `x = ${"[".repeat(n)}1${"]".repeat(n)};\n`;
  assert.equal((await found(NESTED_NUMBER, deep(MAX_UTILITY_DEPTH - 10))).length, MAX_UTILITY_DEPTH - 10);
  for (const n of [MAX_UTILITY_DEPTH + 10, 5_000]) {
    await assert.rejects(
      found(NESTED_NUMBER, deep(n)),
      (e: unknown) =>
        e instanceof RecoverableError && e.code === "limit_exceeded" &&
        /utility rules go more than 256 levels inside one another/.test(e.message),
      `${n} deep`,
    );
  }
});

const bin = await astGrepPath();

Deno.test({
  name: "a recursive utility rule finds what ast-grep scan finds on a real file",
  ignore: bin === null,
  async fn() {
    const dir = await project({ "src/string.js": "fixtures/text/string.js" });
    // Functions with a return statement at any depth of nested blocks, through a utility rule that names itself.
    const rules = [
      "id: returns-deep",
      "language: js",
      "utils:",
      "  returns: {any: [{kind: return_statement}, {has: {matches: returns}}]}",
      "rule: {all: [{kind: statement_block}, {matches: returns}]}",
    ].join("\n");
    try {
      const ours = await inProcess(["sg", "scan", "--inline-rules", rules], { cwd: dir });
      assert.equal(ours.code, 0, ours.stderr);
      const theirs = await runAstGrep(
        bin!,
        ["scan", "--report-style", "short", "--color", "never", "--inline-rules", rules],
        { cwd: dir },
      );
      const lines = (t: string) => stripAnsi(t).split("\n").filter((l) => l !== "").sort();
      const a = lines(ours.stdout);
      assert.ok(a.length >= 3, `${a.length} lines`);
      assert.deepEqual(a, lines(theirs.stdout));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
