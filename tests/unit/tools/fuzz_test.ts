/**
 * The catalogue under fuzzing (`_fuzz.ts`): seeded, 300 calls over every
 * tool through dispatch. `bench/fuzz_storm.ts` runs 100 times as many.
 */
import assert from "node:assert/strict";
import { describeTools } from "../../../src/tools/catalogue.ts";
import { fuzzCatalogue } from "./_fuzz.ts";

Deno.test("every tool answers fuzzed arguments with a well-formed result, writes nothing on a refusal, and nothing outside the root", async () => {
  const { calls, refused } = await fuzzCatalogue({ seed: 20261126, runs: 300 });
  // The fuzz reached every tool, and some calls got through while most were refused.
  assert.deepEqual(Object.keys(calls).sort(), describeTools().map((t) => t.name).sort());
  assert.ok(refused > 0 && refused < 300, `refused ${refused} of 300`);
});
