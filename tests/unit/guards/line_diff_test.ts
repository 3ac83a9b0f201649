import assert from "node:assert/strict";
import { alignLines, editNeeds, hunksOf } from "../../../src/guards/line_diff.ts";

Deno.test("alignLines() and hunksOf() find the changed places", () => {
  const before = ["a", "b", "c", "d", "e"];
  const after = ["a", "x", "c", "d", "y", "e"];
  const runs = alignLines(before, after);
  assert.deepEqual(hunksOf(runs, before.length, after.length), [
    { old: 2, oldCount: 1, new: 2, newCount: 1 },
    { old: 5, oldCount: 0, new: 5, newCount: 1 },
  ]);
  assert.deepEqual(alignLines([], ["a"]), []);
});

Deno.test("editNeeds(): replaced lines, an insertion's neighbours, and slid blocks of repeated lines", () => {
  const before = ["function a() {", "}", "", "function b() {", "}"];
  // Insert a function after a(): the diff may put the blank line before or after it; either neighbour counts.
  const after = ["function a() {", "}", "", "function c() {", "}", "", "function b() {", "}"];
  const [ins] = editNeeds(before, after);
  assert.equal(ins!.anyOf, true);
  assert.ok(ins!.lines.start <= 2 && ins!.lines.end >= 3, JSON.stringify(ins));
  // Removing one of two equal blank lines may be placed on either.
  const removed = editNeeds(["x", "", "", "y"], ["x", "", "y"]);
  assert.equal(removed.length, 1);
  const places = [removed[0]!.lines, ...removed[0]!.alternatives].map((r) => r.start).sort();
  assert.deepEqual(places, [2, 3]);
  // Appending to an empty file needs nothing.
  assert.deepEqual(editNeeds([], ["a"]), []);
});
