/**
 * The catalogue fuzz (`tests/unit/tools/_fuzz.ts`) at 100 times the unit
 * test's count: 30,000 seeded calls over every tool through dispatch, each
 * on a fresh in-memory workspace. Fails (exit 1, with fast-check's shrunk
 * counterexample) on the first call that throws, answers `internal` or a
 * malformed result, writes on a refusal, or touches anything outside the
 * root.
 *
 * ```sh
 * deno run -A bench/fuzz_storm.ts                 # seed 20261126, 30,000 calls
 * deno run -A bench/fuzz_storm.ts --seed 7 --runs 5000
 * ```
 *
 * @module
 */
import { fuzzCatalogue } from "../tests/unit/tools/_fuzz.ts";

const flag = (name: string, fallback: number) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
};
const seed = flag("--seed", 20261126);
const runs = flag("--runs", 30_000);
const started = performance.now();
const { calls, refused, codes } = await fuzzCatalogue({ seed, runs });
const seconds = (performance.now() - started) / 1000;
console.log(
  `# fuzz storm: seed ${seed}, ${runs} calls over ${Object.keys(calls).length} tools in ${
    seconds.toFixed(1)
  } s`,
);
console.log(`outcomes: ${JSON.stringify(codes)}`);
console.log(
  `RESULT fuzz_storm: ${runs} calls, ${
    runs - refused
  } applied or read, ${refused} refused, 0 broken promises`,
);
