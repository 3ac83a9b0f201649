import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../../../src/errors.ts";
import {
  countMatchStep,
  MATCH_STEPS_PER_ITEM,
  MAX_MATCH_STEPS,
  resetMatchSteps,
} from "../../../../src/structural/edit/match_steps.ts";

/** `n` steps over an empty list, and whether the last one was refused. */
function steps(n: number): boolean {
  try {
    for (let i = 0; i < n; i++) countMatchStep([] as Node[], 0);
    return false;
  } catch (err) {
    assert.ok(err instanceof RecoverableError && err.code === "limit_exceeded");
    assert.equal(err.details?.["max_steps"], MAX_MATCH_STEPS);
    return true;
  }
}

Deno.test("the matcher's steps: refused past MAX_MATCH_STEPS, counted again from each entry point", () => {
  resetMatchSteps();
  assert.equal(steps(MAX_MATCH_STEPS), false);
  assert.equal(steps(1), true);
  resetMatchSteps();
  assert.equal(steps(MAX_MATCH_STEPS - 1), false);
});

Deno.test("the matcher's steps: a match that meets a long list may scan it, MATCH_STEPS_PER_ITEM steps an item", () => {
  const long = { length: 600_000 } as Node[]; // an array literal of 300,000 items, with its commas
  const budget = MATCH_STEPS_PER_ITEM * long.length;
  assert.ok(budget > MAX_MATCH_STEPS);
  resetMatchSteps();
  countMatchStep(long, 0);
  // The steps may be counted at shorter lists afterwards: the longest one met sets the budget.
  assert.equal(steps(budget - 1), false);
  let refused: unknown;
  try {
    countMatchStep([] as Node[], 0);
  } catch (err) {
    refused = err;
  }
  assert.ok(refused instanceof RecoverableError && refused.details?.["max_steps"] === budget);
  // Each entry point starts again from the plain budget.
  resetMatchSteps();
  assert.equal(steps(MAX_MATCH_STEPS), false);
  assert.equal(steps(1), true);
});
