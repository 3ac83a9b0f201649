/**
 * `search_structural` with a match pool against the same search on one thread and against an `ast-grep run
 * -p` process, on hono's package (its JavaScript files), every match found, for the five patterns of
 * `search_structural.bench.ts`. Per pattern and run, interleaved:
 *
 * - one thread, cold: a fresh workspace without a pool (an empty parse cache and read cache), the first search;
 * - pool, cold: a fresh workspace with a long-lived pool of 2 workers already started (their JIT warm from the
 *   runs before; their parse caches and remembered answers emptied with `clear()` before each run, not timed),
 *   the first search (its first 100,000 characters of candidates matched on the main thread, as always);
 * - one thread and pool, warm: each workspace's second search;
 * - ast-grep: the process's wall time.
 *
 * The pool's start (2 workers spawned until ready) is timed apart, and each mode's match count is checked
 * against ast-grep's first. Medians; ratios of medians measured in the same run; the load average printed.
 *
 * A second table times the tool as an agent calls it (`search_structural` through a disk workspace on the
 * tree, enclosing symbols named), cold, with the pool and without: every match of `return $X`, its first page
 * (100), and `c.req.header($A)`.
 *
 *   AST_GREP=$PWD/tools/node_modules/.bin/ast-grep deno run -A bench/search_structural_pool.bench.ts [--runs N]
 *
 * @module
 */
import { createMemoryBackend, createWorkspace, type Workspace } from "../src/mod.ts";
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createMatchPool } from "../src/adapters/deno/match_pool.ts";
import { normalizeStructuralArgs, type SearchFiles, searchStructural } from "../src/search/mod.ts";
import type { MatchPool } from "../src/structural/search/match_pool.ts";
import { patternMatcherOf } from "../src/structural/search/mod.ts";
import { diskReadCache, diskSearchFiles } from "../tests/unit/search/_rg.ts";
import { astGrepOrExit } from "./_structural.ts";
import { machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const PATTERNS = [
  { pattern: "c.req.header($A)", literal: true },
  { pattern: "new Response($$$A)", literal: true },
  { pattern: "throw new Error($M)", literal: true },
  { pattern: "$A && $A", literal: false },
  { pattern: "return $X", literal: false },
];
const RUNS = runsArg(Deno.args, 5);

async function workspace(matchPool?: MatchPool): Promise<Workspace> {
  return await createWorkspace({
    backend: createMemoryBackend({}),
    wasm: createWasmLoader(),
    ...(matchPool ? { matchPool } : {}),
  });
}

async function search(ws: Workspace, files: SearchFiles, pattern: string): Promise<number> {
  const query = normalizeStructuralArgs({
    pattern,
    language: "js",
    max_results: 10_000_000,
    max_chars: 1e12,
  });
  return (await searchStructural(files, query, { matcher: patternMatcherOf(ws) })).matches!.length;
}

async function astGrep(bin: string, root: string, pattern: string): Promise<number> {
  const out = await new Deno.Command(bin, {
    args: ["run", "-p", pattern, "--lang", "js", "--json=compact", "."],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  return (JSON.parse(new TextDecoder().decode(out.stdout) || "[]") as unknown[]).length;
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

/** Cold and warm searches of one pattern, with the pool and without; ast-grep. Medians, ms. */
async function benchPattern(bin: string, root: string, pool: MatchPool, pattern: string) {
  const want = await astGrep(bin, root, pattern);
  const times = {
    single: [] as number[],
    pooled: [] as number[],
    singleWarm: [] as number[],
    pooledWarm: [] as number[],
    sg: [] as number[],
  };
  for (let r = 0; r < RUNS; r++) {
    const counts: number[] = [];
    const single = await workspace();
    const singleCache = diskReadCache();
    times.single.push(
      await timed(async () =>
        counts.push(await search(single, diskSearchFiles(root, { cache: singleCache }), pattern))
      ),
    );
    times.singleWarm.push(
      await timed(() => search(single, diskSearchFiles(root, { cache: singleCache }), pattern)),
    );
    pool.clear();
    await pool.warm();
    const pooled = await workspace(pool);
    const pooledCache = diskReadCache();
    times.pooled.push(
      await timed(async () =>
        counts.push(await search(pooled, diskSearchFiles(root, { cache: pooledCache }), pattern))
      ),
    );
    times.pooledWarm.push(
      await timed(() => search(pooled, diskSearchFiles(root, { cache: pooledCache }), pattern)),
    );
    times.sg.push(await timed(() => astGrep(bin, root, pattern)));
    if (counts.some((n) => n !== want)) {
      throw new Error(`${pattern}: graver finds ${counts}, ast-grep ${want}`);
    }
  }
  const m = (xs: number[]) => stats(xs).median;
  return {
    want,
    single: m(times.single),
    pooled: m(times.pooled),
    singleWarm: m(times.singleWarm),
    pooledWarm: m(times.pooledWarm),
    sg: m(times.sg),
  };
}

/** The tool's cold calls, with the pool and without, interleaved: one row per case. */
async function benchTool(root: string, pool: MatchPool): Promise<string[][]> {
  const cases: Record<string, Record<string, unknown>> = {
    "return $X, every match": { pattern: "return $X", language: "js", max_results: 5000, max_chars: 1e7 },
    "return $X, first page": { pattern: "return $X", language: "js" },
    "c.req.header($A)": { pattern: "c.req.header($A)", language: "js" },
  };
  const open = (matchPool?: MatchPool) =>
    createWorkspace({
      backend: createDiskBackend(),
      root,
      wasm: createWasmLoader(),
      readGuard: "off",
      ...(matchPool ? { matchPool } : {}),
    });
  const rows = [["call", "one thread", "pool", "pool / one"]];
  for (const [name, args] of Object.entries(cases)) {
    const single: number[] = [];
    const pooled: number[] = [];
    for (let r = 0; r < RUNS + 1; r++) {
      const a = await open();
      const t1 = await timed(async () => (await a.call("search_structural", args)).ok || Deno.exit(1));
      pool.clear();
      const b = await open(pool);
      const t2 = await timed(async () => (await b.call("search_structural", args)).ok || Deno.exit(1));
      if (r > 0) single.push(t1), pooled.push(t2); // the first round warms both
    }
    const [one, two] = [stats(single).median, stats(pooled).median];
    rows.push([name, `${one.toFixed(1)} ms`, `${two.toFixed(1)} ms`, `${(two / one).toFixed(2)}×`]);
  }
  return rows;
}

const bin = await astGrepOrExit("search_structural_pool.bench");
const root = Deno.realPathSync(`${ROOT}node_modules/hono`);
const load = () => Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`# search_structural with a match pool of 2 workers vs one thread vs ast-grep (${machine()})\n`);
const pool = createMatchPool({ size: 2, idleMs: 600_000 });
const started = await timed(() => pool.warm());
// Warm the workers' JIT and wasm tiers (and this thread's) before timing.
for (const { pattern } of PATTERNS) {
  const ws = await workspace(pool);
  await search(ws, diskSearchFiles(root), pattern);
  await search(await workspace(), diskSearchFiles(root), pattern);
}
const rows = [[
  "pattern",
  "matches",
  "one thread",
  "pool",
  "pool / one",
  "ast-grep",
  "one / sg",
  "pool / sg",
  "warm: one",
  "warm: pool",
]];
const ratios: { literal: boolean; single: number; pooled: number; ratio: number }[] = [];
for (const { pattern, literal } of PATTERNS) {
  const r = await benchPattern(bin, root, pool, pattern);
  ratios.push({ literal, single: r.single / r.sg, pooled: r.pooled / r.sg, ratio: r.pooled / r.single });
  rows.push([
    pattern,
    String(r.want),
    `${r.single.toFixed(1)} ms`,
    `${r.pooled.toFixed(1)} ms`,
    `${(r.pooled / r.single).toFixed(2)}×`,
    `${r.sg.toFixed(1)} ms`,
    `${(r.single / r.sg).toFixed(2)}×`,
    `${(r.pooled / r.sg).toFixed(2)}×`,
    `${r.singleWarm.toFixed(1)} ms`,
    `${r.pooledWarm.toFixed(1)} ms`,
  ]);
}
const tool = await benchTool(root, pool);
pool.close();
printTable(rows);
console.log("\n## the tool, cold (search_structural with enclosing symbols)\n");
printTable(tool);
console.log(
  `\npool start (2 workers until ready): ${
    started.toFixed(1)
  } ms; workers matched ${pool.matched} files, ${pool.failures} failures; load average after: ${load()}`,
);
const median = (xs: number[]) => stats(xs).median;
for (const literal of [true, false]) {
  const these = ratios.filter((r) => r.literal === literal);
  const what = literal ? "with a literal" : "without a literal";
  result(
    `cold / ast-grep, patterns ${what} (median): one thread`,
    `${median(these.map((r) => r.single)).toFixed(2)}×`,
  );
  result(
    `cold / ast-grep, patterns ${what} (median): pool of 2`,
    `${median(these.map((r) => r.pooled)).toFixed(2)}×`,
  );
}
result(
  "cold, pool of 2 / one thread (median of the patterns)",
  `${median(ratios.map((r) => r.ratio)).toFixed(2)}×`,
);
