/**
 * The check-then-use race on a real disk: a child process swaps a directory for a symbolic link to an
 * outside directory and back while `write_file` calls run. Bounded by outcome, not time: 300 calls, and
 * not one file may land outside (before the fix, about one in twenty did).
 */
import assert from "node:assert/strict";
import { symlinkRace } from "./_symlink_race.ts";

Deno.test("write_file under a directory-for-link swap race: 300 calls, none lands outside the root", async () => {
  const outcome = await symlinkRace(300);
  const refused = Object.values(outcome.refused).reduce((a, b) => a + b, 0);
  assert.equal(outcome.applied + refused, 300);
  assert.ok((outcome.refused["sandbox_violation"] ?? 0) > 0, `the swapper raced: ${JSON.stringify(outcome)}`);
  assert.equal(outcome.escaped, 0, JSON.stringify(outcome));
  assert.equal(outcome.refused["internal"] ?? 0, 0, JSON.stringify(outcome));
});
