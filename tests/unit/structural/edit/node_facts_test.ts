import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { nodeFacts } from "../../../../src/structural/edit/node_facts.ts";
import { compilePattern, matchPattern } from "../../../../src/structural/edit/pattern.ts";
import { Grammars } from "../../../../src/syntax/grammars.ts";

const grammars = new Grammars(createWasmLoader());

/** Every node of a tree, depth first. */
function allNodes(root: Node): Node[] {
  return [root, ...root.children.filter((c) => c !== null).flatMap(allNodes)];
}

Deno.test("nodeFacts: each node's type, namedness and end as the tree gives them, in every language", async () => {
  const sources: Record<string, string> = {
    typescript: "export const f = (x: number): string => `${x}é`; // ✓\n",
    python: 'def f(x):\n    return "ü" if x else None\n',
    rust: 'fn main() { let s = "ß"; println!("{}", s); }\n',
  };
  for (const [language, text] of Object.entries(sources)) {
    const parser = await grammars.parser(language);
    for (const n of allNodes(parser.parse(text)!.rootNode)) {
      assert.deepEqual(nodeFacts(n), { type: n.type, named: n.isNamed, end: n.endIndex }, `${language} ${n}`);
      assert.equal(nodeFacts(n), nodeFacts(n));
    }
  }
});

Deno.test("a second pattern over the same node objects reads no node fact from wasm", async () => {
  const parser = await grammars.parser("javascript");
  const text = "function f(a) { if (a) return a + 1; return g(a, 2); }\n";
  const root = parser.parse(text)!.rootNode;
  const first = matchPattern(compilePattern(parser, "javascript", "return $X;"), root, { text });
  assert.deepEqual(first.map((m) => m.bindings["X"]!.text), ["a + 1", "g(a, 2)"]);
  const second = compilePattern(parser, "javascript", "return $Y;");
  // Count the calls into wasm a match makes for a node's end, type and namedness from here on.
  const proto = Object.getPrototypeOf(root) as object;
  const calls: string[] = [];
  const saved = ["endIndex", "type", "isNamed"].map((name) => {
    const d = Object.getOwnPropertyDescriptor(proto, name)!;
    Object.defineProperty(proto, name, {
      ...d,
      get() {
        calls.push(name);
        return d.get!.call(this);
      },
    });
    return [name, d] as const;
  });
  try {
    const again = matchPattern(second, root, { text });
    assert.deepEqual(again.map((m) => m.bindings["Y"]!.text), ["a + 1", "g(a, 2)"]);
  } finally {
    for (const [name, d] of saved) Object.defineProperty(proto, name, d);
  }
  assert.deepEqual(calls, []);
});
