import assert from "node:assert/strict";
import { TextIndex } from "../../../src/syntax/text_index.ts";

Deno.test("TextIndex.byte() equals the UTF-8 length of the prefix, for ASCII and non-ASCII text", () => {
  for (const text of ["plain ascii\nline two\n", "héllo wörld\n€ sign\n😀 emoji 😀\nend", ""]) {
    const index = new TextIndex(text);
    const enc = new TextEncoder();
    for (let i = 0; i <= text.length; i++) {
      const code = text.charCodeAt(i - 1);
      if (i > 0 && code >= 0xd800 && code <= 0xdbff) continue; // inside a surrogate pair
      assert.equal(
        index.byte(i),
        enc.encode(text.slice(0, i)).length,
        `offset ${i} of ${JSON.stringify(text)}`,
      );
    }
  }
});

Deno.test("TextIndex.line() and range() use 1-based inclusive lines", () => {
  const text = "a\nbb\n\nccc";
  const index = new TextIndex(text);
  assert.equal(index.line(0), 1);
  assert.equal(index.line(2), 2);
  assert.equal(index.line(5), 3);
  assert.equal(index.line(6), 4);
  // A span ending right after a newline ends on the line before.
  assert.deepEqual(index.range(2, 5), {
    start_line: 2,
    end_line: 2,
    start_utf16: 2,
    end_utf16: 5,
    start_byte: 2,
    end_byte: 5,
  });
});
