/**
 * ast-grep's `rewriters` through the pattern matcher on real grammars: a `rewrite` transformation tries the
 * listed rewriters on every node under a metavariable (the first listed that matches wins a node, an outer node
 * wins over the nodes inside it), joins with `joinBy`, recurses, inherits what the enclosing match bound; and
 * what it refuses (a malformed rewriter, an id no rewriter has, a rewrite without rewriters, too many tries).
 * The expected texts are what `ast-grep scan --inline-rules` 0.51 gives for the same rules (checked by hand
 * and, on files, by tests/unit/surfaces/_sg_scan_test.ts).
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../../src/mod.ts";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { RecoverableError } from "../../../../src/errors.ts";
import { patternMatcherOf } from "../../../../src/structural/search/mod.ts";
import { MAX_REWRITE_DEPTH, MAX_REWRITER_TRIES } from "../../../../src/structural/search/rewriters.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const matcher = patternMatcherOf(ws);
let version = 0;

/** The replacement of each match of `rule` in `text` (TypeScript unless said), the rewrite being `fix`. */
async function replaced(
  text: string,
  query: {
    rule: Record<string, unknown>;
    rewrite: string;
    transform: Record<string, unknown>;
    rewriters: unknown[];
  },
  language = "typescript",
): Promise<string[]> {
  const program = await matcher.compile(language, query);
  const sites = await program.match({ path: "r.ts", text, version: `v${version++}` });
  return sites.map((s) => s.replacement ?? "");
}

const numbers = (fix: string, extra: Record<string, unknown> = {}) => ({
  id: "num",
  rule: { kind: "number" },
  fix,
  ...extra,
});
const rewriteOf = (source: string, rewriters: string[], joinBy?: string) => ({
  B: { rewrite: { source, rewriters, ...(joinBy === undefined ? {} : { joinBy }) } },
});

Deno.test("a rewrite replaces each node a rewriter matches under the metavariable, the first listed winning", async () => {
  const one = { id: "one", rule: { regex: "^1$" }, fix: "810" };
  assert.deepEqual(
    await replaced("log(t(1, 2, 3));", {
      rule: { pattern: "log($A)" },
      rewrite: "out($B)",
      transform: rewriteOf("$A", ["one", "num"]),
      rewriters: [numbers("9"), one],
    }),
    ["out(t(810, 9, 9))"],
  );
  // The other order: num takes every number first.
  assert.deepEqual(
    await replaced("log(t(1, 2, 3));", {
      rule: { pattern: "log($A)" },
      rewrite: "out($B)",
      transform: rewriteOf("$A", ["num", "one"]),
      rewriters: [numbers("9"), one],
    }),
    ["out(t(9, 9, 9))"],
  );
  // An outer node wins over the nodes inside it, whatever the order.
  assert.deepEqual(
    await replaced("log([1, 2, 3]);", {
      rule: { pattern: "log($A)" },
      rewrite: "$B",
      transform: rewriteOf("$A", ["num", "arr"]),
      rewriters: [numbers("0"), { id: "arr", rule: { kind: "array" }, fix: "ARRAY" }],
    }),
    ["ARRAY"],
  );
});

Deno.test("joinBy joins the new texts alone; a $$$ source is rewritten node by node; rewriters recurse", async () => {
  assert.deepEqual(
    await replaced("log(t(1, 2, 3));", {
      rule: { pattern: "log(t($$$A))" },
      rewrite: "sum($B)",
      transform: rewriteOf("$$$A", ["num"], " + "),
      rewriters: [numbers("n")],
    }),
    ["sum(n + n + n)"],
  );
  const flat = {
    id: "flat",
    rule: { pattern: "[$$$C]" },
    transform: { D: { rewrite: { source: "$$$C", rewriters: ["flat"] } } },
    fix: "$D",
  };
  assert.deepEqual(
    await replaced("log([1, [2, [3, [4]]]]);", {
      rule: { pattern: "log([$$$A])" },
      rewrite: "flat($B)",
      transform: rewriteOf("$$$A", ["flat"]),
      rewriters: [flat],
    }),
    ["flat(1, 2, 3, 4)"],
  );
});

Deno.test("a rewriter inherits what the enclosing match bound: the same name must be the same code, and its fix reads it", async () => {
  const query = (fix: string, pattern: string) => ({
    rule: { pattern: "log([$A, $C])" },
    rewrite: "out($D)",
    transform: { D: { rewrite: { source: "$A", rewriters: ["re"] } } },
    rewriters: [{ id: "re", rule: { pattern }, fix }],
  });
  assert.deepEqual(await replaced("log([1, 2]);\nlog([5, 5]);", query("123", "$C")), ["out(1)", "out(123)"]);
  assert.deepEqual(await replaced("log([1, 2]);", query("$B == $C", "$B")), ["out(1 == 2)"]);
});

Deno.test("ast-grep's dict example: keyword arguments to a dict literal, in Python", async () => {
  const text = "d = dict(a=1, b=2)\ne = dict(x=f(1), y='s')\n";
  assert.deepEqual(
    await replaced(text, {
      rule: { pattern: "dict($$$ARGS)" },
      rewrite: "{ $LITERAL }",
      transform: { LITERAL: { rewrite: { source: "$$$ARGS", rewriters: ["kw"], joinBy: ", " } } },
      rewriters: [{
        id: "kw",
        rule: {
          kind: "keyword_argument",
          all: [{ has: { field: "name", pattern: "$KEY" } }, { has: { field: "value", pattern: "$VAL" } }],
        },
        fix: "'$KEY': $VAL",
      }],
    }, "python"),
    ["{ 'a': 1, 'b': 2 }", "{ 'x': f(1), 'y': 's' }"],
  );
});

Deno.test("rewriters refuse a malformed rewriter, an id none has, a rewrite without rewriters, and too many tries", async () => {
  const refusal = async (query: Parameters<typeof replaced>[1], text = "log(1);") => {
    try {
      await replaced(text, query);
    } catch (err) {
      if (err instanceof RecoverableError) return err;
      throw err;
    }
    throw new Error(`not refused: ${JSON.stringify(query)}`);
  };
  const base = { rule: { pattern: "log($A)" }, rewrite: "$B", transform: rewriteOf("$A", ["num"]) };
  const cases: [unknown[], RegExp][] = [
    [[{ id: "num", rule: { kind: "number" } }], /rewriters\[0\]\.fix must be the new code/],
    [
      [{ id: "num", rule: { kind: "number" }, fix: "x", severity: "error" }],
      /rewriters\[0\]\.severity is not a key/,
    ],
    [[numbers("x"), numbers("y")], /rewriters\[1\]\.id repeats "num"/],
    [[{ id: "other", rule: { kind: "number" }, fix: "x" }], /names "num", which the rewriters do not define/],
  ];
  for (const [rewriters, message] of cases) {
    const err = await refusal({ ...base, rewriters });
    assert.equal(err.code, "invalid_args");
    assert.match(err.message, message);
  }
  const compileOnly = await matcher.compile("typescript", {
    rule: base.rule,
    rewrite: "$B",
    transform: base.transform,
  })
    .then(() => null, (err: RecoverableError) => err);
  assert.match(compileOnly?.message ?? "", /names rewriters, but the query defines none/);
  // Rewriters tried at every node of a long array: bounded, refused limit_exceeded.
  const long = `log([${Array(110_000).fill("x").join(",")}]);`;
  const err = await refusal({
    ...base,
    rewriters: [{ id: "num", rule: { kind: "number" }, fix: "0" }, {
      id: "str",
      rule: { kind: "string" },
      fix: "0",
    }],
    transform: rewriteOf("$A", ["num", "str"]),
  }, long);
  assert.equal(err.code, "limit_exceeded");
  assert.match(err.message, new RegExp(`more than ${MAX_REWRITER_TRIES} matches`));
  // A rewriter that recurses into a deep nesting: bounded too, never a stack overflow.
  const deep = `log(${"[".repeat(2_000)}1${"]".repeat(2_000)});`;
  const flat = {
    id: "flat",
    rule: { pattern: "[$$$C]" },
    transform: { D: { rewrite: { source: "$$$C", rewriters: ["flat"] } } },
    fix: "$D",
  };
  const tooDeep = await refusal({ ...base, transform: rewriteOf("$A", ["flat"]), rewriters: [flat] }, deep);
  assert.equal(tooDeep.code, "limit_exceeded");
  assert.match(tooDeep.message, new RegExp(`more than ${MAX_REWRITE_DEPTH} levels deep`));
});

Deno.test("the tools take rewriters (as a list or its YAML text): a preview shows the replacement, a rewrite writes it", async () => {
  const backend = createMemoryBackend({ "/w/d.py": "d = dict(a=1, b=2)\nprint(dict(x=f(1)))\n" });
  const tools = await createWorkspace({ backend, root: "/w", wasm: createWasmLoader() });
  const args = {
    rule: "pattern: dict($$$ARGS)",
    transform: "LIT:\n  rewrite: {source: $$$ARGS, rewriters: [kw], joinBy: ', '}",
    rewriters: [
      "- id: kw",
      "  rule:",
      "    kind: keyword_argument",
      "    all:",
      "    - has: {field: name, pattern: $K}",
      "    - has: {field: value, pattern: $V}",
      "  fix: \"'$K': $V\"",
    ].join("\n"),
    rewrite: "{$LIT}",
  };
  try {
    const preview = await tools.call("search_structural", args);
    assert.ok(preview.ok, JSON.stringify(preview));
    assert.deepEqual((preview.data["matches"] as { replacement: string }[]).map((m) => m.replacement), [
      "{'a': 1, 'b': 2}",
      "{'x': f(1)}",
    ]);
    const written = await tools.call("edit_rewrite_structural", args);
    assert.ok(written.ok, JSON.stringify(written));
    assert.equal(
      new TextDecoder().decode(await backend.readFile("/w/d.py") as Uint8Array),
      "d = {'a': 1, 'b': 2}\nprint({'x': f(1)})\n",
    );
    const bad = await tools.call("search_structural", { ...args, rewriters: "id: kw" });
    assert.ok(!bad.ok);
    assert.match(bad.error.message, /"rewriters" was given as text that does not read as a list/);
  } finally {
    await tools.close();
  }
});
