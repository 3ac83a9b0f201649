import assert from "node:assert/strict";
import { addSplice } from "../../../src/text/_splices.ts";
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
      for (let k = 1; k < log.length; k++) assert.ok(log[k - 1]!.to <= log[k]!.from, "ascending, disjoint");
    }
  }
  assert.ok(mapped > 1000 && refused > 10, `${mapped} mapped, ${refused} refused`);
});
