import assert from "node:assert/strict";
import { TextDoc } from "../../../src/text/_doc.ts";
import { keyedCands } from "../../../src/text/_match_lines.ts";

// Issue 22, item 14: the whitespace tier finds its runs from the lines that hold the longest word of the
// longest search line, without keying every line of the file; the runs must be those of the keyed search.
Deno.test("keyedCands(squash) finds the same runs with and without the trim keys built", () => {
  let seed = 5;
  const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const pieces = ["a", "b  c", "\tb c ", "", "  ", "x\u00a0 y", "b c", "a  b", "d", "b\tc"];
  let found = 0;
  for (let round = 0; round < 400; round++) {
    const lines = Array.from({ length: 5 + random(30) }, () => pieces[random(pieces.length)]!);
    const text = lines.join(random(2) === 0 ? "\n" : "\r\n") + (random(2) === 0 ? "\n" : "");
    const at = random(lines.length);
    const search = lines.slice(at, at + 1 + random(3)).map((l) =>
      random(2) === 0 ? l.replace(/ /g, "   ") : l
    );
    const fresh = keyedCands(new TextDoc(text), "squash", search);
    const keyed = new TextDoc(text);
    keyed.keys("trim");
    assert.deepEqual(fresh, keyedCands(keyed, "squash", search), JSON.stringify({ text, search }));
    found += fresh.length;
  }
  assert.ok(found > 100, `${found} runs found`);
});

Deno.test("TextDoc.positionsOf() finds the same lines with and without the trim keys built", () => {
  let seed = 9;
  const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const pieces = ["}", "  }", "a}", "} a", "\t}\t", "b", " b c", "b c", "", "}}"];
  let found = 0;
  for (let round = 0; round < 300; round++) {
    const lines = Array.from({ length: 3 + random(30) }, () => pieces[random(pieces.length)]!);
    const text = lines.join(random(2) === 0 ? "\n" : "\r\n") + (random(2) === 0 ? "\n" : "");
    const wanted = ["}", "b c", "b", "}}"].filter(() => random(2) === 0);
    const keyed = new TextDoc(text);
    keyed.keys("trim");
    const fresh = new TextDoc(text).positionsOf(wanted);
    assert.deepEqual(fresh, keyed.positionsOf(wanted), JSON.stringify({ text, wanted }));
    for (const list of fresh.values()) found += list.length;
  }
  assert.ok(found > 300, `${found} lines found`);
});
