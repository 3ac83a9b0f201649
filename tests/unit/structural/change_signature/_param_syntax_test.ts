import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { newParamText, paramSyntaxOf } from "../../../../src/structural/change_signature/_param_syntax.ts";
import { GRAMMARS } from "../_fixtures.ts";

/** Each parameter of the first function of `text`, read by the language's family. */
async function paramsOf(language: string, text: string) {
  const parser = await GRAMMARS.parser(language);
  const fn = parser.parse(text)!.rootNode.namedChildren[0]!;
  const list = fn.childForFieldName("parameters")!;
  const syntax = paramSyntaxOf(language);
  let afterStar = false;
  const out = list.namedChildren.filter((k): k is Node => k !== null && k.type !== "comment").map(
    (k, index) => {
      const p = syntax.read(k, { index, afterStar });
      if (p.role === "star" || p.role === "rest") afterStar = true;
      return [p.name, p.role, p.hasDefault, p.optional];
    },
  );
  parser.delete();
  return out;
}

Deno.test("Python's parameter syntax: defaults, the / and * markers, *args, keyword-only, **kwargs", async () => {
  assert.deepEqual(
    await paramsOf("python", "def f(a, b: int = 1, /, c=2, *args, d, e: str, **kw):\n    pass\n"),
    [
      ["a", "positional", false, false],
      ["b", "positional", true, false],
      ["/", "slash", false, false],
      ["c", "positional", true, false],
      ["args", "rest", false, false],
      ["d", "keyword_only", false, false],
      ["e", "keyword_only", false, false],
      ["kw", "kwrest", false, false],
    ],
  );
});

Deno.test("ECMAScript's parameter syntax: optional, defaulted, destructured and rest parameters", async () => {
  assert.deepEqual(
    await paramsOf("typescript", "function f(a: string, b?: number, c = 1, { d }: T, ...rest: R[]) {}\n"),
    [
      ["a", "positional", false, false],
      ["b", "positional", false, true],
      ["c", "positional", true, false],
      ["#3", "positional", false, false],
      ["rest", "rest", false, false],
    ],
  );
});

Deno.test("newParamText() writes a new parameter as its family and language do", () => {
  const p = { name: "limit", old: null, default: "10", type: "int" };
  assert.equal(newParamText(p, "python"), "limit: int = 10");
  assert.equal(newParamText({ ...p, type: undefined }, "python"), "limit=10");
  assert.equal(newParamText({ ...p, type: "number" }, "typescript"), "limit: number = 10");
  assert.equal(newParamText({ ...p, type: "number" }, "javascript"), "limit = 10");
  assert.equal(newParamText({ ...p, type: "number" }, "typescript", { signature: true }), "limit?: number");
  assert.equal(
    newParamText({ ...p, type: "number" }, "typescript", { signature: true, trailingOptional: false }),
    "limit: number | undefined",
  );
});
