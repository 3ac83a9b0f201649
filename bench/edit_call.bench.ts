/**
 * What one edit call costs an agent: `apply_edits` placing an exact 4-line
 * SEARCH/REPLACE block in a real 20k-line Python file (CPython's standard
 * library, concatenated), through the whole dispatch pipeline, measured
 * interleaved in one run against the parts it cannot avoid:
 *
 * - guard off, warm: the call with the syntax guard off (engine + stage + commit);
 * - guard on, warm: the same on a workspace that has read and outlined the file;
 * - guard on, after a read: the same after `read_file` alone, once the read's idle warm-up has parsed the
 *   file (`TreeCache.settled()` stands for the seconds a model takes between two calls);
 * - guard on, new: the same on a workspace opened for the call;
 * - full parse: tree-sitter parsing the file from scratch (baseline of "new");
 * - re-parse: `TreeCache`'s incremental re-parse of that edit (baseline of "warm").
 *
 * Goals (issue 15): warm ≤ guard off + re-parse + 10 ms; new ≤ 1.2 × full parse.
 *
 *   deno run -A bench/edit_call.bench.ts [--runs N]
 *
 * @module
 */
import { describe, printTable, result, runsArg, type Stats, stats } from "./_util.ts";
import { createMemoryBackend, createWorkspace, Grammars, type Workspace } from "../src/mod.ts";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { TreeCache } from "../src/syntax/trees.ts";
import { versionOf } from "../src/fs/version.ts";
import { buildCPythonFile } from "./_cpython.ts";

const RUNS = runsArg(Deno.args, 15);
const LINES = 20000;

const { text, files } = await buildCPythonFile(LINES);
const lines = text.split("\n");
const grammars = new Grammars(createWasmLoader());

/** A unique 4-line block near `at` and its edit (one comment line added). */
function edit(at: number): string {
  for (let s = at; s < lines.length - 4; s++) {
    const b = lines.slice(s, s + 4);
    if (b.some((l) => l.trim().length < 8)) continue;
    const needle = b.join("\n") + "\n";
    const first = text.indexOf(needle);
    if (first === -1 || text.indexOf(needle, first + 1) !== -1) continue;
    return `big.py\n<<<<<<< SEARCH\n${needle}=======\n${needle}# edited\n>>>>>>> REPLACE\n`;
  }
  throw new Error("no unique block");
}

async function open(guard: "refuse" | "off", warm: boolean | "read"): Promise<Workspace> {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/big.py": text }),
    grammars,
    syntaxGuard: guard,
  });
  if (warm === "read") {
    await ws.call("read_file", { path: "big.py" });
    await ws.trees!.settled();
  } else if (warm) {
    await ws.call("read_file", { path: "big.py" });
    await ws.call("outline", { path: "big.py" });
  }
  return ws;
}

async function timeCall(ws: Workspace, edits: string): Promise<number> {
  const t0 = performance.now();
  const r = await ws.call("apply_edits", { text: edits });
  const t = performance.now() - t0;
  if (!r.ok) throw new Error(`edit_call.bench: ${r.error.code}: ${r.error.message}`);
  await ws.close();
  return t;
}

// Warm the grammar and the JIT once.
await timeCall(await open("refuse", true), edit(1000));

const samples: Record<string, number[]> = { off: [], warm: [], read: [], fresh: [], parse: [], reparse: [] };
const parser = await grammars.parser("python");
for (let i = 0; i < RUNS; i++) {
  const e = edit(2000 + ((i * 977) % (lines.length - 4000)));
  samples.off!.push(await timeCall(await open("off", true), e));
  samples.warm!.push(await timeCall(await open("refuse", true), e));
  samples.read!.push(await timeCall(await open("refuse", "read"), e));
  samples.fresh!.push(await timeCall(await open("refuse", false), e));
  let t0 = performance.now();
  parser.parse(text)!.delete();
  samples.parse!.push(performance.now() - t0);
  // The same edit's text, re-parsed incrementally from the cached tree.
  const m = /<<<<<<< SEARCH\n([\s\S]*?)=======\n([\s\S]*?)>>>>>>> REPLACE/.exec(e)!;
  const after = text.replace(m[1]!, m[2]!);
  const trees = new TreeCache(grammars);
  await trees.parse("big.py", "python", await versionOf(new TextEncoder().encode(text)), text);
  const v1 = await versionOf(new TextEncoder().encode(after));
  t0 = performance.now();
  await trees.parse("big.py", "python", v1, after);
  samples.reparse!.push(performance.now() - t0);
  trees.clear();
}

const s: Record<string, Stats> = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)]));
printTable([
  ["case", "median (min–max)"],
  ["apply_edits, guard off, warm workspace", describe(s.off!)],
  ["apply_edits, guard on, warm workspace", describe(s.warm!)],
  ["apply_edits, guard on, after read_file only", describe(s.read!)],
  ["apply_edits, guard on, new workspace", describe(s.fresh!)],
  ["tree-sitter full parse", describe(s.parse!)],
  ["TreeCache incremental re-parse of the edit", describe(s.reparse!)],
]);
const warmBudget = s.off!.median + s.reparse!.median + 10;
const freshBudget = 1.2 * s.parse!.median;
console.log(`corpus: ${lines.length - 1} lines from ${files} CPython stdlib modules, ${text.length} chars`);
result(
  "edit_call",
  `warm ${s.warm!.median.toFixed(1)} ms vs budget ${warmBudget.toFixed(1)} (guard off ${
    s.off!.median.toFixed(1)
  } + re-parse ${s.reparse!.median.toFixed(1)} + 10): ${s.warm!.median <= warmBudget ? "met" : "NOT met"}; ` +
    `after read_file ${s.read!.median.toFixed(1)} ms (${
      s.read!.median <= warmBudget ? "met" : "NOT met"
    }); ` +
    `new ${s.fresh!.median.toFixed(1)} ms = ${
      (s.fresh!.median / s.parse!.median).toFixed(2)
    }× a full parse (goal ≤ 1.2×): ${s.fresh!.median <= freshBudget ? "met" : "NOT met"}`,
);
