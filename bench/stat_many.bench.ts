/**
 * The disk backend's `statMany` (what a warm search pays per file: `src/adapters/_posix.ts`, synchronous stats
 * for paths on local file systems, `src/adapters/_mounts.ts`) against the two ways it could be done without
 * the mount table, in the same run: asynchronous `Deno.stat`, 64 in flight (what `statMany` did for every
 * path before), and a bare `Deno.lstatSync` loop (the floor, with no care for hung mounts). The paths: every
 * file of typescript, rxjs and @modelcontextprotocol/sdk in `node_modules/` (the search bench's larger tree).
 *
 *   deno run -A bench/stat_many.bench.ts [--runs N]
 *
 * Goal: `statMany` ≤ 0.5× the async stats on local disks. Its ratio to the bare loop is what its care costs
 * (reading the mount table, an `lstat` of each folder on the way, the chunks), reported without a goal.
 *
 * @module
 */
import { createDiskBackend } from "../src/adapters/deno/mod.ts";
import { describe, machine, printTable, result, ROOT, runsArg, stats, walkFiles } from "./_util.ts";

const RUNS = runsArg(Deno.args, 15);

/** Async stats, 64 in flight: `statMany` before it read the mount table. */
async function asyncStats(paths: readonly string[]): Promise<number> {
  let next = 0;
  let found = 0;
  const worker = async () => {
    while (next < paths.length) {
      const info = await Deno.stat(paths[next++]!).catch(() => null);
      if (info?.isFile) found++;
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  return found;
}

/** A bare synchronous loop. */
function syncLoop(paths: readonly string[]): number {
  let found = 0;
  for (const p of paths) if (Deno.lstatSync(p).isFile) found++;
  return found;
}

/** Time one call. */
async function timed(f: () => unknown): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

console.log(`# statMany on local disks (${machine()})\n`);
const paths: string[] = [];
for (const pkg of ["typescript", "rxjs", "@modelcontextprotocol/sdk"]) {
  await walkFiles(Deno.realPathSync(`${ROOT}node_modules/${pkg}`), () => true, paths);
}
const disk = createDiskBackend();
const counts = [
  (await disk.statMany!(paths)).filter((s) => s?.isFile()).length,
  await asyncStats(paths),
  syncLoop(paths),
];
if (new Set(counts).size !== 1) throw new Error(`the three ways found different files: ${counts}`);
console.log(`${paths.length} files\n`);
const subject: number[] = [];
const async: number[] = [];
const loop: number[] = [];
for (let i = 0; i < RUNS; i++) {
  subject.push(await timed(() => disk.statMany!(paths)));
  async.push(await timed(() => asyncStats(paths)));
  loop.push(await timed(() => syncLoop(paths)));
}
const [s, a, l] = [stats(subject), stats(async), stats(loop)];
printTable([
  ["way", "time"],
  ["statMany (sync on local mounts, chunks of 1,000)", describe(s)],
  ["async Deno.stat, 64 in flight (before)", describe(a)],
  ["Deno.lstatSync loop (the floor)", describe(l)],
]);
const vsAsync = s.median / a.median;
const vsLoop = s.median / l.median;
result(
  `statMany / async stats on ${paths.length} files`,
  `${vsAsync.toFixed(2)}× (goal ≤ 0.5: ${vsAsync <= 0.5 ? "met" : "NOT met"})`,
);
result(
  `statMany / a bare lstatSync loop on ${paths.length} files`,
  `${vsLoop.toFixed(2)}× (its care's cost)`,
);
