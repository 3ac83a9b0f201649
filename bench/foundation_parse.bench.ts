/**
 * Benchmark: WASM parse (web-tree-sitter 0.27.1 with the vendored runtime and
 * TypeScript grammar wasm) vs the native binding (tree-sitter 0.25.1 +
 * tree-sitter-typescript 0.23.2, built from source with node-gyp) on the same
 * 1 MB TypeScript file, in one Node process, runs alternating. Goal: WASM ≤
 * 1.15× native.
 *
 * Run: `npx -y deno@2.9.6 task bench --filter parse` (or this file with
 * `deno run -A`; `--runs N` sets the number of timed runs per side).
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
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
} from "./_util.ts";

const GOAL = 1.15;
interface NodeReport {
  node: string;
  bytes: number;
  setup: { wasmInitMs: number; wasmLoadMs: number; nativeLoadMs: number };
  nativeBinary: string;
  check: { wasm: { sha256: string; hasError: boolean }; native: { sha256: string; hasError: boolean } };
  wasm: number[];
  native: number[];
  incremental: { line: number; wasm: number[]; native: number[] };
}

const runs = runsArg(Deno.args, 15);
ensureNative();
const corpus = await buildCorpus();
const r = spawnSync(
  "node",
  ["--expose-gc", join(ROOT, "bench", "foundation_parse_node.mjs"), ROOT, corpus.path, String(runs)],
  { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
);
if (r.status !== 0) {
  console.error(r.stderr);
  throw new Error(`Cannot run the Node side of the parse benchmark: node exited ${r.status}`);
}
const report = JSON.parse(r.stdout) as NodeReport;
const wasm = stats(report.wasm);
const native = stats(report.native);
const pairRatios = report.wasm.map((w, i) => w / report.native[i]!);
const ratio = wasm.median / native.median;
const mbps = (s: number) => `${(report.bytes / 1e6 / (s / 1000)).toFixed(1)} MB/s`;

console.log(`# foundation_parse: WASM vs native tree-sitter, 1 MB TypeScript, one Node process`);
console.log(`machine: ${machine()}, node ${report.node}; ${new Date().toISOString()}`);
console.log(`corpus: ${describeCorpus(corpus)}`);
console.log(`native binding: ${report.nativeBinary}`);
console.log(
  `same tree: ${report.check.wasm.sha256 === report.check.native.sha256 ? "yes" : "NO"} ` +
    `(S-expression sha256 ${
      report.check.wasm.sha256.slice(0, 16)
    }…; hasError wasm=${report.check.wasm.hasError} ` +
    `native=${report.check.native.hasError})`,
);
console.log(
  `setup: wasm runtime init ${ms(report.setup.wasmInitMs)}, wasm grammar load ${
    ms(report.setup.wasmLoadMs)
  }, ` +
    `native require ${ms(report.setup.nativeLoadMs)}`,
);
printTable([
  ["parser", "median (min, max, n)", "throughput"],
  ["native (baseline)", describe(native), mbps(native.median)],
  ["wasm", describe(wasm), mbps(wasm.median)],
]);
console.log(
  `ratio wasm/native: ${ratio.toFixed(3)}× (median of per-pair ratios ${
    stats(pairRatios).median.toFixed(3)
  }×, ` +
    `range ${stats(pairRatios).min.toFixed(3)}–${stats(pairRatios).max.toFixed(3)}); goal ≤ ${GOAL}× — ` +
    `${ratio <= GOAL ? "met" : "NOT met"}`,
);
const incWasm = stats(report.incremental.wasm);
const incNative = stats(report.incremental.native);
console.log(
  `incremental re-parse after a one-line edit (line ${report.incremental.line}), tree.edit + parse(text, old):`,
);
printTable([
  ["parser", "median (min, max, n)"],
  ["native (baseline)", describe(incNative)],
  ["wasm", describe(incWasm)],
]);
console.log(`ratio wasm/native (incremental): ${(incWasm.median / incNative.median).toFixed(3)}×`);
result(
  "parse 1 MB TS wasm/native",
  `${ratio.toFixed(3)}× (wasm ${ms(wasm.median)}, native ${ms(native.median)}; goal ≤ ${GOAL}×: ${
    ratio <= GOAL ? "met" : "NOT met"
  })`,
);
