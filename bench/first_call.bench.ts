/**
 * The first tool call of a fresh process against the same call warm: `outline`
 * of the 1 MB TypeScript corpus, on a new workspace each time (no parse cache),
 * in fresh `deno run` processes (bench/first_call_child.ts), for V8's defaults
 * and for the V8 flags that could take the first call's extra away (wasm
 * tier-up, young-generation size, baseline JIT). Process configurations are
 * interleaved, so load on the machine hits them alike.
 *
 * What is measured per process: `load` (runtime wasm, grammar wasm, tags query
 * compiled), `first` (the first outline after that) and the median of the
 * warm outlines after it. Goal (issue 15): first ≤ 1.3 × warm.
 *
 *   deno run -A bench/first_call.bench.ts [--runs N]
 *
 * @module
 */
import {
  buildCorpus,
  describe,
  describeCorpus,
  machine,
  printTable,
  result,
  runsArg,
  stats,
} from "./_util.ts";
import { CLI_V8_FLAGS } from "../scripts/launcher.ts";

const RUNS = runsArg(Deno.args, 3);
const WARM = 5;
const CHILD = new URL("./first_call_child.ts", import.meta.url).pathname;

const CONFIGS: { name: string; flags: string[] }[] = [
  { name: "V8 defaults", flags: [] },
  { name: "--no-liftoff (wasm optimised up front)", flags: ["--no-liftoff"] },
  {
    name: "--no-wasm-lazy-compilation,--no-liftoff (all wasm optimised at load)",
    flags: ["--no-wasm-lazy-compilation", "--no-liftoff"],
  },
  { name: "--wasm-tiering-budget=20000 (tier up sooner)", flags: ["--wasm-tiering-budget=20000"] },
  { name: "--min-semi-space-size=16 (young generation)", flags: ["--min-semi-space-size=16"] },
];
if (CLI_V8_FLAGS.length > 0 && !CONFIGS.some((c) => c.flags.join() === CLI_V8_FLAGS.join())) {
  CONFIGS.push({ name: `bin/graver's flags (${CLI_V8_FLAGS.join(",")})`, flags: [...CLI_V8_FLAGS] });
}

interface Sample {
  load: number;
  first: number;
  warm: number[];
  symbols: number;
}

async function child(flags: string[], file: string): Promise<Sample> {
  const args = ["run", "-A", ...(flags.length > 0 ? [`--v8-flags=${flags.join(",")}`] : []), CHILD, file];
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...args, String(WARM)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`first_call child failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(new TextDecoder().decode(out.stdout)) as Sample;
}

const corpus = await buildCorpus();
const samples = CONFIGS.map(() => [] as Sample[]);
await child([], corpus.path); // module cache and disk cache warm
for (let r = 0; r < RUNS; r++) {
  for (let c = 0; c < CONFIGS.length; c++) samples[c]!.push(await child(CONFIGS[c]!.flags, corpus.path));
}
const symbols = new Set(samples.flat().map((s) => s.symbols));
if (symbols.size !== 1) throw new Error(`outline found different symbol counts: ${[...symbols]}`);

console.log(`# First call in a fresh process vs warm (${machine()})\n`);
console.log(`corpus: ${describeCorpus(corpus)}; outline: ${[...symbols][0]} symbols\n`);
const rows = CONFIGS.map((c, i) => {
  const s = samples[i]!;
  const ratios = s.map((x) => x.first / stats(x.warm).median);
  return {
    name: c.name,
    load: stats(s.map((x) => x.load)),
    first: stats(s.map((x) => x.first)),
    warm: stats(s.map((x) => stats(x.warm).median)),
    ratio: stats(ratios),
    // What a CLI call pays: the set-up and the first call, against a warm call.
    cli: stats(s.map((x) => (x.load + x.first) / stats(x.warm).median)),
  };
});
printTable([
  [
    "process",
    "load (runtime + grammar + query)",
    "first outline",
    "warm outline (median in process)",
    "first / warm",
    "(load + first) / warm",
  ],
  ...rows.map((r) => [
    r.name,
    describe(r.load),
    describe(r.first),
    describe(r.warm),
    `${r.ratio.median.toFixed(2)}× (${r.ratio.min.toFixed(2)}–${r.ratio.max.toFixed(2)})`,
    `${r.cli.median.toFixed(2)}×`,
  ]),
]);
const base = rows[0]!;
const best = rows.reduce((a, b) => b.ratio.median < a.ratio.median ? b : a);
result(
  "first call",
  `outline 1 MB TS: first ${base.first.median.toFixed(0)} ms = ${
    base.ratio.median.toFixed(2)
  }× warm with V8 defaults (goal ≤ 1.3×: ${base.ratio.median <= 1.3 ? "met" : "NOT met"}; with the set-up ${
    base.cli.median.toFixed(2)
  }×); best flags ${best.name}: ${best.ratio.median.toFixed(2)}×, with the set-up ${
    best.cli.median.toFixed(2)
  }×`,
);
