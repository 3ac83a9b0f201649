/**
 * Benchmark: symbols.
 *
 * 1. outline of the 1 MB TypeScript corpus (parse + tags query + symbol tree)
 *    against its bare parse in the same run. Goal: ≤ 1.3×.
 * 2. find_symbol across a 1,000-file workspace (real `.ts`/`.d.ts` files of
 *    the pinned npm packages, in memory) cold, against parsing those files
 *    from scratch in the same run. Goal: ≤ 1.5×.
 * 3. find_symbol warm (trees and outlines cached), and again right after a
 *    staged-and-committed replace_symbol in one file. Goal: ≤ 50 ms.
 * 4. Memory held per cached tree (RSS growth over the 1,000 cached trees).
 * 5. The floor under (1), outside graver: in one Node process, the native
 *    binding and web-tree-sitter each parse the corpus and run the same tags
 *    query, a one-pattern query and a walk in C (descendantsOfType); the
 *    ratios to each side's own parse show what any query-driven outline costs.
 *
 * Run: `npx -y deno@2.9.6 task bench --filter symbols` (`-- --runs N`: rounds).
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../src/fs/memory_backend.ts";
import { Query } from "web-tree-sitter";
import { Grammars } from "../src/syntax/grammars.ts";
import { loadQuery } from "../src/syntax/queries.ts";
import { symbolsOfTree } from "../src/syntax/symbols.ts";
import { createWorkspace } from "../src/workspace.ts";
import {
  buildCorpus,
  describe,
  describeCorpus,
  ensureNative,
  machine,
  ms,
  printTable,
  result,
  ROOT,
  runsArg,
  stats,
  walkFiles,
} from "./_util.ts";

const FILES = 1000;

// Observe the tree-sitter runtime's linear memory (created on first use, below) to see what cached trees hold.
const memories: WebAssembly.Memory[] = [];
const OriginalMemory = WebAssembly.Memory;
function ObservedMemory(descriptor: WebAssembly.MemoryDescriptor): WebAssembly.Memory {
  const memory = new OriginalMemory(descriptor);
  memories.push(memory);
  return memory;
}
ObservedMemory.prototype = OriginalMemory.prototype;
(WebAssembly as unknown as { Memory: unknown }).Memory = ObservedMemory;
function wasmBytes(): number {
  return memories.reduce((n, m) => n + m.buffer.byteLength, 0);
}
const rounds = runsArg(Deno.args, 5);

/**
 * 1,000 distinct real TypeScript files (≤ 64 KB each) from the pinned npm
 * packages (`node_modules/`, then the pinned runtime tools in `tools/node_modules/`),
 * as a memfs tree.
 */
async function workspaceFiles(): Promise<{ files: Record<string, string>; bytes: number }> {
  const store = join(ROOT, "node_modules", ".deno");
  const all: string[] = [];
  const isTs = (name: string) => name.endsWith(".ts");
  for (const d of (await fsp.readdir(store)).sort()) {
    await walkFiles(join(store, d, "node_modules"), isTs, all);
  }
  await walkFiles(join(ROOT, "tools", "node_modules"), isTs, all);
  const seen = new Set<string>();
  const files: Record<string, string> = {};
  let bytes = 0;
  for (const f of all) {
    if (Object.keys(files).length >= FILES) break;
    const text = await fsp.readFile(f, "utf8");
    if (text.length > 64 * 1024 || text.trim() === "" || seen.has(text)) continue;
    seen.add(text);
    const rel = f.slice(ROOT.length).replace(/\/node_modules\//g, "/").replace(
      /^node_modules\/\.deno/,
      "deps",
    );
    files[`/src${rel}`] = text;
    bytes += new TextEncoder().encode(text).length;
  }
  if (Object.keys(files).length < FILES) {
    throw new Error(
      `Cannot find ${FILES} distinct TypeScript files in node_modules: run "deno task setup" (with --all for tools/)`,
    );
  }
  return { files, bytes };
}

console.log("# symbols: outline and find_symbol vs bare parsing, warm find_symbol, memory per cached tree");
console.log(`machine: ${machine()}; ${new Date().toISOString()}`);

const grammars = new Grammars(createWasmLoader());
const parser = await grammars.parser("typescript");

// 1. find_symbol over 1,000 files (first, so RSS growth shows the memory the cached trees take)
const { files, bytes } = await workspaceFiles();
console.log(
  `workspace: ${FILES} files, ${(bytes / 1024 / 1024).toFixed(2)} MB of .ts/.d.ts from node_modules`,
);
const texts = Object.values(files);
const coldParse: number[] = [];
const coldFind: number[] = [];
const coldAll: number[] = [];
const warmFind: number[] = [];
const afterEdit: number[] = [];
let perTreeKb = 0;
let perFileKb = 0;
let matches = 0;
for (let round = -1; round < rounds; round++) {
  let t = performance.now();
  for (const text of texts) parser.parse(text)!.delete();
  const dParse = performance.now() - t;

  const ws = await createWorkspace({ backend: createMemoryBackend(files), grammars });
  t = performance.now();
  const cold = await ws.call("find_symbol", { name_path: "Context/header" });
  const dCold = performance.now() - t;
  if (!cold.ok) throw new Error(JSON.stringify(cold.error));
  matches = cold.data["count"] as number;

  const dWarms: number[] = [];
  for (let k = 0; k < 3; k++) {
    t = performance.now();
    const warm = await ws.call("find_symbol", { name_path: "Context/header" });
    dWarms.push(performance.now() - t);
    if (!warm.ok) throw new Error(JSON.stringify(warm.error));
  }

  // One staged edit lands, then search again: one incremental re-parse, everything else cached.
  const target = (cold.data["matches"] as { path: string; name_path: string }[])[0]!;
  const edit = await ws.call("insert_code", {
    path: target.path,
    name_path: target.name_path,
    position: "after",
    code: `graverBench${round + 1}(): void;`,
  });
  if (!edit.ok) throw new Error(JSON.stringify(edit.error));
  t = performance.now();
  const again = await ws.call("find_symbol", { name_path: "Context/header" });
  const dAgain = performance.now() - t;
  if (!again.ok) throw new Error(JSON.stringify(again.error));
  if (round >= 0) {
    coldParse.push(dParse);
    coldFind.push(dCold);
    warmFind.push(...dWarms);
    afterEdit.push(dAgain);
  }
  for (const path of Object.keys(files)) ws.trees!.forget(path.slice(1)); // free this round's trees

  // Worst case: a one-letter substring appears in every file, so the prefilter skips nothing.
  const wsAll = await createWorkspace({ backend: createMemoryBackend(files), grammars });
  // deno-lint-ignore no-explicit-any
  (globalThis as any).gc?.();
  const rssBefore = Deno.memoryUsage().rss;
  const wasmBefore = wasmBytes();
  t = performance.now();
  const every = await wsAll.call("find_symbol", { name_path: "e", substring: true, max_results: 1 });
  const dAll = performance.now() - t;
  if (!every.ok) throw new Error(JSON.stringify(every.error));
  // deno-lint-ignore no-explicit-any
  (globalThis as any).gc?.();
  if (round === -1) { // the first full outline of the process: the growth is what the cache holds
    perFileKb = (Deno.memoryUsage().rss - rssBefore) / wsAll.trees!.size / 1024;
    perTreeKb = (wasmBytes() - wasmBefore) / wsAll.trees!.size / 1024;
  }
  for (const path of Object.keys(files)) wsAll.trees!.forget(path.slice(1));
  if (round >= 0) coldAll.push(dAll);
}
const parseFiles = stats(coldParse);
const cold = stats(coldFind);
const all = stats(coldAll);
const allRatio = all.median / parseFiles.median;
const warm = stats(warmFind);
const edited = stats(afterEdit);
const coldRatio = cold.median / parseFiles.median;
printTable([
  [`find_symbol over ${FILES} files`, "median", "detail"],
  ["parse every file cold (baseline)", ms(parseFiles.median), describe(parseFiles)],
  ["find_symbol cold (read + hash + parse + query)", ms(cold.median), describe(cold)],
  ["ratio cold / parse", `${coldRatio.toFixed(2)}×`, "goal ≤ 1.50×; files without the name are not parsed"],
  ['find_symbol cold, every file parsed (substring "e")', ms(all.median), describe(all)],
  ["ratio every-file cold / parse", `${allRatio.toFixed(2)}×`, "worst case: outline of all 1,000 files"],
  ["find_symbol warm", ms(warm.median), `${describe(warm)}; goal ≤ 50 ms`],
  ["find_symbol after one committed edit", ms(edited.median), describe(edited)],
  [
    "memory per cached tree (tree-sitter linear memory growth / trees)",
    `${perTreeKb.toFixed(1)} KB`,
    `avg file ${(bytes / FILES / 1024).toFixed(1)} KB; first round, fresh process`,
  ],
  ["RSS growth per cached file (tree + outline + text + stage)", `${perFileKb.toFixed(0)} KB`, "first round"],
]);
console.log(`matches for "Context/header": ${matches}`);

// 2. outline of 1 MB vs its bare parse
const corpus = await buildCorpus();
console.log(`corpus: ${describeCorpus(corpus)}`);
const ws0 = await createWorkspace({ backend: createMemoryBackend({}), grammars });
const parseTimes: number[] = [];
const outlineTimes: number[] = [];
const queryTimes: number[] = [];
const walkTimes: number[] = [];
const cWalkTimes: number[] = [];
// Where the outline's time goes: the tags query alone, and a one-pattern query (the cost of any query's walk).
const tags = (await loadQuery(grammars, "typescript", "tags"))!;
const onePattern = new Query(await grammars.language("typescript"), "(function_declaration) @f");
let symbolCount = 0;
for (let round = -1; round < rounds; round++) {
  let t = performance.now();
  parser.parse(corpus.text)!.delete();
  const dParse = performance.now() - t;
  t = performance.now();
  const tree = parser.parse(corpus.text)!;
  const outline = await symbolsOfTree(ws0, { language: "typescript", tree, text: corpus.text });
  const dOutline = performance.now() - t;
  t = performance.now();
  tags.matches(tree.rootNode);
  const dQuery = performance.now() - t;
  t = performance.now();
  onePattern.matches(tree.rootNode);
  const dWalk = performance.now() - t;
  t = performance.now();
  tree.rootNode.descendantsOfType("function_declaration");
  const dCWalk = performance.now() - t;
  tree.delete();
  symbolCount = outline.symbols.length;
  if (round >= 0) {
    parseTimes.push(dParse);
    outlineTimes.push(dOutline);
    queryTimes.push(dQuery);
    walkTimes.push(dWalk);
    cWalkTimes.push(dCWalk);
  }
}
const parseS = stats(parseTimes);
const outlineS = stats(outlineTimes);
const outlineRatio = outlineS.median / parseS.median;
const queryS = stats(queryTimes);
const walkS = stats(walkTimes);
const cWalkS = stats(cWalkTimes);
printTable([
  ["1 MB TypeScript", "median", "detail"],
  ["bare parse (baseline)", ms(parseS.median), describe(parseS)],
  ["outline (parse + tags query + symbols)", ms(outlineS.median), describe(outlineS)],
  ["ratio", `${outlineRatio.toFixed(2)}×`, `goal ≤ 1.30×; ${symbolCount} top-level symbols`],
  [
    "of which the tags query alone (matches, no symbols)",
    ms(queryS.median),
    `${(queryS.median / parseS.median).toFixed(2)}× the parse; ${describe(queryS)}`,
  ],
  [
    "a one-pattern query over the same tree (any query's walk)",
    ms(walkS.median),
    `${(walkS.median / parseS.median).toFixed(2)}× the parse; ${describe(walkS)}`,
  ],
  [
    "a walk in C, no query (descendantsOfType)",
    ms(cWalkS.median),
    `${(cWalkS.median / parseS.median).toFixed(2)}× the parse; ${describe(cWalkS)}`,
  ],
]);

// 3. The same query outside graver: native tree-sitter and web-tree-sitter side by side in Node.
interface FloorSide {
  parse: number[];
  tags: number[];
  one: number[];
  walk: number[];
  matches: number;
}
ensureNative();
const floorRun = spawnSync(
  "node",
  [join(ROOT, "bench", "symbols_native_node.mjs"), ROOT, corpus.path, String(Math.max(rounds, 5))],
  { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
);
if (floorRun.status !== 0) {
  console.error(floorRun.stderr);
  throw new Error(`Cannot run the Node side of the symbols benchmark: node exited ${floorRun.status}`);
}
const floor = JSON.parse(floorRun.stdout) as { node: string; native: FloorSide; wasm: FloorSide };
const floorRows = (label: string, side: FloorSide): string[][] => {
  const parse = stats(side.parse).median;
  const row = (what: string, samples: number[]) => {
    const m = stats(samples).median;
    return [`${label}: ${what}`, ms(m), `${(m / parse).toFixed(2)}× its parse`];
  };
  return [
    [`${label}: parse (baseline)`, ms(parse), describe(stats(side.parse))],
    row(`tags query (${side.matches} matches)`, side.tags),
    row("one-pattern query", side.one),
    row("walk in C (descendantsOfType)", side.walk),
  ];
};
printTable([
  [`the floor outside graver (Node ${floor.node}, same file, same tags query)`, "median", "detail"],
  ...floorRows("native tree-sitter 0.25.1", floor.native),
  ...floorRows("web-tree-sitter 0.27.1", floor.wasm),
]);
const nativeTagsRatio = stats(floor.native.tags).median / stats(floor.native.parse).median;
const wasmTagsRatio = stats(floor.wasm.tags).median / stats(floor.wasm.parse).median;

result(
  "symbols",
  `outline 1 MB ${ms(outlineS.median)} vs parse ${ms(parseS.median)} = ${
    outlineRatio.toFixed(2)
  }× (goal ≤ 1.3×; the tags query alone ${(queryS.median / parseS.median).toFixed(2)}×, ` +
    `a one-pattern walk ${(walkS.median / parseS.median).toFixed(2)}×, a walk in C ${
      (cWalkS.median / parseS.median).toFixed(2)
    }×; in Node the tags query alone is ${nativeTagsRatio.toFixed(2)}× a native parse and ${
      wasmTagsRatio.toFixed(2)
    }× a wasm parse); ` +
    `find_symbol ${FILES} files cold ${ms(cold.median)} vs parse ${ms(parseFiles.median)} = ${
      coldRatio.toFixed(2)
    }× (goal ≤ 1.5×; ${allRatio.toFixed(2)}× when every file must be outlined), ` +
    `warm ${ms(warm.median)} (goal ≤ 50 ms), after an edit ${ms(edited.median)}; ${
      perTreeKb.toFixed(1)
    } KB per cached tree`,
);
