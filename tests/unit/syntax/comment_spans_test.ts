import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { commentSpans, onlyInComments } from "../../../src/syntax/comment_spans.ts";
import { Grammars } from "../../../src/syntax/grammars.ts";
import { TreeCache } from "../../../src/syntax/trees.ts";

const cache = new TreeCache(new Grammars(createWasmLoader()));
/** Whether every whole-word occurrence of `name` is in a comment. */
function nameOnlyInComments(text: string, name: string): boolean {
  const at = [...text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}_$])${name}(?![\\p{L}\\p{N}_$])`, "gu"))].map((
    m,
  ) => m.index);
  return onlyInComments(text, at, name.length);
}

/** The comment nodes tree-sitter finds: the truth the lexer must match whenever it answers. */
async function parsedComments(text: string): Promise<string[]> {
  const tree = await cache.parseDetached("typescript", text);
  try {
    return tree.rootNode.descendantsOfType("comment").map((n) => `${n!.startIndex}-${n!.endIndex}`);
  } finally {
    tree.delete();
  }
}

function* tsFiles(dir: URL): Generator<URL> {
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) yield* tsFiles(new URL(`${e.name}/`, dir));
    else if (e.name.endsWith(".ts")) yield new URL(e.name, dir);
  }
}

Deno.test("commentSpans() finds exactly tree-sitter's comments in every file it answers for (rxjs, zod)", async () => {
  const roots = [
    new URL("../../../node_modules/rxjs/src/", import.meta.url),
    new URL("../../../node_modules/.deno/zod@4.6.7/node_modules/zod/src/", import.meta.url),
  ];
  let answered = 0;
  let files = 0;
  for (const root of roots) {
    for (const url of tsFiles(root)) {
      const text = Deno.readTextFileSync(url);
      files++;
      const spans = commentSpans(text);
      if (!spans) continue;
      answered++;
      assert.deepEqual(spans.map((s) => `${s.start}-${s.end}`), await parsedComments(text), url.pathname);
    }
  }
  assert.ok(files > 500, `${files} files`);
  // It gives up rarely: a regular expression with non-ASCII text, a division after `++`.
  assert.ok(answered / files > 0.98, `answered for ${answered} of ${files}`);
});

Deno.test("commentSpans() gives up, or is right, where a slash or a quote could mislead it", async () => {
  const cases: [string, string, boolean | null][] = [
    // [text, name, onlyInComments expected (null: the lexer must give up)]
    ["a! / 2 + /[//]/.source; Observable;\n", "Observable", false],
    ['if (x) /"/.test(y); // Observable\n', "Observable", true],
    ["while (x) /'/.test(y); // Observable\n", "Observable", true],
    ["for await (const x of y) /'/.test(x); Observable;\n", "Observable", false],
    ['const s = "// Observable";\n', "Observable", false],
    ['const t = `${`${"//"}`} // Observable`;\n', "Observable", false],
    ["const t = `a${ {b: 1}.b }` // Observable\n", "Observable", true],
    ["x++ / 2; // Observable\n", "Observable", null],
    ["g<T> / 2; s = 'a/b//'; Observable;\n", "Observable", null],
    ["f(x) / 2; // Observable\n", "Observable", true],
    ["const r = /\\/\\/ Observable/;\n", "Observable", false],
    ["return /* Observable */ 1;\n", "Observable", true],
    ["#!/usr/bin/env node\n// Observable\nx;\n", "Observable", true],
    ["// a\u2028Observable();\n", "Observable", null],
    ["const é = 1; // Observable\n", "Observable", null],
    ["/* unterminated Observable\n", "Observable", null],
    ["<!-- Observable\n", "Observable", null],
    ["import { Observable } from './Observable'; // Observable\n", "Observable", false],
    ["/** {@link Observable} */\nexport function f() {}\n", "Observable", true],
  ];
  for (const [text, name, expected] of cases) {
    const spans = commentSpans(text);
    if (expected === null) {
      assert.equal(spans, null, text);
      assert.equal(nameOnlyInComments(text, name), false, text);
      continue;
    }
    assert.ok(spans, `the lexer answers for ${JSON.stringify(text)}`);
    assert.deepEqual(spans.map((s) => `${s.start}-${s.end}`), await parsedComments(text), text);
    assert.equal(nameOnlyInComments(text, name), expected, text);
  }
  assert.equal(nameOnlyInComments("// ObservableInput\n", "Observable"), false, "not the whole word");
});
