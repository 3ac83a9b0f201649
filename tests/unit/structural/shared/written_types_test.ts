import assert from "node:assert/strict";
import {
  declarationKeyword,
  declaredType,
  typed,
  writtenReturnType,
} from "../../../../src/structural/shared/written_types.ts";
import { GRAMMARS } from "../_fixtures.ts";

const TEXT = [
  "function f(a: string, b?: number, c = 1, ...rest: boolean[]): Map<string, number> {",
  "  let d: Set<string> = new Set();",
  "  const e = 'x';",
  "  var g = f;",
  "  return new Map();",
  "}",
  "",
].join("\n");

Deno.test("declaredType() reads annotations and certain literals; optional parameters take undefined", async () => {
  const parser = await GRAMMARS.parser("typescript");
  const root = parser.parse(TEXT)!.rootNode;
  const id = (name: string) => root.descendantsOfType("identifier").find((n) => n?.text === name)!;
  const typeOf = (name: string) => declaredType(id(name))?.text ?? null;
  assert.equal(typeOf("a"), "string");
  assert.equal(typeOf("b"), "number | undefined");
  assert.equal(typeOf("c"), "number");
  assert.equal(typeOf("rest"), "boolean[]");
  assert.equal(typeOf("d"), "Set<string>");
  assert.equal(typeOf("e"), "string");
  assert.equal(declaredType(id("c"))?.annotated, false);
  assert.equal(typeOf("g"), null);
  assert.deepEqual([declarationKeyword(id("d")), declarationKeyword(id("e")), declarationKeyword(id("g"))], [
    "let",
    "const",
    "var",
  ]);
  assert.equal(declarationKeyword(id("a")), null);
  const fn = root.descendantsOfType("function_declaration")[0]!;
  assert.equal(writtenReturnType(fn, false)?.text, "Map<string, number>");
  parser.delete();
});

Deno.test("typed() holds for the languages whose declarations carry written types", () => {
  assert.deepEqual(["typescript", "tsx", "javascript", "python"].map(typed), [true, true, false, false]);
});
