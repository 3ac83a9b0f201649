/**
 * site_fit: new code that parses but does not fit where the old node was — several statements in a body
 * without braces, an expression an operator around it would split, a removal that lets the next statement
 * become a body — found with the real grammars (JavaScript, Python, Go, HTML), and code that fits left alone.
 */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../../src/fs/memory_backend.ts";
import { createWorkspace } from "../../../../src/workspace.ts";
import { misfitEdits, misfitRefusal, type SiteMisfit } from "../../../../src/structural/edit/site_fit.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });

/** The misfits of replacing each occurrence of `old` in `text` by `by` (as a node edit would). */
async function misfits(language: string, text: string, old: string, by: string): Promise<SiteMisfit[]> {
  const edits: { start: number; end: number; text: string }[] = [];
  for (let at = text.indexOf(old); at !== -1; at = text.indexOf(old, at + old.length)) {
    edits.push({ start: at, end: at + old.length, text: by });
  }
  assert.ok(edits.length > 0, `"${old}" is not in the text`);
  let next = "";
  let last = 0;
  for (const e of edits) [next, last] = [next + text.slice(last, e.start) + e.text, e.end];
  next += text.slice(last);
  const path = `f.${{ javascript: "js", python: "py", go: "go", html: "html" }[language]}`;
  return await misfitEdits(ws, { path, language, text, version: `v${text.length}` }, { text: next, edits });
}

const JS = [
  "function find(tags, name) {",
  "  const tag = tags.get(name);",
  "  if (!tag)",
  "    throw new Error(name);",
  "  if (tag.old) {",
  "    throw new Error(tag.old);",
  "  }",
  "  return tag.size(name) * 2;",
  "}",
  "",
].join("\n");

Deno.test("two statements in place of a body without braces do not fit; inside braces they do", async () => {
  // (With an `else` after the body, the same edit is a parse error: the syntax guard's to report, not this.)
  const found = await misfits(
    "javascript",
    JS,
    "throw new Error(name);",
    "const e = new Error(name);\n    throw e;",
  );
  assert.deepEqual(found, [{
    index: 0,
    line: 4,
    column: 5,
    holder: "if_statement",
    holder_line: 3,
    reason: "reshaped",
  }]);
  assert.deepEqual(
    await misfits(
      "javascript",
      JS,
      "throw new Error(tag.old);",
      "const e = new Error(tag.old);\n    throw e;",
    ),
    [],
  );
  assert.deepEqual(
    await misfits(
      "javascript",
      JS,
      "throw new Error(name);",
      "{\n    const e = new Error(name);\n    throw e;\n  }",
    ),
    [],
  );
  const withElse = JS.replace("  if (tag.old) {", "  else if (tag.old) {");
  assert.deepEqual(
    await misfits("javascript", withElse, "throw new Error(name);", "const e = 1;\n    throw e;"),
    [],
  );
  // One statement for one: fits, even of another kind.
  assert.deepEqual(await misfits("javascript", JS, "throw new Error(name);", "return null;"), []);
});

Deno.test("an expression an operator around it would read across is split; in parentheses it fits", async () => {
  const found = await misfits("javascript", JS, "tag.size(name)", "name.length + 1");
  assert.equal(found.length, 1);
  assert.equal(found[0]!.reason, "split");
  assert.equal(found[0]!.holder, "binary_expression");
  assert.equal(found[0]!.line, 8);
  assert.deepEqual(await misfits("javascript", JS, "tag.size(name)", "(name.length + 1)"), []);
  assert.deepEqual(await misfits("javascript", JS, "tag.size(name)", "name.length"), []);
});

Deno.test("removing the only statement of a body without braces makes the next one its body: refused", async () => {
  const found = await misfits("javascript", JS, "throw new Error(name);", "");
  assert.equal(found.length, 1);
  assert.equal(found[0]!.removed, true);
  assert.equal(found[0]!.holder, "if_statement");
  // Removing a statement of a block leaves the block as it was otherwise.
  assert.deepEqual(await misfits("javascript", JS, "  const tag = tags.get(name);\n", ""), []);
});

Deno.test("Python: two statements after `if x:` on one line do not fit; in an indented block they do", async () => {
  const py =
    "def run(items):\n    if items: log(items)\n    for i in items:\n        log(i)\n    return items\n";
  const inline = await misfits("python", py, "log(items)", "print(items)\nlog(items)");
  assert.deepEqual(inline.map((m) => [m.line, m.holder]), [[2, "if_statement"]]);
  assert.deepEqual(await misfits("python", py, "log(i)", "print(i)\n        log(i)"), []);
});

Deno.test("Go: a statement for a statement fits; several sites in one file are each placed", async () => {
  const go = "package p\n\nfunc f(x int) int {\n\tif x > 0 {\n\t\tpanic(x)\n\t}\n\tpanic(x)\n}\n";
  assert.deepEqual(await misfits("go", go, "panic(x)", 'log.Print("x")\n\tpanic(x)'), []);
  const split = await misfits("go", "package p\n\nvar y = g(1) * 2\nvar z = g(1) * 3\n", "g(1)", "1 + 1");
  assert.deepEqual(split.map((m) => [m.index, m.line, m.reason]), [[0, 3, "split"], [1, 4, "split"]]);
});

Deno.test("nodes that take the whitespace after them (HTML) fit their own text and a like element", async () => {
  const html = '<html><head>\n<meta charset="utf-8">\n<title>t</title>\n</head></html>\n';
  assert.deepEqual(await misfits("html", html, '<meta charset="utf-8">', '<meta charset="utf-8">'), []);
  assert.deepEqual(await misfits("html", html, "<title>t</title>", "<title>u</title>"), []);
});

Deno.test("the refusal names each site by path, line and column, with its id, and says nothing was written", async () => {
  const [m] = await misfits("javascript", JS, "throw new Error(name);", "const e = 1;\n    throw e;");
  const err = misfitRefusal([{ path: "src/find.js", misfit: m!, id: "src/find.js:4:5@abc" }], "leave it out");
  assert.equal(err.code, "syntax_error");
  assert.match(err.message, /src\/find\.js:4:5: the if_statement that held it \(line 3\)/);
  assert.match(err.message, /Nothing was written$/);
  assert.match(err.hint!, /braces \{ … \}.*leave it out$/);
  assert.deepEqual(err.details!["sites"], [{
    path: "src/find.js",
    line: 4,
    column: 5,
    holder: "if_statement",
    holder_line: 3,
    reason: "reshaped",
    id: "src/find.js:4:5@abc",
  }]);
});

Deno.test("offsets past text outside the Basic Multilingual Plane are placed right (UTF-16 code units)", async () => {
  const js =
    'function f(t) {\n  const s = "😀 ü 😀";\n  if (!t) throw new Error("😀");\n  if (t) {\n    throw new Error("😀");\n  }\n}\n';
  const found = await misfits("javascript", js, 'throw new Error("😀");', 'log("😀");\n  throw new E("😀");');
  assert.deepEqual(found.map((m) => [m.line, m.column, m.holder]), [[3, 11, "if_statement"]]);
  const fits = await misfits("javascript", js, 's = "😀 ü 😀"', 's = "ü"');
  assert.deepEqual(fits, []);
});
