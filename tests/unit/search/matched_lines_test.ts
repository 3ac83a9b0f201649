import assert from "node:assert/strict";
import {
  linesAfter,
  linesBefore,
  lineText,
  matchedLines,
  positionAfter,
} from "../../../src/search/matched_lines.ts";

Deno.test("matched_lines: matches group by line; a multi-line match reaches its last line", () => {
  const text = "a\nbb\nccc\n";
  const lines = matchedLines(text, [2, 3, 3, 4, 3, 6]);
  assert.deepEqual(lines, [{ line: 2, start: 2, end: 8, spans: [2, 3, 3, 4, 3, 6] }]);
  assert.deepEqual(positionAfter(text, { line: 2, start: 2 }, 6), { line: 3, column: 2 });
});

Deno.test("matched_lines: context stops at the file's edges; CR is not part of a line", () => {
  const text = "one\r\ntwo\r\nthree";
  assert.equal(lineText(text, 0, 4), "one");
  assert.deepEqual(linesBefore(text, { start: 5, count: 3 }), ["one"]);
  assert.deepEqual(linesAfter(text, { end: 9, count: 3 }), ["three"]);
  assert.deepEqual(linesAfter("a\n", { end: 1, count: 2 }), []);
});
