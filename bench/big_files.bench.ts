/**
 * Big files (issue 22, item 14): a 50 MB TypeScript file (generated: 1.3 million small functions), and
 * read_file (its default read, which names what it left out, and two ranges), outline, edit_file (written
 * with the syntax guard, and without it: a dry run and a write), apply_edits without the guard (dry runs),
 * a file-scope rename dry run, and write_file of its whole text (changed at the end) over a copy of it, each
 * in its own
 * process, for wall time and peak RSS. The baseline, measured in the same run: `wc -l` on the file, and a
 * plain Deno script that reads the file as text and splits it into lines (its own process too).
 *
 * Goals: reading a range costs one scan plus the range (seconds, not tens); peak memory ≤ 4× the file's
 * size for any tool on it; a tool that would need a parse refuses up front (the parse limit).
 *
 * `deno run -A bench/big_files.bench.ts [--mb 50]`
 *
 * @module
 */
import { machine, printTable, result } from "./_util.ts";

const mbArg = Deno.args.indexOf("--mb");
const MB = mbArg === -1 ? 50 : Number(Deno.args[mbArg + 1]);
const casesArg = Deno.args.indexOf("--cases");
const ALL_CASES = [
  "read_default",
  "read_range",
  "read_tail",
  "outline",
  "edit_file",
  "edit_file_unguarded",
  "apply_edits_unguarded",
  "apply_edits_two_blocks",
  "rename_dry_run",
  "write_file", // over a copy of the file, the syntax guard on (the default)
  "write_file_unguarded", // the same, syntax_guard "off": written
  "edit_file_unguarded_write", // last: it changes the file
];
/** The calls to measure (`--cases read_range,outline`; default all). */
const CASES = casesArg === -1 ? ALL_CASES : Deno.args[casesArg + 1]!.split(",");
const timeoutArg = Deno.args.indexOf("--timeout");
/** A call still running after this long is killed and reported as such. */
const TIMEOUT_S = timeoutArg === -1 ? 300 : Number(Deno.args[timeoutArg + 1]);
const dir = await Deno.makeTempDir({ prefix: "graver-big-" });

/** A TypeScript file of about `mb` megabytes: functions f0, f1, … each a few lines. */
async function writeBigFile(path: string, mb: number): Promise<number> {
  const chunks: string[] = [];
  let size = 0;
  for (let i = 0; size < mb * 1024 * 1024; i++) {
    const chunk = `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`;
    chunks.push(chunk);
    size += chunk.length;
  }
  await Deno.writeTextFile(path, chunks.join(""));
  await Deno.writeTextFile(`${path.slice(0, path.lastIndexOf("/"))}/small.ts`, chunks[0]!);
  return size;
}

interface Run {
  case: string;
  ms: number;
  peak_rss_mb: number;
  ok: boolean;
  code?: string;
  message?: string;
}

/** Run one case in a child process. */
async function child(which: string): Promise<Run> {
  const out = await new Deno.Command(Deno.execPath(), {
    // write_file's child collects the bytes its argument was made from (gc); the flag alone changes the
    // other calls' peaks, so only its child has it.
    args: [
      "run",
      "-A",
      ...(which.startsWith("write_file") ? ["--v8-flags=--expose-gc"] : []),
      new URL("./_big_files_child.ts", import.meta.url).pathname,
      which,
      dir,
    ],
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(TIMEOUT_S * 1000),
  }).output().catch(() => null);
  if (!out || out.signal !== null || out.code === 143) {
    return {
      case: which,
      ms: TIMEOUT_S * 1000,
      peak_rss_mb: NaN,
      ok: false,
      code: `killed after ${TIMEOUT_S} s`,
    };
  }
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  try {
    return JSON.parse(lines[lines.length - 1]!) as Run;
  } catch {
    return { case: which, ms: NaN, peak_rss_mb: NaN, ok: false, code: `crashed (exit ${out.code})` };
  }
}

/** Wall time of `wc -l` on the file. */
async function wc(): Promise<number> {
  const t = performance.now();
  await new Deno.Command("wc", { args: ["-l", `${dir}/big.ts`], stdout: "null" }).output();
  return Math.round(performance.now() - t);
}

try {
  const bytes = await writeBigFile(`${dir}/big.ts`, MB);
  const fileMb = bytes / 1024 / 1024;
  console.log(`# Big files: one ${fileMb.toFixed(1)} MB TypeScript file\n\n${machine()}\n`);
  const wcMs = await wc();
  const base = await child("baseline");
  // The same process reading a one-function file: what any call costs before the big file's share.
  const idle = await child("idle");
  const runs: Run[] = [];
  for (const c of CASES) runs.push(await child(c));
  const share = (r: Run) => ((r.peak_rss_mb - idle.peak_rss_mb) / fileMb).toFixed(1);
  const rows = [["call", "outcome", "wall", "× plain read+split", "peak RSS", "(peak − idle) / file size"]];
  rows.push(["`wc -l`", "ok", `${wcMs} ms`, "", "", ""]);
  rows.push([
    "plain readTextFile + split (baseline)",
    "ok",
    `${base.ms} ms`,
    "1.0",
    `${base.peak_rss_mb} MB`,
    "",
  ]);
  rows.push([
    "read_file of a one-function file (idle)",
    "ok",
    `${idle.ms} ms`,
    "",
    `${idle.peak_rss_mb} MB`,
    "",
  ]);
  for (const r of runs) {
    const outcome = r.ok ? "ok" : `refused: ${r.code}`;
    rows.push([r.case, outcome, `${r.ms} ms`, (r.ms / base.ms).toFixed(1), `${r.peak_rss_mb} MB`, share(r)]);
  }
  printTable(rows);
  for (const r of runs) {
    if (!r.ok && r.message) console.log(`\n${r.case}: ${r.message}`);
  }
  const measured = runs.filter((r) => Number.isFinite(r.peak_rss_mb));
  const worstRss = Math.max(...measured.map((r) => (r.peak_rss_mb - idle.peak_rss_mb) / fileMb));
  const read = runs.find((r) => r.case === "read_default") ?? runs[0]!;
  result(
    "big_files",
    `${read.case} of a ${fileMb.toFixed(0)} MB file ${read.ok ? "" : `(${read.code}) `}${read.ms} ms (${
      (read.ms / base.ms).toFixed(1)
    }× plain read+split); worst peak RSS over idle ${worstRss.toFixed(1)}× file size (goal ≤ 4×: ${
      worstRss <= 4 ? "met" : "NOT met"
    })`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
