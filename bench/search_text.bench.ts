/**
 * `search_text` against an `rg` process on the same tree for the same query, both finding every match:
 * hono's published package (node_modules, 577 files, 3.8 MB) and a tree about ten times larger (typescript,
 * rxjs and @modelcontextprotocol/sdk copied into a temporary folder, ~41 MB). graver walks the tree each time
 * (the walk of `fs/walk.ts` over a disk Stage, `.gitignore` honoured) and returns every match with its version
 * and occurrence id; rg prints `path:line:column:text` for each. Three graver figures:
 *
 * - warm session: the search a server or library session makes after its first (the session's read cache,
 *   `project/read_cache.ts`: one stat of every folder and file, unchanged ones not listed or read again);
 * - cold, in process: a fresh cache (every folder listed, every file read), the process itself warm;
 * - cold CLI: a fresh `bin/graver grep` process, beside an `rg` process and graver's process start
 *   (`bin/graver --version`), for the goal "≤ rg's time + graver's process start".
 *
 * Runs alternate; each figure is a median, the ratio graver / rg. Each query's count of matched lines is
 * checked equal first, so that neither side's figure is of a no-op.
 *
 *   deno run -A bench/search_text.bench.ts [--runs N] [--cli-only]
 *
 * `--cli-only` runs the cold CLI part alone, with where a cold grep's time goes (`_grep_cold_child.ts`), and the
 * same grep with each file read on its own (a backend without `readMany`) in the same run, as a baseline.
 *
 * Goals (issue 24): warm median ratio ≤ 1.0 on hono, ≤ 1.5 on the larger tree; cold CLI ≤ rg + start.
 *
 * @module
 */
import { normalizeSearchTextArgs, type SearchFiles, searchText } from "../src/search/mod.ts";
import { diskReadCache, diskSearchFiles, RG_SAME_IGNORES } from "../tests/unit/search/_rg.ts";
import process from "node:process";
import { RACY_MS } from "../src/project/read_cache.ts";
import { describe, machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

interface Query {
  name: string;
  args: Record<string, unknown>;
  rg: string[];
}

const QUERIES: Query[] = [
  { name: "fixed string", args: { pattern: "createElement", literal: true }, rg: ["-F"] },
  { name: "regex with a literal", args: { pattern: "new\\s+Error\\(" }, rg: [] },
  { name: "ignore case", args: { pattern: "content-type", ignore_case: true }, rg: ["-i"] },
  { name: "whole word", args: { pattern: "ctx", word: true }, rg: ["-w"] },
  { name: "alternatives", args: { pattern: "TODO|FIXME" }, rg: [] },
  { name: "regex without a literal", args: { pattern: "[A-Z]{4,}_[A-Z]{3,}" }, rg: [] },
];

const RUNS = runsArg(Deno.args, 7);

async function graver(files: SearchFiles, q: Query): Promise<number> {
  const query = normalizeSearchTextArgs({ ...q.args, max_results: 10_000_000, max_chars: 1e12 });
  const r = await searchText(files, query);
  return r.matches!.length; // matched lines, as rg prints them
}

/** rg's arguments for a query. */
function rgArgs(q: Query): string[] {
  return [
    ...RG_SAME_IGNORES,
    "-n",
    "--column",
    "--no-heading",
    "--color",
    "never",
    ...q.rg,
    "-e",
    String(q.args.pattern),
    "./",
  ];
}

async function rg(root: string, q: Query): Promise<number> {
  const args = rgArgs(q);
  const out = await new Deno.Command("rg", { args, cwd: root, stdout: "piped", stderr: "null" }).output();
  if (out.code > 1) throw new Error(`rg failed on ${q.name}`);
  const text = new TextDecoder().decode(out.stdout);
  return text === "" ? 0 : text.split("\n").length - 1;
}

/**
 * CPU time (user + system, every thread) of one rg process, in ms: `RUNS` processes in a row under
 * `/usr/bin/time` (its figures have 10 ms steps), divided. On a loaded machine wall times measure the
 * scheduler as much as the work; CPU times do not.
 */
async function rgCpu(root: string, q: Query): Promise<number> {
  const quoted = rgArgs(q).map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const script = `for i in $(seq ${RUNS}); do rg ${quoted} >/dev/null; done`;
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%U %S", "sh", "-c", script],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  const [user, system] = new TextDecoder().decode(out.stderr).trim().split("\n").at(-1)!.split(" ").map(
    Number,
  );
  return ((user! + system!) * 1000) / RUNS;
}

/** CPU time (user + system, every thread of this process) of one call, in ms. */
async function cpuOf(f: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** Time one call. */
async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

/** Copy the larger tree's packages into a temporary folder (the walk does not leave its root). */
async function largeTree(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graver-search-bench-" });
  for (const pkg of ["typescript", "rxjs", "@modelcontextprotocol/sdk"]) {
    const from = Deno.realPathSync(`${ROOT}node_modules/${pkg}`);
    const to = `${dir}/${pkg.replace("/", "__")}`;
    const { code } = await new Deno.Command("cp", { args: ["-rL", from, to] }).output();
    if (code !== 0) throw new Error(`cp ${from} failed`);
  }
  // Files changed in the last RACY_MS are read again by a session's cache (their stat is not yet trusted):
  // wait them out, as an editor's tree at rest would be.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  return dir;
}

async function treeSize(root: string): Promise<string> {
  const out = await new Deno.Command("du", { args: ["-sh", root], stdout: "piped" }).output();
  const files = await new Deno.Command("sh", {
    args: ["-c", `find "${root}" -type f | wc -l`],
    stdout: "piped",
  }).output();
  return `${new TextDecoder().decode(out.stdout).split("\t")[0]}, ${
    new TextDecoder().decode(files.stdout).trim()
  } files`;
}

/** Median ratios of one tree: [warm session / rg, cold in process / rg, warm CPU time / rg's]. */
async function benchTree(label: string, root: string): Promise<[number, number, number]> {
  console.log(`\n## ${label}: ${root} (${await treeSize(root)})\n`);
  const rows = [[
    "query",
    "lines",
    "graver, warm session",
    "graver, cold",
    "rg process",
    "warm / rg",
    "cold / rg",
    "CPU: warm / rg",
  ]];
  const cache = diskReadCache();
  const warmRatios: number[] = [];
  const coldRatios: number[] = [];
  const cpuRatios: number[] = [];
  for (const q of QUERIES) {
    const counts = [
      await graver(diskSearchFiles(root, { cache }), q),
      await graver(diskSearchFiles(root), q),
      await rg(root, q),
    ]; // warm-up; the cache holds the tree from here on
    if (new Set(counts).size !== 1) throw new Error(`${label} ${q.name}: matched lines differ: ${counts}`);
    const w: number[] = [];
    const c: number[] = [];
    const r: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      w.push(await timed(() => graver(diskSearchFiles(root, { cache }), q)));
      c.push(await timed(() => graver(diskSearchFiles(root), q)));
      r.push(await timed(() => rg(root, q)));
    }
    const base = stats(r).median;
    warmRatios.push(stats(w).median / base);
    coldRatios.push(stats(c).median / base);
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) cpu.push(await cpuOf(() => graver(diskSearchFiles(root, { cache }), q)));
    const cpuRatio = stats(cpu).median / await rgCpu(root, q);
    cpuRatios.push(cpuRatio);
    rows.push([
      q.name,
      String(counts[0]),
      describe(stats(w)),
      describe(stats(c)),
      describe(stats(r)),
      `${warmRatios.at(-1)!.toFixed(2)}×`,
      `${coldRatios.at(-1)!.toFixed(2)}×`,
      `${cpuRatio.toFixed(2)}×`,
    ]);
  }
  printTable(rows);
  await cache.close(); // the session ends: its watch of the tree stops (one left open slows every other)
  return [stats(warmRatios).median, stats(coldRatios).median, stats(cpuRatios).median];
}

/** A process's wall time. */
async function processTime(cmd: string, args: string[], cwd: string): Promise<number> {
  return await timed(() => new Deno.Command(cmd, { args, cwd, stdout: "null", stderr: "null" }).output());
}

/** Cold CLI: `bin/graver grep` against `rg` and graver's start, on hono (medians, runs interleaved). */
async function benchCli(root: string): Promise<{ graver: number; rg: number; start: number }> {
  const bin = `${ROOT}bin/graver`;
  const q = QUERIES[0]!;
  const pattern = String(q.args.pattern);
  const grep = ["grep", "-F", pattern];
  const rgArgs = [...RG_SAME_IGNORES, "-n", "--column", "-F", pattern, "./"];
  const trivial = ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}bench/_import_child.ts`];
  await processTime(bin, grep, root); // compile cache, page cache
  await grepPhases(root, pattern);
  const g: number[] = [];
  const r: number[] = [];
  const s: number[] = [];
  const d: number[] = [];
  const phases: Record<string, number[]> = {};
  for (let i = 0; i < RUNS; i++) {
    g.push(await processTime(bin, grep, root));
    r.push(await processTime("rg", rgArgs, root));
    s.push(await processTime(bin, ["--version"], root));
    d.push(await processTime(Deno.execPath(), trivial, root));
    for (const [k, v] of Object.entries(await grepPhases(root, pattern))) (phases[k] ??= []).push(v);
    const each = await grepPhases(root, pattern, { oneReadEach: true });
    for (const [k, v] of Object.entries(each)) (phases[`each_${k}`] ??= []).push(v);
  }
  console.log(
    `\n## cold CLI on hono (${q.name}): bin/graver grep ${describe(stats(g))}, rg ${describe(stats(r))}, ` +
      `bin/graver --version ${describe(stats(s))}, a trivial deno run ${describe(stats(d))}\n`,
  );
  const median = (k: string) => stats(phases[k]!).median.toFixed(1);
  const row = (label: string, k: string) => [label, median(k), median(`${k}_cpu`)];
  printTable([
    [
      "where a cold grep's time goes, inside one fresh process (bench/_grep_cold_child.ts)",
      "wall ms",
      "CPU ms",
    ],
    row("the runtime's start, up to the first line of the module", "start"),
    row("the CLI's modules (the Deno CLI entry: what --version loads too)", "modules"),
    row("the search engines (what search_text imports on its first call)", "engine"),
    row(
      "the grep: workspace opened, every folder listed, every file read and scanned, lines printed",
      "search",
    ),
    row("the same grep again, in a fresh workspace and read cache, the JIT warm", "again"),
    row(
      "the grep, each file read on its own (`--one-read-each`: no `readMany`, as before batched reads)",
      "each_search",
    ),
    row("the same again, each file read on its own, the JIT warm", "each_again"),
  ]);
  const ratio = (k: string) => (stats(phases[k]!).median / stats(phases[`each_${k}`]!).median).toFixed(2);
  console.log(
    `\nbatched reads / one read each, same run: the grep ${ratio("search")}× wall, ${
      ratio("search_cpu")
    }× CPU; ` +
      `again ${ratio("again")}× wall, ${ratio("again_cpu")}× CPU\n`,
  );
  return { graver: stats(g).median, rg: stats(r).median, start: stats(s).median };
}

/**
 * The phases of one cold `graver grep -F PATTERN` in a fresh process, in ms (`_grep_cold_child.ts`); with
 * `oneReadEach`, over a disk backend without `readMany`.
 */
async function grepPhases(
  root: string,
  pattern: string,
  options: { oneReadEach?: boolean } = {},
): Promise<Record<string, number>> {
  const child = ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}bench/_grep_cold_child.ts`, pattern];
  const out = await new Deno.Command(Deno.execPath(), {
    args: options.oneReadEach ? [...child, "--one-read-each"] : child,
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) throw new Error(`_grep_cold_child.ts failed: ${new TextDecoder().decode(out.stderr)}`);
  const { printed: _, ...phases } = JSON.parse(new TextDecoder().decode(out.stdout)) as Record<
    string,
    number
  >;
  return phases;
}

/** The cold CLI's RESULT line. */
function cliResult(cli: { graver: number; rg: number; start: number }): void {
  const budget = cli.rg + cli.start;
  result(
    "bin/graver grep cold / (rg + graver's process start) on hono",
    `${(cli.graver / budget).toFixed(2)}× (${cli.graver.toFixed(0)} ms vs ${cli.rg.toFixed(0)} + ${
      cli.start.toFixed(0)
    } ms; goal ≤ 1: ${cli.graver <= budget ? "met" : "NOT met"})`,
  );
}

if (Deno.args.includes("--cli-only")) {
  console.log(`# bin/graver grep cold vs ripgrep (${machine()}, rg: ${await rgVersion()})`);
  cliResult(await benchCli(Deno.realPathSync(`${ROOT}node_modules/hono`)));
  Deno.exit(0);
}

console.log(`# search_text vs ripgrep (${machine()}, rg: ${await rgVersion()})`);
const honoRoot = Deno.realPathSync(`${ROOT}node_modules/hono`);
const hono = await benchTree("hono", honoRoot);
const cli = await benchCli(honoRoot);
const big = await largeTree();
let large: [number, number, number];
try {
  large = await benchTree("10× tree", big);
} finally {
  await Deno.remove(big, { recursive: true });
}
console.log();
const verdict = (ratio: number, goal: number) =>
  `${ratio.toFixed(2)}× (goal ≤ ${goal}: ${ratio <= goal ? "met" : "NOT met"})`;
result("search_text warm session / rg on hono, median of queries", verdict(hono[0], 1));
result("search_text cold in process / rg on hono, median of queries", verdict(hono[1], 1));
result("search_text warm session / rg on the 10× tree, median of queries", verdict(large[0], 1.5));
result("search_text cold in process / rg on the 10× tree, median of queries", verdict(large[1], 1.5));
result("search_text warm session CPU time / rg's on hono, median of queries", `${hono[2].toFixed(2)}×`);
result(
  "search_text warm session CPU time / rg's on the 10× tree, median of queries",
  `${large[2].toFixed(2)}×`,
);
cliResult(cli);

async function rgVersion(): Promise<string> {
  const out = await new Deno.Command("rg", { args: ["--version"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n")[0]!;
}
