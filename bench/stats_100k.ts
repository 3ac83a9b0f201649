/**
 * `graver stats` on a project of 100,000 small files (issue 22, item 16): generates the tree in a temp dir
 * (1,000 folders of 100 files: TypeScript, Python and plain text, a few lines each), then times in the same
 * run a baseline — `find DIR -type f | wc -l`, a plain Deno walk that only lists, and a plain Deno walk that
 * reads every file and counts its lines — and `bin/graver stats --json` (a real subprocess, as a user runs
 * it). Reports seconds per run and what each counted: graver must count every file, with no cap.
 * `--before DIR` also times the CLI of another checkout (e.g. an older commit extracted with `git archive`
 * into DIR, with `node_modules` and `grammars/wasm` linked in) in the same run, for before/after figures.
 *
 * Run: `deno run -A bench/stats_100k.ts [--files 100000] [--runs 1] [--before DIR]`.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { machine, ROOT } from "./_util.ts";

function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? Deno.args[i + 1]! : fallback;
}

const FILES = Number(flag("files", "100000"));
const RUNS = Number(flag("runs", "1"));
const BEFORE = flag("before", "");
const PER_DIR = 100;

const BODIES: Record<string, string> = {
  ts: "export function f(a: number): number {\n  return a + 1;\n}\n",
  py: "def f(a):\n    return a + 1\n",
  txt: "a note\nof two lines\n",
};

/** Write `count` small files under `dir`, PER_DIR to a folder. */
async function generate(dir: string, count: number): Promise<void> {
  const exts = Object.keys(BODIES);
  for (let d = 0; d * PER_DIR < count; d++) {
    const folder = join(dir, `pkg${String(d).padStart(4, "0")}`);
    await Deno.mkdir(folder, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let i = 0; i < PER_DIR && d * PER_DIR + i < count; i++) {
      const ext = exts[i % exts.length]!;
      writes.push(Deno.writeTextFile(join(folder, `f${i}.${ext}`), BODIES[ext]!));
    }
    await Promise.all(writes);
  }
}

/** Files under `dir` by a plain recursive readDir (no reads). */
async function plainWalk(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) n += await plainWalk(join(dir, e.name));
    else if (e.isFile) n++;
  }
  return n;
}

/** Lines under `dir` by a plain recursive readDir that reads every file. */
async function plainReadWalk(dir: string): Promise<number> {
  let lines = 0;
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) lines += await plainReadWalk(path);
    else if (e.isFile) lines += (await Deno.readTextFile(path)).split("\n").length - 1;
  }
  return lines;
}

/** Run `graver stats --json` of the checkout at `checkout` on `dir`; what it counted, or how it failed. */
function graverStats(checkout: string, dir: string): string {
  const out = spawnSync(
    Deno.execPath(),
    [
      "run",
      "-A",
      "--config",
      join(checkout, "deno.json"),
      join(checkout, "src/adapters/deno/cli.ts"),
      "stats",
      "--json",
    ],
    { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 },
  );
  try {
    const s = JSON.parse(out.stdout);
    return `${s.files} files, ${s.lines} lines, truncated ${s.truncated}`;
  } catch {
    return `exit ${out.status}: ${out.stdout.slice(0, 200)} ${out.stderr.slice(0, 200)}`;
  }
}

async function timed<T>(run: () => T | Promise<T>): Promise<{ seconds: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { seconds: (performance.now() - start) / 1000, value };
}

const dir = await Deno.makeTempDir({ prefix: "graver-stats-100k-" });
try {
  const made = await timed(() => generate(dir, FILES));
  console.log(`# graver stats on ${FILES} files (generated in ${made.seconds.toFixed(1)} s)\n`);
  console.log(machine());
  console.log("\n| what | run | seconds | counted |");
  console.log("| --- | --- | --- | --- |");
  const results: string[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const find = await timed(() =>
      spawnSync("sh", ["-c", `find "${dir}" -type f | wc -l`], { encoding: "utf8" }).stdout.trim()
    );
    console.log(`| find -type f \\| wc -l | ${run} | ${find.seconds.toFixed(2)} | ${find.value} files |`);
    const walk = await timed(() => plainWalk(dir));
    console.log(
      `| plain Deno walk (list only) | ${run} | ${walk.seconds.toFixed(2)} | ${walk.value} files |`,
    );
    const read = await timed(() => plainReadWalk(dir));
    console.log(`| plain Deno walk + read | ${run} | ${read.seconds.toFixed(2)} | ${read.value} lines |`);
    const graverRuns: [string, string][] = [["graver stats --json (this checkout)", ROOT]];
    if (BEFORE !== "") graverRuns.push([`${BEFORE}: graver stats --json`, BEFORE]);
    for (const [label, checkout] of graverRuns) {
      const graver = await timed(() => graverStats(checkout, dir));
      console.log(`| ${label} | ${run} | ${graver.seconds.toFixed(2)} | ${graver.value} |`);
      if (checkout === ROOT) {
        results.push(
          `${graver.seconds.toFixed(1)} s (${(graver.seconds / read.seconds).toFixed(1)}× the plain read)`,
        );
      }
    }
  }
  console.log(`\nRESULT stats 100k: graver stats on ${FILES} files took ${results.join(", ")}`);
} finally {
  spawnSync("rm", ["-rf", dir]); // a recursive Deno.remove of 100,000 files takes minutes here
}
