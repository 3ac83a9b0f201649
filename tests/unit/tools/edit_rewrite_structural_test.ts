/**
 * edit_rewrite_structural through dispatch: every match rewritten in one commit, multi-line rewrites
 * re-indented to each site (Python's blocks included, checked with `python3 -m py_compile`), ids from
 * search_structural and their stale_base refusal, expected_count, the syntax guard, dry_run, nested matches
 * and a rewrite naming a metavariable the pattern does not bind.
 */
import assert from "node:assert/strict";
import type { Backend } from "../../../src/mod.ts";
import { code, okData, open } from "./_files.ts";

const dec = new TextDecoder();

async function textOf(backend: Backend, path: string): Promise<string> {
  const content = await backend.readFile(path);
  return typeof content === "string" ? content : dec.decode(content);
}

const PY = [
  "class Job:",
  "    def run(self, items):",
  "        for item in items:",
  "            if item:",
  "                print(item, self.name)",
  "        print('done')",
  "",
].join("\n");

Deno.test("a multi-line rewrite lands at each site's depth, and the Python still compiles", async () => {
  const { ws, backend } = await open({ "/w/job.py": PY });
  const d = okData(
    await ws.call("edit_rewrite_structural", {
      pattern: "print($$$A)",
      rewrite: "if verbose:\n    log($$$A)",
      language: "python",
    }),
  );
  assert.equal(d["rewritten"], 2);
  const after = await textOf(backend, "/w/job.py");
  assert.equal(
    after,
    [
      "class Job:",
      "    def run(self, items):",
      "        for item in items:",
      "            if item:",
      "                if verbose:",
      "                    log(item, self.name)",
      "        if verbose:",
      "            log('done')",
      "",
    ].join("\n"),
  );
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/job.py`, after);
  const out = await new Deno.Command("python3", { args: ["-m", "py_compile", `${dir}/job.py`] }).output();
  assert.equal(out.code, 0, dec.decode(out.stderr));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("ids rewrite only those matches; an id of a file changed since is refused stale_base", async () => {
  const tree = { "/w/a.ts": "log(1);\nlog(2);\n", "/w/b.ts": "log(3);\n" };
  const { ws, backend } = await open(tree);
  const found = okData(await ws.call("search_structural", { pattern: "log($X)" }));
  const ids = (found["matches"] as { id: string }[]).map((m) => m.id);
  assert.equal(ids.length, 3);
  const one = okData(
    await ws.call("edit_rewrite_structural", { pattern: "log($X)", rewrite: "warn($X)", ids: [ids[1]!] }),
  );
  assert.equal(one["rewritten"], 1);
  assert.equal(await textOf(backend, "/w/a.ts"), "log(1);\nwarn(2);\n");
  const stale = await ws.call("edit_rewrite_structural", {
    pattern: "log($X)",
    rewrite: "warn($X)",
    ids: [ids[0]!],
  });
  assert.equal(code(stale), "stale_base");
  assert.ok(!stale.ok && stale.error.suggested_call?.tool === "search_structural");
  // The call it suggests gives the fresh ids (it named the path alone, which search_structural refuses).
  const next = stale.error.suggested_call!;
  const fresh = okData(await ws.call(next.tool, next.args));
  assert.deepEqual((fresh["matches"] as { text: string }[]).map((m) => m.text), ["log(1)"]);
  assert.equal(await textOf(backend, "/w/b.ts"), "log(3);\n");
});

Deno.test("expected_count, a rewrite that breaks the syntax, and an unbound metavariable are refused with nothing written", async () => {
  const tree = { "/w/a.ts": "log(1);\n", "/w/b.ts": "log(2);\n" };
  const { ws, backend } = await open(tree);
  const count = await ws.call("edit_rewrite_structural", {
    pattern: "log($X)",
    rewrite: "warn($X)",
    expected_count: 1,
  });
  assert.equal(code(count), "ambiguous");
  const broken = await ws.call("edit_rewrite_structural", { pattern: "log($X)", rewrite: "warn($X" });
  assert.equal(code(broken), "syntax_error");
  const unbound = await ws.call("edit_rewrite_structural", { pattern: "log($X)", rewrite: "warn($Y)" });
  assert.equal(code(unbound), "invalid_args");
  const none = await ws.call("edit_rewrite_structural", { pattern: "nothing($X)", rewrite: "warn($X)" });
  assert.equal(code(none), "no_match");
  assert.ok(!none.ok && none.error.suggested_call?.tool === "search_structural");
  assert.equal(await textOf(backend, "/w/a.ts"), "log(1);\n");
  assert.equal(await textOf(backend, "/w/b.ts"), "log(2);\n");
});

Deno.test("dry_run shows every site's diff and writes nothing; nested matches leave the inner one alone", async () => {
  const { ws, backend } = await open({ "/w/a.ts": "log(log(1));\n" });
  const r = await ws.call("edit_rewrite_structural", {
    pattern: "log($X)",
    rewrite: "warn($X)",
    dry_run: true,
  });
  assert.ok(r.ok && r.status === "dry_run", JSON.stringify(r));
  assert.match(r.changes[0]!.diff, /\+warn\(log\(1\)\);/);
  assert.equal(r.data["nested"], 1);
  assert.ok(r.warnings.some((w) => w.includes("inside another match")));
  assert.equal(await textOf(backend, "/w/a.ts"), "log(log(1));\n");
});

Deno.test("a rule selects what to rewrite: only the awaits inside a loop", async () => {
  const { ws, backend } = await open({
    "/w/a.js":
      "async function f(xs) {\n  for (const x of xs) {\n    await save(x);\n  }\n  await save(xs);\n}\n",
  });
  const r = okData(
    await ws.call("edit_rewrite_structural", {
      rule: { pattern: "await save($X)", inside: { kind: "for_in_statement", stopBy: "end" } },
      rewrite: "batch.push($X)",
    }),
  );
  assert.equal(r["rewritten"], 1);
  assert.equal(
    await textOf(backend, "/w/a.js"),
    "async function f(xs) {\n  for (const x of xs) {\n    batch.push(x);\n  }\n  await save(xs);\n}\n",
  );
});

Deno.test("a rewrite that puts a bound body back keeps it whole, at the site's depth (a decorated method)", async () => {
  const { ws, backend } = await open({ "/w/job.py": PY });
  okData(
    await ws.call("edit_rewrite_structural", {
      pattern: "def $F(self, $$$P): $$$B",
      rewrite: "@traced\ndef $F(self, $$$P):\n    $$$B",
    }),
  );
  const after = await textOf(backend, "/w/job.py");
  assert.equal(after, PY.replace("    def run(", "    @traced\n    def run("));
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/job.py`, after);
  const out = await new Deno.Command("python3", { args: ["-m", "py_compile", `${dir}/job.py`] }).output();
  assert.equal(out.code, 0, dec.decode(out.stderr));
  await Deno.remove(dir, { recursive: true });
});

const TS_KEYWORDS = [
  'import type {Options} from "./types"',
  'import {compile} from "./compile"',
  "async function main(a: string): Promise<number> { return 1 }",
  "function helper(a: string): number { return 2 }",
  "",
].join("\n");

Deno.test("a rewrite that would take away a keyword its pattern passed over (async) is refused, nothing written", async () => {
  const { ws, backend } = await open({ "/w/mod.ts": TS_KEYWORDS });
  // As in ast-grep, a token of the code is passed over only where the pattern's next is a token too: `async`
  // before `function`, not `type` before the import's clause.
  const imports = okData(
    await ws.call("search_structural", { pattern: 'import {$$$A} from "$B"', language: "ts" }),
  );
  assert.deepEqual((imports["matches"] as { line: number }[]).map((m) => m.line), [2]);
  const found = okData(
    await ws.call("search_structural", { pattern: "function $F($$$P): $R { $$$B }", language: "ts" }),
  );
  assert.equal((found["matches"] as unknown[]).length, 2, "a search finds both functions");
  const logged = await ws.call("edit_rewrite_structural", {
    pattern: "function $F($$$P): $R { $$$B }",
    rewrite: "function $F($$$P): $R { log(); $$$B }",
    language: "ts",
  });
  assert.equal(code(logged), "ambiguous");
  assert.ok(!logged.ok && /take away `async`/.test(logged.error.message), JSON.stringify(logged));
  assert.ok(!logged.ok && /mod\.ts:3:1/.test(logged.error.message));
  assert.equal(await textOf(backend, "/w/mod.ts"), TS_KEYWORDS, "nothing written");
  // The other site alone, by id, is rewritten; a rewrite that writes the word keeps it.
  const plain = (found["matches"] as { id: string; line: number }[]).find((m) => m.line === 4)!;
  okData(
    await ws.call("edit_rewrite_structural", {
      pattern: "function $F($$$P): $R { $$$B }",
      rewrite: "function $F($$$P): $R { log(); $$$B }",
      language: "ts",
      ids: [plain.id],
    }),
  );
  okData(
    await ws.call("edit_rewrite_structural", {
      pattern: "async function $F($$$P): $R { $$$B }",
      rewrite: "async function $F($$$P): $R { log(); $$$B }",
      language: "ts",
    }),
  );
  assert.equal(
    await textOf(backend, "/w/mod.ts"),
    TS_KEYWORDS.replace("{ return 1 }", "{ log(); return 1 }").replace("{ return 2 }", "{ log(); return 2 }"),
  );
});

Deno.test("a rewrite by a pattern the grammar reads as one ERROR node rewrites what ast-grep's would, with the reading in a warning", async () => {
  const text = 'import * as a from "./a";\nimport b from "./b";\n';
  const { ws, backend } = await open({ "/w/m.ts": text });
  const r = await ws.call("edit_rewrite_structural", {
    pattern: "import * as $N from $M",
    rewrite: "import $N from $M",
    language: "typescript",
  });
  okData(r);
  assert.ok(
    r.ok && r.warnings.some((w) => /typescript grammar reads the pattern only as one ERROR node/.test(w)),
  );
  assert.equal(await textOf(backend, "/w/m.ts"), 'import a from "./a";\nimport b from "./b";\n');
});

Deno.test("a change past MAX_EDIT_SITES is refused before its sites are made, text and structural, nothing written", async () => {
  // `x` → `y` over a file of 15 million `x`s ran the process out of memory.
  const many = `export const x = [${Array.from({ length: 100_001 }, () => "1").join(",")}];\n`;
  const tree = { "/w/a.ts": "log(1);\n", "/w/big.ts": many };
  const { ws, backend } = await open(tree);
  const text = await ws.call("edit_replace_text", { pattern: "1", replacement: "2", literal: true });
  assert.equal(code(text), "limit_exceeded");
  assert.ok(!text.ok && /past the 100,000 one call changes; nothing was written/.test(text.error.message));
  assert.deepEqual(text.ok ? null : text.error.suggested_call, {
    tool: "search_text",
    args: { pattern: "1", literal: true, output_mode: "count" },
  });
  const structural = await ws.call("edit_rewrite_structural", { rule: { kind: "number" }, rewrite: "2" });
  assert.equal(code(structural), "limit_exceeded");
  assert.equal(structural.ok ? null : structural.error.suggested_call?.tool, "search_structural");
  assert.equal(await textOf(backend, "/w/big.ts"), many);
  assert.equal(await textOf(backend, "/w/a.ts"), "log(1);\n");
  // Under the bound, a long line's sites are placed in one pass (their columns).
  const fine = await ws.call("edit_replace_text", {
    pattern: "1",
    replacement: "2",
    literal: true,
    path: "a.ts",
  });
  okData(fine);
  assert.equal(await textOf(backend, "/w/a.ts"), "log(2);\n");
});

Deno.test("a rewrite whose new code would not fit a site (a body without braces) is refused with every such site's id", async () => {
  const js = [
    "export function find(tags, name) {",
    "  const tag = tags.get(name);",
    "  if (!tag) throw new Error(name);",
    "  if (tag.old) {",
    "    throw new Error(tag.old);",
    "  }",
    "  return tag;",
    "}",
    "",
  ].join("\n");
  const { ws, backend } = await open({ "/w/find.js": js });
  const args = { pattern: "throw new Error($M)", rewrite: "log($M);\nthrow new TagError($M)" };
  for (const dry_run of [true, false]) {
    const r = await ws.call("edit_rewrite_structural", { ...args, dry_run });
    assert.equal(code(r), "syntax_error");
    assert.ok(!r.ok);
    assert.match(r.error.message, /find\.js:3:13: the if_statement that held it \(line 3\)/);
    const sites = r.error.details!["sites"] as { path: string; line: number; id: string }[];
    assert.deepEqual(sites.map((s) => [s.path, s.line]), [["find.js", 3]]);
    assert.match(r.error.hint, /pass the ids of the others \(the suggested call/);
    assert.equal(await textOf(backend, "/w/find.js"), js);
  }
  // The other site, by its id, rewrites alone: the refusal's suggested call.
  const r = await ws.call("edit_rewrite_structural", args);
  assert.ok(!r.ok && r.error.suggested_call);
  const found = okData(await ws.call("search_structural", { pattern: args.pattern }));
  const ids = (found["matches"] as { line: number; id: string }[]).filter((m) => m.line === 5).map((m) =>
    m.id
  );
  assert.deepEqual(r.error.suggested_call.args["ids"], ids);
  okData(await ws.call(r.error.suggested_call.tool, r.error.suggested_call.args));
  assert.match(
    await textOf(backend, "/w/find.js"),
    /\{\n {4}log\(tag\.old\);\n {4}throw new TagError\(tag\.old\);\n {2}\}/,
  );
});

Deno.test("a rewrite that would drop the code its pattern passed over (an `else`) is refused, by pattern or rule", async () => {
  const js = [
    "export function pick(a, b) {",
    "  if (a) return 1;",
    "  else if (b) return 2;",
    "  if (b) return 3;",
    "  return 4;",
    "}",
    "",
  ].join("\n");
  const { ws, backend } = await open({ "/w/pick.js": js });
  const rewrite = "if ($C) { return $X; }";
  for (const how of [{ pattern: "if ($C) return $X;" }, { rule: { pattern: "if ($C) return $X;" } }]) {
    const r = await ws.call("edit_rewrite_structural", { ...how, rewrite, language: "javascript" });
    assert.equal(code(r), "ambiguous");
    assert.ok(!r.ok);
    assert.match(r.error.message, /pick\.js:2:3 \(`else if \(b\) return 2;`\)/);
    const sites = r.error.details!["sites"] as { line: number; passed_over: { kind: string }[] }[];
    assert.deepEqual(sites.map((s) => [s.line, s.passed_over[0]!.kind]), [[2, "else_clause"]]);
    assert.equal(await textOf(backend, "/w/pick.js"), js);
  }
  // The rule the hint names leaves those sites out; the rest are rewritten, the else kept.
  const narrowed = {
    all: [{ pattern: "if ($C) return $X;" }, { not: { has: { kind: "else_clause" } } }],
  };
  const d = okData(
    await ws.call("edit_rewrite_structural", { rule: narrowed, rewrite, language: "javascript" }),
  );
  assert.equal(d["rewritten"], 2);
  assert.equal(
    await textOf(backend, "/w/pick.js"),
    js.replace("else if (b) return 2;", "else if (b) { return 2; }").replace(
      "if (b) return 3;",
      "if (b) { return 3; }",
    ),
  );
});

Deno.test("a rule's pattern that passed over `async` is refused as a pattern's is (it was rewritten away)", async () => {
  const js = "export async function load(a) {\n  return a;\n}\nfunction keep(b) {\n  return b;\n}\n";
  const { ws, backend } = await open({ "/w/load.js": js });
  const r = await ws.call("edit_rewrite_structural", {
    rule: { pattern: "function $F($$$P) { $$$B }" },
    rewrite: "const $F = ($$$P) => { $$$B }",
    language: "javascript",
  });
  assert.equal(code(r), "ambiguous");
  assert.ok(!r.ok && /`async`/.test(r.error.message));
  assert.equal(await textOf(backend, "/w/load.js"), js);
});

Deno.test("a rewrite that would drop a comment inside its matches is refused; with $$$ the comment is kept", async () => {
  const js = "foo(a, /* keep me */ b);\nfoo(c, // trailing\n  d);\nfoo(e, f);\n";
  const { ws, backend } = await open({ "/w/cm.js": js });
  const r = await ws.call("edit_rewrite_structural", { pattern: "foo($A, $B)", rewrite: "bar($B, $A)" });
  assert.equal(code(r), "ambiguous");
  assert.ok(!r.ok);
  const sites = r.error.details!["sites"] as { line: number; comments: string[] }[];
  assert.deepEqual(sites.map((s) => [s.line, s.comments]), [[1, ["/* keep me */"]], [2, ["// trailing"]]]);
  assert.match(r.error.hint, /leave those sites out: pass the ids of the other sites/); // said "pass pass"
  assert.equal(await textOf(backend, "/w/cm.js"), js);
  okData(await ws.call("edit_rewrite_structural", { pattern: "foo($$$A)", rewrite: "bar($$$A)" }));
  assert.equal(await textOf(backend, "/w/cm.js"), js.replaceAll("foo(", "bar("));
});

Deno.test("a refusal of some sites suggests the call that rewrites the others by id, and that call lands", async () => {
  const go = [
    "package p",
    "",
    "func f(a, b int) int {",
    "\tif a > 0 {",
    "\t\treturn a",
    "\t} else {",
    "\t\treturn b",
    "\t}",
    "}",
    "",
    "func g(a int) int {",
    "\tif a > 1 {",
    "\t\treturn a",
    "\t}",
    "\treturn 0",
    "}",
    "",
  ].join("\n");
  const { ws, backend } = await open({ "/w/p.go": go });
  const r = await ws.call("edit_rewrite_structural", {
    pattern: "if $C { return $X }",
    rewrite: "if $C {\n\treturn $X + 1\n}",
    language: "go",
  });
  assert.equal(code(r), "ambiguous");
  assert.ok(!r.ok);
  assert.match(r.error.message, /p\.go:4:2/);
  const next = r.error.suggested_call!;
  assert.equal(next.tool, "edit_rewrite_structural");
  assert.equal((next.args["ids"] as string[]).length, 1);
  assert.equal(await textOf(backend, "/w/p.go"), go);
  okData(await ws.call(next.tool, next.args));
  assert.equal(
    await textOf(backend, "/w/p.go"),
    go.replace("\t\treturn a\n\t}\n\treturn 0", "\t\treturn a + 1\n\t}\n\treturn 0"),
  );
});

// A file with more matches than the matcher takes from one file (100,000): the rewrite changed the first
// 100,000 and left the rest, saying nothing; the search listed and counted 100,000 as if that were all.
Deno.test("a file with more matches than the matcher takes is refused whole by a rewrite, and flagged by a search", async () => {
  const text = `export const xs = [${Array.from({ length: 100_010 }, () => "1").join(",")}];\n`;
  const { ws, backend } = await open({ "/w/many.js": text });
  const rule = { kind: "number" };
  const rewrite = await ws.call("edit_rewrite_structural", { rule, rewrite: "2", language: "js" });
  assert.equal(code(rewrite), "limit_exceeded");
  assert.ok(
    !rewrite.ok && /more than 100,000 in "many\.js"/.test(rewrite.error.message),
    JSON.stringify(rewrite),
  );
  assert.equal(await textOf(backend, "/w/many.js"), text, "nothing written");
  const count = await ws.call("search_structural", { rule, language: "js", output_mode: "count" });
  const data = okData(count);
  assert.deepEqual((data["summary"] as { files_capped?: string[] }).files_capped, ["many.js"]);
  assert.ok(
    count.ok && count.warnings?.some((w) => /more matches than the matcher takes from one file/.test(w)),
  );
});

Deno.test("a rewrite that would make a file longer than a file may be is refused limit_exceeded, nothing written", async () => {
  const arg = `"${"x".repeat(1000)}"`;
  const text = `f(${arg});\n`.repeat(200);
  const { ws, backend } = await open({ "/w/a.js": text });
  // Each call becomes 1,000 copies of its argument: 200 MB in all (before: an internal "Invalid string length").
  const r = await ws.call("edit_rewrite_structural", {
    pattern: "f($A)",
    rewrite: `g(${Array(1000).fill("$A").join(", ")})`,
    language: "js",
  });
  assert.equal(code(r), "limit_exceeded");
  assert.ok(
    !r.ok && /"a\.js": the file would be 200,[\d,]+ characters long/.test(r.error.message),
    JSON.stringify(r),
  );
  assert.equal(await textOf(backend, "/w/a.js"), text);
  const text2 = await ws.call("edit_replace_text", {
    pattern: `f\\((.*)\\)`,
    replacement: `g(${Array(1000).fill("$1").join(", ")})`,
  });
  assert.equal(code(text2), "limit_exceeded");
  assert.equal(await textOf(backend, "/w/a.js"), text);
});

Deno.test("an id of a file gone since the search is refused stale_base saying the file can no longer be read", async () => {
  const { ws, backend } = await open({ "/w/a.ts": "log(1);\n", "/w/b.ts": "log(2);\n" });
  const found = okData(await ws.call("search_structural", { pattern: "log($X)" }));
  const ids = (found["matches"] as { id: string; path: string }[]).filter((m) => m.path === "a.ts").map((m) =>
    m.id
  );
  assert.ok((await ws.call("delete_file", { path: "a.ts" })).ok);
  const r = await ws.call("edit_rewrite_structural", { pattern: "log($X)", rewrite: "warn($X)", ids });
  assert.equal(code(r), "stale_base");
  // Before: "changed after the search … their lines and columns may name other text now".
  assert.ok(!r.ok && /"a\.ts" can no longer be read/.test(r.error.message), JSON.stringify(r));
  assert.equal(await textOf(backend, "/w/b.ts"), "log(2);\n");
});
