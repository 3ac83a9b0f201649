/**
 * The project-wide pattern matcher: the texts every match must hold (the prefilter's, which must never
 * leave out a file that matches), sites from the parse cache, and rewrites re-indented to their site.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../../src/mod.ts";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { patternMatcherOf } from "../../../../src/structural/search/mod.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const matcher = patternMatcherOf(ws);

Deno.test("the required texts are the pattern's leaves, metavariables and optional separators left out", async () => {
  const p = await matcher.compile("typescript", { pattern: 'fetch($URL, { method: "POST", $$$REST })' });
  assert.deepEqual(p.literals, ["method", "fetch", "POST"]);
  // `f(a, $$$B)` also matches `f(a)`: the comma next to $$$B is not required.
  const q = await matcher.compile("typescript", { pattern: "f(a, $$$B)" });
  assert.deepEqual(q.literals, ["f", "a"]);
  const [site] = await q.match({ path: "q.ts", text: "f(a);\n", version: "q1" });
  assert.equal(site!.metavariables["B"]!.text, "");
});

Deno.test("every file the prefilter skips has no match (hono's sources)", async () => {
  const root = new URL("../../../../node_modules/hono/dist/", import.meta.url);
  const p = await matcher.compile("javascript", { pattern: "c.req.header($NAME)" });
  let skipped = 0;
  for (const name of ["context.js", "hono-base.js", "request.js", "compose.js", "router.js"]) {
    const text = await Deno.readTextFile(new URL(name, root)).catch(() => null);
    if (text === null) continue;
    if (p.literals.every((l) => text.includes(l))) continue;
    skipped++;
    assert.deepEqual(await p.match({ path: name, text, version: `v-${name}` }), [], name);
  }
  assert.ok(skipped > 0);
});

Deno.test("a multi-line rewrite is re-indented to the site's line, in the file's indent unit", async () => {
  const p = await matcher.compile("typescript", {
    pattern: "save($X)",
    rewrite: "try {\n  save($X);\n} catch (e) {\n  report(e);\n}",
  });
  const text = "function f() {\n\tif (ok) {\n\t\tsave(doc);\n\t}\n}\n";
  const [site] = await p.match({ path: "t.ts", text, version: "t1" });
  assert.equal(site!.replacement, "try {\n\t\t\tsave(doc);\n\t\t} catch (e) {\n\t\t\treport(e);\n\t\t}");
});

Deno.test("a search matches with ast-grep's smart strictness: tokens the pattern lacks and trailing children pass", async () => {
  const text = "async function f() {\n  if (a) { return x; } else { g(); }\n}\n";
  const found = async (pattern: string) =>
    (await (await matcher.compile("javascript", { pattern })).match({ path: "s.js", text, version: "s1" }))
      .map((s) => text.slice(s.start, s.end));
  assert.deepEqual(await found("return $X"), ["return x;"]);
  assert.deepEqual(await found("function $F() { $$$B }"), [text.trimEnd()]);
  assert.equal((await found("if ($C) { $$$B }")).length, 1);
  // A token that differs is no token the pattern lacks: `let` does not match `const`.
  assert.deepEqual(await found("let $A = $B"), []);
});

Deno.test("matching from a literal's occurrences finds what a walk of the whole tree finds (hono's sources)", async () => {
  const { Grammars } = await import("../../../../src/syntax/grammars.ts");
  const { compilePattern, matchPattern, matchPatternAround } = await import(
    "../../../../src/structural/edit/pattern.ts"
  );
  const { requiredTexts } = await import("../../../../src/structural/search/mod.ts");
  const parser = await new Grammars(createWasmLoader()).parser("javascript");
  const dir = new URL("../../../../node_modules/hono/dist/", import.meta.url);
  const texts = await Promise.all(
    ["hono-base.js", "context.js", "request.js", "compose.js"].map((f) => Deno.readTextFile(new URL(f, dir))),
  );
  for (
    const source of ["c.req.header($A)", "return $X", "throw new Error($M)", "$A && $A", "if ($C) { $$$B }"]
  ) {
    const compiled = { ...compilePattern(parser, "javascript", source), smart: true };
    const literal = requiredTexts(compiled.root)[0]!;
    for (const text of texts) {
      const tree = parser.parse(text)!;
      const spans = (ms: { node: { startIndex: number; endIndex: number } }[]) =>
        ms.map((m) => `${m.node.startIndex}-${m.node.endIndex}`);
      assert.deepEqual(
        spans(matchPatternAround(compiled, tree.rootNode, { text, literal })),
        spans(matchPattern(compiled, tree.rootNode, { text })),
        source,
      );
      tree.delete();
    }
  }
});

Deno.test("a $$$X last in its list takes all that is left under smart strictness (a Python body is bound whole)", async () => {
  const p = await matcher.compile("python", {
    pattern: "def $F($$$P): $$$B",
    rewrite: "def $F($$$P):\n    $$$B",
  });
  const text = "def f(a, b):\n    x = 1\n    return x\n";
  const [site] = await p.match({ path: "body.py", text, version: "b1" });
  assert.equal(site!.metavariables["B"]!.text, "x = 1\n    return x");
  assert.equal(site!.replacement, "def f(a, b):\n    x = 1\n    return x");
});

Deno.test("a file whose tree the cache holds at its version is matched at once (an array, not a promise), with the same sites", async () => {
  const text = await Deno.readTextFile(
    new URL("../../../../node_modules/hono/dist/compose.js", import.meta.url),
  );
  const p = await patternMatcherOf(ws).compile("javascript", { pattern: "return $X" });
  const file = { path: "compose.js", text, version: "held-1" };
  const first = p.match(file);
  assert.ok(first instanceof Promise, "not parsed yet: a promise");
  const parsed = await first;
  assert.ok(parsed.length > 0);
  const again = p.match(file);
  assert.ok(Array.isArray(again), "held: matched now");
  assert.deepEqual(again, parsed);
  assert.ok(p.match({ ...file, version: "held-2" }) instanceof Promise, "another version: parsed again");
});

Deno.test("a path's language is asked of the grammar registry once, whichever matcher of the workspace asks", async () => {
  const own = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const asked: string[] = [];
  const languageOf = own.grammars!.languageOf.bind(own.grammars!);
  own.grammars!.languageOf = (path: string, head?: string) => {
    asked.push(path);
    return languageOf(path, head);
  };
  for (const m of [patternMatcherOf(own), patternMatcherOf(own)]) {
    assert.equal(m.languageOf("src/a.ts"), "typescript");
    assert.equal(m.languageOf("README.md"), languageOf("README.md"));
  }
  assert.deepEqual(asked, ["src/a.ts", "README.md"]);
});

Deno.test("a held file's sites for a query are remembered (a search paged on or repeated), per query and version", async () => {
  const own = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const text = await Deno.readTextFile(
    new URL("../../../../node_modules/hono/dist/compose.js", import.meta.url),
  );
  const file = { path: "compose.js", text, version: "v-1" };
  const first = await (await patternMatcherOf(own).compile("javascript", { pattern: "return $X" })).match(
    file,
  );
  // The next search's program (a new matcher, the same query) takes the same answer.
  const again = await (await patternMatcherOf(own).compile("javascript", { pattern: "return $X" })).match(
    file,
  );
  assert.equal(again, first);
  const other =
    await (await patternMatcherOf(own).compile("javascript", { pattern: "return $X", rewrite: "$X" }))
      .match(file);
  assert.notEqual(other, first, "another query (a rewrite) is matched on its own");
  assert.ok(other.every((s, i) => s.replacement!.startsWith(first[i]!.metavariables["X"]!.text)));
  const edited = { ...file, text: `${text}\nfunction z() { return 1; }\n`, version: "v-2" };
  const next = await (await patternMatcherOf(own).compile("javascript", { pattern: "return $X" })).match(
    edited,
  );
  assert.equal(next.length, first.length + 1, "another version: matched again");
});
