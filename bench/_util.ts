/**
 * Shared by the benchmarks: timing statistics, report printing, the `--runs`
 * flag, the machine line, walking the npm store for real source files, and
 * the 1 MB TypeScript corpus (real type declarations and sources from the
 * pinned npm packages in `node_modules/.deno/`, concatenated).
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { Grammars } from "../src/syntax/grammars.ts";
import { syntaxProblems } from "../src/syntax/trees.ts";

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url));

/** Summary statistics of a sample of durations (ms). */
export interface Stats {
  /** Number of samples. */
  n: number;
  /** Median. */
  median: number;
  /** Smallest sample. */
  min: number;
  /** Largest sample. */
  max: number;
}

/**
 * Median, min and max of a sample.
 *
 * @param samples Durations in ms.
 * @returns The statistics.
 */
export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { n: s.length, median, min: s[0]!, max: s[s.length - 1]! };
}

/** Format milliseconds with a sensible number of digits. */
export function ms(value: number): string {
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

/** "median (min–max, n=…)" for a sample. */
export function describe(s: Stats): string {
  return `${ms(s.median)} (min ${ms(s.min)}, max ${ms(s.max)}, n=${s.n})`;
}

/**
 * Print a table of rows (first row is the header) with aligned columns.
 *
 * @param rows Cells as strings.
 */
export function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(line(rows[0]!));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows.slice(1)) console.log(line(r));
}

/**
 * Print one summary line that `bench/run.ts` collects: `RESULT <name>: <text>`.
 *
 * @param name What was measured.
 * @param text The figure, ratio and goal.
 */
export function result(name: string, text: string): void {
  console.log(`RESULT ${name}: ${text}`);
}

/** Read `--runs N` from the arguments (default `fallback`). */
export function runsArg(args: string[], fallback: number): number {
  const i = args.indexOf("--runs");
  const n = i === -1 ? NaN : Number(args[i + 1]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** The machine, for the report header. */
export function machine(): string {
  const cores = navigator.hardwareConcurrency;
  const load = Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
  return `${Deno.build.os}/${Deno.build.arch}, ${cores} core(s), load average ${load}, deno ${Deno.version.deno}`;
}

/** Packages whose `.ts`/`.d.ts` files make up the corpus, in this order. */
const CORPUS_PACKAGES = [
  "hono@4.13.19",
  "isomorphic-git@1.44.11",
  "@cfworker+json-schema@4.1.6",
  "web-tree-sitter@0.27.1",
  "memfs@4.80.1",
  "@jsonjoy.com+",
];

/** The 1 MB TypeScript corpus. */
export interface Corpus {
  /** Absolute path of the concatenated file (in the system temp directory). */
  path: string;
  /** Its text. */
  text: string;
  /** Its size in bytes (UTF-8). */
  bytes: number;
  /** How many source files were concatenated. */
  files: number;
  /** Files skipped because they alone already parse with ERROR/MISSING nodes. */
  skipped: number;
  /** ERROR/MISSING nodes in the concatenation (expected 0). */
  errors: number;
  /** Lines. */
  lines: number;
}

/**
 * Collect the files below a directory whose name `keep` accepts, depth first
 * in name order; links are not followed and unreadable directories are skipped.
 *
 * @param dir Absolute directory.
 * @param keep Which file names to collect.
 * @param out Where the absolute paths are appended.
 * @returns `out`.
 */
export async function walkFiles(
  dir: string,
  keep: (name: string) => boolean,
  out: string[] = [],
): Promise<string[]> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) {
    const p = join(dir, e.name);
    if (e.isSymbolicLink()) continue;
    if (e.isDirectory()) await walkFiles(p, keep, out);
    else if (e.isFile() && keep(e.name)) out.push(p);
  }
  return out;
}

/**
 * Build (deterministically) a ≥ 1 MiB TypeScript file from the real `.ts` and
 * `.d.ts` files of the pinned packages, keeping only files that parse without
 * errors on their own, and write it to the temp directory.
 *
 * @param target Minimum size in bytes (default 1 MiB).
 * @returns The corpus and how it was made.
 */
export async function buildCorpus(target = 1024 * 1024): Promise<Corpus> {
  const store = join(ROOT, "node_modules", ".deno");
  const dirs = (await fsp.readdir(store)).sort();
  const files: string[] = [];
  for (const prefix of CORPUS_PACKAGES) {
    for (const d of dirs.filter((d) => d === prefix || (prefix.endsWith("+") && d.startsWith(prefix)))) {
      await walkFiles(
        join(store, d, "node_modules"),
        (name) => name.endsWith(".ts") && !name.endsWith(".tests.ts"),
        files,
      );
    }
  }
  const grammars = new Grammars(createWasmLoader());
  const parser = await grammars.parser("typescript");
  const seen = new Set<string>();
  const parts: string[] = [];
  let size = 0;
  let skipped = 0;
  const encoder = new TextEncoder();
  for (const f of files) {
    if (size >= target) break;
    const text = await fsp.readFile(f, "utf8");
    if (seen.has(text) || text.trim() === "") continue;
    seen.add(text);
    const tree = parser.parse(text)!;
    const bad = tree.rootNode.hasError;
    tree.delete();
    if (bad) {
      skipped++;
      continue;
    }
    const part = text.endsWith("\n") ? text : `${text}\n`;
    parts.push(part);
    size += encoder.encode(part).length;
  }
  if (size < target) {
    throw new Error(
      `Cannot build the 1 MB corpus: only ${size} bytes of TypeScript found under "${store}"; run "deno task setup"`,
    );
  }
  const text = parts.join("");
  const tree = parser.parse(text)!;
  const errors = syntaxProblems(tree.rootNode, 1000).length;
  tree.delete();
  parser.delete();
  const dir = join(await fsp.realpath(Deno.env.get("TMPDIR") ?? "/tmp"), "graver-bench");
  await fsp.mkdir(dir, { recursive: true });
  const path = join(dir, "corpus_1mb.ts");
  await fsp.writeFile(path, text);
  return {
    path,
    text,
    bytes: size,
    files: parts.length,
    skipped,
    errors,
    lines: text.split("\n").length - 1,
  };
}

/** One-line description of a corpus for reports. */
export function describeCorpus(c: Corpus): string {
  return `${
    (c.bytes / 1024 / 1024).toFixed(2)
  } MiB, ${c.lines} lines, ${c.files} real .ts/.d.ts files from ` +
    `node_modules (hono, isomorphic-git, @cfworker/json-schema, web-tree-sitter, memfs, @jsonjoy.com), ` +
    `${c.skipped} skipped for parse errors on their own; ERROR/MISSING nodes in the whole: ${c.errors}`;
}

/** The native tree-sitter binding's install directory (bench/native). */
export const NATIVE: string = join(ROOT, "bench", "native");
const BUILT = [
  "tree-sitter/build/Release/tree_sitter_runtime_binding.node",
  "tree-sitter-typescript/build/Release/tree_sitter_typescript_binding.node",
];

/** Install bench/native (the native binding, built from source) unless it is already there. */
export function ensureNative(): void {
  if (BUILT.every((rel) => existsSync(join(NATIVE, "node_modules", rel)))) return;
  console.log("Installing the native binding in bench/native (node-gyp build from source, ~30 s) …");
  const env: Record<string, string> = { npm_config_build_from_source: "true" };
  // node-gyp fetches Node headers unless it is pointed at local ones; use the installed Node's.
  const prefix = dirname(dirname(nodePath()));
  if (existsSync(join(prefix, "include", "node", "node.h"))) env.npm_config_nodedir = prefix;
  const args = existsSync(join(NATIVE, "package-lock.json")) ? ["ci"] : ["install"];
  const r = spawnSync("npm", [...args, "--legacy-peer-deps", "--no-audit", "--no-fund"], {
    cwd: NATIVE,
    stdio: "inherit",
    env: { ...Deno.env.toObject(), ...env },
  });
  if (r.status !== 0 || !BUILT.every((rel) => existsSync(join(NATIVE, "node_modules", rel)))) {
    throw new Error(
      `Cannot build the native tree-sitter binding in "${NATIVE}": npm exited ${r.status}; ` +
        `it needs python3, make and g++ (node-gyp) — run "npm ci --legacy-peer-deps" there to see the error`,
    );
  }
}

/** The path of the installed Node binary. */
export function nodePath(): string {
  const r = spawnSync("node", ["-p", "process.execPath"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error("Cannot find node: install Node.js 20 or later and put it on PATH");
  return r.stdout.trim();
}
