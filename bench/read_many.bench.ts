/**
 * Batched reads (`Backend.readMany`: on local file systems the disk reads a chunk of files synchronously, one
 * descriptor each, no promise or `FileHandle`) against one read per file (`readFile` through
 * `node:fs/promises`, 16 in flight: the search's reads before), in one process, runs interleaved and the order
 * swapped each run, over hono's package (577 files, 3.8 MB, the page cache warm):
 *
 * - the reads alone: every file of the tree read once;
 * - a cold search_text (`createElement`, fixed string): a fresh read cache, every folder listed, every file read;
 * - the walk, stat and read of the JavaScript files (a search of them for a text none holds): what a cold
 *   search_structural does before it parses;
 * - a cold search_structural per pattern: a fresh workspace (empty parse cache) and read cache, as
 *   `search_structural.bench.ts`'s "cold" column.
 *
 * Each figure is a median of wall and CPU time (user + system, every thread); the ratio is batched / one each.
 *
 *   deno run -A bench/read_many.bench.ts [--runs N] [--root DIR]
 *
 * `--root DIR` times another tree instead of hono's (its structural searches are of its JavaScript files).
 *
 * @module
 */
import process from "node:process";
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";
import { type Backend, BackendFs, Sandbox, Stage } from "../src/fs/mod.ts";
import { createMemoryBackend, createWorkspace } from "../src/mod.ts";
import { ReadCache } from "../src/project/read_cache.ts";
import {
  normalizeSearchTextArgs,
  normalizeStructuralArgs,
  searchStructural,
  searchText,
  walkSearchFiles,
} from "../src/search/mod.ts";
import { patternMatcherOf } from "../src/structural/search/mod.ts";
import { machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const RUNS = runsArg(Deno.args, 9);
const MODES = ["batched", "one read each"] as const;
type Mode = (typeof MODES)[number];

/** The disk backend as each mode reads: with `readMany`, or without it. */
function backendOf(mode: Mode): Backend {
  const disk = createDiskBackend();
  if (mode === "batched") return disk;
  const { readMany: _, ...each } = disk;
  return each;
}

/** CPU time of this process so far (user + system, every thread), in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Wall and CPU time of one piece of work, in ms. */
async function timed(work: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const [t, c] = [performance.now(), cpuMs()];
  await work();
  return { wall: performance.now() - t, cpu: cpuMs() - c };
}

/** Every file of a tree (real paths, no links), in walk order. */
function filesOf(dir: string, out: string[] = []): string[] {
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    if (e.isDirectory) filesOf(`${dir}/${e.name}`, out);
    else if (e.isFile) out.push(`${dir}/${e.name}`);
  }
  return out;
}

/** Read every file once as the mode reads: in one `readMany` call, or one read each, 16 in flight. */
async function readAll(mode: Mode, paths: readonly string[]): Promise<number> {
  const fs = BackendFs.wrap(backendOf(mode));
  if (mode === "batched") return (await fs.readMany(paths)).length;
  let next = 0;
  const worker = async () => {
    while (next < paths.length) await fs.read(paths[next++]!);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return paths.length;
}

/** The search files of a fresh session over the tree, read as the mode reads. */
function searchFiles(mode: Mode, root: string) {
  const fs = BackendFs.wrap(backendOf(mode));
  return walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache: new ReadCache(fs) });
}

const rootArg = Deno.args.indexOf("--root");
const root = Deno.realPathSync(rootArg >= 0 ? Deno.args[rootArg + 1]! : `${ROOT}node_modules/hono`);
const paths = filesOf(root);
const textQuery = normalizeSearchTextArgs({
  pattern: "createElement",
  literal: true,
  max_results: 1e7,
  max_chars: 1e12,
});
/** A search of the JavaScript files for a text none holds: the walk, the stats and the reads, a scan for nothing. */
const ioQuery = normalizeSearchTextArgs({ pattern: "\u0001 never \u0001", literal: true, type: "js" });
const STRUCTURAL = ["c.req.header($A)", "new Response($$$A)", "throw new Error($M)", "return $X"];
const wasm = createWasmLoader();

/** Every piece of work the bench times, by name: each takes the mode and returns a count to check. */
const WORK: Record<string, (mode: Mode) => Promise<number>> = {
  [`the reads alone (${paths.length} files)`]: (mode) => readAll(mode, paths),
  "search_text cold, createElement": async (mode) =>
    (await searchText(searchFiles(mode, root), textQuery)).matches!.length,
  // What a cold search_structural does before parsing: walk, stat and read the JavaScript files.
  "walk, stat and read of the JavaScript files": async (mode) =>
    (await searchText(searchFiles(mode, root), ioQuery)).summary.files_scanned,
};
for (const pattern of STRUCTURAL) {
  WORK[`search_structural cold, ${pattern}`] = async (mode) => {
    const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm });
    const query = normalizeStructuralArgs({ pattern, language: "js", max_results: 1e7, max_chars: 1e12 });
    return (await searchStructural(searchFiles(mode, root), query, { matcher: patternMatcherOf(ws) }))
      .matches!.length;
  };
}

console.log(`# batched reads vs one read each (${machine()})\n\n## ${root}, ${RUNS} runs\n`);
const times: Record<string, Record<Mode, { wall: number[]; cpu: number[] }>> = {};
for (const [name, work] of Object.entries(WORK)) {
  const counts = [await work("batched"), await work("one read each")]; // also warms the JIT and the grammar
  if (counts[0] !== counts[1]) throw new Error(`${name}: ${counts[0]} batched, ${counts[1]} one read each`);
  times[name] = { "batched": { wall: [], cpu: [] }, "one read each": { wall: [], cpu: [] } };
}
for (let i = 0; i < RUNS; i++) {
  const order = i % 2 === 0 ? MODES : [...MODES].reverse();
  for (const [name, work] of Object.entries(WORK)) {
    for (const mode of order) {
      const t = await timed(() => work(mode));
      times[name]![mode].wall.push(t.wall);
      times[name]![mode].cpu.push(t.cpu);
    }
  }
}
const med = (s: number[]) => stats(s).median;
const rows = [["work", "batched wall", "one each wall", "ratio", "batched CPU", "one each CPU", "ratio"]];
for (const [name, t] of Object.entries(times)) {
  const [b, e] = [t["batched"], t["one read each"]];
  rows.push([
    name,
    `${med(b.wall).toFixed(1)} ms`,
    `${med(e.wall).toFixed(1)} ms`,
    `${(med(b.wall) / med(e.wall)).toFixed(2)}×`,
    `${med(b.cpu).toFixed(1)} ms`,
    `${med(e.cpu).toFixed(1)} ms`,
    `${(med(b.cpu) / med(e.cpu)).toFixed(2)}×`,
  ]);
}
printTable(rows);
const [reads, text] = Object.values(times) as [typeof times[string], typeof times[string]];
result(
  "reads alone, batched / one read each (wall, CPU)",
  `${(med(reads["batched"].wall) / med(reads["one read each"].wall)).toFixed(2)}×, ${
    (med(reads["batched"].cpu) / med(reads["one read each"].cpu)).toFixed(2)
  }×`,
);
result(
  "search_text cold, batched / one read each (wall, CPU)",
  `${(med(text["batched"].wall) / med(text["one read each"].wall)).toFixed(2)}×, ${
    (med(text["batched"].cpu) / med(text["one read each"].cpu)).toFixed(2)
  }×`,
);
