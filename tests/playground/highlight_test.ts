import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { Grammars } from "../../src/mod.ts";
import { createWasmLoader } from "../../src/adapters/deno/mod.ts";
import { highlightSpans, type TokenSpan } from "../../examples/playground/highlight.ts";
import { SAMPLE_FILES } from "../../examples/playground/sample.ts";

const grammars = new Grammars(createWasmLoader());

async function spans(language: string, text: string): Promise<TokenSpan[]> {
  const tree = (await grammars.parser(language)).parse(text)!;
  try {
    return highlightSpans(tree.rootNode as Node);
  } finally {
    tree.delete();
  }
}

function painted(text: string, list: TokenSpan[]): string[] {
  return list.map((s) => `${s.kind}:${text.slice(s.from, s.to)}`);
}

Deno.test("highlightSpans() classifies TypeScript tokens by node kind", async () => {
  const text = 'export function f(n: number): string {\n  // note\n  return `${n} items`.trim() + "!";\n}\n';
  const got = painted(text, await spans("typescript", text));
  for (
    const want of [
      "keyword:export",
      "keyword:function",
      "function:f",
      "type:number",
      "type:string",
      "comment:// note",
      "keyword:return",
      "string:`",
      "string: items",
      "function:trim",
      'string:"!"',
    ]
  ) assert.ok(got.includes(want), `expected ${want} in ${got.join(" | ")}`);
  // The substitution's identifier is code, not string.
  assert.ok(!got.includes("string:n"));
});

Deno.test("highlightSpans() spans are ordered, disjoint and inside the text (every sample file)", async () => {
  for (const [path, text] of Object.entries(SAMPLE_FILES)) {
    const language = grammars.languageOf(path);
    if (!language) continue;
    const list = await spans(language, text);
    assert.ok(list.length > 0, path);
    let at = 0;
    for (const s of list) {
      assert.ok(s.from >= at && s.to > s.from && s.to <= text.length, `${path}: ${JSON.stringify(s)}`);
      at = s.to;
    }
  }
});

Deno.test("highlightSpans() paints Python strings, comments and definitions", async () => {
  const text = 'def report(rows):\n    """Doc."""\n    return None  # done\n';
  const got = painted(text, await spans("python", text));
  for (
    const want of ["keyword:def", "function:report", 'string:"""Doc."""', "constant:None", "comment:# done"]
  ) {
    assert.ok(got.includes(want), `expected ${want} in ${got.join(" | ")}`);
  }
});
