import assert from "node:assert/strict";
import type { Node, Parser } from "web-tree-sitter";
import { Grammars } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import {
  MAX_LISTS_PER_TREE,
  MAX_NODES_PER_TREE,
  nodesAroundToken,
  nodesOfKind,
  rarestText,
  rootOf,
} from "../../../src/syntax/node_index.ts";

const grammars = new Grammars(createWasmLoader());
const SOURCE = await Deno.readTextFile(new URL("../../../src/fs/stage.ts", import.meta.url));

/** Every node of the kind by a cursor walk from JavaScript: what the index must equal. */
function walked(root: Node, type: string, named: boolean): number[] {
  const out: number[] = [];
  const cursor = root.walk();
  for (;;) {
    if (cursor.nodeType === type && cursor.nodeIsNamed === named) out.push(cursor.currentNode.id);
    if (cursor.gotoFirstChild()) continue;
    let up = true;
    while (up && !cursor.gotoNextSibling()) up = cursor.gotoParent();
    if (!up) break;
  }
  cursor.delete();
  return out;
}

async function parser(language: string): Promise<Parser> {
  return await grammars.parser(language);
}

Deno.test("nodesOfKind() finds what a walk of every node finds, in document order, named and anonymous kinds apart", async () => {
  const tree = (await parser("typescript")).parse(SOURCE)!;
  for (
    const [type, named] of [
      ["call_expression", true],
      ["return_statement", true],
      ["identifier", true],
      ["return", false],
      ["(", false],
    ] as const
  ) {
    const found = nodesOfKind(tree.rootNode, { text: SOURCE, type, named });
    assert.ok(found.length > 0, type);
    assert.deepEqual(found.map((n) => n.id), walked(tree.rootNode, type, named), type);
  }
  tree.delete();
});

Deno.test("nodesOfKind() and nodesAroundToken() hand back the same nodes for the same tree, and nothing stale for a new one", async () => {
  const p = await parser("javascript");
  const text = "function f() { return 1; }\n";
  const tree = p.parse(text)!;
  const kind = { text, type: "return_statement", named: true };
  const first = nodesOfKind(tree.rootNode, kind);
  assert.equal(nodesOfKind(tree.rootNode, kind), first);
  const around = { ...kind, token: "return" };
  assert.equal(nodesAroundToken(tree.rootNode, around), nodesAroundToken(tree.rootNode, around));
  const edited = "function f() { return 1; }\nfunction g() { return 2; }\n";
  const other = p.parse(edited)!;
  assert.equal(nodesOfKind(other.rootNode, { ...kind, text: edited }).length, 2);
  // Under a node that is not the tree's root: found, not remembered as the tree's list.
  const fn = other.rootNode.child(1)!;
  assert.deepEqual(nodesOfKind(fn, { ...kind, text: edited }).map((n) => n.text), ["return 2;"]);
  assert.equal(nodesOfKind(other.rootNode, { ...kind, text: edited }).length, 2);
  tree.delete();
  other.delete();
});

Deno.test("rootOf() asks each tree for its root once; a list found from either root object is the tree's", async () => {
  const p = await parser("javascript");
  const text = "function f() { return 1; }\n";
  const tree = p.parse(text)!;
  const root = rootOf(tree);
  assert.equal(rootOf(tree), root);
  assert.equal(root.id, tree.rootNode.id);
  const kind = { text, type: "return_statement", named: true };
  // The root tree-sitter hands out anew and the one kept are the same node: both get the remembered list.
  assert.equal(nodesOfKind(tree.rootNode, kind), nodesOfKind(root, kind));
  const other = p.parse(text)!;
  assert.notEqual(rootOf(other), root);
  assert.notEqual(nodesOfKind(rootOf(other), kind)[0], nodesOfKind(root, kind)[0]);
  tree.delete();
  other.delete();
});

Deno.test("nodesAroundToken() takes a token only where it is a whole leaf: not inside a longer name, a string or a comment", async () => {
  const p = await parser("javascript");
  const text = [
    'c.req.header("x");',
    "c.req.headers.get(a);",
    'log("c.req.header(y)");',
    "// c.req.header(z)",
    "c.req\n  .header(w);",
    "",
  ].join("\n");
  const tree = p.parse(text)!;
  const found = nodesAroundToken(tree.rootNode, {
    text,
    token: "header",
    type: "call_expression",
    named: true,
  });
  assert.deepEqual(found.map((n) => n.text), ['c.req.header("x")', "c.req\n  .header(w)"]);
  // Every call whose name is a leaf `header`, against the walk of every call.
  const all = nodesOfKind(tree.rootNode, { text, type: "call_expression", named: true });
  const viaWalk = all.filter((n) => n.childForFieldName("function")?.lastChild?.text === "header");
  assert.deepEqual(found.map((n) => n.id), viaWalk.map((n) => n.id));
  tree.delete();
});

Deno.test("nodesAroundToken() lists nested nodes outer first, each once", async () => {
  const p = await parser("javascript");
  const text = "f(f(f(1)));\n";
  const tree = p.parse(text)!;
  const found = nodesAroundToken(tree.rootNode, { text, token: "f", type: "call_expression", named: true });
  assert.deepEqual(found.map((n) => n.text), ["f(f(f(1)))", "f(f(1))", "f(1)"]);
  tree.delete();
});

Deno.test("nodesAroundToken() on a 3,000-link call chain and 3,000 statements: every call around a leaf `b`, outer first, as a walk of every call finds them", async () => {
  const p = await parser("javascript");
  // A left-nested chain (each call 2 levels below the next: the walk up from its first `b` is 6,000 deep), a
  // wide file (3,000 statements under one node), and a `b` inside a longer name and a string between.
  for (
    const text of [
      "a" + ".b()".repeat(3000) + ";\n",
      "x.b();\n".repeat(1500) + 'bb(); "b";\n' + "y.b(1);\n".repeat(1500),
    ]
  ) {
    const tree = p.parse(text)!;
    const found = nodesAroundToken(tree.rootNode, { text, token: "b", type: "call_expression", named: true });
    const all = nodesOfKind(tree.rootNode, { text, type: "call_expression", named: true });
    const viaWalk = all.filter((n) => n.childForFieldName("function")?.lastChild?.text === "b");
    assert.equal(found.length, 3000);
    assert.deepEqual(found.map((n) => n.id), viaWalk.map((n) => n.id));
    assert.ok(
      found.every((n, i) =>
        i === 0 || n.startIndex > found[i - 1]!.startIndex || n.endIndex < found[i - 1]!.endIndex
      ),
    );
    tree.delete();
  }
});

Deno.test(`a tree keeps at most ${MAX_LISTS_PER_TREE} lists: the oldest is found again, the rest are kept`, async () => {
  const p = await parser("javascript");
  const text = "a(1); b(2); c(3);\n";
  const tree = p.parse(text)!;
  const lists = Array.from(
    { length: MAX_LISTS_PER_TREE + 1 },
    (_, i) => nodesAroundToken(tree.rootNode, { text, token: `t${i}`, type: "call_expression", named: true }),
  );
  const again = (i: number) =>
    nodesAroundToken(tree.rootNode, { text, token: `t${i}`, type: "call_expression", named: true });
  assert.equal(again(MAX_LISTS_PER_TREE), lists[MAX_LISTS_PER_TREE]);
  assert.equal(again(1), lists[1]);
  assert.notEqual(again(0), lists[0]); // dropped: found anew
  tree.delete();
});

Deno.test(`a tree keeps at most ${MAX_NODES_PER_TREE} nodes in its lists: the oldest list goes, a longer one is never kept`, async () => {
  const p = await parser("javascript");
  const statements = Math.ceil(MAX_NODES_PER_TREE * 0.6); // two such lists are over the bound, one is not
  const text = "a;".repeat(statements) + "\n";
  const tree = p.parse(text)!;
  const ask = (type: string) => nodesOfKind(tree.rootNode, { text, type, named: true });
  const identifiers = ask("identifier");
  assert.equal(identifiers.length, statements);
  assert.equal(ask("identifier"), identifiers); // within the bound: kept
  const statementList = ask("expression_statement");
  assert.equal(ask("expression_statement"), statementList);
  const again = ask("identifier"); // pushed out by the second list: found anew, the same nodes
  assert.notEqual(again, identifiers);
  assert.deepEqual(again.map((n) => n.id), identifiers.map((n) => n.id));
  const many = "x;".repeat(MAX_NODES_PER_TREE + 1) + "\n";
  const big = p.parse(many)!;
  const all = nodesOfKind(big.rootNode, { text: many, type: "identifier", named: true });
  assert.equal(all.length, MAX_NODES_PER_TREE + 1);
  assert.notEqual(nodesOfKind(big.rootNode, { text: many, type: "identifier", named: true }), all); // never kept
  tree.delete();
  big.delete();
});

Deno.test("rarestText() picks the text with the fewest occurrences, the first of equals, and never an empty one", () => {
  assert.equal(rarestText("c.req.header(c.req.url)", ["req", "header", "c"]), "header");
  assert.equal(rarestText("a b a b", ["a", "b"]), "a");
  assert.equal(rarestText("x y", ["", "y"]), "y");
});
