/**
 * Benchmark (issue 25, item 5): a structural edit of one definition in a 5 MB JavaScript file, against a full
 * parse of it. The file is real code: TypeScript's compiler (`typescript/lib/_tsc.js`, pinned in deno.json),
 * cut at the first top-level function past 5 MiB (a flat file of 2,000 top-level functions and their
 * locals). Each call runs in a fresh workspace (nothing parsed or outlined yet, as a CLI call or the first
 * call of a session meets the file), on disk, the edits applied (written) on a copy restored before each
 * run; the baseline, a parse of the same text by a fresh parser cache, is measured in the same run, call by
 * call alternating with the cases. Reports each case's median and its ratio to the parse's median (goal:
 * ≤ 1.5× for `replace_symbol`, `remove_symbol`, `insert_code` and an `outline` page), and `read_file` of the
 * whole file for comparison.
 *
 * Run: `deno run -A bench/large_file_structural.bench.ts [--runs N]` (N rounds, default 5).
 *
 * @module
 */
import { join } from "node:path";
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createWorkspace, type Workspace } from "../src/workspace.ts";
import { describe, machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const RUNS = runsArg(Deno.args, 5);
const MIB = 1024 * 1024;

/** The first 5 MiB of TypeScript's compiler, cut where a top-level function starts. */
function bigFile(): { text: string; lines: number } {
  const lines = Deno.readTextFileSync(join(ROOT, "node_modules/typescript/lib/_tsc.js")).split("\n");
  let size = 0;
  for (let i = 0; i < lines.length; i++) {
    size += lines[i]!.length + 1;
    if (size > 5 * MIB && lines[i + 1]?.startsWith("function ")) {
      return { text: lines.slice(0, i + 1).join("\n") + "\n", lines: i + 1 };
    }
  }
  throw new Error("Cannot cut _tsc.js: it is under 5 MiB");
}

const { text, lines } = bigFile();
const dir = await Deno.makeTempDir({ prefix: "graver-large-structural-" });
const path = `${dir}/big.js`;
const wasm = createWasmLoader();

async function fresh(): Promise<Workspace> {
  await Deno.writeTextFile(path, text);
  const ws = await createWorkspace({ backend: createDiskBackend(), root: dir, wasm, readGuard: "off" });
  // The grammar loaded, so that no case pays for compiling the wasm.
  (await ws.trees!.parseDetached("javascript", "let a = 1;")).delete();
  return ws;
}

const CASES: Record<string, Record<string, unknown>> = {
  replace_symbol: {
    path: "big.js",
    name_path: "firstDefined",
    new_text: "function firstDefined(array, callback) {\n  return array?.find(callback);\n}",
  },
  remove_symbol: { path: "big.js", name_path: "firstDefined" },
  insert_code: {
    path: "big.js",
    name_path: "firstDefined",
    position: "after",
    code: "function firstOf(array) {\n  return array[0];\n}",
  },
  outline: { path: "big.js", offset: 1000, max_results: 50 },
  read_file: { path: "big.js", start_line: 1, end_line: lines },
};

const parse: number[] = [];
const times: Record<string, number[]> = Object.fromEntries(Object.keys(CASES).map((c) => [c, []]));
for (let round = 0; round < RUNS; round++) {
  for (const [tool, args] of Object.entries(CASES)) {
    const base = await fresh();
    const t0 = performance.now();
    (await base.trees!.parseDetached("javascript", text)).delete();
    parse.push(performance.now() - t0);
    const ws = await fresh();
    const t1 = performance.now();
    const res = await ws.call(tool, args);
    times[tool]!.push(performance.now() - t1);
    if (!res.ok) throw new Error(`${tool}: ${JSON.stringify(res.error)}`);
  }
}
const p = stats(parse);
console.log(`\n## A structural edit of one definition in a 5 MB file (${machine()})\n`);
console.log(
  `${(text.length / MIB).toFixed(2)} MiB, ${lines} lines, ${RUNS} runs of each, each in a fresh workspace\n`,
);
const rows = [["", "median", "ratio to a parse", "spread"], [
  "a full parse",
  `${p.median.toFixed(0)} ms`,
  "1.00×",
  describe(p),
]];
const ratios: string[] = [];
for (const [tool, samples] of Object.entries(times)) {
  const s = stats(samples);
  const ratio = s.median / p.median;
  rows.push([tool, `${s.median.toFixed(0)} ms`, `${ratio.toFixed(2)}×`, describe(s)]);
  ratios.push(`${tool} ${ratio.toFixed(2)}×`);
}
printTable(rows);
result(
  "large_file_structural",
  `against a full parse of a 5 MiB JS file (goal ≤ 1.5×): ${ratios.join(", ")}`,
);
await Deno.remove(dir, { recursive: true });
