import assert from "node:assert/strict";
import { bracketsBalance } from "../../../src/syntax/brackets.ts";

Deno.test("bracketsBalance: every bracket opened outside a string is closed, in order (patterns cut short)", () => {
  const cases: [string, boolean][] = [
    ["import {$$$A} from $B", true],
    ["f($A", false],
    ["if ($C) {", false],
    ["f(]", false],
    ["a)(", false],
    ["f(\"(\", `{`, '[')", true],
    ['f("\\"(")', true],
    ["$A ? $B", true],
  ];
  for (const [text, closes] of cases) assert.equal(bracketsBalance(text), closes, text);
});
