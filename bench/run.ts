/**
 * Run every benchmark in `bench/` (`*.bench.ts`), one after another, each as
 * its own `deno run -A` process, print each one's report as it runs, then a
 * summary of the `RESULT <name>: <text>` lines the benchmarks printed.
 *
 * ```sh
 * npx -y deno@2.9.6 task bench                       # everything
 * npx -y deno@2.9.6 task bench --filter parse        # files whose name contains "parse"
 * npx -y deno@2.9.6 task bench --list                # list the benchmarks and exit
 * npx -y deno@2.9.6 task bench -- --runs 3           # pass "--runs 3" to every benchmark
 * ```
 *
 * Exits 1 when a benchmark fails (crashes or exits non-zero). Figures never
 * fail the run: the goals are reported, not asserted.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const ROOT = fileURLToPath(new URL("../", import.meta.url));

interface Outcome {
  file: string;
  code: number;
  seconds: number;
  results: string[];
}

function usage(message: string): never {
  console.error(
    `${message}\nusage: deno task bench [--filter SUBSTRING]... [--list] [-- ARGS FOR EACH BENCH]`,
  );
  Deno.exit(2);
}

function parseArgs(args: string[]): { filters: string[]; list: boolean; passThrough: string[] } {
  const filters: string[] = [];
  let list = false;
  const dash = args.indexOf("--");
  const own = dash === -1 ? args : args.slice(0, dash);
  const passThrough = dash === -1 ? [] : args.slice(dash + 1);
  for (let i = 0; i < own.length; i++) {
    const a = own[i]!;
    if (a === "--filter") {
      const value = own[++i];
      if (value === undefined) usage(`Cannot use "--filter" without a value`);
      filters.push(value);
    } else if (a.startsWith("--filter=")) filters.push(a.slice("--filter=".length));
    else if (a === "--list") list = true;
    else usage(`Cannot use argument "${a}": unknown`);
  }
  return { filters, list, passThrough };
}

async function benchFiles(filters: string[]): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(BENCH_DIR)) {
    if (e.isFile && e.name.endsWith(".bench.ts")) names.push(e.name);
  }
  return names.sort().filter((n) => filters.length === 0 || filters.some((f) => n.includes(f)));
}

/** Run one benchmark, echoing its stdout and collecting its RESULT lines. */
async function runOne(file: string, passThrough: string[]): Promise<Outcome> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `bench/${file}`, ...passThrough],
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const results: string[] = [];
  const encoder = new TextEncoder();
  let pending = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    await Deno.stdout.write(encoder.encode(chunk));
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (line.startsWith("RESULT ")) results.push(line.slice("RESULT ".length));
  }
  if (pending.startsWith("RESULT ")) results.push(pending.slice("RESULT ".length));
  const { code } = await child.status;
  return { file, code, seconds: (performance.now() - started) / 1000, results };
}

const { filters, list, passThrough } = parseArgs(Deno.args);
const files = await benchFiles(filters);
if (files.length === 0) usage(`Cannot find a benchmark matching ${filters.map((f) => `"${f}"`).join(", ")}`);
if (list) {
  for (const f of files) console.log(`bench/${f}`);
  Deno.exit(0);
}

const outcomes: Outcome[] = [];
for (const file of files) {
  console.log(`\n=== bench/${file} ===`);
  outcomes.push(await runOne(file, passThrough));
}

console.log(`\n=== summary (${new Date().toISOString()}, ${navigator.hardwareConcurrency} cores) ===`);
for (const o of outcomes) {
  const status = o.code === 0 ? "ok" : `FAILED (exit ${o.code})`;
  console.log(`bench/${o.file}: ${status}, ${o.seconds.toFixed(1)} s`);
  for (const r of o.results) console.log(`  ${r}`);
}
const failed = outcomes.filter((o) => o.code !== 0).length;
console.log(`benchmarks: ${outcomes.length - failed} ran, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
