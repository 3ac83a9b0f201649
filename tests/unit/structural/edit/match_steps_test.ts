import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../../../src/errors.ts";
import {
  countMatchStep,
  MATCH_STEPS_PER_ITEM,
  MAX_CALL_STEPS,
  MAX_MATCH_STEPS,
  nextMatchCandidate,
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

Deno.test("the matcher's steps: each candidate of a call has its own budget, the call MAX_CALL_STEPS in all", () => {
  resetMatchSteps();
  // 200,000 simple matches of 11 steps each: 2.2 million steps in one call, refused as one match before.
  for (let c = 0; c < 200_000; c++) {
    nextMatchCandidate();
    for (let k = 0; k < 11; k++) countMatchStep([] as Node[], 0);
  }
  // Candidates that each take nearly their whole budget: the call ends at MAX_CALL_STEPS.
  resetMatchSteps();
  let refused: unknown;
  try {
    for (let c = 0; c < 40; c++) {
      nextMatchCandidate();
      for (let k = 0; k < MAX_MATCH_STEPS - 1; k++) countMatchStep([] as Node[], 0);
    }
  } catch (err) {
    refused = err;
  }
  assert.ok(refused instanceof RecoverableError && refused.code === "limit_exceeded");
  assert.equal(refused.details?.["max_steps"], MAX_CALL_STEPS);
  assert.match(refused.message, /at every candidate of the file took more than 16,000,000 steps/);
});
