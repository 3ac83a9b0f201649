import assert from "node:assert/strict";
import {
  coversLines,
  formatRanges,
  intersectRanges,
  mergeRanges,
  pairsToRanges,
  rangesToPairs,
  remapRanges,
  subtractRanges,
} from "../../../src/guards/line_ranges.ts";

Deno.test("line ranges merge, subtract, intersect and print", () => {
  assert.deepEqual(
    mergeRanges([{ start: 5, end: 9 }, { start: 1, end: 3 }, { start: 4, end: 4 }, { start: 7, end: 6 }]),
    [
      { start: 1, end: 9 },
    ],
  );
  assert.deepEqual(subtractRanges([{ start: 1, end: 20 }], [{ start: 5, end: 6 }, { start: 18, end: 30 }]), [
    { start: 1, end: 4 },
    { start: 7, end: 17 },
  ]);
  assert.deepEqual(intersectRanges([{ start: 1, end: 10 }], [{ start: 8, end: 12 }]), [{
    start: 8,
    end: 10,
  }]);
  assert.equal(coversLines([{ start: 1, end: 5 }, { start: 6, end: 9 }], 2, 9), true);
  assert.equal(coversLines([{ start: 1, end: 5 }], 5, 6), false);
  assert.equal(formatRanges([{ start: 101, end: 120 }, { start: 7, end: 7 }]), "7, 101–120");
  assert.deepEqual(pairsToRanges(rangesToPairs([{ start: 3, end: 4 }])), [{ start: 3, end: 4 }]);
  assert.deepEqual(pairsToRanges([[0, 2], ["a", 3], [5, 4], [6, 6]]), [{ start: 6, end: 6 }]);
});

Deno.test("remapRanges() keeps lines inside unchanged runs only", () => {
  const runs = [{ old: 1, new: 1, length: 10 }, { old: 12, new: 15, length: 5 }]; // line 11 replaced by 4 lines
  assert.deepEqual(remapRanges([{ start: 8, end: 14 }], runs), [{ start: 8, end: 10 }, {
    start: 15,
    end: 17,
  }]);
});
