import assert from "node:assert/strict";
import { requiredLiterals } from "../../../src/search/required_literals.ts";

Deno.test("required_literals: the longest literal run every match holds", () => {
  const cases: [string, string[] | null][] = [
    ["createElement", ["createElement"]],
    ["new\\s+Error\\(", ["Error("]],
    ["colou?r", ["colo"]],
    ["ab+c", ["ab"]],
    ["x{0,3}yz", ["yz"]],
    ["a{2}bc", ["bc"]],
    ["foo(bar|baz)qux", ["foo"]],
    ["[abc]def", ["def"]],
    ["\\x41BCDEgh", ["DEgh"]], // the escape's hex digits are skipped, never taken as literal text
    ["\\p{Lu}ppercase", ["ppercase"]],
    ["a\\.b", ["a.b"]],
    ["TODO|FIXME", ["TODO", "FIXME"]],
    ["\\w+", null],
    ["foo|.*", null],
    ["(?i)hello", ["hello"]],
  ];
  for (const [pattern, want] of cases) {
    assert.deepEqual(requiredLiterals(pattern), want, pattern);
  }
});
