/**
 * What the compass router adds to one edit call: `edit_file` replacing one
 * unique line of the 1 MB TypeScript corpus (real `.d.ts` files of the pinned
 * packages, concatenated), through the whole dispatch pipeline with the
 * syntax guard off (so the router's own work is not hidden behind a parse),
 * measured interleaved in one run:
 *
 * - off: `compass: false` (the baseline);
 * - suggest: the router recognises the edit, reads and hashes the file, attaches a reminder;
 * - rewrite: the same, then runs the call as edit_safe_text_patch pinned to the version read.
 *
 * Goal: suggest and rewrite ≤ 1.25 × off.
 *
 *   deno run -A bench/compass_route.bench.ts [--runs N]
 *
 * @module
 */
import { buildCorpus, describe, machine, printTable, result, runsArg, type Stats, stats } from "./_util.ts";
import { createMemoryBackend, createWorkspace, type Workspace } from "../src/mod.ts";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import type { CompassSetting } from "../src/compass/types.ts";

const RUNS = runsArg(Deno.args, 20);
const corpus = await buildCorpus();
const lines = corpus.text.split("\n");

/** A line that occurs once in the corpus, near the middle, long enough to be a real edit. */
function uniqueLine(): string {
  for (let i = Math.floor(lines.length / 2); i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim().length < 20) continue;
    const first = corpus.text.indexOf(l);
    if (corpus.text.indexOf(l, first + 1) === -1) return l;
  }
  throw new Error("no unique line");
}
const line = uniqueLine();

async function open(compass: CompassSetting): Promise<Workspace> {
  return await createWorkspace({
    backend: createMemoryBackend({ "/big.ts": corpus.text }),
    wasm: createWasmLoader(),
    syntaxGuard: "off",
    compass,
  });
}

const subjects: [string, Workspace][] = [
  ["off", await open(false)],
  ["suggest", await open({ mode: "suggest" })],
  ["rewrite", await open({ mode: "rewrite" })],
];

/** One call that toggles the line (so every run edits the same text), checked to have landed as expected. */
async function call(name: string, ws: Workspace, run: number): Promise<number> {
  const [from, to] = run % 2 === 0 ? [line, `${line} // edited`] : [`${line} // edited`, line];
  const t0 = performance.now();
  const r = await ws.call("edit_file", { path: "big.ts", old_string: from, new_string: to });
  const dt = performance.now() - t0;
  if (!r.ok || r.status !== "applied") throw new Error(`${name}: ${JSON.stringify(r).slice(0, 300)}`);
  const want = name === "rewrite" ? "edit_safe_text_patch" : "edit_file";
  if (r.tool !== want || (name === "suggest") !== (r.reminders.length > 0)) {
    throw new Error(`${name}: not routed`);
  }
  return dt;
}

const samples = new Map<string, number[]>(subjects.map(([n]) => [n, []]));
for (let run = 0; run < RUNS + 2; run++) {
  for (const [name, ws] of subjects) {
    const dt = await call(name, ws, run);
    if (run >= 2) samples.get(name)!.push(dt); // two warm-up rounds
  }
}

const s = new Map<string, Stats>([...samples].map(([n, v]) => [n, stats(v)]));
const base = s.get("off")!.median;
console.log(`# compass router cost per edit_file call\n\n${machine()}`);
console.log(`corpus: ${corpus.files} files, ${(corpus.bytes / 1024).toFixed(0)} KB, ${lines.length} lines\n`);
printTable([
  ["compass", "edit_file call", "× off"],
  ...[...s].map(([n, st]) => [n, describe(st), (st.median / base).toFixed(2)]),
]);
for (const n of ["suggest", "rewrite"]) {
  const ratio = s.get(n)!.median / base;
  result(
    `compass ${n} edit_file (1 MB TS, guard off)`,
    `${describe(s.get(n)!)} (${ratio.toFixed(2)}× off; goal ≤ 1.25×: ${ratio <= 1.25 ? "met" : "NOT met"})`,
  );
}
