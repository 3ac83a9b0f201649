/**
 * The symlink swap storm (issue 22, item 2): `write_file` calls into `root/src/` on a real disk while a child
 * process swaps `src` for a symbolic link to a directory outside the root and back, as fast as it can or with
 * a pause between swaps. Reports how many calls were applied, how many refused (by code) and how many files
 * escaped into the outside directory, which must be 0. Not a timing benchmark: the figure is the count.
 *
 * Run: `deno run -A bench/symlink_race.ts [--writes 10000] [--pause 0,200]` (pause: µs the directory stays
 * in place between two swaps; one run per value).
 *
 * @module
 */
import { symlinkRace } from "../tests/unit/fs/_symlink_race.ts";
import { machine } from "./_util.ts";

function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? Deno.args[i + 1]! : fallback;
}

const writes = Number(flag("writes", "10000"));
const pauses = flag("pause", "0,200").split(",").map(Number);

console.log(`# symlink swap race: ${writes} write_file calls per run\n`);
console.log(machine());
console.log("\n| swapper pause (µs) | applied | refused (by code) | escaped | seconds |");
console.log("| --- | --- | --- | --- | --- |");
let escaped = 0;
let applied = 0;
for (const pause of pauses) {
  const start = performance.now();
  const outcome = await symlinkRace(writes, { pauseMicros: pause });
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  const refused = Object.entries(outcome.refused).map(([code, n]) => `${code} ${n}`).join(", ");
  console.log(`| ${pause} | ${outcome.applied} | ${refused} | ${outcome.escaped} | ${seconds} |`);
  escaped += outcome.escaped;
  applied += outcome.applied;
}
console.log(
  `\nRESULT symlink race: ${escaped} of ${applied} applied writes escaped the root over ${
    pauses.length * writes
  } calls (goal 0: ${escaped === 0 ? "met" : "NOT met"})`,
);
