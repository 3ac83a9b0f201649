/**
 * search_structural through dispatch: matches with metavariables, enclosing symbols and ids; aliases of
 * ast-grep's flags; refusals (a pattern the grammar cannot read, an unknown language); what a page shows
 * counts as read.
 */
import assert from "node:assert/strict";
import { code, okData, open } from "./_files.ts";

const TREE = {
  "/w/src/svc.ts": "export class Svc {\n  run(x: number) {\n    console.log(x, 1);\n    return x;\n  }\n}\n",
  "/w/src/main.py": "def main(argv):\n    print(argv)\n    print(argv, file=err)\n",
};

type Match = { path: string; line: number; column: number; symbol?: string; id: string; text: string };

Deno.test("search_structural finds calls by shape, with metavariables, the enclosing symbol and an id", async () => {
  const { ws } = await open(TREE);
  const d = okData(await ws.call("search_structural", { pattern: "console.log($$$ARGS)" }));
  const matches = d["matches"] as (Match & { metavariables: Record<string, { text: string }> })[];
  assert.equal(matches.length, 1);
  assert.equal(matches[0]!.symbol, "Svc/run");
  assert.equal(matches[0]!.metavariables["ARGS"]!.text, "x, 1");
  assert.match(matches[0]!.id, /^src\/svc\.ts:3:5@/);
});

Deno.test("search_structural with symbols: false names no enclosing symbol, and finds the same matches", async () => {
  const { ws } = await open(TREE);
  const plain = okData(
    await ws.call("search_structural", { pattern: "console.log($$$ARGS)", symbols: false }),
  );
  const matches = plain["matches"] as Match[];
  assert.equal(matches.length, 1);
  assert.equal(matches[0]!.symbol, undefined);
  assert.match(matches[0]!.id, /^src\/svc\.ts:3:5@/);
  const named = okData(
    await ws.call("search_structural", { pattern: "console.log($$$ARGS)", symbols: true }),
  );
  assert.equal((named["matches"] as Match[])[0]!.symbol, "Svc/run");
});

Deno.test("search_structural gives context lines around each match (-A/-B/-C, as search_text); a rewrite takes none", async () => {
  const { ws } = await open(TREE);
  type WithContext = Match & { context_before?: string[]; context_after?: string[] };
  const around = okData(await ws.call("search_structural", { pattern: "console.log($$$A)", "-C": 2 }));
  const [m] = around["matches"] as WithContext[];
  assert.deepEqual(m!.context_before, ["export class Svc {", "  run(x: number) {"]);
  assert.deepEqual(m!.context_after, ["    return x;", "  }"]);
  // At the file's end, fewer lines; before and after apart.
  const last = okData(
    await ws.call("search_structural", { pattern: "print($A, file=$F)", context_after: 5, "-B": 1 }),
  );
  const [p] = last["matches"] as WithContext[];
  assert.deepEqual([p!.context_before, p!.context_after], [["    print(argv)"], []]);
  const none = okData(await ws.call("search_structural", { pattern: "console.log($$$A)" }));
  assert.equal((none["matches"] as WithContext[])[0]!.context_before, undefined);
  // Shortened to fit the budget, a match gives no context.
  const tight = okData(
    await ws.call("search_structural", { pattern: "$F($$$A)", context: 3, max_chars: 1200 }),
  );
  const shortened = (tight["summary"] as { shortened: string }).shortened;
  if (shortened === "truncated_text") {
    assert.ok((tight["matches"] as WithContext[]).every((x) => x.context_before === undefined));
  } else assert.equal(shortened, "counts");
  const rewrite = await ws.call("edit_rewrite_structural", {
    pattern: "print($A)",
    rewrite: "log($A)",
    "-C": 1,
  });
  assert.equal(code(rewrite), "invalid_args");
});

Deno.test("search_structural takes ast-grep's -p and --lang as aliases; a name used twice must bind the same code", async () => {
  const { ws } = await open(TREE);
  const d = okData(await ws.call("search_structural", { "-p": "print($A)", lang: "python" }));
  assert.deepEqual((d["matches"] as Match[]).map((m) => [m.line, m.text]), [[2, "print(argv)"]]);
  const same = okData(await ws.call("search_structural", { pattern: "$F($A, $A)", language: "ts" }));
  assert.equal((same["matches"] as Match[]).length, 0);
});

Deno.test("search_structural refuses a pattern the grammar cannot read (invalid_query) and an unknown language", async () => {
  const { ws } = await open(TREE);
  const r = await ws.call("search_structural", { pattern: "print($A", language: "python" });
  assert.equal(code(r), "invalid_query");
  assert.ok(!r.ok && /python grammar reads it as/.test(r.error.message));
  assert.equal(
    code(await ws.call("search_structural", { pattern: "f($A)", language: "klingon" })),
    "invalid_args",
  );
});

Deno.test("search_structural takes a pattern the grammar reads as one ERROR node, and warns what that reading matches", async () => {
  const { ws } = await open({
    "/w/src/a.ts": 'import {x} from "./x";\nimport y from "./y";\n',
  });
  const r = await ws.call("search_structural", { pattern: "import {$$$A} from $B", language: "ts" });
  const d = okData(r);
  assert.deepEqual((d["matches"] as Match[]).map((m) => [m.line, m.text]), [[1, 'import {x} from "./x";']]);
  const summary = d["summary"] as { pattern_read_as_error?: Record<string, string> };
  assert.match(
    summary.pattern_read_as_error?.["typescript"] ?? "",
    /^"import \{\$\$\$A\} from \$B" as \(program \(ERROR/,
  );
  assert.ok(
    r.ok && r.warnings.some((w) => /reads the pattern only as one ERROR node.*a quoted "\$B"/.test(w)),
  );
  const whole = await ws.call("search_structural", { pattern: 'import {$$$A} from "$B"', language: "ts" });
  assert.ok(
    whole.ok && whole.warnings.length === 0,
    "a pattern the grammar reads whole gets no such warning",
  );
});

Deno.test("the lines a structural match covers whole count as read for the next edit", async () => {
  const { ws } = await open({
    "/w/a.ts": "function f() {\n  return 1;\n}\nconst z = 2;\n",
  });
  const s = { session: "agent" };
  okData(await ws.call("search_structural", { pattern: "function $F() { $$$B }" }, s));
  // The match (lines 1-3, from column 1) shows lines 1 and 2 whole; line 3 may go on after the node.
  assert.deepEqual(ws.readGuard.ledgers.get("agent").view("a.ts").seen, [{ start: 1, end: 2 }]);
  const r = await ws.call("edit_file", { path: "a.ts", old_string: "return 1;", new_string: "return 3;" }, s);
  assert.ok(r.ok, JSON.stringify(r));
});

Deno.test("search_structural takes an ast-grep rule object instead of a pattern; both at once are refused", async () => {
  const { ws } = await open(TREE);
  const d = okData(
    await ws.call("search_structural", {
      rule: { pattern: "print($$$A)", not: { has: { kind: "keyword_argument", stopBy: "end" } } },
    }),
  );
  assert.deepEqual((d["matches"] as Match[]).map((m) => m.text), ["print(argv)"]);
  assert.equal(
    code(await ws.call("search_structural", { pattern: "print($A)", rule: { kind: "call" } })),
    "invalid_args",
  );
  assert.equal(
    code(await ws.call("search_structural", { rule: { matches: "utility", kind: "call" } })),
    "invalid_args",
  );
  // constraints beside a pattern, as ast-grep's YAML has them beside the rule.
  const constrained = okData(
    await ws.call("search_structural", { pattern: "$F($$$A)", constraints: { F: { regex: "^print$" } } }),
  );
  assert.ok((constrained["matches"] as Match[]).every((m) => m.text.startsWith("print(")));
});

Deno.test("search_structural's output_mode: each file's count, or each file, paged by file (hono's sources)", async () => {
  const dist = new URL("../../../node_modules/hono/dist/", import.meta.url);
  const tree: Record<string, string> = {};
  for (
    const name of ["hono-base.js", "context.js", "request.js", "compose.js", "router.js", "http-exception.js"]
  ) {
    tree[`/w/${name}`] = await Deno.readTextFile(new URL(name, dist));
  }
  const { ws } = await open(tree);
  const args = { pattern: "return $X", language: "js" };
  const content = okData(
    await ws.call("search_structural", { ...args, max_results: 10_000, max_chars: 1_000_000 }),
  );
  const perFile = new Map<string, number>();
  for (const m of content["matches"] as Match[]) perFile.set(m.path, (perFile.get(m.path) ?? 0) + 1);
  assert.ok(perFile.size >= 4, "several files match");
  const counts = okData(await ws.call("search_structural", { ...args, output_mode: "count" }));
  assert.deepEqual(
    (counts["counts"] as { path: string; count: number }[]).map((c) => [c.path, c.count]),
    [...perFile],
  );
  assert.equal(counts["matches"], undefined);
  // files_with_matches pages by file: two at a time, the cursor goes on where the page stopped.
  const first = okData(
    await ws.call("search_structural", { ...args, output_mode: "files_with_matches", max_results: 2 }),
  );
  const paths = (first["files"] as { path: string; version: string }[]).map((f) => f.path);
  assert.deepEqual(paths, [...perFile.keys()].slice(0, 2));
  assert.ok((first["summary"] as { truncated: boolean }).truncated);
  const next = okData(
    await ws.call("search_structural", {
      ...args,
      output_mode: "files_with_matches",
      max_results: 2,
      cursor: first["next_cursor"],
    }),
  );
  assert.deepEqual((next["files"] as { path: string }[]).map((f) => f.path), [...perFile.keys()].slice(2, 4));
  // A cursor of another mode is another search's.
  const mixed = await ws.call("search_structural", { ...args, max_results: 2, cursor: first["next_cursor"] });
  assert.equal(code(mixed), "invalid_args");
  assert.equal(
    code(await ws.call("search_structural", { ...args, output_mode: "count", output_format: "ast-grep" })),
    "invalid_args",
  );
});

Deno.test("search_structural with debug_query says how each language read the pattern; without it, nothing", async () => {
  const { ws } = await open(TREE);
  const d = okData(await ws.call("search_structural", { pattern: "print($A)", debug_query: true }));
  const readings = (d["summary"] as { pattern_readings?: Record<string, string> }).pattern_readings;
  assert.equal(readings?.["python"], '(call (identifier "print") (argument_list "(" $A ")"))');
  assert.match(
    readings?.["typescript"] ?? "",
    /^\(call_expression \(identifier "print"\) \(arguments "\(" \$A "\)"\)\)$/,
  );
  const plain = okData(await ws.call("search_structural", { pattern: "print($A)" }));
  assert.equal((plain["summary"] as Record<string, unknown>)["pattern_readings"], undefined);
});

Deno.test("search_structural refuses a text type (md): no file of it has a grammar to match in", async () => {
  const { ws } = await open(TREE);
  const md = await ws.call("search_structural", { pattern: "print($A)", type: "md" });
  assert.equal(code(md), "invalid_args");
  assert.match(!md.ok ? md.error.message : "", /"md" has no grammar: a structural search matches code only/);
});

Deno.test("a rewrite preview says which matches' replacements would lose code, as the rewrite would refuse them", async () => {
  const js = [
    "foo(a, /* keep me */ b);",
    "foo(c, d);",
    "async function load() {}",
    "function keep() {}",
    "if (x) return 1;",
    "else return 2;",
    "",
  ].join("\n");
  const { ws } = await open({ "/w/p.js": js });
  const preview = async (pattern: string, rewrite: string) => {
    const r = await ws.call("search_structural", { pattern, rewrite });
    const d = okData(r);
    const losing = (d["matches"] as { line: number; replacement_loses?: string[] }[])
      .map((m) => [m.line, m.replacement_loses ?? null]);
    return { losing, warnings: r.ok ? r.warnings : [] };
  };
  const calls = await preview("foo($A, $B)", "bar($B, $A)");
  assert.deepEqual(calls.losing, [[1, ["the comment `/* keep me */`"]], [2, null]]);
  assert.ok(calls.warnings.some((w) => /1 match\(es\) on this page would lose code/.test(w)));
  const fns = await preview("function $F() {}", "const $F = () => {}");
  assert.deepEqual(fns.losing, [[3, ["the word `async`"]], [4, null]]);
  const ifs = await preview("if ($C) return $X;", "if ($C) { return $X; }");
  assert.deepEqual(ifs.losing, [[5, ["the code after the pattern's end: `else return 2;`"]]]);
  // A rewrite that gives each match back as it is (its own text, comments and all) loses nothing.
  assert.deepEqual((await preview("foo($A, $B)", "foo($A, $B)")).losing, [[1, null], [2, null]]);
});

Deno.test("a rewrite preview marks the sites whose new code would not fit there, the ones edit_rewrite_structural refuses", async () => {
  const { ws } = await open({
    "/w/a.js":
      'function f(x) {\n  if (x) throw new Error("a");\n  if (!x) {\n    throw new Error("b");\n  }\n}\n',
    "/w/b.js": "const y = g(1) * 2;\nconst z = g(2);\n",
  });
  const preview = async (pattern: string, rewrite: string) => {
    const r = await ws.call("search_structural", { pattern, rewrite, language: "js" });
    const d = okData(r);
    const matches = d["matches"] as (Match & { replacement_does_not_fit?: string })[];
    return { matches, warnings: r.ok ? r.warnings : [] };
  };
  // Two statements in a body without braces: the second would run whatever x is. In braces, they fit.
  const two = await preview("throw new Error($M)", "log($M);\nthrow new E($M)");
  assert.deepEqual(two.matches.map((m) => [m.line, m.replacement_does_not_fit !== undefined]), [[2, true], [
    4,
    false,
  ]]);
  assert.match(two.matches[0]!.replacement_does_not_fit!, /the if_statement that held it \(line 2\)/);
  assert.ok(
    two.warnings.some((w) => /1 match\(es\) on this page would get new code that does not fit/.test(w)),
  );
  // The refusal of the rewrite names the same site, and rewriting the others by id lands.
  const refused = await ws.call("edit_rewrite_structural", {
    pattern: "throw new Error($M)",
    rewrite: "log($M);\nthrow new E($M)",
    language: "js",
    dry_run: true,
  });
  assert.equal(code(refused), "syntax_error");
  const sites = !refused.ok ? refused.error.details?.["sites"] as { id: string }[] : [];
  assert.deepEqual(sites.map((s) => s.id), [two.matches[0]!.id]);
  // An operator binding across the new code: `g(1) * 2` → `1 + 1 * 2`; a call alone fits.
  const split = await preview("g($X)", "$X + 1");
  assert.deepEqual(split.matches.map((m) => [m.line, m.replacement_does_not_fit !== undefined]), [[1, true], [
    2,
    false,
  ]]);
  // A page shortened to counts by its budget still says how many sites would be refused, and how to see which.
  const counted = await ws.call("search_structural", {
    pattern: "throw new Error($M)",
    rewrite: "log($M);\nthrow new E($M)",
    language: "js",
    max_chars: 300,
  });
  const summary = okData(counted)["summary"] as {
    shortened: string;
    rewrite_refuses?: Record<string, number>;
  };
  assert.equal(summary.shortened, "counts");
  assert.deepEqual(summary.rewrite_refuses, { loses_code: 0, does_not_fit: 1 });
  assert.ok(
    counted.ok && counted.warnings.some((w) => /1 match\(es\).*does not fit.*shortened to counts/.test(w)),
  );
  // Without a rewrite, nothing is judged.
  const plain = okData(await ws.call("search_structural", { pattern: "g($X)", language: "js" }));
  assert.ok(
    (plain["matches"] as { replacement_does_not_fit?: string }[]).every((m) => !m.replacement_does_not_fit),
  );
});

Deno.test("a transform makes new metavariables a rewrite writes (ast-grep's), in the preview and in the rewrite", async () => {
  const { ws } = await open({ "/w/a.js": "this.userName = n;\nthis.HTTPServer = s;\n" });
  const call = {
    pattern: "this.$PROP = $V",
    rewrite: "this.$SNAKE = $V",
    transform: { SNAKE: { convert: { source: "$PROP", toCase: "snakeCase" } } },
    language: "js",
  };
  const preview = okData(await ws.call("search_structural", call));
  assert.deepEqual((preview["matches"] as { replacement: string }[]).map((m) => m.replacement), [
    "this.user_name = n",
    "this.http_server = s",
  ]);
  const r = await ws.call("edit_rewrite_structural", call);
  assert.ok(r.ok, JSON.stringify(r));
  assert.match(r.changes[0]!.diff ?? "", /\+this\.user_name = n;\n\+this\.http_server = s;/);
  // A name the rewrite writes that neither the pattern nor the transform makes is refused, as before.
  assert.equal(
    code(await ws.call("edit_rewrite_structural", { ...call, rewrite: "this.$CAMEL = $V" })),
    "invalid_args",
  );
  assert.equal(
    code(
      await ws.call("search_structural", {
        ...call,
        transform: { X: { convert: { source: "$NOPE", toCase: "upperCase" } } },
      }),
    ),
    "invalid_args",
  );
});

Deno.test("a count or a list of files asks a pool's workers for no outlines; a page of matches does", async () => {
  const { MatchPool } = await import("../../../src/structural/search/match_pool.ts");
  const { createWasmLoader } = await import("../../../src/adapters/deno/mod.ts");
  const { createMemoryBackend, createWorkspace } = await import("../../../src/mod.ts");
  const url = new URL("../../../src/adapters/deno/_match_worker_main.ts", import.meta.url);
  let outlined = 0;
  const spawn = () => {
    const worker = new Worker(url, { type: "module" });
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (m: { type?: string; outline?: boolean }) => {
      if (m.type === "outline" || (m.type === "match" && m.outline === true)) outlined++;
      post(m);
    };
    return worker as never;
  };
  const pool = new MatchPool({ spawn, wasm: createWasmLoader(), size: 2 });
  try {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`/w/f${i}.js`] = `function f${i}() {\n  return ${i};\n}\n`;
    const ws = await createWorkspace({
      backend: createMemoryBackend(files),
      root: "/w",
      wasm: createWasmLoader(),
      matchPool: pool,
    });
    await pool.warm(); // ready: every file goes to the workers
    for (const output_mode of ["count", "files_with_matches"]) {
      const r = okData(await ws.call("search_structural", { pattern: "return $X", output_mode }));
      assert.equal(((r["counts"] ?? r["files"]) as unknown[]).length, 20, output_mode);
    }
    const shaped = okData(
      await ws.call("search_structural", { pattern: "return $Y", output_format: "ast-grep" }),
    );
    assert.equal((shaped["ast_grep"] as unknown[]).length, 20);
    // Before: the workers outlined every matched file for a count, a list of files and ast-grep's shape.
    assert.equal(outlined, 0);
    const page = okData(await ws.call("search_structural", { pattern: "return $Z" }));
    assert.equal((page["matches"] as { symbol?: string }[])[0]!.symbol, "f0");
    assert.ok(outlined > 0, "a page of matches names their symbols from the workers' outlines");
    await ws.close();
  } finally {
    pool.close();
  }
});
