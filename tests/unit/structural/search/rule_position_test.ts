/**
 * ast-grep's positional rule keys on their own: CSS's An+B as `nthChild` reads it, the index a node has among
 * its parent's named children (comments count, `ofRule` filters, `reverse` counts from the end), and `range`'s
 * 0-based lines and character columns. The same keys inside whole rules, and against ast-grep, are in
 * rule_test.ts and the search equality table.
 */
import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import {
  compileNthChild,
  compileRange,
  inRange,
  isAtPosition,
  nthPosition,
  type Refuse,
  SiblingIndex,
} from "../../../../src/structural/search/rule_position.ts";
import { Grammars } from "../../../../src/syntax/grammars.ts";

const refuse: Refuse = (where, message) => new Error(`${where} ${message}`);
const grammars = new Grammars(createWasmLoader());

/** The 1-based indexes out of 1..10 a position takes. */
function taken(position: unknown): number[] {
  const p = nthPosition(position, "nthChild", refuse);
  return Array.from({ length: 10 }, (_, i) => i + 1).filter((i) => isAtPosition(p, i));
}

Deno.test("nthPosition reads a number and CSS's An+B, spaces anywhere, as CSS takes the indexes", () => {
  assert.deepEqual(taken(3), [3]);
  assert.deepEqual(taken("3"), [3]);
  assert.deepEqual(taken("2n+1"), [1, 3, 5, 7, 9]);
  assert.deepEqual(taken(" 2n "), [2, 4, 6, 8, 10]);
  assert.deepEqual(taken("-n + 3"), [1, 2, 3]);
  assert.deepEqual(taken("n"), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(taken("3n-1"), [2, 5, 8]);
  assert.deepEqual(taken("-2"), []);
  assert.deepEqual(taken(0), []);
  for (const bad of ["2n+", "n+n", "3 + 5", "a", "", -1, 1.5, null, true]) {
    assert.throws(() => nthPosition(bad, "rule.nthChild", refuse), /rule\.nthChild must be a 1-based index/);
  }
});

Deno.test("SiblingIndex: named children only, comments among them, ofRule's siblings, from the end", async () => {
  const parser = await grammars.parser("javascript");
  const text = "f(a, /* c */ b, 1, c);\n";
  const args = parser.parse(text)!.rootNode.descendantsOfType("arguments")[0]!;
  const named = args.namedChildren.filter((c): c is Node => c !== null);
  assert.deepEqual(named.map((n) => n.text), ["a", "/* c */", "b", "1", "c"]);
  const at = (raw: unknown, taken: (n: Node) => boolean = () => true) => {
    const nth = compileNthChild(raw, "nthChild", { compile: (r) => r, refuse });
    const index = new SiblingIndex();
    return named.filter((n) => index.holds(n, nth, taken)).map((n) => n.text);
  };
  assert.deepEqual(at(3), ["b"]);
  assert.deepEqual(at({ position: 1, reverse: true }), ["c"]);
  const identifiers = (n: Node) => n.type === "identifier";
  assert.deepEqual(at({ position: 2, ofRule: {} }, identifiers), ["b"]);
  assert.deepEqual(at({ position: "n", ofRule: {} }, identifiers), ["a", "b", "c"]);
  // The root stands nowhere.
  const root = args.tree.rootNode;
  assert.equal(
    new SiblingIndex().holds(root, compileNthChild(1, "n", { compile: (r) => r, refuse }), () => true),
    false,
  );
  assert.throws(
    () => compileNthChild({ position: 1, revers: true }, "rule.nthChild", { compile: (r) => r, refuse }),
    /rule\.nthChild\.revers is not a key of nthChild/,
  );
});

Deno.test("range: 0-based lines and columns in characters (an emoji is one), the end exclusive", async () => {
  const parser = await grammars.parser("typescript");
  const text = "let a = 1;\nlet s = '🦄'; let t = \"x\";\n";
  const strings = parser.parse(text)!.rootNode.descendantsOfType("string");
  const range = (sl: number, sc: number, el: number, ec: number) =>
    compileRange({ start: { line: sl, column: sc }, end: { line: el, column: ec } }, "range", refuse);
  assert.deepEqual(strings.filter((n) => inRange(n!, range(1, 8, 1, 11), text)).map((n) => n!.text), [
    "'🦄'",
  ]);
  assert.deepEqual(strings.filter((n) => inRange(n!, range(1, 21, 1, 24), text)).map((n) => n!.text), [
    '"x"',
  ]);
  assert.deepEqual(strings.filter((n) => inRange(n!, range(1, 22, 1, 25), text)), []); // UTF-16 columns miss it
  assert.throws(() => range(1, 5, 0, 9), /range starts after it ends/);
  assert.throws(
    () => compileRange({ start: { line: 0 } }, "rule.range", refuse),
    /rule\.range\.start must be/,
  );
});
