import assert from "node:assert/strict";
import {
  addSplice,
  applySplices,
  changedStretches,
  shiftAt,
  touchesSpan,
} from "../../../src/text/_splices.ts";
import type { TextSplice } from "../../../src/fs/text.ts";

const apply = (text: string, s: TextSplice) => text.slice(0, s.from) + s.insert + text.slice(s.to);

Deno.test("addSplice() maps each splice back to the original text, or refuses one that reaches into an insert", () => {
  let seed = 11;
  const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const original = "abcdefghijklmnopqrstuvwxyz0123456789";
  let mapped = 0;
  let refused = 0;
  for (let round = 0; round < 2000; round++) {
    let current = original;
    const log: TextSplice[] = [];
    for (let step = 0; step < 1 + random(4); step++) {
      const from = random(current.length + 1);
      const to = from + random(Math.min(4, current.length - from) + 1);
      const splice = { from, to, insert: "XYZ".slice(0, random(4)) };
      const before = JSON.stringify(log);
      if (!addSplice(log, splice)) {
        refused++;
        assert.equal(JSON.stringify(log), before, "a refused splice leaves the log as it was");
        break;
      }
      current = apply(current, splice);
      mapped++;
      // The log, applied to the original from the end, gives the current text.
      const rebuilt = [...log].reverse().reduce(apply, original);
      assert.equal(rebuilt, current, JSON.stringify({ round, log }));
      assert.equal(applySplices(original, log), current);
      for (let k = 1; k < log.length; k++) assert.ok(log[k - 1]!.to <= log[k]!.from, "ascending, disjoint");
    }
  }
  assert.ok(mapped > 1000 && refused > 10, `${mapped} mapped, ${refused} refused`);
});

Deno.test("shiftAt() moves an offset by the splices before it; changedStretches() and touchesSpan() see around each", () => {
  const text = "one\ntwo\nthree\nfour\nfive\n";
  const log = [{ from: 4, to: 8, insert: "2\n2b\n" }, { from: 19, to: 19, insert: "4b\n" }];
  const current = applySplices(text, log);
  assert.equal(current, "one\n2\n2b\nthree\nfour\n4b\nfive\n");
  // "three" starts at 8 as read; one line and one character were added before it.
  assert.deepEqual(shiftAt(text, log, 8), { chars: 1, lines: 1 });
  assert.equal(current.slice(8 + 1, 8 + 1 + 5), "three");
  assert.deepEqual(shiftAt(text, log, 0), { chars: 0, lines: 0 });
  // Margins of 2: each change with two unchanged characters either side; closer changes share a stretch.
  assert.deepEqual(changedStretches(text, log, 2), ["e\n2\n2b\nth", "r\n4b\nfi"]);
  assert.deepEqual(changedStretches(text, log, 6), ["one\n2\n2b\nthree\nfour\n4b\nfive\n"]);
  assert.equal(touchesSpan(log, { from: 9, to: 14 }), false);
  assert.equal(touchesSpan(log, { from: 8, to: 14 }), true, "a splice ending at the span's start borders it");
});
