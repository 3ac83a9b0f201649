import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../../../src/errors.ts";
import {
  countMatchStep,
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
