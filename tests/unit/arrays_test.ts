import assert from "node:assert/strict";
import { appendAll, maxOf, minOf } from "../../src/arrays.ts";

Deno.test("appendAll, maxOf and minOf take lists far longer than a call's arguments may be", () => {
  const long = Array.from({ length: 1_000_000 }, (_, i) => i);
  assert.throws(() => Math.max(...long), RangeError); // what the helpers stand in for
  assert.equal(appendAll([-1], long).length, 1_000_001);
  assert.equal(maxOf(long), 999_999);
  assert.equal(minOf(long), 0);
  assert.equal(maxOf([]), -Infinity);
  assert.equal(minOf([]), Infinity);
  assert.ok(Number.isNaN(maxOf([1, NaN, 3])) && Number.isNaN(minOf([1, NaN, 3])), "NaN as Math.max gives it");
  assert.deepEqual(appendAll([1], new Set([2, 3])), [1, 2, 3]);
});
