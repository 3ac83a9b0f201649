/**
 * The first page of a search over a large tree, cold in a process (a fresh read cache: every folder listed
 * and every file read as met; the grammar loaded): the latency an agent meets when it asks for the first few
 * matches, which is what `max_results` / `head_limit` ask for. Three figures per query, runs alternating:
 *
 * - graver: the walk hands its files on as it finds them, and the page, once full, stops the walk
 *   (`SearchFiles.listRuns`);
 * - graver, whole walk first: the same search over the same source without `listRuns` (the whole tree listed
 *   before the first file is read: how every search ran before) — the baseline of this run;
 * - rg: `rg … | head -n N` (ripgrep stops when `head` has its lines: how a shell user takes a first page).
 *
 * The tree is `node_modules/.deno` (the npm packages this repository pins, 26,000 files in some 3,000
 * folders), searched with ignore rules lifted (`no_ignore`, rg's `-u`) so that every package is walked.
 *
 *   deno run -A bench/search_page.bench.ts [--runs N]
 *
 * @module
 */
import { createMemoryBackend, createWorkspace } from "../src/mod.ts";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import {
  normalizeSearchTextArgs,
  normalizeStructuralArgs,
  type SearchFiles,
  searchStructural,
  searchText,
} from "../src/search/mod.ts";
import { patternMatcherOf } from "../src/structural/search/mod.ts";
import { diskReadCache, diskSearchFiles } from "../tests/unit/search/_rg.ts";
import { machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const TREE = Deno.realPathSync(`${ROOT}node_modules/.deno`);
const RUNS = runsArg(Deno.args, 7);
const PAGE = 10;

interface Query {
  name: string;
  search: (files: SearchFiles) => Promise<number>;
  rg: string[];
}

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
await ws.grammars!.parser("javascript").then((p) => p.delete()); // a session past its first search

const QUERIES: Query[] = [
  {
    name: "search_text `function`",
    search: async (files) =>
      (await searchText(
        files,
        normalizeSearchTextArgs({ pattern: "function", no_ignore: true, max_results: PAGE }),
      ))
        .matches!.length,
    rg: ["-u", "--no-config", "function"],
  },
  {
    name: "search_text `createElement` (fixed)",
    search: async (files) =>
      (await searchText(
        files,
        normalizeSearchTextArgs({
          pattern: "createElement",
          literal: true,
          no_ignore: true,
          max_results: PAGE,
        }),
      )).matches!.length,
    rg: ["-u", "--no-config", "-F", "createElement"],
  },
  {
    name: "search_structural `console.log($A)`",
    search: async (files) => {
      const query = normalizeStructuralArgs({
        pattern: "console.log($A)",
        language: "js",
        no_ignore: true,
        max_results: PAGE,
      });
      return (await searchStructural(files, query, { matcher: patternMatcherOf(ws) })).matches!.length;
    },
    rg: ["-u", "--no-config", "-t", "js", "console\\.log\\("],
  },
];

/** The disk source with a fresh cache; without `listRuns` when `whole` (the whole walk before any read). */
function source(whole: boolean): { files: SearchFiles; close: () => Promise<void> } {
  const cache = diskReadCache();
  const files = diskSearchFiles(TREE, { cache });
  if (whole) delete files.listRuns;
  return { files, close: () => cache.close() };
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

async function graver(q: Query, whole: boolean): Promise<number> {
  const { files, close } = source(whole);
  try {
    let found = 0;
    const wall = await timed(async () => found = await q.search(files));
    if (found !== PAGE) throw new Error(`${q.name}: a page of ${found}`);
    return wall;
  } finally {
    await close();
  }
}

async function rg(q: Query): Promise<number> {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const command = `rg ${q.rg.map(quote).join(" ")} . | head -n ${PAGE} > /dev/null`;
  return await timed(() => new Deno.Command("bash", { args: ["-c", command], cwd: TREE }).output());
}

console.log(`# the first page of ${PAGE} over a large tree, cold (${machine()})\n`);
const rows = [["query", "graver", "whole walk first", "rg | head", "graver / whole walk", "graver / rg"]];
const ratios: number[] = [];
for (const q of QUERIES) {
  const ours: number[] = [];
  const whole: number[] = [];
  const theirs: number[] = [];
  await graver(q, false); // each side once untimed
  await graver(q, true);
  for (let i = 0; i < RUNS; i++) {
    ours.push(await graver(q, false));
    whole.push(await graver(q, true));
    theirs.push(await rg(q));
  }
  const [a, b, c] = [stats(ours).median, stats(whole).median, stats(theirs).median];
  ratios.push(a! / b!);
  rows.push([
    q.name,
    `${a!.toFixed(1)} ms`,
    `${b!.toFixed(1)} ms`,
    `${c!.toFixed(1)} ms`,
    `${(a! / b!).toFixed(2)}×`,
    `${(a! / c!).toFixed(2)}×`,
  ]);
}
printTable(rows);
result(
  "first page, streamed walk / whole walk first, each query",
  ratios.map((r, i) => `${QUERIES[i]!.name} ${r.toFixed(2)}×`).join(", "),
);
await ws.close();
