import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { isEffect, MAYBE_EFFECT_TYPES } from "../../../../src/structural/shared/effects.ts";
import { GRAMMARS } from "../_fixtures.ts";

Deno.test("isEffect() holds for calls, assignments, updates, await, yield and delete, not for reads", async () => {
  const parser = await GRAMMARS.parser("typescript");
  const text =
    "async function* f(o: any, i: number) {\n  g(); o.x = 1; i++; await p; yield i; delete o.y; o.z; -i;\n}\n";
  const root = parser.parse(text)!.rootNode;
  const statements = root.descendantsOfType("expression_statement").filter((n): n is Node => n !== null);
  const effectful = statements.map((s) => {
    const expr = s.namedChildren[0]!;
    return [expr.text, isEffect(expr)];
  });
  assert.deepEqual(effectful, [
    ["g()", true],
    ["o.x = 1", true],
    ["i++", true],
    ["await p", true],
    ["yield i", true],
    ["delete o.y", true],
    ["o.z", false],
    ["-i", false],
  ]);
  // every effectful type above is among the types to look for before walking a node
  for (const [, expr] of statements.map((s) => [s, s.namedChildren[0]!] as const)) {
    if (isEffect(expr)) assert.ok(MAYBE_EFFECT_TYPES.includes(expr.type), expr.type);
  }
  parser.delete();
});
