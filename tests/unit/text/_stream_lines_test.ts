import assert from "node:assert/strict";
import { LineSplitter } from "../../../src/text/_stream_lines.ts";
import { inputLines } from "../../../src/text/_input.ts";

function split(pieces: string[]): string[] {
  const s = new LineSplitter();
  const out = pieces.flatMap((p) => s.push(p));
  return [...out, ...s.finish()];
}

Deno.test("LineSplitter gives the one-shot parsers' lines however the text is cut", () => {
  const texts = ["a\nb\n", "a\r\nb\r\n\r\n", "a\rb\r", "a\n\n\nb", "", "\n", "\r\n", "x\r\n\ry\n\r"];
  for (const text of texts) {
    for (let cut = 0; cut <= text.length; cut++) {
      assert.deepEqual(
        split([text.slice(0, cut), text.slice(cut)]),
        inputLines(text),
        JSON.stringify([text, cut]),
      );
    }
    assert.deepEqual(split([...text]), inputLines(text), JSON.stringify(text));
  }
});

Deno.test("LineSplitter gives a line as soon as its ending arrives, and holds a final CR for the next chunk", () => {
  const s = new LineSplitter();
  assert.deepEqual(s.push("one\ntw"), ["one"]);
  assert.deepEqual(s.push("o\r"), ["two"]);
  assert.deepEqual(s.push("\nthree"), []);
  assert.deepEqual(s.push(""), []);
  assert.deepEqual(s.finish(), ["three"]);
});
