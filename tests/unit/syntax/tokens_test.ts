import assert from "node:assert/strict";
import { isComma, isToken, terminatorAfter } from "../../../src/syntax/tokens.ts";
import { GRAMMARS } from "../structural/_fixtures.ts";

Deno.test("terminatorAfter() is the `;` ending a C struct definition, not the one ending a list", async () => {
  const parser = await GRAMMARS.parser("c");
  const text = "struct point { int x; };\nint a, b;\n";
  const root = parser.parse(text)!.rootNode;
  const struct = root.descendantsOfType("struct_specifier")[0]!;
  assert.equal(terminatorAfter(struct)?.startIndex, text.indexOf("};") + 1);
  const b = root.descendantsOfType("identifier").find((n) => n?.text === "b")!;
  assert.equal(isComma(b.previousSibling), true);
  assert.equal(terminatorAfter(b), null);
  parser.delete();
});

Deno.test("isToken() takes anonymous tokens only, never a named node of the same type", async () => {
  const parser = await GRAMMARS.parser("typescript");
  const text = "f(a, b);\n";
  const args = parser.parse(text)!.rootNode.descendantsOfType("arguments")[0]!;
  const comma = args.children.find((c) => c?.type === ",")!;
  assert.equal(isToken(comma, ","), true);
  assert.equal(isComma(args.namedChildren[0]!), false);
  assert.equal(isToken(null, ","), false);
  parser.delete();
});
