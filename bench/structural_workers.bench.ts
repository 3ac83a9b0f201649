/**
 * The gate of a parse-and-match worker pool for `search_structural` (issue 24): does spreading the parse and
 * match of the files a structural search parses over workers pay on this machine? On hono's package (its
 * JavaScript files), for each pattern, the texts of exactly the files a search parses are collected once;
 * then, runs interleaved:
 *
 * - main: those files parsed and matched on the main thread, one after the other, as the search does today
 *   (a fresh parse cache each run, a compiled program and a warm grammar);
 * - pool N: the same texts posted to a long-lived pool of N workers (each loaded the runtime and the grammar
 *   once, from a `WebAssembly.Module` posted to it, and compiled the pattern), at most two files in flight per
 *   worker, the sites posted back; each worker's parse cache emptied between runs (not timed);
 * - ast-grep: `ast-grep run -p` on the tree, wall time.
 *
 * The pool's start (workers spawned, wasm instantiated, pattern compiled, until every worker said ready) is
 * timed apart. Every mode's site count is checked equal first.
 *
 *   AST_GREP=$PWD/tools/node_modules/.bin/ast-grep deno run -A bench/structural_workers.bench.ts [--runs N]
 *
 * @module
 */
import { Grammars, type WasmInput } from "../src/syntax/grammars.ts";
import { TreeCache } from "../src/syntax/trees.ts";
import { createMemoryBackend, createWorkspace } from "../src/mod.ts";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { patternMatcherOf } from "../src/structural/search/mod.ts";
import { astGrepOrExit, type ParsedText as Text, parsedTexts } from "./_structural.ts";
import { machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const RUNS = runsArg(Deno.args, 7);
const LANGUAGE = "javascript";
const PATTERNS = ["return $X", "c.req.header($A)"];
const SIZES = [1, 2, 3];
/** Untimed runs of each mode first. */
const WARMUP = 3;
/** Characters of text per message (files are posted in batches: each message costs ~0.15 ms). */
const BATCH_CHARS = Number(Deno.env.get("BATCH_CHARS") ?? 32_000);
/** Messages in flight per worker. */
const DEPTH = 2;

/** Parse and match every text on this thread with a fresh parse cache; returns the number of sites. */
async function onMain(grammars: Grammars, pattern: string, texts: Text[]): Promise<number> {
  const trees = new TreeCache(grammars);
  const program = await patternMatcherOf({ grammars, trees }).compile(LANGUAGE, { pattern });
  let sites = 0;
  for (let i = 0; i < texts.length; i++) {
    sites += (await program.match({ path: texts[i]!.path, text: texts[i]!.text, version: `v${i}` })).length;
  }
  trees.clear();
  return sites;
}

/** A long-lived pool of workers, each with the pattern compiled. */
class Pool {
  readonly workers: Worker[] = [];
  readonly waiting = new Map<number, (sites: unknown[]) => void>();
  nextId = 0;

  static async start(size: number, wasm: { runtime: WasmInput; grammar: WasmInput }, pattern: string) {
    const pool = new Pool();
    await Promise.all(Array.from({ length: size }, () => pool.spawn(wasm, pattern)));
    return pool;
  }

  spawn(wasm: { runtime: WasmInput; grammar: WasmInput }, pattern: string): Promise<void> {
    const w = new Worker(new URL("./_structural_worker.ts", import.meta.url), { type: "module" });
    this.workers.push(w);
    return new Promise((ready) => {
      w.onmessage = (event: MessageEvent) => {
        const m = event.data;
        if (m.type === "ready" || m.type === "reset") return ready();
        const done = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (m.error) throw new Error(m.error);
        done!(m.sites);
      };
      w.postMessage({ type: "init", ...wasm, language: LANGUAGE, query: { pattern } });
    });
  }

  /** Empty every worker's parse cache. */
  async reset(): Promise<void> {
    await Promise.all(this.workers.map((w) =>
      new Promise<void>((done) => {
        const before = w.onmessage;
        w.onmessage = (event) => {
          w.onmessage = before;
          done();
          void event;
        };
        w.postMessage({ type: "reset" });
      })
    ));
  }

  /** Match every text, at most DEPTH in flight per worker, results kept in order; returns the site count. */
  async run(texts: Text[]): Promise<number> {
    const results: unknown[][] = new Array(texts.length);
    let next = 0;
    const feed = async (w: Worker): Promise<void> => {
      while (next < texts.length) {
        const from = next;
        let chars = 0;
        while (next < texts.length && (next === from || chars < BATCH_CHARS)) {
          chars += texts[next++]!.text.length;
        }
        const files = texts.slice(from, next).map((t, k) => ({ ...t, version: `v${from + k}` }));
        const id = this.nextId++;
        const sites = await new Promise<unknown[]>((done) => {
          this.waiting.set(id, done);
          w.postMessage({ type: "match", id, files });
        });
        sites.forEach((s, k) => results[from + k] = s as unknown[]);
      }
    };
    await Promise.all(this.workers.flatMap((w) => Array.from({ length: DEPTH }, () => feed(w))));
    return results.reduce((n, r) => n + r.length, 0);
  }

  close(): void {
    for (const w of this.workers) w.terminate();
  }
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

/** CPU time this process has used on every thread (user + system, ms; Linux only, else NaN). */
function cpuMs(): number {
  try {
    const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

/** CPU ms summed over the timed runs of each mode (the work a mode does, whatever the other load). */
const CPU = new Map<string, number>();

async function timed(f: () => Promise<unknown>, mode = ""): Promise<number> {
  const cpu = cpuMs();
  const t = performance.now();
  await f();
  const wall = performance.now() - t;
  CPU.set(mode, (CPU.get(mode) ?? 0) + cpuMs() - cpu);
  return wall;
}

const bin = await astGrepOrExit("structural_workers.bench");
const root = Deno.realPathSync(`${ROOT}node_modules/hono`);
const load = () => Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`# structural search: parse+match on workers (${machine()}, load ${load()})\n`);
const runtimeBytes = await Deno.readFile(new URL("../wasm/web-tree-sitter.wasm", import.meta.url));
const grammarBytes = await Deno.readFile(new URL(`../grammars/wasm/${LANGUAGE}.wasm`, import.meta.url));
const wasm = {
  runtime: await WebAssembly.compile(runtimeBytes),
  grammar: await WebAssembly.compile(grammarBytes),
};
const grammars = new Grammars(createWasmLoader());
const rows = [[
  "pattern",
  "files",
  "mode",
  "median",
  "min",
  "/ main",
  "/ ast-grep",
  "CPU per run",
  "pool start",
]];
for (const pattern of PATTERNS) {
  const texts = await parsedTexts(
    await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() }),
    { root, pattern, language: "js" },
  );
  const bytes = texts.reduce((n, t) => n + t.text.length, 0);
  const pools: Pool[] = [];
  const starts: number[] = [];
  for (const size of SIZES) {
    const t = performance.now();
    pools.push(await Pool.start(size, wasm, pattern));
    starts.push(performance.now() - t);
  }
  const want = await onMain(grammars, pattern, texts);
  for (const pool of pools) {
    const got = await pool.run(texts);
    if (got !== want) {
      throw new Error(`${pattern}: a pool of ${pool.workers.length} finds ${got}, main ${want}`);
    }
  }
  // Warm each mode up (the workers' JIT and wasm tiers, the main thread's) before timing.
  for (let r = 0; r < WARMUP; r++) {
    await onMain(grammars, pattern, texts);
    for (const pool of pools) {
      await pool.reset();
      await pool.run(texts);
    }
  }
  const theirs = await astGrep(bin, root, pattern);
  if (theirs !== want) throw new Error(`${pattern}: ast-grep finds ${theirs}, graver ${want}`);
  const main: number[] = [];
  const pooled: number[][] = SIZES.map(() => []);
  const sg: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    main.push(await timed(() => onMain(grammars, pattern, texts), `${pattern} main`));
    for (let p = 0; p < pools.length; p++) {
      await pools[p]!.reset();
      pooled[p]!.push(await timed(() => pools[p]!.run(texts), `${pattern} ${SIZES[p]}`));
    }
    sg.push(await timed(() => astGrep(bin, root, pattern)));
  }
  for (const pool of pools) pool.close();
  if (Deno.args.includes("--samples")) {
    console.log(pattern, { main, pooled, sg }, `load ${load()}`);
  }
  const m = stats(main).median;
  const s = stats(sg).median;
  const name = `${pattern} (${want} sites)`;
  const row = (mode: string, xs: number[], key: string, start?: number) => {
    const st = stats(xs);
    const cpu = CPU.get(`${pattern} ${key}`);
    rows.push([
      name,
      `${texts.length} (${(bytes / 1024).toFixed(0)} K chars)`,
      mode,
      `${st.median.toFixed(1)} ms`,
      `${st.min.toFixed(1)} ms`,
      `${(st.median / m).toFixed(2)}×`,
      `${(st.median / s).toFixed(2)}×`,
      cpu === undefined ? "" : `${(cpu / RUNS).toFixed(0)} ms`,
      start === undefined ? "" : `${start.toFixed(1)} ms`,
    ]);
  };
  row("main thread", main, "main");
  SIZES.forEach((size, i) => row(`pool of ${size}`, pooled[i]!, String(size), starts[i]));
  row("ast-grep (whole run)", sg, "sg");
  result(`${pattern}: pool of 2 / main thread (median)`, `${(stats(pooled[1]!).median / m).toFixed(2)}×`);
}
printTable(rows);
console.log(`\nload average after: ${load()}`);
