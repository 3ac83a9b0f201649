/**
 * `search_structural`'s engine against an `ast-grep run -p` process on the same tree (hono's published
 * package, node_modules/hono, its JavaScript files) for the same pattern, both finding every match. Two
 * graver figures per pattern:
 *
 * - cold: the first search of a fresh workspace (an empty parse cache and an empty read cache) in this
 *   process, through the disk walk: every file that holds the pattern's literal texts is read, hashed and
 *   parsed;
 * - warm: the second search of that session: unchanged files' bytes and hence versions and trees reused
 *   (`project/read_cache.ts`); in Deno the session watches the folders it walked from the end of its first
 *   search, so that after its barrier it stats nothing while nothing changed (elsewhere: one stat of every
 *   folder and file); the workspace also remembers each held file's answer to the query, so this is the
 *   same search repeated or paged on. The watch is set up after the first search has ended, in the time
 *   before the next call (an agent's turn: `ReadCache.settle` stands for it here, untimed), not inside either;
 * - warm, another query: next in that session, the pattern with its metavariables renamed (the same matches,
 *   another query): trees reused, every held tree matched again — a new search of a warm session;
 *
 * - cold, pool: the same cold search in a fresh workspace with a match pool of 2 workers started beforehand, as
 *   `graver serve` and `graver mcp` start one (their JIT warm from the runs before, their trees and remembered
 *   answers emptied before each run, not timed): the parse spread over the workers.
 *
 * A third figure is the floor of a cold search in this engine: "parse only", the time to parse just the files
 * the search parses (those holding the pattern's literals), with a warm parser, no reads and no hashing: a
 * cold search cannot be faster than that, whatever the walk, the reads and the matching cost. "Walk only" is a
 * cold search of a pattern whose literal no file holds (it lists, reads and checks every file and parses none),
 * and "floor, 2 cores" what a cold search would take with that walk on one thread and the parse spread
 * perfectly over two, with nothing else (no matching, no messages): max(walk, (walk + parse) / 2). Where the
 * floor is over a goal, no cold search of this engine meets it on this machine.
 *
 * And what each costs the machine: "cold CPU" and "pool CPU", the CPU time (user and system, every thread of
 * this process, the pool's workers included) of the cold search and of the cold search with the pool;
 * "ast-grep CPU", one ast-grep process's (from the shell's `times`). "CPU/2 / sg" is the wall time the cold
 * search's own work would take spread perfectly over two cores, against ast-grep's wall time: what no schedule
 * of that work (a pool, work taken back, reads in workers) can go below here; only less work can.
 *
 * Each pattern's match count is checked equal to ast-grep's first, so that no figure is of a no-op. Runs
 * alternate; each figure is a median, the ratios against ast-grep's median. `$A && $A` and `return $X` have
 * no literal that narrows the files (`&&` and `return` are in most of them): every such file is parsed.
 *
 *   deno run -A bench/search_structural.bench.ts [--runs N]
 *
 * Goals (issue 24): cold ≤ 0.5× ast-grep for patterns with a literal; warm ≥ 20× faster (≤ 0.05×);
 * patterns without a literal ≤ 1.2× ast-grep cold. ast-grep is tools/node_modules/.bin/ast-grep (installed by
 * scripts/install_runtimes.ts), or `AST_GREP`.
 *
 * @module
 */
import { createMemoryBackend, createWorkspace, type Workspace } from "../src/mod.ts";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createMatchPool } from "../src/adapters/deno/match_pool.ts";
import type { MatchPool } from "../src/structural/search/match_pool.ts";
import { normalizeStructuralArgs, type SearchFiles, searchStructural } from "../src/search/mod.ts";
import { patternMatcherOf } from "../src/structural/search/mod.ts";
import { diskReadCache, diskSearchFiles } from "../tests/unit/search/_rg.ts";
import { astGrepOrExit, parsedTexts } from "./_structural.ts";
import process from "node:process";
import { machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

interface Pattern {
  name: string;
  pattern: string;
  literal: boolean;
}

const PATTERNS: Pattern[] = [
  { name: "call with a literal receiver", pattern: "c.req.header($A)", literal: true },
  { name: "constructor call", pattern: "new Response($$$A)", literal: true },
  { name: "throw new Error", pattern: "throw new Error($M)", literal: true },
  { name: "no literal: $A && $A", pattern: "$A && $A", literal: false },
  { name: "no literal: return $X", pattern: "return $X", literal: false },
];

const RUNS = runsArg(Deno.args, 5);
const LANG = "js";

async function freshWorkspace(matchPool?: MatchPool): Promise<Workspace> {
  return await createWorkspace({
    backend: createMemoryBackend({}),
    wasm: createWasmLoader(),
    ...(matchPool ? { matchPool } : {}),
  });
}

/** Every match of the pattern through graver's engine; returns the count. */
async function graver(ws: Workspace, files: SearchFiles, p: Pattern): Promise<number> {
  const query = normalizeStructuralArgs({
    pattern: p.pattern,
    language: LANG,
    max_results: 10_000_000,
    max_chars: 1e12,
  });
  const r = await searchStructural(files, query, { matcher: patternMatcherOf(ws) });
  return r.matches!.length;
}

/** Parse each text once with a warm parser of the bench's language, freeing each tree. */
async function parseOnly(ws: Workspace, texts: string[]): Promise<number> {
  const parser = await ws.grammars!.parser("javascript");
  try {
    return await timed(() => {
      for (const text of texts) parser.parse(text)?.delete();
      return Promise.resolve();
    });
  } finally {
    parser.delete();
  }
}

/** Every match through an ast-grep process; returns the count. */
async function astGrep(bin: string, root: string, p: Pattern): Promise<number> {
  const out = await new Deno.Command(bin, {
    args: ["run", "-p", p.pattern, "--lang", LANG, "--json=compact", "."],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  if (out.code > 1) throw new Error(`ast-grep failed on ${p.name}`);
  return (JSON.parse(new TextDecoder().decode(out.stdout) || "[]") as unknown[]).length;
}

/**
 * The same pattern with its metavariables renamed (`$A` → `$AQ`): the same matches, but another query, so a
 * warm session reuses its trees and not the answers it remembers for the pattern itself.
 */
function anotherQuery(p: Pattern): Pattern {
  return {
    ...p,
    pattern: p.pattern.replace(/\$(\$\$)?([A-Z][A-Z0-9_]*)/g, (_m, multi, name) => `$${multi ?? ""}${name}Q`),
  };
}

async function timed<T>(f: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

/** The CPU time (user and system, every thread of this process: its workers too) `f` took, in ms. */
async function cpuOf<T>(f: () => Promise<T>): Promise<{ wall: number; cpu: number }> {
  const c = process.cpuUsage();
  const wall = await timed(f);
  const used = process.cpuUsage(c);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

/**
 * The CPU time of one ast-grep process for the pattern (user and system, all its threads), from the shell's
 * `times` after it: what the run cost the machine, where its wall time is what it cost the caller.
 */
async function astGrepCpu(bin: string, root: string, p: Pattern): Promise<number> {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const command = `${quote(bin)} run -p ${
    quote(p.pattern)
  } --lang ${LANG} --json=compact . >/dev/null; times`;
  const out = await new Deno.Command("bash", { args: ["-c", command], cwd: root, stdout: "piped" }).output();
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  const seconds = (t: string) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  };
  const [user, sys] = (lines.at(-1) ?? "").split(/\s+/).map(seconds);
  return (user! + sys!) * 1000;
}

/** A cold search in a fresh workspace with the pool (its workers ready, their caches emptied first). */
async function coldPooled(
  pool: MatchPool,
  root: string,
  p: Pattern,
): Promise<{ wall: number; cpu: number }> {
  pool.clear();
  await pool.warm();
  // The workers free the last run's trees when told to clear: let them, untimed, as a real cold search meets
  // workers that freed nothing (or did so long before), not workers busy freeing the previous search's trees.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const ws = await freshWorkspace(pool);
  const cache = diskReadCache();
  try {
    return await cpuOf(() => graver(ws, diskSearchFiles(root, { cache }), p));
  } finally {
    await cache.close();
    await ws.close();
  }
}

/** A pattern whose literal no file holds: its cold search lists, reads and checks every file, and parses none. */
const NO_FILE_HOLDS: Pattern = { name: "walk only", pattern: "zzGraverNoSuchName($A)", literal: true };

/** A cold search that parses nothing ({@linkcode NO_FILE_HOLDS}): the walk, the reads and the literal check. */
async function walkOnly(root: string): Promise<number> {
  const ws = await freshWorkspace();
  const cache = diskReadCache();
  try {
    return await timed(() => graver(ws, diskSearchFiles(root, { cache }), NO_FILE_HOLDS));
  } finally {
    await cache.close();
    await ws.close();
  }
}

/** One pattern's count, files parsed, and medians: cold, warm, ast-grep, parse only, cold with the pool. */
async function benchPattern(bin: string, root: string, p: Pattern, pool: MatchPool): Promise<number[]> {
  const warmWs = await freshWorkspace();
  const counts = [await graver(warmWs, diskSearchFiles(root), p), await astGrep(bin, root, p)];
  if (counts[0] !== counts[1]) throw new Error(`${p.name}: graver finds ${counts[0]}, ast-grep ${counts[1]}`);
  const texts = (await parsedTexts(warmWs, { root, pattern: p.pattern, language: LANG })).map((t) => t.text);
  const cold: number[] = [];
  const warm: number[] = [];
  const warmOther: number[] = [];
  const theirs: number[] = [];
  const parse: number[] = [];
  const pooled: number[] = [];
  const walked: number[] = [];
  const coldCpu: number[] = [];
  const pooledCpu: number[] = [];
  const theirsCpu: number[] = [];
  const pooledWs = await freshWorkspace(pool);
  const pooledCount = await graver(pooledWs, diskSearchFiles(root), p);
  await pooledWs.close();
  if (pooledCount !== counts[1]) throw new Error(`${p.name}: graver with a pool finds ${pooledCount}`);
  for (let i = 0; i < RUNS; i++) {
    const ws = await freshWorkspace();
    const cache = diskReadCache();
    const coldRun = await cpuOf(() => graver(ws, diskSearchFiles(root, { cache }), p));
    cold.push(coldRun.wall);
    coldCpu.push(coldRun.cpu);
    await cache.settle(); // the time before an agent's next call, in which the session sets up its watch
    warm.push(await timed(() => graver(ws, diskSearchFiles(root, { cache }), p)));
    warmOther.push(await timed(() => graver(ws, diskSearchFiles(root, { cache }), anotherQuery(p))));
    await cache.close(); // the session ends: its watch of the tree stops (one left open slows every other)
    await ws.close(); // and its trees are freed now, not by a finalizer in the middle of a later timed run
    theirs.push(await timed(() => astGrep(bin, root, p)));
    theirsCpu.push(await astGrepCpu(bin, root, p));
    parse.push(await parseOnly(warmWs, texts));
    const pooledRun = await coldPooled(pool, root, p);
    pooled.push(pooledRun.wall);
    pooledCpu.push(pooledRun.cpu);
    walked.push(await walkOnly(root));
  }
  const other = await graver(warmWs, diskSearchFiles(root), anotherQuery(p));
  if (other !== counts[1]) throw new Error(`${anotherQuery(p).pattern} finds ${other}, not ${counts[1]}`);
  await warmWs.close();
  return [
    counts[0]!,
    texts.length,
    ...[cold, warm, theirs, parse, pooled, warmOther, walked, coldCpu, pooledCpu, theirsCpu].map((s) =>
      stats(s).median
    ),
  ];
}

const bin = await astGrepOrExit("search_structural.bench");
const version = new TextDecoder().decode(
  (await new Deno.Command(bin, { args: ["--version"], stdout: "piped" })
    .output()).stdout,
).trim();
const root = Deno.realPathSync(`${ROOT}node_modules/hono`);
console.log(
  `# search_structural vs ast-grep (${machine()}, ${version})\n\n## hono: ${root} (--lang ${LANG})\n`,
);
const rows = [[
  "pattern",
  "matches",
  "files parsed",
  "cold",
  "warm",
  "warm, another query",
  "ast-grep",
  "cold/sg",
  "warm/sg",
  "another/sg",
  "parse only",
  "parse/sg",
  "cold, pool",
  "pool/sg",
  "walk only",
  "floor, 2 cores",
  "floor/sg",
  "cold CPU",
  "pool CPU",
  "ast-grep CPU",
  "CPU/2 / sg",
]];
const ratios: {
  literal: boolean;
  cold: number;
  warm: number;
  pooled: number;
  other: number;
  floor: number;
}[] = [];
// A server's pool: started before the first search, its workers warmed up on each pattern before timing.
const pool = createMatchPool({ size: 2, idleMs: 600_000 });
await pool.warm();
for (const p of PATTERNS) {
  const [count, files, cold, warm, theirs, parse, pooled, other, walk, coldCpu, pooledCpu, theirsCpu] =
    await benchPattern(
      bin,
      root,
      p,
      pool,
    );
  // The floor on two cores: the walk on this thread, the parse spread over both, perfectly, and nothing else
  // (no matching, no messages): no cold search of this engine can be faster here.
  const floor = Math.max(walk!, (walk! + parse!) / 2);
  ratios.push({
    literal: p.literal,
    cold: cold! / theirs!,
    warm: warm! / theirs!,
    pooled: pooled! / theirs!,
    other: other! / theirs!,
    floor: floor / theirs!,
  });
  const r = ratios.at(-1)!;
  rows.push([
    p.pattern,
    String(count),
    String(files),
    `${cold!.toFixed(1)} ms`,
    `${warm!.toFixed(1)} ms`,
    `${other!.toFixed(1)} ms`,
    `${theirs!.toFixed(1)} ms`,
    `${r.cold.toFixed(2)}×`,
    `${r.warm.toFixed(3)}×`,
    `${r.other.toFixed(3)}×`,
    `${parse!.toFixed(1)} ms`,
    `${(parse! / theirs!).toFixed(2)}×`,
    `${pooled!.toFixed(1)} ms`,
    `${r.pooled.toFixed(2)}×`,
    `${walk!.toFixed(1)} ms`,
    `${floor.toFixed(1)} ms`,
    `${r.floor.toFixed(2)}×`,
    `${coldCpu!.toFixed(0)} ms`,
    `${pooledCpu!.toFixed(0)} ms`,
    `${theirsCpu!.toFixed(0)} ms`,
    // The wall time a cold search's CPU allows on two cores, spread perfectly, against ast-grep's wall time.
    `${(coldCpu! / 2 / theirs!).toFixed(2)}×`,
  ]);
}
pool.close();
printTable(rows);
console.log(`\nload average after: ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
console.log();
const median = (xs: number[]) => stats(xs).median;
const withLiteral = ratios.filter((r) => r.literal);
const without = ratios.filter((r) => !r.literal);
const verdict = (ratio: number, goal: number) =>
  `${ratio.toFixed(3)}× (goal ≤ ${goal}: ${ratio <= goal ? "met" : "NOT met"})`;
result(
  "search_structural cold / ast-grep, patterns with a literal (median)",
  verdict(median(withLiteral.map((r) => r.cold)), 0.5),
);
result(
  "search_structural cold / ast-grep, patterns without a literal (median)",
  verdict(median(without.map((r) => r.cold)), 1.2),
);
result(
  "search_structural cold with a ready pool of 2 / ast-grep, patterns with a literal (median)",
  verdict(median(withLiteral.map((r) => r.pooled)), 0.5),
);
result(
  "search_structural cold with a ready pool of 2 / ast-grep, patterns without a literal (median)",
  verdict(median(without.map((r) => r.pooled)), 1.2),
);
result(
  "the floor of a cold search on two cores (walk, then the parse spread over both) / ast-grep, each pattern",
  ratios.map((r, i) => `${PATTERNS[i]!.pattern} ${r.floor.toFixed(2)}×`).join(", "),
);
result(
  "search_structural warm session, the same query again / ast-grep, every pattern (median)",
  verdict(median(ratios.map((r) => r.warm)), 0.05),
);
result(
  "search_structural warm session, another query (trees reused, no answer) / ast-grep, every pattern (median)",
  verdict(median(ratios.map((r) => r.other)), 0.05),
);
