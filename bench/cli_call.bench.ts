/**
 * Cost of one CLI call, as a fresh process each time (as an agent calling
 * `graver call …` pays it): `edit_capabilities` against a baseline of
 * `read_file` on a one-line file, measured in the same run, interleaved.
 * Both pay the same start-up (runtime, graver's modules, the workspace);
 * the ratio is what `edit_capabilities` adds on top. It is data (manifest +
 * embedded queries, no grammar wasm loaded), so the goal is ≤ 1.25× the
 * baseline.
 *
 *   deno run -A bench/cli_call.bench.ts [--runs N]
 *
 * @module
 */
import { describe, machine, printTable, result, runsArg, stats } from "./_util.ts";

const RUNS = runsArg(Deno.args, 7);
const CLI = new URL("../src/adapters/deno/cli.ts", import.meta.url).pathname;

/** Run one CLI call in a fresh process; its wall time in ms, after checking it succeeded. */
async function timeCall(
  tool: string,
  args: string,
  root: string,
  check: (out: string) => void,
): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "call", tool, args, "--root", root],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - start;
  const text = new TextDecoder().decode(out.stdout);
  if (out.code !== 0) throw new Error(`graver call ${tool} exited ${out.code}: ${text}`);
  check(text);
  return elapsed;
}

const root = await Deno.makeTempDir();
try {
  await Deno.writeTextFile(`${root}/a.py`, "x = 1\n");
  const subject = () =>
    timeCall("edit_capabilities", "{}", root, (out) => {
      const rows = JSON.parse(out).data.languages as { language: string }[];
      if (rows.length < 10) throw new Error(`edit_capabilities listed ${rows.length} languages`);
    });
  const baseline = () =>
    timeCall("read_file", '{"path":"a.py"}', root, (out) => {
      if (JSON.parse(out).data.content !== "1\tx = 1") throw new Error("read_file read the wrong content");
    });
  // Warm up (module cache, disk cache).
  await subject();
  await baseline();
  const subjectMs: number[] = [];
  const baselineMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    subjectMs.push(await subject());
    baselineMs.push(await baseline());
  }
  const s = stats(subjectMs);
  const b = stats(baselineMs);
  const ratio = s.median / b.median;
  console.log(`# One CLI call, fresh process each (${machine()})\n`);
  printTable([
    ["call", "wall time per call"],
    ["graver call edit_capabilities '{}'", describe(s)],
    ["graver call read_file (baseline)", describe(b)],
  ]);
  console.log("");
  result(
    "cli edit_capabilities",
    `${s.median.toFixed(0)} ms per call, ${ratio.toFixed(2)}× read_file (${
      b.median.toFixed(0)
    } ms); goal ≤ 1.25×: ${ratio <= 1.25 ? "met" : "NOT met"}`,
  );
} finally {
  await Deno.remove(root, { recursive: true });
}
