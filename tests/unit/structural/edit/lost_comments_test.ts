/**
 * lostComments: the comments inside a match that a rewrite would take away — outside every binding and not
 * written by the rewrite — with the real grammars of JavaScript, Python and Rust (each its own comment kinds).
 */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../../src/fs/memory_backend.ts";
import { createWorkspace } from "../../../../src/workspace.ts";
import { lostComments } from "../../../../src/structural/edit/lost_comments.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });

/** The comments lost in the first node of `kind` in `text`, its bindings the ranges of the texts `bound`. */
async function lost(
  language: string,
  text: string,
  at: { kind: string; bound: string[]; replacement: string },
): Promise<string[]> {
  const { tree } = await ws.trees!.parse(`f.${language}`, language, `v${text.length}`, text);
  const node = tree.rootNode.descendantsOfType(at.kind)[0];
  assert.ok(node, `no ${at.kind}`);
  const bindings = at.bound.map((b) => {
    const start = text.indexOf(b, node.startIndex);
    return { start, end: start + b.length };
  });
  return lostComments(node, { text, language, bindings, replacement: at.replacement });
}

Deno.test("a comment outside every binding is lost, in JavaScript, Python and Rust", async () => {
  assert.deepEqual(
    await lost("javascript", "foo(a, /* keep */ b); // after\n", {
      kind: "call_expression",
      bound: ["a", "b"],
      replacement: "bar(b, a)",
    }),
    ["/* keep */"], // the comment after the call is not inside it
  );
  assert.deepEqual(
    await lost("python", "total = add(\n    x,  # the first\n    y,\n)\n", {
      kind: "call",
      bound: ["x", "y"],
      replacement: "x + y",
    }),
    ["# the first"],
  );
  assert.deepEqual(
    await lost("rust", "fn f() {\n    let v = g(a, /* why */ b, // line\n        c);\n}\n", {
      kind: "call_expression",
      bound: ["a", "b", "c"],
      replacement: "h(a, b, c)",
    }),
    ["/* why */", "// line"],
  );
});

Deno.test("a comment inside a binding, or written by the rewrite, is not lost", async () => {
  const text = "foo(a, /* keep */ b);\n";
  // `$$$A` bound the whole run, comment included.
  assert.deepEqual(
    await lost("javascript", text, {
      kind: "call_expression",
      bound: ["a, /* keep */ b"],
      replacement: "bar(a, /* keep */ b)",
    }),
    [],
  );
  assert.deepEqual(
    await lost("javascript", text, {
      kind: "call_expression",
      bound: ["a", "b"],
      replacement: "bar(b, /* keep */ a)",
    }),
    [],
  );
  assert.deepEqual(
    await lost("javascript", "foo(a, b);\n", {
      kind: "call_expression",
      bound: ["a", "b"],
      replacement: "bar(b, a)",
    }),
    [],
  );
});
