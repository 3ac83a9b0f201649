/**
 * `search_text`'s engine, warm (the same process has searched before), against an `rg` process on the same
 * tree for the same query, both finding every match: hono's published package (node_modules, 577 files,
 * 3.8 MB) and a tree about ten times larger (typescript, rxjs and @modelcontextprotocol/sdk copied into a
 * temporary folder, ~41 MB). graver walks the tree each time (the walk of `fs/walk.ts` over a disk Stage,
 * `.gitignore` honoured) and returns every match with its version and occurrence id; rg prints
 * `path:line:column:text` for each. Runs alternate; each figure is a median, the ratio graver / rg. Each
 * query's count of matched lines is checked equal first, so that neither side's figure is of a no-op.
 *
 *   deno run -A bench/search_text.bench.ts [--runs N]
 *
 * Goals (issue: text search): median ratio ≤ 1.0 on hono, ≤ 1.5 on the larger tree.
 *
 * @module
 */
import { normalizeSearchTextArgs, type SearchFiles, searchText } from "../src/search/mod.ts";
import { diskSearchFiles, RG_SAME_IGNORES } from "../tests/unit/search/_rg.ts";
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

/**
 * The tree's files held in memory, as a warm session's project cache holds them: the search still decodes,
 * scans and hashes on every call; only the walk and the reads are not repeated.
 */
async function cachedTree(root: string): Promise<SearchFiles> {
  const disk = diskSearchFiles(root);
  const held = new Map<string, Uint8Array>();
  for await (const f of disk.files({ path: "", hidden: false, noIgnore: false })) {
    held.set(f.path, await disk.read(f.path));
  }
  return {
    async *files() {
      for (const [path, bytes] of held) yield { path, size: bytes.length };
    },
    read: (path) => Promise.resolve(held.get(path)!),
  };
}

async function graver(files: SearchFiles, q: Query): Promise<number> {
  const query = normalizeSearchTextArgs({ ...q.args, max_results: 10_000_000, max_chars: 1e12 });
  const r = await searchText(files, query);
  return r.matches!.length; // matched lines, as rg prints them
}

async function rg(root: string, q: Query): Promise<number> {
  const args = [
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
  const out = await new Deno.Command("rg", { args, cwd: root, stdout: "piped", stderr: "null" }).output();
  if (out.code > 1) throw new Error(`rg failed on ${q.name}`);
  const text = new TextDecoder().decode(out.stdout);
  return text === "" ? 0 : text.split("\n").length - 1;
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

/** Median ratios of one tree: [cached / rg, disk walk / rg]. */
async function benchTree(label: string, root: string): Promise<[number, number]> {
  console.log(`\n## ${label}: ${root} (${await treeSize(root)})\n`);
  const rows = [[
    "query",
    "lines",
    "graver, files held",
    "graver, disk walk",
    "rg process",
    "held / rg",
    "walk / rg",
  ]];
  const cached = await cachedTree(root);
  const held: number[] = [];
  const walked: number[] = [];
  for (const q of QUERIES) {
    const counts = [await graver(cached, q), await graver(diskSearchFiles(root), q), await rg(root, q)]; // warm-up
    if (new Set(counts).size !== 1) throw new Error(`${label} ${q.name}: matched lines differ: ${counts}`);
    const c: number[] = [];
    const d: number[] = [];
    const r: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      c.push(await timed(() => graver(cached, q)));
      d.push(await timed(() => graver(diskSearchFiles(root), q)));
      r.push(await timed(() => rg(root, q)));
    }
    const base = stats(r).median;
    held.push(stats(c).median / base);
    walked.push(stats(d).median / base);
    rows.push([
      q.name,
      String(counts[0]),
      describe(stats(c)),
      describe(stats(d)),
      describe(stats(r)),
      `${held.at(-1)!.toFixed(2)}×`,
      `${walked.at(-1)!.toFixed(2)}×`,
    ]);
  }
  printTable(rows);
  return [stats(held).median, stats(walked).median];
}

console.log(`# search_text vs ripgrep (${machine()}, rg: ${await rgVersion()})`);
const hono = await benchTree("hono", Deno.realPathSync(`${ROOT}node_modules/hono`));
const big = await largeTree();
let large: [number, number];
try {
  large = await benchTree("10× tree", big);
} finally {
  await Deno.remove(big, { recursive: true });
}
console.log();
const verdict = (ratio: number, goal: number) =>
  `${ratio.toFixed(2)}× (goal ≤ ${goal}: ${ratio <= goal ? "met" : "NOT met"})`;
result("search_text warm (files held) / rg on hono, median of queries", verdict(hono[0], 1));
result("search_text through the disk walk / rg on hono, median of queries", verdict(hono[1], 1));
result("search_text warm (files held) / rg on the 10× tree, median of queries", verdict(large[0], 1.5));
result("search_text through the disk walk / rg on the 10× tree, median of queries", verdict(large[1], 1.5));

async function rgVersion(): Promise<string> {
  const out = await new Deno.Command("rg", { args: ["--version"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n")[0]!;
}
