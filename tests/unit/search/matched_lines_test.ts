import assert from "node:assert/strict";
import {
  linesAfter,
  linesBefore,
  LineStarts,
  lineText,
  matchedLines,
  positionAfter,
  PositionCursor,
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

Deno.test("matched_lines: kept line starts give the same lines to a later search, found only as far as asked", () => {
  // typescript's lib.es5.d.ts (npm typescript), ~4,600 lines.
  const text = Deno.readTextFileSync(
    new URL("../../../node_modules/typescript/lib/lib.es5.d.ts", import.meta.url),
  );
  const hitsOf = (word: string) => {
    const hits: number[] = [];
    for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
      hits.push(at, at + word.length);
    }
    return hits;
  };
  const kept = new LineStarts(text);
  const first = hitsOf("interface").slice(0, 2);
  assert.deepEqual(matchedLines(text, first, { lines: kept }), matchedLines(text, first));
  for (const word of ["ReadonlyArray", "interface", "e", "readonly"]) {
    const hits = hitsOf(word);
    assert.ok(hits.length > 0, word);
    assert.deepEqual(matchedLines(text, hits, { lines: kept }), matchedLines(text, hits), word);
  }
  const lastLine = text.split("\n").length;
  assert.deepEqual(kept.lineAt(0), { line: 1, start: 0 });
  assert.deepEqual(kept.lineAt(text.length), { line: lastLine, start: text.lastIndexOf("\n") + 1 });
  assert.deepEqual(new LineStarts("").lineAt(0), { line: 1, start: 0 });
  assert.deepEqual(new LineStarts("a\n").lineAt(2), { line: 2, start: 2 }, "after a final line end");
});

Deno.test("matched_lines: a later match of a line that runs past its end moves the line's end; the others do not", () => {
  const text = "aXb\nc\nd\n";
  // "a", then "b\nc" (to line 2), then "X" (inside line 1 again).
  assert.deepEqual(matchedLines(text, [0, 1, 2, 5, 1, 2]), [{
    line: 1,
    start: 0,
    end: 5,
    spans: [0, 1, 2, 5, 1, 2],
  }]);
  const long = "x".repeat(50_000) + "\nnext\n";
  const hits = Array.from({ length: 50_000 }, (_, i) => [i, i + 1]).flat();
  const [only] = matchedLines(long, hits);
  assert.equal(only!.end, 50_000);
  assert.equal(only!.spans.length, 100_000);
});

Deno.test("PositionCursor answers as positionAfter from the top does, for offsets in order or not", () => {
  const text = "ab\n\ncd\r\nlong " + "x".repeat(1000) + "\nend";
  const offsets = [0, 1, 2, 3, 4, 7, 9, 500, 1009, text.length - 1, 5, 0, text.length];
  const cursor = new PositionCursor(text);
  for (const offset of offsets) {
    assert.deepEqual(cursor.at(offset), positionAfter(text, { line: 1, start: 0 }, offset), String(offset));
  }
});
